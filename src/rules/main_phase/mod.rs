//! R9 — The main phase: the camps alternate single actions, Eladrins first; the phase ends when
//! both camps pass in a row (R1.2 reading). This file holds the turn order and the seam where
//! the main-phase actions (build, explore, activate, embark, merge, combat) plug in.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::{
    Army, Cycle, CycleAppExt, GameEvent, GameWorld, Placement, Refusal, RuleSet, StepDef,
    StepSchedule,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R9",
            title: "Main phase",
            decision: None,
            main: true,
        },
        Placement::End,
    )
    .add_systems(StepSchedule("R9"), start_main_phase.in_set(RuleSet::R9Main));
}

/// R9.4: every army may be activated again, every unit has its action points.
fn start_main_phase(world: &mut World) {
    let ap = world.content().rules().action_points;
    for a in world.armies() {
        if let Some(mut army) = world.get_mut::<Army>(a) {
            army.activated = false;
            for u in army.units.iter_mut() {
                u.ap = ap;
                u.embarked = false;
            }
        }
    }
    let mut c = world.resource_mut::<Cycle>();
    c.turn = Camp::Eladrins;
    c.passes = 0;
}

/// Main-phase actions need the main phase and the camp whose turn it is.
pub fn validate_turn(world: &World, by: Camp) -> Result<(), Refusal> {
    let now = world.step_id();
    if now != "R9" {
        return Err(Refusal::WrongStep {
            needs: "R9".into(),
            now: now.into(),
        });
    }
    let turn = world.resource::<Cycle>().turn;
    if turn != by {
        return Err(Refusal::NotYourTurn { expected: turn });
    }
    Ok(())
}

/// A camp passes: the turn goes to the other camp; two passes in a row end the phase.
pub fn pass(world: &mut World, by: Camp) {
    let mut c = world.resource_mut::<Cycle>();
    c.passes += 1;
    c.turn = by.enemy();
    world.emit(GameEvent::Passed { camp: by });
}

/// After any other main-phase action: the turn goes over and the pass streak breaks.
pub fn acted(world: &mut World, by: Camp) {
    let mut c = world.resource_mut::<Cycle>();
    c.passes = 0;
    c.turn = by.enemy();
}
