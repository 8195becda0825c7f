//! The dragoness chapter's level fields (`ext: {"dragoness": (…)}` in a level): her route, the
//! chasm and its rooms, the quests, the tokens on her way and every number of rules D1–D13,
//! with the seed's values as defaults. Read by `level`, checked by `check` (a broken level names
//! the field), so the rules below never meet a route that goes nowhere.

use std::collections::BTreeSet;

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::catalogue::Check;
use crate::content::level_fields::{LevelFields, checks_from_lines};
use crate::content::{At, Stock};
use crate::content::{ContentDb, Level};
use crate::rules::chapter;

use super::ID;

/// What a cell of her route is (D1–D3, D6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellKind {
    /// Her own path, a red cell (D1): the Guide may only move her one cell.
    Red,
    /// An ordinary cell of the course (D2).
    Course,
    /// A cell with a mystery token (D3): the first to stop there reveals it.
    Mystery,
    /// A cell with a zone hazard (D3).
    Hazard,
    /// The Gate of the chasm (D6): the last cell of the route.
    Gate,
}

/// One cell of her route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteCell {
    /// The hex.
    pub at: At,
    /// What it is.
    pub kind: CellKind,
}

/// What a room of the chasm is (D7–D10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RoomKind {
    /// A room like the others.
    #[default]
    Plain,
    /// The White Tomb: her aim (D7); she stops there for good and the countdown starts (D10).
    Tomb,
    /// The Chamber of the Octuple (D9): its guardian, and the portal token, a way out.
    Octuple,
}

/// A hidden room of the chasm, revealed when the dragoness or a team enters it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Room {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its hex (a chasm hex).
    pub at: At,
    /// What it is.
    #[serde(default)]
    pub kind: RoomKind,
    /// Gems the Guide pays when she reveals it (D8).
    #[serde(default)]
    pub reveal: i32,
    /// Chaos units that guard it: met by the team that reveals it (D9: she kills them).
    #[serde(default)]
    pub guardian: Vec<String>,
    /// What the team that reveals it finds.
    #[serde(default)]
    pub find: Find,
}

/// What a token, a hazard or a room gives the team that resolves it (a Guide takes the gems).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Find {
    /// Display name.
    pub name: String,
    /// Gems for whoever resolves it (the Guide's camp, or the team's).
    pub gems: i32,
    /// Resources for the Eladrin outposts (a team only).
    pub stock: Stock,
    /// The loot *Draconis Ring* (a team only; D4 protects its holder).
    pub ring: bool,
    /// Cycles the team is invincible (D4), this one included (a team only).
    pub invincible: u32,
    /// Wounds to every unit of the team (a team only).
    pub wounds: u8,
    /// The relic token of this quest (a team only; D13 places it).
    pub relic: Option<String>,
}

/// A zone hazard card (D3): the Guide pays `cost` gems and wins it; a team wins it for its
/// wounds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hazard {
    /// What the Guide pays (D3).
    #[serde(default)]
    pub cost: i32,
    /// What it gives.
    pub find: Find,
}

/// A relic quest: step I revealed on its site, step II (the relic) placed in the White Tomb
/// (D13).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quest {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Where a team reveals step I.
    pub site: At,
    /// A team that revealed it is spared by the dragoness (D4: *Spirit of Okaënia*).
    #[serde(default)]
    pub protects: bool,
}

/// Cells an advance moves by active teams (D2): the first row whose `teams` is at least the
/// count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Speed {
    /// Up to this many active teams…
    pub teams: u8,
    /// …an advance moves her this many cells.
    pub cells: u8,
}

/// The chapter's level fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DragonessLevel {
    /// Her route in order: her red cells, the course, the Gate last.
    pub route: Vec<RouteCell>,
    /// The index in `route` of her starting cell (Maender-Alkoor).
    pub start: usize,
    /// The chasm's hexes, behind the Gate.
    pub chasm: Vec<At>,
    /// The hidden rooms.
    pub rooms: Vec<Room>,
    /// The relic quests.
    pub quests: Vec<Quest>,
    /// The hexes whose Eladrin armies at the start are the expedition's teams.
    pub teams: Vec<At>,
    /// Food each team carries at the start, eaten before any outpost's (R5.1, R5.3).
    pub rations: u32,
    /// D2: cells an advance moves, by active teams.
    pub speeds: Vec<Speed>,
    /// D1, D2: gems an advance gains.
    pub advance_gain: i32,
    /// D2: gems a brake costs.
    pub brake_cost: i32,
    /// D5: cells she moves on when her move ends on a pawn.
    pub pawn_extra: u8,
    /// D11: the countdown's colours (1 to 6).
    pub colours: Vec<String>,
    /// D4: unit kinds whose presence, alive, spares a team (the hero *Enoriel*).
    pub heroes: Vec<String>,
    /// D3: the mystery tokens, drawn at random when one is revealed.
    pub mysteries: Vec<Find>,
    /// D3: the zone hazards, drawn at random when one is revealed.
    pub hazards: Vec<Hazard>,
}

