//! The chapter seams: how a later chapter (a plugin in its own folder, plus RON content and a
//! level) adds its rules to the game without the core naming it.
//!
//! A chapter is a Bevy plugin. In its `build` it uses `ChapterAppExt`:
//! - `add_chapter_step`: a step the chapter brings. It is played only in the levels that list it
//!   (`Level::steps`), in their order; its `StepKind` says how (automatic, a decision by a camp or
//!   seat, or rounds among camps or seats ending on passes or on a rule of its own).
//! - `add_chapter_actions::<A>()`: its typed actions (`ChapterAction`). They travel as
//!   `Action::Chapter`, are checked here for the step and the turn before the chapter's own
//!   rule (`ChapterAction::validate`, refused with its own typed `ChapterRefusal` that cites its
//!   rule), are listed by `legal_actions` (so the AI, the buttons, the perft counts and the
//!   fuzzer see them), and the turn is settled by the core like any other action.
//! - `add_chapter_state::<S>()`: its state (`ChapterState`), saved in `Snapshot::chapters`,
//!   hashed, undone, restored, and redacted for a viewer (`ChapterState::seen_by`) so a seat's
//!   hidden cards never reach a partner or the Chaos AI. A save's state is checked before it
//!   replaces anything (`ChapterState::check`, against the content, the level and the seats:
//!   `StateCheck`).
//! - `add_chapter_victory`: an end condition checked with the core's ones.
//! - `add_chapter_veto`: a rule of the chapter that forbids some of the core's actions (a gate
//!   sealed for good: no army crosses it), refused with the chapter's typed refusal.
//! - `add_chapter_setup`: what the chapter sets up when a game of a level playing it starts,
//!   after the level's armies and a campaign's carry are placed (its expedition teams).
//! - `add_chapter_after`: what the chapter does after any action is applied, with the events
//!   it told (an army that walked into a hidden room reveals it).
//! - `add_chapter_glory`: each seat's glory as the chapter counts it (in co-op, each seat's
//!   own score): shown at the game's end, and carried into the campaign's score.
//! - `lend_turn` and `resume_after`: a chapter's rule that asks the other participants of a
//!   step of rounds for an answer in the middle of a turn (a call to battle) lends each one
//!   the turn, then gives it back after the one whose action asked.
//!
//! A chapter is one value (`content::Chapter`): the program passes the set it plays to the
//! content it loads (`ContentDb::chapters`), and `RulesPlugin` builds each of them into every
//! app made for that content, the window's and the headless ones (AI thinking, forecast, sim).
//! Which chapters a game plays comes from its level (`Level::chapters`): a chapter of the set
//! that the level does not play changes nothing in that game.

use std::collections::BTreeMap;
use std::fmt::Debug;

use bevy::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub mod value;

pub use super::InPlay;
use super::outcome::Victories;
pub use super::outcome::VictoryCheck;
use super::{
    Action, Cycle, CycleOrder, GameSetup, GameWorld, Refusal, StepDef, StepKind, StepSchedule,
};
use crate::content::level_fields::LevelFields;
use crate::content::{Among, Camp, ChapterSet, Content, ContentDb, Level, Who};
pub use value::{ChapterValue, Value};

/// Longest encoded chapter state accepted from a save.
pub const MAX_STATE_TEXT: usize = 2 * 1024 * 1024;

/// How a chapter action uses the turn in a step played in turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnUse {
    /// It is the turn's action: the turn passes on and the pass streak breaks.
    Acts,
    /// It passes: the turn passes on and counts towards the end of the step.
    Passes,
    /// It does not use the turn (a free action).
    Free,
}

/// Where and how a chapter action is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The steps it belongs to.
    pub steps: &'static [&'static str],
    /// How it uses the turn.
    pub turn: TurnUse,
    /// In the main phase (R9): an order inside an open activation (true), or an action of its
    /// own outside one (false).
    pub in_activation: bool,
}

impl Place {
    /// An action of these steps that uses the turn.
    pub const fn acts(steps: &'static [&'static str]) -> Place {
        Place {
            steps,
            turn: TurnUse::Acts,
            in_activation: false,
        }
    }
}

/// A chapter's refusal: its own enum, citing its own rule numbers.
pub trait ChapterRefusal: Value + Clone {
    /// The rule it enforces (`"D4"`, `"T2"`).
    fn rule(&self) -> &'static str;
}

/// A chapter's action: its own enum, carried typed inside `Action::Chapter` (and written as
/// RON in saves and replays).
pub trait ChapterAction: Value + Clone {
    /// Its refusals.
    type Refusal: ChapterRefusal;
    /// What its rules tell (`tell`): the events of `GameEvent::Chapter`.
    type Event: Value + Clone;
    /// The chapter's id.
    const CHAPTER: &'static str;
    /// The steps it belongs to and how it uses the turn (checked by the core before `validate`).
    fn place(&self) -> Place;
    /// The chapter's own rule; reads only. The step and the turn are checked already.
    fn validate(&self, world: &mut World, by: Camp) -> Result<(), Self::Refusal>;
    /// Applies a validated action. The turn is settled by the core afterwards.
    fn apply(&self, world: &mut World, by: Camp);
    /// A superset of the legal actions of `by` now, in a stable order (the core keeps those
    /// that validate).
    fn candidates(world: &mut World, by: Camp) -> Vec<Self>;
}

