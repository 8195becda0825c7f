//! The chapter's panel (`view::chapter_panel`): where the dragoness is, the Gate, the
//! countdown's slots, the rooms revealed, each team and what spares it, and the teams gone;
//! with a button for each order the active team may give now (a quest, the relic, the portal)
//! and, when the Eladrins guide, for the Guide's moves.

use bevy_egui::egui;

use crate::rules::Action;
use crate::view::chapter_panel::PanelCx;

use super::DragonAction;
use super::state::{Dragoness, Gone};

pub fn draw(ui: &mut egui::Ui, s: &Dragoness, cx: &PanelCx) -> Option<Action> {
    let tr = cx.tr;
    let mut asked = None;
    ui.heading(tr.t("The Dragoness"));
    let where_ = match s.deep {
        Some(a) => tr.f("In the chasm at ({}, {})", &[&a.0, &a.1]),
        None => tr.f("On her route, cell {}", &[&s.at.saturating_add(1)]),
    };
    ui.label(where_);
    if let Some(g) = s.guide_seat {
        let who = cx.players.get(g as usize).cloned().unwrap_or_default();
        ui.label(if s.ghosts.contains(&g) {
            tr.f("The Guide this cycle: {} (a Ghost-Guide, D6)", &[&who])
        } else {
            tr.f("The Guide this cycle: {}", &[&who])
        });
    }
    ui.label(if s.sealed {
        tr.t("The Gate is sealed (D6)")
    } else {
        tr.t("The Gate is open")
    });
    if s.entombed {
        let slots: String = s.slots.iter().map(|x| if *x { '♦' } else { '○' }).collect();
        ui.label(tr.f("Countdown (D11): {}", &[&slots]));
    }
    if s.relic.is_some() {
        ui.label(tr.t("The relic is placed: the countdown is stopped (D13)"));
    }
    ui.label(tr.p(
        "{} room revealed|{} rooms revealed",
        s.revealed.len() as u64,
        &[&s.revealed.len()],
    ));
    ui.separator();
    ui.label(tr.p(
        "{} team in the expedition|{} teams in the expedition",
        s.teams.len() as u64,
        &[&s.teams.len()],
    ));
    for (id, t) in &s.teams {
        let mut line = tr.f("Team {}", &[id]);
        for q in &t.quests {
            line.push_str(&format!(" · {}", tr.t(&super::words::quest_name(tr, q))));
        }
        for q in &t.relics {
            let relic = tr.f("relic of {}", &[&tr.t(&super::words::quest_name(tr, q))]);
            line.push_str(&format!(" · {relic}"));
        }
        if t.ring {
            line.push_str(&format!(" · {}", tr.t("Draconis Ring")));
        }
        ui.label(line);
    }
    let lost = s.gone.iter().filter(|g| g.3 == Gone::Lost).count();
    if lost > 0 {
        ui.label(tr.p("{} RIP token|{} RIP tokens", lost as u64, &[&lost]));
    }
    if !s.ghosts.is_empty() {
        let who: Vec<String> = s
            .ghosts
            .iter()
            .map(|g| cx.players.get(*g as usize).cloned().unwrap_or_default())
            .collect();
        ui.label(tr.f("Ghost-Guides (D6): {}", &[&who.join(", ")]));
    }
    // The orders the rules accept now.
    for (a, _) in cx.legal_of::<DragonAction>() {
        asked = asked.or(cx.button(ui, a));
    }
    asked
}
