//! The game's sheets in the side panel: the outpost (stock with icons, storage, buildings built,
//! under construction and to build with costs coloured by what can be paid, slots, recruits),
//! the armies on the selected tile (units with hit points, attack, action points, skills and card
//! actions), research (progress, what is placed, the offer, labs) and the upkeep forecast. Every
//! button is one of the rules' legal actions; a greyed row says why it can't be done.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText, TextureId};
use bevy_egui::{EguiContexts, EguiTextureHandle};

use super::art::Art;
use super::cache::{ArmySheet, OutpostSheet};
use crate::content::{ContentDb, Res as R, Stock};
use crate::rules::forecast::Warning;
use crate::rules::{Action, Research};
use crate::text::Translations;

/// Icons registered with egui, by key (`res_food`, `unit_ranger`, `ui_heart`).
#[derive(Resource, Default)]
pub struct IconIds(pub HashMap<String, TextureId>);

impl IconIds {
    /// The icon, or a fallback key's.
    pub fn get(&self, key: &str, fallback: &str) -> Option<TextureId> {
        self.0.get(key).or_else(|| self.0.get(fallback)).copied()
    }
}

/// Registers the icons with egui once they are decoded.
pub fn register_icons(mut contexts: EguiContexts, art: Res<Art>, mut ids: ResMut<IconIds>) {
    if !ids.0.is_empty() || art.is_empty() {
        return;
    }
    for (k, h) in art.icons() {
        let id = contexts.add_image(EguiTextureHandle::Strong(h.clone()));
        ids.0.insert(k.to_string(), id);
    }
}

const GOOD: Color32 = Color32::from_rgb(120, 210, 130);
const BAD: Color32 = Color32::from_rgb(235, 100, 90);
const WARN: Color32 = Color32::from_rgb(235, 190, 80);

fn icon(ui: &mut egui::Ui, icons: &IconIds, key: &str, fallback: &str, size: f32) {
    if let Some(id) = icons.get(key, fallback) {
        ui.add(egui::Image::new((id, egui::vec2(size, size))));
    }
}

/// A cost as icons and numbers, each green if the purse holds enough of it, else red.
fn cost(ui: &mut egui::Ui, icons: &IconIds, c: &Stock, purse: &Stock) {
    for (r, n) in c.iter() {
        icon(ui, icons, &format!("res_{}", res_key(r)), "ui_card", 14.0);
        let color = if purse.get(r) >= n { GOOD } else { BAD };
        ui.label(RichText::new(n.to_string()).color(color));
    }
}

fn res_key(r: R) -> &'static str {
    match r {
        R::Food => "food",
        R::Wood => "wood",
        R::Stone => "stone",
        R::Psara => "psara",
        R::Sand => "sand",
        R::Crystal => "crystal",
    }
}

/// What every sheet draws with: icons, the language, the content.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    /// Icons.
    pub icons: &'a IconIds,
    /// The language.
    pub tr: &'a Translations,
    /// The content.
    pub db: &'a ContentDb,
    /// The chapters' rules in the help (a cited rule gets its button).
    pub help: &'a super::help::ChapterHelp,
}

/// The upkeep forecast: warnings before they happen, each with a button to the rule it cites.
/// Returns the rule clicked, if any.
pub fn forecast(
    ui: &mut egui::Ui,
    icons: &IconIds,
    tr: &Translations,
    db: &crate::content::ContentDb,
    warnings: &[Warning],
    help: &super::help::ChapterHelp,
) -> Option<String> {
    let mut open = None;
    if warnings.is_empty() {
        return open;
    }
    ui.heading(tr.t("Next upkeep"));
    // The same warning for several works (three idle laboratories in one outpost) is one line
    // with its count, not a wall of copies: the rules list each, in order, side by side.
    let worded: Vec<(&Warning, String)> = warnings
        .iter()
        .map(|w| (w, w.words(tr, Some(db))))
        .collect();
    for same in worded.chunk_by(|a, b| a.1 == b.1) {
        let (w, words) = &same[0];
        ui.horizontal_wrapped(|ui| {
            let (key, color) = match w {
                Warning::Famine { .. } => ("ui_famine", BAD),
                Warning::BuildingInactive { .. } | Warning::ImprovementInactive { .. } => {
                    ("ui_time_marker", WARN)
                }
                Warning::Corruption { outpost: true, .. } => ("ui_corruption", BAD),
                Warning::Corruption { .. } => ("ui_corruption", WARN),
                Warning::PowerBlocked { .. } => ("ui_corruption", BAD),
            };
            icon(ui, icons, key, "ui_card", 16.0);
            let shown = if same.len() > 1 {
                format!("{words} (×{})", same.len())
            } else {
                words.clone()
            };
            ui.label(RichText::new(shown).color(color));
            if let Some(r) = super::help::rule_button(ui, words, tr, help) {
                open = Some(r);
            }
        });
    }
    ui.separator();
    open
}

