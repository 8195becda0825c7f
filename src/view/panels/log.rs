//! The log at the bottom of the side panel: the game's events in words, newest last (worded
//! once per change in the view cache, not every frame).

use bevy_egui::egui;

use crate::text::Translations;

/// Draws the log.
pub(super) fn draw(ui: &mut egui::Ui, tr: &Translations, log: &[String]) {
    ui.separator();
    ui.heading(tr.t("Log"));
    for line in log {
        ui.label(egui::RichText::new(line).small());
    }
}
