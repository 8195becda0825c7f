//! The AIs: Chaos and the Eladrins, built like Wesnoth's RCA AI. At each decision, candidate
//! actions (each its own function in `chaos.rs` / `eladrin.rs`) look at the legal actions and
//! score what they would do; the best score is played, then the loop asks again. Weights live in
//! `assets/content/ai.ron` so a modder can tune them. Scores are integers and every list is in a
//! stable order, so the AI's choice depends only on the game state (and its seeded RNG).
//!
//! A camp may also think ahead (`search.rs`): the candidates' proposals are played out on a
//! copy of the game and the best position reached wins.
//!
//! The AI sends its choice as an ordinary `Action`: it can never do what a player couldn't.

pub mod chaos;
pub mod eladrin;
pub mod search;

use bevy::prelude::*;
use hexx::Hex;

use std::sync::Arc;

use crate::content::{AiWeights, Camp, ContentDb};
use crate::rules::chapter::{InPlay, Viewer};
use crate::rules::legal::legal_actions;
use crate::rules::{Action, Army, Cycle, GameSetup, GameWorld, Outpost, StepKind};

/// The AI settings this game plays with (`ai.ron`, with its level's own `ai` fields over it:
/// `ContentDb::ai_for`); it holds the content, so it outlives a borrow of the world.
pub struct Weights {
    db: Arc<ContentDb>,
    level: Option<Arc<AiWeights>>,
}

impl std::ops::Deref for Weights {
    type Target = AiWeights;
    fn deref(&self) -> &AiWeights {
        self.level.as_deref().unwrap_or(&self.db.set.ai)
    }
}

/// The AI settings of the game in `world` (`Weights`).
pub fn weights(world: &World) -> Weights {
    let db = world.content();
    let level = world
        .get_resource::<GameSetup>()
        .and_then(|s| db.level_ai(&s.level));
    Weights { db, level }
}

/// A scored candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Higher is better.
    pub score: i64,
    /// The action.
    pub action: Action,
    /// Which candidate proposed it (for logs and tests).
    pub why: &'static str,
}

/// A candidate-action evaluator: proposes its best action, if it has one.
pub type Candidate = fn(&mut World, &[Action]) -> Option<Choice>;

/// Picks the best of the candidates' proposals (the first on ties), else `fallback`.
pub fn best(world: &mut World, legal: &[Action], cas: &[Candidate], fallback: Action) -> Choice {
    let mut top: Option<Choice> = None;
    for ca in cas {
        if let Some(c) = ca(world, legal)
            && listed(legal, &c.action)
            && top.as_ref().is_none_or(|t| c.score > t.score)
        {
            top = Some(c);
        }
    }
    top.unwrap_or(Choice {
        score: 0,
        action: fallback,
        why: "nothing better",
    })
}

/// Who decides now, and what: the camp whose decision the game waits for, and its AI's choice
/// (the core's candidates, then the scorers of the chapters in play, which win only with a
/// higher score).
pub fn decide(world: &mut World) -> (Camp, Choice) {
    let by = world.deciding();
    if world.resource::<InPlay>().0.is_empty() {
        return decide_as(world, by);
    }
    // A chapter may hide things from a camp or seat: the AI thinks on what it may know.
    let viewer = match by {
        Camp::Chaos => Viewer::Chaos,
        Camp::Eladrins => Viewer::Seat(crate::rules::chapter::current_seat(world)),
    };
    crate::rules::chapter::as_seen_by(world, viewer, |world| decide_as(world, by))
}

fn decide_as(world: &mut World, by: Camp) -> (Camp, Choice) {
    let legal = legal_actions(world, by);
    let fallback = |action: Action| Choice {
        score: 0,
        action,
        why: "nothing better",
    };
    let core = match (by, world.step_kind()) {
        // A chapter may forbid passing while its participant can act (M1): then the first of
        // its legal actions, so the AI never submits a refused pass.
        (_, StepKind::Round { .. }) => match legal.first() {
            Some(first) if !legal.contains(&Action::Pass) => fallback(first.clone()),
            _ => fallback(Action::Pass),
        },
        (Camp::Chaos, StepKind::Decision { .. }) => fallback(Action::Done),
        (Camp::Chaos, _) => chaos::choose(world, &legal),
        (Camp::Eladrins, _) => eladrin::choose(world, &legal),
    };
    let choice = with_chapters(world, by, &legal, core);
    // A camp that thinks ahead weighs the proposals by playing them out (`search`).
    let choice = match search::brain_of(world, by) {
        search::Brain::Heuristic => choice,
        search::Brain::Search { nodes, margin } => {
            search::refine(world, by, &legal, choice, nodes, margin)
        }
    };
    (by, choice)
}

