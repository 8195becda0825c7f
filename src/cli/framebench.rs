//! `framebench` and `bare-sprites`: the frame cost of the game window on a level, against a
//! bare scene of as many plain sprites as the level has tiles (the engine's floor), each in its
//! own process (a window's event loop runs once per process), one after the other; prints
//! median and p95 frame times and their ratio.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Outcome, Program, problems_text};
use crate::view::frames::FrameStats;

/// `framebench`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Level.
    #[arg(long, default_value = "stress")]
    level: String,
    /// Every level the game has (with `--mod`, the mods' too), smallest map first, each also
    /// with its chapter's board open when it plays one; one table (Markdown).
    #[arg(long, conflicts_with_all = ["level", "board"])]
    all: bool,
    /// Frames measured in each after a warm-up.
    #[arg(long, default_value_t = 300)]
    frames: u32,
    /// Measure each level this many times, the game and its floor one after the other each
    /// time, and report the median ratio and the range (a shared machine's frame times move
    /// by a fifth from one run to the next).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    runs: u32,
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
    /// Open the chapter's board over the map (a level that plays a chapter with one).
    #[arg(long)]
    board: bool,
    /// Draw the interface every frame, never showing the last frame again: the cost of an
    /// interface that keeps changing (a hover, an animation).
    #[arg(long)]
    draw_ui: bool,
    /// Also measure the window at rest: the game at its first decision with nothing asked
    /// (`tools/perf/idle.ron`), its CPU over 20 s once 25 s have brought it there, in
    /// CPU-seconds a second (read from `/proc`, Linux).
    #[arg(long)]
    idle: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `bare-sprites`' arguments.
#[derive(clap::Args)]
pub struct BareArgs {
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
}

/// `bare-sprites`: the floor scene alone.
pub fn run_bare(a: BareArgs) -> Outcome {
    super::play::need_display(std::env::var_os("DISPLAY").as_deref())?;
    Ok(crate::view::frames::run_bare(
        a.count.min(200_000),
        a.frames.max(1),
        a.out,
        a.textured,
        a.unpaced,
        a.screenshot,
        a.pan,
    )?)
}

/// How each run of a `framebench` is made.
#[derive(Clone, Copy)]
struct Opts {
    frames: u32,
    paced: bool,
    pan: bool,
    redraw: bool,
    draw_ui: bool,
    idle: bool,
}

/// One level's figures: the game (and with its chapter's board open), the bare floors.
struct Measured {
    id: String,
    tiles: usize,
    game: FrameStats,
    board: Option<FrameStats>,
    bare: FrameStats,
    textured: FrameStats,
    at_rest: Option<f64>,
}

impl Measured {
    /// A game run's ratio to the bare floor: median, p95.
    fn ratio(&self, game: &FrameStats) -> (f64, f64) {
        (
            game.median_ms / self.bare.median_ms.max(1e-9),
            game.p95_ms / self.bare.p95_ms.max(1e-9),
        )
    }

    /// The game's ratio to the textured floor: median, p95.
    fn ratio_textured(&self) -> (f64, f64) {
        (
            self.game.median_ms / self.textured.median_ms.max(1e-9),
            self.game.p95_ms / self.textured.p95_ms.max(1e-9),
        )
    }

    fn json(&self) -> serde_json::Value {
        let ratio = self.ratio(&self.game);
        let ratio_t = self.ratio_textured();
        serde_json::json!({"level": self.id, "tiles": self.tiles, "game": self.game,
            "board": self.board, "bare": self.bare, "bare_textured": self.textured,
            "ratio_median": ratio.0, "ratio_p95": ratio.1,
            "ratio_board_median": self.board.as_ref().map(|b| self.ratio(b).0),
            "ratio_textured_median": ratio_t.0, "ratio_textured_p95": ratio_t.1,
            "idle_cpu_per_second": self.at_rest})
    }
}

/// With the chapter's board open or not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Board {
    Closed,
    Open,
    /// The game measured twice, closed then open.
    Both,
}

/// A level to measure.
#[derive(Clone, Copy)]
struct Which<'a> {
    id: &'a str,
    tiles: usize,
    board: Board,
}

/// A level's runs (at least one).
struct Runs(Vec<Measured>);

impl Runs {
    /// The ratios of the game (or with its board open) to the floor over the runs: median,
    /// lowest, highest.
    fn ratio(&self, board: bool) -> (f64, f64, f64) {
        let mut r: Vec<f64> = self
            .0
            .iter()
            .filter_map(|m| {
                let game = if board { m.board.as_ref()? } else { &m.game };
                Some(m.ratio(game).0)
            })
            .collect();
        (
            crate::view::frames::quantile(&mut r, 0.5),
            crate::view::frames::quantile(&mut r, 0.0),
            crate::view::frames::quantile(&mut r, 1.0),
        )
    }

