//! R9 — The main phase: the camps alternate single actions, Eladrins first; the phase ends when
//! both camps pass in a row (R1.2 reading). An action is building (R9.1, R9.2), recruiting or
//! founding, or activating an army (R9.4): the activation is one action made of several orders
//! (moves, card actions, exploring R9.3, merging, detaching, a ritual, engaging R9.5), closed by
//! `EndActivation` (or when no unit has points left); then the turn passes.
//!
//! Chaos plays the same actions with its armies, and summons at its open rifts.

pub mod activate;
pub mod build;
pub mod combat;
pub mod embark;
pub mod rituals;

use std::collections::BTreeSet;

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::{At, Camp};
use crate::rules::{
    Action, Army, Cycle, CycleAppExt, GameEvent, GameWorld, Outpost, Placement, Refusal, RuleSet,
    StepDef, StepKind, StepSchedule, outcome,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R9",
            title: "Main phase",
            kind: StepKind::Turns,
        },
        Placement::End,
    )
    .init_resource::<Summoned>()
    .add_plugins(combat::plugin)
    .add_systems(StepSchedule("R9"), start_main_phase.in_set(RuleSet::R9Main));
}

/// Rifts Chaos has summoned at this main phase.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summoned(pub BTreeSet<At>);

/// Axial pair → hex.
pub fn hex_of(at: At) -> Hex {
    Hex::new(at.0, at.1)
}

/// Hex → axial pair.
pub fn at_of(h: Hex) -> At {
    (h.x, h.y)
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
    world.resource_mut::<Summoned>().0.clear();
    let mut c = world.resource_mut::<Cycle>();
    // The player order goes on across cycles: whoever is next opens this main phase.
    c.turn = Camp::Eladrins;
    c.passes = 0;
    c.activation = None;
}

/// Main-phase actions need the main phase and the camp whose turn it is.
pub fn validate_turn(world: &World, by: Camp) -> Result<(), Refusal> {
    let now = world.step_id();
    if now != "R9" {
        return Err(Refusal::WrongStep {
            needs: vec!["R9".into()],
            now: now.into(),
        });
    }
    let turn = world.resource::<Cycle>().turn;
    if turn != by {
        return Err(Refusal::NotYourTurn { expected: turn });
    }
    Ok(())
}

/// The army being activated by `by`, or why there is none.
pub fn active_army(world: &mut World, by: Camp) -> Result<(Entity, Army), Refusal> {
    let id = world
        .resource::<Cycle>()
        .activation
        .ok_or(Refusal::NoActivation)?;
    let e = world.army_by_id(id).ok_or(Refusal::NoActivation)?;
    let a = world.get::<Army>(e).cloned().ok_or(Refusal::NoActivation)?;
    if a.camp != by {
        return Err(Refusal::NotYourArmy(id));
    }
    Ok((e, a))
}

/// A unit of the active army, with the skill named (if any) and at least one action point.
pub fn acting_unit(
    world: &mut World,
    by: Camp,
    unit: u32,
    skill: Option<(&crate::content::Skill, &str)>,
) -> Result<(Entity, Army, crate::rules::Unit), Refusal> {
    let (e, a) = active_army(world, by)?;
    let u = a
        .units
        .iter()
        .find(|u| u.id == unit)
        .cloned()
        .ok_or(Refusal::UnknownUnit(unit))?;
    if let Some((s, name)) = skill
        && !world
            .content()
            .unit(&u.kind)
            .is_some_and(|t| t.skills.contains(s))
    {
        return Err(Refusal::MissingSkill(name.into()));
    }
    if u.ap == 0 || u.inactive {
        return Err(Refusal::NoActionPoints {
            unit,
            need: 1,
            have: u.ap,
        });
    }
    Ok((e, a, u))
}

/// Spends up to `n` action points of a unit (u8::MAX: all of them, an hourglass).
pub fn spend_ap(world: &mut World, army: Entity, unit: u32, n: u8) {
    if let Some(mut a) = world.get_mut::<Army>(army)
        && let Some(u) = a.units.iter_mut().find(|u| u.id == unit)
    {
        u.ap = u.ap.saturating_sub(n);
    }
}

/// A camp passes: the turn goes to the other camp; two passes in a row end the phase.
pub fn pass(world: &mut World, by: Camp) {
    next_player(world, by);
    let mut c = world.resource_mut::<Cycle>();
    c.passes += 1;
    c.turn = by.enemy();
    world.emit(GameEvent::Passed { camp: by });
}

