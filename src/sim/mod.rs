//! Headless AI-vs-AI games: per-cycle summaries and batches of seeded games for the `sim`
//! command, the tests and the benchmarks.

pub mod bench;
pub mod campaign;
pub mod fuzz;
pub mod hostile;
pub mod scenario;
pub mod soak;

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
    /// Eladrin outposts held.
    pub outposts: u32,
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
        outposts: world.outposts().len() as u32,
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
    /// Battles fought (R9.5).
    pub battles: u32,
    /// Units that died, per side: (Eladrins, Chaos).
    pub units_lost: (u32, u32),
    /// What the chapters told, counted by kind (`"clans:Battle"`, `"mercenaries:Claimed"`: the
    /// chapter, then its event's name): a chapter's own battles, pillages, claims.
    pub chapter_events: std::collections::BTreeMap<String, u32>,
    /// Each seat's glory at the end, where a chapter in play counts it (`chapter::glory`):
    /// the seats' own scores.
    pub glory: Vec<u32>,
    /// The level's conditions beyond the portal (`Victory`) still unmet at the end, in
    /// words: what a game lost with the portal powered missed (balance work reads it).
    pub unmet: Vec<String>,
    /// Per-cycle summaries.
    pub per_cycle: Vec<CycleSummary>,
    /// Each decision's thinking time in microseconds, per camp: (Eladrins, Chaos). Wall-clock
    /// figures for the report, never part of the game.
    #[serde(skip)]
    pub decision_us: (Vec<u32>, Vec<u32>),
}

/// Plays one AI-vs-AI game for at most `max_cycles` cycles.
pub fn play_game(
    content: Arc<ContentDb>,
    level: &str,
    difficulty: Option<&str>,
    seed: u64,
    max_cycles: u32,
) -> Result<(App, GameReport), String> {
    play_game_with(
        content,
        level,
        difficulty,
        seed,
        max_cycles,
        &mut |_| Ok(()),
    )
}

/// `play_game`, calling `each_cycle` when every new cycle's main phase begins (to autosave).
pub fn play_game_with(
    content: Arc<ContentDb>,
    level: &str,
    difficulty: Option<&str>,
    seed: u64,
    max_cycles: u32,
    each_cycle: &mut dyn FnMut(&mut World) -> Result<(), String>,
) -> Result<(App, GameReport), String> {
    let game = Game {
        level,
        difficulty,
        seed,
        max_cycles,
        brains: None,
        players: &[],
        carry: None,
    };
    play(content, &game, each_cycle)
}

/// One headless game to play: where, how hard, its seed, how long, and who thinks how.
#[derive(Debug, Clone, Copy)]
pub struct Game<'a> {
    /// The level's id.
    pub level: &'a str,
    /// The difficulty (the level's default when `None`).
    pub difficulty: Option<&'a str>,
    /// The seed.
    pub seed: u64,
    /// Cycles at most.
    pub max_cycles: u32,
    /// Each camp's AI (`sim --chaos-ai`); `None`: the difficulty's (`ai.ron: search`).
    pub brains: Option<crate::ai::search::Brains>,
    /// The Eladrin seats (none: one).
    pub players: &'a [String],
    /// What a campaign chapter is given (`campaign run`); none outside a campaign.
    pub carry: Option<&'a crate::rules::campaign::CarryIn>,
}

