//! `sim`: headless AI-vs-AI games with per-cycle summaries, win rates and their confidence
//! interval; optionally the first game's replay, its event log, and autosaves as the window
//! writes them.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use super::{Failure, Outcome, Program, problems_text};
use crate::rules::snapshot;
use crate::sim;

/// `sim`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Level id (a file name in levels/ without .ron) or a path to a level file.
    #[arg(long, default_value = "standard")]
    level: String,
    /// Seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop each game after this many cycles.
    #[arg(long, default_value_t = 100)]
    cycles: u32,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Difficulty id (the level's default otherwise).
    #[arg(long)]
    difficulty: Option<String>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Write the first game's replay to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Print the first game's event log (every roll, card and move) to stderr.
    #[arg(long)]
    log: bool,
    /// Autosave every cycle into this folder (as the window does).
    #[arg(long)]
    autosave: Option<PathBuf>,
    /// Autosaves to keep.
    #[arg(long, default_value_t = 5)]
    keep: usize,
    /// Chaos' AI: `heuristic`, `search`, `search:NODES` or `search:NODES:MARGIN` (the
    /// difficulty's, from `ai.ron: search.budgets` and `margins`, otherwise).
    #[arg(long, value_name = "AI")]
    chaos_ai: Option<String>,
    /// The Eladrins' AI, the same way.
    #[arg(long, value_name = "AI")]
    eladrin_ai: Option<String>,
    /// Games played at once, on as many threads (default: the machine's cores; 1 with
    /// `--autosave`). Each game has its own seed, so the results are the same for any number.
    #[arg(long)]
    jobs: Option<usize>,
}