impl Default for DragonessLevel {
    fn default() -> Self {
        DragonessLevel {
            route: Vec::new(),
            start: 0,
            chasm: Vec::new(),
            rooms: Vec::new(),
            quests: Vec::new(),
            teams: Vec::new(),
            rations: 0,
            // The seed's table: 1–3 teams +4, 4 teams +3, 5–6 teams +2.
            speeds: vec![
                Speed { teams: 3, cells: 4 },
                Speed { teams: 4, cells: 3 },
                Speed { teams: 6, cells: 2 },
            ],
            advance_gain: 1,
            brake_cost: 1,
            pawn_extra: 1,
            colours: ["red", "blue", "green", "yellow", "white"]
                .map(String::from)
                .to_vec(),
            heroes: vec!["enoriel".into()],
            mysteries: Vec::new(),
            hazards: Vec::new(),
        }
    }
}

/// Hexes of a route or a chasm at most (a level is untrusted).
pub const MAX_CELLS: usize = 400;

/// Most rooms in the chasm, and most mystery tokens and hazard cards: the seed's have five,
/// four and two; fifty leaves room, and each is searched by the rules at every move.
pub const MAX_LIST: usize = 50;

/// Most expedition teams (their hexes), speed rows and hero kinds: the seed's three teams, three
/// rows and one hero, with room; a state holds at most as many teams.
pub const MAX_TEAMS: usize = 16;

/// The countdown's colours at most: a d6 draws them (D11).
pub const MAX_COLOURS: usize = 6;

/// The most gems a find gives or takes, a hazard costs or a room's reveal takes: the seed's
/// are 1 to 3; twenty is generous and every sum of them stays far inside an `i32`.
pub const MAX_GEMS: i32 = 20;

/// The most of each resource a find gives the outposts: the seed's give 2.
pub const MAX_FIND_STOCK: u32 = 100;

/// The most cycles a find makes a team invincible (D4): the seed's give 2.
pub const MAX_INVINCIBLE: u32 = 20;

/// The most wounds a find deals each unit of a team: the seed's deal 1.
pub const MAX_WOUNDS: u8 = 10;

/// What is wrong with a find at field `f`; `quest` says whether a quest id is the level's.
fn check_find(f: &str, x: &Find, quest: impl Fn(&str) -> bool, out: &mut Vec<String>) {
    if !(-MAX_GEMS..=MAX_GEMS).contains(&x.gems) {
        out.push(format!(
            "{f}.gems: -{MAX_GEMS} to {MAX_GEMS}, not {}",
            x.gems
        ));
    }
    if let Some(n) = x.stock.0.iter().find(|n| **n > MAX_FIND_STOCK) {
        out.push(format!(
            "{f}.stock: at most {MAX_FIND_STOCK} of each, not {n}"
        ));
    }
    if x.invincible > MAX_INVINCIBLE {
        out.push(format!(
            "{f}.invincible: at most {MAX_INVINCIBLE} cycles, not {}",
            x.invincible
        ));
    }
    if x.wounds > MAX_WOUNDS {
        out.push(format!(
            "{f}.wounds: at most {MAX_WOUNDS}, not {}",
            x.wounds
        ));
    }
    if let Some(q) = &x.relic
        && !quest(q.as_str())
    {
        out.push(format!("{f}.relic: no quest `{q}`"));
    }
}

impl DragonessLevel {
    /// D2: cells an advance moves with `teams` active teams (the last row beyond the table).
    pub fn speed(&self, teams: usize) -> u8 {
        self.speeds
            .iter()
            .find(|s| teams <= s.teams as usize)
            .or(self.speeds.last())
            .map_or(1, |s| s.cells)
    }
    /// The Gate's hex (the route's last cell).
    pub fn gate(&self) -> Option<Hex> {
        self.route.last().map(|c| hex(c.at))
    }
    /// Whether a hex is in the chasm (the Gate included: who stands on it is inside).
    pub fn inside(&self, h: Hex) -> bool {
        self.gate() == Some(h) || self.chasm.iter().any(|a| hex(*a) == h)
    }
    /// The room at a hex.
    pub fn room_at(&self, h: Hex) -> Option<&Room> {
        self.rooms.iter().find(|r| hex(r.at) == h)
    }
    /// The White Tomb.
    pub fn tomb(&self) -> Option<&Room> {
        self.rooms.iter().find(|r| r.kind == RoomKind::Tomb)
    }

