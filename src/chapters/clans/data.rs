//! The chapter's fields of a level (`ext.clans`): the provinces with their villages and pillage
//! rewards, the fjords, the cards (upgrades, monsters, quests, battle cards), the monsters, the
//! figures' strength, the clan levels (Rage, Axes, Horns), what each clan starts with and what
//! Chaos' pillages feed. The seed gives the rules but almost no numbers: every one of them is
//! data here, with defaults a level may leave out. `check` refuses a level whose fields don't
//! hold together, naming the field.

use std::collections::BTreeSet;

use bevy::prelude::World;
use serde::{Deserialize, Serialize};

use crate::content::At;
use crate::content::catalogue::Check;
use crate::content::level_fields::{LevelFields, checks_from_lines};
use crate::content::{ContentDb, Level};
use crate::rules::chapter;
use crate::text::Translations;

use super::ID;

/// The kinds of upgrade slot on a clan sheet (C1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Slot {
    /// One slot: the warriors' upgrade.
    Warriors,
    /// One slot: the leader's upgrade.
    Leader,
    /// One slot: the ship's upgrade.
    Ship,
    /// Two slots: the clan's monsters (C6, C8).
    Monsters,
    /// Three slots: the clan's own upgrades.
    Clan,
}

/// The eight slots of a sheet, in order (C1: warriors 1, leader 1, ship 1, monsters 2, clan 3).
pub const SHEET: [Slot; 8] = [
    Slot::Warriors,
    Slot::Leader,
    Slot::Ship,
    Slot::Monsters,
    Slot::Monsters,
    Slot::Clan,
    Slot::Clan,
    Slot::Clan,
];

/// A figure of a clan.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Fig {
    /// A warrior.
    Warrior,
    /// The clan's leader.
    Leader,
    /// The clan's ship: only on a fjord, never moves (C14).
    Ship,
    /// A monster, by its id (C6).
    Monster(String),
}

impl Fig {
    /// The slot whose upgrade brings this figure onto the board (C5); a monster's is its own.
    pub fn slot(&self) -> Slot {
        match self {
            Fig::Warrior => Slot::Warriors,
            Fig::Leader => Slot::Leader,
            Fig::Ship => Slot::Ship,
            Fig::Monster(_) => Slot::Monsters,
        }
    }
}

/// The clan levels a pillage or a quest may raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Track {
    /// Rage each cycle.
    Rage,
    /// Glory for each battle won.
    Axes,
    /// Figures the clan may have on the board.
    Horns,
}

impl Track {
    /// All three, in order.
    pub const ALL: [Track; 3] = [Track::Rage, Track::Axes, Track::Horns];

    /// Its index in a clan's levels.
    pub fn ix(self) -> usize {
        self as usize
    }
}

/// A permanent benefit of an upgrade or a monster (C4: two in different slots both apply).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Boost {
    /// STR added to each warrior.
    pub warrior: u32,
    /// STR added to the leader.
    pub leader: u32,
    /// STR added to the ship.
    pub ship: u32,
    /// STR added to each monster.
    pub monster: u32,
    /// Rage more each cycle.
    pub rage: u32,
    /// Glory more for each battle won.
    pub win: u32,
    /// Glory for each figure released from Valhalla (C7).
    pub release: u32,
    /// Glory more for each province pillaged.
    pub pillage: u32,
}

impl Boost {
    /// Adds another boost (C4: benefits of the same kind stack), saturating: a level's numbers
    /// are bounded by its check, and a sum never wraps even where they are not.
    pub fn add(&mut self, o: &Boost) {
        self.warrior = self.warrior.saturating_add(o.warrior);
        self.leader = self.leader.saturating_add(o.leader);
        self.ship = self.ship.saturating_add(o.ship);
        self.monster = self.monster.saturating_add(o.monster);
        self.rage = self.rage.saturating_add(o.rage);
        self.win = self.win.saturating_add(o.win);
        self.release = self.release.saturating_add(o.release);
        self.pillage = self.pillage.saturating_add(o.pillage);
    }

    /// Each benefit by its field's name, for the check.
    fn fields(&self) -> [(&'static str, u32); 8] {
        [
            ("warrior", self.warrior),
            ("leader", self.leader),
            ("ship", self.ship),
            ("monster", self.monster),
            ("rage", self.rage),
            ("win", self.win),
            ("release", self.release),
            ("pillage", self.pillage),
        ]
    }
}

/// What a quest asks at the quest phase (C10, C12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Need {
    /// The highest total STR in one of these provinces (C12; a tie is not the highest).
    MostStrIn(Vec<String>),
    /// At least this many figures on the board.
    OnBoard(u32),
    /// At least this many battles won this cycle.
    Won(u32),
    /// At least this many provinces pillaged this cycle.
    Pillaged(u32),
}

