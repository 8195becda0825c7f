//! Frame timing: the game window logs its frame times (`play --frame-log FILE`), and a bare
//! Bevy scene draws the same number of plain sprites in the same layout with the same camera
//! (`bare-sprites`), the engine's floor. `framebench` runs both, one after the other, and
//! prints the median and 95th percentile of each and their ratio.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy::winit::WinitSettings;
use serde::{Deserialize, Serialize};

/// The 1280×720 window of the game and of the bare scene, the same for both so their frames
/// compare: paced to the display (what a player sees), or unpaced, where a frame takes what it
/// costs and the figures compare costs rather than the display's rate.
pub fn window(title: &str, unpaced: bool) -> Window {
    Window {
        title: title.into(),
        resolution: WindowResolution::new(1280, 720),
        present_mode: if unpaced {
            PresentMode::AutoNoVsync
        } else {
            PresentMode::AutoVsync
        },
        ..default()
    }
}

/// The slow tick of a window at rest: it wakes this often with nothing to do (a card's timer,
/// a file a check waits on).
pub const WAKE: std::time::Duration = std::time::Duration::from_secs(2);

/// How often the app updates: when woken (`view::rest`: input, a redraw asked for while
/// something moves or the game plays itself, or the slow tick `WAKE`), focused or not — a
/// turn-based game at rest draws nothing; back to back when measuring (`unpaced`); or, never
/// resting (`busy`, to compare), as Bevy's games do: every frame when focused, 60 Hz when not.
pub fn update_mode(unpaced: bool, busy: bool) -> WinitSettings {
    if unpaced {
        WinitSettings::continuous()
    } else if busy {
        WinitSettings::game()
    } else {
        WinitSettings {
            focused_mode: bevy::winit::UpdateMode::reactive(WAKE),
            unfocused_mode: bevy::winit::UpdateMode::reactive(WAKE),
        }
    }
}

/// The bare scene's camera.
#[derive(Component)]
pub struct BareCamera;

/// Pans the camera marked `M` eight pixels a frame (the game's keyboard pan, 500 pixels a
/// second, at 60 frames a second), back and forth over 100 frames: the map's picture has to be
/// drawn again each time the view passes its margin.
pub fn pan_camera<M: Component>(mut frame: Local<u32>, mut cams: Query<&mut Transform, With<M>>) {
    *frame += 1;
    let dx = if (*frame / 100).is_multiple_of(2) {
        8.0
    } else {
        -8.0
    };
    for mut t in &mut cams {
        t.translation.x += dx;
    }
}

/// Frames skipped before measuring (start-up, first uploads).
pub const WARMUP: u32 = 60;

/// Frame-time figures of one run, in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameStats {
    /// What ran.
    pub what: String,
    /// Frames measured.
    pub frames: usize,
    /// Median frame time.
    pub median_ms: f64,
    /// 95th percentile.
    pub p95_ms: f64,
    /// Sprites (or tiles) in the scene.
    pub sprites: usize,
    /// Measured frames in which the game drew its map (`map_cache`: it is drawn only when
    /// something on it changed); none for the bare scene.
    #[serde(default)]
    pub map_drawn: Option<u64>,
    /// Measured frames in which the game drew its interface (`frame_cache`: the last frame is
    /// shown again while nothing on it changed); none for the bare scene.
    #[serde(default)]
    pub ui_drawn: Option<u64>,
    /// Where the frames went (medians over the measured frames; the bare scene has no egui).
    #[serde(default)]
    pub parts: Option<FrameParts>,
}

/// Where a game frame's time goes, each a median in milliseconds of the wall time between
/// marks the main world's schedules pass. The main world's update runs beside the render
/// world's (pipelined rendering), so a frame takes about the longer of the two: what the
/// update leaves of the frame is the render world waiting on the rasteriser.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameParts {
    /// The main world's whole update, from `First` to `Last`: the game's systems, egui's.
    pub update_ms: f64,
    /// egui's pass: the panels' systems laying out their widgets, and the pass's end.
    pub layout_ms: f64,
    /// egui's output: tessellating its shapes into triangles, and the still-frame check
    /// (`frame_cache`) comparing them with the last frame's.
    pub tessellate_ms: f64,
}