    /// What is wrong with these fields, each naming its field.
    pub fn check(&self, on_map: impl Fn(Hex) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        if self.route.len() < 2 || self.route.len() > MAX_CELLS {
            out.push(format!(
                "route: 2 to {MAX_CELLS} cells, not {}",
                self.route.len()
            ));
        }
        if self.start >= self.route.len() {
            out.push(format!(
                "start: {} is past the route's last cell",
                self.start
            ));
        }
        if self.route.last().is_some_and(|c| c.kind != CellKind::Gate) {
            out.push("route: its last cell is the Gate (D6)".into());
        }
        let gates = self
            .route
            .iter()
            .filter(|c| c.kind == CellKind::Gate)
            .count();
        if gates > 1 {
            out.push(format!("route: one Gate, not {gates}"));
        }
        let mut seen = BTreeSet::new();
        for (i, c) in self.route.iter().enumerate() {
            if !seen.insert(c.at) {
                out.push(format!("route[{i}]: {:?} is already on the route", c.at));
            }
            if !on_map(hex(c.at)) {
                out.push(format!("route[{i}]: {:?} is not on the map", c.at));
            }
        }
        for w in self.route.windows(2) {
            // Off the map is said above; a distance to a cell far off it could overflow.
            if on_map(hex(w[0].at))
                && on_map(hex(w[1].at))
                && hex(w[0].at).unsigned_distance_to(hex(w[1].at)) != 1
            {
                out.push(format!(
                    "route: {:?} and {:?} follow each other but are not neighbours",
                    w[0].at, w[1].at
                ));
            }
        }
        if self.chasm.len() > MAX_CELLS {
            out.push(format!("chasm: at most {MAX_CELLS} hexes"));
        }
        for (i, a) in self.chasm.iter().enumerate() {
            if !on_map(hex(*a)) {
                out.push(format!("chasm[{i}]: {a:?} is not on the map"));
            }
            if self.route.iter().any(|c| c.at == *a) {
                out.push(format!("chasm[{i}]: {a:?} is on the route"));
            }
        }
        if self.rooms.len() > MAX_LIST {
            out.push(format!("rooms: at most {MAX_LIST}"));
        }
        let tombs = self
            .rooms
            .iter()
            .filter(|r| r.kind == RoomKind::Tomb)
            .count();
        if tombs != 1 {
            out.push(format!("rooms: one White Tomb (kind: Tomb), not {tombs}"));
        }
        let mut ids = BTreeSet::new();
        for (i, r) in self.rooms.iter().enumerate() {
            if !ids.insert(r.id.clone()) {
                out.push(format!("rooms[{i}]: the id `{}` is used twice", r.id));
            }
            if !self.chasm.contains(&r.at) {
                out.push(format!(
                    "rooms[{i}] ({}): {:?} is not a chasm hex",
                    r.id, r.at
                ));
            }
            if !(0..=MAX_GEMS).contains(&r.reveal) {
                out.push(format!("rooms[{i}] ({}): reveal is 0 to {MAX_GEMS}", r.id));
            }
            if r.guardian.len() > 10 {
                out.push(format!("rooms[{i}] ({}): at most 10 guardians", r.id));
            }
        }
        // The walk from the Gate steps to neighbours: only on hexes known to be on the map
        // (a Gate at `i32::MAX` has neighbours past it).
        let on_the_map = self
            .route
            .iter()
            .map(|c| c.at)
            .chain(self.chasm.iter().copied());
        let reach = if on_the_map.clone().all(|a| on_map(hex(a))) {
            self.reachable()
        } else {
            BTreeSet::new()
        };
        for (i, r) in self.rooms.iter().enumerate() {
            if !reach.contains(&r.at) {
                out.push(format!(
                    "rooms[{i}] ({}): no way to it from the Gate through the chasm",
                    r.id
                ));
            }
        }
        let quest = |q: &str| self.quests.iter().any(|x| x.id == q);
        for (i, r) in self.rooms.iter().enumerate() {
            check_find(&format!("rooms[{i}].find"), &r.find, quest, &mut out);
        }
        for (i, m) in self.mysteries.iter().enumerate() {
            check_find(&format!("mysteries[{i}]"), m, quest, &mut out);
        }
        for (i, h) in self.hazards.iter().enumerate() {
            check_find(&format!("hazards[{i}].find"), &h.find, quest, &mut out);
            if !(0..=MAX_GEMS).contains(&h.cost) {
                out.push(format!(
                    "hazards[{i}].cost: 0 to {MAX_GEMS}, not {}",
                    h.cost
                ));
            }
        }
        if self.teams.len() > MAX_TEAMS {
            out.push(format!("teams: at most {MAX_TEAMS}"));
        }
        for (i, t) in self.teams.iter().enumerate() {
            if !on_map(hex(*t)) {
                out.push(format!("teams[{i}]: {t:?} is not on the map"));
            }
        }
        if self.speeds.len() > MAX_TEAMS || self.heroes.len() > MAX_TEAMS {
            out.push(format!("speeds, heroes: at most {MAX_TEAMS} each"));
        }
        for (i, q) in self.quests.iter().enumerate() {
            if !on_map(hex(q.site)) {
                out.push(format!(
                    "quests[{i}] ({}): its site is not on the map",
                    q.id
                ));
            }
        }
        if self.quests.len() > 8 {
            out.push("quests: at most 8".into());
        }
        if self.speeds.is_empty() || self.speeds.iter().any(|s| s.cells == 0 || s.cells > 12) {
            out.push("speeds: at least one row, each 1 to 12 cells".into());
        }
        if !(1..=MAX_COLOURS).contains(&self.colours.len()) {
            out.push(format!(
                "colours: 1 to {MAX_COLOURS} colours (a d6 draws them), not {}",
                self.colours.len()
            ));
        }
        if self.pawn_extra > 3 {
            out.push("pawn_extra: 0 to 3".into());
        }
        for (name, v) in [
            ("advance_gain", self.advance_gain),
            ("brake_cost", self.brake_cost),
        ] {
            if !(0..=10).contains(&v) {
                out.push(format!("{name}: 0 to 10, not {v}"));
            }
        }
        if self.rations > 100 {
            out.push(format!("rations: 0 to 100, not {}", self.rations));
        }
        if self.mysteries.len() > MAX_LIST || self.hazards.len() > MAX_LIST {
            out.push(format!("mysteries, hazards: at most {MAX_LIST} each"));
        }
        let tokens = self.route.iter().any(|c| c.kind == CellKind::Mystery);
        if tokens && self.mysteries.is_empty() {
            out.push("mysteries: the route has mystery cells but no token to draw".into());
        }
        if self.route.iter().any(|c| c.kind == CellKind::Hazard) && self.hazards.is_empty() {
            out.push("hazards: the route has hazard cells but no card to draw".into());
        }
        out
    }

