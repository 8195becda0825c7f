//! The game itself, headless: components, resources, messages and systems that run with
//! `MinimalPlugins` and no window, GPU or sound.
//!
//! The cycle (R1.2) is a list of steps, `CycleOrder`: R2 events, R3 generation, R4 time counters,
//! R5 upkeep, R6 corruption, R7 research, R8 portal, then R9 the main phase. Each step is its own
//! schedule (`StepSchedule`) whose systems sit in the ordered `RuleSet`s of that rule. The driver
//! (`advance`) runs a step's schedule once when the cycle enters it; a step that needs a decision
//! then waits for `Action`s and an `Action::Done` (or, in the main phase, two passes in a row).
//! A later chapter adds a step with `App::add_cycle_step` without editing this file.
//!
//! Everything that changes the game goes through `submit` (or the `ActionRequest` message):
//! validate → apply → `GameEvent`s.

pub mod action;
pub mod board;
pub mod campaign;
pub mod chapter;
pub mod decks;
pub mod economy;
pub mod effects;
pub mod event;
pub mod forecast;
pub mod invariants;
pub mod legal;
pub mod main_phase;
pub mod outcome;
pub mod outposts;
pub mod queries;
pub mod rng;
pub mod setup;
pub mod snapshot;
pub mod state;
pub mod tracks;
pub mod units;
pub mod upkeep;
pub mod version;

use std::sync::Arc;

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub use action::{Action, Refusal, submit};
pub use board::{Board, Rift, Tile, Works};
pub use decks::{Decks, Modifiers, Portal, Research};
pub use event::GameEvent;
pub use outposts::Outpost;
pub use rng::GameRng;
pub use units::{Army, Unit};

use crate::content::{Among, Camp, Content, ContentDb, Who};

/// The schedule of one step of the cycle, run once when the cycle enters the step.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StepSchedule(pub &'static str);

/// The ordered system sets of the rules, one per rule or sub-rule, so that plugins can order
/// their systems against them (`.after(RuleSet::R3Collection)`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// R2: draw and apply the events and chaos cards.
    R2Events,
    /// R3.1–R3.2: produce resources on tiles (food rolls for spoilage).
    R3Generation,
    /// R3.3: outposts collect their influence zone into their stock.
    R3Collection,
    /// R4: time counters.
    R4Timers,
    /// R5.1–R5.2: buildings' and units' non-food upkeep.
    R5Buildings,
    /// R5.3–R5.4: armies eat; famine.
    R5Armies,
    /// R6.1–R6.2: corruption attempts.
    R6Attempts,
    /// R6.3: resistance rolls of corrupted units.
    R6Resistance,
    /// R7.2–R7.3: labs research or analyse.
    R7Labs,
    /// R7.4: a new research offer.
    R7Offer,
    /// R8: the portal's phase (reset the crystal count).
    R8Portal,
    /// R9: the main phase's start (reset activations).
    R9Main,
}

/// Whether a step waits for a decision, and how it knows.
pub type NeedsDecision = fn(&mut World) -> bool;

/// How a step is played: the AI, the view, the driver, undo and the sim ask this instead of
/// comparing step ids.
#[derive(Debug, Clone, Copy)]
pub enum StepKind {
    /// Runs its schedule and moves on.
    Automatic,
    /// Waits for `Action::Done` from `by` while `open` says a decision is open (R5, R7, R8). A
    /// level may give the decision to another camp or seat (`StepPlay::by`).
    Decision {
        /// Who decides: a camp, or one Eladrin seat.
        by: Who,
        /// Whether a decision is open now.
        open: NeedsDecision,
    },
    /// The camps alternate actions, the Eladrins first, until two passes in a row (R9).
    Turns,
    /// A chapter's step of rounds: `among` take turns in order (each action of a chapter says
    /// how it uses the turn, `chapter::TurnUse`; `Pass` passes) until every one of them passed
    /// in a row, or `ends` says the step is over. A level may change `among`.
    Round {
        /// Who takes turns.
        among: Among,
        /// The step's own end rule, besides everyone passing.
        ends: Option<NeedsDecision>,
    },
}

impl StepKind {
    /// A decision by the Eladrins, open while `open` says so.
    pub const fn eladrins(open: NeedsDecision) -> StepKind {
        StepKind::Decision {
            by: Who::Eladrins,
            open,
        }
    }
}

