//! The art: hex tile textures, overlays (corruption, rifts) and icons (units, buildings,
//! improvements, resources, interface), made by `tools/art/gen_art.sh`. They are embedded in the
//! binary by `build.rs`, so the game finds them from any working directory, and decoded once at
//! start-up into Bevy images. A terrain or unit a mod adds without art falls back to a plain
//! coloured hex or a generic icon.

use std::collections::HashMap;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

/// The embedded media files: `MEDIA: &[(path under assets/, bytes)]`.
mod media {
    include!(concat!(env!("OUT_DIR"), "/media.rs"));
}

/// The embedded sound files, by path under `assets/` (`audio/sfx/dice.ogg`).
pub fn sound_bytes(path: &str) -> Option<&'static [u8]> {
    media::MEDIA
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, b)| *b)
}

/// Decoded images by key: the path under `assets/art/` without `.png` (`tiles/plains`,
/// `icons/unit_ranger`, `overlays/corrupted`).
#[derive(Resource, Default)]
pub struct Art {
    images: HashMap<String, Handle<Image>>,
    /// The icons again with premultiplied alpha, as egui draws them.
    egui_icons: HashMap<String, Handle<Image>>,
}

impl Art {
    /// The image with this key, if there is one.
    pub fn get(&self, key: &str) -> Option<Handle<Image>> {
        self.images.get(key).cloned()
    }
    /// The icon for `id` with `prefix` (`unit_`, `bld_`, `imp_`, `res_`, `ui_`), or `fallback`.
    pub fn icon(&self, prefix: &str, id: &str, fallback: &str) -> Option<Handle<Image>> {
        self.get(&format!("icons/{prefix}{id}"))
            .or_else(|| self.get(&format!("icons/{fallback}")))
    }
    /// Every icon for egui (premultiplied alpha): (key under `icons/`, image).
    pub fn icons(&self) -> impl Iterator<Item = (&str, &Handle<Image>)> {
        self.egui_icons.iter().map(|(k, h)| (k.as_str(), h))
    }
    /// How many images were decoded.
    pub fn len(&self) -> usize {
        self.images.len()
    }
    /// No images at all.
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_systems(PreStartup, decode_art);
}

/// Decodes every embedded PNG. A broken file is logged and skipped: its fallback is drawn.
fn decode_art(mut art: ResMut<Art>, mut images: ResMut<Assets<Image>>) {
    for (path, bytes) in media::MEDIA {
        let Some(key) = path
            .strip_prefix("art/")
            .and_then(|p| p.strip_suffix(".png"))
        else {
            continue;
        };
        match Image::from_buffer(
            bytes,
            ImageType::Extension("png"),
            CompressedImageFormats::NONE,
            true,
            ImageSampler::linear(),
            RenderAssetUsages::RENDER_WORLD,
        ) {
            Ok(img) => {
                // egui blends premultiplied colours: a white icon on transparent pixels would
                // draw as a white square.
                if let Some(icon) = key.strip_prefix("icons/") {
                    let mut pre = img.clone();
                    if let Some(data) = pre.data.as_mut() {
                        for px in data.chunks_exact_mut(4) {
                            let a = u16::from(px[3]);
                            for c in &mut px[..3] {
                                *c = (u16::from(*c) * a / 255) as u8;
                            }
                        }
                    }
                    art.egui_icons.insert(icon.to_string(), images.add(pre));
                }
                art.images.insert(key.to_string(), images.add(img));
            }
            Err(e) => warn!("art {path}: {e}"),
        }
    }
    info!("{} images decoded", art.len());
}
