//! The `chaos-outpost` command: play (the default), `sim`, `check`, `replay`.
//!
//! Every error is a clear message on stderr and a non-zero exit status, never a panic.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use chaos_outpost::content::{ContentDb, Problem, Severity, SourceFile, mods};
use chaos_outpost::rules::snapshot;
use chaos_outpost::sim;
use chaos_outpost::view::Launch;

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
    Play {
        /// Level id or path to a level file.
        #[arg(long, default_value = "first_light")]
        level: String,
        /// Game seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Save a screenshot to this PNG after `--frames` frames, then quit (for checks).
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Frames to wait before the screenshot.
        #[arg(long, default_value_t = 60)]
        frames: u32,
        /// Hot-seat: the Eladrin players' names, in turn order, comma-separated.
        #[arg(long, value_delimiter = ',')]
        players: Vec<String>,
        /// Play this input script (RON, see src/view/script.rs), then quit (for checks).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Folder the script's screenshots and saves go to.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Log frame times into this file (RON) for `--frames` frames after a warm-up, then quit.
        #[arg(long)]
        frame_log: Option<PathBuf>,
        /// Draw frames back to back, not paced to the display nor slowed when the window lacks
        /// focus (for frame measurements: a frame then takes what it costs).
        #[arg(long)]
        unpaced: bool,
        /// Pan the map at the keyboard's speed (frame measurements of a moving map).
        #[arg(long)]
        pan: bool,
        /// Draw the map every frame (frame measurements of a map that keeps changing).
        #[arg(long)]
        redraw: bool,
    },
    /// Draw N plain sprites in the map's layout and log frame times (the engine's floor).
    BareSprites {
        /// Sprites.
        #[arg(long, default_value_t = 10_267)]
        count: usize,
        /// Frames measured after a warm-up.
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// Where the figures go (RON).
        #[arg(long)]
        out: PathBuf,
        /// Draw the game's tile textures instead of plain colours.
        #[arg(long)]
        textured: bool,
        /// Draw frames back to back, not paced to the display nor slowed when unfocused.
        #[arg(long)]
        unpaced: bool,
        /// Save a screenshot to this PNG once warmed up (a look at what is measured).
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Pan the camera at the game's keyboard speed.
        #[arg(long)]
        pan: bool,
    },
    /// Frame cost: the game on a level, then a bare scene with as many plain sprites as the
    /// level has tiles, in one run; prints median and p95 frame times and their ratio.
    Framebench {
        /// Level.
        #[arg(long, default_value = "stress")]
        level: String,
        /// Frames measured in each after a warm-up.
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// Pace frames as a player's window is paced (vsync; 60 Hz when the window lacks focus,
        /// as under Xvfb). By default frames are drawn back to back, so each takes what it
        /// costs.
        #[arg(long)]
        paced: bool,
        /// Pan the map (and the bare scene's camera) at the keyboard's speed: the cost of a
        /// moving map rather than a still one.
        #[arg(long)]
        pan: bool,
        /// Draw the game's map every frame, as while tokens move: the cost of a map that keeps
        /// changing.
        #[arg(long)]
        redraw: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play headless AI-vs-AI games and print per-cycle summaries and win rates.
    Sim {
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
    },
    /// Fuzz the rules: seeded games of random legal and illegal actions on every level, with the
    /// invariants checked after each action. Prints the first finding and exits 1.
    Fuzz {
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
    },
    /// Replay soak: play seeded AI-vs-AI games, write each as a replay file, read it back, play
    /// it again and compare the hash of every cycle. Prints the first drift and exits 1.
    Soak {
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
    },
    /// Validate the base content and each PATH: a mod folder (with a mod.ron), a RON file, a
    /// level or a content folder. Exits 1 on any error (or any warning with --strict).
    Check {
        /// Mod folders, files or folders to check on top of the base content.
        paths: Vec<PathBuf>,
        /// Print one JSON document.
        #[arg(long)]
        json: bool,
        /// Treat warnings as errors.
        #[arg(long)]
        strict: bool,
    },
    /// List the mods found (beside the game, in the user's data folder, and --mod) and what
    /// loading them finds.
    Mods {
        /// Print one JSON document.
        #[arg(long)]
        json: bool,
    },
    /// Run scenario tests: RON files, or folders of them (a mod folder runs its scenarios/ with
    /// the mod loaded). Exits 1 if any fails.
    TestScenario {
        /// Scenario files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the reference of every content type (the source of docs/schema.md).
    Schema,
    /// Write how a screenshot looks with deuteranopia (Machado 2009 simulation), to check the
    /// colour-blind-safe palette by eye.
    Cvd {
        /// A PNG screenshot (F12 in the game).
        input: PathBuf,
        /// Where the simulated PNG goes.
        output: PathBuf,
    },
    /// For translators: list every content name and text (of the base game and the --mod
    /// mods) that a language's tables (the base one and the mods' `i18n/LANG.ron`) lack.
    /// Exits 1 if any is missing.
    Translations {
        /// Language code.
        #[arg(long, default_value = "fr")]
        lang: String,
        /// Print a JSON list.
        #[arg(long)]
        json: bool,
    },
    /// Time the AI's turns and whole games (medians; build with --release for real figures).
    Bench {
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
    },
    /// Replay a replay file and print the final state's hash.
    Replay {
        /// The replay file.
        file: PathBuf,
    },
}

/// Prints a line to stdout; a closed pipe (`| head`) ends the program quietly instead of
/// panicking.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut o = std::io::stdout().lock();
        if writeln!(o, $($t)*).is_err() {
            std::process::exit(0);
        }
    }};
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
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
    let mods = cli.mods;
    let result = match cli.command {
        None => play(
            &mods,
            Launch {
                level: "first_light".into(),
                seed: 1,
                frames: 60,
                open_menu: true,
                ..Launch::default()
            },
        ),
        Some(Cmd::Play {
            level,
            seed,
            screenshot,
            frames,
            players,
            script,
            out,
            frame_log,
            unpaced,
            pan,
            redraw,
        }) => {
            let script = match script
                .map(|p| chaos_outpost::view::script::read(&p))
                .transpose()
            {
                Ok(s) => s.map(|s| (s, out)),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            play(
                &mods,
                Launch {
                    level,
                    seed,
                    screenshot,
                    frames,
                    players,
                    script,
                    frame_log: frame_log.map(|p| (p, frames)),
                    unpaced,
                    pan,
                    redraw,
                    ..Launch::default()
                },
            )
        }
        Some(Cmd::Sim {
            level,
            seed,
            cycles,
            games,
            difficulty,
            json,
            record,
            log,
            autosave,
            keep,
        }) => run_sim(
            &mods,
            &level,
            seed,
            cycles,
            games,
            difficulty.as_deref(),
            json,
            record,
            log,
            autosave.map(|d| (d, keep)),
        ),
        Some(Cmd::Fuzz {
            actions,
            moves,
            seed,
            levels,
        }) => run_fuzz(&mods, actions, moves, seed, &levels),
        Some(Cmd::Soak {
            games,
            seed,
            levels,
            cycles,
        }) => run_soak(&mods, games, seed, &levels, cycles),
        Some(Cmd::Check {
            paths,
            json,
            strict,
        }) => return check(&paths, &mods, json, strict),
        Some(Cmd::Mods { json }) => return list_mods(&mods, json),
        Some(Cmd::TestScenario { paths }) => return test_scenarios(&paths, &mods),
        Some(Cmd::BareSprites {
            count,
            frames,
            out,
            textured,
            unpaced,
            screenshot,
            pan,
        }) => chaos_outpost::view::frames::run_bare(
            count.min(200_000),
            frames.max(1),
            out,
            textured,
            unpaced,
            screenshot,
            pan,
        ),
        Some(Cmd::Framebench {
            level,
            frames,
            paced,
            pan,
            redraw,
            json,
        }) => framebench(&mods, &level, frames, paced, pan, redraw, json),
        Some(Cmd::Translations { lang, json }) => return missing_translations(&mods, &lang, json),
        Some(Cmd::Cvd { input, output }) => chaos_outpost::colour::simulate_png(&input, &output),
        Some(Cmd::Schema) => {
            print!("{}", chaos_outpost::content::schema_doc::markdown());
            Ok(())
        }
        Some(Cmd::Replay { file }) => run_replay(&mods, &file),
        Some(Cmd::Bench {
            levels,
            games,
            cycles,
            json,
        }) => run_bench(&mods, &levels, games, cycles, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The base game with the mods in `dirs` applied. A broken mod is left out, with its problems
/// on stderr; only a broken base game is an error.
fn content_with(dirs: &[PathBuf]) -> Result<ContentDb, String> {
    let (sources, unreadable) = mods::read_all(dirs);
    let (db, report) = mods::load(chaos_outpost::content::embedded_files(), &sources)
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

/// `translations`: what the tables of `lang` lack.
fn missing_translations(dirs: &[PathBuf], lang: &str, json: bool) -> ExitCode {
    use chaos_outpost::i18n::{LANGUAGES, Translations, content_texts, language_of, parse_table};
    if !LANGUAGES.iter().any(|(code, _)| *code == lang) {
        let known: Vec<&str> = LANGUAGES.iter().map(|(c, _)| *c).collect();
        eprintln!(
            "error: unknown language `{lang}` (known: {})",
            known.join(", ")
        );
        return ExitCode::from(2);
    }
    let db = match content_with(dirs) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut tr = Translations::base(lang);
    let (sources, _) = mods::read_all(dirs);
    for m in &sources {
        for f in &m.translations {
            if language_of(f) == lang {
                match parse_table(f) {
                    Ok(t) => tr.extend(t),
                    Err(p) => eprintln!("{p}"),
                }
            }
        }
    }
    let missing: Vec<String> = content_texts(&db)
        .into_iter()
        .filter(|s| lang != "en" && !tr.map.contains_key(s))
        .collect();
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&missing).unwrap_or_default()
        );
    } else {
        for m in &missing {
            out!("{}", m.replace('\n', "\\n"));
        }
        eprintln!("{} string(s) without a `{lang}` entry", missing.len());
    }
    if missing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn problems_text(ps: &[Problem]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Opens the window: `launch.level` is resolved (an id or a level file), the mods enabled in
/// the settings and those given with `--mod` are loaded.
fn play(mods: &[PathBuf], mut launch: Launch) -> Result<(), String> {
    let settings = chaos_outpost::settings::load(&chaos_outpost::settings::settings_path()).0;
    let found: Vec<mods::ModSource> = mods::discover(&mods::mod_dirs())
        .into_iter()
        .flatten()
        .collect();
    let mut dirs: Vec<PathBuf> = mods::choose(&found, &settings.mods, &[])
        .into_iter()
        .map(|m| m.dir)
        .collect();
    dirs.extend(mods.iter().cloned());
    let mut db = content_with(&dirs)?;
    launch.level = db
        .resolve_level(&launch.level)
        .map_err(|ps| problems_text(&ps))?;
    launch.cli_mods = mods.to_vec();
    chaos_outpost::view::run(Arc::new(db), launch)
}

#[allow(clippy::too_many_arguments)]
fn run_sim(
    mods: &[PathBuf],
    level: &str,
    seed: u64,
    cycles: u32,
    games: u32,
    difficulty: Option<&str>,
    json: bool,
    record: Option<PathBuf>,
    log: bool,
    autosave: Option<(PathBuf, usize)>,
) -> Result<(), String> {
    if games == 0 || games > 100_000 {
        return Err("--games must be from 1 to 100000".into());
    }
    if cycles == 0 || cycles > 10_000 {
        return Err("--cycles must be from 1 to 10000".into());
    }
    let mut db = content_with(mods)?;
    let id = db.resolve_level(level).map_err(|ps| problems_text(&ps))?;
    if let Some(d) = difficulty
        && db.difficulty(d).is_none()
    {
        let known: Vec<&str> = db.set.difficulties.iter().map(|d| d.id.as_str()).collect();
        return Err(format!("no difficulty `{d}`; known: {}", known.join(", ")));
    }
    let db = Arc::new(db);
    let mut reports = Vec::new();
    for k in 0..games {
        let s = seed.wrapping_add(k as u64);
        let (mut app, report) = match &autosave {
            None => sim::play_game(db.clone(), &id, difficulty, s, cycles)?,
            Some((dir, keep)) => {
                sim::play_game_with(db.clone(), &id, difficulty, s, cycles, &mut |w| {
                    snapshot::autosave(w, dir, *keep).map(|_| ())
                })?
            }
        };
        if k == 0 && log {
            for e in &app.world().resource::<chaos_outpost::rules::Chronicle>().0 {
                eprintln!("{e}");
            }
        }
        if k == 0
            && let Some(path) = &record
        {
            let r = snapshot::replay_of(app.world_mut());
            snapshot::write_replay(&r, path)?;
        }
        if !json {
            print_report(&report);
        }
        reports.push(report);
    }
    let stats = sim::batch_stats(&reports);
    if json {
        let mut doc = serde_json::json!({
            "level": id,
            "difficulty": difficulty,
            "seed": seed,
            "games": reports.len(),
            "eladrin_win_rate": stats.eladrin_win_rate,
            "win_rate_ci95": stats.win_rate_ci95,
            "mean_cycles": stats.mean_cycles,
            "outcomes": stats.outcomes,
            "per_cycle_mean": stats.per_cycle_mean,
            "results": reports,
        });
        // One game: its result at the top level too.
        if let [r] = reports.as_slice() {
            doc["winner"] = serde_json::json!(r.winner);
            doc["reason"] = serde_json::json!(r.reason);
            doc["cycles"] = serde_json::json!(r.cycles);
        }
        out!("{doc}");
    } else if games > 1 {
        out!("== {} games ==", reports.len());
        out!("how the games ended:");
        for (why, n) in &stats.outcomes {
            out!("  {n:>5}  {why}");
        }
        out!("per-cycle averages (games still running):");
        out!("cycle  games  stock  corrupt  famine  Eladrin  Chaos  cells  power  markers");
        for row in &stats.per_cycle_mean {
            out!(
                "{:>5}  {:>5}  {:>5.1}  {:>7.1}  {:>6.1}  {:>7.1}  {:>5.1}  {:>5.1}  {:>5.1}  {:>7.1}",
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                row[5],
                row[6],
                row[7],
                row[8],
                row[9]
            );
        }
        out!(
            "{} games: Eladrins won {:.1} % (95 % CI {:.1}–{:.1} %), mean {:.1} cycles",
            reports.len(),
            stats.eladrin_win_rate * 100.0,
            stats.win_rate_ci95.0 * 100.0,
            stats.win_rate_ci95.1 * 100.0,
            stats.mean_cycles
        );
    }
    Ok(())
}

fn print_report(r: &sim::GameReport) {
    out!("== game seed {} ==", r.seed);
    out!(
        "cycle | stock                                   | corrupt | famine | units E/C | portal | power/corr | tech"
    );
    for c in &r.per_cycle {
        out!(
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
        );
    }
    match r.winner {
        Some(w) => out!("result: {w:?} win after {} cycles — {}", r.cycles, r.reason),
        None => out!("result: undecided — {}", r.reason),
    }
    out!("actions: {}, final state hash: {}", r.actions, r.hash);
}

/// Files of a PATH argument: a file, or the `.ron` files of a folder (and its `levels/`, and
/// `assets/content/`).
fn files_of(path: &Path) -> Result<Vec<SourceFile>, Problem> {
    let mut paths = Vec::new();
    if path.is_dir() {
        for sub in [
            path.to_path_buf(),
            path.join("levels"),
            path.join("assets/content"),
            path.join("content"),
        ] {
            if sub.is_dir() {
                paths.extend(chaos_outpost::content::ron_files_in(&sub)?);
            }
        }
    } else {
        paths.push(path.to_path_buf());
    }
    let mut out = Vec::new();
    for p in paths {
        if path.is_dir() {
            chaos_outpost::content::inside(path, &p)?;
        }
        let text = chaos_outpost::content::read_bounded(&p)?;
        out.push(SourceFile {
            path: p.display().to_string(),
            text,
        });
    }
    Ok(out)
}

fn check(paths: &[PathBuf], extra_mods: &[PathBuf], json: bool, strict: bool) -> ExitCode {
    let base: Vec<SourceFile> = chaos_outpost::content::embedded_files();
    let mut problems: Vec<Problem> = Vec::new();
    let mut checked = vec!["base content".to_string()];
    let mut mod_states = Vec::new();
    // The base content alone.
    match ContentDb::from_files(base.clone()) {
        Ok(db) => problems.extend(db.warnings),
        Err(ps) => problems.extend(ps),
    }
    // Mod folders are loaded together (with the installed mods they depend on), as the game
    // would load them.
    let (mod_paths, paths): (Vec<PathBuf>, Vec<PathBuf>) = paths
        .iter()
        .cloned()
        .partition(|p| p.join("mod.ron").is_file());
    if !mod_paths.is_empty() || !extra_mods.is_empty() {
        let dirs: Vec<PathBuf> = extra_mods.iter().chain(mod_paths.iter()).cloned().collect();
        let (mut sources, unreadable) = mods::read_all(&dirs);
        mods::add_installed_dependencies(&mut sources);
        match mods::load(base.clone(), &sources) {
            Ok((_, report)) => {
                for m in unreadable.iter().chain(report.mods.iter()) {
                    checked.push(format!("mod {} ({})", m.id, m.dir));
                    problems.extend(m.problems.iter().cloned());
                    mod_states.push(serde_json::json!({
                        "id": m.id, "version": m.version, "dir": m.dir, "loaded": m.loaded,
                    }));
                }
            }
            Err(ps) => problems.extend(ps),
        }
    }
    for path in paths {
        checked.push(path.display().to_string());
        let extra = match files_of(&path) {
            Ok(f) => f,
            Err(p) => {
                problems.push(p);
                continue;
            }
        };
        // Overlay: a content file replaces the base file of the same name, a level is added.
        let mut files = base.clone();
        for f in extra {
            let name = Path::new(&f.path)
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let replaces = |b: &SourceFile| {
                Path::new(&b.path)
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy() == name)
            };
            files.retain(|b| !replaces(b));
            files.push(f);
        }
        match ContentDb::from_files(files) {
            Ok(db) => problems.extend(db.warnings),
            Err(ps) => problems.extend(ps),
        }
    }
    problems.sort_by(|a, b| (a.severity, &a.file, a.line).cmp(&(b.severity, &b.file, b.line)));
    problems.dedup();
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    let warnings = problems.len() - errors;
    if json {
        let doc = serde_json::json!({
            "checked": checked,
            "errors": errors,
            "warnings": warnings,
            "mods": mod_states,
            "problems": problems,
        });
        out!("{doc}");
    } else {
        for p in &problems {
            out!("{p}");
        }
        out!(
            "checked {}: {errors} error(s), {warnings} warning(s)",
            checked.join(", ")
        );
    }
    if errors > 0 || (strict && warnings > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `mods`: every mod found, as loading them all would go.
fn list_mods(extra: &[PathBuf], json: bool) -> ExitCode {
    let (sources, bad) = mods::found(extra);
    let report = match mods::load(chaos_outpost::content::embedded_files(), &sources) {
        Ok((_, r)) => r,
        Err(ps) => {
            eprintln!(
                "error: the embedded content is broken:\n{}",
                problems_text(&ps)
            );
            return ExitCode::FAILURE;
        }
    };
    let searched: Vec<String> = mods::mod_dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    if json {
        let doc = serde_json::json!({
            "searched": searched,
            "mods": report.mods,
            "unreadable": bad,
        });
        out!("{doc}");
    } else {
        out!("mod folders searched: {}", searched.join(", "));
        if report.mods.is_empty() && bad.is_empty() {
            out!("no mods found");
        }
        for m in bad.iter().chain(report.mods.iter()) {
            let state = if m.loaded { "ok" } else { "DISABLED" };
            out!(
                "{:<8} {} {} — {} ({})",
                state,
                m.id,
                m.version,
                m.name,
                m.dir
            );
            for p in &m.problems {
                out!("         {p}");
            }
        }
    }
    if report.errors() > 0 || !bad.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `test-scenario`: runs scenario files; a mod folder runs its own with the mod loaded.
fn test_scenarios(paths: &[PathBuf], extra: &[PathBuf]) -> ExitCode {
    let (mut passed, mut failed) = (0usize, 0usize);
    for path in paths {
        let is_mod = path.join("mod.ron").is_file();
        let loaded = if is_mod {
            let mut dirs = extra.to_vec();
            dirs.push(path.clone());
            let (mut sources, bad) = mods::read_all(&dirs);
            mods::add_installed_dependencies(&mut sources);
            let files = sources
                .iter()
                .find(|m| m.dir == *path)
                .map(|m| m.scenarios.clone())
                .unwrap_or_default();
            match mods::load(chaos_outpost::content::embedded_files(), &sources) {
                Ok((db, report)) => {
                    for m in bad.iter().chain(report.mods.iter()) {
                        if !m.loaded {
                            eprintln!("mod `{}` is disabled:", m.id);
                            for p in &m.problems {
                                eprintln!("  {p}");
                            }
                        }
                    }
                    if bad.iter().chain(report.mods.iter()).any(|m| !m.loaded) {
                        Err("a mod failed to load".to_string())
                    } else {
                        Ok((db, files))
                    }
                }
                Err(ps) => Err(problems_text(&ps)),
            }
        } else {
            let files = if path.is_dir() {
                chaos_outpost::content::ron_files_in(path)
                    .and_then(|ps| {
                        ps.iter()
                            .map(|p| {
                                chaos_outpost::content::read_bounded(p).map(|text| SourceFile {
                                    path: p.display().to_string(),
                                    text,
                                })
                            })
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .map_err(|p| p.to_string())
            } else {
                chaos_outpost::content::read_bounded(path)
                    .map(|text| {
                        vec![SourceFile {
                            path: path.display().to_string(),
                            text,
                        }]
                    })
                    .map_err(|p| p.to_string())
            };
            files.and_then(|f| content_with(extra).map(|db| (db, f)))
        };
        let (db, files) = match loaded {
            Ok(x) => x,
            Err(e) => {
                out!("FAIL {}: {e}", path.display());
                failed += 1;
                continue;
            }
        };
        if files.is_empty() {
            out!("FAIL {}: no scenario files found", path.display());
            failed += 1;
            continue;
        }
        for r in sim::scenario::run_files(Arc::new(db), &files) {
            match r.result {
                Ok(steps) => {
                    passed += 1;
                    out!("ok   {} — {} ({steps} steps)", r.path, r.name);
                }
                Err(e) => {
                    failed += 1;
                    out!("FAIL {} — {}\n    {e}", r.path, r.name);
                }
            }
        }
    }
    out!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn run_bench(
    mods: &[PathBuf],
    levels: &[String],
    games: u32,
    cycles: u32,
    json: bool,
) -> Result<(), String> {
    if games == 0 || games > 10_000 || cycles == 0 || cycles > 10_000 {
        return Err("--games and --cycles must be from 1 to 10000".into());
    }
    let mut db = content_with(mods)?;
    let mut ids = Vec::new();
    for l in levels {
        ids.push(db.resolve_level(l).map_err(|ps| problems_text(&ps))?);
    }
    let db = Arc::new(db);
    let mut reports = Vec::new();
    for id in &ids {
        let r = sim::bench::run(db.clone(), id, games, cycles)?;
        if !json {
            out!(
                "{:<12} {} games, {} cycles: Chaos turn median {:.2} ms (p95 {:.2}), Eladrin turn median {:.2} ms (p95 {:.2}), game median {:.1} ms",
                r.level,
                r.games,
                r.cycles,
                r.chaos_turn_median_us as f64 / 1000.0,
                r.chaos_turn_p95_us as f64 / 1000.0,
                r.eladrin_turn_median_us as f64 / 1000.0,
                r.eladrin_turn_p95_us as f64 / 1000.0,
                r.game_median_us as f64 / 1000.0
            );
        }
        reports.push(r);
    }
    if json {
        out!(
            "{}",
            serde_json::json!({ "bench": reports, "build": if cfg!(debug_assertions) { "debug" } else { "release" } })
        );
    }
    Ok(())
}

fn run_replay(mods: &[PathBuf], file: &Path) -> Result<(), String> {
    let r = snapshot::read_replay(file)?;
    let db = Arc::new(content_with(mods)?);
    if !db.levels.contains_key(&r.level) {
        return Err(format!("{}: unknown level `{}`", file.display(), r.level));
    }
    let mut app = chaos_outpost::rules::setup::headless_app(db);
    let h = snapshot::play_replay(app.world_mut(), &r)?;
    out!("{h:016x}");
    Ok(())
}

fn run_fuzz(
    mods: &[PathBuf],
    actions: u64,
    moves: usize,
    seed: u64,
    levels: &[String],
) -> Result<(), String> {
    if moves == 0 || moves > 1_000_000 {
        return Err("--moves must be from 1 to 1000000".into());
    }
    let db = Arc::new(content_with(mods)?);
    let levels: Vec<String> = if levels.is_empty() {
        db.levels.keys().cloned().collect()
    } else {
        for l in levels {
            if !db.levels.contains_key(l) {
                return Err(format!("unknown level `{l}`"));
            }
        }
        levels.to_vec()
    };
    let games = actions.div_ceil(moves as u64).max(1);
    let start = std::time::Instant::now();
    // Keep panics quiet: a panic is reported as a finding with its seed.
    std::panic::set_hook(Box::new(|_| {}));
    let total = sim::fuzz::campaign(db, &levels, seed, games, moves, |g, t| {
        if g % 50 == 0 {
            eprintln!(
                "{g}/{games} games, {} actions, {} refused",
                t.actions, t.refused
            );
        }
    })?;
    out!(
        "fuzz: {} games on {}, {} actions ({} refused, {} games finished) in {:.1} s: no finding",
        games,
        levels.join(","),
        total.actions,
        total.refused,
        total.finished,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_soak(
    mods: &[PathBuf],
    games: u32,
    seed: u64,
    levels: &[String],
    cycles: u32,
) -> Result<(), String> {
    if games == 0 || games > 1_000_000 {
        return Err("--games must be from 1 to 1000000".into());
    }
    let db = Arc::new(content_with(mods)?);
    for l in levels {
        if !db.levels.contains_key(l) {
            return Err(format!("unknown level `{l}`"));
        }
    }
    let dir = std::env::temp_dir().join(format!("chaos-outpost-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let start = std::time::Instant::now();
    let (mut actions, mut cycles_checked) = (0usize, 0usize);
    for g in 0..games {
        let level = &levels[g as usize % levels.len()];
        let s = seed.wrapping_add(g as u64);
        let (mut app, _) = sim::play_game(db.clone(), level, None, s, cycles)?;
        let r = snapshot::replay_of(app.world_mut());
        let path = dir.join("soak.replay.ron");
        snapshot::write_replay(&r, &path)?;
        let back = snapshot::read_replay(&path)?;
        let mut fresh = chaos_outpost::rules::setup::headless_app(db.clone());
        snapshot::play_replay(fresh.world_mut(), &back)
            .map_err(|e| format!("{level} seed {s}: {e}"))?;
        actions += r.actions.len();
        cycles_checked += r.cycle_hashes.len();
        if (g + 1) % 100 == 0 {
            eprintln!("{}/{games} replays checked", g + 1);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    out!(
        "soak: {games} replays ({actions} actions, {cycles_checked} cycle hashes) written, read \
         back and replayed in {:.1} s: no drift",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `framebench`: the game window on `level`, then the bare sprite scene, each in its own process
/// (a window's event loop runs once per process), one after the other.
fn framebench(
    mods: &[PathBuf],
    level: &str,
    frames: u32,
    paced: bool,
    pan: bool,
    redraw: bool,
    json: bool,
) -> Result<(), String> {
    use chaos_outpost::view::frames::FrameStats;
    let db = content_with(mods)?;
    let mut db2 = db.clone();
    let id = db2.resolve_level(level).map_err(|ps| problems_text(&ps))?;
    let tiles = db2
        .levels
        .get(&id)
        .map(|l| chaos_outpost::rules::setup::make_map(&db2, l).len())
        .unwrap_or(0);
    let exe = std::env::current_exe().map_err(|e| format!("can't find this program: {e}"))?;
    let dir = std::env::temp_dir().join(format!("chaos-outpost-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let run = |args: Vec<String>, file: &Path| -> Result<FrameStats, String> {
        let status = std::process::Command::new(&exe)
            .args(
                mods.iter()
                    .flat_map(|m| ["--mod".to_string(), m.display().to_string()]),
            )
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("can't run {}: {e}", exe.display()))?;
        if !status.success() {
            return Err(format!("`{}` failed: {status}", args.join(" ")));
        }
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        ron::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))
    };
    let game_file = dir.join("game.ron");
    let game = run(
        vec![
            "play".into(),
            "--level".into(),
            id.clone(),
            "--frames".into(),
            frames.to_string(),
            "--frame-log".into(),
            game_file.display().to_string(),
        ]
        .into_iter()
        .chain((!paced).then(|| "--unpaced".to_string()))
        .chain(pan.then(|| "--pan".to_string()))
        .chain(redraw.then(|| "--redraw".to_string()))
        .collect(),
        &game_file,
    )?;
    let bare_run = |textured: bool| {
        let file = dir.join(format!("bare-{textured}.ron"));
        let mut args: Vec<String> = vec![
            "bare-sprites".into(),
            "--count".into(),
            tiles.to_string(),
            "--frames".into(),
            frames.to_string(),
            "--out".into(),
            file.display().to_string(),
        ];
        if textured {
            args.push("--textured".into());
        }
        if !paced {
            args.push("--unpaced".into());
        }
        if pan {
            args.push("--pan".into());
        }
        run(args, &file)
    };
    let bare = bare_run(false)?;
    let textured = bare_run(true)?;
    let _ = std::fs::remove_dir_all(&dir);
    let ratio = (
        game.median_ms / bare.median_ms.max(1e-9),
        game.p95_ms / bare.p95_ms.max(1e-9),
    );
    let ratio_t = (
        game.median_ms / textured.median_ms.max(1e-9),
        game.p95_ms / textured.p95_ms.max(1e-9),
    );
    if json {
        out!(
            "{}",
            serde_json::json!({"level": id, "tiles": tiles, "game": game, "bare": bare,
                "bare_textured": textured, "ratio_median": ratio.0, "ratio_p95": ratio.1,
                "ratio_textured_median": ratio_t.0, "ratio_textured_p95": ratio_t.1})
        );
    } else {
        out!(
            "{id}: {tiles} tiles, {frames} frames each after a warm-up, {}, {}",
            if paced { "paced" } else { "unpaced" },
            if pan {
                "the camera panning"
            } else {
                "the camera still"
            }
        );
        if redraw {
            out!("the game's map drawn every frame");
        }
        for s in [&game, &bare, &textured] {
            out!(
                "{:<20} median {:6.2} ms   p95 {:6.2} ms   ({} sprites{})",
                s.what,
                s.median_ms,
                s.p95_ms,
                s.sprites,
                s.map_drawn
                    .map(|d| format!(", map drawn in {d} of {} frames", s.frames))
                    .unwrap_or_default()
            );
        }
        out!(
            "ratio game / bare: median {:.2}, p95 {:.2}",
            ratio.0,
            ratio.1
        );
        out!(
            "ratio game / bare textured: median {:.2}, p95 {:.2}",
            ratio_t.0,
            ratio_t.1
        );
    }
    Ok(())
}
