//! `soak`: plays seeded AI-vs-AI games, writes each as a replay file, reads it back, plays it
//! again and compares the hash of every cycle. The first drift is the error.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use super::{Failure, Outcome, content_with};
use crate::rules::snapshot;

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
pub fn run(mods: &[PathBuf], a: Args, out: &mut dyn Write) -> Outcome {
    if a.games == 0 || a.games > 1_000_000 {
        return Err(Failure::Failed("--games must be from 1 to 1000000".into()));
    }
    let db = Arc::new(content_with(mods)?);
    if let Some(l) = a.levels.iter().find(|l| !db.levels.contains_key(*l)) {
        return Err(format!("unknown level `{l}`").into());
    }
    let dir = std::env::temp_dir().join(format!("chaos-outpost-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let start = std::time::Instant::now();
    let (mut actions, mut cycles_checked) = (0usize, 0usize);
    for g in 0..a.games {
        let level = &a.levels[g as usize % a.levels.len()];
        let s = a.seed.wrapping_add(g as u64);
        let (mut app, _) = crate::sim::play_game(db.clone(), level, None, s, a.cycles)?;
        let r = snapshot::replay_of(app.world_mut());
        let path = dir.join("soak.replay.ron");
        snapshot::write_replay(&r, &path)?;
        let back = snapshot::read_replay(&path)?;
        let mut fresh = crate::rules::setup::headless_app(db.clone());
        snapshot::play_replay(fresh.world_mut(), &back)
            .map_err(|e| format!("{level} seed {s}: {e}"))?;
        actions += r.actions.len();
        cycles_checked += r.cycle_hashes.len();
        if (g + 1) % 100 == 0 {
            eprintln!("{}/{} replays checked", g + 1, a.games);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    writeln!(
        out,
        "soak: {} replays ({actions} actions, {cycles_checked} cycle hashes) written, read \
         back and replayed in {:.1} s: no drift",
        a.games,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
