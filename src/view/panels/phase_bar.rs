//! The phase bar along the top: the cycle and its steps (the current one lit), whose decision
//! it is, and the buttons that close a step, end an activation or a turn, skip the Chaos turn,
//! hand the turn to the AI, or undo. Once the game is over it only says who won.

use bevy_egui::egui;

use super::Out;
use crate::app::keys::Shortcut as K;
use crate::content::Camp;
use crate::rules::{Action, Cycle, CycleOrder, GameSetup, Outcome};
use crate::text::Translations;
use crate::view::Shortcuts;
use crate::view::driver::Driver;
use crate::view::undo::UndoStack;

/// What the phase bar reads.
pub(super) struct PhaseBar<'a> {
    pub cycle: &'a Cycle,
    pub order: &'a CycleOrder,
    pub outcome: &'a Outcome,
    pub setup: &'a GameSetup,
    pub tr: &'a Translations,
    pub shortcuts: &'a Shortcuts<'a>,
}

/// A button the bar offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Offer {
    /// Skip to the end of the Chaos turn.
    SkipChaos,
    /// End the open activation.
    EndActivation,
    /// End the Eladrin turn (pass).
    Pass,
    /// Close a step's decision.
    Done,
    /// Let the AI play the Eladrins' turn.
    AiTurn,
    /// Undo.
    Undo,
}

/// What the bar offers now: nothing once the game is over (nobody decides anything).
/// A step as the bar names it: its title, after its rule number where its id is one (`R6
/// Corruption`); a chapter's step id (`MACTION`) is the code's name for it, never shown.
pub fn step_label(id: &str, title: &str) -> String {
    let mut c = id.chars();
    let rule = c.next().is_some_and(|l| l.is_ascii_uppercase())
        && c.clone().next().is_some()
        && c.all(|d| d.is_ascii_digit() || d == '.');
    if rule {
        format!("{id} {title}")
    } else {
        title.to_string()
    }
}

pub(crate) fn offers(cycle: &Cycle, order: &CycleOrder, outcome: &Outcome) -> Vec<Offer> {
    if outcome.winner.is_some() {
        return vec![];
    }
    let mut v = Vec::new();
    if order.in_turns(cycle.step) {
        if cycle.turn == Camp::Chaos {
            v.push(Offer::SkipChaos);
        }
        if cycle.activation.is_some() {
            v.push(Offer::EndActivation);
        } else if cycle.turn == Camp::Eladrins {
            v.push(Offer::Pass);
        }
    } else {
        v.push(Offer::Done);
    }
    v.extend([Offer::AiTurn, Offer::Undo]);
    v
}

/// Draws the bar; its buttons change the driver and the undo stack or send actions.
pub(super) fn draw(
    root: &mut egui::Ui,
    bar: &PhaseBar,
    driver: &mut Driver,
    undo: &mut UndoStack,
    out: &mut Out,
) {
    let PhaseBar {
        cycle,
        order,
        outcome,
        setup,
        tr,
        shortcuts,
    } = *bar;
    // The main phase is known by its kind (turns), not by its id.
    let turns = order.in_turns(cycle.step);
    egui::Panel::top("phase").show(root, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.heading(tr.f("Cycle {}", &[&cycle.number]));
            for (i, s) in order.0.iter().enumerate() {
                let text = step_label(s.id, &tr.t(s.title));
                if i == cycle.step {
                    ui.label(
                        egui::RichText::new(text)
                            .strong()
                            .color(egui::Color32::YELLOW),
                    );
                } else {
                    ui.label(egui::RichText::new(text).weak());
                }
            }
        });
        ui.horizontal(|ui| {
            // Once the game is over nobody decides anything: say who won, offer nothing.
            if let Some(w) = outcome.winner {
                let who = tr.t(match w {
                    Camp::Eladrins => "Eladrins",
                    Camp::Chaos => "Chaos",
                });
                ui.label(
                    egui::RichText::new(tr.f(
                        "Game over — {} won after {} cycles",
                        &[&who, &outcome.cycle],
                    ))
                    .strong(),
                );
                return;
            }
            let whose = if turns && cycle.turn == Camp::Chaos {
                tr.t("Chaos is playing…").into_owned()
            } else {
                let p = setup
                    .players
                    .get(cycle.acting_seat() as usize)
                    .cloned()
                    .unwrap_or(tr.t("Eladrins").into_owned());
                tr.f("Your decision — {}", &[&p])
            };
            ui.label(egui::RichText::new(whose).strong());
            let keys_of = |s| shortcuts.map.keys_in(s, tr);
            let offer = offers(cycle, order, outcome);
            let has = |o| offer.contains(&o);
            let end_key = tr.f("Key: {}", &[&keys_of(K::EndStep)]);
            if has(Offer::SkipChaos)
                && ui
                    .button(tr.t("Skip to the end of the Chaos turn"))
                    .on_hover_text(tr.f("Key: {}", &[&keys_of(K::SkipChaos)]))
                    .clicked()
            {
                driver.skip_chaos = true;
            }
            if has(Offer::EndActivation)
                && ui.button(tr.t("End activation")).on_hover_text(&end_key).clicked()
            {
                out.actions.push(Action::EndActivation);
            }
            if has(Offer::Pass)
                && ui.button(tr.t("End turn (pass)")).on_hover_text(&end_key).clicked()
            {
                out.actions.push(Action::Pass);
            }
            if has(Offer::Done)
                && ui.button(tr.t("Done with this step")).on_hover_text(&end_key).clicked()
            {
                out.actions.push(Action::Done);
            }
            if has(Offer::AiTurn)
                && ui
                    .button(tr.t("Let the AI play this turn"))
                    .on_hover_text(tr.f("Key: {}", &[&keys_of(K::AiTurn)]))
                    .clicked()
            {
                driver.autoplay_eladrins = true;
            }
            let n = undo.states.len();
            if has(Offer::Undo)
                && ui
                    .add_enabled(n > 0, egui::Button::new(tr.f("Undo ({})", &[&n])))
                    .on_hover_text(tr.f("{}: back to before your last action, as long as no die was rolled, no card drawn and Chaos didn't move", &[&keys_of(K::Undo)]))
                    .clicked()
            {
                undo.requested = true;
            }
            if let Some(m) = &undo.message {
                ui.label(egui::RichText::new(m).weak());
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{StepDef, StepKind};

    fn order() -> CycleOrder {
        CycleOrder(vec![
            StepDef {
                id: "R8",
                title: "The portal",
                kind: StepKind::eladrins(|_| true),
            },
            StepDef {
                id: "R9",
                title: "Main phase",
                kind: StepKind::Turns,
            },
        ])
    }

    #[test]
    fn the_bar_offers_decisions_while_the_game_goes_on_and_none_once_it_is_over() {
        let order = order();
        let mut outcome = Outcome::default();
        let mut cycle = Cycle::default();
        assert_eq!(
            offers(&cycle, &order, &outcome),
            vec![Offer::Done, Offer::AiTurn, Offer::Undo]
        );
        cycle.step = 1;
        cycle.turn = Camp::Eladrins;
        assert_eq!(
            offers(&cycle, &order, &outcome),
            vec![Offer::Pass, Offer::AiTurn, Offer::Undo]
        );
        outcome.winner = Some(Camp::Chaos);
        assert_eq!(offers(&cycle, &order, &outcome), vec![]);
        cycle.step = 0;
        assert_eq!(offers(&cycle, &order, &outcome), vec![], "no Done either");
    }
}
