//! The egui panels: the phase bar (cycle, steps lighting up, whose turn, end turn), the portal
//! with its arches and power track, outposts, research, the selected tile and the actions it
//! allows (with the rules' refusal when one fails), the hovered tile, and the log.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use hexx::Hex;

use super::ViewState;
use super::cache::ViewCache;
use super::driver::Driver;
use super::sheets::{self, IconIds};
use crate::content::{Camp, Content, ContentDb};
use crate::i18n::Translations;
use crate::rules::decks::PowerCell;
use crate::rules::{
    Action, ActionRequest, Army, Cycle, CycleOrder, GameSetup, Outcome, Outpost, Portal, Research,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<IconIds>().add_systems(
        EguiPrimaryContextPass,
        (super::sheets::register_icons, draw_panels).chain(),
    );
}

/// A player-readable label for an action, in the player's language.
pub fn label(a: &Action, db: &ContentDb, tr: &Translations) -> String {
    let stock = |s: &crate::content::Stock| tr.stock(s);
    let name = |n: &str| tr.t(n).into_owned();
    match a {
        Action::Done => name("Done with this step"),
        Action::Feed { army, tokens } => {
            tr.f("Feed army {}: remove {} famine token(s)", &[army, tokens])
        }
        Action::ChooseResearch { tech } => {
            let t = db.tech(tech);
            let n = t.map_or(tech.clone(), |t| name(&t.name));
            let text = t.map_or(String::new(), |t| name(&t.text));
            tr.f("Research {} — {}", &[&n, &text])
        }
        Action::FundResearch { res, amount, .. } => {
            tr.f("Place {} {} on the research", &[amount, &name(res.name())])
        }
        Action::AssignLab { slot, artifact, .. } => match artifact {
            Some((q, r)) => tr.f(
                "Lab {}: analyse the artifact at ({}, {}) (2d6 ≥ 7)",
                &[slot, q, r],
            ),
            None => tr.f("Lab {}: research", &[slot]),
        },
        Action::BuildPortalCell { arch } => tr.f("Build the next cell of arch {}", &[&(arch + 1)]),
        Action::PowerPortal { crystals } => tr.f("Put {} crystal(s) into the portal", &[crystals]),
        Action::Pass => name("End turn (pass)"),
        Action::BuildImprovement { at, improvement } => {
            let i = db.improvement(improvement);
            let n = i.map_or(improvement.clone(), |i| name(&i.name));
            let cost = i.map(|i| stock(&i.cost)).unwrap_or_default();
            tr.f("Build {} at ({}, {}) ({})", &[&n, &at.0, &at.1, &cost])
        }
        Action::BuildBuilding { building, .. } => {
            let b = db.building(building);
            let n = b.map_or(building.clone(), |b| name(&b.name));
            let cost = b.map(|b| stock(&b.cost)).unwrap_or_default();
            tr.f("Build {} ({})", &[&n, &cost])
        }
        Action::Recruit { unit, .. } => {
            let u = db.unit(unit);
            let n = u.map_or(unit.clone(), |u| name(&u.name));
            let cost = u
                .and_then(|u| u.recruit_cost)
                .map(|c| stock(&c))
                .unwrap_or_default();
            tr.f("Recruit {} ({})", &[&n, &cost])
        }
        Action::Activate { army } => tr.f("Activate army {}", &[army]),
        Action::Move { to } => tr.f("Move to ({}, {})", &[&to.0, &to.1]),
        Action::UseCard { unit, action } => tr.f("Unit {}: {}", &[unit, action]),
        Action::Explore { unit } => tr.f("Unit {}: explore this tile (all its AP)", &[unit]),
        Action::Merge { from } => tr.f("Take in army {} (1 AP each)", &[from]),
        Action::Detach { units } => {
            let ids: Vec<String> = units.iter().map(|u| u.to_string()).collect();
            tr.f("Detach unit {}", &[&ids.join(", ")])
        }
        Action::Engage { target, .. } => tr.f("Attack army {}", &[target]),
        Action::Ritual { ritual } => {
            let r = db.set.rituals.iter().find(|r| &r.id == ritual);
            let n = r.map_or(ritual.clone(), |r| name(&r.name));
            let cost = r.map(|r| stock(&r.cost)).unwrap_or_default();
            tr.f("Ritual: {} ({})", &[&n, &cost])
        }
        Action::FoundOutpost { unit, .. } => tr.f("Unit {}: found an outpost here", &[unit]),
        Action::EndActivation => name("End this army's activation"),
        Action::Summon { rift } => tr.f("Summon at ({}, {})", &[&rift.0, &rift.1]),
        Action::Embark => name("Embark on the boats"),
        Action::Land { to } => tr.f("Land at ({}, {})", &[&to.0, &to.1]),
        Action::Load { res, amount } => tr.f("Load {} {}", &[amount, &name(res.name())]),
        Action::Unload { res, amount } => tr.f("Unload {} {}", &[amount, &name(res.name())]),
        Action::Ext { kind, .. } => kind.clone(),
    }
}

