//! The window: the hex map as meshes, outposts and armies as tokens, and an egui bar that shows
//! where the cycle stands and sends `Action`s. The view only reads the game state; every click
//! becomes an `ActionRequest`, and refusals are shown with the rules' reason.

pub mod cache;
pub mod driver;
pub mod input;
pub mod menu;
pub mod panels;

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;
use hexx::{Hex, HexLayout};

use crate::content::{Camp, Content, ContentDb};
use crate::rules::{ActionRefused, Army, Outpost, Rift, RulesPlugin, Tile};

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
            .add_plugins((
                input::plugin,
                cache::plugin,
                panels::plugin,
                driver::plugin,
                menu::plugin,
            ))
            .add_systems(Startup, spawn_camera)
            .add_systems(
                Update,
                spawn_map.run_if(resource_changed::<crate::rules::Board>),
            )
            .add_systems(
                Update,
                (recolor_tiles, place_tokens, read_refusals, draw_highlights),
            );
    }
}

/// What the view remembers between frames (never game state).
#[derive(Resource, Default)]
pub struct ViewState {
    /// The rules' last refusal, in words.
    pub last_refusal: Option<String>,
    /// The hex under the pointer.
    pub hover: Option<Hex>,
    /// The selected hex.
    pub selected: Option<Hex>,
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

/// (Re)draws the map whenever a game starts or loads (a new `Board`).
fn spawn_map(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    tiles: Query<&Tile>,
    old: Query<Entity, With<TileView>>,
    content: Res<Content>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
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
    mut gone_a: RemovedComponents<Army>,
    mut gone_o: RemovedComponents<Outpost>,
    old: Query<Entity, With<Token>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut done_once: Local<bool>,
) {
    let gone = gone_a.read().count() + gone_o.read().count() > 0;
    if *done_once && changed_a.is_empty() && changed_o.is_empty() && !gone {
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
        view.last_refusal = Some(format!("Refused: {}", r.reason));
    }
}

/// Outlines the selected tile and the tiles the selected army can reach (1 point bright green,
/// more points darker), and the hovered tile.
fn draw_highlights(mut gizmos: Gizmos, view: Res<ViewState>, cache: Res<cache::ViewCache>) {
    let l = layout();
    let ring = |h: Hex, r: f32| -> Vec<Vec2> {
        let c = l.hex_to_world_pos(h);
        (0..=6)
            .map(|i| {
                let a = std::f32::consts::FRAC_PI_3 * i as f32 + std::f32::consts::FRAC_PI_6;
                c + Vec2::new(a.cos(), a.sin()) * r
            })
            .collect()
    };
    for (h, cost) in &cache.reach {
        let color = if *cost <= 1 {
            Color::srgb(0.55, 0.95, 0.55)
        } else {
            Color::srgb(0.25, 0.6, 0.3)
        };
        gizmos.linestrip_2d(ring(*h, HEX_SIZE - 4.0), color);
    }
    if let Some(h) = view.selected {
        gizmos.linestrip_2d(ring(h, HEX_SIZE - 1.5), Color::srgb(1.0, 0.9, 0.2));
        gizmos.linestrip_2d(ring(h, HEX_SIZE - 2.5), Color::srgb(1.0, 0.9, 0.2));
    }
    if let Some(h) = view.hover {
        gizmos.linestrip_2d(ring(h, HEX_SIZE - 1.0), Color::srgba(1.0, 1.0, 1.0, 0.5));
    }
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
    open_menu: bool,
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
    app.world_mut().resource_mut::<menu::Menu>().open = open_menu;
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