/// A quest card's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quest {
    /// What it asks.
    pub need: Need,
    /// Glory when fulfilled.
    #[serde(default)]
    pub glory: u32,
    /// The clan level it raises when fulfilled.
    #[serde(default)]
    pub level: Option<Track>,
}

/// What a card is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardKind {
    /// An upgrade for a warriors, leader, ship or clan slot (C2, C4).
    Upgrade {
        /// Its slot.
        slot: Slot,
        /// Its benefit.
        boost: Boost,
    },
    /// A monster upgrade (C6): the monster joins the clan.
    Monster(String),
    /// A quest (C9).
    Quest(Quest),
    /// A battle card: its STR in a battle (C17).
    Battle,
}

/// A card of the clans' deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Unique id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// STR: what an upgrade costs in Rage (C2), what a battle card adds (C17).
    #[serde(default)]
    pub str: u32,
    /// Copies in the deck.
    #[serde(default = "one")]
    pub copies: u32,
    /// What it is.
    pub kind: CardKind,
}

fn one() -> u32 {
    1
}

/// A monster (C6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    /// Unique id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its STR.
    pub str: u32,
    /// Its power, while its card is on the sheet.
    #[serde(default)]
    pub boost: Boost,
}

/// What pillaging a province gives (C13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reward {
    /// Glory.
    Glory(u32),
    /// One level of a clan track.
    Level(Track),
}

/// A province: hexes of the map, some of them villages (C14), with its pillage token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Province {
    /// Unique id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its hexes.
    pub hexes: Vec<At>,
    /// Its village hexes, among its hexes: one figure each (C14); none: any number (C15).
    #[serde(default)]
    pub villages: Vec<At>,
    /// What an Eladrin seat's pillage gives.
    pub reward: Reward,
}

/// A fjord: water hexes beside provinces, where ships stand (C13, C17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fjord {
    /// Unique id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its hexes.
    pub hexes: Vec<At>,
}

/// The figures' base STR.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Strength {
    /// A warrior.
    pub warrior: u32,
    /// A leader.
    pub leader: u32,
    /// A ship.
    pub ship: u32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            warrior: 1,
            leader: 2,
            ship: 1,
        }
    }
}

/// What a clan starts with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Start {
    /// Warriors in the reserve.
    pub warriors: u32,
    /// Leaders in the reserve.
    pub leaders: u32,
    /// Ships in the reserve.
    pub ships: u32,
    /// Cards dealt.
    pub hand: u32,
}

impl Default for Start {
    fn default() -> Self {
        Start {
            warriors: 6,
            leaders: 1,
            ships: 1,
            hand: 4,
        }
    }
}

/// The clan levels: a value for each level, from level 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Levels {
    /// Rage a clan has at the start of each cycle.
    pub rage: Vec<u32>,
    /// Glory for each battle won.
    pub axes: Vec<u32>,
    /// Figures a clan may have on the board.
    pub horns: Vec<u32>,
}

impl Default for Levels {
    fn default() -> Self {
        Levels {
            rage: vec![5, 6, 7, 8],
            axes: vec![2, 3, 4, 6],
            horns: vec![4, 5, 6, 8],
        }
    }
}

impl Levels {
    /// The values of a track.
    pub fn of(&self, t: Track) -> &[u32] {
        match t {
            Track::Rage => &self.rage,
            Track::Axes => &self.axes,
            Track::Horns => &self.horns,
        }
    }

    /// A track's value at `level` (the top value past the top level).
    pub fn value(&self, t: Track, level: u8) -> u32 {
        let v = self.of(t);
        v.get(level as usize)
            .or(v.last())
            .copied()
            .unwrap_or_default()
    }
}

/// Chaos as a clan: what its pillages feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChaosClan {
    /// Corruption attempts added to the next R6 for each province Chaos pillages.
    pub attempts: u32,
    /// Rage more (or less) than the seats' at each cycle's start.
    pub rage: i32,
}

impl Default for ChaosClan {
    fn default() -> Self {
        ChaosClan {
            attempts: 1,
            rage: 0,
        }
    }
}

