//! The Chaos AI's candidate actions: summon at rifts, attack what it can beat, march on the
//! portal or the nearest Eladrins, corrupt with its taints, else end the activation or pass.

use bevy::prelude::*;
use hexx::Hex;

use super::{Candidate, Choice, active, best, move_towards, outpost_hexes};
use crate::content::Camp;
use crate::rules::{Action, Army, GameWorld, Portal};

/// Chaos' choice among the legal actions.
pub fn choose(world: &mut World, legal: &[Action]) -> Choice {
    let (cas, fallback) = scorers(world);
    best(world, legal, cas, fallback)
}

/// Chaos' candidates in the main phase now, and what it does when none proposes anything:
/// inside an activation, and outside one.
pub fn scorers(world: &mut World) -> (&'static [Candidate], Action) {
    const ACTIVE: [Candidate; 4] = [merge, attack, corrupt, advance];
    const IDLE: [Candidate; 2] = [summon, activate];
    if active(world).is_some() {
        (&ACTIVE, Action::EndActivation)
    } else {
        (&IDLE, Action::Pass)
    }
}

/// Summon at the first open rift still free this turn.
pub fn summon(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).chaos.summon;
    legal
        .iter()
        .find(|a| matches!(a, Action::Summon { .. }))
        .map(|a| Choice {
            score: w,
            action: a.clone(),
            why: "summon",
        })
}

/// Where an army marches: an Eladrin army about to seal a rift it stands near (`guard`), else
/// the portal's outpost for `rush_portal` percent of armies (by id), the nearest Eladrin army
/// or outpost for the others.
pub fn target_of(world: &mut World, army: &Army) -> Option<Hex> {
    let guard = super::weights(world).chaos.guard;
    if let Some(h) = rift_threat(world, army.hex, guard) {
        return Some(h);
    }
    let rush = super::weights(world).chaos.rush_portal;
    let portal = world.resource::<Portal>().hex;
    if army.id % 100 < rush
        && world.outposts().iter().any(|o| {
            world
                .get::<crate::rules::Outpost>(*o)
                .is_some_and(|x| x.hex == portal)
        })
    {
        return Some(portal);
    }
    let mut targets = outpost_hexes(world);
    targets.extend(
        super::armies_of(world, Camp::Eladrins)
            .into_iter()
            .map(|a| a.hex),
    );
    super::nearest(army.hex, targets)
}

/// The Eladrin army nearest `from` that could seal an open rift (as many Ritualists as the
/// least demanding ritual on a rift asks, R8.3) and stands within `guard` hexes of one that is
/// itself within `guard` hexes of `from`: the rift's defender marches on it. None with `guard`
/// 0 or where no ritual seals a rift. Looks around the Eladrin armies (few), not over the
/// map's tiles (stress has ten thousand).
pub fn rift_threat(world: &mut World, from: Hex, guard: u32) -> Option<Hex> {
    if guard == 0 {
        return None;
    }
    let db = world.content();
    let need = db
        .set
        .rituals
        .iter()
        .filter(|r| r.on_rift)
        .map(|r| r.ritualists.max(1))
        .min()?;
    let sealers: Vec<Hex> = super::armies_of(world, Camp::Eladrins)
        .into_iter()
        .filter(|a| {
            let ritualists = a.units.iter().filter(|u| {
                db.unit(&u.kind)
                    .is_some_and(|t| t.skills.contains(&crate::content::Skill::Ritualist))
            });
            ritualists.count() as u32 >= need
        })
        .map(|a| a.hex)
        .collect();
    let open_rift = |world: &World, h: Hex| {
        world
            .tile(h)
            .is_some_and(|t| t.rift == crate::rules::Rift::Open)
    };
    sealers
        .into_iter()
        .filter(|at| {
            at.range(guard)
                .any(|h| h.unsigned_distance_to(from) <= guard && open_rift(world, h))
        })
        .min_by_key(|h| (h.unsigned_distance_to(from), (h.x, h.y)))
}

/// Activate the first army that can still act and has somewhere to go or someone to fight.
pub fn activate(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).chaos.advance;
    for a in legal {
        let Action::Activate { army } = a else {
            continue;
        };
        let Some(e) = world.army_by_id(*army) else {
            continue;
        };
        let Some(am) = world.get::<Army>(e).cloned() else {
            continue;
        };
        let target = target_of(world, &am);
        if target.is_some_and(|t| t != am.hex) || enemy_here(world, &am) {
            return Some(Choice {
                score: w,
                action: a.clone(),
                why: "activate",
            });
        }
    }
    None
}

fn enemy_here(world: &mut World, army: &Army) -> bool {
    !crate::rules::main_phase::build::armies_on(world, army.hex, army.camp.enemy()).is_empty()
}

/// Attack the enemy army on this tile with the best odds, if good enough.
pub fn attack(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).chaos.clone();
    super::best_attack(
        world,
        legal,
        w.odds_samples,
        w.attack_min_odds,
        w.attack,
        w.retreat,
    )
}

/// Gather: take in the other Chaos armies on this tile before marching or fighting.
pub fn merge(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).chaos.attack * 100 + 1;
    legal
        .iter()
        .find(|a| matches!(a, Action::Merge { .. }))
        .map(|a| Choice {
            score: w,
            action: a.clone(),
            why: "merge",
        })
}

/// Use a corrupting card action (its effects spread corruption) near the Eladrins' outposts,
/// where it hurts; by the rifts the land is corrupted already.
pub fn corrupt(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let me = active(world)?;
    let near = outpost_hexes(world)
        .iter()
        .any(|h| h.unsigned_distance_to(me.hex) <= 3);
    if !near {
        return None;
    }
    let w = super::weights(world).chaos.corrupt;
    legal
        .iter()
        .find(|a| matches!(a, Action::UseCard { .. }))
        .map(|a| Choice {
            score: w,
            action: a.clone(),
            why: "corrupt",
        })
}

/// March on the target.
pub fn advance(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let me = active(world)?;
    let w = super::weights(world).chaos.advance;
    let target = target_of(world, &me)?;
    let (gain, action) = move_towards(legal, me.hex, target)?;
    Some(Choice {
        score: w * gain as i64,
        action,
        why: "advance",
    })
}
