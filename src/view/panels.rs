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
use crate::rules::decks::PowerCell;
use crate::rules::{
    Action, ActionRequest, Army, Chronicle, Cycle, CycleOrder, GameSetup, Outcome, Outpost, Portal,
    Research,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<IconIds>().add_systems(
        EguiPrimaryContextPass,
        (super::sheets::register_icons, draw_panels).chain(),
    );
}

/// A player-readable label for an action.
pub fn label(a: &Action, db: &ContentDb) -> String {
    let name_imp = |id: &str| {
        db.improvement(id)
            .map(|i| i.name.clone())
            .unwrap_or(id.into())
    };
    let name_b = |id: &str| {
        db.building(id)
            .map(|i| format!("{} ({})", i.name, i.cost))
            .unwrap_or(id.into())
    };
    match a {
        Action::Done => "Done with this step".into(),
        Action::Feed { army, tokens } => {
            format!("Feed army {army}: remove {tokens} famine token(s)")
        }
        Action::ChooseResearch { tech } => {
            let t = db.tech(tech);
            format!(
                "Research {} — {}",
                t.map(|t| t.name.as_str()).unwrap_or(tech),
                t.map(|t| t.text.as_str()).unwrap_or("")
            )
        }
        Action::FundResearch { res, amount, .. } => {
            format!("Place {amount} {} on the research", res.name())
        }
        Action::AssignLab { slot, artifact, .. } => match artifact {
            Some((q, r)) => format!("Lab {slot}: analyse the artifact at ({q}, {r}) (2d6 ≥ 7)"),
            None => format!("Lab {slot}: research"),
        },
        Action::BuildPortalCell { arch } => format!("Build the next cell of arch {}", arch + 1),
        Action::PowerPortal { crystals } => format!("Put {crystals} crystal(s) into the portal"),
        Action::Pass => "End turn (pass)".into(),
        Action::BuildImprovement { at, improvement } => {
            let cost = db
                .improvement(improvement)
                .map(|i| i.cost.to_string())
                .unwrap_or_default();
            format!(
                "Build {} at ({}, {}) ({cost})",
                name_imp(improvement),
                at.0,
                at.1
            )
        }
        Action::BuildBuilding { building, .. } => format!("Build {}", name_b(building)),
        Action::Recruit { unit, .. } => {
            let u = db.unit(unit);
            format!(
                "Recruit {} ({})",
                u.map(|u| u.name.as_str()).unwrap_or(unit),
                u.and_then(|u| u.recruit_cost)
                    .map(|c| c.to_string())
                    .unwrap_or_default()
            )
        }
        Action::Activate { army } => format!("Activate army {army}"),
        Action::Move { to } => format!("Move to ({}, {})", to.0, to.1),
        Action::UseCard { unit, action } => format!("Unit {unit}: {action}"),
        Action::Explore { unit } => format!("Unit {unit}: explore this tile (all its AP)"),
        Action::Merge { from } => format!("Take in army {from} (1 AP each)"),
        Action::Detach { units } => format!("Detach unit {:?}", units),
        Action::Engage { target, .. } => format!("Attack army {target}"),
        Action::Ritual { ritual } => {
            let r = db.set.rituals.iter().find(|r| &r.id == ritual);
            format!(
                "Ritual: {} ({})",
                r.map(|r| r.name.as_str()).unwrap_or(ritual),
                r.map(|r| r.cost.to_string()).unwrap_or_default()
            )
        }
        Action::FoundOutpost { unit, .. } => format!("Unit {unit}: found an outpost here"),
        Action::EndActivation => "End this army's activation".into(),
        Action::Summon { rift } => format!("Summon at ({}, {})", rift.0, rift.1),
        Action::Embark => "Embark on the boats".into(),
        Action::Land { to } => format!("Land at ({}, {})", to.0, to.1),
        Action::Load { res, amount } => format!("Load {amount} {}", res.name()),
        Action::Unload { res, amount } => format!("Unload {amount} {}", res.name()),
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

#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    cycle: Res<Cycle>,
    order: Res<CycleOrder>,
    outcome: Res<Outcome>,
    portal: Res<Portal>,
    research: Res<Research>,
    chronicle: Res<Chronicle>,
    setup: Res<GameSetup>,
    outposts: Query<&Outpost>,
    armies: Query<&Army>,
    content: Res<Content>,
    cache: Res<ViewCache>,
    view: Res<ViewState>,
    icons: Res<IconIds>,
    (mut undo, mut driver, mut help): (
        ResMut<super::undo::UndoStack>,
        ResMut<Driver>,
        ResMut<super::help::Help>,
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
            ui.heading(format!("Cycle {}", cycle.number));
            for (i, s) in order.0.iter().enumerate() {
                let text = format!("{} {}", s.id, s.title);
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
                "Chaos is playing…".to_string()
            } else {
                let p = setup
                    .players
                    .get(cycle.player)
                    .cloned()
                    .unwrap_or("Eladrins".into());
                format!("Your decision — {p}")
            };
            ui.label(egui::RichText::new(whose).strong());
            if step == "R9" {
                if cycle.activation.is_some() {
                    if ui.button("End activation").clicked() {
                        act(Action::EndActivation);
                    }
                } else if cycle.turn == Camp::Eladrins && ui.button("End turn (pass)").clicked() {
                    act(Action::Pass);
                }
            } else if ui.button("Done with this step").clicked() {
                act(Action::Done);
            }
            if ui.button("Let the AI play this turn").clicked() {
                driver.autoplay_eladrins = true;
            }
            let n = undo.states.len();
            if ui
                .add_enabled(n > 0, egui::Button::new(format!("Undo ({n})")))
                .on_hover_text("Ctrl+Z: back to before your last action, as long as no die was rolled, no card drawn and Chaos didn't move")
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
        egui::ScrollArea::vertical().show(ui, |ui| {
            if let Some(w) = outcome.winner {
                ui.heading(format!("{w:?} win after {} cycles", outcome.cycle));
                ui.label(&outcome.reason);
                ui.separator();
            }
            let def = db.portal();
            ui.heading("The portal");
            for (i, a) in def.arches.iter().enumerate() {
                let built = portal.built.get(i).copied().unwrap_or(0) as usize;
                let next = a.get(built).map(|c| format!(" — next cell: {c}")).unwrap_or(" — complete".into());
                ui.label(format!("Arch {}: {built}/{} cells{next}", i + 1, a.len()));
            }
            ui.horizontal(|ui| {
                ui.label("Power:");
                for (i, c) in portal.track(def.track).iter().enumerate() {
                    let (color, text) = match c {
                        PowerCell::Crystal => (egui::Color32::from_rgb(80, 200, 255), "◆"),
                        PowerCell::Corruption => (egui::Color32::from_rgb(200, 40, 200), "✖"),
                        PowerCell::Empty => (egui::Color32::GRAY, if i + 1 == def.star as usize { "★" } else { "□" }),
                    };
                    ui.label(egui::RichText::new(text).color(color).size(18.0));
                }
            });
            ui.separator();
            sheets::forecast(ui, &icons, &cache.forecast);
            let mut clicked: Option<Action> = None;
            if !cache.armies.is_empty() {
                clicked = clicked.or(sheets::armies(
                    ui,
                    &icons,
                    db,
                    &cache.armies,
                    cycle.activation,
                    &cache.legal,
                    &cache.odds,
                ));
            }
            if let Some(o) = &cache.outpost {
                clicked = clicked.or(sheets::outpost(ui, &icons, db, o, &cache.legal));
            }
            clicked = clicked.or(sheets::research(ui, &icons, db, &research, &cache.legal));
            if let Some(a) = clicked {
                act(a);
            }
            if !cache.selected.is_empty() {
                ui.heading("Selected tile");
                for l in &cache.selected {
                    ui.label(l);
                }
                ui.separator();
            }
            ui.heading("Actions");
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
                ui.label(egui::RichText::new("Select a tile, an army or an outpost to see what it can do. Right click moves the selected army.").weak());
            }
            for a in shown {
                if ui.button(label(a, db)).clicked() {
                    act(a.clone());
                }
            }
            if let Some(r) = &view.last_refusal {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(egui::Color32::LIGHT_RED, r);
                    // The rule it cites, one click away.
                    if let Some(rule) = super::help::cited_rule(r)
                        && ui.small_button(format!("📖 {rule}")).on_hover_text("Open the rules here").clicked()
                    {
                        help.show_rule(&rule);
                    }
                });
            }
            ui.separator();
            ui.heading("Log");
            let start = chronicle.0.len().saturating_sub(40);
            for e in chronicle.0[start..].iter().rev() {
                ui.label(egui::RichText::new(e.to_string()).small());
            }
        });
    });
    if !cache.hover.is_empty() {
        egui::Area::new("hover".into())
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    for l in &cache.hover {
                        ui.label(l);
                    }
                });
            });
    }
    Ok(())
}
