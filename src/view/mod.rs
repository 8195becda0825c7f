//! The window: the hex map as meshes, outposts and armies as tokens, and an egui bar that shows
//! where the cycle stands and sends `Action`s. The view only reads the game state; every click
//! becomes an `ActionRequest`, and refusals are shown with the rules' reason.

pub mod art;
pub mod battle;
pub mod cache;
pub mod campaign_ui;
pub mod cards;
pub mod chapter_map;
pub mod chapter_panel;
pub mod chapter_show;
pub mod chapter_view;
pub mod driver;
pub mod ending;
pub mod frame_cache;
pub mod frames;
pub mod handoff;
pub mod help;
pub mod hints;
pub mod input;
pub mod map_cache;
pub mod menu;
pub mod mods_ui;
pub mod panels;
pub mod rest;
pub mod saves;
pub mod screens;
pub mod script;
pub mod settings_ui;
pub mod sheets;
pub mod sound;
pub mod table;
pub mod undo;
pub mod wake;

use std::path::PathBuf;
use std::sync::Arc;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_egui::EguiPlugin;
use hexx::{Hex, HexLayout};

use crate::app::settings::Palette;
use crate::content::{Camp, Content, ContentDb};
use crate::rules::{ActionRefused, Army, Outpost, Rift, RulesPlugin, Tile};

/// Pixel size of a hex (centre to corner).
pub const HEX_SIZE: f32 = 30.0;

/// The layout shared by drawing and picking.
pub fn layout() -> HexLayout {
    HexLayout::pointy().with_hex_size(HEX_SIZE)
}

/// The windowed game: rules plus the view, with the chapters of `chapters` (those of the
/// content the window opens with): their rules, then their window halves.
#[derive(Default)]
pub struct GamePlugin {
    /// The chapters the window plays.
    pub chapters: crate::content::ChapterSet,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            RulesPlugin {
                chapters: self.chapters.clone(),
            },
            crate::app::hot_reload::plugin,
            crate::app::follow::language_plugin,
            crate::app::follow::keys_plugin,
        ))
        .init_resource::<ViewState>()
        .add_plugins((screens::plugin, saves::plugin, ending::plugin))
        .add_plugins((
            input::plugin,
            cache::plugin,
            panels::plugin,
            driver::plugin,
            menu::plugin,
            art::plugin,
            settings_ui::plugin,
            script::plugin,
            undo::plugin,
            sound::plugin,
            mods_ui::plugin,
            cards::plugin,
            handoff::plugin,
            help::plugin,
            battle::plugin,
        ))
        .add_plugins((
            hints::plugin,
            map_cache::plugin,
            frame_cache::plugin,
            campaign_ui::plugin,
            chapter_map::plugin,
            chapter_show::plugin,
            table::window::plugin,
            rest::plugin,
        ))
        .init_resource::<Decor>()
        .add_systems(
            Startup,
            (
                spawn_camera,
                make_token_disc,
                use_fast_egui_shader,
                load_map_font,
            ),
        )
        .add_systems(Update, sound::volume_keys.in_set(screens::ViewSet::Input))
        .add_systems(Update, read_refusals.in_set(screens::ViewSet::Cache))
        .add_systems(
            Update,
            (
                (
                    spawn_map.run_if(resource_changed::<crate::rules::Board>),
                    decorate_tiles,
                )
                    .chain(),
                place_tokens,
                draw_highlights,
                outline_zones,
            )
                .in_set(screens::ViewSet::Draw),
        );
        // The chapters' window halves, over the view's own resources.
        for chapter in self.chapters.iter() {
            chapter.build_view(app);
        }
    }
}

/// The keyboard as the map and the panels read it: a shortcut counts unless egui has the
/// keyboard (a text field being typed in).
#[derive(SystemParam)]
pub struct Shortcuts<'w> {
    keys: Res<'w, ButtonInput<KeyCode>>,
    /// The key bindings in force (their names are shown beside buttons).
    pub map: Res<'w, crate::app::keys::Keymap>,
    egui: Res<'w, bevy_egui::input::EguiWantsInput>,
}

