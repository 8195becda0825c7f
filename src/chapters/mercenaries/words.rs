//! The chapter's words (`text::chapter`): its actions as buttons and log lines read them, its
//! refusals citing their rule, its events, in the player's language (French in
//! `assets/i18n/fr.ron`). Places and cards are named as the level names them.

use crate::rules::chapter::ChapterValue;
use crate::text::Translations;
use crate::text::chapter::ChapterWords;

use super::data::{Assistant, Group, Merc, name_of};
use super::phases::Told;
use super::state::Owner;
use super::{MercAction, MercRefusal};

/// A kind of mercenary, plural when `n` is not one.
pub fn merc(tr: &Translations, k: Merc, n: u32) -> String {
    let c = n as u64;
    match k {
        Merc::Recruit => tr.p("{} recruit|{} recruits", c, &[&n]),
        Merc::Scout => tr.p("{} scout|{} scouts", c, &[&n]),
        Merc::Ranger => tr.p("{} ranger|{} rangers", c, &[&n]),
        Merc::Guardian => tr.p("{} guardian|{} guardians", c, &[&n]),
    }
}

/// A group as a list: "2 recruits, 1 scout".
pub fn group(tr: &Translations, g: &Group) -> String {
    let parts: Vec<String> = Merc::ALL
        .into_iter()
        .filter(|k| g[k.ix()] > 0)
        .map(|k| merc(tr, k, g[k.ix()]))
        .collect();
    if parts.is_empty() {
        tr.t("nobody").into_owned()
    } else {
        parts.join(", ")
    }
}

/// An assistant's name.
pub fn assistant(tr: &Translations, a: Assistant) -> String {
    match a {
        Assistant::Chief => tr.t("Chief"),
        Assistant::Defender => tr.t("Defender"),
        Assistant::Survivalist => tr.t("Survivalist"),
        Assistant::Healer => tr.t("Healer"),
    }
    .into_owned()
}

fn place(tr: &Translations, id: &str) -> String {
    tr.t(&name_of(tr, id)).into_owned()
}

fn action(tr: &Translations, act: &ChapterValue) -> String {
    match act.get::<MercAction>() {
        Some(MercAction::Send {
            place: p,
            slot,
            group: g,
        }) => tr.f(
            "Send {} to {}, slot {} (M2, M4)",
            &[&group(tr, &g), &place(tr, &p), &slot.saturating_add(1)],
        ),
        Some(MercAction::Special { place: p }) => tr.f("Use the {} (M10)", &[&place(tr, &p)]),
        Some(MercAction::Assist { who, recall, raid }) => {
            let mut s = tr.f("Take the {} (M11)", &[&assistant(tr, who)]);
            if let Some(r) = recall {
                s.push_str(&tr.f(
                    ": recall the group from {} to {}",
                    &[&place(tr, &r.from.0), &place(tr, &r.to.0)],
                ));
            }
            if let Some(i) = raid {
                s.push_str(&tr.f(": discard raid card {}", &[&i.saturating_add(1)]));
            }
            s
        }
        Some(MercAction::Swap { from, to }) => tr.f(
            "Spend an equipment token: {} for {} (M9)",
            &[&merc(tr, from, 1), &merc(tr, to, 1)],
        ),
        None => act.to_string(),
    }
}