/// The outpost sheet. Returns the action clicked, if any.
pub fn outpost(
    ui: &mut egui::Ui,
    cx: &Cx,
    sheet: &OutpostSheet,
    legal: &[Action],
) -> Option<Action> {
    let Cx { icons, tr, db, .. } = *cx;
    let mut clicked = None;
    let o = &sheet.outpost;
    ui.horizontal(|ui| {
        icon(
            ui,
            icons,
            &format!("ui_outpost_{}", o.size),
            "ui_outpost",
            28.0,
        );
        ui.heading(&o.name);
        let size = db.size(&o.size).map(|s| s.name.as_str()).unwrap_or(&o.size);
        ui.label(RichText::new(tr.t(size)).weak());
        if o.portal {
            icon(ui, icons, "ui_portal", "ui_card", 18.0);
        }
    });
    ui.horizontal_wrapped(|ui| {
        for r in R::ALL {
            icon(ui, icons, &format!("res_{}", res_key(r)), "ui_card", 16.0);
            ui.label(o.stock.get(r).to_string())
                .on_hover_text(tr.t(r.name()));
        }
    });
    let total = o.stock.total();
    let full = total as f32 / sheet.storage.max(1) as f32;
    ui.add(
        egui::ProgressBar::new(full.min(1.0))
            .text(tr.f("storage {} / {} (R3.3)", &[&total, &sheet.storage]))
            .fill(if full >= 1.0 {
                BAD
            } else {
                Color32::from_rgb(70, 110, 160)
            }),
    );
    let lying = {
        let mut l = sheet.purse;
        for (r, n) in o.stock.iter() {
            l.take(r, n);
        }
        l
    };
    if !lying.is_empty() {
        ui.label(
            RichText::new(tr.f("Also within reach on the tiles: {}", &[&tr.stock(&lying)])).weak(),
        );
    }
    let used = o.buildings.len() as u32;
    ui.label(RichText::new(tr.f("Buildings — slots {} / {}", &[&used, &sheet.slots])).strong());
    for b in &o.buildings {
        ui.horizontal(|ui| {
            icon(ui, icons, &format!("bld_{}", b.id), "ui_outpost", 20.0);
            let def = db.building(&b.id);
            let name = def.map(|d| d.name.as_str()).unwrap_or(&b.id);
            let r = ui.label(tr.t(name));
            if let Some(d) = def {
                r.on_hover_text(tr.t(&d.text));
            }
            if b.timer > 0 {
                icon(ui, icons, "ui_time_marker", "ui_hourglass", 14.0);
                ui.label(RichText::new(tr.f("{} to go (R4)", &[&b.timer])).color(WARN));
            } else if b.inactive {
                ui.label(RichText::new(tr.t("idle: upkeep unpaid (R5.2)")).color(BAD));
            }
        });
    }
    // What can be built here, with costs in colour and the reason when it can't.
    let mut to_build: Vec<_> = db
        .set
        .buildings
        .iter()
        .filter(|b| !o.buildings.iter().any(|x| x.id == b.id))
        .collect();
    to_build.sort_by_key(|b| b.cost.total());
    if !to_build.is_empty() {
        ui.label(RichText::new(tr.t("Build (R9.2)")).strong());
    }
    let any_build = legal.iter().any(|a| {
        matches!(
            a,
            Action::BuildBuilding { .. } | Action::BuildImprovement { .. }
        )
    });
    if !any_build && !to_build.is_empty() {
        ui.label(
            RichText::new(tr.t("You build in your main-phase turn, outside an activation (R9)."))
                .weak()
                .small(),
        );
    }
    for b in to_build {
        let action = Action::BuildBuilding {
            outpost: o.id,
            building: b.id.clone(),
        };
        let ok = legal.contains(&action);
        ui.horizontal(|ui| {
            icon(ui, icons, &format!("bld_{}", b.id), "ui_outpost", 18.0);
            let why = if !any_build {
                String::new()
            } else if used >= sheet.slots {
                tr.t("no free building slot").into_owned()
            } else if !sheet.purse.covers(&b.cost) {
                tr.t("not enough within reach").into_owned()
            } else if let Some(t) = &b.requires_tech {
                tr.f(
                    "needs {}",
                    &[&tr.t(db.tech(t).map(|x| x.name.as_str()).unwrap_or(t))],
                )
            } else {
                "not now".to_string()
            };
            let text = format!("{} ({} ⏳)", tr.t(&b.name), b.build_time);
            let button = ui
                .add_enabled(ok, egui::Button::new(text))
                .on_hover_text(format!(
                    "{}\n{}: {}",
                    tr.t(&b.text),
                    tr.t("Upkeep"),
                    tr.stock(&b.upkeep)
                ));
            if button.clicked() {
                clicked = Some(action.clone());
            }
            cost(ui, icons, &b.cost, &sheet.purse);
            if !ok && !why.is_empty() {
                ui.label(RichText::new(why).weak().small());
            }
        });
    }
    let recruits: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::Recruit { outpost, .. } if *outpost == o.id))
        .collect();
    if !recruits.is_empty() {
        ui.label(RichText::new(tr.t("Recruit")).strong());
    }
    for a in recruits {
        let Action::Recruit { unit, .. } = a else {
            continue;
        };
        let Some(t) = db.unit(unit) else {
            continue;
        };
        ui.horizontal(|ui| {
            icon(ui, icons, &format!("unit_{unit}"), "ui_eladrin", 18.0);
            if ui
                .button(tr.t(&t.name))
                .on_hover_text(format!(
                    "{}\n{}",
                    tr.t(&t.text),
                    tr.f(
                        "{} HP, {} × d6 hitting on {}+",
                        &[&t.hp, &t.attack.dice, &t.attack.hit_on]
                    )
                ))
                .clicked()
            {
                clicked = Some(a.clone());
            }
            if let Some(c) = &t.recruit_cost {
                cost(ui, icons, c, &sheet.purse);
            }
        });
    }
    ui.separator();
    clicked
}