/// Every step this program knows: the core's and those `add_cycle_step` registered, and the
/// default cycle (the order a level without `steps` plays). Chapter steps are in `Chapters`.
#[derive(Resource, Debug, Clone, Default)]
pub struct StepCatalogue {
    /// Every step registered with `add_cycle_step`.
    pub all: Vec<StepDef>,
    /// The default cycle, in order.
    pub default: Vec<StepDef>,
}

/// One step of the cycle.
#[derive(Debug, Clone, Copy)]
pub struct StepDef {
    /// Id and schedule label (`R2`… or a plugin's).
    pub id: &'static str,
    /// Title for the phase bar.
    pub title: &'static str,
    /// How it is played.
    pub kind: StepKind,
}

/// The ordered steps of the game's cycle: its level's `steps`, or the default cycle.
#[derive(Resource, Debug, Clone, Default)]
pub struct CycleOrder(pub Vec<StepDef>);

impl CycleOrder {
    /// How the step at this position is played (automatic past the end).
    pub fn kind(&self, step: usize) -> StepKind {
        self.0.get(step).map_or(StepKind::Automatic, |s| s.kind)
    }
    /// The step at this position is played in alternating turns.
    pub fn in_turns(&self, step: usize) -> bool {
        matches!(self.kind(step), StepKind::Turns)
    }
    /// The camp the step where `cycle` stands waits for: whose turn it is in a step of turns
    /// or a round, the deciding camp in a decision; `None` in an automatic step.
    pub fn waits_for(&self, cycle: &Cycle) -> Option<Camp> {
        match self.kind(cycle.step) {
            StepKind::Turns | StepKind::Round { .. } => Some(cycle.turn),
            StepKind::Decision { by, .. } => Some(by.camp()),
            StepKind::Automatic => None,
        }
    }
    /// Position of a step.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.0.iter().position(|s| s.id == id)
    }
}

/// Where a new step goes.
#[derive(Debug, Clone, Copy)]
pub enum Placement {
    /// At the end of the list as it stands (after R9 once the core is in: use `Before("R9")`
    /// for a new upkeep step).
    End,
    /// Right before a step.
    Before(&'static str),
    /// Right after a step.
    After(&'static str),
}

/// Registering steps of the cycle from plugins.
pub trait CycleAppExt {
    /// Adds a step to the default cycle at `at` (played by every level that does not list its
    /// steps); its systems go in `StepSchedule(def.id)`. A chapter's step, played only where a
    /// level lists it, is `ChapterAppExt::add_chapter_step`.
    fn add_cycle_step(&mut self, def: StepDef, at: Placement) -> &mut Self;
}

/// Creates a schedule of the rules whose systems run one after the other on the calling
/// thread. The rules' systems each take the whole world, so they never run side by side, and
/// a multi-threaded executor only added its task pool's overhead to every run: a search runs
/// the R5 step on its copy at the end of every playout (`score_ending`).
pub fn init_rules_schedule(app: &mut App, label: impl bevy::ecs::schedule::ScheduleLabel + Clone) {
    app.init_schedule(label.clone()).edit_schedule(label, |s| {
        s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    });
}

impl CycleAppExt for App {
    fn add_cycle_step(&mut self, def: StepDef, at: Placement) -> &mut Self {
        init_rules_schedule(self, StepSchedule(def.id));
        let mut cat = self
            .world_mut()
            .get_resource_or_insert_with(StepCatalogue::default);
        let order = CycleOrder(cat.default.clone());
        let i = match at {
            Placement::End => order.0.len(),
            Placement::Before(id) => order.position(id).unwrap_or(order.0.len()),
            Placement::After(id) => order.position(id).map(|i| i + 1).unwrap_or(order.0.len()),
        };
        cat.default.insert(i, def);
        cat.all.push(def);
        let default = cat.default.clone();
        // Until a game sets its level's order, the cycle is the default one.
        self.world_mut().insert_resource(CycleOrder(default));
        self
    }
}

/// Where the game stands in its cycle.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cycle {
    /// Cycle number, from 1.
    pub number: u32,
    /// Index into `CycleOrder`.
    pub step: usize,
    /// The current step's schedule has run.
    pub entered: bool,
    /// Main phase: whose turn.
    pub turn: Camp,
    /// Main phase: passes in a row.
    pub passes: u32,
    /// Main phase: the army being activated (R9.4), whose camp's turn goes on until it ends.
    #[serde(default)]
    pub activation: Option<u32>,
    /// Hot-seat: which Eladrin player (index into `GameSetup::players`) has the Eladrin turn.
    #[serde(default)]
    pub player: usize,
    /// A chapter's step gave the Eladrin turn to this seat (a decision by a seat, rounds among
    /// seats); none outside such a step, where `player` has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The seat that plays first in a chapter's rounds among seats (a first-player marker a
    /// chapter passes on); the others follow in seat order from it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_seat: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Cycle {
    /// The Eladrin seat acting now: the seat a chapter step gave the turn to, else the
    /// hot-seat player whose Eladrin turn it is.
    pub fn acting_seat(&self) -> u8 {
        self.seat.unwrap_or(self.player.min(u8::MAX as usize) as u8)
    }
}

impl Default for Cycle {
    fn default() -> Self {
        Cycle {
            number: 1,
            step: 0,
            entered: false,
            turn: Camp::Eladrins,
            passes: 0,
            activation: None,
            player: 0,
            seat: None,
            first_seat: 0,
        }
    }
}

/// The end of the game, once decided.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner.
    pub winner: Option<Camp>,
    /// How it ended (`None` while it goes on). Saved as the sentence format 2 wrote, so saves
    /// and state hashes stay as they were (`outcome::legacy_reason`).
    #[serde(with = "outcome::legacy_reason")]
    pub reason: Option<outcome::EndReason>,
    /// The cycle it ended in.
    pub cycle: u32,
}

