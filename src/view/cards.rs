//! Cards that pop up when drawn (events, Chaos cards, artifacts, exploration), one at a time,
//! until dismissed or for eight seconds, none once the game is over; and the game's history, a summary per cycle, for the
//! result screen's chart.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::content::{Camp, Content};
use crate::rules::{Cycle, GameEvent, Outcome};
use crate::sim::CycleSummary;

/// Cards waiting to be shown: (deck, name, text, who drew it).
#[derive(Resource, Default)]
pub struct CardQueue {
    waiting: VecDeque<(String, String, String, Camp)>,
    /// When the card in front came up (the wall clock: see `wake`).
    shown_at: Option<std::time::Instant>,
}

impl CardQueue {
    /// Closes every card waiting, as their OK buttons do.
    pub fn close_all(&mut self) {
        self.waiting.clear();
        self.shown_at = None;
    }

    /// The cards waiting, by name, the one shown first (the window's report).
    pub fn names(&self) -> Vec<String> {
        self.waiting
            .iter()
            .map(|(_, name, ..)| name.clone())
            .collect()
    }

    /// The card to show now, if any. Once the game is over the end window comes first: every
    /// card still waiting is closed.
    fn next_to_show(&mut self, game_over: bool) -> Option<(String, String, String, Camp)> {
        if game_over {
            self.close_all();
        }
        self.waiting.front().cloned()
    }
}

/// One summary per cycle of the game in the window (for the result chart).
#[derive(Resource, Default)]
pub struct History(pub Vec<CycleSummary>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CardQueue>()
        .init_resource::<History>()
        .add_systems(
            Update,
            (queue_cards, record_history).in_set(super::screens::ViewSet::Commands),
        )
        // Cards wait while anything is over the game (the intro first of all).
        .add_systems(
            EguiPrimaryContextPass,
            draw_card.run_if(super::screens::playing_free),
        );
}

fn queue_cards(
    mut events: MessageReader<GameEvent>,
    mut queue: ResMut<CardQueue>,
    content: Res<Content>,
) {
    for e in events.read() {
        let GameEvent::CardDrawn { camp, deck, card } = e else {
            continue;
        };
        let s = &content.set;
        // Events, Chaos cards and artifacts share one card type; exploration has its own.
        let found = match deck.as_str() {
            "events" | "chaos" | "artifacts" => {
                let list = match deck.as_str() {
                    "events" => &s.events,
                    "chaos" => &s.chaos,
                    _ => &s.artifacts,
                };
                list.iter()
                    .find(|c| &c.id == card)
                    .map(|c| (&c.name, &c.text))
            }
            "exploration" => s
                .exploration
                .iter()
                .find(|c| &c.id == card)
                .map(|c| (&c.name, &c.text)),
            _ => None,
        };
        if let Some((name, text)) = found {
            // A long AI turn must not bury the player in cards: keep the last few.
            if queue.waiting.len() >= 6 {
                queue.waiting.pop_front();
                // The next card gets its own 8 s, not what was left of the one dropped.
                queue.shown_at = None;
            }
            queue
                .waiting
                .push_back((deck.clone(), name.clone(), text.clone(), *camp));
        }
    }
}

/// How long a card stays up when not put away.
const CARD_TIME: std::time::Duration = std::time::Duration::from_secs(8);

fn draw_card(
    mut contexts: EguiContexts,
    mut queue: ResMut<CardQueue>,
    mut wake: ResMut<super::wake::Wake>,
    tr: Res<crate::text::Translations>,
    outcome: Res<Outcome>,
) -> Result {
    let Some((deck, name, text, camp)) = queue.next_to_show(outcome.winner.is_some()) else {
        return Ok(());
    };
    // The wall clock: the game's clocks lag it after the window rested (`wake`).
    let now = std::time::Instant::now();
    let since = *queue.shown_at.get_or_insert(now);
    // Put away on time even if nothing else wakes the window.
    wake.at(since + CARD_TIME);
    let ctx = contexts.ctx_mut()?;
    let title = match deck.as_str() {
        "events" => "Event",
        "chaos" => "Chaos card",
        "artifacts" => "Artifact",
        _ => "Exploration",
    };
    let accent = if camp == Camp::Chaos {
        egui::Color32::from_rgb(230, 120, 60)
    } else {
        egui::Color32::from_rgb(110, 170, 240)
    };
    let mut done = now.saturating_duration_since(since) >= CARD_TIME;
    egui::Window::new(tr.t(title))
        .id("card".into())
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(-140.0, 70.0))
        .collapsible(false)
        .resizable(false)
        .default_width(300.0)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(tr.t(&name))
                    .size(20.0)
                    .strong()
                    .color(accent),
            );
            ui.add_space(4.0);
            ui.label(tr.t(&text));
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button(tr.t("OK")).clicked() {
                    done = true;
                }
                let more = queue.waiting.len() - 1;
                if more > 0 {
                    ui.label(egui::RichText::new(tr.f("{} more", &[&more])).weak());
                }
            });
        });
    if done {
        queue.waiting.pop_front();
        queue.shown_at = None;
    }
    Ok(())
}