/// After any other main-phase action: the turn goes over and the pass streak breaks.
pub fn acted(world: &mut World, by: Camp) {
    next_player(world, by);
    let mut c = world.resource_mut::<Cycle>();
    c.passes = 0;
    c.turn = by.enemy();
}

/// Hot-seat: after an Eladrin turn, the next Eladrin player (fixed order) has the next one.
fn next_player(world: &mut World, by: Camp) {
    if by != Camp::Eladrins {
        return;
    }
    let n = world
        .resource::<crate::rules::GameSetup>()
        .players
        .len()
        .max(1);
    let mut c = world.resource_mut::<Cycle>();
    c.player = (c.player + 1) % n;
}

/// The name of the Eladrin player whose turn it is (hot-seat).
pub fn current_player(world: &World) -> String {
    let setup = world.resource::<crate::rules::GameSetup>();
    let i = world.resource::<Cycle>().player;
    setup
        .players
        .get(i)
        .cloned()
        .unwrap_or_else(|| "Eladrins".to_string())
}

/// Orders that belong inside an activation.
fn is_order(a: &Action) -> bool {
    use Action::*;
    matches!(
        a,
        Move { .. }
            | UseCard { .. }
            | Explore { .. }
            | Merge { .. }
            | Detach { .. }
            | Engage { .. }
            | Ritual { .. }
            | FoundOutpost { .. }
            | EndActivation
            | Embark
            | Land { .. }
            | Load { .. }
            | Unload { .. }
    )
}

/// Validates a main-phase action (the turn, the activation, then the action's own rule).
pub fn validate(world: &mut World, by: Camp, a: &Action) -> Result<(), Refusal> {
    validate_turn(world, by)?;
    let open = world.resource::<Cycle>().activation;
    if is_order(a) {
        if open.is_none() {
            return Err(Refusal::NoActivation);
        }
    } else if let Some(id) = open {
        return Err(Refusal::ActivationOpen(id));
    }
    owned_by_seat(world, by, a)?;
    match a {
        Action::Pass => Ok(()),
        Action::BuildImprovement { at, improvement } => {
            eladrins_only(by)?;
            build::validate_improvement(world, *at, improvement)
        }
        Action::BuildBuilding { outpost, building } => {
            eladrins_only(by)?;
            build::validate_building(world, *outpost, building)
        }
        Action::Recruit { outpost, unit } => {
            eladrins_only(by)?;
            build::validate_recruit(world, *outpost, unit)
        }
        Action::Activate { army } => activate::validate_activate(world, by, *army),
        Action::Move { to } => activate::validate_move(world, by, hex_of(*to)),
        Action::UseCard { unit, action } => activate::validate_card(world, by, *unit, action),
        Action::Explore { unit } => activate::validate_explore(world, by, *unit),
        Action::Merge { from } => activate::validate_merge(world, by, *from),
        Action::Detach { units } => activate::validate_detach(world, by, units),
        Action::Engage { target, .. } => combat::validate_engage(world, by, *target),
        Action::Ritual { ritual } => rituals::validate_ritual(world, by, ritual),
        Action::FoundOutpost { unit, .. } => build::validate_found(world, by, *unit),
        Action::EndActivation => active_army(world, by).map(|_| ()),
        Action::Summon { rift } => rituals::validate_summon(world, by, hex_of(*rift)),
        Action::Embark => embark::validate_embark(world, by),
        Action::Land { to } => embark::validate_land(world, by, hex_of(*to)),
        Action::Load { res, amount } => embark::validate_load(world, by, *res, *amount),
        Action::Unload { res, amount } => embark::validate_unload(world, by, *res, *amount),
        _ => Err(Refusal::NotAMainAction),
    }
}

/// A seat commands only its own armies and outposts (and the shared ones, with no seat).
fn owned_by_seat(world: &mut World, by: Camp, a: &Action) -> Result<(), Refusal> {
    if by != Camp::Eladrins {
        return Ok(());
    }
    let owner = match a {
        Action::Activate { army } => world
            .army_by_id(*army)
            .and_then(|e| world.get::<Army>(e))
            .and_then(|x| x.seat),
        Action::BuildBuilding { outpost, .. } | Action::Recruit { outpost, .. } => world
            .outpost_by_id(*outpost)
            .and_then(|e| world.get::<Outpost>(e))
            .and_then(|x| x.seat),
        _ => None,
    };
    match owner {
        Some(owner) if owner != world.resource::<Cycle>().acting_seat() => {
            Err(Refusal::NotYourSeat { owner })
        }
        _ => Ok(()),
    }
}

