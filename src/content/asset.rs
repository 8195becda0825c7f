//! The content as Bevy assets: in the window, `assets/content/*.ron` are read through Bevy's
//! asset server with this loader, checked by the same `ContentDb::from_files` as the CLI and the
//! tests, and reloaded when a file changes on disk (Bevy's file watcher). A broken edit is
//! reported (file:line:col) and the game keeps the last good content. Without an `assets/`
//! folder (the binary run from elsewhere) the embedded content stays in use.

use std::sync::Arc;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;

use super::{CONTENT_FILES, Content, ContentDb, MAX_FILE_BYTES, SourceFile, embedded_files};

/// One RON file's text, as loaded by the asset server.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct RonFile {
    /// The text.
    pub text: String,
}

/// Loads `.ron` files as text (parsing and checks happen on the whole set, see `reload_content`).
#[derive(Default, TypePath)]
pub struct RonFileLoader;

impl AssetLoader for RonFileLoader {
    type Asset = RonFile;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _ctx: &mut LoadContext<'_>,
    ) -> Result<RonFile, Self::Error> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(std::io::Error::other(format!(
                "larger than the {MAX_FILE_BYTES}-byte limit"
            )));
        }
        let text = String::from_utf8(bytes).map_err(std::io::Error::other)?;
        Ok(RonFile { text })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Handles of the content files being watched.
#[derive(Resource, Default)]
struct ContentHandles(Vec<(&'static str, Handle<RonFile>)>);

/// Registers the loader, loads the content files and reloads them on change.
pub fn plugin(app: &mut App) {
    app.init_asset::<RonFile>()
        .init_asset_loader::<RonFileLoader>()
        .init_resource::<ContentHandles>()
        .add_systems(Startup, load_content_files)
        .add_systems(Update, reload_content);
}

/// The folder Bevy reads assets from, found the way Bevy finds it: `BEVY_ASSET_ROOT`, else the
/// crate folder under `cargo run`, else the executable's folder.
pub fn asset_root() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("BEVY_ASSET_ROOT")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|p| p.parent().map(|d| d.to_path_buf()))
        })?;
    Some(base.join("assets"))
}

fn load_content_files(server: Res<AssetServer>, mut handles: ResMut<ContentHandles>) {
    // Without content on disk the embedded content is the game's; asking would only log errors.
    if !asset_root().is_some_and(|r| r.join("content/rules.ron").is_file()) {
        return;
    }
    for name in CONTENT_FILES {
        handles
            .0
            .push((name, server.load(format!("content/{name}"))));
    }
}

/// Rebuilds the content when a file finished (re)loading; keeps the old one on any error.
fn reload_content(
    mut events: MessageReader<AssetEvent<RonFile>>,
    files: Res<Assets<RonFile>>,
    handles: Res<ContentHandles>,
    mut content: ResMut<Content>,
) {
    let changed = events.read().any(|e| {
        matches!(
            e,
            AssetEvent::Modified { .. } | AssetEvent::LoadedWithDependencies { .. }
        )
    });
    if !changed {
        return;
    }
    // Disk files override their embedded twins; levels stay embedded.
    let mut set: Vec<SourceFile> = embedded_files();
    let mut from_disk = 0;
    for (name, h) in &handles.0 {
        if let Some(f) = files.get(h) {
            from_disk += 1;
            let path = format!("assets/content/{name}");
            set.retain(|s| s.path != path);
            set.push(SourceFile {
                path,
                text: f.text.clone(),
            });
        }
    }
    if from_disk == 0 {
        return;
    }
    match ContentDb::from_files(set) {
        Ok(db) => {
            if db.set != content.set {
                info!("content reloaded from disk ({from_disk} files)");
                content.0 = Arc::new(db);
            }
        }
        Err(problems) => {
            for p in problems {
                warn!("content not reloaded: {p}");
            }
        }
    }
}