/// The chapters the current game plays (its level's `chapters`, `rules::chapter`), set when a
/// game starts or loads. Not state: it follows from the level.
#[derive(Resource, Default, Clone, Debug, PartialEq, Eq)]
pub struct InPlay(pub Vec<String>);

impl InPlay {
    /// The chapter is played in this game.
    pub fn has(&self, chapter: &str) -> bool {
        self.0.iter().any(|c| c == chapter)
    }
}

/// Every event of the game so far (bounded), for the log panel and for tests.
#[derive(Resource, Debug, Clone, Default)]
pub struct Chronicle(pub Vec<GameEvent>);

/// Most events the chronicle keeps (older ones are dropped; the messages still went out).
pub const CHRONICLE_MAX: usize = 20_000;

/// The state hash at the start of every cycle from the second on (each one covers the ones
/// before it, a hash chain): a replay compares them to name the first cycle that differs.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleHashes(pub Vec<u64>);

/// Id counters for units, armies and outposts.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ids {
    /// Next id to hand out.
    pub next: u32,
}

impl Ids {
    /// A fresh id.
    pub fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next
    }
}

/// What game this is: level, difficulty and seed (for saves and replays).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    /// Level id.
    pub level: String,
    /// Difficulty id.
    pub difficulty: String,
    /// Game seed.
    pub seed: u64,
    /// Eladrin players sharing the Eladrin turn in this order (hot-seat); one by default.
    #[serde(default)]
    pub players: Vec<String>,
    /// The rules this game is played under (`version`): kept for its whole life, so a save or
    /// replay made under older rules plays on as it was made.
    #[serde(default, skip_serializing_if = "version::is_first")]
    pub rules: version::Rules,
    /// What a campaign chapter was given at its start (K2, K3): none outside a campaign.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry: Option<campaign::CarryIn>,
}

impl GameSetup {
    /// How many Eladrin seats the game has: one per hot-seat player, at least one, at most 8
    /// (`setup::set_players` bounds the list).
    pub fn seats(&self) -> u8 {
        self.players.len().clamp(1, 8) as u8
    }
}

/// Every action accepted so far, in order, with who sent it (for replays).
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ActionLog(pub Vec<(Camp, Action)>);

/// A request from a player, the AI or a replay, read by `process_requests`.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct ActionRequest {
    /// Who sends it.
    pub by: Camp,
    /// What.
    pub action: Action,
}

/// A refused request, with its reason.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct ActionRefused {
    /// Who sent it.
    pub by: Camp,
    /// What.
    pub action: Action,
    /// Why not.
    pub reason: Refusal,
}

