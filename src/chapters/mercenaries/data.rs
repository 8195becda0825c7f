//! The chapter's fields of a level (`ext.mercenaries`): the places on the map with their slots
//! and decks (M2, M8, M10), the cards, the raid deck (M14), what each seat starts with, and
//! what Flame feeds Chaos. The seed gives almost no numbers (its slot counts, cards, starting
//! values and scoring are not stated): every one of them is data here, with defaults a level
//! may leave out. `check` refuses a level whose fields don't hold together, naming the field.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::At;
use crate::content::catalogue::Check;
use crate::content::level_fields::{LevelFields, checks_from_lines};
use crate::content::{ContentDb, Level};
use crate::rules::chapter;
use crate::text::Translations;

use super::ID;

/// A kind of mercenary (M5): recruits, or one of the three kinds of veterans.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Merc {
    /// Goes anywhere, discarded once its reward is claimed (M6).
    Recruit,
    /// A veteran (M7).
    Scout,
    /// A veteran (M7).
    Ranger,
    /// A veteran (M7).
    Guardian,
}

impl Merc {
    /// Every kind, in the order a group lists them.
    pub const ALL: [Merc; 4] = [Merc::Recruit, Merc::Scout, Merc::Ranger, Merc::Guardian];

    /// Its index in a `Group`.
    pub fn ix(self) -> usize {
        self as usize
    }

    /// A veteran stays with its seat (M7); a recruit does not (M6).
    pub fn veteran(self) -> bool {
        self != Merc::Recruit
    }
}

/// Mercenaries by kind, in `Merc::ALL` order: a group, a reserve, a gain.
pub type Group = [u32; 4];

/// The mercenaries in a group (at most `u32::MAX`: a group read from a file may hold more).
pub fn size(g: &Group) -> u32 {
    g.iter().fold(0u32, |n, x| n.saturating_add(*x))
}

/// The mercenaries in a group; `None` when they are more than a `u32` counts (a group read
/// from a file), which no slot takes.
pub fn checked_size(g: &Group) -> Option<u32> {
    g.iter().try_fold(0u32, |n, x| n.checked_add(*x))
}

/// What an ordinary place is (M8): it says how its cards are claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceKind {
    /// Heroes' Guild: a hero (an ability each round; glory at the end if linked to a dragon).
    Guild,
    /// Tavern: a set of mercenaries.
    Tavern,
    /// Poachers' Camp: weakened dragons.
    Camp,
    /// Mountains: up to `take` dragons for one group; the Survivalist breaks ties (M11).
    Mountains,
    /// Reserves: a plot; with a dragon linked, glory each round (the attribute tracks).
    Reserves,
    /// Garrison: objectives scored at the end; its cards stay at reset (M15).
    Garrison,
    /// Warehouse (M10, special): its gain at once, no mercenaries.
    Warehouse,
    /// Barracks (M10, special): its gain at once, no mercenaries.
    Barracks,
}

impl PlaceKind {
    /// A special place (M10): used at once, without mercenaries, no slots.
    pub fn special(self) -> bool {
        matches!(self, PlaceKind::Warehouse | PlaceKind::Barracks)
    }
}

/// A place on the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    /// Unique id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: PlaceKind,
    /// Its hex on the map (an outpost building, a mountain, a camp by the rift).
    pub at: At,
    /// Its slots, left to right, each numbered with the size of group it takes (M4).
    #[serde(default)]
    pub slots: Vec<u32>,
    /// Face-up cards it shows (M15 refills them from the left).
    #[serde(default)]
    pub cards: usize,
    /// The decks it draws from: one, or one per card slot in turn (the Garrison's three).
    #[serde(default)]
    pub decks: Vec<String>,
    /// Cards one group claims (the Mountains: up to three).
    #[serde(default = "one")]
    pub take: usize,
    /// The veterans allowed here (M7); recruits go anywhere (M6).
    #[serde(default)]
    pub veterans: Vec<Merc>,
    /// A special place's gain (M10).
    #[serde(default)]
    pub gives: Gain,
    /// A special place is used once a round by each seat (reading: the seed sets no limit, and
    /// without one a seat could fill the board from the Barracks alone).
    #[serde(default = "yes")]
    pub once: bool,
}

fn yes() -> bool {
    true
}

fn one() -> usize {
    1
}

/// What a card, a special place or an assistant gives a seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Gain {
    /// Mercenaries into the reserve.
    pub mercs: Group,
    /// Equipment tokens (M9).
    pub equipment: u32,
    /// Flame up.
    pub flame: u32,
    /// Flame down.
    pub calm: u32,
    /// Glory at once.
    pub glory: u32,
}

