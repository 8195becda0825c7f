//! Thinking ahead: a bounded search over the candidates' proposals.
//!
//! In a main-phase turn, and in a chapter's rounds (a clan's action or its answer to a call),
//! the candidates of `chaos.rs` / `eladrin.rs` and the chapters' each propose their best
//! action. Every legal attack is added (the odds alone don't say what a
//! battle changes), and what the candidates don't think of (`alternatives`: card actions and
//! rituals, moves towards the places that matter, holding still, activating any army). The
//! search plays each proposal out on a copy of the game:
//! - the copy is a headless world restored from a snapshot of this one, kept per thread and
//!   reused;
//! - the copy's dice come from their own generator, seeded from the game's seed, the number of
//!   actions so far and each action's place in the playout, so the game's dice are never drawn
//!   and the search never sees them;
//! - both camps then play the candidates alone until the decision has changed hands `turns`
//!   times for the searching camp (1: its own turn played out; 2: and the reply, the
//!   Eladrins' setting), for `horizon` actions at most, and no
//!   further than the end of the step (the main phase, or the chapter's rounds): the copy
//!   holds there (`HoldAtStepEnd`), so the action that ends it is scored on the position it
//!   leaves, not on the steps `submit` would run next;
//! - the position reached is scored by `eval` (`ai.ron: search.eval`) and the evaluation
//!   terms of the chapters in play (`ScorerAppExt::add_chapter_eval`).
//!
//! Each proposal is played `rollouts` times, all with the same dice per rollout (common random
//! numbers: the proposals are compared on the same luck). The best mean wins if it beats the
//! candidates' own choice by the camp's `margin`. The budget counts simulated actions, not
//! time: the same state and seed give the same choice on every machine, so `sim`, replays and
//! tests stay exact.
//!
//! Which camp searches, with how many nodes and which margin, is its `Brain`. By default it
//! comes from the game's difficulty (`ai.ron: search.budgets` and `search.margins`: the margin
//! is a difficulty's skill, measured to matter far more than the nodes); `sim --chaos-ai` and
//! tests set `Brains`.

use std::sync::Arc;

use bevy::prelude::*;
use hexx::Hex;

use super::{Candidate, Choice};
use crate::content::{Camp, ContentDb, EvalWeights, SearchSettings};
use crate::rules::snapshot::{self, Snapshot};
use crate::rules::{
    Action, Army, Cycle, GameRng, GameSetup, GameWorld, HoldAtStepEnd, Outcome, Outpost, Portal,
    StepKind, Tile, setup, submit,
};

/// How an AI picks its action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brain {
    /// The candidates alone: the best score plays.
    Heuristic,
    /// The candidates' proposals weighed by playing them out, with this many simulated
    /// actions per decision at most.
    Search {
        /// The node budget.
        nodes: u32,
        /// How much better than the candidates' own choice another proposal must score to be
        /// played: a difficulty's skill (`ai.ron: search.margins`); `None`: the camp's
        /// `search.margin`.
        margin: Option<u32>,
    },
}

/// The most nodes a brain written on the command line may spend (as `ai.ron`'s budgets).
const MAX_NODES: u32 = crate::content::MAX_SEARCH_NODES;

