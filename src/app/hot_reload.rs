//! The content in the window: `assets/content/*.ron` are read through Bevy's asset server with
//! this loader and reloaded when a file changes (Bevy's file watcher); the enabled mods' folders
//! (which lie outside `assets/`) are looked at once a second. Either change rebuilds the content
//! through `mods::load`, as the CLI and the tests do. A broken base edit is reported
//! (file:line:col) and the last good content stays; a broken mod is disabled and reported in the
//! mod checker. A change the game in progress can't take (an entry removed) waits for a new
//! game. Without an `assets/` folder the embedded content is the base.

use std::sync::Arc;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;

use std::path::PathBuf;

use crate::content::mods::{self, MAX_MOD_FILES, ModReport, ModSource, ModStatus};
use crate::content::{
    CONTENT_FILES, Content, ContentDb, MAX_FILE_BYTES, Problem, SourceFile, embedded_files,
};
use crate::ground::paths::asset_root;

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

/// The mods the window knows: found in the mod folders or given with `--mod`, the last load's
/// report (the mod checker shows it) and what hot reload did.
#[derive(Resource, Default)]
pub struct ModLibrary {
    /// Mod folders given on the command line: always on.
    pub cli: Vec<PathBuf>,
    /// Every mod found whose manifest reads, sorted by folder: read as far as its manifest
    /// (the enabled ones are read whole when the content is built).
    pub found: Vec<ModSource>,
    /// Mod folders that could not be read, with why.
    pub unreadable: Vec<ModStatus>,
    /// The last load's report: each enabled mod, loaded or disabled with its problems.
    pub report: ModReport,
    /// Warnings on the base content.
    pub base_warnings: Vec<Problem>,
    /// What the last reloads did, newest last (at most 20).
    pub notes: Vec<String>,
    /// Content waiting for a new game: its change can't apply to the game in progress.
    pub pending: Option<Arc<ContentDb>>,
    /// Set to rescan the mod folders and reload.
    pub rescan: bool,
    /// Files of the enabled mods: (path, modified, length), to notice a save.
    stamp: u64,
    /// The folders `stamp` covers.
    stamp_dirs: Vec<PathBuf>,
    /// The enabled list last loaded.
    enabled_seen: Option<Vec<String>>,
    last_poll: f32,
}

impl ModLibrary {
    fn note(&mut self, n: String) {
        info!("{n}");
        if self.notes.last() == Some(&n) {
            return;
        }
        self.notes.push(n);
        let excess = self.notes.len().saturating_sub(20);
        self.notes.drain(..excess);
    }
    /// The plain-text checker report (copied by the checker's button).
    pub fn report_text(&self) -> String {
        let mut r = self.report.clone();
        r.mods.extend(self.unreadable.iter().cloned());
        let mut text = r.text();
        for p in &self.base_warnings {
            text.push_str(&format!("  base: {p}\n"));
        }
        text
    }
}

/// Mod folders given with `--mod`, for the window.
#[derive(Resource, Default, Clone)]
pub struct CliMods(pub Vec<PathBuf>);

/// Registers the loader, loads the content files, watches enabled mods and reloads on change.
pub fn plugin(app: &mut App) {
    app.init_asset::<RonFile>()
        .init_asset_loader::<RonFileLoader>()
        .init_resource::<ContentHandles>()
        .init_resource::<ModLibrary>()
        .init_resource::<CliMods>()
        .init_resource::<super::settings::Settings>()
        .init_resource::<crate::text::Translations>()
        .add_systems(Startup, (load_content_files, start_library))
        .add_systems(Update, (watch_mods, reload_content).chain());
}

fn start_library(mut lib: ResMut<ModLibrary>, cli: Res<CliMods>) {
    lib.cli = cli.0.clone();
    lib.rescan = true;
}

/// A stamp of the files in the enabled mods' folders (paths, times and sizes).
fn stamp_of(dirs: &[PathBuf]) -> u64 {
    let mut text = String::new();
    for d in dirs {
        for sub in [d.clone(), d.join("content"), d.join("levels")] {
            let Ok(rd) = std::fs::read_dir(&sub) else {
                continue;
            };
            let mut entries: Vec<(PathBuf, u128, u64)> = rd
                .filter_map(|e| e.ok())
                .take(MAX_MOD_FILES)
                .filter_map(|e| {
                    let m = e.metadata().ok()?;
                    let t = m
                        .modified()
                        .ok()?
                        .duration_since(std::time::UNIX_EPOCH)
                        .ok()?
                        .as_nanos();
                    Some((e.path(), t, m.len()))
                })
                .collect();
            entries.sort();
            for (p, t, l) in entries {
                text.push_str(&format!("{}|{t}|{l}\n", p.display()));
            }
        }
    }
    crate::ground::hash::fnv1a(text.as_bytes())
}

/// Once a second, looks whether a file of an enabled mod changed on disk.
fn watch_mods(
    mut lib: ResMut<ModLibrary>,
    settings: Res<super::settings::Settings>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    if now - lib.last_poll < 1.0 {
        return;
    }
    lib.last_poll = now;
    let dirs: Vec<PathBuf> = mods::choose(&lib.found, &settings.mods, &[])
        .into_iter()
        .map(|m| m.dir)
        .chain(lib.cli.iter().cloned())
        .collect();
    let stamp = stamp_of(&dirs);
    // A new set of folders (a mod enabled) reloads through the settings; only a file saved in
    // the same folders is a hot reload.
    if stamp != lib.stamp {
        if lib.stamp != 0 && dirs == lib.stamp_dirs {
            lib.rescan = true;
            lib.note("a mod file changed on disk: reloading".into());
        }
        lib.stamp = stamp;
        lib.stamp_dirs = dirs;
    }
}

