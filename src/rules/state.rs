//! The game's state, listed once. `plain_state!` names every resource that is saved, hashed,
//! undone and restored as it stands (`field: Type`, in no particular order): the rules plugin
//! creates them, `setup::start_game` resets them, `snapshot::capture` copies them into a
//! `Snapshot` and `snapshot::restore` puts them back, each by expanding this one list. A
//! resource added here and not to `Snapshot` (or the other way round) does not compile, so a
//! save can't forget it.
//!
//! Not in the list, because a snapshot stores them in another shape: the map (`Board` and the
//! `Tile`, `Outpost` and `Army` entities, stored as sorted lists), `Cycle` (its step stored by
//! id, as plugins may move indexes), `StepDone`, and `GameRng` (its position). `Chronicle` (the
//! log) is not state: a loaded game starts a new one.

/// Calls the macro `$m` with the list of plain state resources, `field: Type, …`.
macro_rules! plain_state {
    ($m:ident) => {
        $m! {
            setup: $crate::rules::GameSetup,
            decks: $crate::rules::Decks,
            research: $crate::rules::Research,
            portal: $crate::rules::Portal,
            modifiers: $crate::rules::Modifiers,
            ids: $crate::rules::Ids,
            outcome: $crate::rules::Outcome,
            actions: $crate::rules::ActionLog,
            summoned: $crate::rules::main_phase::Summoned,
            cycle_hashes: $crate::rules::CycleHashes,
            census: $crate::rules::units::Census,
            tracks: $crate::rules::tracks::Tracks,
            campaign: $crate::rules::campaign::CampaignRun,
        }
    };
}
pub(crate) use plain_state;

use bevy::prelude::*;

/// Creates every plain state resource (with its default) in a new app.
pub fn init(app: &mut App) {
    macro_rules! each {
        ($($f:ident: $t:ty),* $(,)?) => {
            $(app.init_resource::<$t>();)*
        };
    }
    plain_state!(each);
}

/// Resets every plain state resource to its default, for a new game.
pub fn reset(world: &mut World) {
    macro_rules! each {
        ($($f:ident: $t:ty),* $(,)?) => {
            $(world.insert_resource(<$t>::default());)*
        };
    }
    plain_state!(each);
}