impl Brain {
    /// `heuristic`, `search` (the default budget, 400), `search:NODES` or
    /// `search:NODES:MARGIN`.
    pub fn parse(s: &str) -> Result<Brain, String> {
        let mut parts = s.split(':');
        let (kind, nodes, margin) = (parts.next(), parts.next(), parts.next());
        let number = |x: &str, lo: u32| {
            x.parse::<u32>()
                .ok()
                .filter(|n| (lo..=MAX_NODES).contains(n))
        };
        match (kind, nodes, margin, parts.next()) {
            (Some("heuristic"), None, None, None) => Ok(Brain::Heuristic),
            (Some("search"), None, None, None) => Ok(Brain::Search {
                nodes: 400,
                margin: None,
            }),
            (Some("search"), Some(n), m, None) => {
                let nodes = number(n, 1).ok_or_else(|| {
                    format!("`{s}`: a search budget is 1 to {MAX_NODES} nodes (`search:400`)")
                })?;
                let margin = m
                    .map(|m| {
                        number(m, 0).ok_or_else(|| {
                            format!("`{s}`: a margin is 0 to {MAX_NODES} points (`search:400:30`)")
                        })
                    })
                    .transpose()?;
                Ok(Brain::Search { nodes, margin })
            }
            _ => Err(format!(
                "`{s}`: an AI is `heuristic`, `search`, `search:NODES` or `search:NODES:MARGIN`"
            )),
        }
    }
    /// The brain a budget gives: 0 nodes is the heuristic.
    pub fn of_budget(nodes: u32, margin: Option<u32>) -> Brain {
        if nodes == 0 {
            Brain::Heuristic
        } else {
            Brain::Search { nodes, margin }
        }
    }
}

/// Written as `parse` reads it (`heuristic`, `search:400`, `search:400:30`), for reports.
impl std::fmt::Display for Brain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Brain::Heuristic => write!(f, "heuristic"),
            Brain::Search {
                nodes,
                margin: None,
            } => write!(f, "search:{nodes}"),
            Brain::Search {
                nodes,
                margin: Some(m),
            } => write!(f, "search:{nodes}:{m}"),
        }
    }
}

/// Each camp's brain in this world, when set (by `sim`, a test, a playout); otherwise the
/// difficulty's budgets decide (`brain_of`). Not game state: never saved nor hashed.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Brains {
    /// Chaos'.
    pub chaos: Brain,
    /// The Eladrins'.
    pub eladrin: Brain,
}

impl Brains {
    /// Both camps play their candidates alone: the playouts' copy, tests of a candidate,
    /// games recorded before a difficulty searched.
    pub fn heuristic() -> Brains {
        Brains {
            chaos: Brain::Heuristic,
            eladrin: Brain::Heuristic,
        }
    }
}

/// The brain that plays `camp` here.
pub fn brain_of(world: &World, camp: Camp) -> Brain {
    if let Some(b) = world.get_resource::<Brains>() {
        return match camp {
            Camp::Chaos => b.chaos,
            Camp::Eladrins => b.eladrin,
        };
    }
    let setup = world.resource::<GameSetup>();
    budget_brain(&world.content(), &setup.level, &setup.difficulty, camp)
}

/// The brain `ai.ron: search.budgets` gives `camp` on `difficulty` (the heuristic where none),
/// with the difficulty's margin from `search.margins` where it has one; `level`'s own `ai`
/// fields first, where it sets some.
pub fn budget_brain(db: &ContentDb, level: &str, difficulty: &str, camp: Camp) -> Brain {
    let s = &db.ai_for(level).search;
    let nodes = s
        .budgets
        .get(difficulty)
        .copied()
        .unwrap_or_default()
        .of(camp);
    let margin = s.margins.get(difficulty).map(|m| m.of(camp));
    Brain::of_budget(nodes, margin)
}