/// Does this action concern the selected tile (its army, outpost or the tile itself)?
fn concerns(
    a: &Action,
    sel: Option<Hex>,
    armies: &[&Army],
    outposts: &[&Outpost],
    active: Option<u32>,
) -> bool {
    let Some(h) = sel else {
        return !matches!(
            a,
            Action::BuildImprovement { .. }
                | Action::Activate { .. }
                | Action::BuildBuilding { .. }
                | Action::Recruit { .. }
        );
    };
    let here_army = |id: &u32| armies.iter().any(|x| x.id == *id && x.hex == h);
    let here_outpost = |id: &u32| outposts.iter().any(|x| x.id == *id && x.hex == h);
    match a {
        Action::BuildImprovement { at, .. } => (at.0, at.1) == (h.x, h.y),
        Action::Activate { army } => here_army(army),
        Action::BuildBuilding { outpost, .. } | Action::Recruit { outpost, .. } => {
            here_outpost(outpost)
        }
        Action::Move { .. } => false, // right click on the map
        _ => active.is_none_or(|id| here_army(&id)),
    }
}

/// The keyboard as the panels read it: a shortcut fires unless egui has the keyboard (a text
/// field being typed in).
#[derive(bevy::ecs::system::SystemParam)]
struct Shortcuts<'w> {
    keys: Res<'w, ButtonInput<KeyCode>>,
    map: Res<'w, crate::keys::Keymap>,
    egui: Res<'w, bevy_egui::input::EguiWantsInput>,
}

