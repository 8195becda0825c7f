//! Scenario tests as data, like Wesnoth's WML unit tests: a RON file names a level, a seed,
//! scripted dice and a list of steps (actions, AI turns, expectations on the state). The
//! `test-scenario` command and `cargo test` (`tests/scenarios/`, the example mod's
//! `scenarios/`) run them. A failure prints the expectation, the actual value and the action
//! that led there.
//!
//! ```ron
//! (
//!     name: "A farm's food reaches the stock",
//!     level: "first_light",
//!     seed: 3,
//!     steps: [
//!         Expect(Step("R9")),
//!         Do(BuildBuilding(outpost: 1, building: "granary")),
//!         Expect(Building(outpost: "Dawnwatch", building: "granary", state: UnderConstruction)),
//!     ],
//! )
//! ```

use std::fmt;
use std::path::{Component, Path};
use std::sync::Arc;

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::rules::chapter::Viewer;

use crate::content::{At, Camp, ContentDb, Problem, Res, SourceFile, parse_ron};
use crate::rules::{
    Action, Army, Cycle, GameRng, GameWorld, Outcome, Outpost, Portal, Research, Rift, setup,
    submit,
};

/// Most steps in one scenario.
pub const MAX_STEPS: usize = 10_000;
/// Most actions one `Ai` step may play.
pub const MAX_AI_ACTIONS: u32 = 100_000;

/// A comparison with a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cmp {
    /// Exactly.
    Eq(u32),
    /// At least.
    AtLeast(u32),
    /// At most.
    AtMost(u32),
}

impl Cmp {
    fn holds(self, v: u32) -> bool {
        match self {
            Cmp::Eq(n) => v == n,
            Cmp::AtLeast(n) => v >= n,
            Cmp::AtMost(n) => v <= n,
        }
    }
}

impl fmt::Display for Cmp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmp::Eq(n) => write!(f, "{n}"),
            Cmp::AtLeast(n) => write!(f, "at least {n}"),
            Cmp::AtMost(n) => write!(f, "at most {n}"),
        }
    }
}

/// Where a building stands in an outpost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BuildingState {
    /// Not there.
    Absent,
    /// Time markers left (R4).
    UnderConstruction,
    /// Built.
    Ready,
}

/// What a power-track cell holds (R8.2–R8.3: crystals fill from the left, markers after them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// Nothing yet.
    Empty,
    /// A crystal.
    Crystal,
    /// A corruption marker.
    Marker,
}

fn eladrins() -> Camp {
    Camp::Eladrins
}

