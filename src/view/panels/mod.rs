//! The egui panels, one file each: the phase bar (`phase_bar.rs`), the side panel with the
//! outcome and the portal (`portal.rs`), the forecast and the army, outpost and research sheets
//! (`../sheets.rs`), the selected tile's actions (`actions.rs`), the log (`log.rs`), the
//! hovered tile's box (`hover.rs`), the last refusal's toast (`refusal.rs`), and the chapters' own panels (`../chapter_panel.rs`) under
//! the track bar. This system reads the state once, hands each panel what it shows, and sends
//! what they ask for (actions, a rule to open) after drawing.

mod actions;
mod hover;
mod log;
pub mod phase_bar;
mod portal;
pub mod refusal;
pub mod tracks;

use super::cache::{GameDigest, HoverCache, SheetCache};
use super::driver::Driver;
use super::sheets::{self, IconIds};
use super::{Shortcuts, ViewState};
use crate::content::{Camp, Content};
use crate::rules::{
    Action, ActionRequest, Army, Cycle, CycleOrder, GameSetup, Outcome, Outpost, Portal, Research,
};
use crate::text::Translations;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<IconIds>().add_systems(
        EguiPrimaryContextPass,
        (super::sheets::register_icons, draw_panels).chain(),
    );
}

/// The words the panels write: the language's table, and the chapters' rules (a rule a line
/// cites gets its button to the help).
#[derive(bevy::ecs::system::SystemParam)]
struct Words<'w> {
    tr: Res<'w, Translations>,
    rules: Res<'w, super::help::ChapterHelp>,
}

/// What the panels ask for, gathered while drawing and sent once the frame's panels are
/// drawn: actions (in the order clicked) and a rule to open in the help.
#[derive(Default)]
struct Out {
    actions: Vec<Action>,
    rule: Option<String>,
}

/// The view's caches the panels read (`cache.rs`).
#[derive(bevy::ecs::system::SystemParam)]
struct Caches<'w> {
    sheets: Res<'w, SheetCache>,
    digest: Res<'w, GameDigest>,
    hovered: Res<'w, HoverCache>,
}

/// The game as the panels read it.
#[derive(bevy::ecs::system::SystemParam)]
struct Game<'w, 's> {
    cycle: Res<'w, Cycle>,
    order: Res<'w, CycleOrder>,
    outcome: Res<'w, Outcome>,
    portal: Res<'w, Portal>,
    research: Res<'w, Research>,
    setup: Res<'w, GameSetup>,
    outposts: Query<'w, 's, &'static Outpost>,
    armies: Query<'w, 's, &'static Army>,
    content: Res<'w, Content>,
}

/// What the panels change or send: the view's state, the undo stack, the AI's driver, the help
/// (a rule to open), the screens (to open it) and the rules (actions).
#[derive(bevy::ecs::system::SystemParam)]
struct Sent<'w> {
    view: ResMut<'w, ViewState>,
    undo: ResMut<'w, super::undo::UndoStack>,
    driver: ResMut<'w, Driver>,
    help: ResMut<'w, super::help::Help>,
    screens: super::screens::Screens<'w>,
    send: MessageWriter<'w, ActionRequest>,
}