    /// The chasm hexes reachable from the Gate, walking chasm hexes only.
    pub fn reachable(&self) -> BTreeSet<At> {
        let mut seen = BTreeSet::new();
        let Some(gate) = self.gate() else {
            return seen;
        };
        let mut todo = vec![gate];
        seen.insert((gate.x, gate.y));
        while let Some(h) = todo.pop() {
            for n in h.all_neighbors() {
                if self.inside(n) && seen.insert((n.x, n.y)) {
                    todo.push(n);
                }
            }
        }
        seen
    }
}

/// The hex of a level's `At`.
pub fn hex(at: At) -> Hex {
    Hex::new(at.0, at.1)
}

/// The chapter's fields of the level in play, typed when content loaded (the AI asks for them
/// at every candidate).
pub fn level(world: &World) -> std::sync::Arc<DragonessLevel> {
    chapter::level_fields::<DragonessLevel>(world)
}

impl LevelFields for DragonessLevel {
    const CHAPTER: &'static str = ID;
    fn check(&self, level: &Level, db: &ContentDb) -> Vec<Check> {
        let mut lines = self.check(|h: hexx::Hex| crate::content::on_map(&level.map, (h.x, h.y)));
        // A room's guardian wakes as Chaos units of this content (D9).
        for (i, r) in self.rooms.iter().enumerate() {
            for (k, unit) in r.guardian.iter().enumerate() {
                if db.unit(unit).is_none() {
                    lines.push(format!("rooms[{i}].guardian[{k}]: no unit `{unit}`"));
                }
            }
        }
        checks_from_lines(lines)
    }
    fn names(&self) -> Vec<(String, String)> {
        self.quests
            .iter()
            .map(|q| (q.id.clone(), q.name.clone()))
            .collect()
    }
}
