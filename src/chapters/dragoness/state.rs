//! The dragoness chapter's state: where she is, the Gate, the rooms revealed, the countdown,
//! the teams and what they hold. Saved, hashed, undone and restored with the game through the
//! chapter seams; nothing in it is hidden (the tokens and hazards are drawn when revealed).

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::At;
use crate::rules::chapter::{ChapterState, StateCheck};

use super::ID;
use super::data::{CellKind, DragonessLevel, MAX_COLOURS, MAX_INVINCIBLE, hex};

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

/// The longest game a save may hold, in cycles: a team's invincibility runs to a cycle, at most
/// this and a find's `MAX_INVINCIBLE` more.
pub const MAX_CYCLE: u32 = 1_000_000;

/// Seats a game has at most: a team's seat, a Ghost-Guide's, are its army's, which the level
/// gives (so not bounded by the players of the save, only by the 8 seats a game may have).
pub const MAX_SEATS: u8 = 8;

/// What is wrong with a list of ids at field `f`: more than `most`, an id `known` does not
/// know, or one listed twice.
fn check_ids(
    f: &str,
    ids: &[String],
    most: usize,
    known: impl Fn(&str) -> bool,
) -> Result<(), String> {
    if ids.len() > most {
        return Err(format!("{f}: {} entries, the level has {most}", ids.len()));
    }
    for (i, id) in ids.iter().enumerate() {
        if !known(id.as_str()) {
            return Err(format!("{f}[{i}]: no `{id}` in the level"));
        }
        if ids[..i].contains(id) {
            return Err(format!("{f}[{i}]: `{id}` is listed twice"));
        }
    }
    Ok(())
}

impl ChapterState for Dragoness {
    const CHAPTER: &'static str = ID;
    fn check(&self, cx: &StateCheck<'_>) -> Result<(), String> {
        let lvl = cx.fields::<DragonessLevel>()?;
        let cells = lvl.route.len();
        if self.at >= cells.max(1) {
            return Err(format!("at: cell {}, the route has {cells}", self.at));
        }
        if let Some(d) = self.deep
            && !lvl.inside(hex(d))
        {
            return Err(format!("deep: {d:?} is not in the chasm"));
        }
        let room = |id: &str| lvl.rooms.iter().any(|r| r.id == id);
        let quest = |id: &str| lvl.quests.iter().any(|q| q.id == id);
        check_ids("revealed", &self.revealed, lvl.rooms.len(), room)?;
        check_ids("looted", &self.looted, lvl.rooms.len(), room)?;
        check_ids("quests", &self.quests, lvl.quests.len(), quest)?;
        // D11: one slot a colour, and gems only once she lies in the White Tomb (D10).
        let colours = lvl.colours.len().clamp(1, MAX_COLOURS);
        if self.slots.len() > colours {
            return Err(format!(
                "slots: {} slots, the countdown has {colours} colours",
                self.slots.len()
            ));
        }
        if !self.entombed && self.placed() > 0 {
            return Err(format!(
                "slots: {} gems placed, and she is not in the White Tomb (D10)",
                self.placed()
            ));
        }
        if let Some(q) = &self.relic
            && !quest(q.as_str())
        {
            return Err(format!("relic: no quest `{q}` in the level"));
        }
        // The teams are the armies on the level's team hexes at the start (one a hex).
        if self.teams.len() > lvl.teams.len() {
            return Err(format!(
                "teams: {} teams, the level has {}",
                self.teams.len(),
                lvl.teams.len()
            ));
        }
        for (id, t) in &self.teams {
            let f = format!("teams[{id}]");
            check_ids(&format!("{f}.quests"), &t.quests, lvl.quests.len(), quest)?;
            check_ids(&format!("{f}.relics"), &t.relics, lvl.quests.len(), quest)?;
            if t.rations > lvl.rations {
                return Err(format!(
                    "{f}.rations: {}, the level gives {}",
                    t.rations, lvl.rations
                ));
            }
            if t.invincible_until > MAX_CYCLE + MAX_INVINCIBLE {
                return Err(format!(
                    "{f}.invincible_until: cycle {}, past any game",
                    t.invincible_until
                ));
            }
        }
        if self.gone.len() > lvl.teams.len() {
            return Err(format!(
                "gone: {} teams, the level has {}",
                self.gone.len(),
                lvl.teams.len()
            ));
        }
        for (i, (id, seat, at, _)) in self.gone.iter().enumerate() {
            let f = format!("gone[{i}]");
            if self.teams.contains_key(id) || self.gone[..i].iter().any(|g| g.0 == *id) {
                return Err(format!("{f}: the team {id} is still in play or gone twice"));
            }
            if let Some(s) = seat
                && *s >= MAX_SEATS
            {
                return Err(format!("{f}: seat {s}, a game has {MAX_SEATS}"));
            }
            if !crate::content::on_map(&cx.level.map, *at) {
                return Err(format!("{f}: {at:?} is not on the map"));
            }
        }
        if self.ghosts.len() > MAX_SEATS as usize {
            return Err(format!(
                "ghosts: {} seats, a game has {MAX_SEATS}",
                self.ghosts.len()
            ));
        }
        for (i, g) in self.ghosts.iter().chain(self.guide_seat.iter()).enumerate() {
            let f = if i < self.ghosts.len() {
                format!("ghosts[{i}]")
            } else {
                "guide_seat".to_string()
            };
            if *g >= MAX_SEATS {
                return Err(format!("{f}: seat {g}, a game has {MAX_SEATS}"));
            }
            if i < self.ghosts.len() && self.ghosts[..i].contains(g) {
                return Err(format!("{f}: seat {g} is listed twice"));
            }
        }
        // D3: a token is taken once, from a mystery or hazard cell.
        if self.taken.len() > cells {
            return Err(format!(
                "taken: {} cells, the route has {cells}",
                self.taken.len()
            ));
        }
        for (i, c) in self.taken.iter().enumerate() {
            let token = lvl
                .route
                .get(*c)
                .is_some_and(|x| matches!(x.kind, CellKind::Mystery | CellKind::Hazard));
            if !token {
                return Err(format!("taken[{i}]: cell {c} holds no token"));
            }
            if self.taken[..i].contains(c) {
                return Err(format!("taken[{i}]: cell {c} is listed twice"));
            }
        }
        // D9: a guardian a room, each room revealed once.
        if self.guardians.len() > lvl.rooms.len() {
            return Err(format!(
                "guardians: {} armies, the level has {} rooms",
                self.guardians.len(),
                lvl.rooms.len()
            ));
        }
        for (i, g) in self.guardians.iter().enumerate() {
            if self.guardians[..i].contains(g) {
                return Err(format!("guardians[{i}]: army {g} is listed twice"));
            }
        }
        Ok(())
    }
}
