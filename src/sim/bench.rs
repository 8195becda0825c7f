//! Benchmarks of the AI and the rules, reported as figures (never asserted in tests): the time of
//! a whole Chaos turn and a whole Eladrin turn (thinking and playing every action of one camp in
//! one cycle), and of a whole AI-vs-AI game; and the search's (`search`): a copy of the game,
//! a Chaos decision, playouts and simulated actions per second.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::content::{Camp, ContentDb};
use crate::rules::{Cycle, GameWorld, Outcome, setup, submit};

/// Benchmark figures for one level.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// Level id.
    pub level: String,
    /// Games played.
    pub games: u32,
    /// Cycles played in all.
    pub cycles: u32,
    /// Median whole Chaos turn, microseconds.
    pub chaos_turn_median_us: u64,
    /// 95th percentile Chaos turn, microseconds.
    pub chaos_turn_p95_us: u64,
    /// Median whole Eladrin turn (upkeep decisions and main phase), microseconds.
    pub eladrin_turn_median_us: u64,
    /// 95th percentile Eladrin turn, microseconds.
    pub eladrin_turn_p95_us: u64,
    /// Median whole game, microseconds.
    pub game_median_us: u64,
}

fn percentile(v: &mut [u64], p: f64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    let i = ((v.len() - 1) as f64 * p).round() as usize;
    v[i.min(v.len() - 1)]
}

/// Plays `games` seeded AI-vs-AI games of `level` (at most `max_cycles` cycles each) and times
/// every camp's turn.
pub fn run(
    content: Arc<ContentDb>,
    level: &str,
    games: u32,
    max_cycles: u32,
) -> Result<BenchReport, String> {
    let mut chaos = Vec::new();
    let mut eladrin = Vec::new();
    let mut whole = Vec::new();
    let mut cycles = 0;
    for g in 0..games {
        let t0 = Instant::now();
        let mut app = setup::new_game(content.clone(), level, None, 1000 + g as u64)?;
        let world = app.world_mut();
        let mut turns: BTreeMap<(u32, Camp), u64> = BTreeMap::new();
        for _ in 0..1_000_000 {
            if world.resource::<Outcome>().winner.is_some()
                || world.resource::<Cycle>().number > max_cycles
            {
                break;
            }
            let cycle = world.resource::<Cycle>().number;
            let t = Instant::now();
            let (by, action) = super::next_action(world);
            submit(world, by, action.clone())
                .map_err(|e| format!("the AI proposed an illegal action {action:?}: {e}"))?;
            *turns.entry((cycle, by)).or_default() += t.elapsed().as_micros() as u64;
        }
        cycles += world.resource::<Cycle>().number.min(max_cycles);
        whole.push(t0.elapsed().as_micros() as u64);
        for ((_, camp), us) in turns {
            match camp {
                Camp::Chaos => chaos.push(us),
                Camp::Eladrins => eladrin.push(us),
            }
        }
    }
    Ok(BenchReport {
        level: level.to_string(),
        games,
        cycles,
        chaos_turn_median_us: percentile(&mut chaos, 0.5),
        chaos_turn_p95_us: percentile(&mut chaos, 0.95),
        eladrin_turn_median_us: percentile(&mut eladrin, 0.5),
        eladrin_turn_p95_us: percentile(&mut eladrin, 0.95),
        game_median_us: percentile(&mut whole, 0.5),
    })
}

/// Figures of the AI's search on one level (`bench --search`).
#[derive(Debug, Clone, Serialize)]
pub struct SearchReport {
    /// Level id.
    pub level: String,
    /// The Chaos AI's node budget.
    pub nodes: u32,
    /// Median copy of the game as the search makes it (capture, then `restore_trusted` into a
    /// reused world), microseconds.
    pub copy_median_us: u64,
    /// Median Chaos decision with the search, microseconds.
    pub decision_median_us: u64,
    /// 95th percentile Chaos decision, microseconds.
    pub decision_p95_us: u64,
    /// Actions simulated per second of the Chaos AI's thinking.
    pub nodes_per_s: u64,
    /// Copies restored per second of its thinking (one per playout).
    pub playouts_per_s: u64,
}

/// Plays `games` games of `level` with a searching Chaos (`nodes` per decision) against the
/// heuristic Eladrins, timing the copies and the decisions.
pub fn search(
    content: Arc<ContentDb>,
    level: &str,
    games: u32,
    nodes: u32,
    max_cycles: u32,
) -> Result<SearchReport, String> {
    use crate::ai::search::{Brain, Brains, SearchScratch};
    let mut copies = Vec::new();
    let mut decisions = Vec::new();
    let (mut think_us, mut done) = (0u64, (0u64, 0u64));
    let mut scratch = setup::headless_app(content.clone());
    for g in 0..games {
        let mut app = setup::new_game(content.clone(), level, None, 2000 + g as u64)?;
        app.insert_resource(Brains {
            chaos: Brain::Search {
                nodes,
                margin: None,
            },
            eladrin: Brain::Heuristic,
        });
        let world = app.world_mut();
        for _ in 0..1_000_000 {
            if world.resource::<Outcome>().winner.is_some()
                || world.resource::<Cycle>().number > max_cycles
            {
                break;
            }
            let chaos = world.deciding() == Camp::Chaos;
            if chaos && copies.len() < 200 {
                let t = Instant::now();
                let snap = crate::rules::snapshot::capture_without_log(world);
                crate::rules::snapshot::restore_trusted(scratch.world_mut(), &snap)?;
                copies.push(t.elapsed().as_micros() as u64);
            }
            let counted = |w: &bevy::prelude::World| {
                w.get_resource::<SearchScratch>()
                    .map_or((0, 0), |s| s.counted)
            };
            let before = counted(world);
            let t = Instant::now();
            let (by, action) = super::next_action(world);
            let us = t.elapsed().as_micros() as u64;
            if by == Camp::Chaos {
                decisions.push(us);
                think_us += us;
                let after = counted(world);
                done.0 += after.0 - before.0;
                done.1 += after.1 - before.1;
            }
            submit(world, by, action.clone())
                .map_err(|e| format!("the AI proposed an illegal action {action:?}: {e}"))?;
        }
    }
    let per_s = |n: u64| (n as f64 / (think_us.max(1) as f64 / 1e6)) as u64;
    Ok(SearchReport {
        level: level.to_string(),
        nodes,
        copy_median_us: percentile(&mut copies, 0.5),
        decision_median_us: percentile(&mut decisions, 0.5),
        decision_p95_us: percentile(&mut decisions, 0.95),
        nodes_per_s: per_s(done.1),
        playouts_per_s: per_s(done.0),
    })
}
