//! The window's screens as Bevy `States`, and the order of the view's systems.
//!
//! `Screen` is what fills the window: the game, the main menu over it, or the campaign screen.
//! `Overlay` is the one window over a screen: settings, mods, credits, the help, the hot-seat
//! hand-off or the level's intro. Each drawing system runs in the screen and overlay it belongs
//! to (`run_if(in_state(..))`); no system asks another screen's flags. A menu that opens
//! closes the level's intro (`OnEnter`), which comes back with the game, still owed.
//!
//! `ViewSet` orders the view's `Update` systems once: input first, then the commands it asked
//! for, then the caches the panels read, then the map's drawing. egui's pass (the panels and
//! windows) runs after all of them, in its own schedule.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// What fills the window.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The game: the map, the panels, the phase bar.
    #[default]
    Playing,
    /// The main menu, over the game behind it.
    Menu,
    /// The campaign screen (its page: `campaign_ui::CampaignScreen`).
    Campaign,
}

/// The one window over the screen.
#[derive(
    States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Overlay {
    /// Nothing over the screen.
    #[default]
    None,
    /// The settings.
    Settings,
    /// The mods.
    Mods,
    /// The credits.
    Credits,
    /// The help (rules and keys).
    Help,
    /// The hot-seat hand-off: the board hidden until the next player is at the keyboard.
    HandOff,
    /// The level's intro, before the game's first action.
    Intro,
}

/// The view's `Update` systems, in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewSet {
    /// Keys, the mouse and scripted input become view changes and `ActionRequest`s.
    Input,
    /// What input asked of the world: menu and campaign commands, undo, the AI's turns,
    /// which overlay is owed.
    Commands,
    /// The caches the panels and the map read, from the state after the commands.
    Cache,
    /// The map's sprites, labels and lines, and the sounds.
    Draw,
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_state::<Overlay>()
        .configure_sets(
            Update,
            (
                ViewSet::Input,
                ViewSet::Commands,
                ViewSet::Cache,
                ViewSet::Draw,
            )
                .chain(),
        )
        .add_systems(OnEnter(Screen::Menu), close_game_overlays)
        .add_systems(OnEnter(Screen::Campaign), close_game_overlays);
}

/// A menu opened over the game: the intro waits for the game to come back (`hints` opens it
/// again). The hand-off stays: the menu can't be reached while it hides the board.
fn close_game_overlays(mut screens: Screens) {
    screens.close(Overlay::Intro);
}

/// The screen and overlay now, with what was asked this frame (a transition applies at the
/// next frame's start): the one way systems change them.
#[derive(SystemParam)]
pub struct Screens<'w> {
    screen: Res<'w, State<Screen>>,
    next_screen: ResMut<'w, NextState<Screen>>,
    overlay: Res<'w, State<Overlay>>,
    next_overlay: ResMut<'w, NextState<Overlay>>,
}

/// The pending value of `next`, else `now`.
fn pending<S: bevy::state::state::FreelyMutableState + Copy>(now: S, next: &NextState<S>) -> S {
    match next {
        NextState::Pending(s) | NextState::PendingIfNeq(s) => *s,
        NextState::Unchanged => now,
    }
}

impl Screens<'_> {
    /// The screen, a change asked this frame included.
    pub fn screen(&self) -> Screen {
        pending(*self.screen.get(), &self.next_screen)
    }

    /// The overlay, a change asked this frame included.
    pub fn overlay(&self) -> Overlay {
        pending(*self.overlay.get(), &self.next_overlay)
    }

    /// Shows `screen`.
    pub fn go(&mut self, screen: Screen) {
        NextState::set_if_neq(&mut self.next_screen, screen);
    }

    /// Opens `overlay` in place of the one shown, unless the hand-off hides the board: nothing
    /// opens over it but itself. Whether it opened.
    pub fn open(&mut self, overlay: Overlay) -> bool {
        let now = self.overlay();
        if now == Overlay::HandOff && overlay != Overlay::HandOff {
            return false;
        }
        NextState::set_if_neq(&mut self.next_overlay, overlay);
        true
    }

    /// Opens `overlay`, or closes it when it is the one shown.
    pub fn toggle(&mut self, overlay: Overlay) {
        if self.overlay() == overlay {
            self.close(overlay);
        } else {
            self.open(overlay);
        }
    }

    /// Closes `overlay` if it is the one shown.
    pub fn close(&mut self, overlay: Overlay) {
        if self.overlay() == overlay {
            NextState::set_if_neq(&mut self.next_overlay, Overlay::None);
        }
    }
}

/// `Screens::go` from an exclusive system.
pub fn go(world: &mut World, screen: Screen) {
    world
        .run_system_cached_with(|In(s): In<Screen>, mut sc: Screens| sc.go(s), screen)
        .unwrap_or_else(|e| warn!("the screen stays: {e}"));
}

/// `Screens::open` from an exclusive system; whether it opened.
pub fn open(world: &mut World, overlay: Overlay) -> bool {
    world
        .run_system_cached_with(|In(o): In<Overlay>, mut sc: Screens| sc.open(o), overlay)
        .unwrap_or(false)
}

/// `Screens::close` from an exclusive system.
pub fn close(world: &mut World, overlay: Overlay) {
    world
        .run_system_cached_with(|In(o): In<Overlay>, mut sc: Screens| sc.close(o), overlay)
        .unwrap_or_else(|e| warn!("the overlay stays: {e}"));
}

/// The screen and overlay from a `&World` (scripts and `campaign_ui::offered` read them), a
/// change asked this frame included.
pub fn now(world: &World) -> (Screen, Overlay) {
    let s = world
        .get_resource::<State<Screen>>()
        .map_or(Screen::Playing, |s| *s.get());
    let o = world
        .get_resource::<State<Overlay>>()
        .map_or(Overlay::None, |s| *s.get());
    let s = world
        .get_resource::<NextState<Screen>>()
        .map_or(s, |n| pending(s, n));
    let o = world
        .get_resource::<NextState<Overlay>>()
        .map_or(o, |n| pending(o, n));
    (s, o)
}

/// A run condition: the game is on screen with nothing over it.
pub fn playing_free(screen: Res<State<Screen>>, overlay: Res<State<Overlay>>) -> bool {
    *screen.get() == Screen::Playing && *overlay.get() == Overlay::None
}