/// Who looks at a state: everything (a save, the hash), a camp's AI, or one Eladrin seat. A
/// scenario check names one (`seen_by: Some(Seat(1))`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Viewer {
    /// Everything (saves, the state hash, undo).
    All,
    /// Chaos (its AI): sees no Eladrin seat's hidden things.
    Chaos,
    /// One Eladrin seat: its own hidden things, no one else's.
    Seat(u8),
}

/// A chapter's state: one resource, saved, hashed, undone and restored with the game.
pub trait ChapterState:
    Resource + Serialize + DeserializeOwned + Default + Clone + PartialEq + Debug
{
    /// The chapter's id.
    const CHAPTER: &'static str;
    /// What `viewer` may know of it: hidden cards of other seats removed. The whole state by
    /// default (nothing hidden).
    fn seen_by(&self, _viewer: Viewer) -> Self {
        self.clone()
    }
    /// Checks a state read from an untrusted save against what it is loaded into (`cx`: the
    /// content, the level, the seats): every seat in play, every index within the level's
    /// lists, every id known, every count bounded. A reason if it is not sound, starting with
    /// the field's path below the state where it names one (`seats[200]: …`). Only a save's
    /// state is checked: a copy the program made itself (an AI's, which may hold guesses) is
    /// restored as it is.
    fn check(&self, _cx: &StateCheck<'_>) -> Result<(), String> {
        Ok(())
    }
    /// Fills in, on an AI's copy of the game, what `seen_by` hid from it: a guess drawn with
    /// the copy's own dice (`GameRng`) from what that viewer has not seen, so that a search's
    /// playout plays a game that could be (a determinization). The real game never holds a
    /// hidden card, so the rules need not know one. Nothing by default.
    fn guess_unseen(_world: &mut World) {}
}

/// A chapter's rule that forbids some of the core's actions: `Some(refusal)` (made with
/// `refusal`) refuses it. Checked after the core's own checks, only while the chapter is in play.
pub type Veto = fn(&mut World, Camp, &Action) -> Option<Refusal>;

/// What a chapter does after an action was applied (core or chapter), given the events the
/// action told, before the end conditions are checked.
pub type After = fn(&mut World, Camp, &Action, &[super::GameEvent]);

/// What a chapter sets up at the start of a game; an error (naming the level's field) refuses
/// to start it.
pub type Setup = fn(&mut World) -> Result<(), String>;

/// Each Eladrin seat's glory as a chapter counts it now (index: seat; a seat it does not
/// list has none).
pub type Glory = fn(&World) -> Vec<u32>;

/// What a chapter's state read from an untrusted save is checked against
/// (`ChapterState::check`).
#[derive(Clone, Copy)]
pub struct StateCheck<'a> {
    /// The content the save is loaded into.
    pub db: &'a ContentDb,
    /// The level the save plays (one of `db`'s).
    pub level: &'a Level,
    /// The Eladrin seats the save has (`GameSetup::seats`: 1 to 8): a seat of a chapter's
    /// state is below it.
    pub seats: u8,
}

impl StateCheck<'_> {
    /// The chapter `T`'s fields of the level, typed: as the content read them when it loaded,
    /// else read from the level's `ext` (a level put in place by hand), the default where the
    /// level gives none; an error naming the level and the field where they do not read.
    pub fn fields<T: LevelFields>(&self) -> Result<std::sync::Arc<T>, String> {
        if let Some(v) = self.db.level_fields::<T>(&self.level.id) {
            return Ok(v);
        }
        match self.level.ext.get(T::CHAPTER) {
            None => Ok(std::sync::Arc::new(T::default())),
            Some(v) => v.into_rust::<T>().map(std::sync::Arc::new).map_err(|e| {
                format!(
                    "the level `{}`: ext.{}: {}:{}: {}",
                    self.level.id,
                    T::CHAPTER,
                    e.span.start.line,
                    e.span.start.col,
                    e.code
                )
            }),
        }
    }
}

/// A chapter's typed refusal as the core carries it (for a `Veto`).
pub fn refusal<R: ChapterRefusal>(chapter: &str, r: &R) -> Refusal {
    Refusal::Chapter {
        chapter: chapter.to_string(),
        rule: r.rule().to_string(),
        reason: ChapterValue::new(r.clone()),
    }
}

/// Tells what the chapter `chapter`'s rule did (its own event, `ChapterAction::Event`): the
/// log words it, the map shows it, the view's sounds hear it.
pub fn tell<E: Value>(world: &mut World, chapter: &str, event: E) {
    world.emit(super::GameEvent::Chapter {
        chapter: chapter.to_string(),
        what: ChapterValue::new(event),
    });
}

/// A chapter's actions, type-erased.
#[derive(Clone, Copy)]
struct ActionKind {
    validate: fn(&mut World, Camp, &ChapterValue) -> Result<(), Refusal>,
    apply: fn(&mut World, Camp, &ChapterValue),
    candidates: fn(&mut World, Camp) -> Vec<Action>,
    /// Types a value a file wrote: an action, an event of the chapter.
    action: fn(&ChapterValue) -> Result<ChapterValue, String>,
    event: fn(&ChapterValue) -> Result<ChapterValue, String>,
}