/// Plays `game` AI against AI, calling `each_cycle` when every new cycle's main phase begins.
pub fn play(
    content: Arc<ContentDb>,
    game: &Game,
    each_cycle: &mut dyn FnMut(&mut World) -> Result<(), String>,
) -> Result<(App, GameReport), String> {
    let Game {
        level,
        difficulty,
        seed,
        max_cycles,
        brains,
        players,
        carry,
    } = *game;
    let mut app = setup::headless_app(content);
    match carry {
        Some(c) => setup::start_chapter(app.world_mut(), level, difficulty, seed, players, c)?,
        None => setup::start_game_for(app.world_mut(), level, difficulty, seed, players)?,
    }
    if let Some(b) = brains {
        app.insert_resource(b);
    }
    let world = app.world_mut();
    let mut per_cycle = Vec::new();
    let mut last_cycle = 0;
    let mut actions = 0usize;
    let mut tally = Tally::default();
    // Bound the loop: a game is a few hundred actions; a stuck policy must not hang.
    for _ in 0..1_000_000 {
        if world.resource::<Outcome>().winner.is_some() {
            break;
        }
        let c = world.resource::<Cycle>().number;
        if c > max_cycles {
            break;
        }
        if world.in_turns() && c != last_cycle {
            last_cycle = c;
            per_cycle.push(summarize(world));
            each_cycle(world)?;
        }
        let t = std::time::Instant::now();
        let (by, action) = next_action(world);
        let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
        match by {
            Camp::Eladrins => tally.decision_us.0.push(us),
            Camp::Chaos => tally.decision_us.1.push(us),
        }
        tally.note_armies(world);
        match submit(world, by, action.clone()) {
            Ok(()) => actions += 1,
            Err(e) => {
                return Err(format!("the AI proposed an illegal action {action:?}: {e}"));
            }
        }
        tally.read_events(world);
    }
    let o = world.resource::<Outcome>().clone();
    let cycles = world.resource::<Cycle>().number.min(max_cycles);
    let hash = format!("{:016x}", state_hash(world));
    let db = world.content();
    let unmet = crate::rules::outcome::victory(world)
        .map(|v| crate::rules::outcome::missing_conditions(world, &v))
        .unwrap_or_default()
        .iter()
        .map(|c| c.words(&crate::text::Translations::default(), Some(&db)))
        .collect();
    let report = GameReport {
        seed,
        winner: o.winner,
        // The report is English, for tools and people reading `sim`'s output.
        reason: if let (Some(_), Some(r)) = (o.winner, &o.reason) {
            r.to_string()
        } else {
            format!("stopped after {max_cycles} cycles")
        },
        cycles,
        actions,
        hash,
        battles: tally.battles,
        units_lost: tally.lost,
        chapter_events: tally.chapter,
        glory: crate::rules::chapter::glory(world),
        unmet,
        per_cycle,
        decision_us: tally.decision_us,
    };
    Ok((app, report))
}

/// What a game's events add up to: battles, deaths per side, thinking times.
#[derive(Default)]
struct Tally {
    battles: u32,
    lost: (u32, u32),
    decision_us: (Vec<u32>, Vec<u32>),
    /// The chapters' events by kind (`chapter_kind`).
    chapter: std::collections::BTreeMap<String, u32>,
    /// Each army's camp as last seen (a destroyed army's deaths still count for its side).
    camps: std::collections::HashMap<u32, Camp>,
    /// Events of the chronicle already read.
    read: usize,
}

impl Tally {
    fn note_armies(&mut self, world: &mut World) {
        for a in world.query::<&Army>().iter(world) {
            self.camps.insert(a.id, a.camp);
        }
    }
    fn read_events(&mut self, world: &World) {
        let ch = &world.resource::<crate::rules::Chronicle>().0;
        // The chronicle drops its older half when full (`CHRONICLE_MAX`).
        if ch.len() < self.read {
            self.read = self.read.saturating_sub(crate::rules::CHRONICLE_MAX / 2);
        }
        for e in ch.iter().skip(self.read) {
            match e {
                crate::rules::GameEvent::BattleStarted { .. } => self.battles += 1,
                crate::rules::GameEvent::UnitDied { army, .. } => match self.camps.get(army) {
                    Some(Camp::Eladrins) => self.lost.0 += 1,
                    Some(Camp::Chaos) => self.lost.1 += 1,
                    None => {}
                },
                crate::rules::GameEvent::Chapter { chapter, what } => {
                    *self
                        .chapter
                        .entry(chapter_kind(chapter, &what.ron()))
                        .or_default() += 1;
                }
                _ => {}
            }
        }
        self.read = ch.len();
    }
}

/// A chapter event's kind: its chapter and the name its text starts with (a RON variant:
/// `Battle(province: …)` is `Battle`), bounded in length (a chapter's text is its own).
pub fn chapter_kind(chapter: &str, what: &str) -> String {
    let name: String = what
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .take(40)
        .collect();
    format!("{chapter}:{name}")
}

