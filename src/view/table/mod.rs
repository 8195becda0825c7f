//! A chapter's table: its board as the board game lays it out (numbered slots, cards face up,
//! figures, tokens: `pieces`), in a window over the map, played by clicking on it. The seam a
//! chapter adds it through (`ChapterViewExt::add_chapter_table`) and the window that shows it.
//!
//! Like a chapter's panel (`chapter_panel`), the drawing function is handed the state as the
//! seat at the screen may see it, and the legal actions now: a piece is a target only where
//! `legal_actions` has the action its click sends. What a click asks for is sent as an Eladrin
//! action, validated by the rules like any other.
//!
//! The window opens by itself when the seat at the screen has a decision in a step of a
//! chapter with a table, and while a chapter's show plays (its rewards claimed place by
//! place); the player closes it (its cross, or the Board key, B) and opens it again from the
//! Board button at the map's top right. While a show plays, the board keeps the state from
//! before it, so each claim is seen on the slots it came from.

pub mod pieces;
pub mod window;

use bevy::prelude::*;
use bevy_egui::egui;
use hexx::Hex;

use super::chapter_panel::{Captures, capture};
use crate::app::settings::Palette;
use crate::content::ContentDb;
use crate::rules::Action;
use crate::rules::chapter::{ChapterAction, ChapterState};
use crate::text::Translations;

/// What a chapter's table is told besides its state.
pub struct TableCx<'a> {
    /// The player's language.
    pub tr: &'a Translations,
    /// The content in play.
    pub db: &'a ContentDb,
    /// The seat at the screen, whose view the state is.
    pub seat: u8,
    /// The Eladrins' legal actions now (empty while Chaos decides).
    pub legal: &'a [Action],
    /// The hot-seat players' names, by seat.
    pub players: &'a [String],
    /// The level in play (its chapter fields in `db.levels`).
    pub level: &'a str,
    /// The colours in use.
    pub palette: Palette,
    /// The place a chapter's show is claiming now, and what it gave there.
    pub showing: Option<(Hex, &'a [String])>,
    /// The Eladrin seat whose turn it is, while the Eladrins have it.
    pub to_play: Option<u8>,
    /// The step the game stands at (`MACTION`).
    pub step: &'a str,
    pub(super) targets: Vec<(String, egui::Rect)>,
    pub(super) pieces: Vec<(String, egui::Rect)>,
    pub(super) close: bool,
    pub(super) offers: Vec<super::chapter_map::Mark>,
}

impl<'a> TableCx<'a> {
    /// The legal actions of the chapter whose actions are `A`, typed, each with the action as
    /// the core carries it (what a click sends).
    pub fn legal_of<A: ChapterAction>(&self) -> Vec<(&'a Action, A)> {
        super::chapter_panel::typed(self.legal)
    }

    /// Names a piece a click is taken on (`slot:guild:0`, `assistant:Healer`): checks of the
    /// real window find it by that name and click it with the real mouse.
    pub fn target(&mut self, name: impl Into<String>, r: &egui::Response) {
        self.targets.push((name.into(), r.rect));
    }

    /// Names a piece drawn, clicked or not (`hand:0:spear_wall` face up, `back:1` face
    /// down): checks of the real window read what the board shows, and hides, by that name.
    pub fn piece(&mut self, name: impl Into<String>, r: &egui::Response) {
        self.pieces.push((name.into(), r.rect));
    }

    /// Closes the board after this frame (a piece that sends the player to the map).
    pub fn close_board(&mut self) {
        self.close = true;
    }

    /// Offers a choice of the board on the map too: its marks (a ring, a label, and the
    /// `Mark::Choice` a click there takes) stay on the map while the board is closed, until
    /// the game moves on.
    pub fn offer_on_map(&mut self, marks: impl IntoIterator<Item = super::chapter_map::Mark>) {
        self.offers.extend(marks);
    }

    /// A seat's name.
    pub fn player(&self, seat: u8) -> String {
        self.players.get(seat as usize).cloned().unwrap_or_default()
    }
}

/// A table's drawing function with the state it was given.
type Draw = dyn Fn(&mut egui::Ui, &mut TableCx) -> Option<Action> + Send + Sync;

/// A chapter's table, ready to draw: the drawing function with the state it may show.
pub struct SeenTable {
    /// The chapter.
    pub chapter: &'static str,
    /// The window's title (English; translated when drawn).
    pub title: &'static str,
    pub(super) draw: Box<Draw>,
}

/// The chapters' tables in this app, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterTables(Captures<SeenTable>);

/// Adds `draw` as the table of `chapter` under `title`, drawn with its state `S` as the seat
/// at the screen sees it (adding again replaces it).
pub(super) fn add<S: ChapterState>(
    app: &mut App,
    chapter: &'static str,
    title: &'static str,
    draw: fn(&mut egui::Ui, &S, &mut TableCx) -> Option<Action>,
) {
    let made = capture(move |state: S| SeenTable {
        chapter,
        title,
        draw: Box::new(move |ui, cx| draw(ui, &state, cx)),
    });
    app.world_mut()
        .get_resource_or_init::<ChapterTables>()
        .0
        .put(chapter, made);
}

/// The tables of the chapters in play, each with its state as `seat` sees it.
pub fn seen(world: &World, seat: u8) -> Vec<SeenTable> {
    world
        .get_resource::<ChapterTables>()
        .map(|t| t.0.seen(world, seat))
        .unwrap_or_default()
}

/// Whether the table window is open, when it last opened by itself, and where its targets
/// were drawn (logical pixels from the window's top left, for checks of the real window).
#[derive(Resource, Default)]
pub struct TableView {
    /// The window is open.
    pub open: bool,
    /// The (cycle, step) it last opened itself for, whether for a show, and the actions taken
    /// when it was for a decision.
    pub(super) opened_for: Option<(u32, usize, bool, usize)>,
    /// The pieces a click is taken on, by name, with their places: x, y, width, height.
    pub targets: Vec<(String, [f32; 4])>,
    /// The pieces drawn that the table names (`TableCx::piece`), with their places.
    pub pieces: Vec<(String, [f32; 4])>,
}
