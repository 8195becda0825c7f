//! The chapter's state: each clan's sheet (levels, upgrade slots, reserve, Valhalla, hand,
//! quests), the figures on the board, the provinces' pillage tokens, the deck, and the call to
//! battle in progress. Saved, hashed, undone and seen by the AI like the core's state. Hidden:
//! each clan's hand and quests (C10: only their seat looks at them) and the cards chosen for a
//! battle until it is resolved (C17); `seen_by` blanks them for everyone else, Chaos' AI
//! included, and the deck for all.

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::chapter::{ChapterState, Viewer};

use super::ID;
use super::data::{Fig, MAX_ITEMS, SHEET, Track};

/// A card as a viewer who may not see it knows it.
pub const HIDDEN: &str = "?";

/// Who a sheet, a figure or a card belongs to: an Eladrin seat, or Chaos' clan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Owner {
    /// An Eladrin seat.
    Seat(u8),
    /// Chaos, a clan too (reading).
    Chaos,
}

impl Owner {
    /// Whether two owners fight on the same side (reading: the Eladrin seats together).
    pub fn side(self) -> bool {
        matches!(self, Owner::Seat(_))
    }

    /// Whether a viewer may see this owner's hidden cards.
    pub fn seen_by(self, v: Viewer) -> bool {
        match (v, self) {
            (Viewer::All, _) => true,
            (Viewer::Chaos, Owner::Chaos) => true,
            (Viewer::Seat(s), Owner::Seat(o)) => s == o,
            _ => false,
        }
    }
}

/// A clan's sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sheet {
    /// Its levels, by `Track` (Rage, Axes, Horns).
    pub levels: [u8; 3],
    /// The cards in its eight slots (`SHEET`), none where empty (C1).
    pub slots: Vec<Option<String>>,
    /// Figures in its reserve.
    pub reserve: Vec<Fig>,
    /// Its dead figures (C7).
    pub valhalla: Vec<Fig>,
    /// Its hand (hidden).
    pub hand: Vec<String>,
    /// Its quests, face down (hidden, C9, C10).
    pub quests: Vec<String>,
    /// Battles it won this cycle.
    pub won: u32,
    /// Provinces it pillaged this cycle.
    pub pillaged: u32,
}

impl Default for Sheet {
    fn default() -> Self {
        Sheet {
            levels: [0; 3],
            slots: vec![None; SHEET.len()],
            reserve: Vec::new(),
            valhalla: Vec::new(),
            hand: Vec::new(),
            quests: Vec::new(),
            won: 0,
            pillaged: 0,
        }
    }
}

impl Sheet {
    /// A level.
    pub fn level(&self, t: Track) -> u8 {
        self.levels[t.ix()]
    }
}

/// Where a figure stands.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Spot {
    /// In a province (in one of its villages, where it has any).
    Province(String),
    /// On a fjord (ships).
    Fjord(String),
}

impl Spot {
    /// The province or fjord's id.
    pub fn id(&self) -> &str {
        match self {
            Spot::Province(p) | Spot::Fjord(p) => p,
        }
    }
}

/// A figure on the board.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Placed {
    /// Whose.
    pub owner: Owner,
    /// Which.
    pub fig: Fig,
    /// Where.
    pub at: Spot,
}

/// Where a call to battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// C14: each clan in turn may bring one figure from an adjacent province.
    Gather,
    /// C17: each clan in the battle picks a card from its hand, face down.
    Cards,
}

/// A pillage in progress: the call to battle, then the cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// The province.
    pub province: String,
    /// Who pillages.
    pub pillager: Owner,
    /// Who is asked, in order (from the pillager's left round to the pillager, C14).
    pub order: Vec<Owner>,
    /// Whose say it is, in `order`.
    pub at: usize,
    /// Clans that said no in a row (C14 ends when nobody wants to add troops).
    pub declined: u32,
    /// The stage.
    pub stage: Stage,
    /// The cards picked for the battle (hidden until it is resolved), by clan; none: no card.
    pub picks: BTreeMap<Owner, Option<String>>,
}

impl Call {
    /// Whose say it is.
    pub fn asks(&self) -> Option<Owner> {
        self.order.get(self.at).copied()
    }
}

/// The chapter's state.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Clans {
    /// Each clan's sheet, the seats' and Chaos'.
    pub sheets: BTreeMap<Owner, Sheet>,
    /// The figures on the board, in a stable order.
    pub board: Vec<Placed>,
    /// The provinces already pillaged this cycle (their token on its *pillaged* side, C13).
    pub pillaged: Vec<String>,
    /// The deck, top last (hidden from everyone).
    pub deck: Vec<String>,
    /// The discard pile, shuffled back when the deck runs out.
    pub discard: Vec<String>,
    /// The call to battle in progress.
    pub call: Option<Call>,
}

impl Clans {
    /// An owner's sheet.
    pub fn sheet(&self, o: Owner) -> Option<&Sheet> {
        self.sheets.get(&o)
    }

    /// An owner's sheet, to change.
    pub fn sheet_mut(&mut self, o: Owner) -> Option<&mut Sheet> {
        self.sheets.get_mut(&o)
    }

    /// The figures standing on a spot.
    pub fn at<'a>(&'a self, spot: &'a Spot) -> impl Iterator<Item = &'a Placed> + 'a {
        self.board.iter().filter(move |p| p.at == *spot)
    }

    /// How many figures an owner has on the board.
    pub fn on_board(&self, o: Owner) -> usize {
        self.board.iter().filter(|p| p.owner == o).count()
    }
}

impl ChapterState for Clans {
    const CHAPTER: &'static str = ID;
    fn seen_by(&self, viewer: Viewer) -> Self {
        let mut s = self.clone();
        if viewer != Viewer::All {
            s.deck = vec![HIDDEN.to_string(); s.deck.len()];
        }
        for (o, sh) in s.sheets.iter_mut() {
            if !o.seen_by(viewer) {
                sh.hand = vec![HIDDEN.to_string(); sh.hand.len()];
                sh.quests = vec![HIDDEN.to_string(); sh.quests.len()];
            }
        }
        if let Some(c) = s.call.as_mut() {
            for (o, pick) in c.picks.iter_mut() {
                if !o.seen_by(viewer) && pick.is_some() {
                    *pick = Some(HIDDEN.to_string());
                }
            }
        }
        s
    }
    fn check(&self) -> Result<(), String> {
        if self.sheets.len() > 9
            || self.board.len() > 8 * MAX_ITEMS
            || self.deck.len() > 16 * MAX_ITEMS
            || self.discard.len() > 16 * MAX_ITEMS
            || self.pillaged.len() > MAX_ITEMS
        {
            return Err("more clans, figures or cards than a game can hold".into());
        }
        for s in self.sheets.values() {
            if s.slots.len() != SHEET.len() {
                return Err(format!(
                    "a clan sheet with {} slots, not 8 (C1)",
                    s.slots.len()
                ));
            }
            if s.reserve.len() + s.valhalla.len() > MAX_ITEMS
                || s.hand.len() > MAX_ITEMS
                || s.quests.len() > MAX_ITEMS
                || s.levels.iter().any(|l| *l > 16)
            {
                return Err("a clan sheet holds more than a game can".into());
            }
        }
        if let Some(c) = &self.call
            && (c.order.len() > 9 || c.at > c.order.len() || c.picks.len() > 9)
        {
            return Err("a call to battle with more clans than a game has".into());
        }
        Ok(())
    }
}