/// Something that must be true of the game state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Check {
    /// A resource in an outpost's stock (by outpost name).
    Stock {
        /// Outpost name.
        outpost: String,
        /// Resource.
        res: Res,
        /// Expected amount.
        is: Cmp,
    },
    /// A resource lying on a tile (R3.2).
    Lying {
        /// Tile.
        at: At,
        /// Resource.
        res: Res,
        /// Expected amount.
        is: Cmp,
    },
    /// Whether a tile is corrupted (rifts count, R6).
    Corrupted {
        /// Tile.
        at: At,
        /// Expected.
        is: bool,
    },
    /// Whether a tile holds an open rift.
    OpenRift {
        /// Tile.
        at: At,
        /// Expected.
        is: bool,
    },
    /// The improvement on a tile (`None`: bare).
    Improvement {
        /// Tile.
        at: At,
        /// Improvement id.
        is: Option<String>,
    },
    /// A building's state in an outpost.
    Building {
        /// Outpost name.
        outpost: String,
        /// Building id.
        building: String,
        /// Expected state.
        state: BuildingState,
    },
    /// Units of a camp on a tile.
    Units {
        /// Camp.
        camp: Camp,
        /// Tile.
        at: At,
        /// Expected count.
        is: Cmp,
    },
    /// Hit points left of the first unit of a type on a tile, as the combat counts them: its
    /// card's, plus the technology bonus (Eladrins), less its wounds and its army's famine tokens
    /// (R5.4).
    UnitHp {
        /// Tile.
        at: At,
        /// Unit type id.
        unit: String,
        /// Expected hit points left.
        is: Cmp,
    },
    /// Action points left of the first unit of a type on a tile (R9.4).
    ActionPoints {
        /// Tile.
        at: At,
        /// Unit type id.
        unit: String,
        /// Expected points.
        is: Cmp,
    },
    /// Famine tokens on a tile (R5.4): on the armies of `camp` (the Eladrins unless named)
    /// added up, or on one army when `army` names its id.
    Famine {
        /// Tile.
        at: At,
        /// Whose armies.
        #[serde(default = "eladrins")]
        camp: Camp,
        /// One army only.
        #[serde(default)]
        army: Option<u32>,
        /// Expected tokens.
        is: Cmp,
    },
    /// Time markers on a tile, as the board shows them: the countdown of its improvement and of
    /// the buildings of an outpost there (R4), and one on each of them and each unit there left
    /// inactive by unpaid upkeep (R5.2).
    TimeMarkers {
        /// Tile.
        at: At,
        /// Expected markers.
        is: Cmp,
    },
    /// Things on a tile left inactive by unpaid upkeep this phase (R5.2): its improvement, the
    /// buildings of an outpost there, its units.
    Inactive {
        /// Tile.
        at: At,
        /// Expected count.
        is: Cmp,
    },
    /// Portal cells built, both arches together (R8.1).
    PortalCells(Cmp),
    /// Crystals on the power track (R8.2).
    PortalPower(Cmp),
    /// Corruption markers on the power track (R8.3).
    PortalCorruption(Cmp),
    /// What a cell of the power track holds, counted from 1 on the left (R8.2–R8.3).
    PowerCell {
        /// 1-based cell.
        cell: u32,
        /// Expected content.
        is: Cell,
    },
    /// A technology researched (R7).
    Researched(String),
    /// A technology not researched (R7).
    NotResearched(String),
    /// The cycle number.
    Cycle(Cmp),
    /// The step the game waits in (`R9` is the main phase).
    Step(String),
    /// The winner (`None`: the game goes on).
    Winner(Option<Camp>),
    /// A value on a level track (a chapter's Rage or glory, `assets/content/tracks.ron`), as
    /// its holder has it (a negative value reads 0).
    Track {
        /// Track id.
        track: String,
        /// Whose: `Seat(0)`, `Camp(Chaos)`.
        holder: crate::rules::tracks::Holder,
        /// Expected value.
        is: Cmp,
    },
    /// A value of a chapter's state, by its path in the state as a save writes it:
    /// `seats[0].flame`, `sheets[Seat(1)].hand`, `pillaged` (a field by its name, a map's entry
    /// by its key, a list's by its index or its entries' `id`). `is` compares a number as it is
    /// (below 0 reads 0), `true`/`false` as 1/0, a list, a map or a text by its length, `None`
    /// as 0; `text` compares the value written in RON (`["?", "?"]`). Read as `seen_by` may know
    /// the state (everything when left out): `Seat(1)` sees no other seat's hidden cards,
    /// `Chaos` none.
    Chapter {
        /// The chapter (`"mercenaries"`).
        chapter: String,
        /// The value's path in the chapter's state.
        path: String,
        /// Expected value, as a number.
        #[serde(default)]
        is: Option<Cmp>,
        /// Expected value, as RON.
        #[serde(default)]
        text: Option<String>,
        /// Who looks: `Some(Seat(0))`, `Some(Chaos)`.
        #[serde(default)]
        seen_by: Option<Viewer>,
    },
    /// The chapter's events the last action told (an AI step: its last action), of one kind:
    /// the event's name as the chapter's words and saves write it (`Flame`, `Pillaged`).
    Told {
        /// The chapter.
        chapter: String,
        /// The event's name.
        kind: String,
        /// How many.
        is: Cmp,
    },
}

/// Where the chronicle stood before the scenario's last action (its events since are what it
/// told).
#[derive(Resource, Default)]
struct ToldFrom(usize);