/// A chapter's candidate for a camp: registered by the chapter's plugin with
/// `ScorerAppExt::add_chapter_scorer`, its weights in `ai.ron: chapters` (`weight`).
#[derive(Resource, Default, Clone)]
pub struct ChapterScorers(pub Vec<(&'static str, Camp, Candidate)>);

/// A chapter's term of the search's evaluation (`search::evaluate`): what the chapter's part
/// of the position is worth from Chaos' side, in the points of `ai.ron: search.eval` (a unit is
/// worth `unit`, a corrupted hex `corrupted`). Registered with
/// `ScorerAppExt::add_chapter_eval`, added while the chapter is in play.
pub type EvalTerm = fn(&World) -> i64;

/// The chapters' evaluation terms, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterEvals(pub Vec<(&'static str, EvalTerm)>);

/// Registering a chapter's AI terms from its plugin: its candidates and its evaluation term.
pub trait ScorerAppExt {
    /// Adds a candidate for `camp`, asked while `chapter` is in play.
    fn add_chapter_scorer(&mut self, chapter: &'static str, camp: Camp, ca: Candidate)
    -> &mut Self;
    /// Adds an evaluation term the search weighs while `chapter` is in play.
    fn add_chapter_eval(&mut self, chapter: &'static str, term: EvalTerm) -> &mut Self;
}

impl ScorerAppExt for App {
    fn add_chapter_eval(&mut self, chapter: &'static str, term: EvalTerm) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(ChapterEvals::default)
            .0
            .push((chapter, term));
        self
    }
    fn add_chapter_scorer(
        &mut self,
        chapter: &'static str,
        camp: Camp,
        ca: Candidate,
    ) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(ChapterScorers::default)
            .0
            .push((chapter, camp, ca));
        self
    }
}

/// A chapter's weight `name` from `ai.ron` (`chapters: {"trial": {"play": 40}}`), 0 if unset.
pub fn weight(world: &World, chapter: &str, name: &str) -> i64 {
    weights(world)
        .chapters
        .get(chapter)
        .and_then(|m| m.get(name))
        .copied()
        .unwrap_or(0)
}

/// The chapters' scorers for `by` against the core's choice: the higher score plays.
fn with_chapters(world: &mut World, by: Camp, legal: &[Action], core: Choice) -> Choice {
    let mut top = core;
    for c in chapter_proposals(world, by, legal) {
        if c.score > top.score {
            top = c;
        }
    }
    top
}

/// What the scorers of the chapters in play propose for `by`, legal ones only, in the order
/// they were registered.
pub fn chapter_proposals(world: &mut World, by: Camp, legal: &[Action]) -> Vec<Choice> {
    let Some(scorers) = world.get_resource::<ChapterScorers>().cloned() else {
        return Vec::new();
    };
    let in_play = world.resource::<InPlay>().clone();
    scorers
        .0
        .into_iter()
        .filter(|(chapter, camp, _)| *camp == by && in_play.has(chapter))
        .filter_map(|(_, _, ca)| ca(world, legal))
        .filter(|c| legal.contains(&c.action))
        .collect()
}

/// The sum of the evaluation terms of the chapters in play, from Chaos' side.
pub fn chapter_eval(world: &World) -> i64 {
    let Some(evals) = world.get_resource::<ChapterEvals>() else {
        return 0;
    };
    let in_play = world.resource::<InPlay>();
    evals
        .0
        .iter()
        .filter(|(chapter, _)| in_play.has(chapter))
        .map(|(_, term)| term(world))
        .sum()
}

/// The hexes of Eladrin outposts, by id.
pub fn outpost_hexes(world: &mut World) -> Vec<Hex> {
    world
        .outposts()
        .into_iter()
        .filter_map(|o| world.get::<Outpost>(o).map(|x| x.hex))
        .collect()
}

/// The hex of `hexes` nearest `from`, the lowest on ties (a stable choice).
pub fn nearest(from: Hex, hexes: Vec<Hex>) -> Option<Hex> {
    hexes
        .into_iter()
        .min_by_key(|h| (h.unsigned_distance_to(from), (h.x, h.y)))
}

/// The active army, if an activation is open.
pub fn active(world: &mut World) -> Option<Army> {
    let id = world.resource::<Cycle>().activation?;
    let e = world.army_by_id(id)?;
    world.get::<Army>(e).cloned()
}

/// Armies of a camp, by id.
pub fn armies_of(world: &mut World, camp: Camp) -> Vec<Army> {
    world
        .armies_where(|a| a.camp == camp)
        .into_iter()
        .filter_map(|e| world.get::<Army>(e).cloned())
        .collect()
}

/// The move among `legal` that brings the army closest to `target` (and by how much it gains).
pub fn move_towards(legal: &[Action], from: Hex, target: Hex) -> Option<(u32, Action)> {
    let here = from.unsigned_distance_to(target);
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Move { to } => Some((Hex::new(to.0, to.1), a)),
            _ => None,
        })
        .map(|(h, a)| (h.unsigned_distance_to(target), (h.x, h.y), a))
        .min_by_key(|(d, k, _)| (*d, *k))
        .filter(|(d, _, _)| *d < here)
        .map(|(d, _, a)| (here - d, a.clone()))
}

/// The attack among `legal` with the best win odds for the active army, if they reach
/// `min_odds` percent; scored `weight` per percent (both AIs use it with their own weights).
/// With `retreat` (percent of the army's units, 0: never) the army also chooses when it steps
/// back (R9.5: the attacker sets `retreat_below` as it engages): below that share of its
/// units, if by the rules' own `battle_odds` stepping back leaves it better off (battles won
/// less battles lost, a lost battle being one where it is destroyed) than fighting to the end.
pub fn best_attack(
    world: &mut World,
    legal: &[Action],
    samples: u32,
    min_odds: u32,
    weight: i64,
    retreat: u32,
) -> Option<Choice> {
    let me = active(world)?;
    let mut top: Option<Choice> = None;
    for a in legal {
        let Action::Engage { target, .. } = a else {
            continue;
        };
        let Some(t) = world
            .army_by_id(*target)
            .and_then(|e| world.get::<Army>(e).cloned())
        else {
            continue;
        };
        let odds = crate::rules::main_phase::combat::battle_odds(world, &me, &t, 0, samples);
        let pct = (odds.attacker_wins * 100.0).round() as i64;
        if pct >= min_odds as i64 && top.as_ref().is_none_or(|c| weight * pct > c.score) {
            let retreat_below = retreat_below(world, &me, &t, &odds, samples, retreat);
            top = Some(Choice {
                score: weight * pct,
                action: Action::Engage {
                    target: *target,
                    retreat_below,
                },
                why: if retreat_below > 0 {
                    "attack, stepping back if it goes badly"
                } else {
                    "attack"
                },
            });
        }
    }
    top
}

/// The `retreat_below` an attack on `target` is engaged with: `retreat` percent of the army's
/// units (rounded up), if stepping back there beats fighting to the end by `battle_odds`
/// (`fight`: the odds without retreat); else 0.
fn retreat_below(
    world: &World,
    me: &Army,
    target: &Army,
    fight: &crate::rules::main_phase::combat::BattleOdds,
    samples: u32,
    retreat: u32,
) -> u32 {
    let below = (me.units.len() as u32 * retreat).div_ceil(100);
    // Fewer than one unit left is destroyed anyway: nothing to step back with.
    if below <= 1 {
        return 0;
    }
    let net = |o: &crate::rules::main_phase::combat::BattleOdds| {
        o.attacker_wins - o.defender_wins - o.both_destroyed
    };
    let step_back =
        crate::rules::main_phase::combat::battle_odds(world, me, target, below, samples);
    if net(&step_back) > net(fight) {
        below
    } else {
        0
    }
}

/// Whether the AI may send `action` by `legal`: listed, or an attack on a listed target with
/// its own `retreat_below` (the list holds each attack once, with 0: docs/rules.md,
/// "Decision").
pub fn listed(legal: &[Action], action: &Action) -> bool {
    match action {
        Action::Engage { target, .. } => legal
            .iter()
            .any(|a| matches!(a, Action::Engage { target: t, .. } if t == target)),
        a => legal.contains(a),
    }
}
