//! The chapter's panel (`view::chapter_panel`): where the dragoness is, the Gate, the
//! countdown's slots, the rooms revealed, each team and what spares it, and the teams gone;
//! with a button for each order the active team may give now (a quest, the relic, the portal)
//! and, when the Eladrins guide, for the Guide's moves.

use std::collections::BTreeMap;

use bevy::prelude::World;
use bevy_egui::egui;

use crate::rules::Action;
use crate::rules::chapter::{ChapterState, Viewer};
use crate::rules::units::Army;
use crate::view::chapter_panel::PanelCx;

use crate::view::table::pieces::{self, Token};

use super::DragonAction;
use super::data::DragonessLevel;
use super::guide::{self, Spared};
use super::state::{Dragoness, Gone};

/// What the panel shows: the chapter's state as the seat sees it, and what spares each team
/// now (D4), read from where the teams' armies stand.
pub struct Shown {
    st: Dragoness,
    spares: BTreeMap<u32, Vec<Spared>>,
    last_gem: Option<(usize, bool)>,
}

/// The countdown's last draw (D11), from what the rules told: its colour, and whether its gem
/// went on its slot (else the slot was full and the Guide kept it).
pub fn last_gem(world: &World) -> Option<(usize, bool)> {
    let told = world.get_resource::<crate::rules::Chronicle>()?;
    told.0.iter().rev().find_map(|e| match e {
        crate::rules::GameEvent::Chapter { chapter, what } if chapter == super::ID => {
            match what.get::<guide::Told>()? {
                guide::Told::Gem { colour, placed, .. } => Some((colour, placed)),
                _ => None,
            }
        }
        _ => None,
    })
}

/// The panel's view of the world for `viewer` (nothing of the chapter is hidden).
pub fn seen(world: &World, viewer: Viewer) -> Option<Shown> {
    let st = world.get_resource::<Dragoness>()?.seen_by(viewer);
    let lvl = super::data::level(world);
    let cycle = world.get_resource::<crate::rules::Cycle>()?.number;
    let mut armies = world.try_query::<&Army>()?;
    let mut spares = BTreeMap::new();
    for a in armies.iter(world).filter(|a| st.teams.contains_key(&a.id)) {
        let units: Vec<String> = a.units.iter().map(|u| u.kind.clone()).collect();
        spares.insert(a.id, guide::spares(&lvl, &st, a.id, &units, cycle));
    }
    let last_gem = if st.entombed { last_gem(world) } else { None };
    Some(Shown {
        st,
        spares,
        last_gem,
    })
}

/// A spare's word and its badge's colour (the same on the map).
pub fn spare_badge(tr: &crate::text::Translations, s: Spared) -> (String, [u8; 3]) {
    let (word, rgb) = match s {
        Spared::Quest => ("quest protects", [120, 200, 140]),
        Spared::Hero => ("Enoriel alive", [240, 200, 90]),
        Spared::Ring => ("Draconis Ring", [230, 150, 60]),
        Spared::Invincible => ("invincible", [150, 190, 250]),
    };
    (tr.t(word).into_owned(), rgb)
}

pub fn draw(ui: &mut egui::Ui, shown: &Shown, cx: &PanelCx) -> Option<Action> {
    let s = &shown.st;
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
    countdown(ui, shown, cx);
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
        ui.horizontal_wrapped(|ui| {
            ui.label(line);
            // What spares it from her (D4), as on its map token.
            let spares = shown.spares.get(id).map(Vec::as_slice).unwrap_or(&[]);
            for sp in spares {
                let (word, [r, g, b]) = spare_badge(tr, *sp);
                pieces::badge(ui, &word, egui::Color32::from_rgb(r, g, b))
                    .on_hover_text(tr.t("She crosses this team without taking it (D4)"));
            }
        });
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

/// A gem colour's name as a colour to draw; a name the game does not know, grey (the name is
/// written under it in any case).
fn rgb(name: &str) -> [u8; 3] {
    match name {
        "red" => [220, 55, 50],
        "blue" => [60, 115, 230],
        "green" => [55, 170, 85],
        "yellow" => [240, 205, 50],
        "white" => [240, 240, 245],
        "black" => [35, 35, 40],
        "purple" | "violet" => [150, 85, 205],
        "orange" => [240, 140, 40],
        _ => [150, 150, 150],
    }
}

/// The countdown (D10–D13) as the seed draws it: one slot a colour, each filled once its gem
/// is placed, the colour's name under it; waiting until she lies in the White Tomb.
fn countdown(ui: &mut egui::Ui, shown: &Shown, cx: &PanelCx) {
    let s = &shown.st;
    let tr = cx.tr;
    let lvl = cx
        .db
        .level_fields::<DragonessLevel>(cx.level)
        .unwrap_or_default();
    ui.label(if s.entombed {
        tr.f(
            "Countdown (D11): {} of {} gems placed",
            &[&s.placed(), &lvl.colours.len()],
        )
    } else {
        tr.t("Countdown (D11): from when she lies in the White Tomb (D10)")
            .into_owned()
    });
    // The last draw: a gem of a colour placed already is the Guide's to keep (D11).
    if let Some((c, placed)) = shown.last_gem {
        let name = lvl.colours.get(c).map(|n| tr.t(n).into_owned());
        let name = name.unwrap_or_default();
        ui.label(if placed {
            tr.f("Last drawn: {}, placed on its slot", &[&name])
        } else {
            tr.f(
                "Last drawn: {}, its slot full: the Guide keeps the gem",
                &[&name],
            )
        });
    }
    ui.horizontal(|ui| {
        for (i, name) in lvl.colours.iter().enumerate() {
            let placed = s.slots.get(i).copied().unwrap_or(false);
            ui.vertical(|ui| {
                ui.set_width(40.0);
                let c = rgb(name);
                let kind = if placed {
                    Token::Gem(c)
                } else {
                    Token::GemSlot(c)
                };
                let r = pieces::token(ui, &kind, None, false, 28.0, Default::default());
                let name = tr.t(name);
                r.on_hover_text(if placed {
                    tr.f("{}: placed", &[&name])
                } else {
                    tr.f("{}: empty", &[&name])
                });
                ui.label(egui::RichText::new(name).small());
            });
        }
    });
}
