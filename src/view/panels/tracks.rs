//! The track bar: every track of the chapters in play (`rules::tracks`: Rage, Flame, Glory,
//! gems…), each drawn by its nature as `tracks.ron` declares it (`TrackDef::show`): a bounded
//! track as one bar per holder (a camp or a seat) within its bounds, ticked at each step of its
//! threshold; a score as one line with each holder's rank; a counted resource as one line of
//! numbers. Generic: a chapter declares its tracks in `tracks.ron` and they show here without
//! view code. Nothing shows in a level without chapters.
//!
//! `lines` words and measures what the bar shows without a window, so tests read it; `draw`
//! only paints those lines.

use bevy_egui::egui;

use crate::content::{ContentDb, TrackDef, TrackShow};
use crate::rules::tracks::{Holder, Row};
use crate::text::Translations;

/// The most ticks a bar shows: past them a threshold's marks would cover the bar, so it shows
/// none, and the line under it still says the step.
pub const MAX_TICKS: i64 = 40;

/// One line of the track bar, worded and measured.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// One holder's value on a bounded track (`TrackShow::Bar`): its words on a bar.
    Bar {
        /// What the bar says: the track, the holder, the value within its bounds ("Rage —
        /// Thorn: 12/30").
        text: String,
        /// How full the bar is, 0 to 1.
        fill: f32,
        /// Where each step of the track's threshold falls, as fractions of the bar's width
        /// (the ends left out): a tick each.
        ticks: Vec<f32>,
    },
    /// A score or a count (`TrackShow::Score`, `TrackShow::Count`): the track's name, then
    /// every holder on one line, words only.
    Values {
        /// The track's name, translated.
        track: String,
        /// Every holder's value, a score's with its rank ("Thorn 24 (1st) · Chaos 12 (2nd)").
        text: String,
        /// The same, one holder each, in the order `text` names them.
        entries: Vec<Entry>,
    },
    /// What each step of a bar's threshold brings, under the track's bars ("every 10: one more
    /// corruption attempt"): words only.
    Step(String),
}

/// A holder's value on a score's or a count's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Who holds it: a player's name, a camp, or a seat without a name.
    pub who: String,
    /// The value.
    pub value: i32,
    /// Its rank on a score, 1 the highest (holders with the same value share a rank, and the
    /// next rank skips as many); none on a count.
    pub rank: Option<u32>,
}

/// The lines the track bar shows for `rows` (`rules::tracks::rows`), each track drawn as its
/// definition in `defs` says (one `defs` lacks draws as a bar); `players` names the seats.
pub fn lines(tr: &Translations, defs: &[TrackDef], rows: &[Row], players: &[String]) -> Vec<Line> {
    let mut out = Vec::new();
    for row in rows {
        let def = defs.iter().find(|d| d.id == row.id);
        let name = tr.t(&row.name);
        let held: Vec<(String, i32)> = row
            .values
            .iter()
            .map(|(h, v)| (holder_name(tr, h, players), *v))
            .collect();
        match def.map_or(TrackShow::Bar, |d| d.show) {
            TrackShow::Bar => {
                let every = def.and_then(|d| d.every.as_ref());
                let marks = every.map_or_else(Vec::new, |e| ticks(row.min, row.max, e.step));
                for (who, v) in &held {
                    // A track from 0 reads as a fraction; other bounds are said in full.
                    let text = if row.min == 0 {
                        tr.f("{} — {}: {}/{}", &[&name, who, v, &row.max])
                    } else {
                        tr.f(
                            "{} — {}: {} ({} to {})",
                            &[&name, who, v, &row.min, &row.max],
                        )
                    };
                    out.push(Line::Bar {
                        text,
                        fill: fill(row.min, row.max, *v),
                        ticks: marks.clone(),
                    });
                }
                if let Some(e) = every {
                    out.push(Line::Step(tr.f("every {}: {}", &[&e.step, &tr.t(&e.text)])));
                }
            }
            show @ (TrackShow::Score | TrackShow::Count) => {
                let mut entries: Vec<Entry> = held
                    .iter()
                    .map(|(who, v)| Entry {
                        who: who.clone(),
                        value: *v,
                        rank: (show == TrackShow::Score)
                            .then(|| 1 + held.iter().filter(|(_, o)| o > v).count() as u32),
                    })
                    .collect();
                if show == TrackShow::Score {
                    // Highest first; holders tied keep the bar's order (the sort is stable).
                    entries.sort_by_key(|e| std::cmp::Reverse(e.value));
                }
                let words: Vec<String> = entries
                    .iter()
                    .map(|e| {
                        // A name and a number read alike in every language; a rank is worded.
                        let value = format!("{} {}", e.who, e.value);
                        match e.rank {
                            Some(r) => tr.f("{} ({})", &[&value, &ordinal(tr, r)]),
                            None => value,
                        }
                    })
                    .collect();
                out.push(Line::Values {
                    track: name.into_owned(),
                    text: words.join(" · "),
                    entries,
                });
            }
        }
    }
    out
}

