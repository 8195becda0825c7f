//! The RON schema of the game's content: every type a content file or a level deserialises into.
//!
//! Every number the rules use lives here (see `RulesNumbers`), so a mod can change it. Unknown
//! fields are refused (`deny_unknown_fields`) so that a typo in a mod is an error with a line,
//! not a silently ignored value.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The six resources of R3 (food, wood, stone, psara, sand, crystals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Res {
    /// Food: rolled for spoilage when generated (R3.1), eaten by armies (R5.3).
    Food,
    /// Wood.
    Wood,
    /// Stone.
    Stone,
    /// Psara: a food some units eat instead of food (R5.3).
    Psara,
    /// Sand.
    Sand,
    /// Crystals: power the portal (R8.2).
    Crystal,
}

impl Res {
    /// All resources in their fixed order (the order of collection and payment).
    pub const ALL: [Res; 6] = [
        Res::Food,
        Res::Wood,
        Res::Stone,
        Res::Psara,
        Res::Sand,
        Res::Crystal,
    ];

    /// Index into a `Stock`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case name, as players read it.
    pub fn name(self) -> &'static str {
        match self {
            Res::Food => "food",
            Res::Wood => "wood",
            Res::Stone => "stone",
            Res::Psara => "psara",
            Res::Sand => "sand",
            Res::Crystal => "crystal",
        }
    }
}

/// An amount of each resource. Written in RON as a map: `{Wood: 2, Stone: 1}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "BTreeMap<Res, u32>", into = "BTreeMap<Res, u32>")]
pub struct Stock(pub [u32; 6]);

impl From<BTreeMap<Res, u32>> for Stock {
    fn from(map: BTreeMap<Res, u32>) -> Self {
        let mut s = Stock::default();
        for (r, n) in map {
            s.0[r.index()] = n;
        }
        s
    }
}

impl From<Stock> for BTreeMap<Res, u32> {
    fn from(s: Stock) -> Self {
        Res::ALL
            .iter()
            .filter(|r| s.get(**r) > 0)
            .map(|r| (*r, s.get(*r)))
            .collect()
    }
}

impl Stock {
    /// A stock holding `n` of one resource.
    pub fn of(res: Res, n: u32) -> Stock {
        let mut s = Stock::default();
        s.0[res.index()] = n;
        s
    }
    /// How much of `res`.
    pub fn get(&self, res: Res) -> u32 {
        self.0[res.index()]
    }
    /// Adds `n` of `res`, saturating.
    pub fn add(&mut self, res: Res, n: u32) {
        let v = &mut self.0[res.index()];
        *v = v.saturating_add(n);
    }
    /// Removes up to `n` of `res`; returns how much was removed.
    pub fn take(&mut self, res: Res, n: u32) -> u32 {
        let v = &mut self.0[res.index()];
        let t = (*v).min(n);
        *v -= t;
        t
    }
    /// Sum of all resources.
    pub fn total(&self) -> u32 {
        self.0.iter().fold(0u32, |a, b| a.saturating_add(*b))
    }
    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|v| *v == 0)
    }
    /// Adds another stock.
    pub fn add_all(&mut self, other: &Stock) {
        for r in Res::ALL {
            self.add(r, other.get(r));
        }
    }
    /// True when `self` holds at least `other` of every resource.
    pub fn covers(&self, other: &Stock) -> bool {
        Res::ALL.iter().all(|r| self.get(*r) >= other.get(*r))
    }
    /// Non-zero entries, in the fixed resource order.
    pub fn iter(&self) -> impl Iterator<Item = (Res, u32)> + '_ {
        Res::ALL
            .iter()
            .map(|r| (*r, self.get(*r)))
            .filter(|(_, n)| *n > 0)
    }
}

impl std::fmt::Display for Stock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return write!(f, "nothing");
        }
        let parts: Vec<String> = self
            .iter()
            .map(|(r, n)| format!("{n} {}", r.name()))
            .collect();
        write!(f, "{}", parts.join(", "))
    }
}

/// The two camps of R1.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Camp {
    /// The players.
    Eladrins,
    /// The AI (or a human for testing).
    Chaos,
}

impl Camp {
    /// The other camp.
    pub fn enemy(self) -> Camp {
        match self {
            Camp::Eladrins => Camp::Chaos,
            Camp::Chaos => Camp::Eladrins,
        }
    }
}

/// Numbers the rules use, each a default a mod may change (`assets/content/rules.ron`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesNumbers {
    /// R3.1: a food point is healthy on 1d6 ≥ this.
    pub food_healthy_on: u8,
    /// R5.3: an army eats 1 food per started group of this many units.
    pub army_food_group: u32,
    /// R5.5: food spent to remove one famine token.
    pub famine_food_per_token: u32,
    /// R6.2: base difficulty of a corruption attempt.
    pub corruption_base: i32,
    /// R6.2: added per tile of distance to the nearest rift.
    pub corruption_per_distance: i32,
    /// R6.2: removed per adjacent corrupted tile.
    pub corruption_per_adjacent: i32,
    /// R7.2: research points each lab adds per upkeep.
    pub lab_points: u32,
    /// R7.3: artifact analysis succeeds on 2d6 ≥ this.
    pub analysis_target: u8,
    /// R7.4: research cards drawn to choose from.
    pub research_offer: u32,
    /// R9.4: action points per unit per activation.
    pub action_points: u8,
    /// R9.5: rounds of a battle.
    pub combat_rounds: u8,
    /// Safety bound: a game ends in a Chaos win after this many cycles (0 = no limit).
    pub max_cycles: u32,
    /// The Chaos unit summoned at an open rift in the main phase (once per rift per cycle).
    pub chaos_summon: String,
    /// No summoning at a rift while this many Chaos units stand on it (they must march first).
    pub chaos_summon_cap: u32,
}

