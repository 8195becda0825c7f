//! `fuzz`: seeded games of random legal and illegal actions on every level, the invariants
//! checked after each action (`sim::fuzz`). The first finding, with its level, seed and move,
//! is the error.

use std::io::Write;
use std::sync::Arc;

use super::{Failure, Outcome, Program};

/// `fuzz`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Actions to try in all (spread over games of `--moves` actions).
    #[arg(long, default_value_t = 100_000)]
    actions: u64,
    /// Actions per game.
    #[arg(long, default_value_t = 400)]
    moves: usize,
    /// Seed of the first game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Levels (all shipped levels by default).
    #[arg(long, value_delimiter = ',')]
    levels: Vec<String>,
}

/// `fuzz`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let mods = p.mods.as_slice();
    if a.moves == 0 || a.moves > 1_000_000 {
        return Err(Failure::Failed("--moves must be from 1 to 1000000".into()));
    }
    let db = Arc::new(p.content_with(mods)?);
    let levels: Vec<String> = if a.levels.is_empty() {
        db.levels.keys().cloned().collect()
    } else {
        if let Some(l) = a.levels.iter().find(|l| !db.levels.contains_key(*l)) {
            return Err(format!("unknown level `{l}`").into());
        }
        a.levels.clone()
    };
    let games = a.actions.div_ceil(a.moves as u64).max(1);
    let start = std::time::Instant::now();
    // Keep panics quiet: a panic is reported as a finding with its seed. The hook is put
    // back after (a program that runs this command among others keeps its own).
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let total = crate::sim::fuzz::campaign(db, &levels, a.seed, games, a.moves, |g, t| {
        if g % 50 == 0 {
            eprintln!(
                "{g}/{games} games, {} actions, {} refused",
                t.actions, t.refused
            );
        }
    });
    std::panic::set_hook(hook);
    let total = total?;
    writeln!(
        out,
        "fuzz: {} games on {}, {} actions ({} refused, {} games finished) in {:.1} s: no finding",
        games,
        levels.join(","),
        total.actions,
        total.refused,
        total.finished,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