/// How full a bar from `min` to `max` is at `value`, 0 to 1.
fn fill(min: i32, max: i32, value: i32) -> f32 {
    // In i64: bounds far apart must not overflow; an empty span draws as a full or empty bar.
    let span = (i64::from(max) - i64::from(min)).max(1) as f32;
    ((i64::from(value) - i64::from(min)) as f32 / span).clamp(0.0, 1.0)
}

/// Where each step of a threshold falls along a bar from `min` to `max`, as fractions of its
/// width, the ends left out: none for a step that marks nothing, or one that would mark more
/// than `MAX_TICKS`.
pub fn ticks(min: i32, max: i32, step: i32) -> Vec<f32> {
    let span = i64::from(max) - i64::from(min);
    let step = i64::from(step);
    if step <= 0 || span <= 0 || (span - 1) / step > MAX_TICKS {
        return Vec::new();
    }
    (1i64..)
        .map(|k| k * step)
        .take_while(|at| *at < span)
        .map(|at| at as f32 / span as f32)
        .collect()
}

/// A rank in words: "1st", "2nd", "3rd"… up to "9th" (8 seats and Chaos), then "rank 10".
pub fn ordinal(tr: &Translations, n: u32) -> String {
    // Each rank is its own entry, never an "{}st" template: a language words each as it must
    // ("1er", "2e" in French), and a template that short would match any free text ending so.
    let word = match n {
        1 => tr.t("1st"),
        2 => tr.t("2nd"),
        3 => tr.t("3rd"),
        4 => tr.t("4th"),
        5 => tr.t("5th"),
        6 => tr.t("6th"),
        7 => tr.t("7th"),
        8 => tr.t("8th"),
        9 => tr.t("9th"),
        _ => return tr.f("rank {}", &[&n]),
    };
    word.into_owned()
}

/// A holder's name: a seat's player, or the camp (a seat without a player by its number).
fn holder_name(tr: &Translations, h: &Holder, players: &[String]) -> String {
    match h {
        Holder::Seat(s) => players
            .get(*s as usize)
            .cloned()
            .unwrap_or_else(|| crate::text::holder_words(tr, h)),
        Holder::Camp(_) => crate::text::holder_words(tr, h),
    }
}

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
    for line in lines(tr, &db.set.tracks, rows, players) {
        match line {
            Line::Bar {
                text,
                fill: full,
                ticks: marks,
            } => {
                let bar = ui.add(egui::ProgressBar::new(full).text(text).desired_height(14.0));
                tick_marks(ui, bar.rect, &marks);
            }
            Line::Values { track, text, .. } => {
                ui.horizontal_wrapped(|ui| {
                    ui.label(egui::RichText::new(track).strong());
                    ui.label(text);
                });
            }
            Line::Step(text) => {
                ui.label(egui::RichText::new(text).weak().small());
            }
        }
    }
    ui.separator();
}

/// Marks each step on the bar drawn in `rect`: a short stroke down from its top edge and one up
/// from its bottom edge, so the bar's words stay clear.
fn tick_marks(ui: &egui::Ui, rect: egui::Rect, marks: &[f32]) {
    let stroke = egui::Stroke::new(1.5, ui.visuals().text_color());
    let stub = rect.height() * 0.3;
    for t in marks {
        let x = rect.left() + rect.width() * t;
        ui.painter().line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.top() + stub)],
            stroke,
        );
        ui.painter().line_segment(
            [
                egui::pos2(x, rect.bottom() - stub),
                egui::pos2(x, rect.bottom()),
            ],
            stroke,
        );
    }
}
