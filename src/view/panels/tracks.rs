//! The track bar: every track of the chapters in play (`rules::tracks`: Rage, Flame, Glory,
//! gems…), one bar per holder (a camp or a seat) with its value within the track's bounds.
//! Generic: a chapter declares its tracks in `tracks.ron` and they show here without view code.
//! Nothing shows in a level without chapters.

use bevy_egui::egui;

use crate::content::ContentDb;
use crate::rules::tracks::{Holder, Row};
use crate::text::Translations;

/// Draws the tracks (nothing when there are none). `players` names the seats.
pub(super) fn draw(
    ui: &mut egui::Ui,
    tr: &Translations,
    db: &ContentDb,
    rows: &[Row],
    players: &[String],
) {
    if rows.is_empty() {
        return;
    }
    ui.heading(tr.t("Tracks"));
    for row in rows {
        let name = tr.name(Some(db), &row.id);
        for (h, v) in &row.values {
            let who = match h {
                Holder::Seat(s) => players
                    .get(*s as usize)
                    .cloned()
                    .unwrap_or_else(|| crate::text::holder_words(tr, h)),
                Holder::Camp(_) => crate::text::holder_words(tr, h),
            };
            let span = (row.max - row.min).max(1) as f32;
            let fill = ((*v - row.min) as f32 / span).clamp(0.0, 1.0);
            ui.add(
                egui::ProgressBar::new(fill)
                    .text(format!("{name} — {who}: {v}/{}", row.max))
                    .desired_height(14.0),
            );
        }
    }
    ui.separator();
}