/// Convenience access to the game state in a `World`.
pub trait GameWorld {
    /// The content.
    fn content(&self) -> Arc<ContentDb>;
    /// Records an event: a message for readers, and the chronicle.
    fn emit(&mut self, ev: GameEvent);
    /// The tile at a hex.
    fn tile(&self, h: hexx::Hex) -> Option<&Tile>;
    /// The tile at a hex, mutable.
    fn tile_mut(&mut self, h: hexx::Hex) -> Option<Mut<'_, Tile>>;
    /// Outpost entities sorted by id.
    fn outposts(&mut self) -> Vec<Entity>;
    /// Army entities sorted by id.
    fn armies(&mut self) -> Vec<Entity>;
    /// The outpost with this id.
    fn outpost_by_id(&mut self, id: u32) -> Option<Entity>;
    /// The army with this id.
    fn army_by_id(&mut self, id: u32) -> Option<Entity>;
    /// The current step's id.
    fn step_id(&self) -> &'static str;
    /// How the current step is played.
    fn step_kind(&self) -> StepKind;
    /// The current step is played in alternating turns (the main phase).
    fn in_turns(&self) -> bool {
        matches!(self.step_kind(), StepKind::Turns)
    }
    /// The camp the game waits for: whose turn it is in a step of turns, the deciding camp in
    /// a decision, the Eladrins otherwise.
    fn deciding(&self) -> Camp;
    /// The game's difficulty level (the rules as written when unknown).
    fn difficulty_level(&self) -> crate::content::Difficulty;
    /// Army entities matching `f`, sorted by id.
    fn armies_where(&mut self, f: impl Fn(&Army) -> bool) -> Vec<Entity>;
    /// The rules version this game is played under (`version`).
    fn rules(&self) -> version::Rules;
}

impl GameWorld for World {
    fn content(&self) -> Arc<ContentDb> {
        self.resource::<Content>().0.clone()
    }
    fn emit(&mut self, ev: GameEvent) {
        let mut ch = self.resource_mut::<Chronicle>();
        if ch.0.len() >= CHRONICLE_MAX {
            ch.0.drain(..CHRONICLE_MAX / 2);
        }
        ch.0.push(ev.clone());
        self.write_message(ev);
    }
    fn tile(&self, h: hexx::Hex) -> Option<&Tile> {
        let e = self.resource::<Board>().get(h)?;
        self.get::<Tile>(e)
    }
    fn tile_mut(&mut self, h: hexx::Hex) -> Option<Mut<'_, Tile>> {
        let e = self.resource::<Board>().get(h)?;
        self.get_mut::<Tile>(e)
    }
    fn outposts(&mut self) -> Vec<Entity> {
        let mut v: Vec<(u32, Entity)> =
            queries::outposts(self, |w, q| q.iter(w).map(|(e, o)| (o.id, e)).collect());
        v.sort();
        v.into_iter().map(|(_, e)| e).collect()
    }
    fn armies(&mut self) -> Vec<Entity> {
        let mut v: Vec<(u32, Entity)> =
            queries::armies(self, |w, q| q.iter(w).map(|(e, a)| (a.id, e)).collect());
        v.sort();
        v.into_iter().map(|(_, e)| e).collect()
    }
    fn outpost_by_id(&mut self, id: u32) -> Option<Entity> {
        queries::outposts(self, |w, q| {
            q.iter(w).find(|(_, o)| o.id == id).map(|(e, _)| e)
        })
    }
    fn army_by_id(&mut self, id: u32) -> Option<Entity> {
        queries::armies(self, |w, q| {
            q.iter(w).find(|(_, a)| a.id == id).map(|(e, _)| e)
        })
    }
    fn rules(&self) -> version::Rules {
        self.resource::<GameSetup>().rules
    }
    fn difficulty_level(&self) -> crate::content::Difficulty {
        let setup = self.resource::<GameSetup>();
        self.content()
            .difficulty_for(&setup.level, &setup.difficulty)
    }
    fn armies_where(&mut self, f: impl Fn(&Army) -> bool) -> Vec<Entity> {
        let mut v: Vec<(u32, Entity)> = queries::armies(self, |w, q| {
            q.iter(w)
                .filter(|(_, a)| f(a))
                .map(|(e, a)| (a.id, e))
                .collect()
        });
        v.sort();
        v.into_iter().map(|(_, e)| e).collect()
    }
    fn step_id(&self) -> &'static str {
        let order = self.resource::<CycleOrder>();
        let c = self.resource::<Cycle>();
        order.0.get(c.step).map(|s| s.id).unwrap_or("?")
    }
    fn step_kind(&self) -> StepKind {
        self.resource::<CycleOrder>()
            .kind(self.resource::<Cycle>().step)
    }
    fn deciding(&self) -> Camp {
        self.resource::<CycleOrder>()
            .waits_for(self.resource::<Cycle>())
            .unwrap_or(Camp::Eladrins)
    }
}