impl Default for RulesNumbers {
    fn default() -> Self {
        RulesNumbers {
            food_healthy_on: 4,
            army_food_group: 3,
            famine_food_per_token: 1,
            corruption_base: 9,
            corruption_per_distance: 1,
            corruption_per_adjacent: 1,
            lab_points: 1,
            analysis_target: 7,
            research_offer: 2,
            action_points: 2,
            combat_rounds: 5,
            max_cycles: 60,
            chaos_summon: "rift_spawn".into(),
            chaos_summon_cap: 3,
        }
    }
}

/// A terrain type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Unique id, referenced by levels and improvements.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Action points to enter (R9.4: one, more on difficult terrain).
    #[serde(default = "one")]
    pub move_cost: u8,
    /// Difficult terrain (R9.4).
    #[serde(default)]
    pub difficult: bool,
    /// Land units may not enter (deep water, chasms).
    #[serde(default)]
    pub impassable: bool,
    /// Water: boats move here, land units need a boat (R9.4 embark).
    #[serde(default)]
    pub water: bool,
    /// Added to what an improvement on this terrain produces (R3).
    #[serde(default)]
    pub yield_bonus: Stock,
    /// Defence bonus to units fighting here (combat, R9.5).
    #[serde(default)]
    pub defense: i8,
    /// Map colour (sRGB).
    pub color: (u8, u8, u8),
    /// Weight in generated maps (0: never generated).
    #[serde(default)]
    pub weight: u32,
}

fn one() -> u8 {
    1
}

/// An improvement built on a tile (R9.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Improvement {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Flavour and rules text.
    #[serde(default)]
    pub text: String,
    /// Paid when built (R9.1).
    pub cost: Stock,
    /// Time markers placed when built (R4).
    #[serde(default)]
    pub build_time: u8,
    /// Paid each upkeep once ready (R5.1); unpaid → inactive (R5.2).
    #[serde(default)]
    pub upkeep: Stock,
    /// Placed on the tile each generation step (R3).
    #[serde(default)]
    pub yields: Stock,
    /// Terrain ids it may be built on (empty: any passable land).
    #[serde(default)]
    pub terrains: Vec<String>,
    /// A technology that must be researched first, if any.
    #[serde(default)]
    pub requires_tech: Option<String>,
}

/// A passive effect of a building while ready and active.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BuildingEffect {
    /// A laboratory: adds research points (R7.2) or analyses an artifact (R7.3).
    Lab,
    /// More storage capacity in its outpost (R3.3).
    Storage(u32),
    /// Wider influence zone of its outpost, in hexes.
    Influence(u32),
    /// Grows its outpost to the next size when it becomes ready (R9.2).
    GrowOutpost,
    /// Defence bonus for units fighting on the outpost's tile.
    Defense(u32),
}

/// A building raised in an outpost (R9.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Building {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Flavour and rules text.
    #[serde(default)]
    pub text: String,
    /// Paid from the outpost or its influence zone (R9.2).
    pub cost: Stock,
    /// Time markers (R4).
    #[serde(default)]
    pub build_time: u8,
    /// Paid each upkeep once ready (R5.1); unpaid → inactive (R5.2).
    #[serde(default)]
    pub upkeep: Stock,
    /// Placed on the outpost's tile each generation step (R3.2).
    #[serde(default)]
    pub yields: Stock,
    /// Passive effects.
    #[serde(default)]
    pub effects: Vec<BuildingEffect>,
    /// A technology that must be researched first, if any.
    #[serde(default)]
    pub requires_tech: Option<String>,
}

/// An outpost size: influence and control zones, storage and building slots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutpostSize {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Radius of the influence zone (R3.3 collection, R5.1 upkeep, R9.2 building costs).
    pub influence: u32,
    /// Radius of the control zone (R9.1 improvements).
    pub control: u32,
    /// Storage capacity: total resources the stock may hold (R3.3).
    pub storage: u32,
    /// Cap on buildings, built and under construction (R9.2).
    pub building_slots: u32,
    /// The size it grows into, if any.
    #[serde(default)]
    pub next: Option<String>,
}

/// What an army's unit eats at upkeep (R5.3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Diet {
    /// One food per started group of three units.
    #[default]
    Food,
    /// Psara instead of food (R5.3).
    Psara,
    /// Eats nothing (constructs, Chaos spawn).
    Nothing,
}

/// A skill printed on a unit card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Skill {
    /// May explore (R9.3).
    Explorer,
    /// May found a new outpost (R9.2 reading).
    Founder,
    /// A boat: carries units and resources over water (R9.4 embark).
    Boat {
        /// Units carried.
        units: u32,
        /// Resources carried.
        resources: u32,
    },
    /// Ignores difficult terrain's extra cost.
    Pathfinder,
    /// May perform rituals (push back corruption, close rifts).
    Ritualist,
}

impl Skill {
    /// The skill's name as a player reads it (English; the translation tables carry it).
    pub fn name(&self) -> &'static str {
        match self {
            Skill::Explorer => "Explorer",
            Skill::Founder => "Founder",
            Skill::Boat { .. } => "Boat",
            Skill::Pathfinder => "Pathfinder",
            Skill::Ritualist => "Ritualist",
        }
    }
}

/// An action printed on a unit card (R9.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardAction {
    /// Unique within the unit.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Rules text.
    #[serde(default)]
    pub text: String,
    /// Action points it costs (R9.4: one).
    #[serde(default = "one")]
    pub ap: u8,
    /// Hourglass: uses all remaining points and ends the activation (R9.4).
    #[serde(default)]
    pub hourglass: bool,
    /// Resources it costs.
    #[serde(default)]
    pub cost: Stock,
    /// What it does.
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// An attack: `dice` d6 per round, each hitting on `hit_on` or more (famine: −1 per token, R5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    /// Dice rolled each round.
    pub dice: u8,
    /// A die hits on this or more.
    pub hit_on: u8,
}

