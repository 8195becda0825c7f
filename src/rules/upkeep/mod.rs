//! The upkeep phase (R2–R8): one file per step, each registering its step of the cycle and its
//! ordered rule sets. Steps run strictly in order, every camp at once (R1.2).

pub mod corruption;
pub mod events;
pub mod generation;
pub mod maintenance;
pub mod portal;
pub mod research;
pub mod timers;

use bevy::prelude::*;

/// Registers R2 to R8, in order.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        events::plugin,
        generation::plugin,
        timers::plugin,
        maintenance::plugin,
        corruption::plugin,
        research::plugin,
        portal::plugin,
    ));
}