/// The headless rules: resources, messages, the cycle's steps and the driver, with the
/// chapters of `chapters` (those of the content the app is made for).
#[derive(Default)]
pub struct RulesPlugin {
    /// The chapters built into the app.
    pub chapters: crate::content::ChapterSet,
}

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<GameEvent>()
            .add_message::<ActionRequest>()
            .add_message::<ActionRefused>()
            .init_resource::<CycleOrder>()
            .init_resource::<StepCatalogue>()
            .init_resource::<Cycle>()
            .init_resource::<Chronicle>()
            .init_resource::<Board>()
            .init_resource::<StepDone>()
            .insert_resource(GameRng::seeded(0))
            .add_plugins((state::init, upkeep::plugin, main_phase::plugin))
            .add_systems(Update, (process_requests, drive_cycle).chain());
        chapter::build_all(app, &self.chapters);
    }
}

/// Reads `ActionRequest` messages in order and submits each one.
fn process_requests(world: &mut World) {
    let requests: Vec<ActionRequest> = world
        .resource_mut::<Messages<ActionRequest>>()
        .drain()
        .collect();
    for r in requests {
        if let Err(reason) = submit(world, r.by, r.action.clone()) {
            world.write_message(ActionRefused {
                by: r.by,
                action: r.action,
                reason,
            });
        }
    }
}

/// Runs automatic steps until one needs a decision (idempotent when nothing is to do).
fn drive_cycle(world: &mut World) {
    if world.contains_resource::<Content>() && !world.resource::<Board>().order.is_empty() {
        advance(world);
    }
}

/// The driver: enters steps and runs their schedules until the game needs a decision or ends.
pub fn advance(world: &mut World) {
    // Bounded: a cycle has a handful of steps; never loop forever on a broken plugin.
    for _ in 0..1000 {
        if world.resource::<Outcome>().winner.is_some() {
            return;
        }
        let order = world.resource::<CycleOrder>().clone();
        if order.0.is_empty() {
            return;
        }
        let (step_ix, entered) = {
            let c = world.resource::<Cycle>();
            (c.step.min(order.0.len() - 1), c.entered)
        };
        let def = order.0[step_ix];
        if !entered {
            world.resource_mut::<Cycle>().entered = true;
            chapter::enter(world, def.kind);
            let number = world.resource::<Cycle>().number;
            world.emit(GameEvent::StepStarted {
                cycle: number,
                step: def.id.to_string(),
            });
            let _ = world.try_run_schedule(StepSchedule(def.id));
            outcome::check(world);
            continue;
        }
        match def.kind {
            StepKind::Turns => {
                if world.resource::<Cycle>().passes < 2 {
                    return;
                }
            }
            StepKind::Decision { open, .. } => {
                if open(world) && !world.resource::<StepDone>().0 {
                    return;
                }
            }
            StepKind::Round { among, ends } => {
                if !chapter::round_over(world, among, ends) {
                    return;
                }
            }
            StepKind::Automatic => {}
        }
        // A copy that holds at a step's end (the search's) stops here, the step over.
        if world.get_resource::<HoldAtStepEnd>().is_some_and(|h| h.0) {
            return;
        }
        // Move on.
        world.resource_mut::<StepDone>().0 = false;
        let mut c = world.resource_mut::<Cycle>();
        c.entered = false;
        c.passes = 0;
        c.turn = Camp::Eladrins;
        c.activation = None;
        c.seat = None;
        c.step = step_ix + 1;
        if c.step >= order.0.len() {
            c.step = 0;
            c.number += 1;
            outcome::check(world);
            // Replays compare this chain of hashes to find the first cycle that drifts.
            let h = snapshot::state_hash(world);
            world.resource_mut::<CycleHashes>().0.push(h);
        }
    }
}

/// Set on a copy of the game that must stop where a step ends (the search's playouts): the
/// driver leaves the step over but does not move on, so that every playout is scored before
/// the next steps run (an upkeep's corruption, a chapter's quest phase or raid), whichever
/// action ended the step. Not game state: never saved nor hashed; absent in a real game.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HoldAtStepEnd(pub bool);

/// Whether the current step, entered, is over: two passes in a row (R9), a decision closed,
/// every participant of the rounds passed or the step's own end rule met, an automatic step.
/// The driver moves on from such a step unless it holds (`HoldAtStepEnd`).
pub fn step_over(world: &mut World) -> bool {
    if !world.resource::<Cycle>().entered {
        return false;
    }
    match world.step_kind() {
        StepKind::Turns => world.resource::<Cycle>().passes >= 2,
        StepKind::Decision { open, .. } => !open(world) || world.resource::<StepDone>().0,
        StepKind::Round { among, ends } => chapter::round_over(world, among, ends),
        StepKind::Automatic => true,
    }
}

/// Set by `Action::Done`: the Eladrins close the current step's decisions.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepDone(pub bool);