/// The chapter's fields of a level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClanLevel {
    /// The provinces.
    pub provinces: Vec<Province>,
    /// The fjords.
    pub fjords: Vec<Fjord>,
    /// The deck's cards.
    pub cards: Vec<Card>,
    /// The monsters.
    pub monsters: Vec<Monster>,
    /// The figures' base STR.
    pub strength: Strength,
    /// What each clan starts with.
    pub start: Start,
    /// Cards each clan draws at each cycle's start.
    pub draw: u32,
    /// Most cards in a hand.
    pub hand_max: u32,
    /// The clan levels.
    pub levels: Levels,
    /// Rage a march costs (reading: the seed's march, one figure to an adjacent province).
    pub march: u32,
    /// Chaos as a clan.
    pub chaos: ChaosClan,
}

impl Default for ClanLevel {
    fn default() -> Self {
        ClanLevel {
            provinces: Vec::new(),
            fjords: Vec::new(),
            cards: Vec::new(),
            monsters: Vec::new(),
            strength: Strength::default(),
            start: Start::default(),
            draw: 2,
            hand_max: 6,
            levels: Levels::default(),
            march: 1,
            chaos: ChaosClan::default(),
        }
    }
}

/// Most provinces, fjords, cards, monsters, hexes: levels are untrusted.
pub const MAX_ITEMS: usize = 64;

/// The most STR a figure, a card or a monster has at base, and the most a march costs: the
/// seed's are 1 to 5; twenty is generous, and a figure's STR with every slot's boost stays a
/// few hundred.
pub const MAX_STR: u32 = 20;

/// The most each benefit of an upgrade or a monster adds (STR, Rage, glory): the seed's are 1
/// or 2; twenty is generous, and eight slots of it stay far inside a `u32`.
pub const MAX_BOOST: u32 = 20;

/// The most glory a reward or a quest gives, and the most a clan level's value is: the seed's
/// are a few; a hundred is generous, and every sum of them stays far inside a `u32`.
pub const MAX_GLORY: u32 = 100;

/// The most figures a clan starts with, all kinds together: the seed's eight, with room; the
/// reserve is made of them, so a level can't ask for millions.
pub const MAX_FIGURES: u32 = 40;

/// The most cards a hand holds, a clan is dealt at the start or draws a cycle: the seed's are
/// 2 to 6.
pub const MAX_HAND: u32 = 20;

/// The most a quest may ask (figures, battles won, provinces pillaged): it is only compared,
/// and a hundred is past any cycle.
pub const MAX_NEED: u32 = 100;

/// The most corruption attempts one pillage by Chaos feeds (`chaos.attempts`), and the most
/// Rage Chaos has more or less than the seats (`chaos.rage`): the seed's are 1 and 0.
pub const MAX_CHAOS: u32 = 10;

/// The most copies of one card in the deck.
pub const MAX_COPIES: u32 = 16;

/// What is wrong with a boost at field `f` (each benefit at most `MAX_BOOST`).
fn check_boost(f: &str, b: &Boost, out: &mut Vec<String>) {
    for (name, n) in b.fields() {
        if n > MAX_BOOST {
            out.push(format!("{f}.{name}: at most {MAX_BOOST}, not {n}"));
        }
    }
}

/// Whether two sets of hexes touch.
fn borders(a: &[At], b: &[At]) -> bool {
    // In `i64`: a level's hexes are checked to be on its map, but this may be asked first.
    let neighbours = |x: &At, y: &At| {
        let (dq, dr) = (
            i64::from(x.0) - i64::from(y.0),
            i64::from(x.1) - i64::from(y.1),
        );
        dq.abs() + dr.abs() + (dq + dr).abs() == 2
    };
    a.iter().any(|x| b.iter().any(|y| neighbours(x, y)))
}

impl ClanLevel {
    /// The province with this id.
    pub fn province(&self, id: &str) -> Option<&Province> {
        self.provinces.iter().find(|p| p.id == id)
    }

    /// The fjord with this id.
    pub fn fjord(&self, id: &str) -> Option<&Fjord> {
        self.fjords.iter().find(|f| f.id == id)
    }

