//! The side panel's action list: the selected tile's lines, every legal action the sheets
//! above don't show (improvements, the portal, rituals, summons…) as buttons, the first nine
//! numbered for their keys, the last refusal with its rule, and the tile's improvement menu
//! with the R9.1 condition that fails for each improvement that can't stand there.

use bevy_egui::egui;
use hexx::Hex;

use super::Out;
use crate::content::ContentDb;
use crate::rules::{Action, Army, Outpost};
use crate::text::{Translations, label};
use crate::view::Shortcuts;
use crate::view::cache::SheetCache;
use crate::view::help::rule_button;
use crate::view::sheets;

/// What the action list reads.
pub(super) struct Actions<'a> {
    pub tr: &'a Translations,
    pub db: &'a ContentDb,
    pub cache: &'a SheetCache,
    pub selected: Option<Hex>,
    pub armies: &'a [&'a Army],
    pub outposts: &'a [&'a Outpost],
    pub activation: Option<u32>,
    pub shortcuts: &'a Shortcuts<'a>,
    pub help: &'a crate::view::help::ChapterHelp,
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

/// Draws the selected tile, the action buttons, the last refusal and the improvement menu.
pub(super) fn draw(ui: &mut egui::Ui, a: &Actions, out: &mut Out) {
    let Actions {
        tr,
        db,
        cache,
        selected,
        armies,
        outposts,
        activation,
        shortcuts,
        help,
    } = *a;
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
            !in_sheets || (selected.is_some() && cache.armies.is_empty())
        })
        .filter(|a| concerns(a, selected, armies, outposts, activation))
        .take(40)
        .collect();
    if shown.is_empty() {
        ui.label(egui::RichText::new(tr.t("Select a tile, an army or an outpost to see what it can do. Right click moves the selected army.")).weak());
    }
    // The first nine are numbered: their number key does what the click does.
    for (i, a) in shown.into_iter().enumerate() {
        let n = i + 1;
        let key = (n <= 9).then_some(crate::app::keys::Shortcut::PanelAction(n as u8));
        let text = match key {
            Some(_) => format!("{n}. {}", label(a, db, tr)),
            None => label(a, db, tr),
        };
        let pressed = key.is_some_and(|k| shortcuts.fired(k));
        if ui.button(text).clicked() || pressed {
            out.actions.push(a.clone());
        }
    }
    // The improvement menu of the selected tile: what may stand here, and for the rest the
    // R9.1 condition that fails, in the rules' words.
    if !cache.improvements.is_empty() {
        let ok = cache.improvements.iter().filter(|(_, a)| a.is_ok()).count();
        egui::CollapsingHeader::new(tr.p("Improvements on this tile (R9.1): {} of {} possible|Improvements on this tile (R9.1): {} of {} possible", ok as u64,
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
                        ui.colored_label(
                            egui::Color32::from_rgb(120, 210, 120),
                            format!("✔ {name}"),
                        );
                    }
                    Err(r) => {
                        ui.label(egui::RichText::new(format!("✖ {name}")).weak());
                        let words = r.words(tr);
                        ui.label(egui::RichText::new(&words).weak().small());
                        if let Some(rule) = rule_button(ui, &words, tr, help) {
                            out.rule = Some(rule);
                        }
                    }
                });
            }
        });
    }
}
