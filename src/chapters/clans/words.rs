//! The chapter's words (`text::chapter`): its actions as buttons and log lines read them, its
//! refusals citing their rule, its events, in the player's language (French in
//! `assets/i18n/fr.ron`). Provinces, fjords, cards and monsters are named as the level names
//! them.

use crate::rules::chapter::ChapterValue;
use crate::text::Translations;
use crate::text::chapter::ChapterWords;

use super::battle::Told;
use super::data::{Fig, Slot, Track, name_of};
use super::state::{HIDDEN, Owner, Spot};
use super::{ClanAction, ClanRefusal};

/// A name from the level, translated.
pub fn named(tr: &Translations, id: &str) -> String {
    if id == HIDDEN {
        return tr.t("a hidden card").into_owned();
    }
    tr.t(&name_of(tr, id)).into_owned()
}

/// A figure's name.
pub fn fig(tr: &Translations, f: &Fig) -> String {
    match f {
        Fig::Warrior => tr.t("a warrior").into_owned(),
        Fig::Leader => tr.t("the leader").into_owned(),
        Fig::Ship => tr.t("the ship").into_owned(),
        Fig::Monster(m) => named(tr, m),
    }
}

/// A slot's kind.
pub fn slot(tr: &Translations, s: Slot) -> String {
    match s {
        Slot::Warriors => tr.t("warriors"),
        Slot::Leader => tr.t("leader"),
        Slot::Ship => tr.t("ship"),
        Slot::Monsters => tr.t("monster"),
        Slot::Clan => tr.t("clan"),
    }
    .into_owned()
}

/// A clan level's name.
pub fn track(tr: &Translations, t: Track) -> String {
    match t {
        Track::Rage => tr.t("Rage"),
        Track::Axes => tr.t("Axes"),
        Track::Horns => tr.t("Horns"),
    }
    .into_owned()
}

/// A spot's name.
pub fn spot(tr: &Translations, s: &Spot) -> String {
    named(tr, s.id())
}

/// A clan's name: its seat, or Chaos.
pub fn owner(tr: &Translations, o: Owner) -> String {
    match o {
        Owner::Seat(s) => tr.f("seat {}", &[&s.saturating_add(1)]),
        Owner::Chaos => tr.t("Chaos").into_owned(),
    }
}

fn action(tr: &Translations, act: &ChapterValue) -> String {
    match act.get::<ClanAction>() {
        Some(ClanAction::Invade { fig: f, to }) => {
            tr.f("Invade {} with {}", &[&spot(tr, &to), &fig(tr, &f)])
        }
        Some(ClanAction::March { fig: f, from, to }) => tr.f(
            "March {} from {} to {}",
            &[&fig(tr, &f), &named(tr, &from), &named(tr, &to)],
        ),
        Some(ClanAction::Upgrade {
            card,
            slot: i,
            invade,
        }) => {
            let mut s = tr.f(
                "Upgrade: {} on slot {} (C2)",
                &[&named(tr, &card), &i.saturating_add(1)],
            );
            if let Some(to) = invade {
                s.push_str(&tr.f(", invading {} (C5)", &[&spot(tr, &to)]));
            }
            s
        }
        Some(ClanAction::Quest { card }) => {
            tr.f("Commit to the quest {} (C9)", &[&named(tr, &card)])
        }
        Some(ClanAction::Pillage { province }) => {
            tr.f("Pillage {} (C13)", &[&named(tr, &province)])
        }
        Some(ClanAction::Join { fig: f, from }) => tr.f(
            "Answer the call: {} from {} (C14)",
            &[&fig(tr, &f), &named(tr, &from)],
        ),
        Some(ClanAction::Decline) => tr.t("Bring no one (C14)").into_owned(),
        Some(ClanAction::Play { card: Some(c) }) => {
            tr.f("Play {} face down (C17)", &[&named(tr, &c)])
        }
        Some(ClanAction::Play { card: None }) => tr.t("Play no card (C17)").into_owned(),
        None => act.to_string(),
    }
}

