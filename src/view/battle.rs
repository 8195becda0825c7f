//! Combat shown round by round (R9.5): a battle's events (start, each round's hits, retreats,
//! the end) are gathered into a report that a window plays out one round at a time, paced by
//! the animation speed, then leaves on screen until dismissed or for a few seconds.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::rules::GameEvent;
use crate::rules::main_phase::combat::BattleEnd;
use crate::text::Translations;

/// One battle as the window shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BattleReport {
    /// Attacking army.
    pub attacker: u32,
    /// Defending army.
    pub defender: u32,
    /// Where.
    pub at: (i32, i32),
    /// Hits by (attacker, defender), round by round.
    pub rounds: Vec<(u32, u32)>,
    /// Units that fell: (army, unit id).
    pub fallen: Vec<(u32, u32)>,
    /// An army that retreated.
    pub retreated: Option<u32>,
    /// How it ended, once it has.
    pub end: Option<BattleEnd>,
}

/// Folds one event into the battles: a start opens one, the rest fill the newest.
pub fn fold(battles: &mut Vec<BattleReport>, e: &GameEvent) {
    match e {
        GameEvent::BattleStarted {
            attacker,
            defender,
            at,
        } => battles.push(BattleReport {
            attacker: *attacker,
            defender: *defender,
            at: (at.x, at.y),
            ..Default::default()
        }),
        GameEvent::RoundFought { hits, .. } => {
            if let Some(b) = battles.last_mut().filter(|b| b.end.is_none()) {
                b.rounds.push(*hits);
            }
        }
        GameEvent::UnitDied { army, unit, .. } => {
            if let Some(b) = battles.last_mut().filter(|b| b.end.is_none())
                && (*army == b.attacker || *army == b.defender)
            {
                b.fallen.push((*army, *unit));
            }
        }
        GameEvent::Retreated { army, .. } => {
            if let Some(b) = battles.last_mut().filter(|b| b.end.is_none()) {
                b.retreated = Some(*army);
            }
        }
        GameEvent::BattleEnded { end, .. } => {
            if let Some(b) = battles.last_mut().filter(|b| b.end.is_none()) {
                b.end = Some(*end);
            }
        }
        _ => {}
    }
}

/// Battles waiting to be shown, and how far the current one has been played out.
#[derive(Resource, Default)]
pub struct Battles {
    waiting: VecDeque<BattleReport>,
    open: Vec<BattleReport>,
    shown_rounds: usize,
    since: f32,
    done_at: Option<f32>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Battles>()
        .add_systems(
            Update,
            gather_battles.in_set(super::screens::ViewSet::Cache),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_battle.run_if(super::screens::playing_free),
        );
}