/// Records a summary when each new cycle's main phase begins; a new game starts a new history.
fn record_history(world: &mut World, mut last: Local<u32>) {
    let c = world.resource::<Cycle>().number;
    if c < *last {
        world.resource_mut::<History>().0.clear();
    }
    if c == *last || !crate::rules::GameWorld::in_turns(world) {
        if c < *last {
            *last = c;
        }
        return;
    }
    *last = c;
    let s = crate::sim::summarize(world);
    world.resource_mut::<History>().0.push(s);
}

/// Draws the history as a small line chart: crystals of power and corruption markers (the
/// race), Eladrin and Chaos units, corrupted tiles.
pub fn chart(ui: &mut egui::Ui, history: &[CycleSummary], tr: &crate::text::Translations) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(380.0, 150.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 4.0, egui::Color32::from_rgb(24, 26, 34));
    if history.len() < 2 {
        p.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            tr.t("Too short a game for a chart"),
            egui::FontId::proportional(13.0),
            egui::Color32::GRAY,
        );
        return;
    }
    type Series = (&'static str, egui::Color32, fn(&CycleSummary) -> f32);
    let series: [Series; 5] = [
        ("power", egui::Color32::from_rgb(240, 228, 66), |s| {
            s.power as f32
        }),
        ("markers", egui::Color32::from_rgb(204, 121, 167), |s| {
            s.corruption as f32
        }),
        (
            "Eladrin units",
            egui::Color32::from_rgb(86, 180, 233),
            |s| s.eladrin_units as f32,
        ),
        ("Chaos units", egui::Color32::from_rgb(230, 159, 0), |s| {
            s.chaos_units as f32
        }),
        (
            "corrupted tiles",
            egui::Color32::from_rgb(150, 110, 200),
            |s| s.corrupted as f32,
        ),
    ];
    let max = history
        .iter()
        .flat_map(|s| series.iter().map(move |(_, _, f)| f(s)))
        .fold(1.0f32, f32::max);
    let n = (history.len() - 1) as f32;
    let inner = rect.shrink(10.0);
    for (_, color, f) in series.iter() {
        let points: Vec<egui::Pos2> = history
            .iter()
            .enumerate()
            .map(|(i, s)| {
                egui::pos2(
                    inner.left() + inner.width() * i as f32 / n,
                    inner.bottom() - inner.height() * f(s) / max,
                )
            })
            .collect();
        p.add(egui::Shape::line(points, egui::Stroke::new(2.0, *color)));
    }
    ui.horizontal_wrapped(|ui| {
        for (name, color, _) in series.iter() {
            ui.label(
                egui::RichText::new(format!("— {}", tr.t(name)))
                    .color(*color)
                    .small(),
            );
        }
        ui.label(
            // The history starts where this window's game started (a loaded save: its cycle).
            egui::RichText::new(tr.f(
                "(cycles {}–{}, top = {})",
                &[
                    &history.first().map_or(1, |s| s.cycle),
                    &history.last().map_or(1, |s| s.cycle),
                    &max,
                ],
            ))
            .weak()
            .small(),
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_waiting_close_once_the_game_is_over() {
        let mut q = CardQueue::default();
        for name in ["Desert Wind", "Calm Day"] {
            q.waiting
                .push_back(("events".into(), name.into(), String::new(), Camp::Eladrins));
        }
        assert_eq!(
            q.next_to_show(false).map(|c| c.1),
            Some("Desert Wind".to_string())
        );
        assert_eq!(q.waiting.len(), 2, "showing one closes nothing");
        assert_eq!(q.next_to_show(true), None);
        assert!(q.waiting.is_empty());
    }
}
