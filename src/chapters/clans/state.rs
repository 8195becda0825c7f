//! The chapter's state: each clan's sheet (levels, upgrade slots, reserve, Valhalla, hand,
//! quests), the figures on the board, the provinces' pillage tokens, the deck, and the call to
//! battle in progress. Saved, hashed, undone and seen by the AI like the core's state. Hidden:
//! each clan's hand and quests (C10: only their seat looks at them) and the cards chosen for a
//! battle until it is resolved (C17); `seen_by` blanks them for everyone else, Chaos' AI
//! included, and the deck for all.

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::chapter::{ChapterState, StateCheck, Viewer};

use super::ID;
use super::data::{CardKind, ClanLevel, Fig, SHEET, Slot, Track};

/// The most battles a clan may have won, or provinces pillaged, in one cycle as a save holds
/// it: a tie or a defence leaves a province open to another pillage, so only the actions of a
/// cycle bound them; a million is past any, and the counts only go up by one.
pub const MAX_TALLY: u32 = 1_000_000;

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
    fn check(&self, cx: &StateCheck<'_>) -> Result<(), String> {
        let lvl = cx.fields::<ClanLevel>()?;
        let seats = cx.seats;
        let in_play = |f: &str, o: Owner| match o {
            Owner::Seat(seat) if seat >= seats => {
                Err(format!("{f}: seat {seat}, the save has {seats} seats"))
            }
            _ => Ok(()),
        };
        for o in self.sheets.keys() {
            in_play(&format!("sheets[{o:?}]"), *o)?;
        }
        let has_sheet = |f: &str, o: Owner| {
            if self.sheets.contains_key(&o) {
                Ok(())
            } else {
                Err(format!("{f}: {o:?} has no sheet"))
            }
        };
        // The deck's make-up: a card is in one place at a time (the deck, the discard, a hand,
        // the quests, a slot), so no more of a card lie about than its copies. A hidden card
        // (`HIDDEN`, in a copy the window's AI thinks on) takes a place but names none.
        let deck = lvl.deck();
        let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &deck {
            *copies.entry(c.as_str()).or_default() += 1;
        }
        let mut places = 0usize;
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut lies = |f: &str, id: &str| -> Result<(), String> {
            places += 1;
            if places > deck.len() {
                return Err(format!(
                    "{f}: more cards in the save than the level's deck has ({})",
                    deck.len()
                ));
            }
            if id == HIDDEN {
                return Ok(());
            }
            let Some((key, most)) = copies.get_key_value(id) else {
                return Err(format!("{f}: no card `{id}` in the level"));
            };
            let n = seen.entry(*key).or_default();
            *n += 1;
            if *n > *most {
                return Err(format!("{f}: a card `{id}` more than the deck's {most}"));
            }
            Ok(())
        };
        for (name, pile) in [("deck", &self.deck), ("discard", &self.discard)] {
            for (i, c) in pile.iter().enumerate() {
                lies(&format!("{name}[{i}]"), c.as_str())?;
            }
        }
        // Each clan's figures: the warriors, leaders and ships it started with (they go from
        // the reserve to the board to Valhalla and back, never more), and the monsters its
        // slots call (C6, C8), one each.
        let started = [
            (Fig::Warrior, lvl.start.warriors),
            (Fig::Leader, lvl.start.leaders),
            (Fig::Ship, lvl.start.ships),
        ];
        let most_figures = started
            .iter()
            .fold(0usize, |n, (_, k)| n.saturating_add(*k as usize))
            .saturating_add(2);
        if self.board.len() > most_figures.saturating_mul(self.sheets.len()) {
            return Err(format!(
                "board: {} figures, more than the clans have",
                self.board.len()
            ));
        }
        for (o, sh) in &self.sheets {
            let f = format!("sheets[{o:?}]");
            for t in Track::ALL {
                let top = lvl.levels.of(t).len().saturating_sub(1);
                let l = sh.level(t);
                if l as usize > top {
                    return Err(format!(
                        "{f}.levels[{}]: level {l}, the track's top is {top}",
                        t.ix()
                    ));
                }
            }
            if sh.slots.len() != SHEET.len() {
                return Err(format!("{f}.slots: {} slots, not 8 (C1)", sh.slots.len()));
            }
            for (i, c) in sh.slots.iter().enumerate() {
                let Some(c) = c else { continue };
                let at = format!("{f}.slots[{i}]");
                lies(&at, c.as_str())?;
                // C2, C6: an upgrade on a slot of its kind, a monster on a monster slot.
                let fits = match lvl.card(c).map(|x| &x.kind) {
                    Some(CardKind::Upgrade { slot, .. }) => *slot == SHEET[i],
                    Some(CardKind::Monster(_)) => SHEET[i] == Slot::Monsters,
                    _ => false,
                };
                if !fits {
                    return Err(format!(
                        "{at}: `{c}` does not go on a {:?} slot (C2)",
                        SHEET[i]
                    ));
                }
            }
            let hand_max = lvl.hand_max.max(lvl.start.hand) as usize;
            if sh.hand.len() > hand_max {
                return Err(format!(
                    "{f}.hand: {} cards, a hand holds {hand_max} at most",
                    sh.hand.len()
                ));
            }
            for (i, c) in sh.hand.iter().enumerate() {
                lies(&format!("{f}.hand[{i}]"), c.as_str())?;
            }
            for (i, c) in sh.quests.iter().enumerate() {
                let at = format!("{f}.quests[{i}]");
                lies(&at, c.as_str())?;
                let quest = matches!(lvl.card(c).map(|x| &x.kind), Some(CardKind::Quest(_)));
                if c != HIDDEN && !quest {
                    return Err(format!("{at}: `{c}` is not a quest (C9)"));
                }
            }
            if sh.reserve.len() > most_figures || sh.valhalla.len() > most_figures {
                return Err(format!(
                    "{f}: more figures in its reserve or Valhalla than a clan has"
                ));
            }
            let on_board = self.board.iter().filter(|p| p.owner == *o).map(|p| &p.fig);
            let figures = sh.reserve.iter().chain(&sh.valhalla).chain(on_board);
            let mut count: BTreeMap<&Fig, u32> = BTreeMap::new();
            for fig in figures {
                let n = count.entry(fig).or_default();
                *n = n.saturating_add(1);
            }
            for (fig, n) in count {
                let most = match fig {
                    Fig::Monster(m) => {
                        if lvl.monster(m).is_none() {
                            return Err(format!("{f}: no monster `{m}` in the level"));
                        }
                        // Its card on one of the clan's slots calls it (C6).
                        let called = sh.slots.iter().flatten().any(|c| {
                            lvl.card(c)
                                .is_some_and(|x| x.kind == CardKind::Monster(m.clone()))
                        });
                        u32::from(called)
                    }
                    _ => started
                        .iter()
                        .find(|(k, _)| k == fig)
                        .map_or(0, |(_, k)| *k),
                };
                if n > most {
                    return Err(format!(
                        "{f}: {n} figures {fig:?} in its reserve, on the board and in \
                         Valhalla, the clan has {most}"
                    ));
                }
            }
            if sh.pillaged as usize > lvl.provinces.len() {
                return Err(format!(
                    "{f}.pillaged: {}, the level has {} provinces",
                    sh.pillaged,
                    lvl.provinces.len()
                ));
            }
            if sh.won > MAX_TALLY {
                return Err(format!("{f}.won: at most {MAX_TALLY}, not {}", sh.won));
            }
        }
        for (i, p) in self.board.iter().enumerate() {
            let f = format!("board[{i}]");
            has_sheet(&format!("{f}.owner"), p.owner)?;
            let fits = match &p.at {
                Spot::Province(id) => lvl.province(id).is_some() && p.fig != Fig::Ship,
                Spot::Fjord(id) => lvl.fjord(id).is_some() && p.fig == Fig::Ship,
            };
            if !fits {
                return Err(format!(
                    "{f}.at: no {} `{}` for a {:?} (ships stand on fjords only)",
                    match p.at {
                        Spot::Province(_) => "province",
                        Spot::Fjord(_) => "fjord",
                    },
                    p.at.id(),
                    p.fig
                ));
            }
        }
        if self.pillaged.len() > lvl.provinces.len() {
            return Err(format!(
                "pillaged: {} provinces, the level has {}",
                self.pillaged.len(),
                lvl.provinces.len()
            ));
        }
        for (i, id) in self.pillaged.iter().enumerate() {
            if lvl.province(id).is_none() {
                return Err(format!("pillaged[{i}]: no province `{id}` in the level"));
            }
            if self.pillaged[..i].contains(id) {
                return Err(format!("pillaged[{i}]: `{id}` is listed twice (C13)"));
            }
        }
        if let Some(c) = &self.call {
            if lvl.province(&c.province).is_none() {
                return Err(format!(
                    "call.province: no province `{}` in the level",
                    c.province
                ));
            }
            has_sheet("call.pillager", c.pillager)?;
            if c.order.len() > self.sheets.len() {
                return Err(format!(
                    "call.order: {} clans, the save has {}",
                    c.order.len(),
                    self.sheets.len()
                ));
            }
            for (i, o) in c.order.iter().enumerate() {
                has_sheet(&format!("call.order[{i}]"), *o)?;
                if c.order[..i].contains(o) {
                    return Err(format!("call.order[{i}]: {o:?} is asked twice"));
                }
            }
            if c.at > c.order.len() {
                return Err(format!(
                    "call.at: {}, past the {} clans asked",
                    c.at,
                    c.order.len()
                ));
            }
            if c.declined as usize > self.sheets.len() {
                return Err(format!(
                    "call.declined: {}, the save has {} clans",
                    c.declined,
                    self.sheets.len()
                ));
            }
            if c.stage == Stage::Gather && !c.picks.is_empty() {
                return Err("call.picks: cards picked while the clans gather (C17)".into());
            }
            for (o, pick) in &c.picks {
                let f = format!("call.picks[{o:?}]");
                if !c.order.contains(o) {
                    return Err(format!("{f}: {o:?} is not in the battle"));
                }
                // A card picked stays in its hand until the battle is resolved (C17).
                if let Some(card) = pick
                    && !self.sheets.get(o).is_some_and(|s| s.hand.contains(card))
                {
                    return Err(format!("{f}: `{card}` is not in its hand"));
                }
            }
        }
        Ok(())
    }
}
