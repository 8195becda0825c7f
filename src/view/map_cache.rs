//! The map is drawn into an image that the window shows as one picture, and drawn again only in
//! frames where something on it changed: the view left the scroll margin or zoomed, a tile,
//! token or label was added, moved, restyled or removed, an image it uses changed, or the
//! highlights and zone outlines (gizmos, drawn anew each frame) came out different. A strategy map sits still most
//! of the time; redrawing 400 textured hexes every frame was most of the window's cost on a
//! software renderer.
//!
//! Two map cameras: `MapCamera` is the view the player pans and zooms, narrowed to the part of the
//! window the panels leave free (`ViewState::map_rect`); it draws nothing itself. The
//! `MapRenderCamera` draws the map into `MapImage`, which is larger than the view by `MARGIN`
//! pixels on each side, around an anchor where the view last was. The window's own camera (the
//! egui one) copies the view's part of that image into its frame, texel for texel, before egui
//! draws: a copy, not a textured pass. Panning within the margin moves the copy and draws
//! nothing; the map is drawn again when the view leaves the margin or zooms.

use std::hash::{Hash, Hasher};

use bevy::asset::RenderAssetUsages;
use bevy::camera::{
    CameraMainTextureUsages, ImageRenderTarget, RenderTarget, ScalingMode, SubCameraView, Viewport,
};
use bevy::core_pipeline::{Core2d, Core2dSystems};
use bevy::ecs::system::SystemParam;
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

/// Physical pixels the map's image reaches past the view on each side: how far the view pans
/// before the map is drawn again.
pub const MARGIN: u32 = 128;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapRedraw>()
        .init_resource::<MapCopy>()
        .add_plugins((
            ExtractComponentPlugin::<WindowCamera>::default(),
            ExtractResourcePlugin::<MapCopy>::default(),
        ))
        .add_systems(Startup, spawn_map_render_camera.after(super::spawn_camera))
        .add_systems(Update, fit_map_image.in_set(super::screens::ViewSet::Draw))
        // Before transforms, cameras and visibility are worked out: a camera off while Bevy
        // decides what each view sees would draw no sprite at all, so the decision to draw
        // comes first. Changes made later in a frame (text layouts) are seen the next one.
        .add_systems(
            PostUpdate,
            (follow_view, redraw_map_when_changed)
                .chain()
                .before(bevy::transform::TransformSystems::Propagate)
                .before(bevy::camera::CameraUpdateSystems)
                .before(bevy::camera::visibility::VisibilitySystems::CheckVisibility),
        );
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

/// Marks the camera that draws the map into `MapImage`.
#[derive(Component)]
pub struct MapRenderCamera;

/// What of the map's picture goes where in the window's frame, in physical pixels (extracted
/// for the render world each frame).
#[derive(Resource, Clone, Default, PartialEq, ExtractResource)]
pub struct MapCopy {
    image: Option<AssetId<Image>>,
    /// The corner of the view's part in the image.
    from: UVec2,
    /// The view's size.
    size: UVec2,
    /// Where it goes in the window.
    at: UVec2,
    /// Not this frame: the window shows its last frame again (`frame_cache`).
    pub skip: bool,
}

/// The image the map is drawn into: the view's size plus the margins, in physical pixels.
#[derive(Resource)]
pub struct MapImage {
    /// The render target.
    pub handle: Handle<Image>,
    size: UVec2,
    /// The window's scale factor (physical pixels a logical one).
    scale_factor: f32,
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
    /// The view moved out of the margin or zoomed this frame: drawn around a new anchor.
    moved: bool,
    /// Where the map was last drawn around (world units, on the pixel grid) and at what zoom.
    anchor: Option<(Vec2, f32)>,
    /// The whole picture, margins included, is as fresh as the view's part: false after a
    /// frame that drew only the view's part, which was then at `partial_from`.
    margins_fresh: bool,
    partial_from: UVec2,
    /// Where the view stood in the picture last frame: it pans while this changes.
    last_from: Option<UVec2>,
    /// Draw the map every frame, as while tokens move (`framebench --redraw`: the cost of a
    /// map that keeps changing).
    pub every_frame: bool,
    /// The map is drawn this frame.
    pub drawing: bool,
    /// Frames in which the map was drawn, and frames in all (figures for `framebench`).
    pub drawn: u64,
    /// Frames seen.
    pub frames: u64,
}

