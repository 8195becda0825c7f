//! Query states kept between calls, for `GameWorld`'s lists of outposts and armies. Making a
//! query state scans every archetype of the world, and in Bevy 0.19 every resource is an entity
//! with an archetype of its own: on the search's copies (thousands of legality checks a
//! decision, each listing the outposts) making them anew took a tenth of the search's time.
//! A kept state only looks at the archetypes added since its last use. Each sits behind a
//! mutex, so it is used with the world borrowed shared (taking the resource out of the world
//! for each use, `resource_scope`, moved an entity between archetypes every time).

use std::sync::Mutex;

use bevy::prelude::*;

use super::{Army, Outpost};

/// Every outpost, with its entity.
pub type OutpostQuery = QueryState<(Entity, &'static Outpost)>;
/// Every army, with its entity.
pub type ArmyQuery = QueryState<(Entity, &'static Army)>;

/// The kept query states (created on first use, in any world the rules run in).
#[derive(Resource)]
pub struct KeptQueries {
    outposts: Mutex<OutpostQuery>,
    armies: Mutex<ArmyQuery>,
}

fn kept(world: &mut World) -> &World {
    if !world.contains_resource::<KeptQueries>() {
        let kept = KeptQueries {
            outposts: Mutex::new(world.query()),
            armies: Mutex::new(world.query()),
        };
        world.insert_resource(kept);
    }
    world
}

/// Runs `f` with the world and its kept query of every outpost.
pub fn outposts<R>(world: &mut World, f: impl FnOnce(&World, &mut OutpostQuery) -> R) -> R {
    let world = kept(world);
    // A poisoned lock only means a panic elsewhere; the query state itself is still whole.
    let mut q = (world.resource::<KeptQueries>().outposts.lock())
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f(world, &mut q)
}

/// Runs `f` with the world and its kept query of every army.
pub fn armies<R>(world: &mut World, f: impl FnOnce(&World, &mut ArmyQuery) -> R) -> R {
    let world = kept(world);
    let mut q = (world.resource::<KeptQueries>().armies.lock())
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f(world, &mut q)
}