/// The search's choice for `by` in a main-phase turn or a chapter's round, `heuristic` being
/// what the candidates alone would play. Without two distinct proposals, or without budget for
/// one playout, it is `heuristic`.
pub fn refine(
    world: &mut World,
    by: Camp,
    legal: &[Action],
    heuristic: Choice,
    nodes: u32,
    margin: Option<u32>,
) -> Choice {
    // The main phase and a chapter's rounds (a clan's actions, its answers to a call): the
    // decisions that shape the game. Decisions of a step (R5, R7, R8) keep the candidates'.
    if !matches!(world.step_kind(), StepKind::Turns | StepKind::Round { .. }) {
        return heuristic;
    }
    let settings = super::weights(world).search.clone();
    let mut props = proposals(world, by, legal, &heuristic);
    props.truncate(settings.candidates.clamp(1, 12) as usize);
    if props.len() < 2 {
        return heuristic;
    }
    let rollouts = settings.rollouts.clamp(1, 16);
    let per = nodes / (props.len() as u32 * rollouts);
    let horizon = per.min(settings.horizon.min(200));
    if horizon == 0 {
        return heuristic;
    }
    let snap = snapshot::capture_without_log(world);
    let seed = {
        let s = world.resource::<GameSetup>().seed;
        let n = world.resource::<crate::rules::ActionLog>().0.len() as u64;
        mix(mix(s, n), by as u64)
    };
    let content = world.content();
    let scratch = world.remove_resource::<SearchScratch>().unwrap_or_default();
    let mut best: Option<(i64, usize)> = None;
    let mut start = Start {
        snap: &snap,
        mark: None,
        drained: drain(world),
        scratch,
    };
    for (i, p) in props.iter().enumerate() {
        let mut total = 0i64;
        for r in 0..rollouts {
            let Some(score) = playout(
                &content,
                &mut start,
                by,
                &p.action,
                mix(seed, r as u64),
                horizon,
                &settings,
            ) else {
                total = i64::MIN / 2;
                break;
            };
            total += score;
        }
        let mean = total / rollouts as i64;
        // The candidates' own choice (first) stands unless another beats it by the margin;
        // an attack needs at most `attack_margin`.
        let mut margin = margin.unwrap_or(settings.margin.of(by));
        if matches!(p.action, Action::Engage { .. }) {
            margin = margin.min(settings.attack_margin.of(by));
        }
        let margin = margin as i64;
        let bar = if i == 0 { mean } else { mean - margin };
        if best.is_none_or(|(b, _)| bar > b) {
            best = Some((if i == 0 { mean } else { bar }, i));
        }
    }
    world.insert_resource(start.scratch);
    best.and_then(|(_, i)| props.into_iter().nth(i))
        .unwrap_or(heuristic)
}

/// The distinct actions proposed now, the heuristic's choice first, then by score: each
/// candidate's proposal, the chapters' scorers', every legal attack, and the fallback.
fn proposals(world: &mut World, by: Camp, legal: &[Action], heuristic: &Choice) -> Vec<Choice> {
    let (cas, fallback): (&[Candidate], Action) = match by {
        Camp::Chaos => super::chaos::scorers(world),
        Camp::Eladrins => super::eladrin::scorers(world),
    };
    let mut all: Vec<Choice> = cas
        .iter()
        .filter_map(|ca| ca(world, legal))
        .filter(|c| super::listed(legal, &c.action))
        .collect();
    all.extend(super::chapter_proposals(world, by, legal));
    for a in legal {
        if matches!(a, Action::Engage { .. }) {
            all.push(Choice {
                score: 0,
                action: a.clone(),
                why: "attack",
            });
        }
    }
    all.extend(alternatives(world, by, legal));
    if legal.contains(&fallback) {
        all.push(Choice {
            score: 0,
            action: fallback,
            why: "nothing better",
        });
    }
    // Stable: by score, then in the order proposed.
    all.sort_by_key(|c| std::cmp::Reverse(c.score));
    let mut out = vec![heuristic.clone()];
    for c in all {
        if !out.iter().any(|o| o.action == c.action) {
            out.push(c);
        }
    }
    out
}

