//! Victory and defeat: *Portal operational* (R8.2) wins for the Eladrins; the last power cell
//! corrupted (R8.4), every outpost lost, or the level's cycle limit reached wins for Chaos.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::{Cycle, GameEvent, GameWorld, Outcome, Outpost, Portal};

/// Ends the game.
pub fn win(world: &mut World, winner: Camp, reason: String) {
    if world.resource::<Outcome>().winner.is_some() {
        return;
    }
    let cycle = world.resource::<Cycle>().number;
    *world.resource_mut::<Outcome>() = Outcome {
        winner: Some(winner),
        reason: reason.clone(),
        cycle,
    };
    world.emit(GameEvent::GameOver { winner, reason });
}

/// The level's extra Eladrin victory conditions not met yet, in words.
pub fn missing_conditions(world: &mut World, v: &crate::content::Victory) -> Vec<String> {
    let mut out = Vec::new();
    let done = world.resource::<crate::rules::Research>().done.clone();
    for t in &v.research {
        if !done.contains(t) {
            out.push(format!("research {t}"));
        }
    }
    let outposts = world.query::<&Outpost>().iter(world).count() as u32;
    if outposts < v.outposts {
        out.push(format!("hold {} outposts ({outposts} now)", v.outposts));
    }
    let closed = world
        .query::<&crate::rules::Tile>()
        .iter(world)
        .filter(|t| t.rift == crate::rules::Rift::Closed)
        .count() as u32;
    if closed < v.rifts_closed {
        out.push(format!("close {} rifts ({closed} now)", v.rifts_closed));
    }
    out
}

/// Checks every end condition.
pub fn check(world: &mut World) {
    if world.resource::<Outcome>().winner.is_some() {
        return;
    }
    let def = world.content();
    let p = world.resource::<Portal>().clone();
    let track = def.portal().track;
    let level = def
        .levels
        .get(&world.resource::<crate::rules::GameSetup>().level)
        .cloned();
    if p.operational {
        // A level may ask for more than the portal (RULES.md R8 reading).
        let missing = level
            .as_ref()
            .map(|l| missing_conditions(world, &l.victory))
            .unwrap_or_default();
        if missing.is_empty() {
            win(
                world,
                Camp::Eladrins,
                "Portal operational: the portal is powered (R8.2)".into(),
            );
            return;
        }
    }
    if p.corruption > 0 && p.power + p.corruption >= track {
        win(
            world,
            Camp::Chaos,
            "Chaos corrupted the last power cell and took the portal (R8.4)".into(),
        );
        return;
    }
    let mut q = world.query::<&Outpost>();
    if q.iter(world).next().is_none() {
        win(world, Camp::Chaos, "Every outpost is lost".into());
        return;
    }
    let limit = world.resource::<crate::rules::GameSetup>().level.clone();
    let max = def
        .levels
        .get(&limit)
        .map(|l| l.victory.max_cycles)
        .filter(|m| *m > 0)
        .unwrap_or(def.rules().max_cycles);
    // A difficulty may lengthen or shorten the limit, never below one cycle.
    let max = if max > 0 {
        (max as i64 + world.difficulty_level().extra_cycles as i64).max(1) as u32
    } else {
        0
    };
    if max > 0 && world.resource::<Cycle>().number > max {
        win(
            world,
            Camp::Chaos,
            format!("The Eladrins did not power the portal within {max} cycles"),
        );
    }
}