impl Shortcuts<'_> {
    /// The shortcut was pressed this frame.
    pub fn fired(&self, s: crate::app::keys::Shortcut) -> bool {
        !self.egui.wants_keyboard_input() && self.map.just_pressed(s, &self.keys)
    }

    /// The shortcut is held.
    pub fn held(&self, s: crate::app::keys::Shortcut) -> bool {
        !self.egui.wants_keyboard_input() && self.map.pressed(s, &self.keys)
    }
}

/// What the view remembers between frames (never game state).
#[derive(Resource, Default)]
pub struct ViewState {
    /// The rules' last refusal, in words.
    pub last_refusal: Option<crate::rules::Refusal>,
    /// The hex under the pointer.
    pub hover: Option<Hex>,
    /// The selected hex.
    pub selected: Option<Hex>,
    /// The hover was set by the keyboard's map cursor (kept until the pointer moves).
    pub keyboard_cursor: bool,
    /// Centre the camera on the selection next frame.
    pub centre_on_selection: bool,
    /// Scroll the side panel to this offset next frame (an input script asks).
    pub side_scroll: Option<f32>,
    /// The window area the panels leave to the map: x, y, width, height in logical pixels.
    pub map_rect: Option<[f32; 4]>,
}

/// Marks the mesh of a tile.
#[derive(Component)]
struct TileView;

/// Marks an army or outpost token (respawned when the state changes).
#[derive(Component)]
struct Token;

/// A white disc texture, tinted per camp: army tokens are sprites like the tiles, so the whole
/// map draws through one pipeline in a few batches (a mesh token needs a pipeline of its own,
/// which costs software renderers a lot per frame).
#[derive(Resource)]
struct TokenDisc(Handle<Image>);

/// The map labels' face: egui's Hack. Bevy's default face is an ASCII subset, so French
/// labels ("Porte scellée") lost their accented letters; egui's Ubuntu Light has them too, but
/// its thin strokes at 12 px all but vanished on bright terrain.
#[derive(Resource, Clone)]
struct MapFont(Handle<Font>);

fn load_map_font(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    let face = fonts.add(Font::from_bytes(
        epaint_default_fonts::HACK_REGULAR.to_vec(),
    ));
    commands.insert_resource(MapFont(face));
}

/// Replaces egui's shader with one that does its two sRGB conversions by close fits instead of
/// six `pow`s a fragment (`shaders/egui_fast.wgsl`): software renderers spend much of a frame
/// filling the panels.
fn use_fast_egui_shader(mut shaders: ResMut<Assets<bevy::shader::Shader>>) {
    let shader = bevy::shader::Shader::from_wgsl(
        include_str!("shaders/egui_fast.wgsl"),
        "chaos_outpost/egui_fast.wgsl",
    );
    if let Err(e) = shaders.insert(bevy_egui::render::EGUI_SHADER_HANDLE.id(), shader) {
        warn!("egui's own shader stays: {e}");
    }
}

fn make_token_disc(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    const N: u32 = 64;
    let c = (N as f32 - 1.0) / 2.0;
    let mut data = Vec::with_capacity((N * N * 4) as usize);
    for y in 0..N {
        for x in 0..N {
            let d = ((x as f32 - c).powi(2) + (y as f32 - c).powi(2)).sqrt();
            // One pixel of soft edge.
            let a = (N as f32 / 2.0 - d).clamp(0.0, 1.0);
            data.extend_from_slice(&[255, 255, 255, (a * 255.0) as u8]);
        }
    }
    let image = Image::new(
        Extent3d {
            width: N,
            height: N,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    commands.insert_resource(TokenDisc(images.add(image)));
}

/// The view of the map the player pans and zooms (`map_cache::MapRenderCamera` draws it).
#[derive(Component)]
pub struct MapCamera;

fn spawn_camera(mut commands: Commands) {
    // The view the player pans and zooms: it draws nothing (map_cache.rs draws the map into a
    // picture around it), but turns pointer positions into map positions.
    commands.spawn((
        MapCamera,
        Camera2d,
        Camera {
            is_active: false,
            ..default()
        },
        Msaa::Off,
        Transform::from_scale(Vec3::splat(1.0)),
    ));
    // The window's one camera: it copies the map's picture (map_cache.rs) where the panels
    // leave room, then egui draws over it; it sees no map entity (render layer 31).
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            ..default()
        },
        Msaa::Off,
        bevy::camera::visibility::RenderLayers::layer(31),
        bevy_egui::PrimaryEguiContext,
    ));
}