/// Statistics over a batch of games.
#[derive(Debug, Clone, Serialize)]
pub struct BatchStats {
    /// Share of Eladrin wins.
    pub eladrin_win_rate: f64,
    /// 95 % Wilson confidence interval of that share.
    pub win_rate_ci95: (f64, f64),
    /// Mean cycles.
    pub mean_cycles: f64,
    /// How the games ended: (winner and reason, count), most frequent first.
    pub outcomes: Vec<(String, usize)>,
    /// Per cycle: (cycle, games still running, mean stock total, mean corrupted tiles, mean
    /// famine, mean Eladrin units, mean Chaos units, mean portal cells, mean power, mean markers).
    pub per_cycle_mean: Vec<[f64; 10]>,
    /// Mean battles per game.
    pub battles_per_game: f64,
    /// Share of games with at least one battle.
    pub games_with_battles: f64,
    /// Mean units lost per game: (Eladrins, Chaos).
    pub units_lost_per_game: (f64, f64),
    /// Mean chapter events per game, by kind (`GameReport::chapter_events`).
    pub chapter_events_per_game: std::collections::BTreeMap<String, f64>,
    /// Mean glory per game of each seat (`GameReport::glory`); empty where no chapter counts it.
    pub glory_per_seat: Vec<f64>,
    /// Thinking time per decision, microseconds: (median, 95th percentile), for the Eladrins.
    pub eladrin_decision_us: (u32, u32),
    /// The same for Chaos.
    pub chaos_decision_us: (u32, u32),
}

/// The 95 % Wilson interval of `wins` out of `n` (n at least 1).
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let n = n.max(1.0);
    let p = wins / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Win rate with its Wilson interval, outcomes and per-cycle averages.
pub fn batch_stats(reports: &[GameReport]) -> BatchStats {
    let n = reports.len().max(1) as f64;
    let wins = reports
        .iter()
        .filter(|r| r.winner == Some(Camp::Eladrins))
        .count() as f64;
    let p = wins / n;
    let (lo, hi) = wilson(wins, n);
    let mut outcomes: std::collections::BTreeMap<String, usize> = Default::default();
    for r in reports {
        let who = r
            .winner
            .map(|w| format!("{w:?}"))
            .unwrap_or("Nobody".into());
        *outcomes.entry(format!("{who}: {}", r.reason)).or_default() += 1;
    }
    let mut outcomes: Vec<(String, usize)> = outcomes.into_iter().collect();
    outcomes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let longest = reports.iter().map(|r| r.per_cycle.len()).max().unwrap_or(0);
    let mut per_cycle_mean = Vec::new();
    for i in 0..longest {
        let rows: Vec<&CycleSummary> = reports.iter().filter_map(|r| r.per_cycle.get(i)).collect();
        let k = rows.len() as f64;
        let mean = |f: &dyn Fn(&CycleSummary) -> f64| rows.iter().map(|c| f(c)).sum::<f64>() / k;
        per_cycle_mean.push([
            (i + 1) as f64,
            k,
            mean(&|c| c.stock.total() as f64),
            mean(&|c| c.corrupted as f64),
            mean(&|c| c.famine as f64),
            mean(&|c| c.eladrin_units as f64),
            mean(&|c| c.chaos_units as f64),
            mean(&|c| c.portal_cells.0 as f64),
            mean(&|c| c.power as f64),
            mean(&|c| c.corruption as f64),
        ]);
    }
    let spread = |v: Vec<u32>| {
        let mut v = v;
        v.sort_unstable();
        let at = |q: f64| {
            v.get(((v.len().saturating_sub(1)) as f64 * q).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        (at(0.5), at(0.95))
    };
    let all = |f: &dyn Fn(&GameReport) -> &Vec<u32>| -> Vec<u32> {
        reports.iter().flat_map(|r| f(r).iter().copied()).collect()
    };
    BatchStats {
        eladrin_win_rate: p,
        win_rate_ci95: (lo, hi),
        mean_cycles: reports.iter().map(|r| r.cycles as f64).sum::<f64>() / n,
        outcomes,
        per_cycle_mean,
        battles_per_game: reports.iter().map(|r| r.battles as f64).sum::<f64>() / n,
        games_with_battles: reports.iter().filter(|r| r.battles > 0).count() as f64 / n,
        units_lost_per_game: (
            reports.iter().map(|r| r.units_lost.0 as f64).sum::<f64>() / n,
            reports.iter().map(|r| r.units_lost.1 as f64).sum::<f64>() / n,
        ),
        chapter_events_per_game: {
            let mut m: std::collections::BTreeMap<String, f64> = Default::default();
            for r in reports {
                for (k, v) in &r.chapter_events {
                    *m.entry(k.clone()).or_default() += *v as f64 / n;
                }
            }
            m
        },
        glory_per_seat: {
            let seats = reports.iter().map(|r| r.glory.len()).max().unwrap_or(0);
            (0..seats)
                .map(|s| {
                    let sum: u32 = reports.iter().filter_map(|r| r.glory.get(s)).sum();
                    sum as f64 / n
                })
                .collect()
        },
        eladrin_decision_us: spread(all(&|r| &r.decision_us.0)),
        chaos_decision_us: spread(all(&|r| &r.decision_us.1)),
    }
}
