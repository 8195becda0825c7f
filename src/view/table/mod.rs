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

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use hexx::Hex;

use crate::app::settings::{Palette, Settings};
use crate::content::{Camp, Content, ContentDb};
use crate::rules::chapter::{ChapterAction, ChapterState, Viewer};
use crate::rules::{Action, ActionRequest, Cycle, GameSetup};
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
    targets: Vec<(String, egui::Rect)>,
}

impl TableCx<'_> {
    /// The legal actions of the chapter whose actions are `A`, typed, each with the action as
    /// the core carries it (what a click sends).
    pub fn legal_of<A: ChapterAction>(&self) -> Vec<(&Action, A)> {
        self.legal
            .iter()
            .filter_map(|a| crate::rules::chapter::decode::<A>(a).map(|t| (a, t)))
            .collect()
    }

    /// Names a piece a click is taken on (`slot:guild:0`, `assistant:Healer`): checks of the
    /// real window find it by that name and click it with the real mouse.
    pub fn target(&mut self, name: impl Into<String>, r: &egui::Response) {
        self.targets.push((name.into(), r.rect));
    }

    /// A seat's name.
    pub fn player(&self, seat: u8) -> String {
        self.players.get(seat as usize).cloned().unwrap_or_default()
    }
}

/// A table's drawing function with the state it was given.
type Draw = dyn Fn(&mut egui::Ui, &mut TableCx) -> Option<Action> + Send + Sync;

type Capture = Arc<dyn Fn(&World, Viewer) -> Option<SeenTable> + Send + Sync>;

/// A chapter's table, ready to draw: the drawing function with the state it may show.
pub struct SeenTable {
    /// The chapter.
    pub chapter: &'static str,
    /// The window's title (English; translated when drawn).
    pub title: &'static str,
    draw: Box<Draw>,
}

/// The chapters' tables in this app, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterTables(Vec<(&'static str, Capture)>);

/// Adds `draw` as the table of `chapter` under `title`, drawn with its state `S` as the seat
/// at the screen sees it (adding again replaces it).
pub(super) fn add<S: ChapterState>(
    app: &mut App,
    chapter: &'static str,
    title: &'static str,
    draw: fn(&mut egui::Ui, &S, &mut TableCx) -> Option<Action>,
) {
    let capture: Capture = Arc::new(move |world: &World, viewer: Viewer| {
        let state = world.get_resource::<S>()?.seen_by(viewer);
        Some(SeenTable {
            chapter,
            title,
            draw: Box::new(move |ui, cx| draw(ui, &state, cx)),
        })
    });
    let mut tables = app.world_mut().get_resource_or_init::<ChapterTables>();
    tables.0.retain(|(c, _)| *c != chapter);
    tables.0.push((chapter, capture));
}

/// The tables of the chapters in play, each with its state as `seat` sees it.
pub fn seen(world: &World, seat: u8) -> Vec<SeenTable> {
    let Some(in_play) = world.get_resource::<crate::rules::InPlay>() else {
        return Vec::new();
    };
    let Some(tables) = world.get_resource::<ChapterTables>() else {
        return Vec::new();
    };
    in_play
        .0
        .iter()
        .filter_map(|c| tables.0.iter().find(|(id, _)| id == c))
        .filter_map(|(_, capture)| capture(world, Viewer::Seat(seat)))
        .collect()
}

/// Whether the table window is open, when it last opened by itself, and where its targets
/// were drawn (logical pixels from the window's top left, for checks of the real window).
#[derive(Resource, Default)]
pub struct TableView {
    /// The window is open.
    pub open: bool,
    /// The (cycle, step) it last opened itself for, and whether for a show.
    opened_for: Option<(u32, usize, bool)>,
    /// The pieces a click is taken on, by name, with their places: x, y, width, height.
    pub targets: Vec<(String, [f32; 4])>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableView>()
        .add_systems(
            Update,
            open_by_itself.in_set(super::screens::ViewSet::Cache),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_table.run_if(super::screens::playing_free),
        );
}