fn terrain_color(db: &ContentDb, t: &Tile) -> Color {
    let (r, g, b) = db
        .terrain(&t.terrain)
        .map(|t| t.color)
        .unwrap_or((128, 128, 128));
    Color::srgb_u8(r, g, b)
}

/// The art's hex: 128×148 pixels for a corner radius of 74, scaled to `HEX_SIZE`.
fn hex_sprite_size() -> Vec2 {
    Vec2::new(128.0, 148.0) * (HEX_SIZE / 74.0)
}

/// The decorations drawn on each tile (overlays and icons), so a changed tile redraws only its
/// own.
#[derive(Resource, Default)]
struct Decor {
    on: std::collections::HashMap<Hex, Vec<Entity>>,
}

/// What the map's drawing reads besides the game: the art, the settings (palette, interface
/// scale), the words, the labels' face and the content.
#[derive(SystemParam)]
struct MapLook<'w> {
    art: Res<'w, art::Art>,
    settings: Res<'w, crate::app::settings::Settings>,
    tr: Res<'w, crate::text::Translations>,
    face: Res<'w, MapFont>,
    content: Res<'w, Content>,
}

/// The meshes and materials of plain coloured hexes.
#[derive(SystemParam)]
struct HexAssets<'w> {
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
}

/// (Re)draws the map whenever a game starts or loads (a new `Board`): one textured hex per tile,
/// or a plain coloured hex for a terrain without art (a mod's).
fn spawn_map(
    mut commands: Commands,
    assets: HexAssets,
    tiles: Query<&Tile>,
    old: Query<Entity, With<TileView>>,
    mut decor: ResMut<Decor>,
    look: MapLook,
) {
    let HexAssets {
        mut meshes,
        mut materials,
    } = assets;
    let MapLook { content, art, .. } = look;
    for e in &old {
        commands.entity(e).despawn();
    }
    for (_, es) in decor.on.drain() {
        for e in es {
            commands.entity(e).despawn();
        }
    }
    let hex_mesh = meshes.add(RegularPolygon::new(HEX_SIZE - 1.0, 6));
    let size = hex_sprite_size();
    let l = layout();
    // One material per terrain, and each terrain at its own depth: the renderer sorts by depth,
    // so tiles of one texture come out together and draw in a few large batches instead of one
    // small batch per change of texture.
    let mut colour_of: std::collections::HashMap<String, Handle<ColorMaterial>> =
        Default::default();
    let depth = |id: &str| {
        content
            .set
            .terrains
            .iter()
            .position(|x| x.id == id)
            .map_or(0.0, |i| i as f32 * 0.001)
    };
    for t in &tiles {
        let p = l.hex_to_world_pos(t.hex);
        let at = Transform::from_xyz(p.x, p.y, depth(&t.terrain));
        match art.get(&format!("tiles/{}", t.terrain)) {
            Some(image) => {
                commands.spawn((
                    TileView,
                    Sprite {
                        image,
                        custom_size: Some(size),
                        ..default()
                    },
                    at,
                ));
            }
            None => {
                commands.spawn((
                    TileView,
                    Mesh2d(hex_mesh.clone()),
                    MeshMaterial2d(
                        colour_of
                            .entry(t.terrain.clone())
                            .or_insert_with(|| materials.add(terrain_color(&content, t)))
                            .clone(),
                    ),
                    at,
                ));
            }
        }
    }
}