/// What the candidates may not think of, inside an activation: every card action and ritual
/// (a taint's attempt is made wherever the unit stands, R6.2; a cleansing rite is never the
/// candidates' choice), a move towards each place that matters (the
/// portal, the nearest enemy army, the nearest enemy outpost or open rift, the nearest own
/// outpost), and holding still; between activations, activating any army.
fn alternatives(world: &mut World, by: Camp, legal: &[Action]) -> Vec<Choice> {
    let alt = |action: &Action, why| Choice {
        score: 0,
        action: action.clone(),
        why,
    };
    let Some(me) = super::active(world) else {
        // Between activations: any army may be the one to act.
        return legal
            .iter()
            .filter(|a| matches!(a, Action::Activate { .. }))
            .map(|a| alt(a, "activate"))
            .collect();
    };
    let mut out: Vec<Choice> = legal
        .iter()
        .filter(|a| matches!(a, Action::UseCard { .. } | Action::Ritual { .. }))
        .map(|a| alt(a, "card"))
        .collect();
    let enemies: Vec<Hex> = super::armies_of(world, by.enemy())
        .iter()
        .map(|a| a.hex)
        .collect();
    let outposts = super::outpost_hexes(world);
    let (places, home) = match by {
        Camp::Chaos => (outposts, Vec::new()),
        Camp::Eladrins => (
            crate::rules::upkeep::corruption::open_rifts(world),
            outposts,
        ),
    };
    let targets = [
        Some(world.resource::<Portal>().hex),
        super::nearest(me.hex, enemies),
        super::nearest(me.hex, places),
        super::nearest(me.hex, home),
    ];
    for t in targets.into_iter().flatten() {
        if let Some((_, a)) = super::move_towards(legal, me.hex, t) {
            out.push(alt(&a, "towards"));
        }
    }
    if legal.contains(&Action::EndActivation) {
        out.push(alt(&Action::EndActivation, "hold"));
    }
    out
}

/// The search's copy of the game for its playouts, kept by the world that searches (a
/// resource of it) so that a decision after the first restores into it instead of building
/// one: the copy's world, with the content it was made for; and what the searches counted.
/// The window's AI, thinking in a task on a world of its own, hands it from task to task
/// (`view::driver`).
#[derive(Resource, Default)]
pub struct SearchScratch {
    copy: Option<(Arc<ContentDb>, World)>,
    /// (Copies of the game restored, actions simulated) by this world's searches so far: the
    /// search's throughput is these over its time (`bench`).
    pub counted: (u64, u64),
}

/// The position a decision's playouts start from, and where this thread's copy stood after it
/// last took it (none before the decision's first playout).
struct Start<'a> {
    snap: &'a Snapshot,
    mark: Option<snapshot::Restored>,
    /// The Eladrins' `drain` there: a playout is charged only for the upkeep it adds.
    drained: i64,
    /// The copy the playouts play on.
    scratch: SearchScratch,
}

