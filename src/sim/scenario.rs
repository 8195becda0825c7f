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
use std::sync::Arc;

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

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
    /// Hit points left of the first unit of a type on a tile.
    UnitHp {
        /// Tile.
        at: At,
        /// Unit type id.
        unit: String,
        /// Expected hit points left.
        is: Cmp,
    },
    /// Famine tokens on the armies of a camp on a tile (R5.4).
    Famine {
        /// Tile.
        at: At,
        /// Expected tokens.
        is: Cmp,
    },
    /// Portal cells built, both arches together (R8.1).
    PortalCells(Cmp),
    /// Crystals on the power track (R8.2).
    PortalPower(Cmp),
    /// Corruption markers on the power track (R8.3).
    PortalCorruption(Cmp),
    /// A technology researched (R7).
    Researched(String),
    /// The cycle number.
    Cycle(Cmp),
    /// The step the game waits in (`R9` is the main phase).
    Step(String),
    /// The winner (`None`: the game goes on).
    Winner(Option<Camp>),
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
    /// Level id.
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
        Check::UnitHp { at, unit, is } => {
            let db = world.content();
            let mut armies: Vec<Army> = world
                .query::<&Army>()
                .iter(world)
                .filter(|a| a.hex == hex(*at))
                .cloned()
                .collect();
            armies.sort_by_key(|a| a.id);
            let u = armies
                .iter()
                .flat_map(|a| a.units.iter())
                .find(|u| u.kind == *unit);
            match (u, db.unit(unit)) {
                (Some(u), Some(t)) => {
                    let v = u32::from(t.hp.saturating_sub(u.wounds));
                    (is.holds(v), v.to_string())
                }
                _ => missing(format!("a `{unit}` at {at:?}")),
            }
        }
        Check::Famine { at, is } => {
            let v: u32 = world
                .query::<&Army>()
                .iter(world)
                .filter(|a| a.hex == hex(*at))
                .map(|a| a.famine)
                .sum();
            (is.holds(v), v.to_string())
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
        Check::Cycle(is) => {
            let v = world.resource::<Cycle>().number;
            (is.holds(v), v.to_string())
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
                        let text = r.to_string();
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
        Check::Famine { at, is } => format!("famine tokens on {at:?}: {is}"),
        Check::PortalCells(is) => format!("portal cells built: {is}"),
        Check::PortalPower(is) => format!("crystals on the power track: {is}"),
        Check::PortalCorruption(is) => format!("corruption markers on the power track: {is}"),
        Check::Researched(t) => format!("`{t}` researched"),
        Check::Cycle(is) => format!("cycle {is}"),
        Check::Step(s) => format!("step {s}"),
        Check::Winner(w) => format!("winner {w:?}"),
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

/// Parses and runs each file.
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
                result: run(content.clone(), &s).map_err(|e| e.to_string()),
            },
        })
        .collect()
}