/// The value at `path` in a chapter's state (its RON text), as a number to compare, and its
/// text; or why there is none there.
fn chapter_value(text: &str, path: &str) -> Result<(u32, String), String> {
    use ron::Value;
    let found = crate::content::ron_text::value_at(text, path)
        .ok_or_else(|| format!("no `{path}` in the state"))?;
    let shown = found.to_string();
    let mut v: Value = ron::from_str(found).map_err(|e| format!("`{path}` is {shown}: {e}"))?;
    while let Value::Option(Some(inner)) = v {
        v = *inner;
    }
    let n = match &v {
        Value::Number(_) => v.clone().into_rust::<i64>().map_or(0, |n| n.max(0)) as u32,
        Value::Bool(b) => u32::from(*b),
        Value::Seq(xs) => xs.len() as u32,
        Value::Map(m) => m.len() as u32,
        Value::String(t) => t.chars().count() as u32,
        Value::Option(None) | Value::Unit => 0,
        _ => {
            return Err(format!(
                "`{path}` is {shown}: not a number, a list or a map"
            ));
        }
    };
    Ok((n, shown))
}

/// One step of a scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// The Eladrins submit an action; it must be accepted.
    Do(Action),
    /// A camp submits an action; it must be accepted.
    DoAs(Camp, Action),
    /// The Eladrins activate their army on this tile (R9.4); it must be accepted.
    ActivateAt(At),
    /// An action that must be refused, with a reason containing this text (e.g. `R9.1`).
    Refused {
        /// Who tries.
        by: Camp,
        /// The action.
        action: Action,
        /// Text the reason must contain.
        reason: String,
    },
    /// The next d6 rolls give these faces (then the seeded dice go on).
    Dice(Vec<u8>),
    /// The AIs play this many actions (or until the game ends).
    Ai(u32),
    /// The AIs play until the main phase (R9) of this cycle, or the end of the game.
    AiUntilCycle(u32),
    /// A check on the state.
    Expect(Check),
}

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What it shows.
    pub name: String,
    /// Level id, or a level file (`….ron`) relative to this scenario's folder: a tiny map made
    /// for the test.
    pub level: String,
    /// Difficulty id (the level's own when absent).
    #[serde(default)]
    pub difficulty: Option<String>,
    /// Game seed.
    #[serde(default)]
    pub seed: u64,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// Why a scenario failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// 1-based step number.
    pub step: usize,
    /// The step as written.
    pub what: String,
    /// Expected vs actual, or the refusal.
    pub detail: String,
    /// The last action played before it, if any.
    pub after: Option<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} `{}`: {}", self.step, self.what, self.detail)?;
        if let Some(a) = &self.after {
            write!(f, "\n    after {a}")?;
        }
        Ok(())
    }
}

/// Parses a scenario file.
pub fn parse(file: &SourceFile) -> Result<Scenario, Problem> {
    let s: Scenario = parse_ron(file)?;
    if s.steps.len() > MAX_STEPS {
        return Err(Problem::whole_file(
            std::path::Path::new(&file.path),
            format!("more than {MAX_STEPS} steps: split the scenario"),
        ));
    }
    Ok(s)
}

fn hex(at: At) -> Hex {
    Hex::new(at.0, at.1)
}

/// The outposts and armies with their ids, to help write actions.
fn ids_table(world: &mut World) -> String {
    let mut out: Vec<String> = world
        .query::<&Outpost>()
        .iter(world)
        .map(|o| format!("outpost {} = {} ({}, {})", o.id, o.name, o.hex.x, o.hex.y))
        .collect();
    let mut armies: Vec<String> = world
        .query::<&Army>()
        .iter(world)
        .map(|a| {
            let units: Vec<String> = a
                .units
                .iter()
                .map(|u| format!("{} {}", u.id, u.kind))
                .collect();
            format!(
                "army {} = {:?} at ({}, {}): {}",
                a.id,
                a.camp,
                a.hex.x,
                a.hex.y,
                units.join(", ")
            )
        })
        .collect();
    out.sort();
    armies.sort();
    out.extend(armies);
    let offer = &world.resource::<Research>().offer;
    if !offer.is_empty() {
        out.push(format!("research offered: {}", offer.join(", ")));
    }
    out.join("; ")
}