/// A small icon sprite.
fn icon(image: Handle<Image>, size: f32, color: Color, at: Vec3) -> impl Bundle {
    (
        Sprite {
            image,
            custom_size: Some(Vec2::splat(size)),
            color,
            ..default()
        },
        Transform::from_translation(at),
    )
}

/// The dark copy under a map label, a pixel down and right: thin light text on sand or
/// grass (an orange "advance", a white outpost name) was barely readable without it.
fn label_shadow() -> bevy::sprite::Text2dShadow {
    bevy::sprite::Text2dShadow {
        offset: Vec2::new(1.0, -1.0),
        color: Color::srgba(0.05, 0.04, 0.08, 0.9),
    }
}

/// A map label's font: `base` points times the interface scale, so the labels on the map
/// follow the setting that scales the panels.
fn label_font(base: f32, settings: &crate::app::settings::Settings, face: &MapFont) -> TextFont {
    TextFont::from_font_size(base * chapter_map::label_scale(settings)).with_font(face.0.clone())
}

/// Redraws the decorations of changed tiles: corruption (hatched violet) and rifts (a glowing
/// crack), the improvement's icon with its time markers, an artifact token, resources lying
/// there. A new language or interface scale redraws every tile's (their labels change).
fn decorate_tiles(
    mut commands: Commands,
    tiles: Query<Ref<Tile>>,
    mut decor: ResMut<Decor>,
    look: MapLook,
    mut worded: Local<Option<(String, u32)>>,
) {
    let MapLook {
        art,
        settings,
        tr,
        face,
        ..
    } = look;
    let l = layout();
    let size = hex_sprite_size();
    let now = Some((tr.lang.clone(), (settings.ui_scale * 100.0) as u32));
    let all = *worded != now;
    *worded = now;
    for t in tiles.iter().filter(|t| all || t.is_changed()) {
        for e in decor.on.remove(&t.hex).unwrap_or_default() {
            commands.entity(e).despawn();
        }
        let p = l.hex_to_world_pos(t.hex);
        let mut mine = Vec::new();
        let overlay = if t.rift == Rift::Open {
            art.get("overlays/rift")
        } else if t.corrupted {
            art.get("overlays/corrupted")
        } else {
            None
        };
        if let Some(image) = overlay {
            let e = commands.spawn((
                Sprite {
                    image,
                    custom_size: Some(size),
                    ..default()
                },
                Transform::from_xyz(p.x, p.y, 0.2),
            ));
            mine.push(e.id());
        }
        if let Some(w) = &t.improvement
            && let Some(image) = art.icon("imp_", &w.id, "ui_time_marker")
        {
            let tint = if w.timer > 0 || w.inactive {
                Color::srgba(1.0, 1.0, 1.0, 0.45)
            } else {
                Color::srgb(1.0, 0.97, 0.85)
            };
            let at = Vec3::new(p.x - 9.0, p.y - 11.0, 0.5);
            mine.push(commands.spawn(icon(image, 15.0, tint, at)).id());
            if w.timer > 0 {
                let at = Transform::from_xyz(p.x - 9.0, p.y - 2.0, 0.6);
                let text = (
                    Text2d::new(tr.f("{} left", &[&w.timer])),
                    label_font(9.0, &settings, &face),
                    TextColor(Color::WHITE),
                    at,
                );
                mine.push(commands.spawn(text).id());
            }
        }
        if t.artifact
            && let Some(image) = art.get("icons/ui_artifact")
        {
            let at = Vec3::new(p.x + 10.0, p.y - 11.0, 0.5);
            let gold = Color::srgb_u8(250, 215, 110);
            mine.push(commands.spawn(icon(image, 14.0, gold, at)).id());
        }
        let lying = t.lying.total();
        if lying > 0 {
            let at = Transform::from_xyz(p.x, p.y + 17.0, 0.6);
            let text = (
                Text2d::new(format!("+{lying}")),
                label_font(9.0, &settings, &face),
                TextColor(Color::srgb_u8(255, 240, 190)),
                at,
            );
            mine.push(commands.spawn(text).id());
        }
        if !mine.is_empty() {
            decor.on.insert(t.hex, mine);
        }
    }
}

