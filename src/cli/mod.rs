//! The `chaos-outpost` command: one file per subcommand, each with its clap arguments and a
//! `run` that writes to a given output and returns a `Result`. The one error convention: an
//! error prints as `error: MESSAGE` on stderr with a non-zero exit status (2 for a bad flag or
//! value, 1 for everything else), never a panic; a closed pipe (`| head`) ends quietly.

mod bench;
mod campaign;
pub mod check;
mod cvd;
mod framebench;
mod fuzz;
mod mods;
mod play;
pub mod replay;
mod scenario;
mod schema;
mod sim;
mod soak;
mod translations;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::content::{ChapterSet, ContentDb, Problem, mods as content_mods};

#[derive(Parser)]
#[command(
    name = "chaos-outpost",
    version,
    about = "Chaos Outpost: hold the outpost, power the portal before Chaos takes it."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Load the mod in this folder on top of the base game (repeatable; see docs/modding.md).
    #[arg(long = "mod", global = true, value_name = "PATH")]
    mods: Vec<PathBuf>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Open the game window (the default).
    Play(play::Args),
    /// Draw N plain sprites in the map's layout and log frame times (the engine's floor).
    BareSprites(framebench::BareArgs),
    /// Frame cost: the game on a level, then a bare scene with as many plain sprites as the
    /// level has tiles, in one run; prints median and p95 frame times and their ratio.
    Framebench(framebench::Args),
    /// Play headless AI-vs-AI games and print per-cycle summaries and win rates.
    Sim(sim::Args),
    /// Fuzz the rules: seeded games of random legal and illegal actions on every level, with the
    /// invariants checked after each action. Prints the first finding and exits 1.
    Fuzz(fuzz::Args),
    /// Replay soak: play seeded AI-vs-AI games, write each as a replay file, read it back, play
    /// it again and compare the hash of every cycle. Prints the first drift and exits 1.
    Soak(soak::Args),
    /// Validate the base content and each PATH: a mod folder (with a mod.ron), a RON file, a
    /// level or a content folder. Exits 1 on any error (or any warning with --strict).
    Check(check::Args),
    /// List the mods found (beside the game, in the user's data folder, and --mod) and what
    /// loading them finds.
    Mods(mods::Args),
    /// Run scenario tests: RON files, or folders of them (a mod folder runs its scenarios/ with
    /// the mod loaded). Exits 1 if any fails.
    TestScenario(scenario::Args),
    /// Print the reference of every content type (the source of docs/schema.md).
    Schema,
    /// Write how a screenshot looks with deuteranopia (Machado 2009 simulation), to check the
    /// colour-blind-safe palette by eye.
    Cvd(cvd::Args),
    /// For translators: list every content name and text (of the base game and the --mod
    /// mods) that a language's tables (the base one and the mods' `i18n/LANG.ron`) lack.
    /// Exits 1 if any is missing.
    Translations(translations::Args),
    /// Time the AI's turns and whole games (medians; build with --release for real figures).
    Bench(bench::Args),
    /// Replay a replay file and print the final state's hash.
    Replay(replay::Args),
    /// Campaigns (K1-K4): list them, or play one headless, the AIs playing every chapter in
    /// turn with the carry-over applied.
    #[command(subcommand)]
    Campaign(campaign::Cmd),
}

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// A bad flag or value: exit status 2.
    Usage(String),
    /// Anything else: exit status 1.
    Failed(String),
    /// Standard output was closed (`| head`): stop quietly, exit status 0.
    ClosedPipe,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Failed(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Failed(message.to_string())
    }
}

impl From<std::io::Error> for Failure {
    fn from(_: std::io::Error) -> Self {
        // The only writer a command has is its output: a write error is a closed pipe.
        Failure::ClosedPipe
    }
}

/// What a command returns.
pub type Outcome = Result<(), Failure>;

/// Parses the command line, runs the command and gives the exit status.
pub fn main() -> ExitCode {
    main_from(std::env::args_os())
}