/// A unit card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Flavour and rules text.
    #[serde(default)]
    pub text: String,
    /// The camp that fields it.
    pub camp: Camp,
    /// Hit points.
    pub hp: u8,
    /// Attack rolls (R9.5).
    pub attack: Attack,
    /// Military: may hold a tile for improvements (R9.1) and fight.
    #[serde(default)]
    pub military: bool,
    /// What it eats (R5.3).
    #[serde(default)]
    pub diet: Diet,
    /// Other upkeep, paid or inactive (R5.2).
    #[serde(default)]
    pub upkeep: Stock,
    /// Chaos resistance: a corrupted unit resists on 1d6 ≥ this (R6.3); 0 = immune.
    #[serde(default)]
    pub resistance: u8,
    /// Unit id it becomes when turned by Chaos (R6.3); a generic husk when absent.
    #[serde(default)]
    pub corrupts_into: Option<String>,
    /// Skills.
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// Card actions.
    #[serde(default)]
    pub actions: Vec<CardAction>,
    /// Cost to recruit in an outpost, if recruitable.
    #[serde(default)]
    pub recruit_cost: Option<Stock>,
}

/// Where an effect lands when it targets tiles or units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Where {
    /// Every Eladrin outpost (stocks) or army (units).
    #[default]
    All,
    /// The one most exposed to Chaos: nearest an open rift, then lowest id.
    One,
}

/// An effect of a card, a technology, an artifact, a ritual or a unit action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Effect {
    /// Adds resources to each Eladrin outpost's stock (up to storage).
    Gain(Stock),
    /// Removes resources from each Eladrin outpost's stock (as much as there is).
    Lose(Stock),
    /// Extra corruption attempts at the next R6 step.
    CorruptionAttempts(u32),
    /// Corruption attempts made at once (R6.2 rolls).
    CorruptNow(u32),
    /// Chaos corruption markers on the portal's power track (R8.3).
    PortalCorruption(u32),
    /// Pushes back corruption markers from the power track (R8.3).
    PushBackCorruption(u32),
    /// Opens a new rift on a corrupted tile (the one nearest the portal).
    OpenRift,
    /// Closes the open rift nearest the portal.
    CloseRift,
    /// Cleanses corrupted tiles (nearest the outposts first); rifts stay.
    Cleanse(u32),
    /// Spawns Chaos units at a rift (the one nearest the portal).
    SpawnChaos {
        /// Unit type id.
        unit: String,
        /// How many.
        count: u32,
    },
    /// Famine tokens on Eladrin armies (R5.4).
    Famine(u32, Where),
    /// Removes famine tokens from every Eladrin army.
    Feed(u32),
    /// Heals wounds (never famine losses, R5.4) on every Eladrin unit.
    Heal(u32),
    /// Wounds every Eladrin unit on a corrupted tile.
    Wound(u32),
    /// Research points on the research under way (R7.2).
    ResearchPoints(u32),
    /// Permanent: +storage for every Eladrin outpost.
    Storage(u32),
    /// Permanent: food is healthy one step easier (R3.1 target −n, never below 2).
    HealthierFood(u8),
    /// Permanent: Eladrin units roll attack one easier.
    AttackBonus(u8),
    /// Permanent: Eladrin units gain hit points.
    HpBonus(u8),
    /// Permanent: each lab adds more research points.
    LabPoints(u32),
    /// Permanent: an improvement yields more.
    ImprovementYield {
        /// Improvement id.
        improvement: String,
        /// Extra yield.
        extra: Stock,
    },
    /// Permanent: Eladrin units resist corruption one easier.
    Resistance(u8),
    /// Places an artifact token on the tile (exploration).
    ArtifactToken,
    /// Permanent: more crystals may go into the portal each phase (R8.2).
    PortalCrystals(u32),
    /// Unlocks a building or improvement id.
    Unlock(String),
    /// Moves a track (`tracks.ron`) by `change`, within its bounds, for `who`.
    Track {
        /// The track's id.
        track: String,
        /// How much (negative lowers it).
        change: i32,
        /// Whose value moves.
        #[serde(default)]
        who: TrackWho,
    },
    /// Calls a chapter's hook (`chapter::ChapterAppExt::add_chapter_hook`) with `arg`: a
    /// chapter's own effect, in a card of any deck. Nothing happens where the chapter is not in
    /// play.
    Hook {
        /// The chapter's id.
        chapter: String,
        /// The hook's name, as the chapter registered it.
        hook: String,
        /// Its argument.
        #[serde(default)]
        arg: i32,
    },
}

/// Whose value of a track an effect moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrackWho {
    /// The camp or seat acting now (whose turn or decision it is).
    #[default]
    Acting,
    /// The Eladrins: every Eladrin seat of a track kept per seat.
    Eladrins,
    /// Chaos.
    Chaos,
}

/// Who holds a track: each camp, or each Eladrin seat (and Chaos).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrackPer {
    /// One value per camp.
    Camp,
    /// One value per Eladrin seat, and one for Chaos.
    Seat,
}

/// How the track bar draws a track (`TrackDef::show`): by what its number means to a player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrackShow {
    /// A bounded track: one bar per holder, filled from `min` to `max`, with its value and its
    /// bounds (`12/30`); `every` may mark a threshold on it.
    #[default]
    Bar,
    /// A score: every holder's value on one line with its rank (`1st`, `2nd`; ties share a
    /// rank), highest first; no bar, no bound.
    Score,
    /// A counted resource: every holder's value on one line; no bar, no bound.
    Count,
}

impl TrackShow {
    /// The default, a bar (a file need not say it, and a written track leaves it out).
    pub fn is_bar(&self) -> bool {
        *self == TrackShow::Bar
    }
}

/// A threshold along a bar (`TrackDef::every`): each `step` of the value brings something.
/// The bar marks each step with a tick and says what it brings in a line under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackStep {
    /// How much of the track one step is: more than 0, and at most `max - min`.
    pub step: i32,
    /// What each step brings, in a few words ("one more corruption attempt"); translated like
    /// a content text.
    pub text: String,
}