fn eladrins_only(by: Camp) -> Result<(), Refusal> {
    if by == Camp::Eladrins {
        Ok(())
    } else {
        Err(Refusal::EladrinsOnly)
    }
}

/// Applies a validated main-phase action, then settles the turn and outposts taken.
pub fn apply(world: &mut World, by: Camp, a: &Action) {
    match a {
        Action::Pass => {
            pass(world, by);
            return;
        }
        Action::BuildImprovement { at, improvement } => {
            build::build_improvement(world, *at, improvement)
        }
        Action::BuildBuilding { outpost, building } => {
            build::build_building(world, *outpost, building)
        }
        Action::Recruit { outpost, unit } => build::recruit(world, *outpost, unit),
        Action::Activate { army } => activate::activate(world, *army),
        Action::Move { to } => activate::move_army(world, by, hex_of(*to)),
        Action::UseCard { unit, action } => activate::use_card(world, by, *unit, action),
        Action::Explore { unit } => activate::explore(world, by, *unit),
        Action::Merge { from } => activate::merge(world, by, *from),
        Action::Detach { units } => activate::detach(world, by, units),
        Action::Engage {
            target,
            retreat_below,
        } => combat::engage(world, by, *target, *retreat_below),
        Action::Ritual { ritual } => rituals::perform_ritual(world, by, ritual),
        Action::FoundOutpost { unit, name } => build::found(world, by, *unit, name),
        Action::EndActivation => end_activation(world),
        Action::Summon { rift } => rituals::summon(world, hex_of(*rift)),
        Action::Embark => embark::embark(world, by),
        Action::Land { to } => embark::land(world, by, hex_of(*to)),
        Action::Load { res, amount } => embark::load(world, by, *res, *amount),
        Action::Unload { res, amount } => embark::unload(world, by, *res, *amount),
        _ => {}
    }
    settle(world, by, matches!(a, Action::Activate { .. }));
}

/// After a main-phase action (the core's or a chapter's): outposts taken fall, and the turn
/// passes unless an activation goes on (`keeps_turn`: the action opened one, or is free).
pub fn settle(world: &mut World, by: Camp, keeps_turn: bool) {
    take_outposts(world);
    // An activation goes on until it is ended or its army can do nothing more.
    let open = world.resource::<Cycle>().activation;
    match open {
        Some(id) => {
            let spent = world
                .army_by_id(id)
                .and_then(|e| world.get::<Army>(e))
                .is_none_or(|a| a.units.iter().all(|u| u.ap == 0));
            if spent {
                end_activation(world);
                acted(world, by);
            }
        }
        None => {
            if !keeps_turn {
                acted(world, by);
            }
        }
    }
}

/// After the chapters reacted to an action: one may have removed the active army (a team
/// lost to the wounds of a hazard it stopped on); its activation ends and the turn passes, as
/// `settle` does when the core's own action removes it (R9.4).
pub fn settle_after_chapters(world: &mut World, by: Camp) {
    let Some(id) = world.resource::<Cycle>().activation else {
        return;
    };
    if world.army_by_id(id).is_none() {
        end_activation(world);
        acted(world, by);
    }
}

/// Ends the open activation: unused points are lost (R9.4).
fn end_activation(world: &mut World) {
    let Some(id) = world.resource_mut::<Cycle>().activation.take() else {
        return;
    };
    if let Some(e) = world.army_by_id(id)
        && let Some(mut a) = world.get_mut::<Army>(e)
    {
        for u in a.units.iter_mut() {
            u.ap = 0;
        }
    }
    world.emit(GameEvent::ActivationEnded { army: id });
}

/// An outpost with a Chaos army on its tile and no Eladrin army there falls (razed). The portal's
/// outpost falling gives the portal to Chaos.
pub fn take_outposts(world: &mut World) {
    let mut fallen = Vec::new();
    for o in world.outposts() {
        let Some(op) = world.get::<Outpost>(o).cloned() else {
            continue;
        };
        let chaos = !build::armies_on(world, op.hex, Camp::Chaos).is_empty();
        let held = !build::armies_on(world, op.hex, Camp::Eladrins).is_empty();
        if chaos && !held {
            fallen.push((o, op));
        }
    }
    for (e, op) in fallen {
        world.despawn(e);
        world.emit(GameEvent::OutpostLost {
            name: op.name.clone(),
            at: op.hex,
        });
        if op.portal {
            outcome::win(
                world,
                Camp::Chaos,
                outcome::EndReason::PortalOverrun {
                    outpost: op.name.clone(),
                },
            );
        }
    }
    outcome::check(world);
}