/// The actual value a check looks at, and whether it holds.
/// The first unit of type `kind` on a tile (armies by id), with its army.
fn unit_at(world: &mut World, at: At, kind: &str) -> Option<(Army, crate::rules::Unit)> {
    let mut armies: Vec<Army> = world
        .query::<&Army>()
        .iter(world)
        .filter(|a| a.hex == hex(at))
        .cloned()
        .collect();
    armies.sort_by_key(|a| a.id);
    armies.into_iter().find_map(|a| {
        let u = a.units.iter().find(|u| u.kind == kind)?.clone();
        Some((a, u))
    })
}

/// Time markers on a tile: (countdowns, R4; inactive marks, R5.2).
fn markers_at(world: &mut World, at: At) -> (u32, u32) {
    let mut works: Vec<crate::rules::Works> = Vec::new();
    if let Some(w) = world.tile(hex(at)).and_then(|t| t.improvement.clone()) {
        works.push(w);
    }
    for o in world.query::<&Outpost>().iter(world) {
        if o.hex == hex(at) {
            works.extend(o.buildings.iter().cloned());
        }
    }
    let units = world
        .query::<&Army>()
        .iter(world)
        .filter(|a| a.hex == hex(at))
        .flat_map(|a| a.units.iter())
        .filter(|u| u.inactive)
        .count() as u32;
    let timers = works.iter().map(|w| u32::from(w.timer)).sum();
    let idle = works.iter().filter(|w| w.inactive).count() as u32 + units;
    (timers, idle)
}

