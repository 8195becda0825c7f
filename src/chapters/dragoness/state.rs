//! The dragoness chapter's state: where she is, the Gate, the rooms revealed, the countdown,
//! the teams and what they hold. Saved, hashed, undone and restored with the game through the
//! chapter seams; nothing in it is hidden (the tokens and hazards are drawn when revealed).

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::At;
use crate::rules::chapter::ChapterState;

use super::ID;

/// An expedition team: an Eladrin army marked as one, and what it holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Team {
    /// The quests whose step I it revealed.
    pub quests: Vec<String>,
    /// It holds the loot *Draconis Ring* (D4).
    pub ring: bool,
    /// Invincible (D4) up to this cycle, included (0: not).
    pub invincible_until: u32,
    /// Food it still carries (laid on its tile before each upkeep).
    pub rations: u32,
    /// The relic tokens it carries, by quest (D13).
    pub relics: Vec<String>,
}

/// How a team left the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gone {
    /// Crossed by the dragoness (D4) or caught by the countdown (D12): a RIP token.
    Lost,
    /// Outside the chasm when the Gate was sealed (D6): off the board, its heroes alive.
    Removed,
    /// Out through the portal token of the Chamber of the Octuple.
    Escaped,
}

/// The chapter's state. Every field has a default, so a later version can add one and still
/// read older saves.
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Dragoness {
    /// Her cell on the route (an index), while she has not passed the Gate.
    pub at: usize,
    /// Her hex in the chasm, once past the Gate (D7).
    pub deep: Option<At>,
    /// The Gate is sealed (D6).
    pub sealed: bool,
    /// The rooms revealed, by id (D8).
    pub revealed: Vec<String>,
    /// She stands in the White Tomb for good (D10).
    pub entombed: bool,
    /// The countdown runs: set on the Guide turn after she entered the Tomb (D10).
    pub counting: bool,
    /// The countdown's slots, by colour index: a gem placed (D11).
    pub slots: Vec<bool>,
    /// The relic was placed (D13): the countdown is stopped for good.
    pub relic: Option<String>,
    /// The teams in play, by army id.
    pub teams: BTreeMap<u32, Team>,
    /// Teams gone: army id, its seat, where, how.
    pub gone: Vec<(u32, Option<u8>, At, Gone)>,
    /// Seats that act as Ghost-Guides (D6).
    pub ghosts: Vec<u8>,
    /// The Eladrin seat that guides this cycle, when the level gives the Guide's step to the
    /// Eladrins (none while Chaos guides, or a seat the level names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guide_seat: Option<u8>,
    /// Route cells whose token was taken (D3), by index.
    pub taken: Vec<usize>,
    /// The Guide moved her this turn.
    pub moved: bool,
    /// The portal token lies in the Chamber of the Octuple (D9).
    pub portal: bool,
    /// The quests whose step I was revealed (each once).
    pub quests: Vec<String>,
    /// Chaos armies guarding a room (D9): they hold it.
    pub guardians: Vec<u32>,
    /// Rooms whose find a team took.
    pub looted: Vec<String>,
}

impl Dragoness {
    /// Whether a room was revealed.
    pub fn is_revealed(&self, room: &str) -> bool {
        self.revealed.iter().any(|r| r == room)
    }
    /// The RIP tokens on the board.
    pub fn rips(&self) -> impl Iterator<Item = At> + '_ {
        self.gone.iter().filter(|g| g.3 == Gone::Lost).map(|g| g.2)
    }
    /// The teams' army ids, in order.
    pub fn team_ids(&self) -> Vec<u32> {
        self.teams.keys().copied().collect()
    }
    /// Gems placed on the countdown.
    pub fn placed(&self) -> usize {
        self.slots.iter().filter(|s| **s).count()
    }
}

/// Most teams, rooms, tokens a state may hold (a save is untrusted).
const MAX_ITEMS: usize = 1000;

impl ChapterState for Dragoness {
    const CHAPTER: &'static str = ID;
    fn check(&self) -> Result<(), String> {
        if self.teams.len() > 64
            || self.gone.len() > MAX_ITEMS
            || self.revealed.len() > MAX_ITEMS
            || self.taken.len() > MAX_ITEMS
            || self.quests.len() > MAX_ITEMS
            || self.guardians.len() > MAX_ITEMS
            || self.looted.len() > MAX_ITEMS
            || self.ghosts.len() > 8
            || self.slots.len() > 6
        {
            return Err("more teams, rooms, tokens or slots than a game can hold".into());
        }
        if self
            .ghosts
            .iter()
            .chain(self.guide_seat.iter())
            .any(|g| *g >= 8)
        {
            return Err("a Guide seat past the 8 a game has".into());
        }
        if self.at > MAX_ITEMS {
            return Err(format!("her cell {} is past any route", self.at));
        }
        if self
            .teams
            .values()
            .any(|t| t.quests.len() > 8 || t.relics.len() > 8)
        {
            return Err("a team with more than 8 quests".into());
        }
        Ok(())
    }
}
