//! The decks (events, chaos, research, artifacts, exploration), research under way, the portal,
//! and the lasting modifiers technologies and artifacts grant.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use hexx::Hex;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::rng::GameRng;
use crate::content::{ContentDb, Stock};

/// A deck of card ids: draw from the end of `draw`, discards go to `discard`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    /// Face down, the top is the last element.
    pub draw: Vec<String>,
    /// Face up.
    pub discard: Vec<String>,
}

impl Deck {
    /// A shuffled deck.
    pub fn new(mut cards: Vec<String>, rng: &mut GameRng) -> Deck {
        cards.shuffle(rng.inner());
        Deck {
            draw: cards,
            discard: Vec::new(),
        }
    }
    /// Draws the top card; when the pile is empty the discards are shuffled back in first.
    pub fn draw(&mut self, rng: &mut GameRng) -> Option<String> {
        if self.draw.is_empty() && !self.discard.is_empty() {
            self.draw = std::mem::take(&mut self.discard);
            self.draw.shuffle(rng.inner());
        }
        self.draw.pop()
    }
    /// Puts a card back and shuffles the pile (R7.4).
    pub fn put_back_and_shuffle(&mut self, card: String, rng: &mut GameRng) {
        self.draw.push(card);
        self.draw.shuffle(rng.inner());
    }
}

/// All decks.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decks {
    /// Global events, drawn by the Eladrins (R2).
    pub events: Deck,
    /// Chaos cards, drawn by Chaos (R2).
    pub chaos: Deck,
    /// Research cards (R7); done cards leave it.
    pub research: Deck,
    /// Artifact cards (R7.3).
    pub artifacts: Deck,
    /// Exploration cards (R9.3).
    pub exploration: Deck,
}

/// Research (R7).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Research {
    /// The technology under way.
    pub current: Option<String>,
    /// Points gathered on it.
    pub points: u32,
    /// Resources placed on its card.
    pub placed: Stock,
    /// Cards drawn to choose from (R7.4).
    pub offer: Vec<String>,
    /// Technologies done, in order.
    pub done: Vec<String>,
    /// Labs analysing an artifact: (outpost id, building slot) → the artifact's tile (R7.3).
    pub analysing: BTreeMap<(u32, usize), Hex>,
}

impl Research {
    /// Resources the research under way still needs on its card (R7.2).
    pub fn missing(&self, db: &ContentDb) -> Stock {
        let Some(id) = &self.current else {
            return Stock::default();
        };
        let need = db.tech(id).map(|t| t.resources).unwrap_or_default();
        let mut missing = Stock::default();
        for (res, n) in need.iter() {
            missing.add(res, n.saturating_sub(self.placed.get(res)));
        }
        missing
    }
}

/// The portal (R8).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Portal {
    /// The outpost holding it.
    pub outpost: u32,
    /// Where it stands.
    pub hex: Hex,
    /// Cells built on each arch, from the base (R8.1).
    pub built: Vec<u32>,
    /// Crystals on the power track (R8.2).
    pub power: u32,
    /// Chaos corruption markers after them (R8.3).
    pub corruption: u32,
    /// Crystals put in this phase (R8.2: at most 3).
    pub crystals_this_phase: u32,
    /// Powered: *Portal operational* drawn.
    pub operational: bool,
}

/// What one cell of the power track holds, for the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PowerCell {
    /// Empty.
    Empty,
    /// A crystal.
    Crystal,
    /// A Chaos corruption marker.
    Corruption,
}

impl Portal {
    /// The power track cell by cell: crystals from the left, then corruption markers (R8 reading).
    pub fn track(&self, len: u32) -> Vec<PowerCell> {
        (0..len)
            .map(|i| {
                if i < self.power {
                    PowerCell::Crystal
                } else if i < self.power + self.corruption {
                    PowerCell::Corruption
                } else {
                    PowerCell::Empty
                }
            })
            .collect()
    }
}

/// Lasting bonuses from technologies and artifacts.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifiers {
    /// Extra storage in every outpost.
    pub storage: u32,
    /// Food healthy this much easier (R3.1).
    pub healthier_food: u8,
    /// Eladrin attack rolls easier by this.
    pub attack: u8,
    /// Extra hit points for Eladrin units.
    pub hp: u8,
    /// Extra research points per lab.
    pub lab_points: u32,
    /// Eladrin resistance rolls easier by this (R6.3).
    pub resistance: u8,
    /// Extra crystals per phase into the portal.
    pub portal_crystals: u32,
    /// Extra yield per improvement id.
    pub improvement_yield: BTreeMap<String, Stock>,
    /// Unlocked building and improvement ids.
    pub unlocked: BTreeSet<String>,
    /// Corruption attempts added to the next R6 step by cards.
    pub pending_attempts: u32,
}