fn load_content_files(server: Res<AssetServer>, mut handles: ResMut<ContentHandles>) {
    // Without content on disk the embedded content is the game's; asking would only log errors.
    let Some(root) = asset_root().filter(|r| r.join("content/rules.ron").is_file()) else {
        return;
    };
    // Only the files there are: an optional catalogue (tracks.ron) may be absent.
    for name in CONTENT_FILES
        .into_iter()
        .filter(|n| root.join("content").join(n).is_file())
    {
        handles
            .0
            .push((name, server.load(format!("content/{name}"))));
    }
}

/// Rebuilds the content (base files, from disk where present, then the enabled mods) when a
/// base file finished (re)loading, a mod file changed, or the enabled mods changed. A broken
/// base edit keeps the last good content; a broken mod is disabled and reported.
#[allow(clippy::too_many_arguments)]
fn reload_content(
    mut events: MessageReader<AssetEvent<RonFile>>,
    files: Res<Assets<RonFile>>,
    handles: Res<ContentHandles>,
    mut content: ResMut<Content>,
    mut lib: ResMut<ModLibrary>,
    settings: Res<super::settings::Settings>,
    cycle: Option<Res<crate::rules::Cycle>>,
    outcome: Option<Res<crate::rules::Outcome>>,
    mut translations: ResMut<crate::text::Translations>,
) {
    let base_changed = events.read().any(|e| {
        matches!(
            e,
            AssetEvent::Modified { .. } | AssetEvent::LoadedWithDependencies { .. }
        )
    });
    // Only the mod list matters here, not a volume slider.
    let mods_changed = lib.enabled_seen.as_ref() != Some(&settings.mods);
    lib.enabled_seen = Some(settings.mods.clone());
    if !(base_changed || mods_changed || lib.rescan) {
        return;
    }
    if lib.rescan {
        let (found, bad) = mods::found(&lib.cli);
        lib.found = found;
        lib.unreadable = bad;
        lib.rescan = false;
    }
    // Disk files override their embedded twins; levels stay embedded.
    let mut set: Vec<SourceFile> = embedded_files();
    for (name, h) in &handles.0 {
        if let Some(f) = files.get(h) {
            let path = format!("assets/content/{name}");
            set.retain(|s| s.path != path);
            set.push(SourceFile {
                path,
                text: f.text.clone(),
            });
        }
    }
    let cli: Vec<ModSource> = lib
        .found
        .iter()
        .filter(|m| lib.cli.contains(&m.dir))
        .cloned()
        .collect();
    // Only the enabled mods are read past their manifests, afresh (a file saved since).
    let dirs: Vec<PathBuf> = mods::choose(&lib.found, &settings.mods, &cli)
        .into_iter()
        .map(|m| m.dir)
        .collect();
    let (chosen, unreadable) = mods::read_all(&dirs);
    match mods::load(set, &chosen, &content.chapters) {
        Ok((mut db, mut report)) => {
            report.mods.extend(unreadable);
            // The level the window was opened on from a file (`play --level my.ron`) is not
            // among the embedded ones: add it again, or the game would lose its level.
            for p in db.add_disk_levels_of(&content) {
                lib.note(format!(
                    "level file not reloaded, the last good one stays: {p}"
                ));
            }
            lib.base_warnings = db
                .warnings
                .iter()
                .filter(|p| p.mod_id.is_empty() || p.mod_id == "base")
                .cloned()
                .collect();
            for m in &report.mods {
                if !m.loaded {
                    lib.note(format!(
                        "mod `{}` is disabled: {} problem(s), see the mod checker",
                        m.id,
                        m.problems.len()
                    ));
                }
            }
            // The loaded mods' translation tables (a broken one is reported and skipped).
            let mut tables = Vec::new();
            for m in &chosen {
                let loaded = report
                    .mods
                    .iter()
                    .any(|st| st.loaded && mods::manifest_id(m).as_deref() == Some(st.id.as_str()));
                if !loaded {
                    continue;
                }
                for f in &m.translations {
                    match crate::text::parse_table(f) {
                        Ok(t) => tables.push((crate::text::language_of(f), t)),
                        Err(p) => lib.note(format!("translation skipped: {p}")),
                    }
                }
            }
            // Rebuilt on the next frame for the current language.
            translations.mods = tables;
            translations.lang.clear();
            lib.report = report;
            if db.set == content.set && db.levels == content.levels {
                return;
            }
            let (reasons, unsafe_live) = mods::live_change(&content, &db);
            let in_game =
                cycle.is_some_and(|c| c.number > 0) && outcome.is_some_and(|o| o.winner.is_none());
            if unsafe_live && in_game {
                lib.pending = Some(Arc::new(db));
                lib.note(
                    "content changed; the game in progress keeps the old content, a new game \
                     uses the new one"
                        .into(),
                );
            } else {
                content.0 = Arc::new(db);
                lib.pending = None;
                lib.note("content reloaded: stats, costs and texts apply now".into());
            }
            for r in reasons {
                lib.note(r);
            }
        }
        Err(problems) => {
            for p in problems {
                lib.note(format!("content not reloaded: {p}"));
            }
        }
    }
}

/// Puts content waiting for a new game in place (the menu calls it before starting one).
pub fn apply_pending(world: &mut World) {
    if let Some(db) = world.resource_mut::<ModLibrary>().pending.take() {
        world.resource_mut::<Content>().0 = db;
    }
}