/// The outline of a tile the selected army reaches: with one action point (`near`) or more.
/// Colour-blind safe: Okabe–Ito yellow and sky blue instead of two greens that deuteranopia
/// merges with the grass (`tests/rules/colour.rs` measures it).
pub fn reach_colour(near: bool, palette: Palette) -> [u8; 3] {
    match (near, palette) {
        (true, Palette::Standard) => [140, 242, 140],
        (false, Palette::Standard) => [64, 153, 77],
        (true, Palette::ColorBlindSafe) => [240, 228, 66],
        (false, Palette::ColorBlindSafe) => [86, 180, 233],
    }
}

/// A camp's token colour. The colour-blind-safe palette uses the Okabe–Ito blue and orange,
/// which deuteranopia, protanopia and tritanopia all keep apart.
pub fn camp_color(camp: Camp, palette: Palette) -> Color {
    let [r, g, b] = camp_rgb(camp, palette);
    Color::srgb_u8(r, g, b)
}

/// `camp_color` as sRGB bytes.
pub fn camp_rgb(camp: Camp, palette: Palette) -> [u8; 3] {
    match (camp, palette) {
        (Camp::Eladrins, Palette::Standard) => [45, 120, 220],
        (Camp::Chaos, Palette::Standard) => [210, 40, 45],
        // Okabe–Ito blue and orange.
        (Camp::Eladrins, Palette::ColorBlindSafe) => [0, 114, 178],
        (Camp::Chaos, Palette::ColorBlindSafe) => [230, 159, 0],
    }
}

/// The armies and outposts, what changed among them since the last frame, and their tokens.
#[derive(SystemParam)]
struct Pieces<'w, 's> {
    armies: Query<'w, 's, &'static Army>,
    outposts: Query<'w, 's, &'static Outpost>,
    changed_a: Query<'w, 's, (), Changed<Army>>,
    changed_o: Query<'w, 's, (), Changed<Outpost>>,
    gone_a: RemovedComponents<'w, 's, Army>,
    gone_o: RemovedComponents<'w, 's, Outpost>,
    old: Query<'w, 's, Entity, With<Token>>,
}