/// Runs the command line `args` (the program's name first), as `main` does, with the chapters
/// the game ships.
pub fn main_from(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    main_with(args, &mut std::io::stdout().lock())
}

/// `main_from` with the command's report written to `out` (a test reads it).
pub fn main_with(
    args: impl IntoIterator<Item = std::ffi::OsString>,
    out: &mut dyn Write,
) -> ExitCode {
    main_for(crate::chapters::shipped(), args, out)
}

/// Runs the command line `args` with the chapters of `chapters`, in every content it loads and
/// every app it builds (window, AI, sim): a test program with a chapter of its own
/// (`tests/rules/trial.rs`) runs the real commands, the window included, with it.
pub fn main_for(
    chapters: ChapterSet,
    args: impl IntoIterator<Item = std::ffi::OsString>,
    out: &mut dyn Write,
) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version to stdout with success, errors to stderr with code 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let program = Program {
        mods: cli.mods.clone(),
        chapters,
    };
    match run(cli, &program, out) {
        Ok(()) | Err(Failure::ClosedPipe) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Failed(m)) => {
            eprintln!("error: {m}");
            ExitCode::FAILURE
        }
    }
}

/// What every command runs with: the mods given on the command line and the chapters the
/// program plays.
pub struct Program {
    /// The mod folders given with `--mod`.
    pub mods: Vec<PathBuf>,
    /// The chapters content is loaded with and apps are built with.
    pub chapters: ChapterSet,
}

impl Program {
    /// The base game with the mods in `dirs` applied. A broken mod is left out, with its
    /// problems on stderr; only a broken base game is an error.
    pub fn content_with(&self, dirs: &[PathBuf]) -> Result<ContentDb, String> {
        content_with(dirs, &self.chapters)
    }
    /// The base game with the command line's mods applied.
    pub fn content(&self) -> Result<ContentDb, String> {
        self.content_with(&self.mods)
    }
}

/// Runs one command line's command, its report written to `out`.
fn run(cli: Cli, p: &Program, out: &mut dyn Write) -> Outcome {
    match cli.command {
        None => play::run_menu(p),
        Some(Cmd::Play(a)) => play::run(p, a),
        Some(Cmd::BareSprites(a)) => framebench::run_bare(a),
        Some(Cmd::Framebench(a)) => framebench::run(p, a, out),
        Some(Cmd::Sim(a)) => sim::run(p, a, out),
        Some(Cmd::Fuzz(a)) => fuzz::run(p, a, out),
        Some(Cmd::Soak(a)) => soak::run(p, a, out),
        Some(Cmd::Check(a)) => check::run(p, a, out),
        Some(Cmd::Mods(a)) => mods::run(p, a, out),
        Some(Cmd::TestScenario(a)) => scenario::run(p, a, out),
        Some(Cmd::Schema) => schema::run(p, out),
        Some(Cmd::Cvd(a)) => cvd::run(a),
        Some(Cmd::Translations(a)) => translations::run(p, a, out),
        Some(Cmd::Bench(a)) => bench::run(p, a, out),
        Some(Cmd::Replay(a)) => replay::run(p, a, out),
        Some(Cmd::Campaign(c)) => campaign::run(p, c, out),
    }
}

/// The base game with the mods in `dirs` applied, for `chapters`. A broken mod is left out,
/// with its problems on stderr; only a broken base game is an error.
pub fn content_with(dirs: &[PathBuf], chapters: &ChapterSet) -> Result<ContentDb, String> {
    let (sources, unreadable) = content_mods::read_all(dirs);
    let (db, report) = content_mods::load(crate::content::embedded_files(), &sources, chapters)
        .map_err(|ps| format!("the embedded content is broken:\n{}", problems_text(&ps)))?;
    for m in unreadable.iter().chain(report.mods.iter()) {
        if !m.loaded {
            eprintln!("mod `{}` ({}) is disabled:", m.id, m.dir);
        }
        for p in &m.problems {
            eprintln!("  {p}");
        }
    }
    Ok(db)
}

/// Problems, one a line.
pub fn problems_text(ps: &[Problem]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
