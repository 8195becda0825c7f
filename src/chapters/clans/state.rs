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
use super::data::{CardKind, ClanLevel, Fig, MAX_ITEMS, SHEET, Track};

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
    /// Whether a card is hidden here (only in a viewer's copy, `seen_by`).
    pub fn holds_hidden(&self) -> bool {
        let hidden = |c: &String| c == HIDDEN;
        self.deck.iter().any(hidden)
            || self
                .sheets
                .values()
                .any(|s| s.hand.iter().any(hidden) || s.quests.iter().any(hidden))
            || self
                .call
                .as_ref()
                .is_some_and(|c| c.picks.values().flatten().any(hidden))
    }

    /// Each hidden card replaced by one drawn from what this copy's viewer has not seen: the
    /// deck's cards less every card in sight (slots, open hands and quests, the discard,
    /// picks already shown), shuffled with `rng`; a hidden quest is a quest card. Where the
    /// unseen cards run short (a state no deck explains), any card of the deck of that kind.
    pub fn guess(&mut self, lvl: &ClanLevel, rng: &mut crate::rules::GameRng) {
        let mut pool = lvl.deck();
        let seen = self
            .sheets
            .values()
            .flat_map(|s| s.slots.iter().flatten().chain(&s.hand).chain(&s.quests))
            .chain(&self.deck)
            .chain(&self.discard)
            .chain(self.call.iter().flat_map(|c| c.picks.values().flatten()));
        for c in seen {
            if let Some(i) = pool.iter().position(|p| p == c) {
                pool.swap_remove(i);
            }
        }
        for i in (1..pool.len()).rev() {
            let j = rng.below(i + 1);
            pool.swap(i, j);
        }
        let is_quest = |id: &str| matches!(lvl.card(id).map(|c| &c.kind), Some(CardKind::Quest(_)));
        let all = lvl.deck();
        let mut draw = |quest: bool, rng: &mut crate::rules::GameRng| -> String {
            let fits = |id: &String| !quest || is_quest(id);
            if let Some(i) = pool.iter().rposition(fits) {
                return pool.swap_remove(i);
            }
            let any: Vec<&String> = all.iter().filter(|c| fits(c)).collect();
            match any.len() {
                0 => HIDDEN.to_string(),
                n => any[rng.below(n)].clone(),
            }
        };
        // The cards that matter soonest first: those face down in a battle, then the hands.
        if let Some(c) = self.call.as_mut() {
            for pick in c.picks.values_mut().flatten() {
                if pick == HIDDEN {
                    *pick = draw(false, rng);
                }
            }
        }
        for s in self.sheets.values_mut() {
            for card in s.hand.iter_mut().filter(|c| *c == HIDDEN) {
                *card = draw(false, rng);
            }
            for card in s.quests.iter_mut().filter(|c| *c == HIDDEN) {
                *card = draw(true, rng);
            }
        }
        for card in self.deck.iter_mut().filter(|c| *c == HIDDEN) {
            *card = draw(false, rng);
        }
    }

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
    fn guess_unseen(world: &mut World) {
        let Some(st) = world.get_resource::<Clans>() else {
            return;
        };
        if !st.holds_hidden() {
            return;
        }
        let mut st = st.clone();
        let lvl = super::data::level(world);
        let mut rng = world.resource_mut::<crate::rules::GameRng>();
        st.guess(&lvl, &mut rng);
        world.insert_resource(st);
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