fn look(world: &mut World, check: &Check) -> (bool, String) {
    let outpost = |world: &mut World, name: &str| {
        world
            .query::<&Outpost>()
            .iter(world)
            .find(|o| o.name == name)
            .cloned()
    };
    let tile = |world: &mut World, at: At| world.tile(hex(at)).cloned();
    let missing = |what: String| (false, format!("{what} does not exist"));
    match check {
        Check::Stock {
            outpost: n,
            res,
            is,
        } => match outpost(world, n) {
            Some(o) => {
                let v = o.stock.get(*res);
                (is.holds(v), v.to_string())
            }
            None => missing(format!("outpost `{n}`")),
        },
        Check::Lying { at, res, is } => match tile(world, *at) {
            Some(t) => {
                let v = t.lying.get(*res);
                (is.holds(v), v.to_string())
            }
            None => missing(format!("tile {at:?}")),
        },
        Check::Corrupted { at, is } => match tile(world, *at) {
            Some(t) => (t.is_corrupted() == *is, t.is_corrupted().to_string()),
            None => missing(format!("tile {at:?}")),
        },
        Check::OpenRift { at, is } => match tile(world, *at) {
            Some(t) => {
                let open = t.rift == Rift::Open;
                (open == *is, open.to_string())
            }
            None => missing(format!("tile {at:?}")),
        },
        Check::Improvement { at, is } => match tile(world, *at) {
            Some(t) => {
                let v = t.improvement.as_ref().map(|w| w.id.clone());
                (v == *is, format!("{v:?}"))
            }
            None => missing(format!("tile {at:?}")),
        },
        Check::Building {
            outpost: n,
            building,
            state,
        } => match outpost(world, n) {
            Some(o) => {
                let v = match o.buildings.iter().find(|b| b.id == *building) {
                    None => BuildingState::Absent,
                    Some(b) if b.timer > 0 => BuildingState::UnderConstruction,
                    Some(_) => BuildingState::Ready,
                };
                (v == *state, format!("{v:?}"))
            }
            None => missing(format!("outpost `{n}`")),
        },
        Check::Units { camp, at, is } => {
            let v: u32 = world
                .query::<&Army>()
                .iter(world)
                .filter(|a| a.camp == *camp && a.hex == hex(*at))
                .map(|a| a.units.len() as u32)
                .sum();
            (is.holds(v), v.to_string())
        }
        Check::UnitHp { at, unit, is } => match unit_at(world, *at, unit) {
            Some((a, u)) => {
                let v = crate::rules::units::hp_left(world, &a, &u).max(0) as u32;
                (is.holds(v), v.to_string())
            }
            None => missing(format!("a `{unit}` at {at:?}")),
        },
        Check::ActionPoints { at, unit, is } => match unit_at(world, *at, unit) {
            Some((_, u)) => (is.holds(u32::from(u.ap)), u.ap.to_string()),
            None => missing(format!("a `{unit}` at {at:?}")),
        },
        Check::Famine { at, camp, army, is } => {
            let armies: Vec<Army> = world
                .query::<&Army>()
                .iter(world)
                .filter(|a| a.hex == hex(*at) && a.camp == *camp)
                .filter(|a| army.is_none_or(|id| a.id == id))
                .cloned()
                .collect();
            match army {
                Some(id) if armies.is_empty() => missing(format!("{camp:?} army {id} at {at:?}")),
                _ => {
                    let v: u32 = armies.iter().map(|a| a.famine).sum();
                    (is.holds(v), v.to_string())
                }
            }
        }
        Check::TimeMarkers { at, is } => {
            let (timers, idle) = markers_at(world, *at);
            let v = timers + idle;
            (
                is.holds(v),
                format!("{v} ({timers} counting down, {idle} inactive)"),
            )
        }
        Check::Inactive { at, is } => {
            let (_, idle) = markers_at(world, *at);
            (is.holds(idle), idle.to_string())
        }
        Check::PortalCells(is) => {
            let v: u32 = world.resource::<Portal>().built.iter().sum();
            (is.holds(v), v.to_string())
        }
        Check::PortalPower(is) => {
            let v = world.resource::<Portal>().power;
            (is.holds(v), v.to_string())
        }
        Check::PortalCorruption(is) => {
            let v = world.resource::<Portal>().corruption;
            (is.holds(v), v.to_string())
        }
        Check::Researched(t) => {
            let done = &world.resource::<Research>().done;
            (done.contains(t), format!("researched: {done:?}"))
        }
        Check::NotResearched(t) => {
            let done = &world.resource::<Research>().done;
            (!done.contains(t), format!("researched: {done:?}"))
        }
        Check::PowerCell { cell, is } => {
            let p = world.resource::<Portal>();
            let v = match cell.checked_sub(1) {
                Some(i) if i < p.power => Cell::Crystal,
                Some(i) if i < p.power + p.corruption => Cell::Marker,
                _ => Cell::Empty,
            };
            (
                v == *is,
                format!("{v:?} ({} crystals, {} markers)", p.power, p.corruption),
            )
        }
        Check::Cycle(is) => {
            let v = world.resource::<Cycle>().number;
            (is.holds(v), v.to_string())
        }
        Check::Track { track, holder, is } => {
            let db = world.content();
            if !db.set.tracks.iter().any(|t| t.id == *track) {
                let known: Vec<&str> = db.set.tracks.iter().map(|t| t.id.as_str()).collect();
                return missing(format!(
                    "track `{track}` (tracks.ron declares: {})",
                    known.join(", ")
                ));
            }
            let v = crate::rules::tracks::get(world, track, *holder).max(0) as u32;
            (is.holds(v), v.to_string())
        }
        Check::Chapter {
            chapter,
            path,
            is,
            text,
            seen_by,
        } => {
            let viewer = seen_by.unwrap_or(Viewer::All);
            let states = crate::rules::chapter::capture(world, viewer);
            let Some(states_text) = states.get(chapter) else {
                let in_play: Vec<&String> = states.keys().collect();
                return missing(format!(
                    "the state of the chapter `{chapter}` (chapters with a state in play: {in_play:?})"
                ));
            };
            match chapter_value(states_text, path) {
                Ok((v, shown)) => {
                    let same_text = text.as_ref().is_none_or(|t| {
                        let want: Result<ron::Value, _> = ron::from_str(t);
                        let have: Result<ron::Value, _> = ron::from_str(&shown);
                        matches!((want, have), (Ok(a), Ok(b)) if a == b)
                    });
                    let holds = is.is_none_or(|c| c.holds(v));
                    if is.is_none() && text.is_none() {
                        (false, "nothing to compare: give `is` or `text`".into())
                    } else {
                        // A failure shows the value, up to a line's worth.
                        let short: String = shown.chars().take(300).collect();
                        (holds && same_text, short)
                    }
                }
                Err(why) => (false, why),
            }
        }
        Check::Told { chapter, kind, is } => {
            let from = world.get_resource::<ToldFrom>().map_or(0, |t| t.0);
            let told = &world.resource::<crate::rules::Chronicle>().0;
            let names: Vec<String> = told[from.min(told.len())..]
                .iter()
                .filter_map(|e| match e {
                    crate::rules::GameEvent::Chapter { chapter: c, what } if c == chapter => {
                        Some(super::chapter_kind(c, &what.ron()))
                    }
                    _ => None,
                })
                .collect();
            let want = format!("{chapter}:{kind}");
            let v = names.iter().filter(|n| **n == want).count() as u32;
            (is.holds(v), format!("{v} (told: {names:?})"))
        }
        Check::Step(s) => {
            let v = world.step_id();
            (v == s, v.to_string())
        }
        Check::Winner(w) => {
            let o = world.resource::<Outcome>();
            let v = o.winner;
            let text = match v {
                Some(c) => format!(
                    "{c:?} ({})",
                    o.reason.as_ref().map(|r| r.to_string()).unwrap_or_default()
                ),
                None => "none yet".into(),
            };
            (v == *w, text)
        }
    }
}