/// `sim`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let mods = p.mods.as_slice();
    if a.games == 0 || a.games > 100_000 {
        return Err(Failure::Usage("--games must be from 1 to 100000".into()));
    }
    if a.cycles == 0 || a.cycles > 10_000 {
        return Err(Failure::Usage("--cycles must be from 1 to 10000".into()));
    }
    let mut db = p.content_with(mods)?;
    let id = db
        .resolve_level(&a.level)
        .map_err(|ps| problems_text(&ps))?;
    let difficulty = a.difficulty.as_deref();
    if let Some(d) = difficulty
        && db.difficulty(d).is_none()
    {
        let known: Vec<&str> = db.set.difficulties.iter().map(|d| d.id.as_str()).collect();
        return Err(format!("no difficulty `{d}`; known: {}", known.join(", ")).into());
    }
    let db = Arc::new(db);
    let brains = brains(&db, difficulty.unwrap_or(""), &id, &a)?;
    let jobs = match (&a.autosave, a.jobs) {
        // Autosaves go to one folder in the order the window writes them: one game at a time.
        (Some(_), _) => 1,
        (None, Some(0)) => return Err(Failure::Usage("--jobs must be at least 1".into())),
        (None, Some(j)) => j.min(256),
        (None, None) => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let play_one = |k: u32| -> Result<Played, Failure> {
        let game = sim::Game {
            level: &id,
            difficulty,
            seed: a.seed.wrapping_add(k as u64),
            max_cycles: a.cycles,
            brains: Some(brains),
            players: &[],
            carry: None,
        };
        let (mut app, report) = match &a.autosave {
            None => sim::play(db.clone(), &game, &mut |_| Ok(()))?,
            Some(dir) => sim::play(db.clone(), &game, &mut |w| {
                snapshot::autosave(w, dir, a.keep).map(|_| ())
            })?,
        };
        // The first game's log and replay, taken here: the game itself stays on its thread.
        let log = if k == 0 && a.log {
            let chronicle = &app.world().resource::<crate::rules::Chronicle>().0;
            chronicle.iter().map(|e| e.to_string()).collect()
        } else {
            Vec::new()
        };
        let replay = (k == 0 && a.record.is_some()).then(|| snapshot::replay_of(app.world_mut()));
        Ok(Played {
            report,
            log,
            replay,
        })
    };
    let played = play_all(a.games, jobs, &play_one)?;
    let mut reports = Vec::new();
    for (k, p) in played.into_iter().enumerate() {
        for line in &p.log {
            eprintln!("{line}");
        }
        if k == 0
            && let (Some(path), Some(r)) = (&a.record, &p.replay)
        {
            snapshot::write_replay(r, path)?;
        }
        if !a.json {
            print_report(&p.report, out)?;
        }
        reports.push(p.report);
    }
    let stats = sim::batch_stats(&reports);
    if a.json {
        let mut doc = serde_json::json!({
            "level": id,
            "difficulty": difficulty,
            "seed": a.seed,
            "games": reports.len(),
            "eladrin_win_rate": stats.eladrin_win_rate,
            "win_rate_ci95": stats.win_rate_ci95,
            "mean_cycles": stats.mean_cycles,
            "outcomes": stats.outcomes,
            "battles_per_game": stats.battles_per_game,
            "games_with_battles": stats.games_with_battles,
            "chapter_events_per_game": stats.chapter_events_per_game,
            "glory_per_seat": stats.glory_per_seat,
            "units_lost_per_game": {
                "eladrins": stats.units_lost_per_game.0,
                "chaos": stats.units_lost_per_game.1,
            },
            "decision_us": {
                "eladrins": {"median": stats.eladrin_decision_us.0, "p95": stats.eladrin_decision_us.1},
                "chaos": {"median": stats.chaos_decision_us.0, "p95": stats.chaos_decision_us.1},
            },
            "ai": {"chaos": brains.chaos.to_string(), "eladrins": brains.eladrin.to_string()},
            "per_cycle_mean": stats.per_cycle_mean,
            "results": reports,
        });
        // One game: its result at the top level too.
        if let [r] = reports.as_slice() {
            doc["winner"] = serde_json::json!(r.winner);
            doc["reason"] = serde_json::json!(r.reason);
            doc["cycles"] = serde_json::json!(r.cycles);
        }
        writeln!(out, "{doc}")?;
    } else if a.games > 1 {
        writeln!(out, "== {} games ==", reports.len())?;
        writeln!(out, "how the games ended:")?;
        for (why, n) in &stats.outcomes {
            writeln!(out, "  {n:>5}  {why}")?;
        }
        writeln!(out, "per-cycle averages (games still running):")?;
        writeln!(
            out,
            "cycle  games  stock  corrupt  famine  Eladrin  Chaos  cells  power  markers"
        )?;
        for row in &stats.per_cycle_mean {
            writeln!(
                out,
                "{:>5}  {:>5}  {:>5.1}  {:>7.1}  {:>6.1}  {:>7.1}  {:>5.1}  {:>5.1}  {:>5.1}  {:>7.1}",
                row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]
            )?;
        }
        writeln!(
            out,
            "battles: {:.1} per game, in {:.0} % of games; units lost per game: Eladrins {:.1}, \
             Chaos {:.1}",
            stats.battles_per_game,
            stats.games_with_battles * 100.0,
            stats.units_lost_per_game.0,
            stats.units_lost_per_game.1
        )?;
        for (kind, n) in &stats.chapter_events_per_game {
            writeln!(out, "chapter events: {kind} {n:.1} per game")?;
        }
        if !stats.glory_per_seat.is_empty() {
            let each: Vec<String> = stats
                .glory_per_seat
                .iter()
                .enumerate()
                .map(|(s, g)| format!("seat {} {g:.1}", s + 1))
                .collect();
            writeln!(out, "glory per game: {}", each.join(", "))?;
        }
        writeln!(
            out,
            "thinking per decision (median / p95): Eladrins {:.2} / {:.2} ms, Chaos {:.2} / {:.2} ms",
            stats.eladrin_decision_us.0 as f64 / 1000.0,
            stats.eladrin_decision_us.1 as f64 / 1000.0,
            stats.chaos_decision_us.0 as f64 / 1000.0,
            stats.chaos_decision_us.1 as f64 / 1000.0
        )?;
        writeln!(
            out,
            "{} games: Eladrins won {:.1} % (95 % CI {:.1}–{:.1} %), mean {:.1} cycles",
            reports.len(),
            stats.eladrin_win_rate * 100.0,
            stats.win_rate_ci95.0 * 100.0,
            stats.win_rate_ci95.1 * 100.0,
            stats.mean_cycles
        )?;
    }
    Ok(())
}