/// Places the armies' and outposts' tokens again when any of them changed (or the words or
/// settings did): the camp's disc, the leading unit's icon, the count, action points, famine.
fn place_tokens(
    mut commands: Commands,
    pieces: Pieces,
    disc: Res<TokenDisc>,
    mut done_once: Local<bool>,
    look: MapLook,
) {
    let Pieces {
        armies,
        outposts,
        changed_a,
        changed_o,
        mut gone_a,
        mut gone_o,
        old,
    } = pieces;
    let MapLook {
        art,
        settings,
        tr,
        face,
        content,
    } = look;
    let gone = gone_a.read().count() + gone_o.read().count() > 0;
    if *done_once
        && changed_a.is_empty()
        && changed_o.is_empty()
        && !gone
        && !settings.is_changed()
        && !tr.is_changed()
    {
        return;
    }
    *done_once = true;
    for e in &old {
        commands.entity(e).despawn();
    }
    let l = layout();
    let dark = Color::srgba(0.05, 0.05, 0.08, 0.85);
    let gold = Color::srgb_u8(250, 215, 110);
    for o in &outposts {
        let p = l.hex_to_world_pos(o.hex);
        if let Some(image) = art.icon("ui_outpost_", &o.size, "ui_outpost") {
            commands.spawn((
                Token,
                icon(
                    image,
                    chapter_map::OUTPOST_ICON.0,
                    gold,
                    Vec3::new(p.x, p.y + chapter_map::OUTPOST_ICON.1, 1.0),
                ),
            ));
        }
        let label = chapter_map::outpost_label(&tr, o);
        commands.spawn((
            Token,
            Text2d::new(label),
            label_font(chapter_map::LABEL_PX, &settings, &face),
            TextColor(Color::WHITE),
            label_shadow(),
            Transform::from_xyz(p.x, p.y + chapter_map::OUTPOST_NAME_DY, 3.0),
        ));
    }
    for a in &armies {
        let p = l.hex_to_world_pos(a.hex) + Vec2::new(13.0, 11.0);
        // A dark rim under a disc of the camp's colour.
        let rim = Vec3::new(p.x, p.y, 2.0);
        commands.spawn((Token, icon(disc.0.clone(), 23.0, dark, rim)));
        let camp = camp_color(a.camp, settings.palette);
        let top = Vec3::new(p.x, p.y, 2.1);
        commands.spawn((Token, icon(disc.0.clone(), 20.0, camp, top)));
        // The army's strongest unit stands for it.
        let lead = a.units.iter().max_by_key(|u| {
            content
                .unit(&u.kind)
                .map(|t| (t.military, t.hp as u32 * t.attack.dice as u32))
                .unwrap_or_default()
        });
        if let Some(image) = lead.and_then(|u| art.icon("unit_", &u.kind, "ui_sword")) {
            commands.spawn((
                Token,
                icon(image, 15.0, Color::WHITE, Vec3::new(p.x, p.y, 2.2)),
            ));
        }
        commands.spawn((
            Token,
            Text2d::new(a.units.len().to_string()),
            label_font(10.0, &settings, &face),
            TextColor(Color::WHITE),
            Transform::from_xyz(p.x + 10.0, p.y - 9.0, 3.0),
        ));
        // Action points left (R9.4): one pip per point of its freshest unit, above the token;
        // a spent army shows none.
        if a.camp == Camp::Eladrins {
            let ap = a.units.iter().map(|u| u.ap).max().unwrap_or(0);
            let pip = Color::srgb_u8(255, 245, 200);
            for i in 0..ap.min(4) {
                let x = p.x - (ap.min(4) as f32 - 1.0) * 3.5 + i as f32 * 7.0;
                let at = Vec3::new(x, p.y + 15.0, 2.3);
                commands.spawn((Token, icon(disc.0.clone(), 5.0, pip, at)));
            }
        }
        if a.famine > 0
            && let Some(image) = art.get("icons/ui_famine")
        {
            let at = Vec3::new(p.x - 12.0, p.y - 8.0, 2.3);
            let red = Color::srgb_u8(255, 90, 90);
            commands.spawn((Token, icon(image, 11.0, red, at)));
            commands.spawn((
                Token,
                Text2d::new(a.famine.to_string()),
                label_font(9.0, &settings, &face),
                TextColor(red),
                Transform::from_xyz(p.x - 12.0, p.y - 17.0, 3.0),
            ));
        }
    }
}

fn read_refusals(mut refused: MessageReader<ActionRefused>, mut view: ResMut<ViewState>) {
    for r in refused.read() {
        view.last_refusal = Some(r.reason.clone());
    }
}

/// Outlines the selected tile and the tiles the selected army can reach (1 point bright green,
/// more points darker), and the hovered tile.
fn draw_highlights(
    mut gizmos: Gizmos,
    view: Res<ViewState>,
    sheets: Res<cache::SheetCache>,
    hovered: Res<cache::HoverCache>,
    settings: Res<crate::app::settings::Settings>,
    mut redraw: ResMut<map_cache::MapRedraw>,
) {
    // The lines below follow from these alone; the map is drawn again when they change.
    redraw.note_lines((
        &sheets.reach,
        &hovered.path,
        view.selected,
        view.hover,
        settings.palette,
    ));
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
    for (h, cost) in &sheets.reach {
        let [r, g, b] = reach_colour(*cost <= 1, settings.palette);
        gizmos.linestrip_2d(ring(*h, HEX_SIZE - 4.0), Color::srgb_u8(r, g, b));
    }
    // The path preview: from the army's tile through each step to the hovered tile.
    if hovered.path.len() > 1 {
        let [r, g, b] = reach_colour(true, settings.palette);
        let points: Vec<Vec2> = hovered
            .path
            .iter()
            .map(|h| l.hex_to_world_pos(*h))
            .collect();
        gizmos.linestrip_2d(points, Color::srgb_u8(r, g, b));
        if let Some(end) = hovered.path.last() {
            gizmos.circle_2d(l.hex_to_world_pos(*end), 5.0, Color::srgb_u8(r, g, b));
        }
    }
    if let Some(h) = view.selected {
        gizmos.linestrip_2d(ring(h, HEX_SIZE - 1.5), Color::srgb(1.0, 0.9, 0.2));
        gizmos.linestrip_2d(ring(h, HEX_SIZE - 2.5), Color::srgb(1.0, 0.9, 0.2));
    }
    if let Some(h) = view.hover {
        gizmos.linestrip_2d(ring(h, HEX_SIZE - 1.0), Color::srgba(1.0, 1.0, 1.0, 0.5));
    }
}