/// Runs a scenario on `content`. `Ok` with the number of steps, or the first failure.
pub fn run(content: Arc<ContentDb>, s: &Scenario) -> Result<usize, Failure> {
    let fail = |step: usize, what: String, detail: String, after: &Option<String>| Failure {
        step,
        what,
        detail,
        after: after.clone(),
    };
    let mut app = setup::new_game(content, &s.level, s.difficulty.as_deref(), s.seed)
        .map_err(|e| fail(0, "start".into(), e, &None))?;
    let world = app.world_mut();
    let mut after: Option<String> = None;
    for (i, step) in s.steps.iter().enumerate() {
        let n = i + 1;
        let what = ron::to_string(step).unwrap_or_else(|_| format!("{step:?}"));
        let play = |world: &mut World, by: Camp, a: Action, after: &mut Option<String>| {
            let text = ron::to_string(&a).unwrap_or_default();
            let told = world.resource::<crate::rules::Chronicle>().0.len();
            world.insert_resource(ToldFrom(told));
            match submit(world, by, a) {
                Ok(()) => {
                    *after = Some(format!("step {n}: {by:?} {text}"));
                    Ok(())
                }
                Err(r) => {
                    let (step, cycle) = (world.step_id(), world.resource::<Cycle>().number);
                    Err(format!(
                        "refused: {r}\n    (in step {step}, cycle {cycle}; {})",
                        ids_table(world)
                    ))
                }
            }
        };
        match step {
            Step::Do(a) => play(world, Camp::Eladrins, a.clone(), &mut after)
                .map_err(|d| fail(n, what.clone(), d, &after))?,
            Step::DoAs(by, a) => play(world, *by, a.clone(), &mut after)
                .map_err(|d| fail(n, what.clone(), d, &after))?,
            Step::ActivateAt(at) => {
                let army = world
                    .query::<&Army>()
                    .iter(world)
                    .filter(|a| a.camp == Camp::Eladrins && a.hex == hex(*at))
                    .map(|a| a.id)
                    .min();
                let Some(army) = army else {
                    return Err(fail(
                        n,
                        what,
                        format!("no Eladrin army at {at:?}; {}", ids_table(world)),
                        &after,
                    ));
                };
                play(world, Camp::Eladrins, Action::Activate { army }, &mut after)
                    .map_err(|d| fail(n, what.clone(), d, &after))?;
            }
            Step::Refused { by, action, reason } => {
                let before = crate::rules::snapshot::state_hash(world);
                match submit(world, *by, action.clone()) {
                    Ok(()) => {
                        return Err(fail(
                            n,
                            what,
                            format!("expected a refusal citing `{reason}`, but it was accepted"),
                            &after,
                        ));
                    }
                    Err(r) => {
                        // In the words of the game's table, which has its chapters' words.
                        let tr = world
                            .get_resource::<crate::text::Translations>()
                            .cloned()
                            .unwrap_or_default();
                        let text = r.words(&tr);
                        if !text.contains(reason.as_str()) {
                            return Err(fail(
                                n,
                                what,
                                format!("expected a refusal citing `{reason}`, got: {text}"),
                                &after,
                            ));
                        }
                        if crate::rules::snapshot::state_hash(world) != before {
                            return Err(fail(
                                n,
                                what,
                                "the refused action changed the state".into(),
                                &after,
                            ));
                        }
                    }
                }
            }
            Step::Dice(faces) => {
                if let Some(bad) = faces.iter().find(|f| !(1..=6).contains(*f)) {
                    return Err(fail(n, what, format!("{bad} is not a d6 face"), &after));
                }
                world.resource_mut::<GameRng>().script(faces);
            }
            Step::Ai(count) => {
                for _ in 0..(*count).min(MAX_AI_ACTIONS) {
                    if world.resource::<Outcome>().winner.is_some() {
                        break;
                    }
                    let (by, a) = super::next_action(world);
                    play(world, by, a, &mut after).map_err(|d| fail(n, what.clone(), d, &after))?;
                }
            }
            Step::AiUntilCycle(c) => {
                for _ in 0..MAX_AI_ACTIONS {
                    let cycle = world.resource::<Cycle>().number;
                    if world.resource::<Outcome>().winner.is_some()
                        || cycle > *c
                        || (cycle == *c && world.in_turns())
                    {
                        break;
                    }
                    let (by, a) = super::next_action(world);
                    play(world, by, a, &mut after).map_err(|d| fail(n, what.clone(), d, &after))?;
                }
            }
            Step::Expect(check) => {
                let (ok, actual) = look(world, check);
                if !ok {
                    return Err(fail(
                        n,
                        what,
                        format!("expected {}, actual: {actual}", expectation(check)),
                        &after,
                    ));
                }
            }
        }
    }
    Ok(s.steps.len())
}