/// A track or a counted resource a chapter keeps (`tracks.ron`): Rage, Flame, Glory, gems…
/// Bounded: a value stays within `min..=max`. The window draws it by its nature (`show`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackDef {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The chapter it belongs to: it is kept only in the levels that play it.
    pub chapter: String,
    /// Per camp or per seat.
    pub per: TrackPer,
    /// Lowest value.
    #[serde(default)]
    pub min: i32,
    /// Highest value.
    pub max: i32,
    /// Value at the start of a game.
    #[serde(default)]
    pub start: i32,
    /// Shown for Chaos too (a per-seat track always shows the seats).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chaos: bool,
    /// How the track bar draws it: `Bar` (the default), `Score` or `Count`.
    #[serde(default, skip_serializing_if = "TrackShow::is_bar")]
    pub show: TrackShow,
    /// A bar's threshold: `Some((step: 10, text: "one more corruption attempt"))`. Only a
    /// `Bar` has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<TrackStep>,
}

impl TrackDef {
    /// The track as the rules keep it: how it is drawn (`show`, `every`) at its default. How
    /// a track is drawn changes no game, so the content's hash (`ContentDb::hash`) reads this.
    pub fn as_played(&self) -> TrackDef {
        TrackDef {
            show: TrackShow::default(),
            every: None,
            ..self.clone()
        }
    }
}

/// A card of the events deck or the chaos deck (R2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Unique id within its deck.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What the card says.
    pub text: String,
    /// Copies in the deck.
    #[serde(default = "one_u32")]
    pub copies: u32,
    /// What it does, in order.
    pub effects: Vec<Effect>,
}

fn one_u32() -> u32 {
    1
}

/// A research card (R7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tech {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What it does, in words.
    pub text: String,
    /// Research points needed (R7.2).
    pub points: u32,
    /// Extra resources placed on the card (R7.2).
    #[serde(default)]
    pub resources: Stock,
    /// Effects applied when done.
    pub effects: Vec<Effect>,
    /// Goes back into the deck when done (R7.2: "unless the card says otherwise").
    #[serde(default)]
    pub returns: bool,
}

/// A terrain modifier set by an exploration card (R9.3).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TileModifier {
    /// Extra production on each tile of the zone (R3), even without an improvement.
    pub yields: Stock,
    /// Extra move cost (difficult ground found).
    pub move_cost: u8,
    /// Defence bonus.
    pub defense: i8,
}

/// An exploration card (R9.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorationCard {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What the explorers find.
    pub text: String,
    /// Copies in the deck.
    #[serde(default = "one_u32")]
    pub copies: u32,
    /// The terrain modifier it sets.
    #[serde(default)]
    pub modifier: TileModifier,
    /// Effects at once.
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// A ritual: a way to push back corruption or close a rift (R8.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ritual {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Rules text.
    pub text: String,
    /// Resources paid from the nearest outpost or the tile.
    pub cost: Stock,
    /// Action points each performing unit spends.
    #[serde(default = "one")]
    pub ap: u8,
    /// Units with the Ritualist skill needed on the tile.
    #[serde(default = "one_u32")]
    pub ritualists: u32,
    /// Must be performed on an open rift's tile (closing it).
    #[serde(default)]
    pub on_rift: bool,
    /// Effects.
    pub effects: Vec<Effect>,
}

/// The portal (R8): two arches built base up, then a power track.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortalDef {
    /// Each arch's cells from the base up, with their cost (R8.1).
    pub arches: Vec<Vec<Stock>>,
    /// Cells of the power track (R8.2); the last is the chaos symbol (R8.4).
    pub track: u32,
    /// 1-based cell of the star: filling it powers the portal (R8.2).
    pub star: u32,
    /// Crystals per phase at most (R8.2).
    pub crystals_per_phase: u32,
    /// A successful corruption within this distance of the portal adds a marker (R8 reading).
    pub threat_radius: u32,
    /// The text of the *Portal operational* card.
    pub operational_text: String,
}

impl PortalDef {
    /// A portal with no cells (before one is loaded; validation requires a real one).
    pub fn empty() -> PortalDef {
        PortalDef {
            arches: vec![],
            track: 1,
            star: 1,
            crystals_per_phase: 0,
            threat_radius: 0,
            operational_text: String::new(),
        }
    }
}

/// A difficulty level: handicaps and bonuses on each side, no hidden dice cheats.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Difficulty {
    /// Unique id (easy, normal, hard…).
    pub id: String,
    /// Display name.
    pub name: String,
    /// What changes, in words.
    pub text: String,
    /// Extra corruption attempts each R6 step (may be negative).
    #[serde(default)]
    pub chaos_attempts: i32,
    /// Added to R6.2 difficulty (positive makes corruption harder).
    #[serde(default)]
    pub corruption_difficulty: i32,
    /// Extra starting stock in each Eladrin outpost.
    #[serde(default)]
    pub eladrin_stock: Stock,
    /// Extra Chaos units when a spawn effect fires or Chaos summons at a rift.
    #[serde(default)]
    pub chaos_spawn_bonus: u32,
    /// Portal power track corruption markers at the start.
    #[serde(default)]
    pub portal_corruption_start: u32,
    /// Added to `rules.ron: chaos_summon_cap` (how many Chaos units a rift holds before it stops
    /// summoning).
    #[serde(default)]
    pub chaos_summon_cap: i32,
    /// Added to the cycle limit after which Chaos wins by exhaustion (the level's or the rules').
    #[serde(default)]
    pub extra_cycles: i32,
    /// Added to the outposts a level's victory asks the Eladrins to hold (`victory.outposts`;
    /// the sum never goes below 0): on easy they may lose one or two of a big map's.
    #[serde(default)]
    pub victory_outposts: i32,
    /// Technologies this difficulty asks the Eladrins to research beyond the level's
    /// (`victory.research`), for a level that asks for research: one more on hard makes the
    /// race to the portal longer, so Chaos has the time to reach the outposts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub victory_research: Vec<String>,
}

