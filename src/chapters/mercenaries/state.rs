//! The chapter's state: each seat's sheet (reserve, equipment, Flame, glory, what it won), the
//! poachers' sheet, the places' slots and face-up cards, the decks, the assistants taken, the
//! raid cards and the round. Saved, hashed, undone and seen by the AI like the core's state;
//! nothing in it is hidden from anyone (the cards lie face up).

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::chapter::{ChapterState, StateCheck};

use super::ID;
use super::data::{Assistant, Card, Group, Merc, MercLevel, checked_size};

/// One list of cards a sheet won: its field, the list, which cards may lie in it.
type WonList<'a> = (&'a str, &'a Vec<String>, fn(&Card) -> bool);

/// Most of any one number on a sheet (mercenaries of a kind, equipment tokens, Flame, glory):
/// gains stop there (`add_up`), and a save holding more is refused. A game reaches a few
/// dozen; a million leaves modders all the room they want, and nine sheets' Flame summed stays
/// far inside a `u32`.
pub const MAX_SHEET: u32 = 1_000_000;

/// The highest round marker a save may hold: a round a cycle, and no game plays a million.
pub const MAX_ROUND: u32 = 1_000_000;

/// `a + b` on a sheet: it stops at `MAX_SHEET`, so no gain, however often a level or a save
/// repeats it, overflows.
pub fn add_up(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(MAX_SHEET)
}

/// Who owns a group or a sheet: an Eladrin seat, or the poachers (Chaos).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Owner {
    /// An Eladrin seat.
    Seat(u8),
    /// The poachers: Chaos' seat.
    Poachers,
}

/// A seat's sheet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// Mercenaries in its reserve, by kind (`Merc::ALL`).
    pub reserve: Group,
    /// Equipment tokens (M9).
    pub equipment: u32,
    /// Flame (M10, M11, M14): what the raids feed Chaos.
    pub flame: u32,
    /// Glory won so far (dragons, plots, cards); heroes and objectives add theirs at the end.
    pub glory: u32,
    /// Heroes recruited (card ids).
    pub heroes: Vec<String>,
    /// Dragons freed (card ids).
    pub dragons: Vec<String>,
    /// Plots of the Reserves (card ids).
    pub plots: Vec<String>,
    /// Garrison objectives (card ids).
    pub objectives: Vec<String>,
}

impl Sheet {
    /// The cards it won (card ids): its dragons, heroes, plots and objectives, in that order.
    pub fn won(&self) -> impl Iterator<Item = &String> {
        self.dragons
            .iter()
            .chain(&self.heroes)
            .chain(&self.plots)
            .chain(&self.objectives)
    }
}

/// A group standing on a slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Whose.
    pub owner: Owner,
    /// Its mercenaries.
    pub group: Group,
}

/// A place's slots and face-up cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// A group on each slot, or none (same order as the place's `slots`).
    pub slots: Vec<Option<Standing>>,
    /// Face-up cards (card ids), from the left; none where claimed.
    pub cards: Vec<Option<String>>,
}

/// The chapter's state.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mercs {
    /// The Eladrin seats' sheets.
    pub seats: BTreeMap<u8, Sheet>,
    /// The poachers' sheet.
    pub poachers: Sheet,
    /// Each place's board, by place id.
    pub boards: BTreeMap<String, Board>,
    /// Each deck's cards still to draw (the top is the last).
    pub decks: BTreeMap<String, Vec<String>>,
    /// Each deck's discarded cards (M15), shuffled back in when it runs out.
    #[serde(default)]
    pub discards: BTreeMap<String, Vec<String>>,
    /// The special places each seat used this round (M10).
    #[serde(default)]
    pub used: BTreeMap<String, Vec<u8>>,
    /// The assistants taken this round, and by whom (M11).
    pub assistants: BTreeMap<Assistant, u8>,
    /// The raid deck still to deal (indices into the level's raids; the top is the last).
    pub raid_deck: Vec<usize>,
    /// The raid cards face up, the older first (M14).
    pub raids: Vec<usize>,
    /// The last assistant was taken: the action phase ends when its go-round does (M12).
    pub closing: bool,
    /// The round (M15: the round marker).
    pub round: u32,
}

impl Mercs {
    /// An owner's sheet.
    pub fn sheet(&self, o: Owner) -> Option<&Sheet> {
        match o {
            Owner::Seat(s) => self.seats.get(&s),
            Owner::Poachers => Some(&self.poachers),
        }
    }

