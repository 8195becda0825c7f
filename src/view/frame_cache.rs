//! The window's last frame kept and shown again while nothing on it changed. A board game's
//! window sits still most of the time: the map is already drawn once into a picture
//! (`map_cache`), but the interface (side panel, bars, a chapter's board) was laid out,
//! tessellated and filled again every frame, and on a software renderer filling it was most of
//! a frame's cost (a chapter's board over the map nearly doubled it).
//!
//! After egui has tessellated a frame, its triangles are compared with the last frame drawn.
//! When they are the same, no texture of egui changed, and the map was neither drawn nor moved,
//! the frame is the last one again: egui draws nothing, and the window camera's frame takes a
//! copy of the kept picture (a texel copy, not a textured pass). Otherwise the frame is drawn as
//! always, and the last one drawn before it is shown again is kept (once a change, not once a
//! frame). A hover, an animation, a card that counts down, a new state: each changes the
//! triangles, so each is drawn at once. An image egui shows (an icon) that loads or is reloaded
//! without changing the triangles is an image event, which `map_cache` counts as a change and
//! draws the map for: that frame is drawn too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::asset::RenderAssetUsages;
use bevy::core_pipeline::Core2d;
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::extract_resource::{ExtractResource, ExtractResourcePlugin};
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{
    Extent3d, Origin3d, TexelCopyTextureInfo, TextureAspect, TextureFormat, TextureUsages,
};
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::texture::GpuImage;
use bevy::render::view::ViewTarget;
use bevy_egui::egui::epaint::{ClippedPrimitive, Primitive};
use bevy_egui::{EguiPostUpdateSet, EguiRenderOutput, PrimaryEguiContext};

use super::map_cache::{self, MapCopy, MapRedraw, WindowCamera};

/// Frames drawn after a change before the kept picture is trusted: a texture egui uploads or a
/// map drawn this frame may reach the frame a frame later. The last of them is kept.
const SETTLE_FRAMES: u8 = 2;

/// Frames drawn after a new picture (the window opened or resized): the renderer compiles its
/// pipelines in the background at first, and egui draws nothing until its own is ready.
const FIRST_FRAMES: u8 = 30;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameCache>()
        .init_resource::<FrameReuse>()
        .add_plugins(ExtractResourcePlugin::<FrameReuse>::default())
        .add_systems(
            PostUpdate,
            // Between egui's tessellation and its texture upload (which empties the delta
            // read here), after the map's decision to draw.
            decide
                .after(EguiPostUpdateSet::ProcessOutput)
                .before(EguiPostUpdateSet::PostProcessOutput)
                .after(map_cache::redraw_map_when_changed),
        );
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        // The kept picture goes in where the map's copy would, before egui draws (nothing, in
        // such a frame); a drawn frame is kept once egui has drawn on it, before it is shown.
        render_app.add_systems(
            Core2d,
            (
                restore_frame
                    .after(map_cache::copy_map_into_window)
                    .before(bevy_egui::render::egui_pass),
                keep_frame
                    .after(bevy_egui::render::egui_pass)
                    .before(bevy::core_pipeline::upscaling::upscaling),
            ),
        );
    }
}

/// What the main world knows of the kept frame.
#[derive(Resource, Default)]
pub struct FrameCache {
    /// The picture, in the window frame's size and format.
    image: Option<(Handle<Image>, UVec2)>,
    /// The triangles of the last frame drawn.
    last: Vec<ClippedPrimitive>,
    /// The map's copy in the last frame drawn.
    last_copy: Option<MapCopy>,
    /// Frames still to draw after the last change.
    settle: u8,
    /// Set by the render world when a frame was kept, cleared when keeping failed: only a
    /// picture that holds a frame is shown again.
    kept: Arc<AtomicBool>,
    /// Shown again by default; off, every frame is drawn (`framebench --draw-ui`: the cost
    /// of the interface when it changes every frame).
    pub off: bool,
    /// Frames drawn, and frames in all (figures for `framebench`).
    pub drawn: u64,
    /// Frames seen.
    pub frames: u64,
    /// This frame showed the last one again: nothing changed, the window may rest (`rest`).
    pub resting: bool,
}

/// This frame's decision, for the render world.
#[derive(Resource, Clone, Default, ExtractResource)]
pub struct FrameReuse {
    /// The kept picture.
    image: Option<AssetId<Image>>,
    /// Show the kept picture instead of drawing.
    again: bool,
    /// Keep what this frame draws: the last frame drawn before the picture is shown again.
    keep: bool,
    /// Whether keeping worked (`FrameCache::kept`).
    kept: Arc<AtomicBool>,
}

/// Whether two frames' triangles are the same (a paint callback never is: what it draws is
/// not in the triangles).
fn same(a: &[ClippedPrimitive], b: &[ClippedPrimitive]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.clip_rect == y.clip_rect
                && match (&x.primitive, &y.primitive) {
                    (Primitive::Mesh(m), Primitive::Mesh(n)) => m == n,
                    _ => false,
                }
        })
}

