//! The map is drawn into an image that the window shows as one picture, and drawn again only in
//! frames where something on it changed: the camera moved or zoomed, a tile, token or label was
//! added, moved, restyled or removed, an image it uses changed, or the highlights and zone
//! outlines (gizmos, drawn anew each frame) came out different. A strategy map sits still most
//! of the time; redrawing 400 textured hexes every frame was most of the window's cost on a
//! software renderer.
//!
//! The map camera renders into `MapImage` instead of the window; the egui camera, the only one
//! that draws into the window, shows that image as a sprite (render layer 31) where the panels
//! leave room (`ViewState::map_rect`). The pointer's window position is turned into the map
//! camera's by `map_origin`.

use std::hash::{Hash, Hasher};

use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{ImageRenderTarget, RenderTarget};
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureFormat, TextureUsages};
use bevy::text::TextLayoutInfo;

use super::{MapCamera, ViewState};

/// Frames drawn after the last change: an image or text added this frame reaches the GPU a
/// frame or two later, and the picture must not keep the frame it was missing from.
const SETTLE_FRAMES: u8 = 3;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapRedraw>()
        .add_systems(Startup, aim_map_camera_at_image.after(super::spawn_camera))
        .add_systems(Update, fit_map_image)
        // Last: every change of the frame is in, transforms and text layouts included.
        .add_systems(Last, redraw_map_when_changed);
}

/// The image the map is drawn into, and its size in physical pixels.
#[derive(Resource)]
pub struct MapImage {
    /// The render target.
    pub handle: Handle<Image>,
    size: UVec2,
}

/// Marks the sprite that shows the map's image in the window.
#[derive(Component)]
pub struct MapPicture;

/// What decides whether the map is drawn this frame, and how often it was.
#[derive(Resource, Default)]
pub struct MapRedraw {
    /// A digest of the lines the gizmo systems drew this frame (`note_lines`); the map is drawn
    /// again when it differs from last frame's.
    lines: u64,
    last_lines: u64,
    /// Frames still to draw after the last change.
    settle: u8,
    /// Frames in which the map was drawn, and frames in all (figures for `framebench`).
    pub drawn: u64,
    /// Frames seen.
    pub frames: u64,
}

impl MapRedraw {
    /// Mixes what a gizmo system drew this frame into the frame's digest.
    pub fn note_lines(&mut self, what: impl Hash) {
        let mut h = std::hash::DefaultHasher::new();
        self.lines.hash(&mut h);
        what.hash(&mut h);
        self.lines = h.finish();
    }
}

/// The top-left corner of the map's picture in the window, in logical pixels: window positions
/// minus this are the map camera's viewport positions.
pub fn map_origin(view: &ViewState) -> Vec2 {
    view.map_rect
        .map_or(Vec2::ZERO, |[x, y, _, _]| Vec2::new(x, y))
}

/// A render-target image of `size` physical pixels, read back without filtering (it is shown
/// pixel for pixel).
fn target_image(size: UVec2) -> Image {
    let mut image = Image::new_target_texture(
        size.x.max(1),
        size.y.max(1),
        TextureFormat::Rgba8UnormSrgb,
        None,
    );
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    image.asset_usage = RenderAssetUsages::RENDER_WORLD;
    image.sampler = ImageSampler::nearest();
    image
}

/// Points the map camera at a fresh image and puts the picture that shows it in the window.
fn aim_map_camera_at_image(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    cams: Query<Entity, With<MapCamera>>,
) {
    let size = UVec2::new(1280, 720);
    let handle = images.add(target_image(size));
    for cam in &cams {
        commands
            .entity(cam)
            .insert(RenderTarget::Image(ImageRenderTarget {
                handle: handle.clone(),
                scale_factor: 1.0,
            }));
    }
    commands.spawn((
        MapPicture,
        Sprite {
            image: handle.clone(),
            custom_size: Some(size.as_vec2()),
            ..default()
        },
        Transform::default(),
        RenderLayers::layer(31),
    ));
    commands.insert_resource(MapImage { handle, size });
}