/// A level's own adjustment to one difficulty, added to `difficulty.ron`'s values (like a
/// Wesnoth scenario's per-difficulty macros): one level can be tuned to the balance targets
/// without moving every other level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DifficultyTweak {
    /// Added to `chaos_attempts`.
    pub chaos_attempts: i32,
    /// Added to `corruption_difficulty`.
    pub corruption_difficulty: i32,
    /// Added to `eladrin_stock`.
    pub eladrin_stock: Stock,
    /// Added to `chaos_spawn_bonus` (the sum never goes below 0).
    pub chaos_spawn_bonus: i32,
    /// Added to `portal_corruption_start` (the sum never goes below 0).
    pub portal_corruption_start: i32,
    /// Added to `chaos_summon_cap`.
    pub chaos_summon_cap: i32,
    /// Added to `extra_cycles`.
    pub extra_cycles: i32,
    /// Added to `victory_outposts`.
    pub victory_outposts: i32,
    /// Added to `victory_research` (each once).
    pub victory_research: Vec<String>,
    /// Extra armies on the map at the start on this difficulty (more foes on hard, a friend on
    /// easy).
    pub armies: Vec<ArmyStart>,
    /// What this level changes, in words (shown after the difficulty's own text).
    pub text: String,
}

/// A difficulty's or a tweak's numbers by field (the two share their names, not their types).
macro_rules! difficulty_numbers {
    ($d:expr) => {
        [
            ("chaos_attempts", i64::from($d.chaos_attempts)),
            ("corruption_difficulty", i64::from($d.corruption_difficulty)),
            ("chaos_spawn_bonus", i64::from($d.chaos_spawn_bonus)),
            (
                "portal_corruption_start",
                i64::from($d.portal_corruption_start),
            ),
            ("chaos_summon_cap", i64::from($d.chaos_summon_cap)),
            ("extra_cycles", i64::from($d.extra_cycles)),
            ("victory_outposts", i64::from($d.victory_outposts)),
        ]
    };
}

impl DifficultyTweak {
    /// Its numbers, by field, for the check against `MAX_DIFFICULTY_STEP`.
    pub fn numbers(&self) -> [(&'static str, i64); 7] {
        difficulty_numbers!(self)
    }
}

/// Largest step a difficulty or a level's tweak takes on any of its numbers (extra attempts,
/// spawn bonus, summon cap, extra cycles…): the shipped ones move by one to three; each is an
/// attempt or a unit a cycle, so a hundred is already a game nobody can play.
pub const MAX_DIFFICULTY_STEP: i64 = 100;

impl Difficulty {
    /// Its numbers, by field, for the check against `MAX_DIFFICULTY_STEP`.
    pub fn numbers(&self) -> [(&'static str, i64); 7] {
        difficulty_numbers!(self)
    }

    /// This difficulty with a level's tweak added.
    pub fn tweaked(&self, t: &DifficultyTweak) -> Difficulty {
        // Checked at load (`MAX_DIFFICULTY_STEP`); saturating all the same, as a level put in
        // place by hand is not.
        let plus =
            |a: u32, b: i32| (i64::from(a) + i64::from(b)).clamp(0, i64::from(u32::MAX)) as u32;
        let mut d = self.clone();
        d.chaos_attempts = d.chaos_attempts.saturating_add(t.chaos_attempts);
        d.corruption_difficulty = d
            .corruption_difficulty
            .saturating_add(t.corruption_difficulty);
        d.eladrin_stock.add_all(&t.eladrin_stock);
        d.chaos_spawn_bonus = plus(d.chaos_spawn_bonus, t.chaos_spawn_bonus);
        d.portal_corruption_start = plus(d.portal_corruption_start, t.portal_corruption_start);
        d.chaos_summon_cap = d.chaos_summon_cap.saturating_add(t.chaos_summon_cap);
        d.extra_cycles = d.extra_cycles.saturating_add(t.extra_cycles);
        d.victory_outposts = d.victory_outposts.saturating_add(t.victory_outposts);
        for tech in &t.victory_research {
            if !d.victory_research.contains(tech) {
                d.victory_research.push(tech.clone());
            }
        }
        if !t.text.is_empty() {
            d.text = format!("{} On this level: {}", d.text, t.text);
        }
        d
    }
}

/// Chaos AI weights: each candidate action's score scale (ai.ron). Integers, so that the AI's
/// choices are exact and the same on every machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChaosWeights {
    /// Attacking an Eladrin army: score per percent of win odds.
    pub attack: i64,
    /// Attack only with at least this many percent of win odds.
    pub attack_min_odds: u32,
    /// Summoning at a rift.
    pub summon: i64,
    /// Moving an army closer to its target, per hex gained.
    pub advance: i64,
    /// Percent of armies that march on the portal's outpost rather than the nearest Eladrins.
    pub rush_portal: u32,
    /// Using a corrupting card action.
    pub corrupt: i64,
    /// Battles simulated to estimate odds.
    pub odds_samples: u32,
    /// Step back from a battle (R9.5's `retreat_below`) once fewer than this percent of the
    /// attacking army's units stand, where `battle_odds` says it pays; 0: fight to the end.
    /// At most 100.
    pub retreat: u32,
    /// Defend the rifts (R8.3): an Eladrin army able to seal one (as many Ritualists as the
    /// least demanding ritual on a rift asks) within this many hexes of an open rift draws
    /// the Chaos armies within as many hexes of that rift; 0: never. At most 16.
    pub guard: u32,
}

impl Default for ChaosWeights {
    fn default() -> Self {
        ChaosWeights {
            attack: 10,
            attack_min_odds: 45,
            summon: 600,
            advance: 100,
            rush_portal: 50,
            corrupt: 300,
            odds_samples: 200,
            retreat: 0,
            guard: 0,
        }
    }
}

/// Eladrin AI weights (ai.ron).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EladrinWeights {
    /// An improvement, per resource point it yields towards what the portal still needs.
    pub economy: i64,
    /// An improvement, per food point while food runs short.
    pub food: i64,
    /// The first laboratory.
    pub lab: i64,
    /// Exploring an unexplored tile.
    pub explore: i64,
    /// Recruiting a defender while Chaos is near.
    pub recruit: i64,
    /// Moving a military army towards a threatened outpost, per hex gained.
    pub defend: i64,
    /// Attacking: score per percent of win odds.
    pub attack: i64,
    /// Attack only with at least this many percent of win odds.
    pub attack_min_odds: u32,
    /// A ritual that pushes back corruption or seals a rift.
    pub ritual: i64,
    /// Chaos armies within this distance of an outpost threaten it.
    pub threat_radius: u32,
    /// Sallying out: marching a military army on a Chaos army that threatens an outpost and
    /// that it can beat (`attack_min_odds`), per hex gained; 0: never.
    pub sally: i64,
    /// How far (hexes) an army looks for a Chaos army to sally out against.
    pub sally_radius: u32,
    /// Sally out only with at least these odds (percent) of winning the battle.
    pub sally_min_odds: u32,
    /// Battles simulated to estimate odds.
    pub odds_samples: u32,
    /// Step back from a battle it attacked (R9.5's `retreat_below`) once fewer than this
    /// percent of its units stand, where `battle_odds` says it pays; 0: fight to the end.
    /// At most 100.
    pub retreat: u32,
}