/// The expectation in words.
fn expectation(c: &Check) -> String {
    match c {
        Check::Stock { outpost, res, is } => format!("{res:?} in {outpost}'s stock: {is}"),
        Check::Lying { at, res, is } => format!("{res:?} lying on {at:?}: {is}"),
        Check::Corrupted { at, is } => format!("{at:?} corrupted: {is}"),
        Check::OpenRift { at, is } => format!("open rift on {at:?}: {is}"),
        Check::Improvement { at, is } => format!("improvement on {at:?}: {is:?}"),
        Check::Building {
            outpost,
            building,
            state,
        } => format!("{building} in {outpost}: {state:?}"),
        Check::Units { camp, at, is } => format!("{camp:?} units on {at:?}: {is}"),
        Check::UnitHp { at, unit, is } => format!("hit points of the {unit} on {at:?}: {is}"),
        Check::ActionPoints { at, unit, is } => {
            format!("action points of the {unit} on {at:?}: {is}")
        }
        Check::Famine {
            at,
            camp,
            army: None,
            is,
        } => format!("famine tokens of the {camp:?} on {at:?}: {is}"),
        Check::Famine {
            at,
            army: Some(id),
            is,
            ..
        } => format!("famine tokens of army {id} on {at:?}: {is}"),
        Check::TimeMarkers { at, is } => format!("time markers on {at:?}: {is}"),
        Check::Inactive { at, is } => format!("inactive things on {at:?}: {is}"),
        Check::PowerCell { cell, is } => format!("power cell {cell}: {is:?}"),
        Check::NotResearched(t) => format!("`{t}` not researched"),
        Check::PortalCells(is) => format!("portal cells built: {is}"),
        Check::PortalPower(is) => format!("crystals on the power track: {is}"),
        Check::PortalCorruption(is) => format!("corruption markers on the power track: {is}"),
        Check::Researched(t) => format!("`{t}` researched"),
        Check::Cycle(is) => format!("cycle {is}"),
        Check::Step(s) => format!("step {s}"),
        Check::Winner(w) => format!("winner {w:?}"),
        Check::Track { track, holder, is } => format!("track {track} of {holder:?}: {is}"),
        Check::Chapter {
            chapter,
            path,
            is,
            text,
            seen_by,
        } => {
            let want = match (is, text) {
                (Some(c), Some(t)) => format!("{c}, {t}"),
                (Some(c), None) => c.to_string(),
                (None, Some(t)) => t.clone(),
                (None, None) => "?".into(),
            };
            match seen_by {
                None => format!("{chapter}'s {path}: {want}"),
                Some(v) => format!("{chapter}'s {path} as {v:?} sees it: {want}"),
            }
        }
        Check::Told { chapter, kind, is } => {
            format!("{chapter}'s {kind} events told by the last action: {is}")
        }
    }
}