    /// The run whose ratio, the map still, is the median: its figures stand for the level.
    fn median(&self) -> &Measured {
        let (median, ..) = self.ratio(false);
        self.0
            .iter()
            .find(|m| m.ratio(&m.game).0 == median)
            .or(self.0.first())
            .expect("a level is measured at least once")
    }

    /// The CPU at rest, measured in the first run.
    fn at_rest(&self) -> Option<f64> {
        self.0.iter().find_map(|m| m.at_rest)
    }
}

/// Runs this program's subcommands as their own processes, one after the other, in a
/// temporary folder.
struct Runner<'a> {
    exe: PathBuf,
    mods: &'a [PathBuf],
    dir: PathBuf,
}

impl Runner<'_> {
    /// Runs `args`, then reads the figures it wrote into `file`.
    fn run(&self, args: Vec<String>, file: &Path) -> Result<FrameStats, String> {
        // Never the figures of the run before, should this one end without writing its own.
        let _ = std::fs::remove_file(file);
        let status = std::process::Command::new(&self.exe)
            .args(
                self.mods
                    .iter()
                    .flat_map(|m| ["--mod".to_string(), m.display().to_string()]),
            )
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("can't run {}: {e}", self.exe.display()))?;
        if !status.success() {
            return Err(format!("`{}` failed: {status}", args.join(" ")));
        }
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        ron::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))
    }

    /// The game window on `level`, with its chapter's board open or not.
    fn game(&self, level: &str, o: Opts, board: bool) -> Result<FrameStats, String> {
        let file = self.dir.join("game.ron");
        let mut args: Vec<String> = vec![
            "play".into(),
            "--level".into(),
            level.into(),
            "--frames".into(),
            o.frames.to_string(),
            "--frame-log".into(),
            file.display().to_string(),
        ];
        for (on, flag) in [
            (!o.paced, "--unpaced"),
            (o.pan, "--pan"),
            (o.redraw, "--redraw"),
            (board, "--board"),
            (o.draw_ui, "--draw-ui"),
        ] {
            if on {
                args.push(flag.into());
            }
        }
        self.run(args, &file)
    }

    /// The bare scene of `tiles` sprites, plain or textured.
    fn bare(&self, tiles: usize, o: Opts, textured: bool) -> Result<FrameStats, String> {
        let file = self.dir.join(format!("bare-{textured}.ron"));
        let mut args: Vec<String> = vec![
            "bare-sprites".into(),
            "--count".into(),
            tiles.to_string(),
            "--frames".into(),
            o.frames.to_string(),
            "--out".into(),
            file.display().to_string(),
        ];
        for (on, flag) in [
            (textured, "--textured"),
            (!o.paced, "--unpaced"),
            (o.pan, "--pan"),
        ] {
            if on {
                args.push(flag.into());
            }
        }
        self.run(args, &file)
    }

    /// One level `runs` times (its CPU at rest, if asked, the first time only).
    fn runs(&self, l: &Which, o: Opts, runs: u32) -> Result<Runs, String> {
        let mut all = Vec::new();
        for i in 0..runs {
            let o = Opts {
                idle: o.idle && i == 0,
                ..o
            };
            all.push(self.level(l, o)?);
        }
        Ok(Runs(all))
    }

    /// One level: the game (with its board open, or each way), the floors, and its CPU at
    /// rest if asked.
    fn level(&self, l: &Which, o: Opts) -> Result<Measured, String> {
        let Which { id, tiles, board } = *l;
        let game = self.game(id, o, board == Board::Open)?;
        let with_board = if board == Board::Both {
            Some(self.game(id, o, true)?)
        } else {
            None
        };
        Ok(Measured {
            id: id.into(),
            tiles,
            game,
            board: with_board,
            bare: self.bare(tiles, o, false)?,
            textured: self.bare(tiles, o, true)?,
            at_rest: if o.idle {
                Some(idle_cpu(&self.exe, self.mods, id, &self.dir)?)
            } else {
                None
            },
        })
    }
}

