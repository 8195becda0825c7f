//! Where the window's saves go (the quick save, the named saves, the autosaves), and the
//! autosave at the start of every cycle of the game on screen (the last 5 kept, written
//! atomically by `rules::snapshot`).

use std::path::PathBuf;

use bevy::prelude::*;

use super::screens::{Screen, ViewSet};
use crate::rules::{Cycle, Outcome, snapshot};

/// Where named saves go: `saves/` in the data folder.
pub fn slots_dir() -> PathBuf {
    crate::ground::paths::data_dir().join("saves")
}

/// Where the quick save lives: the platform's data directory (`$XDG_DATA_HOME/chaos-outpost`,
/// else `~/.local/share/chaos-outpost` on Linux).
pub fn quicksave_path() -> PathBuf {
    crate::ground::paths::data_dir().join("quicksave.ron")
}

/// Autosaves kept (one per cycle).
const AUTOSAVES_KEPT: usize = 5;

/// Where autosaves go: beside the quick save, in `autosave/`.
pub fn autosave_dir() -> PathBuf {
    quicksave_path()
        .parent()
        .map(|p| p.join("autosave"))
        .unwrap_or_else(|| PathBuf::from("autosave"))
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, autosave_each_cycle.in_set(ViewSet::Commands));
}

/// Autosaves when a new cycle begins (not in the menu's idle game, not after the end).
fn autosave_each_cycle(world: &mut World, mut last: Local<u32>) {
    let n = world.resource::<Cycle>().number;
    if n == *last || n == 0 || world.resource::<Outcome>().winner.is_some() {
        *last = n;
        return;
    }
    *last = n;
    // Not the game behind the menu or the campaign screen (it would crowd out the autosaves
    // of the game the player left there).
    if super::screens::now(world).0 != Screen::Playing {
        return;
    }
    match snapshot::autosave(world, &autosave_dir(), AUTOSAVES_KEPT) {
        Ok(p) => info!("autosaved {}", p.display()),
        Err(e) => warn!("autosave failed: {e}"),
    }
}