/// One game played by `sim`: its report, and for the first game its log and replay when asked.
struct Played {
    report: sim::GameReport,
    log: Vec<String>,
    replay: Option<snapshot::Replay>,
}

/// Plays games `0..games` on `jobs` threads, each taking the next game not yet started;
/// the results in game order. The first failure stops the batch.
pub(super) fn play_all<T: Send>(
    games: u32,
    jobs: usize,
    play_one: &(dyn Fn(u32) -> Result<T, Failure> + Sync),
) -> Result<Vec<T>, Failure> {
    use std::sync::atomic::{AtomicU32, Ordering};
    let jobs = jobs.clamp(1, games.max(1) as usize);
    if jobs == 1 {
        return (0..games).map(play_one).collect();
    }
    let next = AtomicU32::new(0);
    let mut done: Vec<(u32, Result<T, Failure>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= games {
                            break;
                        }
                        let r = play_one(k);
                        let failed = r.is_err();
                        mine.push((k, r));
                        if failed {
                            // The others stop at their next game.
                            next.store(games, Ordering::Relaxed);
                            break;
                        }
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(v) => v,
                Err(p) => std::panic::resume_unwind(p),
            })
            .collect()
    });
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The brains `--chaos-ai` / `--eladrin-ai` ask for, a camp without its flag the one its
/// difficulty gives (`ai.ron: search.budgets`), so the report always says who played.
fn brains(
    db: &crate::content::ContentDb,
    difficulty: &str,
    level: &str,
    a: &Args,
) -> Result<crate::ai::search::Brains, Failure> {
    use crate::ai::search::Brain;
    let d = if difficulty.is_empty() {
        db.levels
            .get(level)
            .map(|l| l.difficulty.clone())
            .unwrap_or_default()
    } else {
        difficulty.to_string()
    };
    let pick = |flag: &Option<String>, camp| match flag {
        Some(s) => Brain::parse(s).map_err(Failure::Usage),
        None => Ok(crate::ai::search::budget_brain(db, level, &d, camp)),
    };
    Ok(crate::ai::search::Brains {
        chaos: pick(&a.chaos_ai, crate::content::Camp::Chaos)?,
        eladrin: pick(&a.eladrin_ai, crate::content::Camp::Eladrins)?,
    })
}

/// One game's table: a row per cycle, then the result.
fn print_report(r: &sim::GameReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "== game seed {} ==", r.seed)?;
    writeln!(
        out,
        "cycle | stock                                   | corrupt | famine | units E/C | portal | power/corr | tech"
    )?;
    for c in &r.per_cycle {
        writeln!(
            out,
            "{:>5} | {:<39} | {:>7} | {:>6} | {:>4}/{:<4} | {:>2}/{:<3} | {:>4}/{:<5} | {}",
            c.cycle,
            c.stock.to_string(),
            c.corrupted,
            c.famine,
            c.eladrin_units,
            c.chaos_units,
            c.portal_cells.0,
            c.portal_cells.1,
            c.power,
            c.corruption,
            c.research_done
        )?;
    }
    match r.winner {
        Some(w) => writeln!(
            out,
            "result: {w:?} win after {} cycles — {}",
            r.cycles, r.reason
        )?,
        None => writeln!(out, "result: undecided — {}", r.reason)?,
    }
    if !r.unmet.is_empty() {
        writeln!(out, "the level's conditions unmet: {}", r.unmet.join("; "))?;
    }
    writeln!(out, "actions: {}, final state hash: {}", r.actions, r.hash)
}