/// A card of a deck: what claiming it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Unique id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it gives at once.
    #[serde(default)]
    pub gives: Gain,
    /// A dragon freed: its glory (counted at once), and the unit it becomes on the map.
    #[serde(default)]
    pub dragon: Option<Dragon>,
    /// A hero: its ability each round, and its glory at the end if linked to a dragon.
    #[serde(default)]
    pub hero: Option<Hero>,
    /// A plot of the Reserves: glory each round while the seat has a dragon.
    #[serde(default)]
    pub plot: u32,
    /// A Garrison objective, scored at the end.
    #[serde(default)]
    pub objective: Option<Objective>,
}

/// A dragon freed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dragon {
    /// Glory it brings.
    pub glory: u32,
    /// The Eladrin unit it becomes at the portal's outpost (none: it only scores).
    #[serde(default)]
    pub unit: Option<String>,
}

/// A hero (M8, Heroes' Guild).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Hero {
    /// What it gives each round (its ability).
    pub each_round: Gain,
    /// Glory at the end, only if the seat has a dragon.
    pub linked_glory: u32,
}

/// A Garrison objective: met during play, scored at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// What it asks.
    pub need: Need,
    /// Glory when met at the end.
    pub glory: u32,
}

/// What an objective asks of its seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Need {
    /// At least this many dragons.
    Dragons(u32),
    /// At least this many veterans in the reserve.
    Veterans(u32),
    /// At least this many heroes.
    Heroes(u32),
    /// Flame at most this.
    FlameAtMost(u32),
}

/// A raid card (M14): what every seat discards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raid {
    /// Its name.
    pub name: String,
    /// Mercenaries of each kind to discard.
    pub demands: Group,
}

/// What Flame feeds Chaos (the reading of this game).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FlameRule {
    /// After each raid, one more corruption attempt for Chaos in R6 per this much Flame of all
    /// the seats and the poachers together (0: none).
    pub per_attempt: u32,
}

impl Default for FlameRule {
    fn default() -> Self {
        FlameRule { per_attempt: 6 }
    }
}

/// The poachers' seat, Chaos (reading: it competes for the slots).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Poachers {
    /// Recruits it gets each round.
    pub recruits: u32,
    /// Flame it gains for each card it claims (a dragon held is Chaos' strength).
    pub haul: u32,
}

impl Default for Poachers {
    fn default() -> Self {
        Poachers {
            recruits: 2,
            haul: 1,
        }
    }
}

/// The four assistants (M11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Assistant {
    /// First seat next round; may recall one group and place it again.
    Chief,
    /// Discards one of the two face-up raid cards.
    Defender,
    /// +1 equipment; breaks ties in the Mountains.
    Survivalist,
    /// Flame −2.
    Healer,
}

impl Assistant {
    /// All four, in order.
    pub const ALL: [Assistant; 4] = [
        Assistant::Chief,
        Assistant::Defender,
        Assistant::Survivalist,
        Assistant::Healer,
    ];
}

/// The chapter's fields of a level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MercLevel {
    /// The places, ordinary and special.
    pub places: Vec<Place>,
    /// The order rewards are claimed in, by place kind (M13).
    pub reward_order: Vec<PlaceKind>,
    /// The decks, by id.
    pub decks: BTreeMap<String, Vec<Card>>,
    /// The raid deck.
    pub raids: Vec<Raid>,
    /// What each seat starts with.
    pub start: Gain,
    /// The Survivalist's equipment (M11).
    pub survivalist_equipment: u32,
    /// The Healer's Flame down (M11).
    pub healer_calm: u32,
    /// What Flame feeds Chaos.
    pub flame: FlameRule,
    /// The poachers' seat.
    pub poachers: Poachers,
}

impl Default for MercLevel {
    fn default() -> Self {
        MercLevel {
            places: Vec::new(),
            reward_order: vec![
                PlaceKind::Guild,
                PlaceKind::Tavern,
                PlaceKind::Camp,
                PlaceKind::Mountains,
                PlaceKind::Reserves,
                PlaceKind::Garrison,
            ],
            decks: BTreeMap::new(),
            raids: Vec::new(),
            start: Gain {
                mercs: [3, 1, 1, 1],
                equipment: 1,
                ..Gain::default()
            },
            survivalist_equipment: 1,
            healer_calm: 2,
            flame: FlameRule::default(),
            poachers: Poachers::default(),
        }
    }
}

/// Most places, decks, cards in a deck, raid cards: levels are untrusted.
pub const MAX_ITEMS: usize = 64;

/// Most slots, face-up cards, cards one group takes and decks of one place, and the highest
/// number a slot bears: the seed's places have two to four; eight leaves room for a modder's,
/// and keeps the groups a seat can form for a slot (`round::groups`) to a few hundred.
pub const MAX_SLOTS: usize = 8;