impl Shortcuts<'_> {
    fn fired(&self, s: crate::keys::Shortcut) -> bool {
        !self.egui.wants_keyboard_input() && self.map.just_pressed(s, &self.keys)
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    cycle: Res<Cycle>,
    order: Res<CycleOrder>,
    outcome: Res<Outcome>,
    portal: Res<Portal>,
    research: Res<Research>,
    setup: Res<GameSetup>,
    outposts: Query<&Outpost>,
    armies: Query<&Army>,
    content: Res<Content>,
    cache: Res<ViewCache>,
    mut view: ResMut<ViewState>,
    icons: Res<IconIds>,
    (mut undo, mut driver, mut help, tr, shortcuts): (
        ResMut<super::undo::UndoStack>,
        ResMut<Driver>,
        ResMut<super::help::Help>,
        Res<Translations>,
        Shortcuts,
    ),
    mut send: MessageWriter<ActionRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let step = order.0.get(cycle.step).map(|s| s.id).unwrap_or("?");
    let mut act = |a: Action| {
        send.write(ActionRequest {
            by: Camp::Eladrins,
            action: a,
        });
    };
    egui::Panel::top("phase").show(&mut root, |ui| {
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
            let whose = if step == "R9" && cycle.turn == Camp::Chaos {
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
            let keys_of = |s| shortcuts.map.keys_in(s, &tr);
            use crate::keys::Shortcut as K;
            if step == "R9"
                && cycle.turn == Camp::Chaos
                && outcome.winner.is_none()
                && ui
                    .button(tr.t("Skip to the end of the Chaos turn"))
                    .on_hover_text(tr.f("Key: {}", &[&keys_of(K::SkipChaos)]))
                    .clicked()
            {
                driver.skip_chaos = true;
            }
            if step == "R9" {
                let end_key = tr.f("Key: {}", &[&keys_of(K::EndStep)]);
                if cycle.activation.is_some() {
                    if ui.button(tr.t("End activation")).on_hover_text(&end_key).clicked() {
                        act(Action::EndActivation);
                    }
                } else if cycle.turn == Camp::Eladrins
                    && ui.button(tr.t("End turn (pass)")).on_hover_text(&end_key).clicked()
                {
                    act(Action::Pass);
                }
            } else if ui
                .button(tr.t("Done with this step"))
                .on_hover_text(tr.f("Key: {}", &[&keys_of(K::EndStep)]))
                .clicked()
            {
                act(Action::Done);
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
    let db = &content.0;
    let ops: Vec<&Outpost> = {
        let mut v: Vec<&Outpost> = outposts.iter().collect();
        v.sort_by_key(|o| o.id);
        v
    };
    let arms: Vec<&Army> = armies.iter().collect();
    egui::Panel::right("state").min_size(320.0).show(&mut root, |ui| {
        let mut area = egui::ScrollArea::vertical();
        // Only a scroll asked for touches the view state (a write would mark it changed).
        if view.side_scroll.is_some()
            && let Some(y) = view.side_scroll.take()
        {
            area = area.vertical_scroll_offset(y);
        }
        area.show(ui, |ui| {
            if let Some(w) = outcome.winner {
                ui.heading(tr.f("{} win after {} cycles", &[&tr.t(&format!("{w:?}")), &outcome.cycle]));
                ui.label(tr.dynamic(&outcome.reason));
                ui.separator();
            }
            let def = db.portal();
            ui.heading(tr.t("The portal"));
            for (i, a) in def.arches.iter().enumerate() {
                let built = portal.built.get(i).copied().unwrap_or(0) as usize;
                let next = a
                    .get(built)
                    .map(|c| tr.f(" — next cell: {}", &[&tr.stock(c)]))
                    .unwrap_or(tr.t(" — complete").into_owned());
                ui.label(format!("{}{next}", tr.f("Arch {}: {}/{} cells", &[&(i + 1), &built, &a.len()])));
            }
            ui.horizontal(|ui| {
                ui.label(tr.t("Power:"));
                for (i, c) in portal.track(def.track).iter().enumerate() {
                    let (color, text) = match c {
                        PowerCell::Crystal => (egui::Color32::from_rgb(80, 200, 255), "♦"),
                        PowerCell::Corruption => (egui::Color32::from_rgb(200, 40, 200), "✖"),
                        PowerCell::Empty => (egui::Color32::GRAY, if i + 1 == def.star as usize { "★" } else { "○" }),
                    };
                    ui.label(egui::RichText::new(text).color(color).size(18.0));
                }
            });
            ui.separator();
            if let Some(rule) = sheets::forecast(ui, &icons, &tr, db, &cache.forecast) {
                help.show_rule(&rule);
            }
            let mut clicked: Option<Action> = None;
            let cx = sheets::Cx {
                icons: &icons,
                tr: &tr,
                db,
            };
            if !cache.armies.is_empty() {
                clicked = clicked.or(sheets::armies(
                    ui,
                    &cx,
                    &cache.armies,
                    cycle.activation,
                    &cache.legal,
                    &cache.odds,
                ));
            }
            if let Some(o) = &cache.outpost {
                clicked = clicked.or(sheets::outpost(ui, &cx, o, &cache.legal));
            }
            clicked = clicked.or(sheets::research(ui, &cx, &research, &cache.legal));
            if let Some(a) = clicked {
                act(a);
            }
            if !cache.selected.is_empty() {
                ui.heading(tr.t("Selected tile"));
                for l in &cache.selected {
                    ui.label(l);
                }
                ui.separator();
            }
            ui.heading(tr.t("Actions"));
            // What the sheets above don't show: improvements, the portal, rituals, summons…
            let shown: Vec<&Action> = cache
                .legal
                .iter()
                .filter(|a| !matches!(a, Action::Pass | Action::Done | Action::EndActivation))
                .filter(|a| {
                    let in_sheets = sheets::is_army_order(a)
                        || matches!(
                            a,
                            Action::BuildBuilding { .. }
                                | Action::Recruit { .. }
                                | Action::ChooseResearch { .. }
                                | Action::FundResearch { .. }
                                | Action::AssignLab { .. }
                        );
                    !in_sheets || (view.selected.is_some() && cache.armies.is_empty())
                })
                .filter(|a| concerns(a, view.selected, &arms, &ops, cycle.activation))
                .take(40)
                .collect();
            if shown.is_empty() {
                ui.label(egui::RichText::new(tr.t("Select a tile, an army or an outpost to see what it can do. Right click moves the selected army.")).weak());
            }
            // The first nine are numbered: their number key does what the click does.
            for (i, a) in shown.into_iter().enumerate() {
                let n = i + 1;
                let key = (n <= 9).then_some(crate::keys::Shortcut::PanelAction(n as u8));
                let text = match key {
                    Some(_) => format!("{n}. {}", label(a, db, &tr)),
                    None => label(a, db, &tr),
                };
                let pressed = key.is_some_and(|k| shortcuts.fired(k));
                if ui.button(text).clicked() || pressed {
                    act(a.clone());
                }
            }
            if let Some(r) = &view.last_refusal {
                // Worded at draw time, so a language switch rewords it too.
                let r = tr.f("Refused: {}", &[&r.words(&tr)]);
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(egui::Color32::LIGHT_RED, &r);
                    // The rule it cites, one click away.
                    if let Some(rule) = super::help::rule_button(ui, &r, &tr) {
                        help.show_rule(&rule);
                    }
                });
            }
            // The improvement menu of the selected tile: what may stand here, and for the
            // rest the R9.1 condition that fails, in the rules' words.
            if !cache.improvements.is_empty() {
                let ok = cache.improvements.iter().filter(|(_, a)| a.is_ok()).count();
                egui::CollapsingHeader::new(tr.f(
                    "Improvements on this tile (R9.1): {} of {} possible",
                    &[&ok, &cache.improvements.len()],
                ))
                .id_salt("improvements")
                .show(ui, |ui| {
                    for (id, answer) in &cache.improvements {
                        let name = db
                            .improvement(id)
                            .map_or(id.clone(), |i| tr.t(&i.name).into_owned());
                        ui.horizontal_wrapped(|ui| match answer {
                            Ok(()) => {
                                ui.colored_label(egui::Color32::from_rgb(120, 210, 120), format!("✔ {name}"));
                            }
                            Err(r) => {
                                ui.label(egui::RichText::new(format!("✖ {name}")).weak());
                                let words = r.words(&tr);
                                ui.label(egui::RichText::new(&words).weak().small());
                                if let Some(rule) = super::help::rule_button(ui, &words, &tr) {
                                    help.show_rule(&rule);
                                }
                            }
                        });
                    }
                });
            }
            ui.separator();
            ui.heading(tr.t("Log"));
            for line in &cache.log {
                ui.label(egui::RichText::new(line).small());
            }
        });
    });
    // What the panels leave to the map, in logical pixels: the map's view is narrowed to it.
    let free = root.available_rect_before_wrap();
    let z = ctx.zoom_factor();
    let r = [
        free.min.x * z,
        free.min.y * z,
        free.width() * z,
        free.height() * z,
    ];
    if view.map_rect != Some(r) {
        view.map_rect = Some(r);
    }
    if !cache.hover.is_empty() {
        egui::Area::new("hover".into())
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    // A line citing a rule links to it (the hover stays while the pointer is
                    // over this box).
                    for l in &cache.hover {
                        ui.horizontal(|ui| {
                            ui.label(l);
                            if let Some(rule) = super::help::rule_button(ui, l, &tr) {
                                help.show_rule(&rule);
                            }
                        });
                    }
                });
            });
    }
    Ok(())
}