/// The outcome of one scenario file.
#[derive(Debug, Clone)]
pub struct FileResult {
    /// The file.
    pub path: String,
    /// The scenario's name (the file when unreadable).
    pub name: String,
    /// Steps passed, or what failed.
    pub result: Result<usize, String>,
}

/// Parses and runs each file. A scenario whose `level` ends in `.ron` brings its own level
/// file, read relative to the scenario's folder (`own_level`).
pub fn run_files(content: Arc<ContentDb>, files: &[SourceFile]) -> Vec<FileResult> {
    files
        .iter()
        .map(|f| match parse(f) {
            Err(p) => FileResult {
                path: f.path.clone(),
                name: f.path.clone(),
                result: Err(p.to_string()),
            },
            Ok(s) => FileResult {
                path: f.path.clone(),
                name: s.name.clone(),
                result: own_level(&content, Path::new(&f.path), &s)
                    .and_then(|(db, s)| run(db, &s).map_err(|e| e.to_string())),
            },
        })
        .collect()
}

/// The content and scenario to run: as they are when `level` is an id; when it is a path
/// (`levels/tiny.ron`), that level file is read from the scenario's own folder, checked like
/// any level (errors name its file, line and column) and added to a copy of the content. The
/// path must stay inside the folder: relative, no `..`, no link out.
pub fn own_level(
    content: &Arc<ContentDb>,
    scenario_file: &Path,
    s: &Scenario,
) -> Result<(Arc<ContentDb>, Scenario), String> {
    if !s.level.ends_with(".ron") {
        return Ok((content.clone(), s.clone()));
    }
    let rel = Path::new(&s.level);
    if !rel
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!(
            "level `{}`: a scenario's level file is named relative to the scenario's folder, \
             without `..`",
            s.level
        ));
    }
    let dir = match scenario_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let path = dir.join(rel);
    let inside = match (path.canonicalize(), dir.canonicalize()) {
        (Ok(p), Ok(d)) => p.starts_with(d),
        _ => return Err(format!("{}: no such level file", path.display())),
    };
    if !inside {
        return Err(format!(
            "{}: the level file leads outside the scenario's folder",
            path.display()
        ));
    }
    let mut db = (**content).clone();
    let id = db.add_level_file(&path).map_err(|ps| {
        ps.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("\n    ")
    })?;
    let mut s = s.clone();
    s.level = id;
    Ok((Arc::new(db), s))
}