impl Default for EladrinWeights {
    fn default() -> Self {
        EladrinWeights {
            economy: 100,
            food: 120,
            lab: 500,
            explore: 150,
            recruit: 400,
            defend: 120,
            attack: 10,
            attack_min_odds: 55,
            ritual: 700,
            threat_radius: 3,
            sally: 130,
            sally_radius: 3,
            sally_min_odds: 55,
            odds_samples: 200,
            retreat: 0,
        }
    }
}

/// Both AIs' weights (ai.ron).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AiWeights {
    /// Chaos.
    pub chaos: ChaosWeights,
    /// The Eladrins.
    pub eladrin: EladrinWeights,
    /// The chapters' scorers' weights: chapter id → weight name → weight.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub chapters: BTreeMap<String, BTreeMap<String, i64>>,
    /// The search the AIs think ahead with, and each difficulty's budget.
    pub search: SearchSettings,
}

/// The AIs' search (ai.ron `search`, `ai::search`). Where the candidates propose different
/// actions, each is played out on a copy of the game, with dice of its own, by both AIs'
/// candidates for up to `horizon` actions; the position reached is scored by `eval`. Budgets
/// count simulated actions (nodes), not time, so a choice is the same on every machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchSettings {
    /// Each difficulty's budgets, by difficulty id; one not listed plays the candidates alone.
    pub budgets: BTreeMap<String, PerCamp>,
    /// Each difficulty's margins, by difficulty id, where they differ from `margin`: a
    /// difficulty's skill (a larger margin trusts the candidates' own choice more often).
    pub margins: BTreeMap<String, PerCamp>,
    /// Playouts of each candidate (their dice differ).
    pub rollouts: u32,
    /// Actions a playout plays at most (it also stops where this main phase ends, or with
    /// `upkeep` at the next one).
    pub horizon: u32,
    /// Turns a playout plays, per searching camp: it stops when the decision has passed from
    /// one camp to the other this many times (1: the searching camp's own turn played out; 2:
    /// and the reply; 0: no limit but `horizon`).
    pub turns: PerCamp,
    /// Whether a playout goes on through the next upkeep (to the next main phase) or stops
    /// where this main phase ends.
    pub upkeep: bool,
    /// Whether a playout's last position is scored as the next upkeep's feeding would leave
    /// it (R5.3–R5.4, played on the copy: it has no dice), so that an army grown past what
    /// its zone can feed counts its famine tokens and the units they kill.
    pub foresight: bool,
    /// Battles simulated for the candidates' odds inside a playout (the candidates' own
    /// `odds_samples` at the real decision): most of a playout's time went to them.
    pub odds_samples: u32,
    /// Candidates weighed at most, best by the candidates' own scores first.
    pub candidates: u32,
    /// How much better (in `eval` points, mean over the playouts) another proposal must do
    /// than the candidates' own choice to be played instead, per camp: luck in a few playouts
    /// is not an edge.
    pub margin: PerCamp,
    /// The most an attack (an `Engage` proposal) must beat the candidates' own choice by, per
    /// camp, whatever the difficulty's margin: a battle's playouts are noisy, and a cautious
    /// margin kept the AI out of the battles the game is about.
    pub attack_margin: PerCamp,
    /// How a position is scored.
    pub eval: EvalWeights,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            budgets: BTreeMap::new(),
            margins: BTreeMap::new(),
            rollouts: 3,
            horizon: 16,
            turns: PerCamp {
                chaos: 1,
                eladrin: 1,
            },
            upkeep: false,
            foresight: false,
            odds_samples: 40,
            candidates: 8,
            margin: PerCamp {
                chaos: 30,
                eladrin: 100,
            },
            attack_margin: PerCamp {
                chaos: 30,
                eladrin: 100,
            },
            eval: EvalWeights::default(),
        }
    }
}

/// A number per camp: a difficulty's search budgets (simulated actions per decision; 0: the
/// candidates alone, without search), the search's margins, or an evaluation weight that each
/// camp's search counts differently (`eval.drain`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PerCamp {
    /// The Chaos AI's.
    pub chaos: u32,
    /// The Eladrin AI's.
    pub eladrin: u32,
}

