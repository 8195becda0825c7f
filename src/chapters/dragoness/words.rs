//! The chapter's words (`text::chapter`): its actions as buttons and log lines read them, its
//! refusals citing their rule, its ends and its events, in the player's language (French in
//! `assets/i18n/fr.ron`).

use crate::rules::chapter::ChapterValue;
use crate::text::Translations;
use crate::text::chapter::ChapterWords;

use super::guide::{Spared, Told};
use super::{DragonAction, DragonRefusal, ID};

/// A hex as the log writes it.
fn at(a: &(i32, i32)) -> String {
    format!("({}, {})", a.0, a.1)
}

/// A quest's name from its id: as the level in play names it, else the id (its French comes
/// from the name).
pub fn quest_name(tr: &Translations, id: &str) -> String {
    tr.chapters.name_of(ID, id)
}

fn action(tr: &Translations, act: &ChapterValue) -> String {
    match act.get::<DragonAction>() {
        Some(DragonAction::Advance { toward: None }) => {
            tr.t("Advance the dragoness (D2)").into_owned()
        }
        Some(DragonAction::Advance { toward: Some(a) }) => {
            tr.f("Advance the dragoness towards {} (D2, D7)", &[&at(&a)])
        }
        Some(DragonAction::Brake { toward: None }) => tr
            .t("Brake the dragoness: one cell, one gem (D2)")
            .into_owned(),
        Some(DragonAction::Brake { toward: Some(a) }) => tr.f(
            "Brake the dragoness towards {}: one cell, one gem (D2, D7)",
            &[&at(&a)],
        ),
        Some(DragonAction::RevealQuest { army, quest }) => tr.f(
            "Team {}: reveal the quest {} (step I)",
            &[&army, &tr.t(&quest_name(tr, &quest))],
        ),
        Some(DragonAction::PlaceRelic { army, quest }) => tr.f(
            "Team {}: place the relic of {} in the White Tomb (D13)",
            &[&army, &tr.t(&quest_name(tr, &quest))],
        ),
        Some(DragonAction::Escape { army }) => {
            tr.f("Team {}: leave by the portal token (D9)", &[&army])
        }
        None => act.to_string(),
    }
}

fn refusal(tr: &Translations, reason: &ChapterValue) -> String {
    use DragonRefusal::*;
    let Some(r) = reason.get::<DragonRefusal>() else {
        return reason.to_string();
    };
    match r {
        RedCell => tr
            .t("D1: on her red cells she only advances one cell")
            .into_owned(),
        NoGems { need, have } => tr.f(
            "D2: braking costs {} gems; the Guide has {}",
            &[&need, &have],
        ),
        MustMove => tr.t("D2: the Guide must advance or brake her").into_owned(),
        NotNearest(a) => tr.f("D7: {} is not among the nearest hidden rooms", &[&at(&a)]),
        Entombed => tr
            .t("D10: she stays in the White Tomb for good")
            .into_owned(),
        GateSealed => tr
            .t("D6: the Gate is sealed: no team leaves or enters the chasm")
            .into_owned(),
        NotATeam(_) => tr
            .t("D6: only the expedition's teams enter the chasm")
            .into_owned(),
        TeamStaysWhole(_) => tr
            .t("D4: a team is one pawn: it does not join another army")
            .into_owned(),
        NotATeamArmy(a) => tr.f("Army {} is not one of the expedition's teams", &[&a]),
        NotYourTeam(a) => tr.f("Team {} belongs to another player", &[&a]),
        UnknownQuest(q) => tr.f("No quest {}", &[&q]),
        NotOnSite(a) => tr.f("The team must stand on the quest's site {}", &[&at(&a)]),
        QuestKnown(_) => tr.t("That quest was revealed already").into_owned(),
        NoCountdown => tr
            .t("D13: the relic stops a countdown: she must lie in the White Tomb first")
            .into_owned(),
        NoStepOne(_) => tr
            .t("D13: the team must reveal the quest (step I) before placing its relic")
            .into_owned(),
        NoRelic(q) => tr.f("D13: the team does not carry the relic of {}", &[&tr.t(&q)]),
        TombHidden => tr.t("D13: the White Tomb is still hidden").into_owned(),
        NotInTomb => tr
            .t("D13: the team must stand in the White Tomb")
            .into_owned(),
        RelicPlaced => tr.t("D13: the relic is placed already").into_owned(),
        NoPortal => tr.t("D9: no portal token here").into_owned(),
        Guarded => tr
            .t("D9: a guardian still holds this room: beat it first")
            .into_owned(),
        GuardianHolds(_) => tr
            .t("D9: a guardian holds its room: it does not march off")
            .into_owned(),
        EladrinsOnly => tr.t("Only the expedition's teams do this").into_owned(),
    }
}

