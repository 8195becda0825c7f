//! Headless AI-vs-AI games: per-cycle summaries and batches of seeded games for the `sim`
//! command, the tests and the benchmarks.

pub mod bench;

use std::sync::Arc;

use bevy::prelude::*;
use serde::Serialize;

use crate::content::{Camp, ContentDb, Stock};
use crate::rules::snapshot::state_hash;
use crate::rules::{
    Action, Army, Cycle, GameWorld, Outcome, Outpost, Portal, Research, Tile, setup, submit,
};

/// The state of the game at the end of a cycle's upkeep, as the summaries print it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CycleSummary {
    /// Cycle number.
    pub cycle: u32,
    /// Resources in all outposts' stocks.
    pub stock: Stock,
    /// Corrupted tiles (rifts included).
    pub corrupted: u32,
    /// Famine tokens on Eladrin armies.
    pub famine: u32,
    /// Eladrin units alive.
    pub eladrin_units: u32,
    /// Chaos units alive.
    pub chaos_units: u32,
    /// Portal cells built / all cells.
    pub portal_cells: (u32, u32),
    /// Crystals on the power track.
    pub power: u32,
    /// Corruption markers on the power track.
    pub corruption: u32,
    /// Technologies done.
    pub research_done: u32,
}

/// Reads a summary off the world.
pub fn summarize(world: &mut World) -> CycleSummary {
    let db = world.content();
    let mut stock = Stock::default();
    for o in world.query::<&Outpost>().iter(world) {
        stock.add_all(&o.stock);
    }
    let corrupted = world
        .query::<&Tile>()
        .iter(world)
        .filter(|t| t.is_corrupted())
        .count() as u32;
    let (mut famine, mut el, mut ch) = (0, 0, 0);
    for a in world.query::<&Army>().iter(world) {
        match a.camp {
            Camp::Eladrins => {
                famine += a.famine;
                el += a.units.len() as u32;
            }
            Camp::Chaos => ch += a.units.len() as u32,
        }
    }
    let p = world.resource::<Portal>();
    let total: u32 = db.portal().arches.iter().map(|a| a.len() as u32).sum();
    CycleSummary {
        cycle: world.resource::<Cycle>().number,
        stock,
        corrupted,
        famine,
        eladrin_units: el,
        chaos_units: ch,
        portal_cells: (p.built.iter().sum(), total),
        power: p.power,
        corruption: p.corruption,
        research_done: world.resource::<Research>().done.len() as u32,
    }
}

/// The next (camp, action) the AIs play: whoever the game waits for decides.
pub fn next_action(world: &mut World) -> (Camp, Action) {
    let (by, choice) = crate::ai::decide(world);
    (by, choice.action)
}

/// One finished headless game.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    /// Seed.
    pub seed: u64,
    /// The winner, if decided.
    pub winner: Option<Camp>,
    /// How it ended.
    pub reason: String,
    /// Cycles played.
    pub cycles: u32,
    /// Actions accepted.
    pub actions: usize,
    /// Final state hash.
    pub hash: String,
    /// Per-cycle summaries.
    pub per_cycle: Vec<CycleSummary>,
}

/// Plays one AI-vs-AI game for at most `max_cycles` cycles.
pub fn play_game(
    content: Arc<ContentDb>,
    level: &str,
    difficulty: Option<&str>,
    seed: u64,
    max_cycles: u32,
) -> Result<(App, GameReport), String> {
    let mut app = setup::new_game(content, level, difficulty, seed)?;
    let world = app.world_mut();
    let mut per_cycle = Vec::new();
    let mut last_cycle = 0;
    let mut actions = 0usize;
    // Bound the loop: a game is a few hundred actions; a stuck policy must not hang.
    for _ in 0..1_000_000 {
        if world.resource::<Outcome>().winner.is_some() {
            break;
        }
        let c = world.resource::<Cycle>().number;
        if c > max_cycles {
            break;
        }
        if world.step_id() == "R9" && c != last_cycle {
            last_cycle = c;
            per_cycle.push(summarize(world));
        }
        let (by, action) = next_action(world);
        match submit(world, by, action.clone()) {
            Ok(()) => actions += 1,
            Err(e) => {
                return Err(format!("the AI proposed an illegal action {action:?}: {e}"));
            }
        }
    }
    let o = world.resource::<Outcome>().clone();
    let cycles = world.resource::<Cycle>().number.min(max_cycles);
    let hash = format!("{:016x}", state_hash(world));
    let report = GameReport {
        seed,
        winner: o.winner,
        reason: if o.winner.is_some() {
            o.reason
        } else {
            format!("stopped after {max_cycles} cycles")
        },
        cycles,
        actions,
        hash,
        per_cycle,
    };
    Ok((app, report))
}
