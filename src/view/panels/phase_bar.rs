//! The phase bar along the top: the cycle and its steps (the current one lit), whose decision
//! it is, and the buttons that close a step, end an activation or a turn, skip the Chaos turn,
//! hand the turn to the AI, or undo.

use bevy_egui::egui;

use super::{Out, Shortcuts};
use crate::app::keys::Shortcut as K;
use crate::content::Camp;
use crate::rules::{Action, Cycle, CycleOrder, GameSetup, Outcome};
use crate::text::Translations;
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
                let text = format!("{} {}", s.id, tr.t(s.title));
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
            let whose = if turns && cycle.turn == Camp::Chaos {
                tr.t("Chaos is playing…").into_owned()
            } else {
                let p = setup
                    .players
                    .get(cycle.player)
                    .cloned()
                    .unwrap_or(tr.t("Eladrins").into_owned());
                tr.f("Your decision — {}", &[&p])
            };
            ui.label(egui::RichText::new(whose).strong());
            let keys_of = |s| shortcuts.map.keys_in(s, tr);
            if turns
                && cycle.turn == Camp::Chaos
                && outcome.winner.is_none()
                && ui
                    .button(tr.t("Skip to the end of the Chaos turn"))
                    .on_hover_text(tr.f("Key: {}", &[&keys_of(K::SkipChaos)]))
                    .clicked()
            {
                driver.skip_chaos = true;
            }
            if turns {
                let end_key = tr.f("Key: {}", &[&keys_of(K::EndStep)]);
                if cycle.activation.is_some() {
                    if ui.button(tr.t("End activation")).on_hover_text(&end_key).clicked() {
                        out.actions.push(Action::EndActivation);
                    }
                } else if cycle.turn == Camp::Eladrins
                    && ui.button(tr.t("End turn (pass)")).on_hover_text(&end_key).clicked()
                {
                    out.actions.push(Action::Pass);
                }
            } else if ui
                .button(tr.t("Done with this step"))
                .on_hover_text(tr.f("Key: {}", &[&keys_of(K::EndStep)]))
                .clicked()
            {
                out.actions.push(Action::Done);
            }
            if ui
                .button(tr.t("Let the AI play this turn"))
                .on_hover_text(tr.f("Key: {}", &[&keys_of(K::AiTurn)]))
                .clicked()
            {
                driver.autoplay_eladrins = true;
            }
            let n = undo.states.len();
            if ui
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