fn end(tr: &Translations, code: &str) -> String {
    match code {
        "relic" => tr
            .t("The relic is placed in the White Tomb: the countdown is stopped (D13)")
            .into_owned(),
        "countdown" => tr
            .t("The countdown is complete: the chasm takes every team in it (D12)")
            .into_owned(),
        other => other.to_string(),
    }
}

fn spared(tr: &Translations, why: Spared) -> String {
    tr.t(match why {
        Spared::Quest => "its quest protects it",
        Spared::Hero => "Enoriel walks with it",
        Spared::Ring => "it holds the Draconis Ring",
        Spared::Invincible => "it is invincible",
    })
    .into_owned()
}

fn event(tr: &Translations, what: &ChapterValue) -> String {
    let Some(t) = what.get::<Told>() else {
        return what.to_string();
    };
    match t {
        Told::Walked { path, braked } => {
            let to = path.last().map(at).unwrap_or_default();
            if braked {
                tr.f("The dragoness is braked to {} (D2)", &[&to])
            } else {
                let n = path.len();
                tr.p(
                    "The dragoness advances {} cell to {}|The dragoness advances {} cells to {}",
                    n as u64,
                    &[&n, &to],
                )
            }
        }
        Told::TeamLost { army, at: a, rule } => tr.f(
            "Team {} is lost at {} ({}): a RIP token lies there",
            &[&army, &at(&a), &rule],
        ),
        Told::TeamSpared { army, why } => tr.f(
            "The dragoness crosses team {}, spared: {} (D4)",
            &[&army, &spared(tr, why)],
        ),
        Told::Sealed => tr
            .t("The dragoness passes the Gate: it is sealed for good (D6)")
            .into_owned(),
        Told::TeamRemoved { army } => tr.f(
            "Team {} was outside the chasm: it leaves the board, its heroes alive (D6)",
            &[&army],
        ),
        Told::Revealed { name, by_her, .. } => {
            if by_her {
                tr.f("The dragoness reveals {} (D8)", &[&tr.t(&name)])
            } else {
                tr.f("A team reveals {}", &[&tr.t(&name)])
            }
        }
        Told::Token { name, by_her } => {
            if by_her {
                tr.f("The Guide reveals {} where she stops (D3)", &[&tr.t(&name)])
            } else {
                tr.f("A team finds {} (D3)", &[&tr.t(&name)])
            }
        }
        Told::Entombed => tr
            .t("The dragoness enters the White Tomb: the countdown begins next turn (D10)")
            .into_owned(),
        Told::Gem { name, placed, .. } => {
            let c = tr.t(&name);
            if placed {
                tr.f("A {} gem is placed on its slot (D11)", &[&c])
            } else {
                tr.f(
                    "A {} gem is drawn; its slot is taken, the Guide keeps it (D11)",
                    &[&c],
                )
            }
        }
        Told::Quest { army, quest } => {
            tr.f("Team {} reveals the quest {}", &[&army, &tr.t(&quest)])
        }
        Told::Relic { army, quest, gems } => tr.f(
            "Team {} places the relic of {}: the countdown stops, {} gems taken (D13)",
            &[&army, &tr.t(&quest), &gems],
        ),
        Told::Escaped { army } => tr.f("Team {} leaves by the portal token (D9)", &[&army]),
    }
}

/// The chapter's words (`text::chapter`).
pub const WORDS: ChapterWords = ChapterWords {
    action,
    refusal,
    end,
    event,
};