/// Most of each number of a gain (a card's, a special place's, a hero's each round, the start,
/// the Survivalist's, the Healer's, the poachers' recruits and haul) and of each kind a raid
/// card demands: the seed's are 0 to 4; a hundred is generous, and a sheet that gains it every
/// round of a long game stays far below `state::MAX_SHEET`.
pub const MAX_GAIN: u32 = 100;

/// Most glory one card gives (a dragon, a hero linked, a plot each round, an objective): the
/// seed's are 1 to 8; a hundred is generous and keeps every sum of glory far inside a `u32`.
pub const MAX_GLORY: u32 = 100;

/// The most an objective may ask (dragons, veterans, heroes, a Flame ceiling): it is only
/// compared, a thousand is past anything a game reaches.
pub const MAX_NEED: u32 = 1000;

/// The largest `flame.per_attempt`: a divisor, only bounded so a level's number stays readable.
pub const MAX_PER_ATTEMPT: u32 = 1000;

/// What is wrong with a gain at field `f` (each number at most `MAX_GAIN`).
fn check_gain(f: &str, g: &Gain, out: &mut Vec<String>) {
    for (i, n) in g.mercs.iter().enumerate() {
        if *n > MAX_GAIN {
            out.push(format!("{f}.mercs[{i}]: at most {MAX_GAIN}, not {n}"));
        }
    }
    for (name, n) in [
        ("equipment", g.equipment),
        ("flame", g.flame),
        ("calm", g.calm),
        ("glory", g.glory),
    ] {
        if n > MAX_GAIN {
            out.push(format!("{f}.{name}: at most {MAX_GAIN}, not {n}"));
        }
    }
}

/// What is wrong with the numbers of a card at field `f`.
fn check_card(f: &str, c: &Card, out: &mut Vec<String>) {
    check_gain(&format!("{f}.gives"), &c.gives, out);
    if let Some(d) = &c.dragon
        && d.glory > MAX_GLORY
    {
        out.push(format!(
            "{f}.dragon.glory: at most {MAX_GLORY}, not {}",
            d.glory
        ));
    }
    if let Some(h) = &c.hero {
        check_gain(&format!("{f}.hero.each_round"), &h.each_round, out);
        if h.linked_glory > MAX_GLORY {
            out.push(format!(
                "{f}.hero.linked_glory: at most {MAX_GLORY}, not {}",
                h.linked_glory
            ));
        }
    }
    if c.plot > MAX_GLORY {
        out.push(format!("{f}.plot: at most {MAX_GLORY}, not {}", c.plot));
    }
    if let Some(o) = &c.objective {
        if o.glory > MAX_GLORY {
            out.push(format!(
                "{f}.objective.glory: at most {MAX_GLORY}, not {}",
                o.glory
            ));
        }
        let (Need::Dragons(n) | Need::Veterans(n) | Need::Heroes(n) | Need::FlameAtMost(n)) =
            o.need;
        if n > MAX_NEED {
            out.push(format!("{f}.objective.need: at most {MAX_NEED}, not {n}"));
        }
    }
}

impl MercLevel {
    /// The ordinary places in the order their rewards are claimed (M13): by `reward_order`,
    /// places of one kind in the level's order; a kind the order leaves out is never claimed.
    pub fn claim_order(&self) -> impl Iterator<Item = &Place> {
        self.reward_order
            .iter()
            .flat_map(|kind| self.places.iter().filter(move |p| p.kind == *kind))
    }

    /// The place with this id.
    pub fn place(&self, id: &str) -> Option<&Place> {
        self.places.iter().find(|p| p.id == id)
    }

