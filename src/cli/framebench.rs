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

/// `framebench`: the game window on `level`, then the bare sprite scene, each in its own process
/// (a window's event loop runs once per process), one after the other.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    super::play::need_display(std::env::var_os("DISPLAY").as_deref())?;
    let mods = p.mods.as_slice();
    let Args {
        level,
        frames,
        paced,
        pan,
        redraw,
        board,
        draw_ui,
        idle,
        json,
    } = a;
    let db = p.content_with(mods)?;
    let mut db2 = db.clone();
    let id = db2.resolve_level(&level).map_err(|ps| problems_text(&ps))?;
    let tiles = db2
        .levels
        .get(&id)
        .map(|l| crate::rules::setup::make_map(&db2, l).len())
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
        .chain(board.then(|| "--board".to_string()))
        .chain(draw_ui.then(|| "--draw-ui".to_string()))
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
    let at_rest = if idle {
        Some(idle_cpu(&exe, mods, &id, &dir)?)
    } else {
        None
    };
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
        writeln!(
            out,
            "{}",
            serde_json::json!({"level": id, "tiles": tiles, "game": game, "bare": bare,
                "bare_textured": textured, "ratio_median": ratio.0, "ratio_p95": ratio.1,
                "ratio_textured_median": ratio_t.0, "ratio_textured_p95": ratio_t.1,
                "idle_cpu_per_second": at_rest})
        )?;
    } else {
        writeln!(
            out,
            "{id}: {tiles} tiles, {frames} frames each after a warm-up, {}, {}",
            if paced { "paced" } else { "unpaced" },
            if pan {
                "the camera panning"
            } else {
                "the camera still"
            }
        )?;
        if redraw {
            writeln!(out, "the game's map drawn every frame")?;
        }
        if draw_ui {
            writeln!(out, "the game's interface drawn every frame")?;
        }
        for s in [&game, &bare, &textured] {
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
        writeln!(
            out,
            "ratio game / bare: median {:.2}, p95 {:.2}",
            ratio.0, ratio.1
        )?;
        writeln!(
            out,
            "ratio game / bare textured: median {:.2}, p95 {:.2}",
            ratio_t.0, ratio_t.1
        )?;
        if let Some(cpu) = at_rest {
            writeln!(
                out,
                "at rest (its first decision, nothing asked): {cpu:.3} CPU-seconds a second over 20 s"
            )?;
        }
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