/// The armies on the selected tile. Returns the action clicked, if any.
pub fn armies(
    ui: &mut egui::Ui,
    cx: &Cx,
    sheets: &[ArmySheet],
    active: Option<u32>,
    legal: &[Action],
    odds: &[(u32, crate::rules::main_phase::combat::BattleOdds)],
) -> Option<Action> {
    let Cx { icons, tr, db, .. } = *cx;
    let mut clicked = None;
    for s in sheets {
        let a = &s.army;
        ui.horizontal(|ui| {
            let camp = match a.camp {
                crate::content::Camp::Eladrins => "ui_eladrin",
                crate::content::Camp::Chaos => "ui_chaos",
            };
            icon(ui, icons, camp, "ui_card", 22.0);
            ui.heading(tr.f("Army {}", &[&a.id]));
            if active == Some(a.id) {
                ui.label(RichText::new(tr.t("active")).color(GOOD).strong());
            } else if a.activated {
                ui.label(RichText::new(tr.t("has acted")).weak());
            }
            if a.famine > 0 {
                icon(ui, icons, "ui_famine", "ui_card", 16.0);
                ui.label(RichText::new(tr.f("{} famine (R5.4)", &[&a.famine])).color(BAD));
            }
            if a.afloat {
                icon(ui, icons, "unit_boat", "ui_card", 16.0);
            }
        });
        egui::Grid::new(("army", a.id))
            .striped(true)
            .show(ui, |ui| {
                for row in &s.units {
                    let super::cache::UnitRow {
                        unit: u,
                        hp,
                        max_hp: max,
                        hit_on,
                    } = row;
                    let malus = &s.famine_malus;
                    let t = db.unit(&u.kind);
                    ui.horizontal(|ui| {
                        icon(ui, icons, &format!("unit_{}", u.kind), "ui_sword", 20.0);
                        let name = t.map(|t| t.name.as_str()).unwrap_or(&u.kind);
                        let r = ui.label(tr.t(name));
                        if let Some(t) = t {
                            r.on_hover_text(tr.t(&t.text));
                        }
                    });
                    // Hit points: full hearts left, empty ones lost (famine losses included).
                    let hearts: String = (0..*max as i32)
                        .map(|i| if i < *hp { '♥' } else { '♡' })
                        .collect();
                    ui.label(RichText::new(hearts).color(if *hp <= 1 { BAD } else { GOOD }))
                        .on_hover_text(tr.f("{} of {} hit points", &[&hp, &max]));
                    let dice = t.map(|t| t.attack.dice).unwrap_or(0);
                    ui.horizontal(|ui| {
                        icon(ui, icons, "ui_sword", "ui_card", 14.0);
                        if *malus > 0 {
                            // R5.4: famine comes off the roll, so a 6 can miss.
                            ui.label(
                                RichText::new(format!("{dice}×d6 −{malus} ≥ {hit_on}")).color(BAD),
                            )
                            .on_hover_text(tr.f("Famine: −{} on each attack die (R5.4)", &[malus]));
                        } else {
                            ui.label(format!("{dice}×d6 ≥ {hit_on}"));
                        }
                    });
                    ui.label(tr.f("{} AP", &[&u.ap]))
                        .on_hover_text(tr.t("Action points left this activation (R9.4)"));
                    let skills: Vec<String> = t
                        .map(|t| {
                            t.skills
                                .iter()
                                .map(|s| tr.t(s.name()).into_owned())
                                .collect()
                        })
                        .unwrap_or_default();
                    ui.label(RichText::new(skills.join(", ")).weak());
                    ui.end_row();
                }
            });
        // This army's orders, from the rules' legal actions, with their costs.
        let mine = |x: &Action| match x {
            Action::Activate { army } | Action::Feed { army, .. } => *army == a.id,
            Action::Ritual { .. } => active == Some(a.id),
            x => is_army_order(x) && active == Some(a.id),
        };
        for x in legal.iter().filter(|x| mine(x)) {
            let mut text = crate::text::label(x, db, tr);
            if let Action::UseCard { unit, action } = x {
                let card = s
                    .units
                    .iter()
                    .find(|r| r.unit.id == *unit)
                    .and_then(|r| db.unit(&r.unit.kind))
                    .and_then(|t| t.actions.iter().find(|c| c.id == *action));
                if let Some(c) = card {
                    text = format!(
                        "{}{}",
                        if c.hourglass { "⏳ " } else { "" },
                        tr.f("{}: {} ({} AP)", &[&tr.t(&c.name), &tr.t(&c.text), &c.ap])
                    );
                }
            }
            if let Action::Engage { target, .. } = x
                && let Some((_, o)) = odds.iter().find(|(t, _)| t == target)
            {
                let pc = |p: f64| format!("{:.0}", p * 100.0);
                text = tr.f(
                    "{} — win {} %, lose {} %, undecided {} % (R9.5)",
                    &[
                        &text,
                        &pc(o.attacker_wins),
                        &pc(o.defender_wins + o.both_destroyed),
                        &pc(o.undecided),
                    ],
                );
                // R5.4: famine comes off the rolls, on either side; the odds above count it.
                if o.famine.0 > 0 {
                    text.push_str(&tr.f(" — your famine: −{} on each die", &[&o.famine.0]));
                }
                if o.famine.1 > 0 {
                    text.push_str(&tr.f(" — their famine: −{} on each die", &[&o.famine.1]));
                }
            }
            if ui.button(text).clicked() {
                clicked = Some(x.clone());
            }
        }
        ui.separator();
    }
    clicked
}