/// `framebench`: the game window on `level` (or on every level, `--all`), then the bare
/// sprite scene, each in its own process (a window's event loop runs once per process), one
/// after the other.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    super::play::need_display(std::env::var_os("DISPLAY").as_deref())?;
    let mods = p.mods.as_slice();
    let Args {
        level,
        all,
        frames,
        runs,
        paced,
        pan,
        redraw,
        board,
        draw_ui,
        idle,
        json,
    } = a;
    let o = Opts {
        frames,
        paced,
        pan,
        redraw,
        draw_ui,
        idle,
    };
    let db = p.content_with(mods)?;
    let mut db2 = db.clone();
    let tiles_of = |db: &crate::content::ContentDb, id: &str| {
        db.levels
            .get(id)
            .map(|l| crate::rules::setup::make_map(db, l).len())
            .unwrap_or(0)
    };
    let exe = std::env::current_exe().map_err(|e| format!("can't find this program: {e}"))?;
    let dir = std::env::temp_dir().join(format!("chaos-outpost-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let runner = Runner {
        exe,
        mods,
        dir: dir.clone(),
    };
    let measured = if all {
        // Every level, smallest map first; a level that plays a chapter also with its board
        // open (a chapter without a board shows its panel only).
        let mut levels: Vec<(usize, String, bool)> = db
            .levels
            .iter()
            .map(|(id, l)| (tiles_of(&db, id), id.clone(), !l.chapters.is_empty()))
            .collect();
        levels.sort();
        let mut all = Vec::new();
        for (tiles, id, chapter) in levels {
            if !json {
                writeln!(out, "measuring {id}…")?;
            }
            let board = if chapter { Board::Both } else { Board::Closed };
            all.push(runner.runs(
                &Which {
                    id: &id,
                    tiles,
                    board,
                },
                o,
                runs,
            )?);
        }
        all
    } else {
        let id = db2.resolve_level(&level).map_err(|ps| problems_text(&ps))?;
        let tiles = tiles_of(&db2, &id);
        let board = if board { Board::Open } else { Board::Closed };
        vec![runner.runs(
            &Which {
                id: &id,
                tiles,
                board,
            },
            o,
            runs,
        )?]
    };
    let _ = std::fs::remove_dir_all(&dir);
    if json {
        let level_json = |l: &Runs| {
            if l.0.len() == 1 {
                l.0.first().map(Measured::json).unwrap_or_default()
            } else {
                serde_json::json!({"level": l.median().id, "tiles": l.median().tiles,
                    "runs": l.0.iter().map(Measured::json).collect::<Vec<_>>(),
                    "ratio_median": l.ratio(false).0,
                    "ratio_board_median": l.0.iter().any(|m| m.board.is_some())
                        .then(|| l.ratio(true).0)})
            }
        };
        let v = if all {
            serde_json::json!({"levels": measured.iter().map(level_json).collect::<Vec<_>>()})
        } else {
            measured
                .first()
                .map(level_json)
                .unwrap_or(serde_json::Value::Null)
        };
        writeln!(out, "{v}")?;
        return Ok(());
    }
    let how = format!(
        "{frames} frames each after a warm-up, {}, {}{}{}",
        if paced { "paced" } else { "unpaced" },
        if pan {
            "the camera panning"
        } else {
            "the camera still"
        },
        if redraw {
            ", the game's map drawn every frame"
        } else {
            ""
        },
        if draw_ui {
            ", the game's interface drawn every frame"
        } else {
            ""
        }
    );
    if all {
        table(out, &measured, &how)?;
    } else {
        for l in &measured {
            for m in &l.0 {
                detail(out, m, &how)?;
            }
            if l.0.len() > 1 {
                let (median, low, high) = l.ratio(false);
                writeln!(
                    out,
                    "over {} runs: ratio game / bare, median {median:.2} ({low:.2} to {high:.2})",
                    l.0.len()
                )?;
            }
        }
    }
    Ok(())
}

/// One level's figures, run by run, and where the game's frame went.
fn detail(out: &mut dyn Write, m: &Measured, how: &str) -> std::io::Result<()> {
    writeln!(out, "{}: {} tiles, {how}", m.id, m.tiles)?;
    for s in [&m.game, &m.bare, &m.textured] {
        writeln!(
            out,
            "{:<20} median {:6.2} ms   p95 {:6.2} ms   ({} sprites{})",
            s.what,
            s.median_ms,
            s.p95_ms,
            s.sprites,
            s.map_drawn
                .map(|d| format!(", map drawn in {d} of {} frames", s.frames))
                .unwrap_or_default()
                + &s.ui_drawn
                    .map(|d| format!(", interface in {d}"))
                    .unwrap_or_default()
        )?;
    }
    if let Some(p) = &m.game.parts {
        writeln!(out, "{}", parts_line(p, m.bare.parts.as_ref()))?;
    }
    let ratio = m.ratio(&m.game);
    writeln!(
        out,
        "ratio game / bare: median {:.2}, p95 {:.2}",
        ratio.0, ratio.1
    )?;
    let ratio_t = m.ratio_textured();
    writeln!(
        out,
        "ratio game / bare textured: median {:.2}, p95 {:.2}",
        ratio_t.0, ratio_t.1
    )?;
    if let Some(cpu) = m.at_rest {
        writeln!(
            out,
            "at rest (its first decision, nothing asked): {cpu:.3} CPU-seconds a second over 20 s"
        )?;
    }
    Ok(())
}