/// The value at quantile `q` (0.5: the median) of `v`, sorted here; 0 when empty.
pub fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(((v.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or(0.0)
}

impl FrameStats {
    /// Figures from frame times in seconds.
    pub fn of(what: &str, sprites: usize, mut times: Vec<f64>) -> FrameStats {
        let frames = times.len();
        let mut at = |q: f64| quantile(&mut times, q) * 1000.0;
        FrameStats {
            what: what.into(),
            frames,
            median_ms: at(0.5),
            p95_ms: at(0.95),
            sprites,
            map_drawn: None,
            ui_drawn: None,
            parts: None,
        }
    }
}

/// Logging frame times into a file, then quitting.
#[derive(Resource)]
pub struct FrameLog {
    /// Where the figures go (RON).
    pub path: PathBuf,
    /// Frames to measure after the warm-up.
    pub frames: u32,
    /// What is measured.
    pub what: String,
    seen: u32,
    times: Vec<f64>,
    map_drawn_before: u64,
    ui_drawn_before: u64,
    /// This frame's marks: the update's start, egui's pass start and end, its output's end.
    marks: [Option<std::time::Instant>; 4],
    /// Per measured frame: update, layout, tessellation, in seconds.
    parts: Vec<[f64; 3]>,
}

impl FrameLog {
    /// A log of `frames` frames into `path`.
    pub fn new(path: PathBuf, frames: u32, what: &str) -> FrameLog {
        FrameLog {
            path,
            frames,
            what: what.into(),
            seen: 0,
            times: Vec::new(),
            map_drawn_before: 0,
            ui_drawn_before: 0,
            marks: [None; 4],
            parts: Vec::new(),
        }
    }
}

/// Notes the time at mark `I` of this frame.
fn mark<const I: usize>(mut log: ResMut<FrameLog>) {
    log.marks[I] = Some(std::time::Instant::now());
}

/// Marks where a game frame's time goes (`FrameParts`): the update's start in `First`;
/// egui's pass, from before the pass's systems run to the pass's end; then its output and the
/// still-frame check, to before `PostProcessOutput` (with what else runs between, unordered:
/// egui's small output systems); `log_frames` in `Last` closes the update.
pub fn measure_parts(app: &mut App) {
    use bevy_egui::EguiPostUpdateSet as Egui;
    app.add_systems(First, mark::<0>).add_systems(
        PostUpdate,
        (
            mark::<1>
                .in_set(Egui::EndPass)
                .before(bevy_egui::run_egui_context_pass_loop_system),
            mark::<2>
                .in_set(Egui::EndPass)
                .after(bevy_egui::end_pass_system),
            mark::<3>
                .after(Egui::ProcessOutput)
                .after(super::frame_cache::decide)
                .before(Egui::PostProcessOutput),
        ),
    );
}

/// Records the frame time; writes the figures and quits when done.
pub fn log_frames(
    time: Res<Time<Real>>,
    mut log: ResMut<FrameLog>,
    sprites: Query<(), With<Sprite>>,
    redraw: Option<Res<super::map_cache::MapRedraw>>,
    ui: Option<Res<super::frame_cache::FrameCache>>,
    mut exit: MessageWriter<AppExit>,
) {
    log.seen += 1;
    if log.seen <= WARMUP {
        log.map_drawn_before = redraw.as_ref().map_or(0, |r| r.drawn);
        log.ui_drawn_before = ui.as_ref().map_or(0, |r| r.drawn);
        return;
    }
    log.times.push(time.delta_secs_f64());
    if let [Some(start), pass, passed, output] = log.marks {
        // The bare scene has no egui: its update alone.
        let now = std::time::Instant::now();
        let secs = |a: Option<std::time::Instant>, b: Option<std::time::Instant>| match (a, b) {
            (Some(a), Some(b)) => b.saturating_duration_since(a).as_secs_f64(),
            _ => 0.0,
        };
        log.parts.push([
            secs(Some(start), Some(now)),
            secs(pass, passed),
            secs(passed, output),
        ]);
    }
    log.marks = [None; 4];
    if log.times.len() as u32 >= log.frames {
        let mut stats = FrameStats::of(&log.what, sprites.iter().count(), log.times.clone());
        stats.map_drawn = redraw.map(|r| r.drawn - log.map_drawn_before);
        stats.ui_drawn = ui.map(|r| r.drawn - log.ui_drawn_before);
        stats.parts = (!log.parts.is_empty()).then(|| {
            let median = |i: usize| {
                let mut v: Vec<f64> = log.parts.iter().map(|p| p[i]).collect();
                quantile(&mut v, 0.5) * 1000.0
            };
            FrameParts {
                update_ms: median(0),
                layout_ms: median(1),
                tessellate_ms: median(2),
            }
        });
        let text = ron::to_string(&stats).unwrap_or_default();
        if let Err(e) = std::fs::write(&log.path, text) {
            error!("frame log {}: {e}", log.path.display());
            exit.write(AppExit::from_code(1));
        } else {
            exit.write(AppExit::Success);
        }
    }
}

/// Where the bare scene's sprites go: the game's hex layout, ring by ring out from the origin
/// where its camera looks, so the window is covered as the game's map covers it. (`Hex::range`
/// walks the hexagon row by row from a corner: 10,267 hexes taken that way all lay off screen,
/// and the "floor" measured an empty window.)
pub fn bare_positions(count: usize) -> Vec<Vec2> {
    let layout = super::layout();
    hexx::Hex::ZERO
        .spiral_range(0..=200)
        .take(count)
        .map(|h| layout.hex_to_world_pos(h))
        .collect()
}

/// The bare scene: `count` plain sprites on the game's hex layout, the game's camera; with
/// `textured`, the game's own tile textures instead of colours.
pub fn run_bare(
    count: usize,
    frames: u32,
    out: PathBuf,
    textured: bool,
    unpaced: bool,
    screenshot: Option<PathBuf>,
    pan: bool,
) -> Result<(), String> {
    let what = if textured {
        "bare textured sprites"
    } else {
        "bare sprites"
    };
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(window("Chaos Outpost — bare sprites", unpaced)),
        ..default()
    }))
    .insert_resource(FrameLog::new(out, frames, what))
    // A scene that never rests: every frame is one measured.
    .insert_resource(update_mode(unpaced, true))
    .add_plugins(super::art::plugin)
    .add_systems(
        Startup,
        move |mut commands: Commands, art: Res<super::art::Art>| {
            // The game's camera settings (no multisampling), so the floor compares like with
            // like.
            commands.spawn((
                Camera2d,
                Msaa::Off,
                Transform::from_scale(Vec3::splat(1.0)),
                BareCamera,
            ));
            let tiles: Vec<Handle<Image>> = ["plains", "forest", "hills", "mountains", "marsh"]
                .iter()
                .filter_map(|t| art.get(&format!("tiles/{t}")))
                .collect();
            let size = super::hex_sprite_size();
            for (i, p) in bare_positions(count).into_iter().enumerate() {
                let shade = 0.3 + (i % 7) as f32 * 0.08;
                let sprite = match tiles.get(i % tiles.len().max(1)) {
                    Some(image) if textured => Sprite {
                        image: image.clone(),
                        custom_size: Some(size),
                        ..default()
                    },
                    _ => Sprite::from_color(Color::srgb(shade, 0.5, 0.3), size),
                };
                commands.spawn((sprite, Transform::from_xyz(p.x, p.y, 0.0)));
            }
        },
    )
    .add_systems(First, mark::<0>)
    .add_systems(Last, log_frames)
    .add_systems(Update, pan_camera::<BareCamera>.run_if(move || pan))
    .add_systems(Update, move |mut n: Local<u32>, mut commands: Commands| {
        // A look at what is measured: the floor must cover the window as the map does.
        *n += 1;
        if *n == WARMUP
            && let Some(p) = screenshot.clone()
        {
            commands
                .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
                .observe(bevy::render::view::screenshot::save_to_disk(p));
        }
    });
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the bare scene exited with code {code}")),
    }
}

/// Closes the level's intro as its Begin button does (frame measurements of the game itself).
pub fn intro_read(mut guide: ResMut<super::hints::Guide>) {
    guide.begin();
}