fn refusal(tr: &Translations, text: &ChapterValue) -> String {
    use ClanRefusal::*;
    match text.get::<ClanRefusal>() {
        Some(NoRage) => tr
            .t("C11: at 0 Rage a clan takes no action at all, not even a free one: pass")
            .into_owned(),
        Some(TooLittleRage { needs, has }) => {
            tr.f("C2: it costs {} Rage, the clan has {}", &[&needs, &has])
        }
        Some(NotInHand(c)) => tr.f("C2: {} is not in your hand", &[&named(tr, &c)]),
        Some(NotAnUpgrade(c)) => tr.f("C2: {} is not an upgrade card", &[&named(tr, &c)]),
        Some(NoSlot(i)) => tr.f(
            "C1: a sheet has 8 slots, not slot {}",
            &[&i.saturating_add(1)],
        ),
        Some(WrongSlot { slot: s, needs }) => tr.f(
            "C1: that is a {} slot; the card goes on a {} slot",
            &[&slot(tr, s), &slot(tr, needs)],
        ),
        Some(MonsterTaken(m)) => tr.f("C8: {} already serves a clan", &[&named(tr, &m)]),
        Some(NotInReserve(f)) => tr.f("C5: {} is not in your reserve", &[&fig(tr, &f)]),
        Some(NotItsFigure(_)) => tr
            .t("C5: only a warrior, leader, ship or monster upgrade brings a figure")
            .into_owned(),
        Some(NoSpot(s)) => tr.f("C13: there is no province or fjord {}", &[&s]),
        Some(WrongWater) => tr
            .t("Ships stand on fjords, every other figure in a province")
            .into_owned(),
        Some(VillagesFull(p)) => tr.f("C14: every village of {} is taken", &[&named(tr, &p)]),
        Some(HornsFull(n)) => tr.f(
            "Your Horns allow {} figures on the board: raise them first",
            &[&n],
        ),
        Some(NotAQuest(c)) => tr.f("C9: {} is not a quest card", &[&named(tr, &c)]),
        Some(AlreadyPillaged(p)) => {
            tr.f("C13: {} was pillaged already this cycle", &[&named(tr, &p)])
        }
        Some(NotThere(p)) => tr.f(
            "C13: none of your figures stands in {} or on a fjord beside it",
            &[&named(tr, &p)],
        ),
        Some(CallOpen) => tr
            .t("C14: a call to battle is open: answer it first")
            .into_owned(),
        Some(NoCall) => tr
            .t("C14: the call to battle does not ask you now")
            .into_owned(),
        Some(NotAdjacent(p)) => tr.f(
            "C14: no figure of yours in {}, or it does not border the province",
            &[&named(tr, &p)],
        ),
        Some(ShipsStay) => tr.t("C14: ships do not move").into_owned(),
        Some(NotInBattle) => tr.t("C17: you have no figure in this battle").into_owned(),
        Some(NoSheet) => tr.t("C1: this clan has no sheet in this game").into_owned(),
        None => text.to_string(),
    }
}

fn end(tr: &Translations, code: &str) -> String {
    tr.t(code).into_owned()
}

fn event(tr: &Translations, what: &ChapterValue) -> String {
    match what.get::<Told>() {
        Some(Told::Called { owner: o, province }) => tr.f(
            "{} pillages {}: the call to battle (C14)",
            &[&owner(tr, o), &named(tr, &province)],
        ),
        Some(Told::Battle {
            province,
            eladrins,
            chaos,
            winner,
        }) => {
            let who = match winner {
                Some(true) => tr.t("the Eladrins win"),
                Some(false) => tr.t("Chaos wins"),
                None => tr.t("a tie: every side falls"),
            };
            tr.f(
                "Battle for {}: Eladrins {} STR, Chaos {}: {} (C17)",
                &[&named(tr, &province), &eladrins, &chaos, &who],
            )
        }
        Some(Told::Turned {
            province,
            owner: o,
            card,
        }) => match card {
            Some(c) => tr.f(
                "Battle for {}: {} turns up {} (C17)",
                &[&named(tr, &province), &owner(tr, o), &named(tr, &c)],
            ),
            None => tr.f(
                "Battle for {}: {} played no card (C17)",
                &[&named(tr, &province), &owner(tr, o)],
            ),
        },
        Some(Told::Fallen {
            province,
            owner: o,
            figures,
        }) => tr.p(
            "Battle for {}: {} loses {} figure to Valhalla (C7)|Battle for {}: {} loses {} figures to Valhalla (C7)",
            figures as u64,
            &[&named(tr, &province), &owner(tr, o), &figures],
        ),
        Some(Told::Pillaged { owner: o, province }) => tr.f(
            "{} pillages {} (C13)",
            &[&owner(tr, o), &named(tr, &province)],
        ),
        Some(Told::Defended { owner: o, province }) => tr.f(
            "{} holds {} and takes its reward (C17)",
            &[&owner(tr, o), &named(tr, &province)],
        ),
        Some(Told::Quest {
            owner: o,
            card,
            met,
        }) => {
            if met {
                tr.f(
                    "{} fulfils the quest {} (C10)",
                    &[&owner(tr, o), &named(tr, &card)],
                )
            } else {
                tr.f(
                    "{} fails the quest {}, at no cost (C10)",
                    &[&owner(tr, o), &named(tr, &card)],
                )
            }
        }
        Some(Told::Released { owner: o, figures }) => tr.p(
            "{} gets {} figure back from Valhalla (C7)|{} gets {} figures back from Valhalla (C7)",
            figures as u64,
            &[&owner(tr, o), &figures],
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