/// Outposts changed or gone since the last frame, and the board (a new game).
#[derive(SystemParam)]
struct OutpostNews<'w, 's> {
    changed: Query<'w, 's, (), Changed<Outpost>>,
    gone: RemovedComponents<'w, 's, Outpost>,
    board: Res<'w, crate::rules::Board>,
}

/// The zones' edges worked out last (with their digest): from, to, and whether the edge is the
/// control zone's.
type ZoneEdges = (Option<u64>, Vec<(Vec2, Vec2, bool)>);

/// The outposts' zones as outlines on the map: the control zone (R9.1) in the outposts' gold,
/// the influence zone (R3.3, R5.1, R9.2) fainter. The edges are worked out again only when an
/// outpost changes (it grows, builds a beacon, falls); each frame just draws them.
fn outline_zones(
    mut gizmos: Gizmos,
    outposts: Query<&Outpost>,
    news: OutpostNews,
    content: Res<Content>,
    mut cached: Local<ZoneEdges>,
    mut redraw: ResMut<map_cache::MapRedraw>,
) {
    let OutpostNews {
        changed,
        mut gone,
        board,
    } = news;
    let stale =
        cached.0.is_none() || !changed.is_empty() || gone.read().count() > 0 || board.is_changed();
    if stale {
        let edges = &mut cached.1;
        edges.clear();
        let l = layout();
        let mut ops: Vec<&Outpost> = outposts.iter().collect();
        ops.sort_by_key(|o| o.id);
        for o in ops {
            for (radius, control) in [
                (o.control(&content.0), true),
                (o.influence(&content.0), false),
            ] {
                let zone: std::collections::HashSet<Hex> =
                    board.within(o.hex, radius).into_iter().collect();
                for h in &zone {
                    let c = l.hex_to_world_pos(*h);
                    let corner = |i: i32| {
                        let a = (30.0 + 60.0 * i as f32).to_radians();
                        c + Vec2::new(a.cos(), a.sin()) * (HEX_SIZE - 0.5)
                    };
                    // Edge i joins corners i and i+1; across it lies the neighbour at 60(i+1)°.
                    for i in 0..6 {
                        let across = input::neighbour_towards(*h, 60.0 * (i + 1) as f32);
                        if !zone.contains(&across) {
                            edges.push((corner(i), corner(i + 1), control));
                        }
                    }
                }
            }
        }
    }
    // The edges' digest, worked out with them: an outpost changed in a way that leaves its
    // zones as they were (its stock) draws the map no more than a still frame.
    if stale {
        let bits: Vec<(u32, u32, u32, u32, bool)> = cached
            .1
            .iter()
            .map(|(a, b, c)| {
                (
                    a.x.to_bits(),
                    a.y.to_bits(),
                    b.x.to_bits(),
                    b.y.to_bits(),
                    *c,
                )
            })
            .collect();
        let mut h = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(&bits, &mut h);
        cached.0 = Some(std::hash::Hasher::finish(&h));
    }
    redraw.note_lines(cached.0);
    let gold = Color::srgba_u8(250, 215, 110, 230);
    let faint = Color::srgba_u8(250, 215, 110, 110);
    for (a, b, control) in &cached.1 {
        gizmos.line_2d(*a, *b, if *control { gold } else { faint });
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

/// How the window starts.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// Level id.
    pub level: String,
    /// Game seed.
    pub seed: u64,
    /// Save a screenshot here after `frames` frames, then quit.
    pub screenshot: Option<PathBuf>,
    /// Frames before the screenshot.
    pub frames: u32,
    /// Hot-seat players' names.
    pub players: Vec<String>,
    /// Open on the main menu.
    pub open_menu: bool,
    /// Mod folders given with `--mod`.
    pub cli_mods: Vec<PathBuf>,
    /// Scripted input, and the folder it writes into.
    pub script: Option<(script::UiScript, PathBuf)>,
    /// Log frame times into this file for this many frames, then quit.
    pub frame_log: Option<(PathBuf, u32)>,
    /// Draw frames back to back, unpaced (frame measurements).
    pub unpaced: bool,
    /// Pan the map camera every frame (frame measurements of a moving map).
    pub pan: bool,
    /// Draw the map every frame (frame measurements of a map that keeps changing).
    pub redraw: bool,
    /// Open the chapter's board from the start (frame measurements with it).
    pub board: bool,
    /// Draw the interface every frame (frame measurements of one that keeps changing).
    pub draw_ui: bool,
    /// Never rest: update every frame as Bevy's games do (to compare with a window at rest).
    pub busy: bool,
}

/// Opens the window.
pub fn run(content: Arc<ContentDb>, launch: Launch) -> Result<(), String> {
    let Launch {
        level,
        seed,
        screenshot,
        frames,
        players,
        open_menu,
        cli_mods,
        script,
        frame_log,
        unpaced,
        pan,
        redraw,
        board,
        draw_ui,
        busy,
    } = launch;
    let level = level.as_str();
    let players = players.as_slice();
    let chapters = content.chapters.clone();
    let mut app = App::new();
    // A window opened off the main thread (a test program runs the window inside one of its
    // tests, with a chapter of its own) asks winit to allow it: Linux and Windows do.
    let any_thread = std::thread::current().name() != Some("main");
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(frames::window("Chaos Outpost", unpaced)),
                ..default()
            })
            .set(bevy::winit::WinitPlugin {
                run_on_any_thread: any_thread,
            }),
    )
    .add_plugins(EguiPlugin::default())
    // egui draws through the window's camera (spawn_camera), not the map's (map_cache.rs).
    .insert_resource(bevy_egui::EguiGlobalSettings {
        auto_create_primary_context: false,
        ..default()
    })
    // A screenshot or a frame log after so many frames counts frames: it never rests.
    .insert_resource(frames::update_mode(
        unpaced,
        busy || screenshot.is_some() || frame_log.is_some(),
    ))
    .insert_resource(Content(content))
    .insert_resource(crate::app::hot_reload::CliMods(cli_mods))
    .add_plugins(GamePlugin { chapters });
    crate::rules::setup::start_game_for(app.world_mut(), level, None, seed, players)?;
    if open_menu {
        app.insert_state(screens::Screen::Menu);
    }
    if let Some((path, n)) = frame_log {
        // The game as played, not its intro window: measured with the intro read.
        app.insert_resource(frames::FrameLog::new(path, n, &format!("game ({level})")))
            .add_systems(Update, frames::intro_read)
            .add_systems(Last, frames::log_frames);
        frames::measure_parts(&mut app);
    }
    app.world_mut().resource_mut::<table::TableView>().open = board;
    app.world_mut()
        .resource_mut::<frame_cache::FrameCache>()
        .off = draw_ui;
    if pan {
        app.add_systems(Update, frames::pan_camera::<MapCamera>);
    }
    app.world_mut()
        .resource_mut::<map_cache::MapRedraw>()
        .every_frame = redraw;
    if let Some((s, out)) = script {
        app.insert_resource(script::ScriptRun::new(s, out));
    }
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
