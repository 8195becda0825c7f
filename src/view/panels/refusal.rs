//! The rules' last refusal, where the player looks: a toast just under the phase bar, over the
//! map's top left, worded in the player's language with the rule it cites one click away. It
//! stays until the player closes it or a new refusal replaces it.

use bevy_egui::egui;

use super::Out;
use crate::rules::Refusal;
use crate::text::Translations;

/// The toast's egui id (window checks find it by this).
pub const TOAST_ID: &str = "refusal_toast";

/// Draws the toast for `refusal` with its top left at `at`; true when the player closed it.
pub(super) fn draw(
    ctx: &egui::Context,
    at: egui::Pos2,
    refusal: &Refusal,
    tr: &Translations,
    help: &crate::view::help::ChapterHelp,
    out: &mut Out,
) -> bool {
    let mut closed = false;
    egui::Area::new(egui::Id::new(TOAST_ID))
        .order(egui::Order::Foreground)
        .fixed_pos(at)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .fill(egui::Color32::from_rgb(58, 22, 24))
                .stroke(egui::Stroke::new(1.5, egui::Color32::from_rgb(230, 90, 80)))
                .show(ui, |ui| {
                    // Narrow enough to leave the event cards (centred at the top) clear.
                    ui.set_max_width(320.0);
                    ui.horizontal_wrapped(|ui| {
                        // Worded at draw time, so a language switch rewords it too.
                        let words = tr.f("Refused: {}", &[&refusal.words(tr)]);
                        ui.label(
                            egui::RichText::new(format!("⚠ {words}"))
                                .color(egui::Color32::from_rgb(255, 200, 190)),
                        );
                        // The rule it cites, one click away.
                        if let Some(rule) = crate::view::help::rule_button(ui, &words, tr, help) {
                            out.rule = Some(rule);
                        }
                        if ui.small_button("✖").on_hover_text(tr.t("Close")).clicked() {
                            closed = true;
                        }
                    });
                });
        });
    closed
}