/// A picture the window frame can be copied into and out of.
fn picture(size: UVec2) -> Image {
    let mut image = Image::new_target_texture(
        size.x.max(1),
        size.y.max(1),
        TextureFormat::Rgba8UnormSrgb,
        None,
    );
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC | TextureUsages::COPY_DST;
    image.asset_usage = RenderAssetUsages::RENDER_WORLD;
    image
}

/// Decides, once egui has tessellated the frame, whether it is the last one again.
pub(super) fn decide(
    mut cache: ResMut<FrameCache>,
    mut reuse: ResMut<FrameReuse>,
    mut images: ResMut<Assets<Image>>,
    redraw: Res<MapRedraw>,
    mut copy: ResMut<MapCopy>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut outputs: Query<&mut EguiRenderOutput, With<PrimaryEguiContext>>,
) {
    let Ok(w) = windows.single() else {
        return;
    };
    let Ok(mut out) = outputs.single_mut() else {
        return;
    };
    cache.frames += 1;
    cache.resting = false;
    let size = UVec2::new(w.physical_width(), w.physical_height());
    // A new window size: a new picture.
    if cache.image.as_ref().is_none_or(|(_, s)| *s != size) {
        let handle = images.add(picture(size));
        cache.image = Some((handle, size));
        cache.settle = FIRST_FRAMES;
        cache.kept.store(false, Ordering::Relaxed);
    }
    let image = cache.image.as_ref().map(|(h, _)| h.id());
    if cache.off {
        cache.drawn += 1;
        if copy.skip {
            copy.skip = false;
        }
        *reuse = FrameReuse {
            image,
            again: false,
            keep: false,
            kept: cache.kept.clone(),
        };
        return;
    }
    let mut now = copy.clone();
    now.skip = false;
    let changed = !out.textures_delta.is_empty()
        || redraw.drawing
        || cache.last_copy.as_ref() != Some(&now)
        || !same(&out.paint_jobs, &cache.last);
    if changed {
        cache.settle = cache.settle.max(SETTLE_FRAMES);
        cache.last = out.paint_jobs.clone();
        cache.last_copy = Some(now);
    }
    let again = cache.settle == 0 && cache.kept.load(Ordering::Relaxed);
    cache.settle = cache.settle.saturating_sub(1);
    // One copy a change, not one a frame: the last frame drawn before it is shown again.
    let keep = !again && cache.settle == 0;
    // Written only when it changes: the map's copy is extracted when changed.
    if copy.skip != again {
        copy.skip = again;
    }
    cache.resting = again;
    if again {
        // Nothing for egui to draw nor map to copy: the kept picture is the frame.
        out.paint_jobs.clear();
    } else {
        cache.drawn += 1;
    }
    *reuse = FrameReuse {
        image,
        again,
        keep,
        kept: cache.kept.clone(),
    };
}

/// The texture copy of a whole frame between the window camera's frame and the kept picture.
fn copy_whole(
    ctx: &mut RenderContext,
    from: &bevy::render::render_resource::Texture,
    to: &bevy::render::render_resource::Texture,
) -> bool {
    let (a, b) = (from.size(), to.size());
    if from.format() != to.format() || a.width != b.width || a.height != b.height {
        // Bevy's frames are Rgba8UnormSrgb without HDR, as the picture; a camera made HDR
        // would need a draw instead of a copy.
        warn_once!(
            "the window's frame ({:?}, {}x{}) can't be kept in a {:?} {}x{} picture",
            from.format(),
            a.width,
            a.height,
            to.format(),
            b.width,
            b.height
        );
        return false;
    }
    let at = |texture| TexelCopyTextureInfo {
        texture,
        mip_level: 0,
        origin: Origin3d::ZERO,
        aspect: TextureAspect::All,
    };
    ctx.command_encoder().copy_texture_to_texture(
        at(from),
        at(to),
        Extent3d {
            width: a.width,
            height: a.height,
            depth_or_array_layers: 1,
        },
    );
    true
}

/// A frame shown again: the kept picture into the window camera's frame.
fn restore_frame(
    view: ViewQuery<(&ViewTarget, Has<WindowCamera>)>,
    reuse: Res<FrameReuse>,
    images: Res<RenderAssets<GpuImage>>,
    mut ctx: RenderContext,
) {
    let (target, is_window) = view.into_inner();
    if !is_window || !reuse.again {
        return;
    }
    let Some(kept) = reuse.image.and_then(|id| images.get(id)) else {
        return;
    };
    copy_whole(&mut ctx, &kept.texture, target.main_texture());
}

/// A frame drawn: kept for the frames that show it again.
fn keep_frame(
    view: ViewQuery<(&ViewTarget, Has<WindowCamera>)>,
    reuse: Res<FrameReuse>,
    images: Res<RenderAssets<GpuImage>>,
    mut ctx: RenderContext,
) {
    let (target, is_window) = view.into_inner();
    if !is_window || !reuse.keep {
        return;
    }
    // A picture not on the GPU yet keeps nothing: the frames go on being drawn.
    let done = reuse
        .image
        .and_then(|id| images.get(id))
        .is_some_and(|kept| copy_whole(&mut ctx, target.main_texture(), &kept.texture));
    reuse.kept.store(done, Ordering::Relaxed);
}
