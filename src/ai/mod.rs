//! The AIs: Chaos and the Eladrins, built like Wesnoth's RCA AI. At each decision, candidate
//! actions (each its own function in `chaos.rs` / `eladrin.rs`) look at the legal actions and
//! score what they would do; the best score is played, then the loop asks again. Weights live in
//! `assets/content/ai.ron` so a modder can tune them. Scores are integers and every list is in a
//! stable order, so the AI's choice depends only on the game state (and its seeded RNG).
//!
//! The AI sends its choice as an ordinary `Action`: it can never do what a player couldn't.

pub mod chaos;
pub mod eladrin;

use bevy::prelude::*;
use hexx::Hex;

use crate::content::Camp;
use crate::rules::legal::legal_actions;
use crate::rules::{Action, Army, Cycle, GameWorld, Outpost};

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
            && legal.contains(&c.action)
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

/// Who decides now, and what: the camp whose decision the game waits for, and its AI's choice.
pub fn decide(world: &mut World) -> (Camp, Choice) {
    let by = world.deciding();
    let legal = legal_actions(world, by);
    let choice = match by {
        Camp::Chaos => chaos::choose(world, &legal),
        Camp::Eladrins => eladrin::choose(world, &legal),
    };
    (by, choice)
}

/// The hexes of Eladrin outposts, by id.
pub fn outpost_hexes(world: &mut World) -> Vec<Hex> {
    world
        .outposts()
        .into_iter()
        .filter_map(|o| world.get::<Outpost>(o).map(|x| x.hex))
        .collect()
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
pub fn best_attack(
    world: &mut World,
    legal: &[Action],
    samples: u32,
    min_odds: u32,
    weight: i64,
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
            top = Some(Choice {
                score: weight * pct,
                action: a.clone(),
                why: "attack",
            });
        }
    }
    top
}