/// A chapter's state, type-erased.
#[derive(Clone, Copy)]
struct StateKind {
    capture: fn(&World, Viewer) -> Result<String, String>,
    restore: fn(&mut World, Option<&str>) -> Result<(), String>,
    check: fn(Option<&str>, &StateCheck<'_>) -> Result<(), String>,
    redact: fn(&mut World, Viewer) -> Restorer,
    guess: fn(&mut World),
}

/// Puts a redacted chapter state back as it was.
type Restorer = Box<dyn FnOnce(&mut World) + Send>;

/// Everything the chapters of this program registered.
#[derive(Resource, Default, Clone)]
pub struct Chapters {
    /// Chapter ids, in the order they were built.
    pub ids: Vec<&'static str>,
    /// Steps the chapters bring, played only where a level lists them.
    pub steps: Vec<StepDef>,
    actions: BTreeMap<&'static str, ActionKind>,
    states: BTreeMap<&'static str, StateKind>,
    vetoes: Vec<(&'static str, Veto)>,
    afters: Vec<(&'static str, After)>,
    setups: Vec<(&'static str, Setup)>,
    glories: Vec<(&'static str, Glory)>,
}

/// Builds every chapter of `set` into `app` (called by `RulesPlugin`; a chapter already built
/// is not built again).
pub(super) fn build_all(app: &mut App, set: &ChapterSet) {
    app.init_resource::<Chapters>().init_resource::<InPlay>();
    for chapter in set.iter() {
        let id = chapter.id();
        if app.world().resource::<Chapters>().ids.contains(&id) {
            continue;
        }
        app.world_mut().resource_mut::<Chapters>().ids.push(id);
        chapter.build(app);
    }
}

/// Registering a chapter's seams from its plugin.
pub trait ChapterAppExt {
    /// A step the chapter brings: its systems go in `StepSchedule(def.id)`; it is played where a
    /// level lists it in `steps`.
    fn add_chapter_step(&mut self, def: StepDef) -> &mut Self;
    /// The chapter's typed actions.
    fn add_chapter_actions<A: ChapterAction>(&mut self) -> &mut Self;
    /// The chapter's state resource.
    fn add_chapter_state<S: ChapterState>(&mut self) -> &mut Self;
    /// An end condition, checked while the chapter is in play.
    fn add_chapter_victory(&mut self, chapter: &'static str, check: VictoryCheck) -> &mut Self;
    /// The chapter's hook: what `Effect::Hook { chapter, hook, arg }` does in a card.
    fn add_chapter_hook(&mut self, chapter: &'static str, hook: super::effects::Hook) -> &mut Self;
    /// A rule that forbids some core actions while the chapter is in play.
    fn add_chapter_veto(&mut self, chapter: &'static str, veto: Veto) -> &mut Self;
    /// What the chapter does after each action, while it is in play.
    fn add_chapter_after(&mut self, chapter: &'static str, after: After) -> &mut Self;
    /// What the chapter sets up at the start of a game that plays it (after the level's
    /// armies and a campaign's carry; before the first cycle runs). Its error stops the start.
    fn add_chapter_setup(&mut self, chapter: &'static str, setup: Setup) -> &mut Self;
    /// How the chapter counts each seat's glory, while it is in play.
    fn add_chapter_glory(&mut self, chapter: &'static str, glory: Glory) -> &mut Self;
}

impl ChapterAppExt for App {
    fn add_chapter_glory(&mut self, chapter: &'static str, glory: Glory) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .glories
            .push((chapter, glory));
        self
    }
    fn add_chapter_veto(&mut self, chapter: &'static str, veto: Veto) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .vetoes
            .push((chapter, veto));
        self
    }
    fn add_chapter_setup(&mut self, chapter: &'static str, setup: Setup) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .setups
            .push((chapter, setup));
        self
    }
    fn add_chapter_after(&mut self, chapter: &'static str, after: After) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .afters
            .push((chapter, after));
        self
    }
    fn add_chapter_hook(&mut self, chapter: &'static str, hook: super::effects::Hook) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(super::effects::Hooks::default)
            .0
            .insert(chapter, hook);
        self
    }
    fn add_chapter_step(&mut self, def: StepDef) -> &mut Self {
        super::init_rules_schedule(self, StepSchedule(def.id));
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .steps
            .push(def);
        self
    }
    fn add_chapter_actions<A: ChapterAction>(&mut self) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .actions
            .insert(
                A::CHAPTER,
                ActionKind {
                    validate: validate_erased::<A>,
                    apply: apply_erased::<A>,
                    candidates: candidates_erased::<A>,
                    action: ChapterValue::resolve::<A>,
                    event: ChapterValue::resolve::<A::Event>,
                },
            );
        self
    }
    fn add_chapter_state<S: ChapterState>(&mut self) -> &mut Self {
        self.init_resource::<S>();
        self.world_mut()
            .get_resource_or_insert_with(Chapters::default)
            .states
            .insert(
                S::CHAPTER,
                StateKind {
                    capture: capture_erased::<S>,
                    restore: restore_erased::<S>,
                    check: check_erased::<S>,
                    redact: redact_erased::<S>,
                    guess: S::guess_unseen,
                },
            );
        self
    }
    fn add_chapter_victory(&mut self, chapter: &'static str, check: VictoryCheck) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(Victories::default)
            .0
            .push((chapter, check));
        self
    }
}

/// The action as the core carries it.
pub fn encode<A: ChapterAction>(a: &A) -> Action {
    Action::Chapter {
        chapter: A::CHAPTER.to_string(),
        act: ChapterValue::new(a.clone()),
    }
}

/// The typed action inside an `Action::Chapter` of chapter `A`, if it is one.
pub fn decode<A: ChapterAction>(a: &Action) -> Option<A> {
    match a {
        Action::Chapter { chapter, act } if chapter == A::CHAPTER => act.get::<A>(),
        _ => None,
    }
}

/// The typed refusal inside a `Refusal::Chapter` of chapter `A`, if it is one.
pub fn refusal_of<A: ChapterAction>(r: &Refusal) -> Option<A::Refusal> {
    match r {
        Refusal::Chapter {
            chapter, reason, ..
        } if chapter == A::CHAPTER => reason.get::<A::Refusal>(),
        _ => None,
    }
}

fn validate_erased<A: ChapterAction>(
    world: &mut World,
    by: Camp,
    act: &ChapterValue,
) -> Result<(), Refusal> {
    let a = act.typed::<A>().map_err(|why| Refusal::Malformed {
        chapter: A::CHAPTER.to_string(),
        why,
    })?;
    let place = a.place();
    check_place(world, by, place)?;
    a.validate(world, by).map_err(|r| refusal(A::CHAPTER, &r))
}

fn apply_erased<A: ChapterAction>(world: &mut World, by: Camp, act: &ChapterValue) {
    let Ok(a) = act.typed::<A>() else {
        return;
    };
    a.apply(world, by);
    settle(world, by, a.place().turn);
}

fn candidates_erased<A: ChapterAction>(world: &mut World, by: Camp) -> Vec<Action> {
    A::candidates(world, by).iter().map(encode).collect()
}

fn capture_erased<S: ChapterState>(world: &World, viewer: Viewer) -> Result<String, String> {
    let s = world.get_resource::<S>().cloned().unwrap_or_default();
    let s = if viewer == Viewer::All {
        s
    } else {
        s.seen_by(viewer)
    };
    ron::to_string(&s).map_err(|e| format!("{}: can't write its state: {e}", S::CHAPTER))
}

fn parse_state<S: ChapterState>(text: Option<&str>) -> Result<S, String> {
    let Some(text) = text else {
        // A save made before the chapter kept state: it starts fresh.
        return Ok(S::default());
    };
    if text.len() > MAX_STATE_TEXT {
        return Err(format!(
            "chapters.{}: its state is {} bytes, over {MAX_STATE_TEXT}",
            S::CHAPTER,
            text.len()
        ));
    }
    ron::from_str(text).map_err(|e| {
        format!(
            "chapters.{}: {}:{}: not a valid state: {}",
            S::CHAPTER,
            e.span.start.line,
            e.span.start.col,
            e.code
        )
    })
}

/// A chapter's finding on its state as the save's field: `chapters.ID.PATH: why` where the
/// finding starts with a path (`seats[200]: …`), else `chapters.ID: finding`.
fn state_field(chapter: &str, finding: &str) -> String {
    let is_path = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.[]()".contains(c))
    };
    match finding.split_once(": ") {
        Some((path, why)) if is_path(path) => format!("chapters.{chapter}.{path}: {why}"),
        _ => format!("chapters.{chapter}: {finding}"),
    }
}

fn redact_erased<S: ChapterState>(world: &mut World, viewer: Viewer) -> Restorer {
    let full = world.get_resource::<S>().cloned().unwrap_or_default();
    world.insert_resource(full.seen_by(viewer));
    Box::new(move |world: &mut World| world.insert_resource(full))
}

/// On an AI's copy of the game (a search's playout), each chapter in play fills in what was
/// hidden from the viewer it was copied for (`ChapterState::guess_unseen`), with the copy's
/// dice. A state with nothing hidden is left as it is.
pub fn guess_unseen(world: &mut World) {
    let Some(chapters) = world.get_resource::<Chapters>().cloned() else {
        return;
    };
    let in_play = world.resource::<InPlay>().clone();
    for (id, kind) in &chapters.states {
        if in_play.has(id) {
            (kind.guess)(world);
        }
    }
}

/// Runs `f` on the world as `viewer` may know it: the chapters' states in play replaced by
/// what `viewer` sees, put back afterwards. The AIs think inside this, so a seat's hidden
/// cards never reach the Chaos AI (nor another seat's AI).
pub fn as_seen_by<T>(world: &mut World, viewer: Viewer, f: impl FnOnce(&mut World) -> T) -> T {
    let Some(chapters) = world.get_resource::<Chapters>().cloned() else {
        return f(world);
    };
    let in_play = world.resource::<InPlay>().clone();
    let mut undo = Vec::new();
    for (id, kind) in &chapters.states {
        if in_play.has(id) {
            undo.push((kind.redact)(world, viewer));
        }
    }
    let out = f(world);
    for u in undo {
        u(world);
    }
    out
}

fn check_erased<S: ChapterState>(text: Option<&str>, cx: &StateCheck<'_>) -> Result<(), String> {
    // A save made before the chapter kept state starts fresh: nothing of the file to check.
    if text.is_none() {
        return Ok(());
    }
    parse_state::<S>(text)?
        .check(cx)
        .map_err(|e| state_field(S::CHAPTER, &e))
}

/// Puts a chapter's state back as its text says. Not checked here: an untrusted save went
/// through `check` first, and a copy the program made itself (an AI's) may hold what a save
/// may not (a hidden card guessed twice).
fn restore_erased<S: ChapterState>(world: &mut World, text: Option<&str>) -> Result<(), String> {
    let s = parse_state::<S>(text)?;
    world.insert_resource(s);
    Ok(())
}

/// Validates an `Action::Chapter`: a known chapter, in play, then its own checks.
pub(super) fn validate(
    world: &mut World,
    by: Camp,
    chapter: &str,
    act: &ChapterValue,
) -> Result<(), Refusal> {
    let kind = world
        .get_resource::<Chapters>()
        .and_then(|c| c.actions.get(chapter).copied())
        .ok_or_else(|| Refusal::UnknownKind(chapter.to_string()))?;
    if !world.resource::<InPlay>().has(chapter) {
        return Err(Refusal::NotInPlay(chapter.to_string()));
    }
    (kind.validate)(world, by, act)
}

/// Applies a validated `Action::Chapter`.
pub(super) fn apply(world: &mut World, by: Camp, chapter: &str, act: &ChapterValue) {
    if let Some(kind) = world
        .get_resource::<Chapters>()
        .and_then(|c| c.actions.get(chapter).copied())
    {
        (kind.apply)(world, by, act);
    }
}

/// The vetoes of the chapters in play on a core action (after the core's own checks).
pub(super) fn veto(world: &mut World, by: Camp, action: &Action) -> Result<(), Refusal> {
    let Some(vetoes) = world
        .get_resource::<Chapters>()
        .filter(|c| !c.vetoes.is_empty())
        .map(|c| c.vetoes.clone())
    else {
        return Ok(());
    };
    let in_play = world.resource::<InPlay>().clone();
    for (id, f) in vetoes {
        if in_play.has(id)
            && let Some(r) = f(world, by, action)
        {
            return Err(r);
        }
    }
    Ok(())
}

/// The chapters in play set up a new game (`add_chapter_setup`); the first error stops it.
pub(super) fn setup(world: &mut World) -> Result<(), String> {
    let Some(setups) = world.get_resource::<Chapters>().map(|c| {
        let in_play = world.resource::<InPlay>();
        c.setups
            .iter()
            .filter(|(id, _)| in_play.has(id))
            .map(|(_, f)| *f)
            .collect::<Vec<Setup>>()
    }) else {
        return Ok(());
    };
    for f in setups {
        f(world)?;
    }
    Ok(())
}

/// Whether a chapter in play may veto core actions (so `legal_actions` checks each move).
pub(super) fn has_vetoes(world: &World) -> bool {
    world.get_resource::<Chapters>().is_some_and(|c| {
        let in_play = world.resource::<InPlay>();
        c.vetoes.iter().any(|(id, _)| in_play.has(id))
    })
}

/// The chapters in play react to an applied action and the events it told: those the chronicle
/// got from its length `told` on (it may have dropped its older half meanwhile).
pub(super) fn after(world: &mut World, by: Camp, action: &Action, told: usize) {
    let Some(afters) = world.get_resource::<Chapters>().map(|c| {
        let in_play = world.resource::<InPlay>();
        c.afters
            .iter()
            .filter(|(id, _)| in_play.has(id))
            .map(|(_, f)| *f)
            .collect::<Vec<After>>()
    }) else {
        return;
    };
    if afters.is_empty() {
        return;
    }
    let events: Vec<super::GameEvent> = {
        let ch = &world.resource::<super::Chronicle>().0;
        // One drain (of half the chronicle) at most can happen within one action.
        let from = if ch.len() >= told {
            told
        } else {
            told.saturating_sub(super::CHRONICLE_MAX / 2)
        };
        ch[from.min(ch.len())..].to_vec()
    };
    for f in afters {
        f(world, by, action, &events);
    }
}

/// The chapters' candidate actions for `by` now (those in play only).
pub(super) fn candidates(world: &mut World, by: Camp, v: &mut Vec<Action>) {
    let Some(chapters) = world.get_resource::<Chapters>().cloned() else {
        return;
    };
    let in_play = world.resource::<InPlay>().clone();
    for (id, kind) in &chapters.actions {
        if in_play.has(id) {
            v.extend((kind.candidates)(world, by));
        }
    }
}

/// Whether the cycle stands at `step` now (a chapter's candidates are offered only in their
/// own step).
pub fn in_step(world: &World, step: &str) -> bool {
    world.resource::<CycleOrder>().position(step) == Some(world.resource::<Cycle>().step)
}

/// The Eladrin seat acting now: the seat a chapter step gave the turn to, else the hot-seat
/// player whose Eladrin turn it is.
pub fn current_seat(world: &World) -> u8 {
    world.resource::<Cycle>().acting_seat()
}

/// Each Eladrin seat's glory (index: seat), summed over the chapters in play that count it;
/// empty when none does (the game has no glory to show).
pub fn glory(world: &World) -> Vec<u32> {
    let Some(chapters) = world.get_resource::<Chapters>() else {
        return Vec::new();
    };
    let in_play = world.resource::<InPlay>();
    let mut total: Vec<u32> = Vec::new();
    for (chapter, count) in &chapters.glories {
        if !in_play.has(chapter) {
            continue;
        }
        if total.is_empty() {
            total = vec![0; seats(world) as usize];
        }
        for (i, g) in count(world).into_iter().enumerate().take(8) {
            if i >= total.len() {
                total.resize(i + 1, 0);
            }
            total[i] = total[i].saturating_add(g);
        }
    }
    total
}

/// How many Eladrin seats the game has (at least one).
pub fn seats(world: &World) -> u8 {
    world.resource::<GameSetup>().seats()
}

/// Who takes turns in a step of rounds, in order: the seats from the first seat's marker
/// (`Cycle::first_seat`) round, then Chaos where it takes part.
pub fn participants(world: &World, among: Among) -> Vec<Who> {
    let n = seats(world);
    let first = world.resource::<Cycle>().first_seat % n.max(1);
    let seats = (0..n).map(move |i| Who::Seat((first + i) % n));
    match among {
        Among::Camps => vec![Who::Eladrins, Who::Chaos],
        Among::Seats => seats.collect(),
        Among::SeatsThenChaos => seats.chain([Who::Chaos]).collect(),
    }
}

/// Whose turn it is in a step of rounds, as a participant.
pub fn turn_of(world: &World) -> Who {
    let c = world.resource::<Cycle>();
    match (c.turn, c.seat) {
        (Camp::Chaos, _) => Who::Chaos,
        (Camp::Eladrins, Some(s)) => Who::Seat(s),
        (Camp::Eladrins, None) => Who::Eladrins,
    }
}

/// Gives the turn to `who`.
fn give_turn(world: &mut World, who: Who) {
    let mut c = world.resource_mut::<Cycle>();
    c.turn = who.camp();
    c.seat = match who {
        Who::Seat(s) => Some(s),
        _ => None,
    };
}

/// Lends the turn of a step of rounds to `who`, out of its order, for an answer a chapter's
/// rule asks of it (a call to battle asks each clan in turn); the pass streak is kept. The
/// chapter gives the turn back with `resume_after`. Its answers are `TurnUse::Free` actions,
/// so the core does not move the turn meanwhile.
pub fn lend_turn(world: &mut World, who: Who) {
    if matches!(world.step_kind(), StepKind::Round { .. }) {
        give_turn(world, who);
    }
}

/// Ends a lent turn: the turn goes on after `who`, as after an action of theirs (the pass
/// streak breaks).
pub fn resume_after(world: &mut World, who: Who) {
    if let StepKind::Round { among, .. } = world.step_kind() {
        give_turn(world, who);
        next_turn(world, among, false);
    }
}

/// When the cycle enters a step: a decision by a seat gives it that seat; rounds give the turn
/// to their first participant.
pub(super) fn enter(world: &mut World, kind: StepKind) {
    match kind {
        StepKind::Decision {
            by: Who::Seat(s), ..
        } => world.resource_mut::<Cycle>().seat = Some(s),
        StepKind::Round { among, .. } => {
            if let Some(first) = participants(world, among).first().copied() {
                give_turn(world, first);
            }
        }
        _ => {}
    }
}

/// Whether a step of rounds is over: every participant passed in a row, or its own rule says.
pub(super) fn round_over(
    world: &mut World,
    among: Among,
    ends: Option<super::NeedsDecision>,
) -> bool {
    let n = participants(world, among).len().max(1) as u32;
    world.resource::<Cycle>().passes >= n || ends.is_some_and(|f| f(world))
}

/// The turn passes to the next participant of the rounds.
fn next_turn(world: &mut World, among: Among, passed: bool) {
    let order = participants(world, among);
    let now = turn_of(world);
    let i = order.iter().position(|w| *w == now).unwrap_or(0);
    let next = order.get((i + 1) % order.len().max(1)).copied();
    if let Some(next) = next {
        give_turn(world, next);
    }
    let mut c = world.resource_mut::<Cycle>();
    if passed {
        c.passes += 1;
    } else {
        c.passes = 0;
    }
}

/// Checks that `by` may act now where `place` says: the step, the turn (and the seat), and in
/// the main phase the activation.
pub fn check_place(world: &mut World, by: Camp, place: Place) -> Result<(), Refusal> {
    let now = world.step_id();
    if !place.steps.contains(&now) {
        return Err(Refusal::WrongStep {
            needs: place.steps.iter().map(|s| s.to_string()).collect(),
            now: now.into(),
        });
    }
    match world.step_kind() {
        StepKind::Automatic => Err(Refusal::WrongStep {
            needs: place.steps.iter().map(|s| s.to_string()).collect(),
            now: now.into(),
        }),
        StepKind::Decision { by: who, .. } => {
            if by != who.camp() {
                return Err(Refusal::NotYourTurn {
                    expected: who.camp(),
                });
            }
            Ok(())
        }
        StepKind::Round { .. } => {
            let turn = world.resource::<Cycle>().turn;
            if by != turn {
                return Err(Refusal::NotYourTurn { expected: turn });
            }
            Ok(())
        }
        StepKind::Turns => {
            let c = world.resource::<Cycle>();
            if by != c.turn {
                return Err(Refusal::NotYourTurn { expected: c.turn });
            }
            match (place.in_activation, c.activation) {
                (true, None) => Err(Refusal::NoActivation),
                (false, Some(id)) => Err(Refusal::ActivationOpen(id)),
                _ => Ok(()),
            }
        }
    }
}

/// After a chapter action: the core settles the turn as the step's kind says.
fn settle(world: &mut World, by: Camp, turn: TurnUse) {
    match world.step_kind() {
        StepKind::Round { among, .. } => match turn {
            TurnUse::Acts => next_turn(world, among, false),
            TurnUse::Passes => next_turn(world, among, true),
            TurnUse::Free => {}
        },
        StepKind::Turns => match turn {
            TurnUse::Passes => super::main_phase::pass(world, by),
            TurnUse::Acts => super::main_phase::settle(world, by, false),
            TurnUse::Free => super::main_phase::settle(world, by, true),
        },
        _ => {}
    }
}

/// `Pass` in a step of rounds: the player's turn.
pub(super) fn validate_pass(world: &World, by: Camp) -> Result<(), Refusal> {
    let turn = world.resource::<Cycle>().turn;
    if by != turn {
        return Err(Refusal::NotYourTurn { expected: turn });
    }
    Ok(())
}

/// `Pass` in a step of rounds: the turn goes on, towards the step's end.
pub(super) fn pass(world: &mut World, by: Camp) {
    if let StepKind::Round { among, .. } = world.step_kind() {
        next_turn(world, among, true);
        world.emit(super::GameEvent::Passed { camp: by });
    }
}

/// The steps a level plays, in order: its `steps` (core and chapter steps, with their deciders
/// or participants as the level gives them), or the default cycle. Errors name the level and
/// the step.
pub fn order_for(world: &World, level: &Level) -> Result<Vec<StepDef>, String> {
    let catalogue = world.resource::<super::StepCatalogue>();
    let chapters = world.get_resource::<Chapters>();
    for c in &level.chapters {
        if !chapters.is_some_and(|x| x.ids.contains(&c.as_str())) {
            return Err(format!(
                "level `{}` plays the chapter `{c}`, which this game does not have (chapters: {})",
                level.id,
                chapters
                    .map(|x| x.ids.join(", "))
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "none".into())
            ));
        }
    }
    let Some(steps) = &level.steps else {
        return Ok(catalogue.default.clone());
    };
    if steps.is_empty() {
        return Err(format!("level `{}`: `steps` lists no step", level.id));
    }
    let mut out = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let core = catalogue.all.iter().find(|d| d.id == s.id);
        let chapter = chapters.and_then(|x| x.steps.iter().find(|d| d.id == s.id));
        let mut def = match (core, chapter) {
            (Some(d), _) => *d,
            (None, Some(d)) => *d,
            (None, None) => {
                let mut known: Vec<&str> = catalogue.all.iter().map(|d| d.id).collect();
                if let Some(x) = chapters {
                    known.extend(x.steps.iter().map(|d| d.id));
                }
                return Err(format!(
                    "level `{}`: steps[{i}]: no step `{}` in this game (known: {})",
                    level.id,
                    s.id,
                    known.join(", ")
                ));
            }
        };
        if out.iter().any(|d: &StepDef| d.id == def.id) {
            return Err(format!(
                "level `{}`: steps[{i}]: `{}` is listed twice",
                level.id, s.id
            ));
        }
        match (&mut def.kind, s.by, s.among) {
            (_, None, None) => {}
            (StepKind::Decision { by, .. }, Some(who), None) => *by = who,
            (StepKind::Round { among, .. }, None, Some(a)) => *among = a,
            _ => {
                return Err(format!(
                    "level `{}`: steps[{i}]: `{}` is {}, so it takes {}",
                    level.id,
                    s.id,
                    kind_name(def.kind),
                    match def.kind {
                        StepKind::Decision { .. } => "`by` and not `among`",
                        StepKind::Round { .. } => "`among` and not `by`",
                        _ => "neither `by` nor `among`",
                    }
                ));
            }
        }
        if let StepKind::Decision {
            by: Who::Seat(s), ..
        } = def.kind
            && s >= 8
        {
            return Err(format!(
                "level `{}`: steps[{i}]: seat {s} (a game has at most 8 seats, 0 to 7)",
                level.id
            ));
        }
        out.push(def);
    }
    Ok(out)
}

fn kind_name(k: StepKind) -> &'static str {
    match k {
        StepKind::Automatic => "automatic",
        StepKind::Decision { .. } => "a decision",
        StepKind::Turns => "the main phase",
        StepKind::Round { .. } => "played in rounds",
    }
}

/// Sets the steps and chapters of the game in the world from its level (at start and load).
pub fn set_level(world: &mut World, level: &Level) -> Result<(), String> {
    let order = order_for(world, level)?;
    world.insert_resource(CycleOrder(order));
    world.insert_resource(InPlay(level.chapters.clone()));
    Ok(())
}

/// The chapters' states as a snapshot stores them (chapters in play only), seen by `viewer`.
pub fn capture(world: &World, viewer: Viewer) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(chapters) = world.get_resource::<Chapters>() else {
        return out;
    };
    let in_play = world.resource::<InPlay>();
    for (id, kind) in &chapters.states {
        if in_play.has(id)
            && let Ok(text) = (kind.capture)(world, viewer)
        {
            out.insert(id.to_string(), text);
        }
    }
    out
}

/// Checks the chapters' states of an untrusted snapshot for `level`, played by `seats` Eladrin
/// seats (`GameSetup::seats`), against the world's content (nothing changes).
pub fn check(
    world: &World,
    level: &Level,
    seats: u8,
    states: &BTreeMap<String, String>,
) -> Result<(), String> {
    let chapters = world.get_resource::<Chapters>();
    let Some(content) = world.get_resource::<Content>() else {
        return Err("no content to check the chapters' states against".into());
    };
    let cx = StateCheck {
        db: &content.0,
        level,
        seats: seats.clamp(1, 8),
    };
    for id in states.keys() {
        if !level.chapters.contains(id) {
            return Err(format!(
                "chapters.{id}: the level `{}` does not play this chapter",
                level.id
            ));
        }
    }
    for id in &level.chapters {
        if let Some(kind) = chapters.and_then(|c| c.states.get(id.as_str())) {
            (kind.check)(states.get(id).map(String::as_str), &cx)?;
        }
    }
    Ok(())
}

/// Puts the chapters' states back (checked by `check` first).
pub fn restore(world: &mut World, states: &BTreeMap<String, String>) -> Result<(), String> {
    let Some(chapters) = world.get_resource::<Chapters>().cloned() else {
        return Ok(());
    };
    let in_play = world.resource::<InPlay>().clone();
    for (id, kind) in &chapters.states {
        if in_play.has(id) {
            (kind.restore)(world, states.get(*id).map(String::as_str))?;
        } else {
            (kind.restore)(world, None)?;
        }
    }
    Ok(())
}

/// Resets every chapter's state for a new game.
pub fn reset(world: &mut World) {
    let _ = restore(world, &BTreeMap::new());
}

/// A chapter's level fields for the game in play, typed when content loaded
/// (`content::level_fields`): the AI asks for them at every candidate it scores, so they are
/// shared, not read again. The default where the level gives none; a level whose fields do not
/// read does not load (a level put in place by hand, as tests do, is read here).
pub fn level_fields<T: LevelFields>(world: &World) -> std::sync::Arc<T> {
    let content = world.get_resource::<Content>();
    let level = &world.resource::<GameSetup>().level;
    content
        .and_then(|c| c.level_fields::<T>(level))
        .unwrap_or_else(|| {
            std::sync::Arc::new(level_ext::<T>(world, T::CHAPTER).unwrap_or_default())
        })
}

/// A chapter's own level fields (`Level::ext[chapter]`) for the game in play, typed; the
/// default when the level gives none. Errors name the level and the field.
pub fn level_ext<T: DeserializeOwned + Default>(world: &World, chapter: &str) -> Result<T, String> {
    // Asked by end rules on every check: read the level in place, parse only its `ext` value.
    let Some(db) = world.get_resource::<Content>().map(|c| c.0.clone()) else {
        return Ok(T::default());
    };
    let Some(level) = db.levels.get(&world.resource::<GameSetup>().level) else {
        return Ok(T::default());
    };
    match level.ext.get(chapter) {
        None => Ok(T::default()),
        Some(v) => v.into_rust::<T>().map_err(|e| {
            format!(
                "level `{}`: ext.{chapter}: {}:{}: {}",
                level.id, e.span.start.line, e.span.start.col, e.code
            )
        }),
    }
}

/// A chapter's action as a file wrote it (a replay, a scenario), typed by its chapter; the
/// chapter's refusal when it is not one of its actions (nothing else changes).
pub(super) fn resolve_action(world: &World, action: Action) -> Result<Action, Refusal> {
    let Action::Chapter { chapter, act } = &action else {
        return Ok(action);
    };
    if !act.is_text() {
        return Ok(action);
    }
    let Some(kind) = world
        .get_resource::<Chapters>()
        .and_then(|c| c.actions.get(chapter.as_str()).copied())
    else {
        return Err(Refusal::UnknownKind(chapter.to_string()));
    };
    let act = (kind.action)(act).map_err(|why| Refusal::Malformed {
        chapter: chapter.to_string(),
        why,
    })?;
    Ok(Action::Chapter {
        chapter: chapter.to_string(),
        act,
    })
}

/// The chapters' values a restored save holds as its file wrote them (the actions of its log,
/// the events of its chronicle), typed by their chapters; a value a chapter cannot read stays
/// as its text (it is still written back as it was).
pub fn resolve_restored(world: &mut World) {
    let Some(chapters) = world.get_resource::<Chapters>().cloned() else {
        return;
    };
    let kind = |c: &str| chapters.actions.get(c).copied();
    for (_, a) in world.resource_mut::<super::ActionLog>().0.iter_mut() {
        if let Action::Chapter { chapter, act } = a
            && act.is_text()
            && let Some(k) = kind(chapter)
            && let Ok(v) = (k.action)(act)
        {
            *act = v;
        }
    }
    for e in world.resource_mut::<super::Chronicle>().0.iter_mut() {
        if let super::GameEvent::Chapter { chapter, what } = e
            && what.is_text()
            && let Some(k) = kind(chapter)
            && let Ok(v) = (k.event)(what)
        {
            *what = v;
        }
    }
}
