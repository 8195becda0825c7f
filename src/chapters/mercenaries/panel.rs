//! The chapter's panel (`view::chapter_panel`): the round, the two raid cards face up, the
//! assistants and who holds them, each place with its slots (who stands there) and its cards,
//! each seat's reserve, equipment, Flame and glory; with a button for each action the rules
//! accept now (the groups to send folded away: there are many).

use bevy_egui::egui;

use crate::rules::Action;
use crate::view::chapter_panel::PanelCx;

use super::MercAction;
use super::data::{Assistant, MercLevel, name_of};
use super::phases::final_glory;
use super::state::{Mercs, Owner};
use super::words::{assistant, group};

pub fn draw(ui: &mut egui::Ui, s: &Mercs, cx: &PanelCx) -> Option<Action> {
    let tr = cx.tr;
    let lvl = cx
        .db
        .level_fields::<MercLevel>(cx.level)
        .unwrap_or_default();
    let mut asked = None;
    ui.heading(tr.t("Wyvern Wardens"));
    ui.label(tr.f("Round {}", &[&s.round]));
    for (i, r) in s.raids.iter().enumerate() {
        if let Some(card) = lvl.raids.get(*r) {
            let last = i + 1 == s.raids.len();
            let line = tr.f(
                "Raid card {}: {} — {}",
                &[&(i + 1), &tr.t(&card.name), &group(tr, &card.demands)],
            );
            ui.label(if last {
                egui::RichText::new(format!("{line} {}", tr.t("(the one that strikes, M14)")))
                    .strong()
            } else {
                egui::RichText::new(line)
            });
        }
    }
    let held: Vec<String> = Assistant::ALL
        .iter()
        .map(|a| match s.holder(*a) {
            Some(seat) => format!(
                "{} ({})",
                assistant(tr, *a),
                cx.players.get(seat as usize).cloned().unwrap_or_default()
            ),
            None => assistant(tr, *a),
        })
        .collect();
    ui.label(tr.f("Assistants: {}", &[&held.join(", ")]));
    ui.separator();
    for p in lvl.places.iter().filter(|p| !p.kind.special()) {
        let Some(b) = s.boards.get(&p.id) else {
            continue;
        };
        let slots: Vec<String> = p
            .slots
            .iter()
            .zip(&b.slots)
            .map(|(n, on)| match on {
                Some(st) => format!(
                    "[{n}: {}]",
                    match st.owner {
                        Owner::Seat(seat) =>
                            cx.players.get(seat as usize).cloned().unwrap_or_default(),
                        Owner::Poachers => tr.t("poachers").into_owned(),
                    }
                ),
                None => format!("[{n}]"),
            })
            .collect();
        let cards: Vec<String> = b
            .cards
            .iter()
            .flatten()
            .map(|c| tr.t(&name_of(tr, c)).into_owned())
            .collect();
        ui.label(egui::RichText::new(format!("{} {}", tr.t(&p.name), slots.join(" "))).strong());
        if !cards.is_empty() {
            ui.label(format!("  {}", cards.join(" · ")));
        }
    }
    ui.separator();
    for (seat, sh) in &s.seats {
        let who = cx.players.get(*seat as usize).cloned().unwrap_or_default();
        ui.label(
            egui::RichText::new(tr.f(
                "{}: glory {} (at the end {})",
                &[&who, &sh.glory, &final_glory(&lvl, sh)],
            ))
            .strong(),
        );
        ui.label(tr.f(
            "Reserve: {} · equipment {} · Flame {}",
            &[&group(tr, &sh.reserve), &sh.equipment, &sh.flame],
        ));
        if !sh.dragons.is_empty() || !sh.heroes.is_empty() {
            let won: Vec<String> = sh
                .won()
                .map(|c| tr.t(&name_of(tr, c)).into_owned())
                .collect();
            ui.label(format!("  {}", won.join(", ")));
        }
    }
    ui.label(tr.f(
        "Poachers: {} · Flame {}",
        &[&group(tr, &s.poachers.reserve), &s.poachers.flame],
    ));
    // The actions the rules accept now; the many groups folded away.
    let ours = cx.legal_of::<MercAction>();
    let mut button = |ui: &mut egui::Ui, a: &Action| {
        asked = asked.take().or(cx.button(ui, a));
    };
    let recall = |m: &MercAction| m.recall().is_some();
    for (a, m) in &ours {
        if !matches!(m, MercAction::Send { .. }) && !recall(m) {
            button(ui, a);
        }
    }
    let folds = [
        (
            "mercenaries_send",
            "Send a group ({} way)|Send a group ({} ways)",
            ours.iter()
                .filter(|(_, m)| matches!(m, MercAction::Send { .. }))
                .map(|(a, _)| *a)
                .collect::<Vec<&Action>>(),
        ),
        (
            "mercenaries_recall",
            "Take the Chief and recall a group ({} way)|Take the Chief and recall a group ({} ways)",
            ours.iter()
                .filter(|(_, m)| recall(m))
                .map(|(a, _)| *a)
                .collect(),
        ),
    ];
    for (salt, title, actions) in folds {
        if actions.is_empty() {
            continue;
        }
        egui::CollapsingHeader::new(tr.p(title, actions.len() as u64, &[&actions.len()]))
            .id_salt(salt)
            .show(ui, |ui| {
                for a in actions {
                    button(ui, a);
                }
            });
    }
    asked
}
