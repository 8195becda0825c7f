//! The top of the side panel: the end of the game when it came (who won, after how many
//! cycles, and why), then the portal — each arch's cells built and the next one's cost, and
//! the power track with its crystals, corruption markers and star (R8) — and what the level
//! asks beyond it (technologies, outposts held, rifts closed), each met or not, so that a
//! powered portal that has not won says why.

use bevy_egui::egui;

use crate::content::ContentDb;
use crate::rules::decks::PowerCell;
use crate::rules::outcome::Condition;
use crate::rules::{Outcome, Portal};
use crate::text::Translations;

/// Draws the outcome (if any) and the portal.
pub(super) fn draw(
    ui: &mut egui::Ui,
    tr: &Translations,
    db: &ContentDb,
    outcome: &Outcome,
    portal: &Portal,
    victory: &[(Condition, bool)],
) {
    if let Some(w) = outcome.winner {
        ui.heading(tr.f(
            "{} win after {} cycles",
            &[&tr.t(&format!("{w:?}")), &outcome.cycle],
        ));
        if let Some(r) = &outcome.reason {
            ui.label(r.words(tr));
        }
        ui.separator();
    }
    let def = db.portal();
    ui.heading(tr.t("The portal"));
    for (i, a) in def.arches.iter().enumerate() {
        let built = portal.built.get(i).copied().unwrap_or(0) as usize;
        let next = a
            .get(built)
            .map(|c| tr.f(" — next cell: {}", &[&tr.stock(c)]))
            .unwrap_or(tr.t(" — complete").into_owned());
        ui.label(format!(
            "{}{next}",
            tr.f("Arch {}: {}/{} cells", &[&(i + 1), &built, &a.len()])
        ));
    }
    ui.horizontal(|ui| {
        ui.label(tr.t("Power:"));
        for (i, c) in portal.track(def.track).iter().enumerate() {
            let (color, text) = match c {
                PowerCell::Crystal => (egui::Color32::from_rgb(80, 200, 255), "♦"),
                PowerCell::Corruption => (egui::Color32::from_rgb(200, 40, 200), "✖"),
                PowerCell::Empty => (
                    egui::Color32::GRAY,
                    if i + 1 == def.star as usize {
                        "★"
                    } else {
                        "○"
                    },
                ),
            };
            ui.label(egui::RichText::new(text).color(color).size(18.0));
        }
    });
    if !victory.is_empty() {
        // What the end check waits on, read from the conditions, not decided here.
        let unmet = victory.iter().any(|(_, met)| !met);
        if portal.operational && outcome.winner.is_none() && unmet {
            ui.colored_label(
                egui::Color32::from_rgb(255, 200, 80),
                tr.t("Powered, but not won yet: the level asks for more."),
            );
        }
        ui.label(tr.t("To win, also:"));
        for (c, met) in victory {
            let (mark, color) = if *met {
                ("✔", egui::Color32::from_rgb(120, 220, 120))
            } else {
                ("✖", egui::Color32::from_rgb(230, 110, 90))
            };
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(mark).color(color));
                ui.label(c.words(tr, Some(db)));
            });
        }
    }
    ui.separator();
}