    /// The card with this id, in any deck.
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.decks.values().flatten().find(|c| c.id == id)
    }

    /// What does not hold together, a line each naming the field; `on_map` says whether a
    /// hex is on the level's map.
    pub fn check(&self, on_map: impl Fn(At) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        if self.places.is_empty() {
            out.push("places: none".into());
        }
        if self.places.len() > MAX_ITEMS || self.raids.len() > MAX_ITEMS {
            out.push(format!("places, raids: at most {MAX_ITEMS} each"));
        }
        if self.decks.len() > MAX_ITEMS {
            out.push(format!("decks: at most {MAX_ITEMS}"));
        }
        let mut ids = BTreeSet::new();
        for p in &self.places {
            let f = format!("places[{}]", p.id);
            if !ids.insert(&p.id) {
                out.push(format!("{f}: the id is used twice"));
            }
            if !on_map(p.at) {
                out.push(format!("{f}.at: {:?} is not on the map", p.at));
            }
            check_gain(&format!("{f}.gives"), &p.gives, &mut out);
            if p.veterans.len() > Merc::ALL.len() {
                out.push(format!("{f}.veterans: at most {} kinds", Merc::ALL.len()));
            }
            if p.decks.len() > MAX_SLOTS {
                out.push(format!("{f}.decks: at most {MAX_SLOTS}"));
            }
            if p.take > MAX_SLOTS {
                out.push(format!("{f}.take: at most {MAX_SLOTS}"));
            }
            if p.kind.special() {
                if !p.slots.is_empty() || p.cards > 0 {
                    out.push(format!("{f}: a special place (M10) has no slots nor cards"));
                }
                continue;
            }
            if p.slots.is_empty() || p.slots.len() > MAX_SLOTS {
                out.push(format!("{f}.slots: 1 to {MAX_SLOTS} slots"));
            }
            for (i, n) in p.slots.iter().enumerate() {
                if !(1..=MAX_SLOTS as u32).contains(n) {
                    out.push(format!(
                        "{f}.slots[{i}]: each numbered 1 to {MAX_SLOTS}, not {n}"
                    ));
                }
            }
            if p.cards == 0 || p.cards > MAX_SLOTS {
                out.push(format!("{f}.cards: 1 to {MAX_SLOTS} face-up cards"));
            }
            if p.take == 0 || p.take > p.cards.max(1) {
                out.push(format!("{f}.take: 1 to its cards"));
            }
            if p.decks.is_empty() {
                out.push(format!("{f}.decks: none"));
            }
            for d in &p.decks {
                if !self.decks.contains_key(d) {
                    out.push(format!("{f}.decks: no deck `{d}`"));
                }
            }
        }
        let mut cards = BTreeSet::new();
        for (d, list) in &self.decks {
            if list.len() > MAX_ITEMS {
                out.push(format!("decks[{d}]: at most {MAX_ITEMS} cards"));
            }
            for c in list {
                if !cards.insert(&c.id) {
                    out.push(format!("decks[{d}][{}]: the id is used twice", c.id));
                }
                check_card(&format!("decks[{d}][{}]", c.id), c, &mut out);
            }
        }
        if self.raids.len() < 2 {
            out.push("raids: at least two cards (two lie face up, M14)".into());
        }
        for (i, r) in self.raids.iter().enumerate() {
            for (k, n) in r.demands.iter().enumerate() {
                if *n > MAX_GAIN {
                    out.push(format!(
                        "raids[{i}].demands[{k}]: at most {MAX_GAIN}, not {n}"
                    ));
                }
            }
        }
        let mut kinds = Vec::new();
        for k in &self.reward_order {
            if k.special() {
                out.push(format!("reward_order: {k:?} is a special place (M10)"));
            }
            if kinds.contains(k) {
                out.push(format!("reward_order: {k:?} is listed twice"));
            }
            kinds.push(*k);
        }
        check_gain("start", &self.start, &mut out);
        for (name, n) in [
            ("survivalist_equipment", self.survivalist_equipment),
            ("healer_calm", self.healer_calm),
            ("poachers.recruits", self.poachers.recruits),
            ("poachers.haul", self.poachers.haul),
        ] {
            if n > MAX_GAIN {
                out.push(format!("{name}: at most {MAX_GAIN}, not {n}"));
            }
        }
        if self.flame.per_attempt > MAX_PER_ATTEMPT {
            out.push(format!(
                "flame.per_attempt: at most {MAX_PER_ATTEMPT}, not {}",
                self.flame.per_attempt
            ));
        }
        out
    }
}

/// The chapter's fields of the level in play, typed when content loaded (the AI asks for them
/// at every candidate).
pub fn level(world: &World) -> std::sync::Arc<MercLevel> {
    chapter::level_fields::<MercLevel>(world)
}

impl LevelFields for MercLevel {
    const CHAPTER: &'static str = ID;
    fn check(&self, level: &Level, db: &ContentDb) -> Vec<Check> {
        let mut lines = self.check(|a| crate::content::on_map(&level.map, a));
        // A dragon freed serves on the map as its unit: one this content has.
        for (d, list) in &self.decks {
            for c in list {
                if let Some(unit) = c.dragon.as_ref().and_then(|x| x.unit.as_ref())
                    && db.unit(unit).is_none()
                {
                    lines.push(format!(
                        "decks[{d}][{}].dragon.unit: no unit `{unit}`",
                        c.id
                    ));
                }
            }
        }
        checks_from_lines(lines)
    }
    fn names(&self) -> Vec<(String, String)> {
        let places = self.places.iter().map(|p| (p.id.clone(), p.name.clone()));
        let cards = self
            .decks
            .values()
            .flatten()
            .map(|c| (c.id.clone(), c.name.clone()));
        places.chain(cards).collect()
    }
}

/// A place's or a card's name from its id, as the level in play names it; else the id.
pub fn name_of(tr: &Translations, id: &str) -> String {
    tr.chapters.name_of(ID, id)
}
