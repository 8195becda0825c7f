//! `soak`: plays seeded AI-vs-AI games, writes each as a replay file, reads it back, plays it
//! again and compares the hash of every cycle. The first drift is the error.

use std::io::Write;
use std::sync::Arc;

use super::{Failure, Outcome, Program};

/// `soak`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the first game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Levels to cycle through.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "first_light,standard,hard"
    )]
    levels: Vec<String>,
    /// Cycles per game at most.
    #[arg(long, default_value_t = 60)]
    cycles: u32,
}

/// `soak`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let mods = p.mods.as_slice();
    if a.games == 0 || a.games > 1_000_000 {
        return Err(Failure::Usage("--games must be from 1 to 1000000".into()));
    }
    let db = Arc::new(p.content_with(mods)?);
    if let Some(l) = a.levels.iter().find(|l| !db.levels.contains_key(*l)) {
        return Err(format!("unknown level `{l}`").into());
    }
    let start = std::time::Instant::now();
    let (actions, cycles_checked) =
        crate::sim::soak::run(db, &a.levels, a.seed, a.games, a.cycles, &mut |done| {
            if done % 100 == 0 {
                eprintln!("{done}/{} replays checked", a.games);
            }
        })?;
    writeln!(
        out,
        "soak: {} replays ({actions} actions, {cycles_checked} cycle hashes) written, read \
         back and replayed in {:.1} s: no drift",
        a.games,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