impl PerCamp {
    /// `camp`'s number.
    pub fn of(&self, camp: Camp) -> u32 {
        match camp {
            Camp::Chaos => self.chaos,
            Camp::Eladrins => self.eladrin,
        }
    }
}

/// How the search scores a position, from Chaos' side (the Eladrins' score is its negative).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalWeights {
    /// Each unit alive (for its camp).
    pub unit: i64,
    /// Each hit point a unit has left (for its camp).
    pub hp: i64,
    /// Each corrupted tile (for Chaos).
    pub corrupted: i64,
    /// Each portal cell built (for the Eladrins).
    pub cell: i64,
    /// Each crystal on the portal's power track (for the Eladrins).
    pub power: i64,
    /// Each corruption marker on the power track (for Chaos).
    pub marker: i64,
    /// Each Eladrin outpost standing (for the Eladrins).
    pub outpost: i64,
    /// Each outpost the Eladrins hold fewer than the level's victory asks for
    /// (`victory.outposts`), on top of `outpost` (for Chaos: they cannot win until they found
    /// another, so on such a level the first outpost taken nearly decides the game).
    pub short: i64,
    /// Each improvement on an uncorrupted tile (for the Eladrins: what feeds the portal).
    pub improvement: i64,
    /// Each resource in the Eladrin outposts' stocks (for the Eladrins).
    pub stock: i64,
    /// Each famine token on an Eladrin army (for Chaos).
    pub famine: i64,
    /// Each Eladrin unit standing on a corrupted tile (for Chaos: it rolls its resistance at
    /// the next upkeep, R6.3).
    pub exposed: i64,
    /// Each Chaos unit, per hex it stands closer than `range` to the nearest Eladrin outpost
    /// (for Chaos: a unit far from the outposts threatens nothing).
    pub distance: i64,
    /// How far from the nearest outpost a Chaos unit counts for `distance`, in hexes (a big
    /// map, whose rifts stand far from the outposts, needs more for a march to show).
    pub range: u32,
    /// Each corrupted tile within `reach` hexes of the portal, per hex closer than `reach`
    /// (for Chaos: corruption next to the portal puts markers on its track, R8.3).
    pub approach: i64,
    /// How far from the portal corruption counts for `approach`, in hexes.
    pub reach: u32,
    /// Each open rift (for Chaos: one corruption attempt per rift each upkeep, R6.1).
    pub rift: i64,
    /// Each point of upkeep the Eladrin units pay each cycle (R5.2) in a resource the portal
    /// still needs, up to what it needs, beyond what they paid where the playouts started (for
    /// Chaos: a golem recruited eats the crystals that would power the portal, R8.2), as each
    /// camp's search weighs it: the one term not shared, as what the Eladrins plan to spend is
    /// theirs to count.
    pub drain: PerCamp,
    /// A game won.
    pub win: i64,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            unit: 120,
            hp: 40,
            corrupted: 100,
            cell: 150,
            power: 120,
            marker: 400,
            outpost: 500,
            short: 5000,
            improvement: 80,
            stock: 10,
            famine: 40,
            exposed: 80,
            distance: 20,
            range: 8,
            approach: 30,
            reach: 6,
            rift: 0,
            drain: PerCamp {
                chaos: 0,
                eladrin: 1000,
            },
            win: 100_000,
        }
    }
}

/// All the base content (and a mod's, later) in one place.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContentSet {
    /// rules.ron
    pub rules: RulesNumbers,
    /// terrains.ron
    pub terrains: Vec<Terrain>,
    /// improvements.ron
    pub improvements: Vec<Improvement>,
    /// buildings.ron
    pub buildings: Vec<Building>,
    /// outposts.ron
    pub outpost_sizes: Vec<OutpostSize>,
    /// units.ron
    pub units: Vec<UnitType>,
    /// events.ron
    pub events: Vec<Card>,
    /// chaos.ron
    pub chaos: Vec<Card>,
    /// research.ron
    pub research: Vec<Tech>,
    /// artifacts.ron
    pub artifacts: Vec<Card>,
    /// exploration.ron
    pub exploration: Vec<ExplorationCard>,
    /// rituals.ron
    pub rituals: Vec<Ritual>,
    /// portal.ron
    pub portal: Option<PortalDef>,
    /// difficulty.ron
    pub difficulties: Vec<Difficulty>,
    /// ai.ron
    pub ai: AiWeights,
    /// tracks.ron: the chapters' tracks and counted resources (none in the base game).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackDef>,
    /// campaigns.ron: the campaigns (K1), chapters in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub campaigns: Vec<super::campaign::Campaign>,
    /// The chapters' own catalogue files (`content::catalogue`), by file name: each entry in
    /// canonical RON (read typed with `ContentDb::catalogue`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub catalogues: BTreeMap<String, Vec<String>>,
}

/// A hex coordinate as levels write it: `(q, r)` axial.
pub type At = (i32, i32);

/// How a level's map is made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MapDef {
    /// A hexagon of `radius` filled by a seeded generator weighted by terrain `weight`s.
    Generated {
        /// Hexagon radius.
        radius: u32,
        /// Generator seed (independent of the game seed, so a level's map is fixed).
        seed: u64,
    },
    /// Rows of one-letter terrain codes, top to bottom, in "odd-r" offset layout.
    Rows {
        /// Terrain id for each letter.
        legend: BTreeMap<char, String>,
        /// The rows.
        rows: Vec<String>,
    },
}

/// An outpost placed by a level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutpostStart {
    /// Name shown on the map.
    pub name: String,
    /// Where.
    pub at: At,
    /// Size id.
    pub size: String,
    /// Starting stock.
    #[serde(default)]
    pub stock: Stock,
    /// Buildings already standing.
    #[serde(default)]
    pub buildings: Vec<String>,
    /// The portal stands here.
    #[serde(default)]
    pub portal: bool,
    /// The Eladrin seat it belongs to (only that seat builds and recruits there); none: shared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
}

