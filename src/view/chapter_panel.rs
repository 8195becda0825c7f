//! A chapter's own panel in the side panel: its hand of cards, its pool, its quests. The seam
//! for what the generic panels (the track bar, the action buttons) cannot show.
//!
//! A chapter adds a drawing function for its state type from its window half
//! (`app.add_chapter_panel::<S>(chapter, draw)`, `chapter_view`). The view never hands that
//! function the state itself. It
//! hands the state **as the seat at the screen may see it** (`ChapterState::seen_by`, the same
//! redaction the AI thinks on). So a partner's hand stays hidden even from a careless panel.
//! In hot-seat, the seat at the screen is the one that last took the keyboard at the hand-off
//! screen (`handoff::at_screen`). While the hand-off screen waits, no chapter panel is drawn.
//! What the panel asks for (a card played) is sent as an Eladrin action like any button's.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::egui;

use crate::content::ContentDb;
use crate::rules::Action;
use crate::rules::chapter::{ChapterState, Viewer};
use crate::text::Translations;

/// What a chapter's panel is told besides its state.
pub struct PanelCx<'a> {
    /// The player's language.
    pub tr: &'a Translations,
    /// The content in play.
    pub db: &'a ContentDb,
    /// The seat at the screen, whose view the state is.
    pub seat: u8,
    /// The Eladrins' legal actions now (empty while Chaos decides): a button is offered only
    /// for what the rules would accept.
    pub legal: &'a [Action],
    /// The hot-seat players' names, by seat.
    pub players: &'a [String],
    /// The level in play (its chapter fields in `db.levels`).
    pub level: &'a str,
}

impl PanelCx<'_> {
    /// The legal actions of the chapter whose actions are `A`, typed, each with the action as
    /// the core carries it (what a button sends).
    pub fn legal_of<A: crate::rules::chapter::ChapterAction>(&self) -> Vec<(&Action, A)> {
        typed(self.legal)
    }

    /// A button for the legal action `a`, in its chapter's words: the action, when clicked.
    pub fn button(&self, ui: &mut egui::Ui, a: &Action) -> Option<Action> {
        ui.button(crate::text::label(a, self.db, self.tr))
            .clicked()
            .then(|| a.clone())
    }
}

/// The actions of `legal` that are the chapter's whose actions are `A`, typed, each with the
/// action as the core carries it (what a button or a click sends).
pub fn typed<A: crate::rules::chapter::ChapterAction>(legal: &[Action]) -> Vec<(&Action, A)> {
    legal
        .iter()
        .filter_map(|a| crate::rules::chapter::decode::<A>(a).map(|t| (a, t)))
        .collect()
}

/// A chapter's panel, ready to draw: the drawing function with the state it may show.
pub struct Seen {
    /// The chapter.
    pub chapter: &'static str,
    draw: Box<Draw>,
}

/// A panel's drawing function with the state it was given.
type Draw = dyn Fn(&mut egui::Ui, &PanelCx) -> Option<Action> + Send + Sync;

/// What a chapter's half of the window makes of the world when the view asks: its state as
/// a seat may see it, bound into what draws it.
pub(super) type Capture<T> = Arc<dyn Fn(&World, Viewer) -> Option<T> + Send + Sync>;

/// The chapters' captures of one kind (their panels, their tables), by chapter.
pub struct Captures<T>(Vec<(&'static str, Capture<T>)>);

impl<T> Default for Captures<T> {
    fn default() -> Self {
        Captures(Vec::new())
    }
}

impl<T> Clone for Captures<T> {
    fn clone(&self) -> Self {
        Captures(self.0.clone())
    }
}

impl<T> Captures<T> {
    /// Adds the capture of `chapter` (adding again replaces it).
    pub(super) fn put(&mut self, chapter: &'static str, capture: Capture<T>) {
        self.0.retain(|(c, _)| *c != chapter);
        self.0.push((chapter, capture));
    }

    /// What the chapters in play make of the world for `seat`, in the level's order of
    /// chapters.
    pub(super) fn seen(&self, world: &World, seat: u8) -> Vec<T> {
        let Some(in_play) = world.get_resource::<crate::rules::InPlay>() else {
            return Vec::new();
        };
        in_play
            .0
            .iter()
            .filter_map(|c| self.0.iter().find(|(id, _)| id == c))
            .filter_map(|(_, capture)| capture(world, Viewer::Seat(seat)))
            .collect()
    }
}

/// A capture of the state `S` as the viewer may see it, made into `T` by `make`.
pub(super) fn capture<S: ChapterState, T: 'static>(
    make: impl Fn(S) -> T + Send + Sync + 'static,
) -> Capture<T> {
    Arc::new(move |world: &World, viewer: Viewer| {
        Some(make(world.get_resource::<S>()?.seen_by(viewer)))
    })
}

/// The chapters' panels in this app, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterPanels(Captures<Seen>);

/// Adds `draw` as the panel of `chapter`, drawn with its state `S` as the seat at the screen
/// sees it (adding again replaces it). `draw` returns the action its buttons ask for, if any.
pub(super) fn add<S: ChapterState>(
    app: &mut App,
    chapter: &'static str,
    draw: fn(&mut egui::Ui, &S, &PanelCx) -> Option<Action>,
) {
    let made = capture(move |state: S| Seen {
        chapter,
        draw: Box::new(move |ui, cx| draw(ui, &state, cx)),
    });
    app.world_mut()
        .get_resource_or_init::<ChapterPanels>()
        .0
        .put(chapter, made);
}

/// Adds `draw` as the panel of `chapter`, drawn with what `seen` makes of the world for the
/// seat at the screen (adding again replaces it): for a panel that shows more than the
/// chapter's state (where the armies stand, what they hold), the chapter deciding what a seat
/// may know (`Viewer`). `draw` returns the action its buttons ask for, if any.
pub(super) fn add_seen<T: Send + Sync + 'static>(
    app: &mut App,
    chapter: &'static str,
    seen: fn(&World, Viewer) -> Option<T>,
    draw: fn(&mut egui::Ui, &T, &PanelCx) -> Option<Action>,
) {
    let made: Capture<Seen> = Arc::new(move |world: &World, viewer: Viewer| {
        let t = seen(world, viewer)?;
        Some(Seen {
            chapter,
            draw: Box::new(move |ui, cx| draw(ui, &t, cx)),
        })
    });
    app.world_mut()
        .get_resource_or_init::<ChapterPanels>()
        .0
        .put(chapter, made);
}

/// The panels of the chapters in play, each with its state as `seat` sees it, in the level's
/// order of chapters.
pub fn seen(world: &World, seat: u8) -> Vec<Seen> {
    world
        .get_resource::<ChapterPanels>()
        .map(|p| p.0.seen(world, seat))
        .unwrap_or_default()
}

impl Seen {
    /// Draws the panel; the action its buttons asked for, if any.
    pub fn draw(&self, ui: &mut egui::Ui, cx: &PanelCx) -> Option<Action> {
        (self.draw)(ui, cx)
    }
}

/// Draws every chapter panel of the cache, each under a separator.
pub fn draw_all(ui: &mut egui::Ui, panels: &[Seen], cx: &PanelCx) -> Option<Action> {
    let mut asked = None;
    for p in panels {
        asked = asked.or(p.draw(ui, cx));
        ui.separator();
    }
    asked
}
