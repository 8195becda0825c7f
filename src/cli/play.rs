//! `play` (and no command at all): opens the game window on a level, with the mods enabled in
//! the settings and those given with `--mod`.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Failure, Outcome, Program, problems_text};
use crate::content::mods;
use crate::view::Launch;

/// `play`'s arguments.
#[derive(clap::Args)]
pub struct Args {
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
    /// Open the chapter's board over the map from the start (frame measurements with it).
    #[arg(long)]
    board: bool,
    /// Draw the interface every frame, never the last frame again (frame measurements of an
    /// interface that keeps changing).
    #[arg(long)]
    draw_ui: bool,
    /// Open on the main menu, as the game does when started with no command.
    #[arg(long)]
    menu: bool,
    /// Never rest: update every frame as Bevy's games do, even while nothing moves (to
    /// measure what a window at rest saves).
    #[arg(long)]
    busy: bool,
}

/// No command: the window on the first level, its menu open.
pub fn run_menu(p: &Program) -> Outcome {
    open(
        p,
        Launch {
            level: "first_light".into(),
            seed: 1,
            frames: 60,
            open_menu: true,
            ..Launch::default()
        },
    )
}

/// `play`.
pub fn run(p: &Program, a: Args) -> Outcome {
    let script = a
        .script
        .map(|f| crate::view::script::read(&f))
        .transpose()?
        .map(|s| (s, a.out));
    open(
        p,
        Launch {
            level: a.level,
            seed: a.seed,
            screenshot: a.screenshot,
            frames: a.frames,
            players: a.players,
            script,
            frame_log: a.frame_log.map(|f| (f, a.frames)),
            unpaced: a.unpaced,
            pan: a.pan,
            redraw: a.redraw,
            board: a.board,
            draw_ui: a.draw_ui,
            busy: a.busy,
            open_menu: a.menu,
            ..Launch::default()
        },
    )
}

/// Opens the window: `launch.level` is resolved (an id or a level file), the mods enabled in
/// the settings and those given with `--mod` are loaded.
fn open(p: &Program, mut launch: Launch) -> Outcome {
    need_display(std::env::var_os("DISPLAY").as_deref())?;
    let mods = p.mods.as_slice();
    let settings = crate::app::settings::load(&crate::app::settings::settings_path()).0;
    let found: Vec<mods::ModSource> = mods::discover(&mods::mod_dirs())
        .into_iter()
        .flatten()
        .collect();
    let mut dirs: Vec<PathBuf> = mods::choose(&found, &settings.mods, &[])
        .into_iter()
        .map(|m| m.dir)
        .collect();
    dirs.extend(mods.iter().cloned());
    let mut db = p.content_with(&dirs)?;
    launch.level = db
        .resolve_level(&launch.level)
        .map_err(|ps| problems_text(&ps))?;
    launch.cli_mods = mods.to_vec();
    Ok(crate::view::run(Arc::new(db), launch)?)
}

/// The window is an X11 window (Bevy's `x11` feature): with no display to open it on, say so
/// and exit 2 rather than let the windowing library panic. The headless commands need none.
pub fn need_display(display: Option<&std::ffi::OsStr>) -> Outcome {
    if display.is_some_and(|d| !d.is_empty()) {
        return Ok(());
    }
    Err(Failure::Usage(
        "no display: the window needs an X11 display and DISPLAY is not set (run it on a \
         desktop that shows X11 windows, or under `xvfb-run`; `sim`, `replay`, `check` and \
         `campaign run` need no window)"
            .into(),
    ))
}