/// An army placed by a level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyStart {
    /// Its camp.
    pub camp: Camp,
    /// Where.
    pub at: At,
    /// Unit type ids.
    pub units: Vec<String>,
    /// The Eladrin seat it belongs to (only that seat commands it); none: shared by all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
}

/// What wins a level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Victory {
    /// Cycles the Eladrins must hold before Chaos wins by exhaustion (0: the rules default).
    pub max_cycles: u32,
    /// Technologies the Eladrins must also have researched to win.
    pub research: Vec<String>,
    /// Outposts the Eladrins must also hold to win.
    pub outposts: u32,
    /// Rifts the Eladrins must also have closed to win.
    pub rifts_closed: u32,
    /// The powered portal does not win this level: only its chapters' conditions do.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub without_portal: bool,
}

/// A scenario (`levels/*.ron`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Unique id (its file name without `.ron`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// One paragraph for the level list.
    pub description: String,
    /// Text shown when the level starts.
    #[serde(default)]
    pub intro: String,
    /// This level teaches: the window shows short hints (`assets/help/hints.ron`) the first
    /// time each phase, panel and action appears (players can turn them off).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// Difficulty id used when none is asked for.
    #[serde(default = "normal")]
    pub difficulty: String,
    /// The map.
    pub map: MapDef,
    /// Terrain set on given hexes after the map is made.
    #[serde(default)]
    pub terrain: Vec<(At, String)>,
    /// Open rifts.
    pub rifts: Vec<At>,
    /// Tiles corrupted at the start (rifts always are).
    #[serde(default)]
    pub corrupted: Vec<At>,
    /// Outposts.
    pub outposts: Vec<OutpostStart>,
    /// Improvements standing at the start.
    #[serde(default)]
    pub improvements: Vec<(At, String)>,
    /// Armies.
    #[serde(default)]
    pub armies: Vec<ArmyStart>,
    /// Artifact tokens.
    #[serde(default)]
    pub artifacts: Vec<At>,
    /// Resources lying on tiles at the start.
    #[serde(default)]
    pub lying: Vec<(At, Stock)>,
    /// Research cards left out of this level's deck.
    #[serde(default)]
    pub exclude_research: Vec<String>,
    /// Victory rules.
    #[serde(default)]
    pub victory: Victory,
    /// This level's adjustments to difficulties, by difficulty id.
    #[serde(default)]
    pub difficulty_tweaks: BTreeMap<String, DifficultyTweak>,
    /// This level's own AI settings: only the fields of `ai.ron` it plays differently, at any
    /// depth (`ai: (chaos: (corrupt: 150), eladrin: (sally_radius: 4))`), merged over
    /// `ai.ron` at load, so one map can be tuned without moving every other level. Kept as
    /// written (raw RON); checked against `AiWeights`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "raw_some",
        serialize_with = "raw_inner"
    )]
    pub ai: Option<Box<ron::value::RawValue>>,
    /// The chapters this level plays (their plugins must be in the game): their steps may be
    /// listed in `steps`, their state is saved, their victory conditions are checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chapters: Vec<String>,
    /// The steps of a cycle, in order (core ids `R2`…`R9` and the chapters' own); none: the
    /// core's cycle, R2 to R9. A step may be given to another camp or seat (`by`, `among`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepPlay>>,
    /// The Eladrin seats it is played by at least: a game started with fewer players (solo
    /// play) fills the others with AI seats (a chapter where seats compete for slots needs
    /// rivals). None: any number, one by default.
    #[serde(default, skip_serializing_if = "LevelSeats::is_default")]
    pub seats: LevelSeats,
    /// Each chapter's own level fields, by chapter id, read by that chapter (`rules::chapter`).
    /// Kept as written (raw RON), so a chapter's own enums and resource maps read back whole.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ext: BTreeMap<String, Box<ron::value::RawValue>>,
}

/// The seats a level is played by at least, and the names of the AI seats that fill them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LevelSeats {
    /// At least this many Eladrin seats (at most 8; 0 or 1: no filling).
    pub min: u8,
    /// The AI seats' names, in order (each gets ` (AI)`); past the list, `Seat 2`, `Seat 3`…
    pub names: Vec<String>,
}

impl LevelSeats {
    /// No filling asked for.
    pub fn is_default(&self) -> bool {
        *self == LevelSeats::default()
    }
}

/// Who decides a step, or takes a turn in one: a camp, or one Eladrin seat (a hot-seat player,
/// from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Who {
    /// The Eladrins: whichever seat has the Eladrin turn.
    Eladrins,
    /// Chaos.
    Chaos,
    /// This Eladrin seat.
    Seat(u8),
}

impl Who {
    /// The camp this is.
    pub fn camp(self) -> Camp {
        match self {
            Who::Chaos => Camp::Chaos,
            Who::Eladrins | Who::Seat(_) => Camp::Eladrins,
        }
    }
}

/// Who takes turns in a step of rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Among {
    /// The Eladrins, then Chaos.
    Camps,
    /// Each Eladrin seat in order.
    Seats,
    /// Each Eladrin seat in order, then Chaos.
    SeatsThenChaos,
}

/// One step of a level's cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepPlay {
    /// The step's id (`R5`, or a chapter's).
    pub id: String,
    /// A decision: who decides it here, instead of the step's own default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Who>,
    /// A step of rounds: who takes turns here, instead of the step's own default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub among: Option<Among>,
}

/// A raw RON value written without `Some(…)` (`Level.ai`).
fn raw_some<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Box<ron::value::RawValue>>, D::Error> {
    Box::<ron::value::RawValue>::deserialize(d).map(Some)
}

/// Writes `raw_some`'s value back as it was read (never as `Some(…)`).
fn raw_inner<S: serde::Serializer>(
    v: &Option<Box<ron::value::RawValue>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(raw) => raw.serialize(s),
        None => s.serialize_none(),
    }
}

fn normal() -> String {
    "normal".to_string()
}
