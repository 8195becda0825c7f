//! The words of a game's end: why it ended (`EndReason`), citing the rule; and of what a
//! level asks of the Eladrins beyond the portal (`Condition`).

use super::Translations;
use crate::content::{Camp, ContentDb};
use crate::rules::outcome::{Condition, EndReason};

impl Condition {
    /// The condition in words, with where the game stands on it, in the language of `tr`.
    pub fn words(&self, tr: &Translations, db: Option<&ContentDb>) -> String {
        match self {
            Condition::Research(tech) => tr.f("Research {}", &[&tr.name(db, tech)]),
            Condition::Outposts { need, have } => tr.p(
                "Hold {} outpost (now {})|Hold {} outposts (now {})",
                *need as u64,
                &[need, have],
            ),
            Condition::RiftsClosed { need, have } => tr.p(
                "Close {} rift (now {} closed)|Close {} rifts (now {} closed)",
                *need as u64,
                &[need, have],
            ),
        }
    }
}

impl EndReason {
    /// The reason in words, in the language of `tr`.
    pub fn words(&self, tr: &Translations) -> String {
        match self {
            EndReason::PortalPowered => tr
                .t("Portal operational: the portal is powered (R8.2)")
                .into_owned(),
            EndReason::LastCellCorrupted => tr
                .t("Chaos corrupted the last power cell and took the portal (R8.4)")
                .into_owned(),
            EndReason::OutpostsLost => tr.t("Every outpost is lost").into_owned(),
            EndReason::PortalOverrun { outpost } => {
                tr.f("Chaos overran {} and took the portal", &[outpost])
            }
            EndReason::CycleLimit {
                max,
                conditions_only: false,
            } => tr.p(
                "The Eladrins did not power the portal within {} cycle|The Eladrins did not power the portal within {} cycles",
                *max as u64,
                &[max],
            ),
            EndReason::CycleLimit {
                max,
                conditions_only: true,
            } => tr.p(
                "The Eladrins did not meet the level's conditions within {} cycle|The Eladrins did not meet the level's conditions within {} cycles",
                *max as u64,
                &[max],
            ),
            // A plugin's reason: its own table entry, if it has one.
            EndReason::Other(s) => tr.t(s).into_owned(),
            EndReason::Chapter { chapter, code } => super::chapter::end(tr, chapter, code),
        }
    }
}

/// The end window's headline for a game won by `winner` for `reason`, in the language of
/// `tr`. A defeat names what was lost: the portal only when Chaos took it (R8.4, R9.5), so a
/// game lost to the cycle limit or to the fall of every outpost does not read as the portal
/// taken.
pub fn end_headline(tr: &Translations, winner: Camp, reason: Option<&EndReason>) -> String {
    // Each arm calls `t` on its own literal, so the French table's test sees all four.
    match (winner, reason) {
        (Camp::Eladrins, _) => tr.t("Victory: the way home is open"),
        (Camp::Chaos, Some(EndReason::LastCellCorrupted | EndReason::PortalOverrun { .. })) => {
            tr.t("Defeat: Chaos holds the portal")
        }
        (Camp::Chaos, Some(EndReason::OutpostsLost)) => tr.t("Defeat: the last outpost has fallen"),
        (Camp::Chaos, Some(EndReason::CycleLimit { .. })) => tr.t("Defeat: time has run out"),
        // A chapter's or a plugin's reason: its own sentence, under it, says what happened.
        (Camp::Chaos, _) => tr.t("Defeat"),
    }
    .into_owned()
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&Translations::default()))
    }
}
