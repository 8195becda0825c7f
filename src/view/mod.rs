//! The window: the hex map as meshes, outposts and armies as tokens, and an egui bar that shows
//! where the cycle stands and sends `Action`s. The view only reads the game state; every click
//! becomes an `ActionRequest`, and refusals are shown with the rules' reason.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use hexx::{Hex, HexLayout};

use crate::content::{Camp, Content, ContentDb};
use crate::rules::{
    ActionRefused, ActionRequest, Army, Chronicle, Cycle, CycleOrder, Outcome, Outpost, Portal,
    Research, Rift, RulesPlugin, Tile,
};

/// Pixel size of a hex (centre to corner).
pub const HEX_SIZE: f32 = 30.0;

/// The layout shared by drawing and picking.
pub fn layout() -> HexLayout {
    HexLayout::pointy().with_hex_size(HEX_SIZE)
}

/// The windowed game: rules plus the view.
pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((RulesPlugin, crate::content::asset::plugin))
            .init_resource::<ViewState>()
            .add_systems(Startup, (spawn_camera, spawn_map).chain())
            .add_systems(
                Update,
                (
                    recolor_tiles,
                    place_tokens,
                    read_refusals,
                    pan_and_zoom_camera,
                ),
            )
            .add_systems(EguiPrimaryContextPass, draw_panels);
    }
}

/// What the view remembers between frames (never game state).
#[derive(Resource, Default)]
struct ViewState {
    last_refusal: Option<String>,
}

/// Marks the mesh of a tile.
#[derive(Component)]
struct TileView(Hex);

/// Marks an army or outpost token (respawned when the state changes).
#[derive(Component)]
struct Token;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Transform::from_scale(Vec3::splat(1.0))));
}

fn terrain_color(db: &ContentDb, t: &Tile) -> Color {
    let (r, g, b) = db
        .terrain(&t.terrain)
        .map(|t| t.color)
        .unwrap_or((128, 128, 128));
    let base = Color::srgb_u8(r, g, b);
    if t.rift == Rift::Open {
        Color::srgb_u8(140, 20, 160)
    } else if t.corrupted {
        // Corruption: the terrain shows through a violet tint.
        base.mix(&Color::srgb_u8(90, 20, 110), 0.65)
    } else {
        base
    }
}

fn spawn_map(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    tiles: Query<&Tile>,
    content: Res<Content>,
) {
    let hex_mesh = meshes.add(RegularPolygon::new(HEX_SIZE - 1.0, 6));
    let l = layout();
    for t in &tiles {
        let p = l.hex_to_world_pos(t.hex);
        commands.spawn((
            TileView(t.hex),
            Mesh2d(hex_mesh.clone()),
            MeshMaterial2d(materials.add(terrain_color(&content, t))),
            Transform::from_xyz(p.x, p.y, 0.0),
        ));
    }
}

