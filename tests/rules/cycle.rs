//! R1.2 — The cycle: upkeep steps strictly in order, then the main phase, which ends when both
//! camps pass in a row; determinism; plugins adding steps.

use std::sync::Arc;

use bevy::prelude::*;
use chaos_outpost::content::Camp;
use chaos_outpost::rules::snapshot::state_hash;
use chaos_outpost::rules::{
    Action, Cycle, CycleAppExt, GameEvent, GameWorld, Placement, Refusal, StepDef, StepKind,
    StepSchedule, setup, submit,
};
use chaos_outpost::sim;

use crate::common::*;

fn steps(events: &[GameEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::StepStarted { step, .. } => Some(step.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn r1_2_upkeep_steps_run_in_order_then_the_main_phase() {
    let mut app = setup::new_game(Arc::new(base()), "first_light", None, 3).expect("start");
    let w = app.world_mut();
    // Play upkeep decisions with the AI until the main phase.
    while w.step_id() != "R9" {
        let (by, a) = sim::next_action(w);
        submit(w, by, a).expect("legal");
    }
    let s = steps(&w.resource::<chaos_outpost::rules::Chronicle>().0);
    assert_eq!(s, vec!["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]);
}

#[test]
fn r1_2_the_main_phase_ends_when_both_camps_pass_in_a_row() {
    let mut app = setup::new_game(Arc::new(base()), "first_light", None, 3).expect("start");
    let w = app.world_mut();
    while w.step_id() != "R9" {
        let (by, a) = sim::next_action(w);
        submit(w, by, a).expect("legal");
    }
    assert_eq!(
        submit(w, Camp::Chaos, Action::Pass),
        Err(Refusal::NotYourTurn {
            expected: Camp::Eladrins
        }),
        "Eladrins act first"
    );
    submit(w, Camp::Eladrins, Action::Pass).expect("pass");
    assert_eq!(w.step_id(), "R9");
    assert_eq!(w.resource::<Cycle>().turn, Camp::Chaos);
    submit(w, Camp::Chaos, Action::Pass).expect("pass");
    assert_eq!(
        w.resource::<Cycle>().number,
        2,
        "two passes in a row: next cycle"
    );
}

#[test]
fn same_seed_and_same_actions_give_the_same_game_bit_for_bit() {
    let db = Arc::new(base());
    // A whole game on the standard level, to its result, twice.
    let (mut a, ra) = sim::play_game(db.clone(), "standard", None, 42, 200).expect("game");
    let (mut b, rb) = sim::play_game(db.clone(), "standard", None, 42, 200).expect("game");
    assert!(
        ra.winner.is_some(),
        "the game reaches a result: {}",
        ra.reason
    );
    assert_eq!(ra.hash, rb.hash);
    assert_eq!(ra.actions, rb.actions);
    assert_eq!(state_hash(a.world_mut()), state_hash(b.world_mut()));
    let (_, rc) = sim::play_game(db, "standard", None, 43, 200).expect("game");
    assert_ne!(ra.hash, rc.hash, "another seed, another game");
}

#[test]
fn every_shipped_level_plays_to_an_end_headless() {
    let db = Arc::new(base());
    for level in ["first_light", "standard", "hard"] {
        let (_, r) = sim::play_game(db.clone(), level, None, 5, 200).expect(level);
        assert!(r.winner.is_some(), "{level}: {}", r.reason);
        assert!(!r.per_cycle.is_empty());
    }
}

/// A later chapter's step, added from outside the core.
#[derive(Resource, Default)]
struct Raids(u32);

fn count_raid(mut r: ResMut<Raids>) {
    r.0 += 1;
}

#[test]
fn a_plugin_adds_a_step_without_editing_the_core() {
    let mut app = setup::headless_app(Arc::new(base()));
    fn needs_nothing(_: &mut World) -> bool {
        false
    }
    app.init_resource::<Raids>()
        .add_cycle_step(
            StepDef {
                id: "RAID",
                title: "Raid phase",
                kind: StepKind::eladrins(needs_nothing),
            },
            Placement::After("R5"),
        )
        .add_systems(StepSchedule("RAID"), count_raid);
    let w = app.world_mut();
    setup::start_game(w, "first_light", None, 9).expect("start");
    while w.step_id() != "R9" {
        let (by, a) = sim::next_action(w);
        submit(w, by, a).expect("legal");
    }
    let s = steps(&w.resource::<chaos_outpost::rules::Chronicle>().0);
    assert_eq!(
        s,
        vec!["R2", "R3", "R4", "R5", "RAID", "R6", "R7", "R8", "R9"]
    );
    assert_eq!(w.resource::<Raids>().0, 1);
}

#[test]
fn done_is_refused_in_automatic_steps_and_the_main_phase() {
    let mut s = Builder::new(3).build();
    s.at("R3");
    s.refused(
        Action::Done,
        Refusal::WrongStep {
            needs: vec!["R5".into(), "R7".into(), "R8".into()],
            now: "R3".into(),
        },
    );
    s.at("R9");
    s.refused(
        Action::Done,
        Refusal::WrongStep {
            needs: vec!["R5".into(), "R7".into(), "R8".into()],
            now: "R9".into(),
        },
    );
}

#[test]
fn actions_arrive_as_messages_and_refusals_go_back_as_messages() {
    use chaos_outpost::rules::{ActionRefused, ActionRequest};
    let mut app = setup::new_game(Arc::new(base()), "first_light", None, 3).expect("start");
    app.world_mut().write_message(ActionRequest {
        by: Camp::Chaos,
        action: Action::Done,
    });
    app.update();
    let refused: Vec<ActionRefused> = app
        .world_mut()
        .resource_mut::<Messages<ActionRefused>>()
        .drain()
        .collect();
    assert_eq!(refused.len(), 1);
    assert_eq!(
        refused[0].reason,
        Refusal::NotYourTurn {
            expected: Camp::Eladrins
        }
    );
}