/// Plays `first` then both camps' candidates for up to `horizon` actions on a copy of
/// `start.snap` with dice seeded by `seed`; the position's score for `by` (`None`: `first` was
/// refused).
fn playout(
    content: &Arc<ContentDb>,
    start: &mut Start,
    by: Camp,
    first: &Action,
    seed: u64,
    horizon: u32,
    settings: &SearchSettings,
) -> Option<i64> {
    let (turns, upkeep) = (settings.turns.of(by), settings.upkeep);
    let scratch = &mut start.scratch;
    {
        if scratch
            .copy
            .as_ref()
            .is_none_or(|(c, _)| !Arc::ptr_eq(c, content))
        {
            // The copy plays with the candidates' odds from fewer simulated battles.
            let mut playing = (**content).clone();
            for ai in playing.ai_mut() {
                ai.chaos.odds_samples = settings.odds_samples;
                ai.eladrin.odds_samples = settings.odds_samples;
            }
            let mut app = setup::headless_app(Arc::new(playing));
            app.insert_resource(Brains::heuristic());
            // The world alone plays: its schedules are resources of it.
            let world = std::mem::take(app.world_mut());
            scratch.copy = Some((content.clone(), world));
        }
        let counted = &mut scratch.counted;
        let (_, w) = scratch.copy.as_mut()?;
        // After the first playout of a decision, the copy holds `snap` but for what that
        // playout changed: only those tiles are put back.
        let restored = match start.mark.take() {
            Some(m) => snapshot::restore_again(w, start.snap, m),
            None => snapshot::restore_trusted(w, start.snap),
        };
        start.mark = Some(restored.ok()?);
        counted.0 += 1;
        counted.1 += 1;
        // The copy's messages are read by nobody: dropped, so a long search keeps no backlog.
        w.resource_mut::<Messages<crate::rules::GameEvent>>()
            .clear();
        w.insert_resource(GameRng::seeded(seed));
        // The copy was taken as the searching camp sees the game: what it may not see (a
        // foe's hand, a battle card face down) is guessed anew for each playout.
        crate::rules::chapter::guess_unseen(w);
        let (cycle, step) = {
            let c = w.resource::<Cycle>();
            (c.number, c.step)
        };
        // Without `upkeep`, every playout stops where this step (the main phase, or a
        // chapter's rounds) ends, the copy holding there (`HoldAtStepEnd`): whatever action
        // ended it is scored on the position it leaves, not credited with the steps `submit`
        // would run up to the next decision (the upkeep's corruption, a chapter's quest phase
        // or raid) while the others stop short of them.
        w.insert_resource(HoldAtStepEnd(!upkeep));
        let ended = |w: &mut World| {
            let c = w.resource::<Cycle>();
            c.number != cycle || c.step != step || (!upkeep && crate::rules::step_over(w))
        };
        let drained = start.drained;
        let score_of = |w: &mut World| score_ending(w, settings.foresight, by, drained);
        let play = |w: &mut World, who: Camp, action: Action| -> Option<Option<i64>> {
            submit(w, who, action).ok()?;
            Some(ended(w).then(|| score_of(w)))
        };
        let mut stop = play(w, by, first.clone())?;
        let mut last = by;
        let mut passes = 0;
        for i in 0..horizon {
            if stop.is_some() {
                break;
            }
            // Through the next upkeep to the next main phase with `upkeep`, else to this
            // step's end (the main phase's, the rounds'); `turns` changes of camp at most.
            let turns_now = matches!(w.step_kind(), StepKind::Turns);
            if w.resource::<Outcome>().winner.is_some()
                || (w.resource::<Cycle>().number != cycle && turns_now)
                || (!upkeep && ended(w))
            {
                break;
            }
            let (who, choice) = super::decide(w);
            if who != last {
                passes += 1;
                last = who;
                if passes == turns {
                    break;
                }
            }
            // Each action's dice of its own (seed, its place in the playout): the proposals
            // drew different numbers of dice first, yet what follows meets the same luck.
            w.insert_resource(GameRng::seeded(mix(seed, i as u64 + 1)));
            match play(w, who, choice.action) {
                Some(s) => stop = s,
                None => break,
            }
            counted.1 += 1;
        }
        let score = match stop {
            Some(s) => s,
            None => score_of(w),
        };
        Some(match by {
            Camp::Chaos => score,
            Camp::Eladrins => -score,
        })
    }
}

/// The score, from Chaos' side, of the position a playout ends on as `by`'s search sees it:
/// `evaluate`, after the next upkeep's feeding (R5.3–R5.5: no dice) is played on this world
/// when `foresight` is on and a main phase is under way, so that an army grown past what its
/// zone can feed shows its famine tokens and the units they kill; and, at `by`'s weight
/// (`eval.drain`), the upkeep the Eladrin units will take from the portal each cycle beyond
/// `drained`, the drain where the playouts started. Only what a playout adds counts: the golems
/// already there would otherwise make losing one look like a gain. It changes the world: the
/// search calls it on its copy, which the next playout restores.
pub fn score_ending(world: &mut World, foresight: bool, by: Camp, drained: i64) -> i64 {
    if foresight && matches!(world.step_kind(), StepKind::Turns) {
        crate::rules::upkeep::maintenance::feed_now(world);
    }
    let score = evaluate(world);
    let weight = super::weights(world).search.eval.drain.of(by) as i64;
    // Chaos' weight is 0: its scores, and their cost, stay as they were. A game over is
    // scored by its winner alone.
    if weight == 0 || world.resource::<Outcome>().winner.is_some() {
        return score;
    }
    score.saturating_add((drain(world) - drained).max(0).saturating_mul(weight))
}