fn refusal(tr: &Translations, text: &ChapterValue) -> String {
    use MercRefusal::*;
    match text.get::<MercRefusal>() {
        Some(NoPlace(p)) => tr.f("M2: there is no place {}", &[&p]),
        Some(NotOrdinary(p)) => tr.f(
            "M2: {} takes no group: use it as a special place",
            &[&place(tr, &p)],
        ),
        Some(SpecialUsed(p)) => tr.f("M10: you used {} this round already", &[&place(tr, &p)]),
        Some(NotSpecial(p)) => tr.f(
            "M10: {} is an ordinary place: send a group there",
            &[&place(tr, &p)],
        ),
        Some(NoSlot(i)) => tr.f("M2: there is no slot {}", &[&i.saturating_add(1)]),
        Some(SlotTaken(i)) => {
            tr.f("M2: a group already stands on slot {}", &[&i.saturating_add(1)])
        }
        Some(EmptyGroup) => tr
            .t("M4: a group needs at least one mercenary")
            .into_owned(),
        Some(WrongSize { slot, group }) => tr.f(
            "M4: the slot is numbered {}, the group has {}: they must be equal",
            &[&slot, &group],
        ),
        Some(VeteranBarred { kind, place: p }) => tr.f(
            "M7: {} may not go to {}",
            &[&merc(tr, kind, 2), &place(tr, &p)],
        ),
        Some(Lacks(k)) => tr.f("M1: the reserve has too few {}", &[&merc(tr, k, 2)]),
        Some(PoachersRecruitsOnly) => tr.t("M1: the poachers send recruits only").into_owned(),
        Some(AssistantTaken(a)) => tr.f("M11: the {} is taken this round", &[&assistant(tr, a)]),
        Some(OneAssistant) => tr.t("M11: one assistant per seat a round").into_owned(),
        Some(NoRaidCard(i)) => tr.f(
            "M11: the Defender discards one of two face-up raid cards, not card {}",
            &[&i.saturating_add(1)],
        ),
        Some(RecallNotYours) => tr
            .t("M11: the Chief recalls one of your own groups")
            .into_owned(),
        Some(NoEquipment) => tr.t("M9: no equipment token to spend").into_owned(),
        Some(SameKind) => tr.t("M9: the exchange is for another kind").into_owned(),
        Some(EladrinsOnly) => tr.t("Only an Eladrin seat does this").into_owned(),
        Some(NoSheet) => tr.t("M1: this seat has no sheet in this game").into_owned(),
        Some(MustAct) => tr
            .t("M1: a seat that can send a group, use a special place or take an assistant may not pass")
            .into_owned(),
        None => text.to_string(),
    }
}

fn end(tr: &Translations, code: &str) -> String {
    tr.t(code).into_owned()
}

fn owner(tr: &Translations, o: Owner) -> String {
    match o {
        Owner::Seat(s) => tr.f("seat {}", &[&s.saturating_add(1)]),
        Owner::Poachers => tr.t("the poachers").into_owned(),
    }
}

fn event(tr: &Translations, what: &ChapterValue) -> String {
    match what.get::<Told>() {
        Some(Told::Claimed {
            owner: o,
            place: p,
            card,
        }) => tr.f(
            "At {}, {} claims {} (M13)",
            &[&place(tr, &p), &owner(tr, o), &tr.t(&name_of(tr, &card))],
        ),
        Some(Told::Struck { name, demands }) => tr.f(
            "The raid: {} strikes, each seat discards {} (M14)",
            &[&tr.t(&name), &group(tr, &demands)],
        ),
        Some(Told::Flame { seat, up: 0, lost }) => tr.f(
            "The raid: seat {} discards {} (M14)",
            &[&seat.saturating_add(1), &group(tr, &lost)],
        ),
        // Nothing discarded (and a log written before discards were told).
        Some(Told::Flame { seat, up, lost }) if super::data::size(&lost) == 0 => tr.f(
            "The raid: seat {} can't discard {} demanded, Flame +{} (M14)",
            &[&seat.saturating_add(1), &up, &up],
        ),
        Some(Told::Flame { seat, up, lost }) => tr.f(
            "The raid: seat {} discards {}, can't discard {} demanded, Flame +{} (M14)",
            &[&seat.saturating_add(1), &group(tr, &lost), &up, &up],
        ),
        Some(Told::Fed { attempts }) => tr.p(
            "The Flame feeds Chaos: {} more corruption attempt in R6|The Flame feeds Chaos: {} more corruption attempts in R6",
            attempts as u64,
            &[&attempts],
        ),
        None => what.to_string(),
    }
}

/// The chapter's words (`text::chapter`).
pub const WORDS: ChapterWords = ChapterWords {
    action,
    refusal,
    end,
    event,
};
