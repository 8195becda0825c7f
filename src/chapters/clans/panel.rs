//! The chapter's panel (`view::chapter_panel`): the call to battle in progress as a dialog
//! (who pillages where, whose say it is, each side's STR and the odds the cards still hidden
//! give), the clan sheet of the seat at the screen (Rage, Axes, Horns, the eight slots, the
//! reserve, Valhalla, its hand and its quests, which only it sees), the other clans in a line
//! each, the provinces with their tokens and figures; a button for each action the rules
//! accept now, and why there is none at 0 Rage (C11).

use bevy_egui::egui;

use crate::rules::Action;
use crate::text::Translations;
use crate::view::chapter_panel::PanelCx;

use super::ClanAction;
use super::battle::sides;
use super::data::{ClanLevel, Fig, Reward, SHEET, Track};
use super::reckon::{odds, unseen};
use super::state::{Clans, Owner, Sheet, Spot, Stage};
use super::words::{fig, named, slot, track};

/// A clan's name as the table knows it: the player's name, or Chaos.
fn who(tr: &Translations, cx: &PanelCx, o: Owner) -> String {
    match o {
        Owner::Seat(s) => cx
            .players
            .get(s as usize)
            .cloned()
            .unwrap_or_else(|| tr.f("seat {}", &[&s.saturating_add(1)])),
        Owner::Chaos => tr.t("Chaos").into_owned(),
    }
}

fn call_box(ui: &mut egui::Ui, s: &Clans, lvl: &ClanLevel, cx: &PanelCx) {
    let tr = cx.tr;
    let Some(c) = &s.call else { return };
    ui.group(|ui| {
        ui.label(
            egui::RichText::new(tr.f(
                "Call to battle: {} pillages {}",
                &[&who(tr, cx, c.pillager), &named(tr, &c.province)],
            ))
            .strong(),
        );
        let stage = match c.stage {
            Stage::Gather => tr.t("Each clan may bring one figure from a bordering province (C14)"),
            Stage::Cards => tr.t("Each clan in the battle plays a card face down (C17)"),
        };
        ui.label(stage);
        if let Some(o) = c.asks() {
            ui.label(tr.f("Now: {}", &[&who(tr, cx, o)]));
        }
        let (e, ch) = sides(lvl, s, &c.province);
        ui.label(tr.f("STR: Eladrins {}, Chaos {}", &[&e, &ch]));
        if let Some(odds) = odds_words(tr, lvl, s, c, (e, ch)) {
            ui.label(odds);
        }
    });
}

/// The odds of a battle whose cards are still hidden (C17), in words; none before the cards
/// or once all are seen.
pub fn odds_words(
    tr: &Translations,
    lvl: &ClanLevel,
    s: &Clans,
    c: &super::state::Call,
    (e, ch): (u32, u32),
) -> Option<String> {
    if c.stage != Stage::Cards {
        return None;
    }
    let hidden = unseen(lvl, s, c);
    if hidden.is_empty() {
        return None;
    }
    let (w, t, l) = odds(lvl, e, ch, &hidden);
    Some(tr.f(
        "With the cards still hidden: Eladrins win {}%, tie {}%, Chaos wins {}%",
        &[
            &((w * 100.0).round() as u32),
            &((t * 100.0).round() as u32),
            &((l * 100.0).round() as u32),
        ],
    ))
}

fn sheet_lines(ui: &mut egui::Ui, sh: &Sheet, lvl: &ClanLevel, tr: &Translations) {
    let levels: Vec<String> = Track::ALL
        .iter()
        .map(|t| {
            format!(
                "{} {} ({})",
                track(tr, *t),
                sh.level(*t).saturating_add(1),
                lvl.levels.value(*t, sh.level(*t))
            )
        })
        .collect();
    ui.label(levels.join(" · "));
    for (i, k) in SHEET.iter().enumerate() {
        let card = sh
            .slots
            .get(i)
            .and_then(|c| c.as_deref())
            .map(|c| named(tr, c))
            .unwrap_or_else(|| "—".into());
        ui.label(format!("  {} {}: {}", i + 1, slot(tr, *k), card));
    }
    let figs = |v: &[Fig]| -> String {
        if v.is_empty() {
            return "—".into();
        }
        v.iter().map(|f| fig(tr, f)).collect::<Vec<_>>().join(", ")
    };
    ui.label(tr.f("Reserve: {}", &[&figs(&sh.reserve)]));
    if !sh.valhalla.is_empty() {
        ui.label(tr.f("Valhalla: {}", &[&figs(&sh.valhalla)]));
    }
}

