//! `fuzz`: seeded games of random legal and illegal actions on every level, the invariants
//! checked after each action (`sim::fuzz`). The first finding, with its level, seed and move,
//! is the error. With `--files`, hostile files instead (`sim::hostile`): saves, replays,
//! campaign saves and levels changed value by value and fed to the game's own way in, for
//! `--seconds` each; the first finding leaves its file in `--out`.

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
    /// Fuzz hostile files of these kinds instead of games: save, replay, campaign, level.
    #[arg(long, value_delimiter = ',')]
    files: Vec<String>,
    /// With `--files`: how long to fuzz each kind, in seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// With `--files`: where the case running is written (a finding's file stays there).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

/// `fuzz`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let mods = p.mods.as_slice();
    if a.moves == 0 || a.moves > 1_000_000 {
        return Err(Failure::Usage("--moves must be from 1 to 1000000".into()));
    }
    let db = Arc::new(p.content_with(mods)?);
    if !a.files.is_empty() {
        return files(db, &a, out);
    }
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

/// `fuzz --files`: each kind for `--seconds`, the watchdog ending the process on a case that
/// hangs (30 s) or holds more than 1 GB.
fn files(db: Arc<crate::content::ContentDb>, a: &Args, out: &mut dyn Write) -> Outcome {
    use crate::sim::hostile::{self, FileKind};
    let mut kinds = Vec::new();
    for f in &a.files {
        let k = FileKind::parse(f).ok_or_else(|| {
            Failure::Usage(format!(
                "--files: no kind `{f}` (save, replay, campaign, level)"
            ))
        })?;
        kinds.push(k);
    }
    if a.seconds == 0 || a.seconds > 86_400 {
        return Err(Failure::Usage("--seconds must be from 1 to 86400".into()));
    }
    let dir = match &a.out {
        Some(d) => d.clone(),
        None => std::env::temp_dir().join(format!("chaos-outpost-fuzz-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let levels: Vec<String> = if a.levels.is_empty() {
        db.levels
            .keys()
            .filter(|l| *l != "stress")
            .cloned()
            .collect()
    } else {
        a.levels.clone()
    };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut result = Ok(());
    hostile::watchdog(dir.clone(), 30, 1 << 30);
    for kind in kinds {
        let seeds = hostile::seeds(&db, kind, &levels)?;
        let start = std::time::Instant::now();
        let mut peak = 0u64;
        let run = hostile::run(&db, kind, &seeds, a.seed, &dir, |s| {
            peak = peak.max(hostile::resident_bytes());
            if s.cases % 200 == 0 && s.cases > 0 {
                eprintln!("{kind:?}: {} cases, {} accepted", s.cases, s.accepted);
            }
            start.elapsed().as_secs() < a.seconds
        });
        match run {
            Ok(s) => writeln!(
                out,
                "fuzz --files {}: {} cases from {} files in {:.0} s ({} refused, {} accepted and \
                 played on for {} actions), peak memory {} MB: no finding",
                format!("{kind:?}").to_lowercase(),
                s.cases,
                seeds.len(),
                start.elapsed().as_secs_f64(),
                s.refused,
                s.accepted,
                s.actions,
                peak >> 20
            )?,
            Err(f) => {
                result = Err(Failure::Failed(format!(
                    "{} (the file: {})",
                    f.what,
                    f.file.display()
                )));
                break;
            }
        }
    }
    std::panic::set_hook(hook);
    result
}