impl Battles {
    /// A battle is on screen or waiting.
    pub fn showing(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// Every battle window closed, as their OK buttons do.
    pub fn close_all(&mut self) {
        self.waiting.clear();
        self.shown_rounds = 0;
        self.done_at = None;
    }
}

fn gather_battles(
    mut events: MessageReader<GameEvent>,
    mut battles: ResMut<Battles>,
    setup: Res<crate::rules::GameSetup>,
) {
    // A new game (a campaign's next chapter, a load) starts with no battle on screen: the
    // last chapter's fights are not this one's.
    if setup.is_changed() {
        *battles = Battles::default();
    }
    let b = &mut *battles;
    for e in events.read() {
        fold(&mut b.open, e);
    }
    // Finished battles go to the queue (the last few only: an AI turn may fight many).
    let (done, open): (Vec<_>, Vec<_>) = b.open.drain(..).partition(|x| x.end.is_some());
    b.open = open;
    for d in done {
        info!(
            "battle at ({}, {}): {} round(s) to show",
            d.at.0,
            d.at.1,
            d.rounds.len()
        );
        if b.waiting.len() >= 4 {
            b.waiting.pop_front();
        }
        b.waiting.push_back(d);
    }
}

fn draw_battle(
    mut contexts: EguiContexts,
    mut battles: ResMut<Battles>,
    time: Res<Time>,
    settings: Res<crate::app::settings::Settings>,
    tr: Res<Translations>,
) -> Result {
    let Some(b) = battles.waiting.front().cloned() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let now = time.elapsed_secs();
    // One round every 0.6 s at normal speed.
    let pace = 0.6 / settings.animation_speed.clamp(0.25, 4.0);
    if now - battles.since > pace && battles.shown_rounds < b.rounds.len() {
        battles.shown_rounds += 1;
        battles.since = now;
    }
    let all_shown = battles.shown_rounds >= b.rounds.len();
    if all_shown && battles.done_at.is_none() {
        battles.done_at = Some(now);
    }
    let mut close = battles.done_at.is_some_and(|t| now - t > 6.0);
    egui::Window::new(tr.f("Battle at ({}, {})", &[&b.at.0, &b.at.1]))
        .id(egui::Id::new("battle"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(-140.0, -40.0))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(tr.f(
                    "Army {} attacks army {} (R9.5)",
                    &[&b.attacker, &b.defender],
                ))
                .strong(),
            );
            egui::Grid::new("rounds").striped(true).show(ui, |ui| {
                ui.label(egui::RichText::new(tr.t("Round")).weak());
                ui.label(egui::RichText::new(tr.f("hits by {}", &[&b.attacker])).weak());
                ui.label(egui::RichText::new(tr.f("hits by {}", &[&b.defender])).weak());
                ui.end_row();
                for (i, (a, d)) in b.rounds.iter().take(battles.shown_rounds).enumerate() {
                    ui.label(format!("{}", i + 1));
                    ui.label("⚔".repeat(*a as usize).to_string() + &format!(" {a}"));
                    ui.label("⚔".repeat(*d as usize).to_string() + &format!(" {d}"));
                    ui.end_row();
                }
            });
            if all_shown {
                for (army, unit) in &b.fallen {
                    ui.label(
                        egui::RichText::new(tr.f("Army {}: unit {} fell", &[army, unit]))
                            .color(egui::Color32::from_rgb(235, 100, 90)),
                    );
                }
                if let Some(r) = b.retreated {
                    ui.label(tr.f("Army {} retreated", &[&r]));
                }
                if let Some(e) = b.end {
                    ui.label(egui::RichText::new(tr.t(e.words())).strong());
                }
            }
            ui.horizontal(|ui| {
                if !all_shown && ui.button(tr.t("Skip")).clicked() {
                    battles.shown_rounds = b.rounds.len();
                }
                if ui.button(tr.t("OK")).clicked() {
                    close = true;
                }
            });
        });
    if close {
        battles.waiting.pop_front();
        battles.shown_rounds = 0;
        battles.since = now;
        battles.done_at = None;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexx::Hex;

    #[test]
    fn a_battle_is_gathered_round_by_round_until_it_ends() {
        let mut b = Vec::new();
        let start = GameEvent::BattleStarted {
            attacker: 2,
            defender: 9,
            at: Hex::new(1, -1),
        };
        fold(&mut b, &start);
        for (r, hits) in [(1, (1, 0)), (2, (0, 2))] {
            fold(&mut b, &GameEvent::RoundFought { round: r, hits });
        }
        assert_eq!(b[0].rounds, [(1, 0), (0, 2)]);
        assert!(b[0].end.is_none());
        fold(
            &mut b,
            &GameEvent::Retreated {
                army: 9,
                to: Hex::new(2, -1),
            },
        );
        fold(
            &mut b,
            &GameEvent::BattleEnded {
                attacker: 2,
                defender: 9,
                rounds: 2,
                end: BattleEnd::Retreat,
            },
        );
        assert_eq!(b[0].retreated, Some(9));
        assert_eq!(b[0].end, Some(BattleEnd::Retreat));
        // A round after the end belongs to no battle.
        fold(
            &mut b,
            &GameEvent::RoundFought {
                round: 3,
                hits: (5, 5),
            },
        );
        assert_eq!(b[0].rounds.len(), 2);
        assert_eq!(b[0].at, (1, -1));
    }
}
