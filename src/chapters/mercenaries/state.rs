//! The chapter's state: each seat's sheet (reserve, equipment, Flame, glory, what it won), the
//! poachers' sheet, the places' slots and face-up cards, the decks, the assistants taken, the
//! raid cards and the round. Saved, hashed, undone and seen by the AI like the core's state;
//! nothing in it is hidden from anyone (the cards lie face up).

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::chapter::ChapterState;

use super::ID;
use super::data::{Assistant, Group, MAX_ITEMS};

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
    fn check(&self) -> Result<(), String> {
        let sheets = self.seats.values().chain([&self.poachers]);
        for s in sheets {
            if s.heroes.len() + s.dragons.len() + s.plots.len() + s.objectives.len() > 4 * MAX_ITEMS
                || s.reserve.iter().any(|n| *n > 10_000)
            {
                return Err("a sheet holds more than a game can".into());
            }
        }
        if self.seats.len() > 8
            || self.boards.len() > MAX_ITEMS
            || self.decks.values().any(|d| d.len() > MAX_ITEMS)
            || self.discards.values().any(|d| d.len() > MAX_ITEMS)
            || self.used.values().any(|d| d.len() > 8)
            || self.raid_deck.len() > MAX_ITEMS
            || self.raids.len() > 2
            || self
                .boards
                .values()
                .any(|b| b.slots.len() > 8 || b.cards.len() > 8)
        {
            return Err("more seats, places, cards or raids than a game can hold".into());
        }
        if self.assistants.values().any(|s| *s >= 8) {
            return Err("an assistant held by a seat past the 8 a game has".into());
        }
        Ok(())
    }
}
