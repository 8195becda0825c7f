//! Query states kept between calls, for `GameWorld`'s lists of outposts and armies. Making a
//! query state scans every archetype of the world, and in Bevy 0.19 every resource is an entity
//! with an archetype of its own: on the search's copies (thousands of legality checks a
//! decision, each listing the outposts) making them anew took a tenth of the search's time.
//! A kept state only looks at the archetypes added since its last use.

use bevy::prelude::*;

use super::{Army, Outpost};

/// The kept query states (created on first use, in any world the rules run in).
#[derive(Resource)]
pub struct KeptQueries {
    /// Every outpost.
    pub outposts: QueryState<(Entity, &'static Outpost)>,
    /// Every army.
    pub armies: QueryState<(Entity, &'static Army)>,
}

/// Runs `f` with the world and its kept query states.
pub fn with<R>(world: &mut World, f: impl FnOnce(&World, &mut KeptQueries) -> R) -> R {
    if !world.contains_resource::<KeptQueries>() {
        let kept = KeptQueries {
            outposts: world.query(),
            armies: world.query(),
        };
        world.insert_resource(kept);
    }
    world.resource_scope(|w, mut q: Mut<KeptQueries>| f(w, q.bypass_change_detection()))
}