/// Where a game frame went, in words, beside the bare scene's update.
fn parts_line(
    p: &crate::view::frames::FrameParts,
    bare: Option<&crate::view::frames::FrameParts>,
) -> String {
    format!(
        "the game's update {:.2} ms a frame (egui's layout {:.2}, its tessellation and the \
         still-frame check {:.2}){}; the rest of a frame waits on the renderer",
        p.update_ms,
        p.layout_ms,
        p.tessellate_ms,
        bare.map(|b| format!(", the bare scene's {:.2}", b.update_ms))
            .unwrap_or_default()
    )
}

/// Every level in one table (Markdown, for docs/performance.md): the median run's figures,
/// the ratios' median and range over the runs.
fn table(out: &mut dyn Write, all: &[Runs], how: &str) -> std::io::Result<()> {
    let runs = all.first().map_or(1, |l| l.0.len());
    writeln!(
        out,
        "{how}; the median of {runs} run{} a level",
        if runs == 1 { "" } else { "s" }
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| level | tiles | game, still | board open | bare floor | **ratio** | ratio, board open | interface drawn | update (layout, tessellation) | at rest |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|---|")?;
    let ms = |s: &FrameStats| format!("{:.1} ms", s.median_ms);
    let ratio = |(median, low, high): (f64, f64, f64)| {
        if runs == 1 {
            format!("{median:.2}")
        } else {
            format!("{median:.2} ({low:.2}–{high:.2})")
        }
    };
    for l in all {
        let m = l.median();
        let drawn = |s: &FrameStats| {
            s.ui_drawn
                .map(|d| format!("{d}/{}", s.frames))
                .unwrap_or_else(|| "—".into())
        };
        let parts = |s: &FrameStats| {
            s.parts
                .as_ref()
                .map(|p| {
                    format!(
                        "{:.1} ms ({:.1}, {:.1})",
                        p.update_ms, p.layout_ms, p.tessellate_ms
                    )
                })
                .unwrap_or_else(|| "—".into())
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | **{}** | {} | {} | {} | {} |",
            m.id,
            m.tiles,
            ms(&m.game),
            m.board.as_ref().map(ms).unwrap_or_else(|| "—".into()),
            ms(&m.bare),
            ratio(l.ratio(false)),
            m.board
                .as_ref()
                .map(|_| ratio(l.ratio(true)))
                .unwrap_or_else(|| "—".into()),
            drawn(&m.game)
                + &m.board
                    .as_ref()
                    .map(|b| format!(", board {}", drawn(b)))
                    .unwrap_or_default(),
            parts(&m.game)
                + &m.board
                    .as_ref()
                    .map(|b| format!("; board {}", parts(b)))
                    .unwrap_or_default(),
            l.at_rest()
                .map(|c| format!("{c:.3} CPU-s/s"))
                .unwrap_or_else(|| "—".into()),
        )?;
    }
    Ok(())
}

/// The CPU the game window uses at rest on `level`: started with the idle script
/// (`tools/perf/idle.ron`: the first decision reached, then nothing asked), left 25 s to get
/// there, then its CPU time, user and system, of all its threads over the next 20 s, read from
/// `/proc/PID/stat` (in the kernel's clock ticks, 100 a second).
fn idle_cpu(exe: &Path, mods: &[PathBuf], level: &str, dir: &Path) -> Result<f64, String> {
    const SETTLE: std::time::Duration = std::time::Duration::from_secs(25);
    const MEASURED: u64 = 20;
    let script = dir.join("idle.ron");
    std::fs::write(&script, include_str!("../../tools/perf/idle.ron"))
        .map_err(|e| format!("{}: {e}", script.display()))?;
    let mut child = std::process::Command::new(exe)
        .args(
            mods.iter()
                .flat_map(|m| ["--mod".to_string(), m.display().to_string()]),
        )
        .args(["play", "--level", level, "--seed", "1", "--script"])
        .arg(&script)
        .arg("--out")
        .arg(dir)
        // Its own settings: the script's language and hints are not the player's.
        .env("CHAOS_OUTPOST_CONFIG", dir.join("settings.ron"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("can't run {}: {e}", exe.display()))?;
    let pid = child.id();
    let ticks = || -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // After the name in parentheses: state, then utime and stime are the 12th and 13th.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let n = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        Some(n(11)?.saturating_add(n(12)?))
    };
    std::thread::sleep(SETTLE);
    let before = ticks();
    std::thread::sleep(std::time::Duration::from_secs(MEASURED));
    let after = ticks();
    let _ = child.kill();
    let _ = child.wait();
    match (before, after) {
        (Some(a), Some(b)) => Ok(b.saturating_sub(a) as f64 / 100.0 / MEASURED as f64),
        _ => Err(format!(
            "the game window on {level} ended before it was measured at rest (is /proc there?)"
        )),
    }
}