/// Opens the table when the seat at the screen has a decision in a chapter with a table (once
/// per step), or when a chapter's show begins; the B key opens and closes it.
fn open_by_itself(
    cycle: Res<Cycle>,
    cache: Res<super::cache::SheetCache>,
    digest: Res<super::cache::GameDigest>,
    show: Res<super::chapter_show::Show>,
    shortcuts: super::Shortcuts,
    mut view: ResMut<TableView>,
) {
    if digest.chapter_tables.is_empty() {
        return;
    }
    if shortcuts.fired(crate::app::keys::Shortcut::Board) {
        view.open = !view.open;
        return;
    }
    let ours = |a: &Action| {
        matches!(a, Action::Chapter { chapter, .. }
            if digest.chapter_tables.iter().any(|t| t.chapter == chapter))
    };
    let asked = cycle.turn == Camp::Eladrins && cache.legal.iter().any(ours);
    let busy = show.busy();
    let now = (cycle.number, cycle.step, busy);
    if (asked || busy) && view.opened_for != Some(now) {
        view.opened_for = Some(now);
        view.open = true;
    }
}

/// The window: the tables of the chapters in play over the map, or the Board button that
/// opens it; what a click asks for is sent.
fn draw_table(
    mut contexts: EguiContexts,
    digest: Res<super::cache::GameDigest>,
    cache: Res<super::cache::SheetCache>,
    game: (Res<Content>, Res<GameSetup>, Res<Cycle>),
    looks: (
        Res<Settings>,
        Res<Translations>,
        Res<super::chapter_show::Show>,
        Res<super::ViewState>,
    ),
    mut view: ResMut<TableView>,
    mut send: MessageWriter<ActionRequest>,
) -> Result {
    let (content, setup, cycle) = game;
    let (settings, tr, show, state) = looks;
    if digest.chapter_tables.is_empty() {
        if !view.targets.is_empty() {
            view.targets.clear();
        }
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let z = ctx.zoom_factor();
    // The map's area, in points: the window stays over the map, clear of the panels.
    let area = state
        .map_rect
        .map(|[x, y, w, h]| {
            egui::Rect::from_min_size(egui::pos2(x / z, y / z), egui::vec2(w / z, h / z))
        })
        .unwrap_or_else(|| ctx.viewport_rect());
    let mut cx = TableCx {
        tr: &tr,
        db: &content.0,
        seat: digest.chapter_panels.0,
        legal: &cache.legal,
        players: &setup.players,
        level: &setup.level,
        palette: settings.palette,
        showing: show.showing(),
        to_play: (cycle.turn == Camp::Eladrins).then(|| cycle.acting_seat()),
        targets: Vec::new(),
    };
    let mut asked = None;
    let mut open = view.open;
    if open {
        let rect = area.shrink2(egui::vec2(10.0, 8.0));
        let title = digest
            .chapter_tables
            .iter()
            .map(|t| tr.t(t.title).into_owned())
            .collect::<Vec<_>>()
            .join(" · ");
        egui::Window::new(format!("{title} — {}", tr.t("the board")))
            .id(egui::Id::new("table"))
            .fixed_rect(rect)
            .collapsible(false)
            .resizable(false)
            .open(&mut open)
            .frame(egui::Frame::window(&ctx.global_style()).fill(pieces::CLOTH))
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        for t in &digest.chapter_tables {
                            asked = asked.take().or((t.draw)(ui, &mut cx));
                        }
                    });
            });
    } else {
        egui::Area::new(egui::Id::new("table_button"))
            .fixed_pos(egui::pos2(area.right() - 110.0, area.top() + 8.0))
            .show(ctx, |ui| {
                let r = ui.button(format!("{} (B)", tr.t("Board")));
                if r.clicked() {
                    open = true;
                }
                cx.target("board:open", &r);
            });
    }
    view.open = open;
    let targets: Vec<(String, [f32; 4])> = cx
        .targets
        .iter()
        .map(|(n, r)| {
            (
                n.clone(),
                [r.min.x * z, r.min.y * z, r.width() * z, r.height() * z],
            )
        })
        .collect();
    // Written only when they moved: an unchanged resource marks nothing changed.
    if view.targets != targets {
        view.targets = targets;
    }
    if let Some(action) = asked {
        send.write(ActionRequest {
            by: Camp::Eladrins,
            action,
        });
    }
    Ok(())
}
