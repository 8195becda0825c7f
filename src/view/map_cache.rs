//! The map is drawn into an image that the window shows as one picture, and drawn again only in
//! frames where something on it changed: the camera moved or zoomed, a tile, token or label was
//! added, moved, restyled or removed, an image it uses changed, or the highlights and zone
//! outlines (gizmos, drawn anew each frame) came out different. A strategy map sits still most
//! of the time; redrawing 400 textured hexes every frame was most of the window's cost on a
//! software renderer.
//!
//! The map camera renders into `MapImage` instead of the window. The window's own camera (the
//! egui one) copies that image into its frame where the panels leave room
//! (`ViewState::map_rect`), texel for texel, before egui draws: a copy, not a textured pass, so
//! a still map costs a frame almost nothing. The pointer's window position is turned into the
//! map camera's by `map_origin`.

use std::hash::{Hash, Hasher};

use bevy::asset::RenderAssetUsages;
use bevy::camera::{CameraMainTextureUsages, ImageRenderTarget, RenderTarget};
use bevy::core_pipeline::{Core2d, Core2dSystems};
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy::render::extract_resource::{ExtractResource, ExtractResourcePlugin};
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{
    Extent3d, Origin3d, TexelCopyTextureInfo, TextureAspect, TextureFormat, TextureUsages,
};
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::texture::GpuImage;
use bevy::render::view::ViewTarget;
use bevy::text::TextLayoutInfo;

use super::{MapCamera, ViewState};

/// Frames drawn after the last change: an image or text added this frame reaches the GPU a
/// frame or two later, and the picture must not keep the frame it was missing from.
const SETTLE_FRAMES: u8 = 3;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapRedraw>()
        .init_resource::<MapCopy>()
        .add_plugins((
            ExtractComponentPlugin::<WindowCamera>::default(),
            ExtractResourcePlugin::<MapCopy>::default(),
        ))
        .add_systems(Startup, aim_map_camera_at_image.after(super::spawn_camera))
        .add_systems(Update, fit_map_image)
        // Last: every change of the frame is in, transforms and text layouts included.
        .add_systems(Last, redraw_map_when_changed);
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        // After the window camera's main pass has cleared its frame, before egui draws on it.
        render_app.add_systems(
            Core2d,
            copy_map_into_window
                .after(Core2dSystems::MainPass)
                .before(bevy_egui::render::egui_pass),
        );
    }
}

/// Marks the camera that draws into the window: the map's picture is copied into its frame.
#[derive(Component, Clone, ExtractComponent)]
pub struct WindowCamera;

/// Where the map's picture goes in the window's frame, in physical pixels (extracted for the
/// render world each frame).
#[derive(Resource, Clone, Default, ExtractResource)]
pub struct MapCopy {
    image: Option<AssetId<Image>>,
    at: UVec2,
}

/// The image the map is drawn into, and its size in physical pixels.
#[derive(Resource)]
pub struct MapImage {
    /// The render target.
    pub handle: Handle<Image>,
    size: UVec2,
}

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
    /// Draws the map in the next frames whether or not anything changed.
    pub fn redraw_now(&mut self) {
        self.settle = SETTLE_FRAMES;
    }

    /// Mixes what a gizmo system drew this frame into the frame's digest. The mix is a sum, so
    /// systems that run in either order (in parallel) make the same digest.
    pub fn note_lines(&mut self, what: impl Hash) {
        let mut h = std::hash::DefaultHasher::new();
        what.hash(&mut h);
        self.lines = self.lines.wrapping_add(h.finish());
    }
}

/// The top-left corner of the map's picture in the window, in logical pixels: window positions
/// minus this are the map camera's viewport positions.
pub fn map_origin(view: &ViewState) -> Vec2 {
    view.map_rect
        .map_or(Vec2::ZERO, |[x, y, _, _]| Vec2::new(x, y))
}

/// A render-target image of `size` physical pixels, in the window frame's format so it can be
/// copied into it.
fn target_image(size: UVec2) -> Image {
    let mut image = Image::new_target_texture(
        size.x.max(1),
        size.y.max(1),
        TextureFormat::Rgba8UnormSrgb,
        None,
    );
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    image.asset_usage = RenderAssetUsages::RENDER_WORLD;
    image
}

/// Points the map camera at a fresh image, and lets the window camera's frame take a copy.
fn aim_map_camera_at_image(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    cams: Query<Entity, With<MapCamera>>,
    window_cams: Query<Entity, (With<Camera>, Without<MapCamera>)>,
    mut copy: ResMut<MapCopy>,
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
    for cam in &window_cams {
        commands.entity(cam).insert((
            WindowCamera,
            CameraMainTextureUsages::default().with(TextureUsages::COPY_DST),
        ));
    }
    copy.image = Some(handle.id());
    commands.insert_resource(MapImage { handle, size });
}

/// Sizes the map's image to the part of the window the panels leave free, and says where its
/// copy goes.
fn fit_map_image(
    view: Res<ViewState>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut map: ResMut<MapImage>,
    mut images: ResMut<Assets<Image>>,
    mut cams: Query<&mut RenderTarget, With<MapCamera>>,
    mut copy: ResMut<MapCopy>,
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
    if copy.at != pos {
        copy.at = pos;
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
    let any = lines_changed
        || removed > 0
        || images > 0
        || materials > 0
        || clear.is_changed()
        || !changed.is_empty();
    if any {
        redraw.settle = SETTLE_FRAMES;
        debug!(
            "map redrawn: lines {lines_changed}, removed {removed}, image events {images}, \
             material events {materials}, changed entities {}",
            changed.iter().count()
        );
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

/// Copies the map's picture into the window camera's frame (render world, once per view; only
/// the window camera's). Both are the same format; the copy is clipped to both sizes.
pub fn copy_map_into_window(
    view: ViewQuery<(&ViewTarget, Has<WindowCamera>)>,
    copy: Res<MapCopy>,
    images: Res<RenderAssets<GpuImage>>,
    mut ctx: RenderContext,
) {
    let (target, is_window) = view.into_inner();
    if !is_window {
        return;
    }
    let Some(picture) = copy.image.and_then(|id| images.get(id)) else {
        return;
    };
    let frame = target.main_texture();
    let (src, dst) = (picture.texture.size(), frame.size());
    if picture.texture.format() != frame.format() {
        // Bevy's frames are Rgba8UnormSrgb without HDR; a camera made HDR would need a draw
        // instead of a copy.
        warn_once!(
            "the map's picture ({:?}) can't be copied into a {:?} frame",
            picture.texture.format(),
            frame.format()
        );
        return;
    }
    let size = Extent3d {
        width: src.width.min(dst.width.saturating_sub(copy.at.x)),
        height: src.height.min(dst.height.saturating_sub(copy.at.y)),
        depth_or_array_layers: 1,
    };
    if size.width == 0 || size.height == 0 {
        return;
    }
    ctx.command_encoder().copy_texture_to_texture(
        picture.texture.as_image_copy(),
        TexelCopyTextureInfo {
            texture: frame,
            mip_level: 0,
            origin: Origin3d {
                x: copy.at.x,
                y: copy.at.y,
                z: 0,
            },
            aspect: TextureAspect::All,
        },
        size,
    );
}