/// Orders the army sheet shows: those of the active army, and activating or feeding one.
pub fn is_army_order(a: &Action) -> bool {
    matches!(
        a,
        Action::Activate { .. }
            | Action::Feed { .. }
            | Action::Engage { .. }
            | Action::Merge { .. }
            | Action::Detach { .. }
            | Action::Explore { .. }
            | Action::UseCard { .. }
            | Action::Embark
            | Action::Land { .. }
            | Action::Load { .. }
            | Action::Unload { .. }
            | Action::FoundOutpost { .. }
    )
}

/// The research sheet. Returns the action clicked, if any.
pub fn research(ui: &mut egui::Ui, cx: &Cx, r: &Research, legal: &[Action]) -> Option<Action> {
    let Cx { icons, tr, db, .. } = *cx;
    let mut clicked = None;
    ui.horizontal(|ui| {
        icon(ui, icons, "ui_research", "ui_card", 22.0);
        ui.heading(tr.t("Research"));
        ui.label(RichText::new(tr.f("{} done", &[&r.done.len()])).weak());
    });
    match r.current.as_ref().and_then(|t| db.tech(t)) {
        Some(t) => {
            ui.label(RichText::new(tr.t(&t.name)).strong())
                .on_hover_text(tr.t(&t.text));
            ui.add(
                egui::ProgressBar::new(r.points as f32 / t.points.max(1) as f32)
                    .text(tr.f("{} / {} points (R7.2)", &[&r.points, &t.points])),
            );
            if !t.resources.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(tr.t("Resources placed:"));
                    cost(ui, icons, &t.resources, &r.placed);
                    ui.label(RichText::new(tr.f("({} placed)", &[&tr.stock(&r.placed)])).weak());
                });
            }
        }
        None if !r.offer.is_empty() => {
            ui.label(
                RichText::new(tr.t("Choose one of the offered technologies (R7.4):")).color(WARN),
            );
        }
        None => {
            ui.label(RichText::new(tr.t("None under way")).weak());
        }
    }
    for a in legal.iter().filter(|a| {
        matches!(
            a,
            Action::ChooseResearch { .. } | Action::FundResearch { .. } | Action::AssignLab { .. }
        )
    }) {
        if ui.button(crate::text::label(a, db, tr)).clicked() {
            clicked = Some(a.clone());
        }
    }
    if !r.done.is_empty() {
        let names: Vec<String> = r
            .done
            .iter()
            .map(|t| {
                tr.t(db.tech(t).map(|x| x.name.as_str()).unwrap_or(t))
                    .into_owned()
            })
            .collect();
        ui.label(RichText::new(tr.f("Known: {}", &[&names.join(", ")])).weak());
    }
    ui.separator();
    clicked
}
