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

/// Checks every end condition.
pub fn check(world: &mut World) {
    if world.resource::<Outcome>().winner.is_some() {
        return;
    }
    let def = world.content();
    let p = world.resource::<Portal>().clone();
    let track = def.portal().track;
    if p.operational {
        win(
            world,
            Camp::Eladrins,
            "Portal operational: the portal is powered (R8.2)".into(),
        );
        return;
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
    if max > 0 && world.resource::<Cycle>().number > max {
        win(
            world,
            Camp::Chaos,
            format!("The Eladrins did not power the portal within {max} cycles"),
        );
    }
}