pub fn draw(ui: &mut egui::Ui, s: &Clans, cx: &PanelCx) -> Option<Action> {
    let tr = cx.tr;
    let lvl = cx
        .db
        .level_fields::<ClanLevel>(cx.level)
        .unwrap_or_default();
    let mut asked = None;
    ui.heading(tr.t("Clans of the Rift"));
    call_box(ui, s, &lvl, cx);
    let me = Owner::Seat(cx.seat);
    if let Some(sh) = s.sheet(me) {
        ui.label(egui::RichText::new(tr.f("Your clan ({})", &[&who(tr, cx, me)])).strong());
        sheet_lines(ui, sh, &lvl, tr);
        let hand: Vec<String> = sh
            .hand
            .iter()
            .map(|c| match lvl.card(c) {
                Some(card) => format!("{} ({})", named(tr, c), card.str),
                None => named(tr, c),
            })
            .collect();
        ui.label(tr.f("Hand (only you see it): {}", &[&hand.join(", ")]));
        if !sh.quests.is_empty() {
            let q: Vec<String> = sh.quests.iter().map(|c| named(tr, c)).collect();
            ui.label(tr.f("Quests, face down: {}", &[&q.join(", ")]));
        }
    }
    ui.separator();
    for (o, sh) in s.sheets.iter().filter(|(o, _)| **o != me) {
        ui.label(tr.f(
            "{}: levels {}/{}/{} · {} on the board · {} cards · {} quests",
            &[
                &who(tr, cx, *o),
                &sh.level(Track::Rage).saturating_add(1),
                &sh.level(Track::Axes).saturating_add(1),
                &sh.level(Track::Horns).saturating_add(1),
                &s.on_board(*o),
                &sh.hand.len(),
                &sh.quests.len(),
            ],
        ));
    }
    ui.separator();
    for p in &lvl.provinces {
        let token = if s.pillaged.contains(&p.id) {
            tr.t("pillaged").into_owned()
        } else {
            match p.reward {
                Reward::Glory(g) => tr.f("{} glory", &[&g]),
                Reward::Level(t) => tr.f("+1 {}", &[&track(tr, t)]),
            }
        };
        let here: Vec<String> = s
            .at(&Spot::Province(p.id.clone()))
            .map(|f| format!("{} ({})", fig(tr, &f.fig), who(tr, cx, f.owner)))
            .collect();
        let villages = if p.villages.is_empty() {
            tr.t("no villages").into_owned()
        } else {
            tr.f("{} villages", &[&p.villages.len()])
        };
        ui.label(
            egui::RichText::new(format!("{} [{}] · {}", tr.t(&p.name), token, villages)).strong(),
        );
        if !here.is_empty() {
            ui.label(format!("  {}", here.join(", ")));
        }
    }
    // The actions the rules accept now.
    let ours = cx.legal_of::<ClanAction>();
    if ours.is_empty() && s.call.is_none() && cx.legal.contains(&Action::Pass) {
        ui.label(
            egui::RichText::new(tr.t(
                "At 0 Rage your clan can take no action at all, not even a free one (C11): pass.",
            ))
            .italics(),
        );
    }
    let mut button = |ui: &mut egui::Ui, a: &Action| {
        asked = asked.take().or(cx.button(ui, a));
    };
    let folded = |m: &ClanAction| {
        matches!(
            m,
            ClanAction::Invade { .. } | ClanAction::March { .. } | ClanAction::Upgrade { .. }
        )
    };
    for (a, m) in &ours {
        if !folded(m) {
            button(ui, a);
        }
    }
    for (title, salt, pick) in [
        (
            "Upgrade ({} way)|Upgrade ({} ways)",
            "clans_upgrade",
            (|m: &ClanAction| matches!(m, ClanAction::Upgrade { .. })) as fn(&ClanAction) -> bool,
        ),
        (
            "Invade ({} way)|Invade ({} ways)",
            "clans_invade",
            |m: &ClanAction| matches!(m, ClanAction::Invade { .. }),
        ),
        (
            "March ({} way)|March ({} ways)",
            "clans_march",
            |m: &ClanAction| matches!(m, ClanAction::March { .. }),
        ),
    ] {
        let some: Vec<&Action> = ours
            .iter()
            .filter(|(_, m)| pick(m))
            .map(|(a, _)| *a)
            .collect();
        if some.is_empty() {
            continue;
        }
        egui::CollapsingHeader::new(tr.p(title, some.len() as u64, &[&some.len()]))
            .id_salt(salt)
            .show(ui, |ui| {
                for a in some {
                    button(ui, a);
                }
            });
    }
    asked
}