/// Sizes the map's image to the part of the window the panels leave free, and puts its picture
/// there (the egui camera looks at the window's centre, one unit a logical pixel).
#[allow(clippy::type_complexity)]
fn fit_map_image(
    view: Res<ViewState>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut map: ResMut<MapImage>,
    mut images: ResMut<Assets<Image>>,
    mut cams: Query<&mut RenderTarget, With<MapCamera>>,
    mut picture: Query<(&mut Sprite, &mut Transform), With<MapPicture>>,
) {
    let Ok(w) = windows.single() else {
        return;
    };
    let s = w.scale_factor();
    let window = UVec2::new(w.physical_width(), w.physical_height());
    let [x, y, wd, ht] = view.map_rect.unwrap_or([0.0, 0.0, w.width(), w.height()]);
    let pos = UVec2::new((x * s).max(0.0) as u32, (y * s).max(0.0) as u32);
    let size = UVec2::new((wd * s) as u32, (ht * s) as u32)
        .min(window.saturating_sub(pos))
        .max(UVec2::ONE);
    if size != map.size
        && let Some(mut image) = images.get_mut(&map.handle)
    {
        image.resize(Extent3d {
            width: size.x,
            height: size.y,
            depth_or_array_layers: 1,
        });
        map.size = size;
    }
    for mut target in &mut cams {
        if let RenderTarget::Image(t) = &*target
            && t.scale_factor != s
        {
            let handle = t.handle.clone();
            *target = RenderTarget::Image(ImageRenderTarget {
                handle,
                scale_factor: s,
            });
        }
    }
    // Whole physical pixels, so the picture lands pixel for pixel on the window's.
    let logical = size.as_vec2() / s;
    let centre = pos.as_vec2() / s + logical / 2.0;
    let at = Vec3::new(
        centre.x - window.x as f32 / s / 2.0,
        window.y as f32 / s / 2.0 - centre.y,
        0.0,
    );
    for (mut sprite, mut t) in &mut picture {
        if sprite.custom_size != Some(logical) {
            sprite.custom_size = Some(logical);
        }
        if t.translation != at {
            t.translation = at;
        }
    }
}

/// Turns the map camera on for this frame only if the map's picture would differ from the last
/// one drawn.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn redraw_map_when_changed(
    changed: Query<
        (),
        (
            Or<(
                Changed<GlobalTransform>,
                Changed<Sprite>,
                Changed<Visibility>,
                Changed<InheritedVisibility>,
                Changed<Text2d>,
                Changed<TextColor>,
                Changed<TextLayoutInfo>,
                Changed<Mesh2d>,
                Changed<MeshMaterial2d<ColorMaterial>>,
                Changed<Projection>,
                Changed<RenderTarget>,
            )>,
            Without<MapPicture>,
        ),
    >,
    mut gone_sprites: RemovedComponents<Sprite>,
    mut gone_texts: RemovedComponents<Text2d>,
    mut gone_meshes: RemovedComponents<Mesh2d>,
    mut image_events: MessageReader<AssetEvent<Image>>,
    mut material_events: MessageReader<AssetEvent<ColorMaterial>>,
    clear: Res<ClearColor>,
    mut redraw: ResMut<MapRedraw>,
    mut cams: Query<&mut Camera, With<MapCamera>>,
) {
    let lines_changed = redraw.lines != redraw.last_lines;
    redraw.last_lines = std::mem::take(&mut redraw.lines);
    // Every reader is drained, whatever the answer, so old news never counts twice.
    let removed =
        gone_sprites.read().count() + gone_texts.read().count() + gone_meshes.read().count();
    let images = image_events.read().count();
    let materials = material_events.read().count();
    let changed = lines_changed
        || removed > 0
        || images > 0
        || materials > 0
        || clear.is_changed()
        || !changed.is_empty();
    if changed {
        redraw.settle = SETTLE_FRAMES;
    }
    let draw = redraw.settle > 0;
    redraw.settle = redraw.settle.saturating_sub(1);
    redraw.frames += 1;
    if draw {
        redraw.drawn += 1;
    }
    for mut cam in &mut cams {
        // Written only when it flips: a camera marked changed redoes its view work.
        if cam.is_active != draw {
            cam.is_active = draw;
        }
    }
}