fn recolor_tiles(
    changed: Query<&Tile, Changed<Tile>>,
    views: Query<(&TileView, &MeshMaterial2d<ColorMaterial>)>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    content: Res<Content>,
) {
    if changed.is_empty() {
        return;
    }
    let changed: std::collections::HashMap<Hex, &Tile> =
        changed.iter().map(|t| (t.hex, t)).collect();
    for (v, m) in &views {
        if let Some(t) = changed.get(&v.0)
            && let Some(mut mat) = materials.get_mut(&m.0)
        {
            mat.color = terrain_color(&content, t);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn place_tokens(
    mut commands: Commands,
    armies: Query<&Army>,
    outposts: Query<&Outpost>,
    changed_a: Query<(), Changed<Army>>,
    changed_o: Query<(), Changed<Outpost>>,
    old: Query<Entity, With<Token>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut done_once: Local<bool>,
) {
    if *done_once && changed_a.is_empty() && changed_o.is_empty() {
        return;
    }
    *done_once = true;
    for e in &old {
        commands.entity(e).despawn();
    }
    let l = layout();
    let square = meshes.add(Rectangle::new(22.0, 22.0));
    let disc = meshes.add(Circle::new(9.0));
    let gold = materials.add(Color::srgb_u8(235, 200, 90));
    for o in &outposts {
        let p = l.hex_to_world_pos(o.hex);
        commands.spawn((
            Token,
            Mesh2d(square.clone()),
            MeshMaterial2d(gold.clone()),
            Transform::from_xyz(p.x, p.y, 1.0),
        ));
        commands.spawn((
            Token,
            Text2d::new(o.name.clone()),
            TextFont::from_font_size(13.0),
            TextColor(Color::WHITE),
            Transform::from_xyz(p.x, p.y - 22.0, 3.0),
        ));
    }
    let blue = materials.add(Color::srgb_u8(60, 140, 235));
    let red = materials.add(Color::srgb_u8(220, 50, 60));
    for a in &armies {
        let p = l.hex_to_world_pos(a.hex) + Vec2::new(12.0, 10.0);
        let mat = if a.camp == Camp::Eladrins {
            blue.clone()
        } else {
            red.clone()
        };
        commands.spawn((
            Token,
            Mesh2d(disc.clone()),
            MeshMaterial2d(mat),
            Transform::from_xyz(p.x, p.y, 2.0),
        ));
        commands.spawn((
            Token,
            Text2d::new(a.units.len().to_string()),
            TextFont::from_font_size(11.0),
            TextColor(Color::WHITE),
            Transform::from_xyz(p.x, p.y, 3.0),
        ));
    }
}

fn read_refusals(mut refused: MessageReader<ActionRefused>, mut view: ResMut<ViewState>) {
    for r in refused.read() {
        view.last_refusal = Some(format!("{:?} refused: {}", r.action, r.reason));
    }
}

fn pan_and_zoom_camera(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut cam: Query<&mut Transform, With<Camera2d>>,
) {
    let Ok(mut t) = cam.single_mut() else { return };
    let mut d = Vec2::ZERO;
    if keys.pressed(KeyCode::ArrowLeft) || keys.pressed(KeyCode::KeyA) {
        d.x -= 1.0;
    }
    if keys.pressed(KeyCode::ArrowRight) || keys.pressed(KeyCode::KeyD) {
        d.x += 1.0;
    }
    if keys.pressed(KeyCode::ArrowUp) || keys.pressed(KeyCode::KeyW) {
        d.y += 1.0;
    }
    if keys.pressed(KeyCode::ArrowDown) || keys.pressed(KeyCode::KeyS) {
        d.y -= 1.0;
    }
    let speed = 500.0 * t.scale.x * time.delta_secs();
    t.translation += (d * speed).extend(0.0);
    if keys.pressed(KeyCode::Equal) {
        t.scale = (t.scale * 0.98).max(Vec3::splat(0.3));
    }
    if keys.pressed(KeyCode::Minus) {
        t.scale = (t.scale * 1.02).min(Vec3::splat(8.0));
    }
}

/// The phase bar, the portal, the log and the decision buttons.
#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    cycle: Res<Cycle>,
    order: Res<CycleOrder>,
    outcome: Res<Outcome>,
    portal: Res<Portal>,
    research: Res<Research>,
    chronicle: Res<Chronicle>,
    outposts: Query<&Outpost>,
    content: Res<Content>,
    view: Res<ViewState>,
    mut send: MessageWriter<ActionRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // egui 0.36 panels are shown inside a Ui spanning the viewport.
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("phase").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.heading(format!("Cycle {}", cycle.number));
            for (i, s) in order.0.iter().enumerate() {
                let text = format!("{} {}", s.id, s.title);
                if i == cycle.step {
                    ui.label(
                        egui::RichText::new(text)
                            .strong()
                            .color(egui::Color32::YELLOW),
                    );
                } else {
                    ui.label(egui::RichText::new(text).weak());
                }
            }
        });
    });
    egui::Panel::right("state")
        .min_size(280.0)
        .show(&mut root, |ui| {
            if let Some(w) = outcome.winner {
                ui.heading(format!("{w:?} win!"));
                ui.label(&outcome.reason);
                ui.separator();
            }
            let def = content.portal();
            ui.heading("Portal");
            for (i, a) in def.arches.iter().enumerate() {
                ui.label(format!(
                    "Arch {}: {}/{} cells",
                    i + 1,
                    portal.built.get(i).copied().unwrap_or(0),
                    a.len()
                ));
            }
            ui.label(format!(
                "Power {}/{} (star at {}), corruption {}",
                portal.power, def.track, def.star, portal.corruption
            ));
            ui.separator();
            ui.heading("Outposts");
            let mut ops: Vec<&Outpost> = outposts.iter().collect();
            ops.sort_by_key(|o| o.id);
            for o in ops {
                ui.label(format!("{} ({}): {}", o.name, o.size, o.stock));
            }
            ui.separator();
            ui.heading("Research");
            match &research.current {
                Some(t) => ui.label(format!("{t}: {} points", research.points)),
                None if !research.offer.is_empty() => ui.label("Choose a technology:"),
                None => ui.label("None under way"),
            };
            for t in &research.offer {
                if ui.button(format!("Research {t}")).clicked() {
                    send.write(ActionRequest {
                        by: Camp::Eladrins,
                        action: crate::rules::Action::ChooseResearch { tech: t.clone() },
                    });
                }
            }
            ui.separator();
            let step = order.0.get(cycle.step).map(|s| s.id).unwrap_or("?");
            if step == "R9" {
                if ui.button(format!("Pass ({:?})", cycle.turn)).clicked() {
                    send.write(ActionRequest {
                        by: cycle.turn,
                        action: crate::rules::Action::Pass,
                    });
                }
            } else if ui.button("Done with this step").clicked() {
                send.write(ActionRequest {
                    by: Camp::Eladrins,
                    action: crate::rules::Action::Done,
                });
            }
            if let Some(r) = &view.last_refusal {
                ui.colored_label(egui::Color32::LIGHT_RED, r);
            }
            ui.separator();
            ui.heading("Log");
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    let start = chronicle.0.len().saturating_sub(60);
                    for e in &chronicle.0[start..] {
                        ui.label(e.to_string());
                    }
                });
        });
    Ok(())
}

/// Counts frames and takes the screenshot asked for on the command line, then quits.
#[derive(Resource)]
struct ScreenshotPlan {
    path: PathBuf,
    at_frame: u32,
    frame: u32,
}

fn take_screenshot(
    mut commands: Commands,
    mut plan: ResMut<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    plan.frame += 1;
    if plan.frame == plan.at_frame {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(plan.path.clone()));
    }
    // Give the capture a few frames to reach the disk.
    if plan.frame == plan.at_frame + 15 {
        exit.write(AppExit::Success);
    }
}

/// Opens the window on `level`.
pub fn run(
    content: Arc<ContentDb>,
    level: &str,
    seed: u64,
    screenshot: Option<PathBuf>,
    frames: u32,
    players: &[String],
) -> Result<(), String> {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Chaos Outpost".into(),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(Content(content))
    .add_plugins(GamePlugin);
    crate::rules::setup::start_game(app.world_mut(), level, None, seed)?;
    crate::rules::setup::set_players(app.world_mut(), players);
    if let Some(path) = screenshot {
        app.insert_resource(ScreenshotPlan {
            path,
            at_frame: frames.max(1),
            frame: 0,
        })
        .add_systems(Update, take_screenshot);
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game exited with code {code}")),
    }
}