impl MapRedraw {
    /// Draws the map afresh around the view, whether or not anything changed.
    pub fn redraw_now(&mut self) {
        self.settle = SETTLE_FRAMES;
        self.anchor = None;
    }

    /// Mixes what a gizmo system drew this frame into the frame's digest. The mix is a sum, so
    /// systems that run in either order (in parallel) make the same digest.
    pub fn note_lines(&mut self, what: impl Hash) {
        let mut h = std::hash::DefaultHasher::new();
        what.hash(&mut h);
        self.lines = self.lines.wrapping_add(h.finish());
    }
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

/// Spawns the camera that draws the map into a fresh image, and lets the window camera's frame
/// take copies of it.
fn spawn_map_render_camera(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    window_cams: Query<Entity, With<bevy_egui::PrimaryEguiContext>>,
    mut copy: ResMut<MapCopy>,
) {
    let size = UVec2::new(1280, 720) + UVec2::splat(2 * MARGIN);
    let handle = images.add(target_image(size));
    for cam in &window_cams {
        commands.entity(cam).insert((
            WindowCamera,
            // Copied into (the map, a kept frame) and out of (`frame_cache` keeps it).
            CameraMainTextureUsages::default()
                .with(TextureUsages::COPY_DST | TextureUsages::COPY_SRC),
        ));
    }
    // No multisampling: the map is axis-aligned sprites whose edges are in their textures, so
    // 4× MSAA would only multiply what a software renderer fills and resolves.
    commands.spawn((
        MapRenderCamera,
        Camera2d,
        Camera {
            order: -1,
            ..default()
        },
        Msaa::Off,
        RenderTarget::Image(ImageRenderTarget {
            handle: handle.clone(),
            scale_factor: 1.0,
        }),
        // The whole picture's area (`fit_map_image` keeps it so).
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::Fixed {
                width: size.x as f32,
                height: size.y as f32,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
    copy.image = Some(handle.id());
    commands.insert_resource(MapImage {
        handle,
        size,
        scale_factor: 1.0,
    });
}

/// Narrows the view to the part of the window the panels leave free, sizes the map's image to
/// it plus the margins, and says where the copy goes.
fn fit_map_image(
    view: Res<ViewState>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut map: ResMut<MapImage>,
    mut images: ResMut<Assets<Image>>,
    mut view_cams: Query<&mut Camera, With<MapCamera>>,
    mut render_cams: Query<(&mut RenderTarget, &mut Projection), With<MapRenderCamera>>,
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
    // The view camera's viewport: pointer positions in the window turn into map positions
    // through it. Written only when it changes: a camera marked changed redoes its view work.
    for mut cam in &mut view_cams {
        let same = cam
            .viewport
            .as_ref()
            .is_some_and(|v| v.physical_position == pos && v.physical_size == size);
        if !same {
            cam.viewport = Some(bevy::camera::Viewport {
                physical_position: pos,
                physical_size: size,
                ..default()
            });
        }
    }
    let full = size + UVec2::splat(2 * MARGIN);
    if full == map.size && s == map.scale_factor {
        // Nothing to resize.
    } else {
        if let Some(mut image) = images.get_mut(&map.handle) {
            image.resize(Extent3d {
                width: full.x,
                height: full.y,
                depth_or_array_layers: 1,
            });
        }
        map.size = full;
        map.scale_factor = s;
        for (mut target, mut projection) in &mut render_cams {
            let handle = target.as_image().cloned();
            if let Some(handle) = handle {
                *target = RenderTarget::Image(ImageRenderTarget {
                    handle,
                    scale_factor: s,
                });
            }
            // The projection covers the whole picture whatever part of it is drawn (a fixed
            // area, not the viewport's), so a draw of the view's part alone lands exactly where
            // a whole draw would put it.
            if let Projection::Orthographic(o) = &mut *projection {
                o.scaling_mode = ScalingMode::Fixed {
                    width: full.x as f32 / s,
                    height: full.y as f32 / s,
                };
            }
        }
    }
    if copy.at != pos || copy.size != size {
        copy.at = pos;
        copy.size = size;
    }
}

/// Keeps the map's picture around the view: when the view has panned past the margin, zoomed,
/// or nothing was drawn yet, the render camera moves to the view (on the pixel grid) and the
/// map is drawn again; otherwise the copy just starts where the view now is in the picture.
#[allow(clippy::type_complexity)]
pub fn follow_view(
    view_cams: Query<(&Transform, &Projection), With<MapCamera>>,
    mut render_cams: Query<
        (&mut Transform, &mut Projection),
        (With<MapRenderCamera>, Without<MapCamera>),
    >,
    map: Option<Res<MapImage>>,
    mut redraw: ResMut<MapRedraw>,
    mut copy: ResMut<MapCopy>,
) {
    let Ok((view_at, view_projection)) = view_cams.single() else {
        return;
    };
    let Projection::Orthographic(view_ortho) = view_projection else {
        return;
    };
    let s = map.as_ref().map_or(1.0, |m| m.scale_factor);
    // World units per physical pixel.
    let unit = view_ortho.scale / s;
    let at = view_at.translation.truncate();
    let off = |anchor: Vec2| (at - anchor) / unit;
    let margin = MARGIN as f32 - 1.0;
    // Whole pixels: the picture moves in steps of one, the view in fractions.
    let from_for = |anchor: Vec2| {
        let o = off(anchor).round();
        UVec2::new(
            (MARGIN as f32 + o.x).clamp(0.0, 2.0 * MARGIN as f32) as u32,
            (MARGIN as f32 - o.y).clamp(0.0, 2.0 * MARGIN as f32) as u32,
        )
    };
    // The picture serves while the view stays within the margin at the same zoom, and the
    // margins hold what they should (after a draw of the view's part alone, only that part).
    let stay = redraw.anchor.is_some_and(|(anchor, scale)| {
        let o = off(anchor);
        scale == view_ortho.scale
            && o.x.abs() <= margin
            && o.y.abs() <= margin
            && (redraw.margins_fresh || from_for(anchor) == redraw.partial_from)
    });
    if !stay {
        let anchor = (at / unit).round() * unit;
        redraw.anchor = Some((anchor, view_ortho.scale));
        redraw.moved = true;
        // Before propagation and the cameras' update: this frame draws from here.
        for (mut t, _) in &mut render_cams {
            t.translation = anchor.extend(view_at.translation.z);
        }
    }
    for (_, mut p) in &mut render_cams {
        if let Projection::Orthographic(o) = &mut *p
            && o.scale != view_ortho.scale
        {
            o.scale = view_ortho.scale;
        }
    }
    if let Some((anchor, _)) = redraw.anchor {
        let from = from_for(anchor);
        if copy.from != from {
            copy.from = from;
        }
    }
}

/// Anything drawn on the map that changed since the last frame.
type MapChanges = Or<(
    Changed<Transform>,
    Changed<Sprite>,
    Changed<Visibility>,
    Changed<InheritedVisibility>,
    Changed<Text2d>,
    Changed<TextColor>,
    Changed<TextLayoutInfo>,
    Changed<Mesh2d>,
    Changed<MeshMaterial2d<ColorMaterial>>,
)>;

/// What was taken off the map or changed among its assets since the last frame.
#[derive(SystemParam)]
pub struct MapNews<'w, 's> {
    changed: Query<'w, 's, (), (MapChanges, Without<MapCamera>, Without<MapRenderCamera>)>,
    gone_sprites: RemovedComponents<'w, 's, Sprite>,
    gone_texts: RemovedComponents<'w, 's, Text2d>,
    gone_meshes: RemovedComponents<'w, 's, Mesh2d>,
    image_events: MessageReader<'w, 's, AssetEvent<Image>>,
    material_events: MessageReader<'w, 's, AssetEvent<ColorMaterial>>,
    clear: Res<'w, ClearColor>,
}

/// Turns the render camera on for this frame only if the map's picture would differ from the
/// last one drawn (the view cameras' own moves are `follow_view`'s business).
pub fn redraw_map_when_changed(
    news: MapNews,
    map: Option<Res<MapImage>>,
    copy: Res<MapCopy>,
    mut redraw: ResMut<MapRedraw>,
    mut cams: Query<&mut Camera, With<MapRenderCamera>>,
) {
    let MapNews {
        changed,
        mut gone_sprites,
        mut gone_texts,
        mut gone_meshes,
        mut image_events,
        mut material_events,
        clear,
    } = news;
    let moved = std::mem::take(&mut redraw.moved);
    let lines_changed = redraw.lines != redraw.last_lines;
    redraw.last_lines = std::mem::take(&mut redraw.lines);
    // Every reader is drained, whatever the answer, so old news never counts twice.
    let removed =
        gone_sprites.read().count() + gone_texts.read().count() + gone_meshes.read().count();
    let images = image_events.read().count();
    let materials = material_events.read().count();
    let content =
        removed > 0 || images > 0 || materials > 0 || clear.is_changed() || !changed.is_empty();
    if content {
        redraw.settle = SETTLE_FRAMES;
        debug!(
            "map redrawn: lines {lines_changed}, removed {removed}, image events {images}, \
             material events {materials}, changed entities {}",
            changed.iter().count()
        );
    } else if moved || lines_changed {
        // Only the view or the lines: nothing is waiting to reach the GPU, one frame draws it.
        redraw.settle = redraw.settle.max(1);
        debug!("map redrawn: view moved {moved}, lines {lines_changed}");
    }
    if redraw.every_frame {
        redraw.settle = redraw.settle.max(1);
    }
    let draw = redraw.settle > 0;
    redraw.drawing = draw;
    redraw.settle = redraw.settle.saturating_sub(1);
    redraw.frames += 1;
    if draw {
        redraw.drawn += 1;
    }
    // While the view pans within the margin (the keys held, the pointer still on the map: the
    // hovered tile changes every few frames), a change draws the whole picture too: the view's
    // part alone would leave the margins stale, and the next frame of the pan would draw it all
    // again, two draws a change instead of one.
    let panning = redraw
        .last_from
        .replace(copy.from)
        .is_some_and(|f| f != copy.from);
    let whole = moved || panning;
    // Around a new anchor, or panning, the whole picture is drawn; otherwise only the view's
    // part (a third of the pixels), and the margins are stale until the next whole draw.
    let part = (draw && !whole).then(|| SubCameraView {
        full_size: map.as_ref().map_or(copy.size, |m| m.size),
        offset: copy.from.as_vec2(),
        size: copy.size,
    });
    if draw {
        redraw.margins_fresh = whole;
        redraw.partial_from = copy.from;
    }
    for mut cam in &mut cams {
        // Written only when they change: a camera marked changed redoes its view work.
        if cam.is_active != draw {
            cam.is_active = draw;
        }
        if draw {
            let viewport = part.map(|p| Viewport {
                physical_position: copy.from,
                physical_size: p.size,
                ..default()
            });
            if cam.sub_camera_view != part {
                cam.sub_camera_view = part;
            }
            if cam
                .viewport
                .as_ref()
                .map(|v| (v.physical_position, v.physical_size))
                != viewport
                    .as_ref()
                    .map(|v| (v.physical_position, v.physical_size))
            {
                cam.viewport = viewport;
            }
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
    // A frame shown again (`frame_cache`) takes the whole kept picture instead.
    if !is_window || copy.skip {
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
        width: copy
            .size
            .x
            .min(src.width.saturating_sub(copy.from.x))
            .min(dst.width.saturating_sub(copy.at.x)),
        height: copy
            .size
            .y
            .min(src.height.saturating_sub(copy.from.y))
            .min(dst.height.saturating_sub(copy.at.y)),
        depth_or_array_layers: 1,
    };
    if size.width == 0 || size.height == 0 {
        return;
    }
    ctx.command_encoder().copy_texture_to_texture(
        TexelCopyTextureInfo {
            texture: &picture.texture,
            mip_level: 0,
            origin: Origin3d {
                x: copy.from.x,
                y: copy.from.y,
                z: 0,
            },
            aspect: TextureAspect::All,
        },
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
