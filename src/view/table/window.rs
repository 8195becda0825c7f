//! The table's window: the tables of the chapters in play over the map, opened by itself at a
//! seat's decision in a chapter's step and while a chapter's show plays, closed and opened
//! again by the player (its cross, the Board button, the B key); what a click asks for is
//! sent as an Eladrin action. The pieces a click is taken on are kept by name with their
//! places (`TableView::targets`) for checks of the real window.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{TableCx, TableView, pieces};
use crate::app::settings::Settings;
use crate::content::{Camp, Content};
use crate::rules::{Action, ActionRequest, Cycle, CycleOrder, GameSetup};
use crate::text::Translations;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<TableView>()
        .add_systems(
            Update,
            open_by_itself.in_set(crate::view::screens::ViewSet::Cache),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_table.run_if(crate::view::screens::playing_free),
        );
}

/// Opens the table when the seat at the screen is asked a decision in a chapter with a table
/// (once per decision: closed to look at the map or click on it, it stays closed until the
/// game moves on and asks again, a pillage's call to battle say), or when a chapter's show
/// begins; the B key opens and closes it.
fn open_by_itself(
    cycle: Res<Cycle>,
    log: Res<crate::rules::ActionLog>,
    cache: Res<crate::view::cache::SheetCache>,
    digest: Res<crate::view::cache::GameDigest>,
    show: Res<crate::view::chapter_show::Show>,
    shortcuts: crate::view::Shortcuts,
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
    let now = (
        cycle.number,
        cycle.step,
        busy,
        if asked { log.0.len() } else { 0 },
    );
    if (asked || busy) && view.opened_for != Some(now) {
        view.opened_for = Some(now);
        view.open = true;
    }
}

/// The game as the table reads it.
#[derive(bevy::ecs::system::SystemParam)]
struct TableGame<'w> {
    content: Res<'w, Content>,
    setup: Res<'w, GameSetup>,
    cycle: Res<'w, Cycle>,
    order: Res<'w, CycleOrder>,
    log: Res<'w, crate::rules::ActionLog>,
}

/// The window: the tables of the chapters in play over the map, or the Board button that
/// opens it; what a click asks for is sent.
fn draw_table(
    mut contexts: EguiContexts,
    digest: Res<crate::view::cache::GameDigest>,
    cache: Res<crate::view::cache::SheetCache>,
    game: TableGame,
    looks: (
        Res<Settings>,
        Res<Translations>,
        Res<crate::view::chapter_show::Show>,
        Res<crate::view::ViewState>,
    ),
    (mut view, mut offers): (
        ResMut<TableView>,
        ResMut<crate::view::chapter_map::MapOffers>,
    ),
    mut send: MessageWriter<ActionRequest>,
) -> Result {
    let TableGame {
        content,
        setup,
        cycle,
        order,
        log,
    } = game;
    let (settings, tr, show, state) = looks;
    if digest.chapter_tables.is_empty() {
        if !view.targets.is_empty() || !view.pieces.is_empty() {
            view.targets.clear();
            view.pieces.clear();
        }
        if !offers.marks.is_empty() {
            offers.marks.clear();
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
        step: order.0.get(cycle.step).map(|s| s.id).unwrap_or(""),
        targets: Vec::new(),
        pieces: Vec::new(),
        close: false,
        offers: Vec::new(),
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
            .frame(
                egui::Frame::window(&ctx.global_style())
                    .fill(pieces::CLOTH)
                    .shadow(egui::Shadow::NONE),
            )
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
    view.open = open && !cx.close;
    // The board's offers on the map: made again each frame it is drawn, kept while it is
    // closed, dropped once the game moved on.
    let acted = log.0.len();
    if view.open || cx.close {
        let now = crate::view::chapter_map::MapOffers {
            marks: std::mem::take(&mut cx.offers),
            acted,
        };
        if *offers != now {
            *offers = now;
        }
    } else if offers.acted != acted && !offers.marks.is_empty() {
        offers.marks.clear();
    }
    let placed = |v: &[(String, egui::Rect)]| -> Vec<(String, [f32; 4])> {
        v.iter()
            .map(|(n, r)| {
                (
                    n.clone(),
                    [r.min.x * z, r.min.y * z, r.width() * z, r.height() * z],
                )
            })
            .collect()
    };
    let (targets, pieces) = (placed(&cx.targets), placed(&cx.pieces));
    // Written only when they moved: an unchanged resource marks nothing changed.
    if view.targets != targets {
        view.targets = targets;
    }
    if view.pieces != pieces {
        view.pieces = pieces;
    }
    if let Some(action) = asked {
        send.write(ActionRequest {
            by: Camp::Eladrins,
            action,
        });
    }
    Ok(())
}