    /// An owner's sheet, to change.
    pub fn sheet_mut(&mut self, o: Owner) -> Option<&mut Sheet> {
        match o {
            Owner::Seat(s) => self.seats.get_mut(&s),
            Owner::Poachers => Some(&mut self.poachers),
        }
    }

    /// The seat holding this assistant this round.
    pub fn holder(&self, a: Assistant) -> Option<u8> {
        self.assistants.get(&a).copied()
    }
}

impl ChapterState for Mercs {
    const CHAPTER: &'static str = ID;
    fn check(&self, cx: &StateCheck<'_>) -> Result<(), String> {
        let lvl = cx.fields::<MercLevel>()?;
        let seats = cx.seats;
        let seat_in_play = |f: &str, seat: u8| {
            if seat < seats {
                Ok(())
            } else {
                Err(format!("{f}: seat {seat}, the save has {seats} seats"))
            }
        };
        // Every card of the level by id, with its deck (ids are unique in a checked level).
        let cards: BTreeMap<&str, (&str, &Card)> = lvl
            .decks
            .iter()
            .flat_map(|(d, list)| list.iter().map(move |c| (c.id.as_str(), (d.as_str(), c))))
            .collect();
        // Where each card lies: a card is in one place at a time (a pile, a board, a sheet).
        let mut lies: BTreeMap<&str, String> = BTreeMap::new();
        let mut once = |id: &str, at: String| -> Result<(), String> {
            let Some((key, _)) = cards.get_key_value(id) else {
                return Err(format!("{at}: no card `{id}` in the level"));
            };
            if let Some(first) = lies.get(*key) {
                return Err(format!("{at}: the card `{id}` lies at {first} too"));
            }
            lies.insert(*key, at);
            Ok(())
        };
        for seat in self.seats.keys() {
            seat_in_play(&format!("seats[{seat}]"), *seat)?;
        }
        let sheets = self
            .seats
            .iter()
            .map(|(seat, sh)| (format!("seats[{seat}]"), sh))
            .chain([("poachers".to_string(), &self.poachers)]);
        for (f, sh) in sheets {
            for (i, n) in sh.reserve.iter().enumerate() {
                if *n > MAX_SHEET {
                    return Err(format!("{f}.reserve[{i}]: at most {MAX_SHEET}, not {n}"));
                }
            }
            for (name, n) in [
                ("equipment", sh.equipment),
                ("flame", sh.flame),
                ("glory", sh.glory),
            ] {
                if n > MAX_SHEET {
                    return Err(format!("{f}.{name}: at most {MAX_SHEET}, not {n}"));
                }
            }
            let lists: [WonList; 4] = [
                ("heroes", &sh.heroes, |c| c.hero.is_some()),
                ("dragons", &sh.dragons, |c| c.dragon.is_some()),
                ("plots", &sh.plots, |c| c.plot > 0),
                ("objectives", &sh.objectives, |c| c.objective.is_some()),
            ];
            // A card won lies on one sheet, in each of its lists that fits it (a dragon that
            // is a hero too).
            let mut won: BTreeMap<&str, String> = BTreeMap::new();
            for (name, list, fits) in lists {
                if list.len() > cards.len() {
                    return Err(format!(
                        "{f}.{name}: {} cards, the level has {}",
                        list.len(),
                        cards.len()
                    ));
                }
                let mut seen = BTreeSet::new();
                for (i, id) in list.iter().enumerate() {
                    let at = format!("{f}.{name}[{i}]");
                    let Some((_, c)) = cards.get(id.as_str()) else {
                        return Err(format!("{at}: no card `{id}` in the level"));
                    };
                    if !fits(c) {
                        return Err(format!("{at}: the card `{id}` does not go there"));
                    }
                    if !seen.insert(id.as_str()) {
                        return Err(format!("{at}: the card `{id}` is there twice"));
                    }
                    won.entry(id.as_str()).or_insert(at);
                }
            }
            for (id, at) in won {
                once(id, at)?;
            }
        }
        // The poachers send recruits only and keep no card they take (M1, M13 readings).
        for k in Merc::ALL.into_iter().filter(|k| k.veteran()) {
            let n = self.poachers.reserve[k.ix()];
            if n > 0 {
                return Err(format!(
                    "poachers.reserve[{}]: the poachers have recruits only, not {n} {k:?}",
                    k.ix()
                ));
            }
        }
        if self.boards.len() > lvl.places.len() {
            return Err(format!(
                "boards: {} boards, the level has {} places",
                self.boards.len(),
                lvl.places.len()
            ));
        }
        for (id, b) in &self.boards {
            let f = format!("boards[{id}]");
            let Some(p) = lvl.place(id).filter(|p| !p.kind.special()) else {
                return Err(format!("{f}: no ordinary place `{id}` in the level"));
            };
            if b.slots.len() != p.slots.len() || b.cards.len() != p.cards {
                return Err(format!(
                    "{f}: {} slots and {} cards, the place has {} and {}",
                    b.slots.len(),
                    b.cards.len(),
                    p.slots.len(),
                    p.cards
                ));
            }
            for (i, (on, number)) in b.slots.iter().zip(&p.slots).enumerate() {
                let Some(on) = on else { continue };
                let at = format!("{f}.slots[{i}]");
                match on.owner {
                    Owner::Seat(seat) => seat_in_play(&format!("{at}.owner"), seat)?,
                    Owner::Poachers if on.group[1..].iter().any(|n| *n > 0) => {
                        return Err(format!("{at}.group: the poachers send recruits only"));
                    }
                    Owner::Poachers => {}
                }
                // M4: a group's size is its slot's number.
                if checked_size(&on.group) != Some(*number) {
                    return Err(format!(
                        "{at}.group: {:?} on a slot numbered {number}",
                        on.group
                    ));
                }
            }
            for (i, c) in b.cards.iter().enumerate() {
                if let Some(c) = c {
                    once(c.as_str(), format!("{f}.cards[{i}]"))?;
                }
            }
        }
        for (name, piles) in [("decks", &self.decks), ("discards", &self.discards)] {
            if piles.len() > lvl.decks.len() {
                return Err(format!(
                    "{name}: {} decks, the level has {}",
                    piles.len(),
                    lvl.decks.len()
                ));
            }
            for (d, pile) in piles {
                let Some(list) = lvl.decks.get(d) else {
                    return Err(format!("{name}[{d}]: no deck `{d}` in the level"));
                };
                if pile.len() > list.len() {
                    return Err(format!(
                        "{name}[{d}]: {} cards, the deck has {}",
                        pile.len(),
                        list.len()
                    ));
                }
                for (i, c) in pile.iter().enumerate() {
                    let at = format!("{name}[{d}][{i}]");
                    if cards
                        .get(c.as_str())
                        .is_some_and(|(of, _)| *of != d.as_str())
                    {
                        return Err(format!("{at}: the card `{c}` is of another deck"));
                    }
                    once(c.as_str(), at)?;
                }
            }
        }
        if self.used.len() > lvl.places.len() {
            return Err(format!(
                "used: {} places, the level has {}",
                self.used.len(),
                lvl.places.len()
            ));
        }
        for (id, by) in &self.used {
            let f = format!("used[{id}]");
            if lvl.place(id).is_none_or(|p| !p.kind.special()) {
                return Err(format!("{f}: no special place `{id}` in the level"));
            }
            // Each seat is listed once (a place used again and again lists its seat once).
            if by.len() > seats as usize {
                return Err(format!("{f}: {} seats, the save has {seats}", by.len()));
            }
            for (i, seat) in by.iter().enumerate() {
                seat_in_play(&format!("{f}[{i}]"), *seat)?;
                if by[..i].contains(seat) {
                    return Err(format!("{f}[{i}]: seat {seat} is listed twice"));
                }
            }
        }
        let mut holders = BTreeSet::new();
        for (a, seat) in &self.assistants {
            let f = format!("assistants[{a:?}]");
            seat_in_play(&f, *seat)?;
            if !holders.insert(*seat) {
                return Err(format!("{f}: seat {seat} holds two assistants (M11)"));
            }
        }
        if self.raids.len() > 2 {
            return Err(format!(
                "raids: {} cards face up, two at most (M14)",
                self.raids.len()
            ));
        }
        if self.raid_deck.len() > lvl.raids.len() {
            return Err(format!(
                "raid_deck: {} cards, the level has {}",
                self.raid_deck.len(),
                lvl.raids.len()
            ));
        }
        // Each raid card is in the deck, face up, or discarded: never in two places.
        let mut dealt = BTreeSet::new();
        for (name, list) in [("raid_deck", &self.raid_deck), ("raids", &self.raids)] {
            for (i, r) in list.iter().enumerate() {
                if *r >= lvl.raids.len() {
                    return Err(format!(
                        "{name}[{i}]: raid card {r}, the level has {}",
                        lvl.raids.len()
                    ));
                }
                if !dealt.insert(*r) {
                    return Err(format!("{name}[{i}]: raid card {r} is dealt twice"));
                }
            }
        }
        if self.round > MAX_ROUND {
            return Err(format!("round: at most {MAX_ROUND}, not {}", self.round));
        }
        Ok(())
    }
}
