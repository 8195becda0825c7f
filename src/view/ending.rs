//! The end of a game: its window over the map (victory or defeat, why, each seat's glory, the
//! game's chart, back to the menu), and the pieces a chapter's end window shares with it.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::screens::{Screen, Screens, playing_free};
use crate::rules::{Outcome, Research};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_the_end.run_if(playing_free));
}

/// A window over a game that ended: in front of everything, over the map's centre, but it can
/// be folded or dragged aside to look at the map.
pub fn end_window<'a>(ctx: &egui::Context, title: &str, id: &str) -> egui::Window<'a> {
    let map_centre = ctx.content_rect().center() - egui::vec2(200.0, 0.0);
    egui::Window::new(title.to_string())
        .id(egui::Id::new(id))
        .order(egui::Order::Foreground)
        .default_pos(map_centre)
        .pivot(egui::Align2::CENTER_CENTER)
        .collapsible(true)
        .resizable(false)
}

/// Each seat's name with its glory, the most first (ties in seat order); empty where no
/// chapter counts glory.
pub fn seats_glory(players: &[String], glory: &[u32]) -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = glory
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let name = players.get(i).cloned().unwrap_or_else(|| "Eladrins".into());
            (name, *g)
        })
        .collect();
    v.sort_by_key(|(_, g)| std::cmp::Reverse(*g));
    v
}

/// Each seat's glory, one line each, the most first: each seat's own score in co-op.
pub fn glory_lines(ui: &mut egui::Ui, tr: &crate::text::Translations, glory: &[(String, u32)]) {
    if glory.is_empty() {
        return;
    }
    ui.separator();
    ui.label(egui::RichText::new(tr.t("Each seat's glory")).strong());
    let top = glory.first().map(|(_, g)| *g);
    egui::Grid::new("glory").num_columns(2).show(ui, |ui| {
        for (name, g) in glory {
            let text = egui::RichText::new(name.as_str());
            ui.label(if Some(*g) == top && *g > 0 {
                text.strong().color(egui::Color32::from_rgb(240, 200, 90))
            } else {
                text
            });
            ui.label(tr.f("{} glory", &[g]));
            ui.end_row();
        }
    });
}

/// What the end window reads.
#[derive(SystemParam)]
struct EndOfGame<'w> {
    outcome: Res<'w, Outcome>,
    research: Res<'w, Research>,
    history: Res<'w, super::cards::History>,
    digest: Res<'w, super::cache::GameDigest>,
    setup: Res<'w, crate::rules::GameSetup>,
    campaign_run: Res<'w, crate::rules::campaign::CampaignRun>,
    tr: Res<'w, crate::text::Translations>,
}

/// The end-of-game window, over a game that ended outside a campaign (a chapter's end has a
/// window of its own, `campaign_ui`).
fn draw_the_end(mut contexts: EguiContexts, end: EndOfGame, mut screens: Screens) -> Result {
    let Some(w) = end.outcome.winner else {
        return Ok(());
    };
    if !end.campaign_run.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let tr = &*end.tr;
    let glory = seats_glory(&end.setup.players, &end.digest.glory);
    end_window(ctx, &tr.t("The end"), "the_end").show(ctx, |ui| {
        ui.heading(crate::text::end_headline(
            tr,
            w,
            end.outcome.reason.as_ref(),
        ));
        if let Some(r) = &end.outcome.reason {
            ui.label(r.words(tr));
        }
        ui.label(tr.f(
            "After {} cycles, {} technologies researched.",
            &[&end.outcome.cycle, &end.research.done.len()],
        ));
        glory_lines(ui, tr, &glory);
        super::cards::chart(ui, &end.history.0, tr);
        if ui.button(tr.t("Main menu")).clicked() {
            screens.go(Screen::Menu);
        }
    });
    Ok(())
}