    /// The card with this id.
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }

    /// The monster with this id.
    pub fn monster(&self, id: &str) -> Option<&Monster> {
        self.monsters.iter().find(|m| m.id == id)
    }

    /// Whether two provinces are adjacent: a hex of one touches a hex of the other.
    pub fn adjacent(&self, a: &str, b: &str) -> bool {
        a != b
            && match (self.province(a), self.province(b)) {
                (Some(p), Some(q)) => borders(&p.hexes, &q.hexes),
                _ => false,
            }
    }

    /// The fjords beside a province (C13, C17).
    pub fn fjords_of(&self, province: &str) -> Vec<&str> {
        let Some(p) = self.province(province) else {
            return Vec::new();
        };
        self.fjords
            .iter()
            .filter(|f| borders(&f.hexes, &p.hexes))
            .map(|f| f.id.as_str())
            .collect()
    }

    /// The cards of the deck, each as many times as its copies (at most `MAX_COPIES`).
    pub fn deck(&self) -> Vec<String> {
        self.cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.id.clone(), c.copies.min(MAX_COPIES) as usize))
            .collect()
    }

    /// What does not hold together, a line each naming the field; `on_map` says whether a
    /// hex is on the level's map.
    pub fn check(&self, on_map: impl Fn(At) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        if self.provinces.is_empty() {
            out.push("provinces: none".into());
        }
        for (field, n) in [
            ("provinces", self.provinces.len()),
            ("fjords", self.fjords.len()),
            ("cards", self.cards.len()),
            ("monsters", self.monsters.len()),
        ] {
            if n > MAX_ITEMS {
                out.push(format!("{field}: at most {MAX_ITEMS}"));
            }
        }
        let mut ids = BTreeSet::new();
        let mut hexes = BTreeSet::new();
        for p in &self.provinces {
            let f = format!("provinces[{}]", p.id);
            if !ids.insert(p.id.as_str()) {
                out.push(format!("{f}: the id is used twice"));
            }
            if p.hexes.is_empty() || p.hexes.len() > MAX_ITEMS {
                out.push(format!("{f}.hexes: 1 to {MAX_ITEMS} hexes"));
            }
            for h in &p.hexes {
                if !on_map(*h) {
                    out.push(format!("{f}.hexes: {h:?} is not on the map"));
                }
                if !hexes.insert(*h) {
                    out.push(format!("{f}.hexes: {h:?} is in two provinces or fjords"));
                }
            }
            if p.villages.len() > MAX_ITEMS {
                out.push(format!("{f}.villages: at most {MAX_ITEMS}"));
            }
            for v in &p.villages {
                if !p.hexes.contains(v) {
                    out.push(format!("{f}.villages: {v:?} is not one of its hexes"));
                }
            }
            if let Reward::Glory(g) = p.reward
                && g > MAX_GLORY
            {
                out.push(format!("{f}.reward: at most {MAX_GLORY} glory"));
            }
        }
        for fj in &self.fjords {
            let f = format!("fjords[{}]", fj.id);
            if !ids.insert(fj.id.as_str()) {
                out.push(format!("{f}: the id is used twice"));
            }
            if fj.hexes.is_empty() || fj.hexes.len() > MAX_ITEMS {
                out.push(format!("{f}.hexes: 1 to {MAX_ITEMS} hexes"));
            }
            for h in &fj.hexes {
                if !on_map(*h) {
                    out.push(format!("{f}.hexes: {h:?} is not on the map"));
                }
                if !hexes.insert(*h) {
                    out.push(format!("{f}.hexes: {h:?} is in two provinces or fjords"));
                }
            }
        }
        let mut monsters = BTreeSet::new();
        for m in &self.monsters {
            if !monsters.insert(m.id.as_str()) {
                out.push(format!("monsters[{}]: the id is used twice", m.id));
            }
            if m.str > MAX_STR {
                out.push(format!("monsters[{}].str: at most {MAX_STR}", m.id));
            }
            check_boost(&format!("monsters[{}].boost", m.id), &m.boost, &mut out);
        }
        let mut cards = BTreeSet::new();
        for c in &self.cards {
            let f = format!("cards[{}]", c.id);
            if !cards.insert(c.id.as_str()) {
                out.push(format!("{f}: the id is used twice"));
            }
            if c.str > MAX_STR || c.copies > MAX_COPIES {
                out.push(format!(
                    "{f}: STR at most {MAX_STR}, copies at most {MAX_COPIES}"
                ));
            }
            match &c.kind {
                CardKind::Upgrade { slot, .. } if *slot == Slot::Monsters => {
                    out.push(format!(
                        "{f}.kind: a monster slot takes a Monster card (C6)"
                    ));
                }
                CardKind::Upgrade { boost, .. } => {
                    check_boost(&format!("{f}.kind.boost"), boost, &mut out);
                }
                CardKind::Monster(m) if !monsters.contains(m.as_str()) => {
                    out.push(format!("{f}.kind: no monster `{m}`"));
                }
                CardKind::Quest(q) => {
                    match &q.need {
                        Need::MostStrIn(ps) => {
                            if ps.is_empty() || ps.len() > MAX_ITEMS {
                                out.push(format!(
                                    "{f}.kind: a quest names 1 to {MAX_ITEMS} provinces"
                                ));
                            }
                            for p in ps {
                                if self.province(p).is_none() {
                                    out.push(format!("{f}.kind: no province `{p}`"));
                                }
                            }
                        }
                        Need::OnBoard(n) | Need::Won(n) | Need::Pillaged(n) => {
                            if *n > MAX_NEED {
                                out.push(format!("{f}.kind: a quest asks at most {MAX_NEED}"));
                            }
                        }
                    }
                    if q.glory > MAX_GLORY {
                        out.push(format!("{f}.kind: at most {MAX_GLORY} glory"));
                    }
                }
                _ => {}
            }
        }
        if self.cards.is_empty() {
            out.push("cards: none".into());
        }
        for t in Track::ALL {
            let v = self.levels.of(t);
            if v.is_empty() || v.len() > 16 || v.iter().any(|x| *x > MAX_GLORY) {
                out.push(format!(
                    "levels.{}: 1 to 16 values, each at most {MAX_GLORY}",
                    format!("{t:?}").to_lowercase()
                ));
            }
        }
        for (name, n, least) in [
            ("hand_max", self.hand_max, 1),
            ("draw", self.draw, 0),
            ("start.hand", self.start.hand, 0),
        ] {
            if !(least..=MAX_HAND).contains(&n) {
                out.push(format!("{name}: {least} to {MAX_HAND}, not {n}"));
            }
        }
        // Summed in u64: three u32 from a file may overflow a u32.
        let figures = [self.start.warriors, self.start.leaders, self.start.ships]
            .iter()
            .map(|n| u64::from(*n))
            .sum::<u64>();
        if figures > u64::from(MAX_FIGURES) {
            out.push(format!(
                "start: at most {MAX_FIGURES} figures (warriors, leaders and ships), not {figures}"
            ));
        }
        for (name, n) in [
            ("strength.warrior", self.strength.warrior),
            ("strength.leader", self.strength.leader),
            ("strength.ship", self.strength.ship),
            ("march", self.march),
        ] {
            if n > MAX_STR {
                out.push(format!("{name}: at most {MAX_STR}, not {n}"));
            }
        }
        if self.chaos.attempts > MAX_CHAOS {
            out.push(format!(
                "chaos.attempts: at most {MAX_CHAOS}, not {}",
                self.chaos.attempts
            ));
        }
        if self.chaos.rage.unsigned_abs() > MAX_CHAOS {
            out.push(format!(
                "chaos.rage: -{MAX_CHAOS} to {MAX_CHAOS}, not {}",
                self.chaos.rage
            ));
        }
        out
    }
}

/// The chapter's fields of the level in play, typed when content loaded (the AI asks for them
/// at every candidate).
pub fn level(world: &World) -> std::sync::Arc<ClanLevel> {
    chapter::level_fields::<ClanLevel>(world)
}

impl LevelFields for ClanLevel {
    const CHAPTER: &'static str = ID;
    fn check(&self, level: &Level, _db: &ContentDb) -> Vec<Check> {
        checks_from_lines(self.check(|a| crate::content::on_map(&level.map, a)))
    }
    fn names(&self) -> Vec<(String, String)> {
        let provinces = self
            .provinces
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()));
        let fjords = self.fjords.iter().map(|p| (p.id.clone(), p.name.clone()));
        let cards = self.cards.iter().map(|c| (c.id.clone(), c.name.clone()));
        let monsters = self.monsters.iter().map(|c| (c.id.clone(), c.name.clone()));
        provinces
            .chain(fjords)
            .chain(cards)
            .chain(monsters)
            .collect()
    }
}

/// A province's, fjord's, card's or monster's name from its id, as the level in play names
/// it; else the id.
pub fn name_of(tr: &Translations, id: &str) -> String {
    tr.chapters.name_of(ID, id)
}