fn draw_panels(
    mut contexts: EguiContexts,
    game: Game,
    caches: Caches,
    icons: Res<IconIds>,
    words: Words,
    shortcuts: Shortcuts,
    sent: Sent,
) -> Result {
    let Words {
        tr,
        rules: rules_help,
    } = words;
    let Caches {
        sheets: cache,
        digest,
        hovered,
    } = caches;
    let Game {
        cycle,
        order,
        outcome,
        portal,
        research,
        setup,
        outposts,
        armies,
        content,
    } = game;
    let Sent {
        mut view,
        mut undo,
        mut driver,
        mut help,
        mut screens,
        mut send,
    } = sent;
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut out = Out::default();
    let bar = phase_bar::PhaseBar {
        cycle: &cycle,
        order: &order,
        outcome: &outcome,
        setup: &setup,
        tr: &tr,
        shortcuts: &shortcuts,
    };
    phase_bar::draw(&mut root, &bar, &mut driver, &mut undo, &mut out);
    // The refusal under the bar, where the player just clicked or looks next.
    let under_bar = root.available_rect_before_wrap().min + egui::vec2(12.0, 8.0);
    // Over the game only: a menu over it shows its own messages.
    let playing = screens.screen() == super::screens::Screen::Playing;
    if let Some(r) = view.last_refusal.as_ref().filter(|_| playing)
        && refusal::draw(ctx, under_bar, r, &tr, &rules_help, &mut out)
    {
        view.last_refusal = None;
    }
    let db = &content.0;
    let ops: Vec<&Outpost> = {
        let mut v: Vec<&Outpost> = outposts.iter().collect();
        v.sort_by_key(|o| o.id);
        v
    };
    let arms: Vec<&Army> = armies.iter().collect();
    egui::Panel::right("state")
        .min_size(320.0)
        .show(&mut root, |ui| {
            let mut area = egui::ScrollArea::vertical();
            // Only a scroll asked for touches the view state (a write would mark it changed).
            if view.side_scroll.is_some()
                && let Some(y) = view.side_scroll.take()
            {
                area = area.vertical_scroll_offset(y);
            }
            area.show(ui, |ui| {
                portal::draw(ui, &tr, db, &outcome, &portal, &digest.victory);
                tracks::draw(ui, &tr, db, &digest.tracks, &setup.players);
                let (seat, panels) = &digest.chapter_panels;
                let cx = crate::view::chapter_panel::PanelCx {
                    tr: &tr,
                    db,
                    seat: *seat,
                    legal: &cache.legal,
                    players: &setup.players,
                    level: &setup.level,
                };
                out.actions
                    .extend(crate::view::chapter_panel::draw_all(ui, panels, &cx));
                if let Some(rule) =
                    sheets::forecast(ui, &icons, &tr, db, &digest.forecast, &rules_help)
                {
                    out.rule = Some(rule);
                }
                let cx = sheets::Cx {
                    icons: &icons,
                    tr: &tr,
                    db,
                    help: &rules_help,
                };
                let mut clicked: Option<Action> = None;
                if !cache.armies.is_empty() {
                    clicked = clicked.or(sheets::armies(
                        ui,
                        &cx,
                        &cache.armies,
                        cycle.activation,
                        &cache.legal,
                        &cache.odds,
                    ));
                }
                if let Some(o) = &cache.outpost {
                    clicked = clicked.or(sheets::outpost(ui, &cx, o, &cache.legal));
                }
                clicked = clicked.or(sheets::research(ui, &cx, &research, &cache.legal));
                out.actions.extend(clicked);
                let list = actions::Actions {
                    tr: &tr,
                    db,
                    cache: &cache,
                    selected: view.selected,
                    armies: &arms,
                    outposts: &ops,
                    activation: cycle.activation,
                    shortcuts: &shortcuts,
                    help: &rules_help,
                };
                actions::draw(ui, &list, &mut out);
                log::draw(ui, &tr, &digest.log);
            });
        });
    // What the panels leave to the map, in logical pixels: the map's view is narrowed to it.
    let free = root.available_rect_before_wrap();
    let z = ctx.zoom_factor();
    let r = [
        free.min.x * z,
        free.min.y * z,
        free.width() * z,
        free.height() * z,
    ];
    if view.map_rect != Some(r) {
        view.map_rect = Some(r);
    }
    hover::draw(ctx, &tr, &rules_help, &hovered.lines, &mut out);
    for action in out.actions {
        send.write(ActionRequest {
            by: Camp::Eladrins,
            action,
        });
    }
    if let Some(rule) = out.rule {
        help.show_rule(&rule);
        screens.open(super::screens::Overlay::Help);
    }
    Ok(())
}
