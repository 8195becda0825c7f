//! The hovered tile's box at the bottom left of the map: terrain, move cost, yields, what
//! lies there and the corruption odds, each line that cites a rule with its 📖 link.

use bevy_egui::egui;

use super::Out;
use crate::text::Translations;
use crate::view::help::rule_button;

/// Draws the box when the pointer is over a tile (or over the box itself).
pub(super) fn draw(
    ctx: &egui::Context,
    tr: &Translations,
    help: &crate::view::help::ChapterHelp,
    lines: &[String],
    out: &mut Out,
) {
    if lines.is_empty() {
        return;
    }
    egui::Area::new("hover".into())
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                // A line citing a rule links to it (the hover stays while the pointer is over
                // this box).
                for l in lines {
                    ui.horizontal(|ui| {
                        ui.label(l);
                        if let Some(rule) = rule_button(ui, l, tr, help) {
                            out.rule = Some(rule);
                        }
                    });
                }
            });
        });
}
