//! `bench`: times the AI's turns and whole games per level (medians and 95th percentiles;
//! build with `--release` for real figures).

use std::io::Write;
use std::sync::Arc;

use super::{Failure, Outcome, Program, problems_text};

/// `bench`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Levels to measure.
    #[arg(long, value_delimiter = ',', default_value = "standard,stress")]
    levels: Vec<String>,
    /// Games per level.
    #[arg(long, default_value_t = 5)]
    games: u32,
    /// Cycles per game at most.
    #[arg(long, default_value_t = 40)]
    cycles: u32,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Also time a searching Chaos with this node budget per decision (0: don't).
    #[arg(long, default_value_t = 400)]
    search: u32,
}

/// `bench`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let mods = p.mods.as_slice();
    if a.games == 0 || a.games > 10_000 || a.cycles == 0 || a.cycles > 10_000 {
        return Err(Failure::Usage(
            "--games and --cycles must be from 1 to 10000".into(),
        ));
    }
    let mut db = p.content_with(mods)?;
    let mut ids = Vec::new();
    for l in &a.levels {
        ids.push(db.resolve_level(l).map_err(|ps| problems_text(&ps))?);
    }
    let db = Arc::new(db);
    let mut reports = Vec::new();
    for id in &ids {
        let r = crate::sim::bench::run(db.clone(), id, a.games, a.cycles)?;
        if !a.json {
            writeln!(
                out,
                "{:<12} {} games, {} cycles: Chaos turn median {:.2} ms (p95 {:.2}), Eladrin turn median {:.2} ms (p95 {:.2}), game median {:.1} ms",
                r.level,
                r.games,
                r.cycles,
                r.chaos_turn_median_us as f64 / 1000.0,
                r.chaos_turn_p95_us as f64 / 1000.0,
                r.eladrin_turn_median_us as f64 / 1000.0,
                r.eladrin_turn_p95_us as f64 / 1000.0,
                r.game_median_us as f64 / 1000.0
            )?;
        }
        reports.push(r);
    }
    let mut searches = Vec::new();
    for id in ids.iter().filter(|_| a.search > 0) {
        let s = crate::sim::bench::search(db.clone(), id, a.games, a.search, a.cycles)?;
        if !a.json {
            writeln!(
                out,
                "{:<12} search ({} nodes): state copy median {:.2} ms, Chaos decision median {:.2} ms (p95 {:.2}), {} simulated actions/s, {} playouts/s",
                s.level,
                s.nodes,
                s.copy_median_us as f64 / 1000.0,
                s.decision_median_us as f64 / 1000.0,
                s.decision_p95_us as f64 / 1000.0,
                s.nodes_per_s,
                s.playouts_per_s
            )?;
        }
        searches.push(s);
    }
    if a.json {
        let build = match env!("CHAOS_OUTPOST_PROFILE") {
            "release" => "release",
            _ => "debug",
        };
        writeln!(
            out,
            "{}",
            serde_json::json!({ "bench": reports, "search": searches, "build": build })
        )?;
    }
    Ok(())
}