/// The position's score from Chaos' side (`ai.ron: search.eval`).
pub fn evaluate(world: &mut World) -> i64 {
    let tuned = super::weights(world);
    let e: &EvalWeights = &tuned.search.eval;
    if let Some(w) = world.resource::<Outcome>().winner {
        return match w {
            Camp::Chaos => e.win,
            Camp::Eladrins => -e.win,
        };
    }
    let mut outposts: Vec<Hex> = Vec::new();
    let mut stock = 0i64;
    for o in world.query::<&Outpost>().iter(world) {
        outposts.push(o.hex);
        stock += o.stock.total() as i64;
    }
    let mut score = -(outposts.len() as i64) * e.outpost - stock * e.stock;
    // A level that asks the Eladrins to hold so many outposts (`victory.outposts`, with the
    // difficulty's): each one short of it stands between them and their victory.
    let need = crate::rules::outcome::victory(world).map_or(0, |v| v.outposts);
    score += (need as i64 - outposts.len() as i64).max(0) * e.short;
    let range = e.range.min(64);
    for a in world.query::<&Army>().iter(world) {
        let side = match a.camp {
            Camp::Chaos => 1,
            Camp::Eladrins => -1,
        };
        for u in &a.units {
            // Famine tokens take a hit point from every unit (R5.4), as wounds do.
            let hp = crate::rules::units::hp_left(world, a, u).max(0) as i64;
            score += side * (e.unit + e.hp * hp);
        }
        match a.camp {
            Camp::Eladrins => {
                score += a.famine as i64 * e.famine;
                // Standing on corruption: each unit rolls its resistance at the next upkeep
                // (R6.3).
                if world.tile(a.hex).is_some_and(|t| t.is_corrupted()) {
                    score += a.units.len() as i64 * e.exposed;
                }
            }
            Camp::Chaos => {
                let d = outposts
                    .iter()
                    .map(|h| h.unsigned_distance_to(a.hex))
                    .min()
                    .unwrap_or(0)
                    .min(range);
                // A bonus for closing in, never a cost: a unit just summoned far away
                // must not count against Chaos.
                score += (range - d) as i64 * e.distance * a.units.len() as i64;
            }
        }
    }
    let portal = world.resource::<Portal>().hex;
    let reach = e.reach.min(64);
    for t in world.query::<&Tile>().iter(world) {
        if t.is_corrupted() {
            score += e.corrupted;
            let d = t.hex.unsigned_distance_to(portal);
            score += reach.saturating_sub(d) as i64 * e.approach;
            if t.rift == crate::rules::Rift::Open {
                score += e.rift;
            }
        } else if t.improvement.is_some() {
            score -= e.improvement;
        }
    }
    let p = world.resource::<Portal>();
    score -= p.built.iter().sum::<u32>() as i64 * e.cell;
    score -= p.power as i64 * e.power;
    score += p.corruption as i64 * e.marker;
    // The chapters' parts of the position (their `ScorerAppExt::add_chapter_eval` terms).
    score + super::chapter_eval(world)
}

/// The points of upkeep the Eladrin units pay each cycle (R5.2) in resources the portal still
/// needs (R8), each resource up to that need: what they take from the portal every cycle.
pub fn drain(world: &mut World) -> i64 {
    let db = world.content();
    let need = super::eladrin::portal_need(world);
    if need.total() == 0 {
        return 0;
    }
    let mut eaten = crate::content::Stock::default();
    for a in world.query::<&Army>().iter(world) {
        if a.camp != Camp::Eladrins {
            continue;
        }
        for u in &a.units {
            if let Some(t) = db.unit(&u.kind) {
                eaten.add_all(&t.upkeep);
            }
        }
    }
    eaten.iter().map(|(r, n)| n.min(need.get(r)) as i64).sum()
}

/// A 64-bit mix of two numbers (splitmix64's finaliser), for the playouts' seeds.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
