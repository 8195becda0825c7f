//! Mods: folders with a `mod.ron` manifest (id, name, version, game version range, dependencies,
//! conflicts, load order) and RON files that add or patch content:
//!
//! ```text
//! mods/highland_guard/
//!   mod.ron              the manifest
//!   content/units.ron    ( add: [...], patch: {"ranger": (hp: 3)}, remove: [...] )
//!   levels/pass.ron      a new level
//!   scenarios/*.ron      scenario tests (`chaos-outpost test-scenario`)
//!   i18n/fr.ron          translations of the mod's names and texts
//! ```
//!
//! Mods are found in `mods/` beside the game, in the user's data directory, or given with
//! `--mod PATH`. A mod that is not enabled is read no further than its manifest (`discover`,
//! `found`); `read_mod` reads an enabled one whole. `load` applies the base game, then each mod
//! in dependency order, through the same merge (`merge::Build`). A mod with any error is
//! disabled, with the reasons, and the game goes on with the others; a campaign a mod breaks is
//! the only thing left out of it. Nothing a mod contains can crash the loader or reach outside
//! its folder.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::merge::{closest, mod_catalogs};
use super::*;

/// This game's version, matched against a mod's `game` range.
pub const GAME_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Most files one mod may hold.
pub const MAX_MOD_FILES: usize = 500;
/// Most bytes one mod may hold, all files together.
pub const MAX_MOD_BYTES: u64 = 32 * 1024 * 1024;
/// Most mods looked at in one folder.
pub const MAX_MODS: usize = 200;
/// Most bytes a mod's `mod.ron` may hold: a manifest is a few lines, and it is all that is read
/// of a mod that is not enabled.
pub const MAX_MANIFEST_BYTES: u64 = 64 * 1024;
/// The id of the base game, which every mod is applied on.
pub const BASE_ID: &str = "base";

fn any_version() -> String {
    "*".into()
}

/// A mod's `mod.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Unique id: lower-case letters, digits and `_` (`highland_guard`).
    pub id: String,
    /// Name shown to players.
    pub name: String,
    /// The mod's own version, `MAJOR.MINOR.PATCH` (semantic versioning).
    pub version: String,
    /// Game versions the mod works with, as a range (`">=0.1, <0.3"`; `"*"` for any).
    #[serde(default = "any_version")]
    pub game: String,
    /// One paragraph shown in the mod manager.
    #[serde(default)]
    pub description: String,
    /// Who made it.
    #[serde(default)]
    pub authors: Vec<String>,
    /// Mods this one needs, with a version range each: `{"base_plus": ">=1.0"}`. They load first.
    #[serde(default)]
    pub dependencies: BTreeMap<String, String>,
    /// Mods this one can't be used with.
    #[serde(default)]
    pub conflicts: Vec<String>,
    /// Mods that, when enabled, load before this one (without being needed).
    #[serde(default)]
    pub load_after: Vec<String>,
}

/// A mod's files as read from its folder: whole (`read_mod`, `read_all`: what `load` takes), or
/// only its manifest (`read_manifest`, `discover`, `found`: how a mod that is not enabled is
/// listed), the other lists then left empty, their files never opened.
#[derive(Debug, Clone)]
pub struct ModSource {
    /// The folder, as found.
    pub dir: PathBuf,
    /// `mod.ron`.
    pub manifest: SourceFile,
    /// `content/*.ron`: (catalog file name, file).
    pub content: Vec<SourceFile>,
    /// `levels/*.ron`.
    pub levels: Vec<SourceFile>,
    /// `scenarios/*.ron`.
    pub scenarios: Vec<SourceFile>,
    /// `i18n/LANG.ron`: translation tables.
    pub translations: Vec<SourceFile>,
}

/// What became of one mod.
#[derive(Debug, Clone, Serialize)]
pub struct ModStatus {
    /// Id (from the manifest; the folder name when the manifest is unreadable).
    pub id: String,
    /// Name.
    pub name: String,
    /// Version as written.
    pub version: String,
    /// Description.
    pub description: String,
    /// The folder.
    pub dir: String,
    /// Applied to the content.
    pub loaded: bool,
    /// Errors and warnings, each naming file, line and field.
    pub problems: Vec<Problem>,
}

/// The outcome of loading mods.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModReport {
    /// Each mod, in the order they were applied (disabled ones included, where they would be).
    pub mods: Vec<ModStatus>,
}

impl ModReport {
    /// Every problem of every mod.
    pub fn problems(&self) -> impl Iterator<Item = &Problem> {
        self.mods.iter().flat_map(|m| m.problems.iter())
    }
    /// Count of errors.
    pub fn errors(&self) -> usize {
        self.problems()
            .filter(|p| p.severity == Severity::Error)
            .count()
    }
    /// A plain-text report (what the checker's *copy report* button copies).
    pub fn text(&self) -> String {
        let mut out = format!("Chaos Outpost {GAME_VERSION}: mod report\n");
        for m in &self.mods {
            let state = if m.loaded { "loaded" } else { "DISABLED" };
            out.push_str(&format!(
                "\n{} {} ({}) — {state}, {}\n",
                m.id, m.version, m.dir, m.name
            ));
            for p in &m.problems {
                out.push_str(&format!("  {p}\n"));
            }
        }
        out
    }
}

/// The folders mods are looked for in: `mods/` beside the game (the crate folder under
/// `cargo run`, else the executable's folder) and `mods/` in the user's data directory.
pub fn mod_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(root) =
        crate::ground::paths::asset_root().and_then(|a| a.parent().map(Path::to_path_buf))
    {
        out.push(root.join("mods"));
    }
    out.push(crate::ground::paths::data_dir().join("mods"));
    out.dedup();
    out
}

/// The folders holding a `mod.ron` directly under `dirs` (sorted by path, at most `MAX_MODS`
/// per folder); a folder that can't be listed is skipped.
pub fn mod_folders(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        let mut subs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("mod.ron").is_file())
            .take(MAX_MODS)
            .collect();
        subs.sort();
        out.extend(subs);
    }
    out
}

/// Every mod under `dirs` (see `mod_folders`), read as far as its manifest (`read_manifest`):
/// which of them to load is chosen from the manifests, and only those are read whole.
pub fn discover(dirs: &[PathBuf]) -> Vec<Result<ModSource, Problem>> {
    mod_folders(dirs).iter().map(|p| read_manifest(p)).collect()
}

/// A mod folder's `mod.ron`, bounded by `MAX_MANIFEST_BYTES` and confined to the folder.
fn manifest_file(dir: &Path) -> Result<SourceFile, Problem> {
    let path = dir.join("mod.ron");
    if !path.is_file() {
        return Err(Problem::whole_file(
            dir,
            "not a mod: there is no mod.ron in this folder (see docs/modding.md)".into(),
        ));
    }
    inside(dir, &path)?;
    let text = crate::ground::files::read_bounded(&path, MAX_MANIFEST_BYTES)
        .map_err(|message| Problem::whole_file(&path, message))?;
    Ok(SourceFile {
        path: path.display().to_string(),
        text,
    })
}

/// A mod folder read as far as its manifest: how a mod that is not enabled is listed. Its
/// content, levels, scenarios and translations are left empty, never opened (a disabled mod
/// of 30 MB costs its manifest); `read_mod` reads the mod whole.
pub fn read_manifest(dir: &Path) -> Result<ModSource, Problem> {
    Ok(ModSource {
        dir: dir.to_path_buf(),
        manifest: manifest_file(dir)?,
        content: Vec::new(),
        levels: Vec::new(),
        scenarios: Vec::new(),
        translations: Vec::new(),
    })
}

/// Reads a mod folder: its manifest and RON files, each bounded and confined to the folder.
pub fn read_mod(dir: &Path) -> Result<ModSource, Problem> {
    let shown = |p: &Path| {
        p.strip_prefix(dir)
            .map(|rel| dir.join(rel))
            .unwrap_or_else(|_| p.to_path_buf())
            .display()
            .to_string()
    };
    let manifest = manifest_file(dir)?;
    let mut total = manifest.text.len() as u64;
    let mut count = 1usize;
    let mut read = |p: &Path| -> Result<SourceFile, Problem> {
        inside(dir, p)?;
        let text = read_bounded(p)?;
        total += text.len() as u64;
        count += 1;
        if total > MAX_MOD_BYTES || count > MAX_MOD_FILES {
            return Err(Problem::whole_file(
                dir,
                format!(
                    "the mod holds more than {MAX_MOD_FILES} files or {MAX_MOD_BYTES} bytes: \
                     split it"
                ),
            ));
        }
        Ok(SourceFile {
            path: shown(p),
            text,
        })
    };
    let mut files_in = |sub: &str| -> Result<Vec<SourceFile>, Problem> {
        let d = dir.join(sub);
        if !d.is_dir() {
            return Ok(Vec::new());
        }
        ron_files_in(&d)?.iter().map(|p| read(p)).collect()
    };
    let content = files_in("content")?;
    let levels = files_in("levels")?;
    let scenarios = files_in("scenarios")?;
    let translations = files_in("i18n")?;
    Ok(ModSource {
        dir: dir.to_path_buf(),
        manifest,
        content,
        levels,
        scenarios,
        translations,
    })
}

/// Checks a manifest's own fields.
fn check_manifest(m: &Manifest, f: &SourceFile) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut err = |field: &str, message: String| {
        let (line, col) = locate(&f.text, &[field]);
        out.push(Problem {
            severity: Severity::Error,
            file: f.path.clone(),
            line,
            col,
            field: field.to_string(),
            message,
            mod_id: m.id.clone(),
        });
    };
    let id_ok = !m.id.is_empty()
        && m.id.len() <= 64
        && m.id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !id_ok {
        err(
            "id",
            format!(
                "`{}` is not a mod id: use 1 to 64 lower-case letters, digits and `_`",
                m.id
            ),
        );
    } else if m.id == BASE_ID {
        err("id", "`base` is the base game's id: choose another".into());
    }
    if m.name.trim().is_empty() || m.name.chars().count() > 100 {
        err("name", "give the mod a name of 1 to 100 characters".into());
    }
    if m.description.chars().count() > MAX_TEXT {
        err(
            "description",
            format!("longer than {MAX_TEXT} characters: shorten it"),
        );
    }
    if semver::Version::parse(&m.version).is_err() {
        err(
            "version",
            format!(
                "`{}` is not a version: write MAJOR.MINOR.PATCH, like \"1.0.0\"",
                m.version
            ),
        );
    }
    match semver::VersionReq::parse(&m.game) {
        Err(e) => err(
            "game",
            format!(
                "`{}` is not a version range ({e}): write one like \">=0.1, <0.3\" or \"*\"",
                m.game
            ),
        ),
        Ok(req) => {
            let here =
                semver::Version::parse(GAME_VERSION).unwrap_or(semver::Version::new(0, 0, 0));
            if !req.matches(&here) {
                err(
                    "game",
                    format!(
                        "needs game version `{}`, but this is {GAME_VERSION}: update the game, \
                         or test the mod with {GAME_VERSION} and widen the range",
                        m.game
                    ),
                );
            }
        }
    }
    for (dep, range) in &m.dependencies {
        if dep == &m.id {
            err(
                "dependencies",
                format!("the mod depends on itself (`{dep}`): remove that entry"),
            );
        }
        if let Err(e) = semver::VersionReq::parse(range) {
            err(
                "dependencies",
                format!(
                    "`{range}` for `{dep}` is not a version range ({e}): write one like \">=1.0\""
                ),
            );
        }
    }
    if m.conflicts.contains(&m.id) {
        err(
            "conflicts",
            "the mod conflicts with itself: remove its own id".into(),
        );
    }
    out
}

/// The load order of `ids` (a subset of the manifests' keys): dependencies and `load_after`
/// first, then the user's order. Returns the order and the mods caught in cycles, each with
/// the cycle written out (`a -> b -> a`).
fn order(
    ids: &[String],
    manifests: &BTreeMap<String, Manifest>,
) -> (Vec<String>, Vec<(String, String)>) {
    let rank: BTreeMap<&str, usize> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let before = |id: &str| -> Vec<String> {
        manifests
            .get(id)
            .map(|m| {
                m.dependencies
                    .keys()
                    .chain(m.load_after.iter())
                    .filter(|d| rank.contains_key(d.as_str()) && *d != id)
                    .cloned()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut done: Vec<String> = Vec::new();
    let mut left: Vec<String> = ids.to_vec();
    // Kahn's algorithm, taking the earliest ready mod in the user's order each time.
    loop {
        let ready = left
            .iter()
            .filter(|id| before(id).iter().all(|d| done.contains(d)))
            .min_by_key(|id| rank.get(id.as_str()).copied().unwrap_or(usize::MAX))
            .cloned();
        match ready {
            Some(id) => {
                left.retain(|x| *x != id);
                done.push(id);
            }
            None => break,
        }
    }
    // What's left is in a cycle or waits on one: name a cycle for each.
    let mut cycles = Vec::new();
    for id in &left {
        let mut path = vec![id.clone()];
        let mut cur = id.clone();
        let text = loop {
            let next = before(&cur).into_iter().find(|d| left.contains(d));
            match next {
                Some(n) if path.contains(&n) => {
                    let from = path.iter().position(|p| *p == n).unwrap_or(0);
                    let mut c: Vec<String> = path[from..].to_vec();
                    c.push(n);
                    break c.join(" -> ");
                }
                Some(n) => {
                    path.push(n.clone());
                    cur = n;
                }
                None => break path.join(" -> "),
            }
        };
        cycles.push((id.clone(), text));
    }
    (done, cycles)
}

/// Loads the base game (`base`, as `ContentDb::from_files` takes it, for `chapters`) and
/// applies `mods` (read whole: `read_mod`, `read_all`) in dependency order (ties in the order
/// given). A mod with any error is left out, with its problems in the report, but for errors
/// that are all about campaigns: those campaigns alone are left out (a mod that removes what
/// the base campaign's fallback names still brings its levels and cards), the problems kept.
/// Each mod's report lists at most `MAX_PROBLEMS_PER_FILE` problems a file, `MAX_PROBLEMS`
/// in the whole load, the rest counted. A broken base game is the only error returned.
pub fn load(
    base: Vec<SourceFile>,
    mods: &[ModSource],
    chapters: &super::ChapterSet,
) -> Result<(ContentDb, ModReport), Vec<Problem>> {
    let mut build = super::base_build(base, chapters)?;
    let (_, base_problems) = build.finish();
    if base_problems.iter().any(|p| p.severity == Severity::Error) {
        return Err(base_problems);
    }
    let mut known: BTreeSet<(String, String, String)> = base_problems
        .iter()
        .map(|p| (p.file.clone(), p.field.clone(), p.message.clone()))
        .collect();
    let mut warnings = base_problems;

    // Manifests.
    let Manifests {
        mut status,
        manifests,
        sources,
        given,
    } = read_manifests(mods);

    // Order by dependencies; cycles are refused.
    let ids: Vec<String> = given
        .iter()
        .filter(|k| manifests.contains_key(*k))
        .cloned()
        .collect();
    let (ordered, cycles) = order(&ids, &manifests);
    for (id, cycle) in cycles {
        if let (Some(m), Some(src), Some(st)) =
            (manifests.get(&id), sources.get(&id), status.get_mut(&id))
        {
            let field = if m.dependencies.is_empty() {
                "load_after"
            } else {
                "dependencies"
            };
            st.problems.push(manifest_err(
                m,
                src,
                field,
                format!(
                    "the load order has a cycle: {cycle}; one of these mods must stop naming \
                     the other in `dependencies` or `load_after`"
                ),
            ));
        }
    }

    // Apply in order. The problems listed in the whole load are bounded (`MAX_PROBLEMS`):
    // past it, a mod's are counted, one line a file.
    let mut room = MAX_PROBLEMS;
    let mut loaded: BTreeMap<String, semver::Version> = BTreeMap::new();
    let mut applied_order: Vec<String> = Vec::new();
    for id in &ordered {
        let (Some(m), Some(src)) = (manifests.get(id), sources.get(id)) else {
            continue;
        };
        applied_order.push(id.clone());
        let mut problems = status
            .get(id)
            .map(|s| s.problems.clone())
            .unwrap_or_default();
        // Dependencies loaded, at the right versions; no conflict with what is loaded.
        problems.extend(dependency_problems(m, src, &loaded, &manifests));
        problems.extend(conflict_problems(m, src, &loaded, &manifests));
        if problems.iter().any(|p| p.severity == Severity::Error) {
            if let Some(st) = status.get_mut(id) {
                st.problems = listed(problems, &mut room);
            }
            continue;
        }
        // The files.
        let mut next = build.clone();
        problems.extend(apply_files(&mut next, src, id));
        // Translations: a broken table is skipped with a warning; the mod still loads.
        problems.extend(translation_problems(src, id));
        // The campaigns the mod breaks, left out alone: the rest of the mod loads.
        let mut left_out: HashSet<String> = HashSet::new();
        if !problems.iter().any(|p| p.severity == Severity::Error) {
            // What the mod's changes break or make doubtful, anywhere.
            let (_, found) = next.finish();
            let mut fresh = fresh_problems(found, &known, &next, id);
            left_out = broken_campaigns(&fresh, &next.set.campaigns);
            if !left_out.is_empty() {
                next.set.campaigns.retain(|c| !left_out.contains(&c.id));
                for p in &mut fresh {
                    if let Some(c) = campaign_of(&p.field, |c| left_out.contains(c)) {
                        p.message.push_str(&format!(
                            "; the campaign `{c}` is left out while this mod is on, the rest \
                             of the mod loads"
                        ));
                    }
                }
            }
            problems.extend(fresh);
        }
        // An error disables the mod, but for those about a campaign left out.
        let ok = !problems.iter().any(|p| {
            p.severity == Severity::Error
                && campaign_of(&p.field, |c| left_out.contains(c)).is_none()
        });
        if ok {
            let (_, found) = next.finish();
            known = found
                .iter()
                .map(|p| (p.file.clone(), p.field.clone(), p.message.clone()))
                .collect();
            build = next;
            if let Ok(v) = semver::Version::parse(&m.version) {
                loaded.insert(id.clone(), v);
            }
        }
        if let Some(st) = status.get_mut(id) {
            st.loaded = ok;
            st.problems = listed(problems, &mut room);
        }
    }
    let (mut db, problems) = build.finish();
    warnings.extend(
        problems
            .into_iter()
            .filter(|p| p.severity == Severity::Warning),
    );
    warnings.dedup();
    db.warnings = cap(warnings);
    db.mods = applied_order
        .iter()
        .filter(|id| status.get(*id).is_some_and(|s| s.loaded))
        .filter_map(|id| manifests.get(id).cloned())
        .collect();
    // The report lists mods in load order, then those that never got to load.
    let mut report = ModReport::default();
    for id in applied_order.iter().chain(given.iter()) {
        if let Some(st) = status.remove(id) {
            report.mods.push(st);
        }
    }
    Ok((db, report))
}

/// A mod's problems as its report lists them: errors first, by file and place (a file's count
/// of those left out last), each once, within what the load has left of `MAX_PROBLEMS`
/// (`room`, spent here).
fn listed(mut problems: Vec<Problem>, room: &mut usize) -> Vec<Problem> {
    problems.sort_by(|a, b| {
        (a.severity, &a.file, a.is_more(), a.line, a.col).cmp(&(
            b.severity,
            &b.file,
            b.is_more(),
            b.line,
            b.col,
        ))
    });
    problems.dedup();
    let out = cap_within(problems, *room);
    let placed = out.iter().filter(|p| !p.is_more()).count();
    *room = room.saturating_sub(placed);
    out
}

/// What validation found once a mod's files were laid over the content (`found`), less what
/// was found before it (`known`), each pointed at the mod's file where the entry at fault came
/// from it (`Build::relocate`).
fn fresh_problems(
    found: Vec<Problem>,
    known: &BTreeSet<(String, String, String)>,
    next: &super::merge::Build,
    id: &str,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for mut p in found {
        let key = (p.file.clone(), p.field.clone(), p.message.clone());
        if known.contains(&key) {
            continue;
        }
        if p.is_more() {
            // A count of problems left out stands for no entry in particular.
            p.mod_id = id.to_string();
        } else {
            next.relocate(&mut p, id);
        }
        out.push(p);
    }
    out
}

/// The campaign a problem's field is about (`campaigns[ID]…`), among those `is_campaign`
/// accepts: the longest such id (an id may hold a `]`).
fn campaign_of(field: &str, is_campaign: impl Fn(&str) -> bool) -> Option<&str> {
    let rest = field.strip_prefix("campaigns[")?;
    rest.match_indices(']')
        .map(|(i, _)| &rest[..i])
        .rfind(|&id| is_campaign(id))
}

/// The campaigns the errors among `problems` are about, when every error is about one of
/// `campaigns` (such a campaign is left out, alone); none when any error is about something
/// else (the mod is disabled).
fn broken_campaigns(problems: &[Problem], campaigns: &[Campaign]) -> HashSet<String> {
    let ids: HashSet<&str> = campaigns.iter().map(|c| c.id.as_str()).collect();
    let mut out = HashSet::new();
    for p in problems.iter().filter(|p| p.severity == Severity::Error) {
        match campaign_of(&p.field, |c| ids.contains(c)) {
            Some(c) => {
                out.insert(c.to_string());
            }
            None => return HashSet::new(),
        }
    }
    out
}

/// The mods' manifests, read: each mod's status (problems so far), the manifests and sources
/// of those that read cleanly with an id of their own, and every mod's key in the order given
/// (its id, or `id#n` for one that can't load).
struct Manifests<'a> {
    status: BTreeMap<String, ModStatus>,
    manifests: BTreeMap<String, Manifest>,
    sources: BTreeMap<String, &'a ModSource>,
    given: Vec<String>,
}

/// Reads and checks every mod's `mod.ron`; a second mod with the same id is refused.
fn read_manifests(mods: &[ModSource]) -> Manifests<'_> {
    let mut status: BTreeMap<String, ModStatus> = BTreeMap::new();
    let mut manifests: BTreeMap<String, Manifest> = BTreeMap::new();
    let mut sources: BTreeMap<String, &ModSource> = BTreeMap::new();
    let mut given: Vec<String> = Vec::new();
    for (n, src) in mods.iter().enumerate() {
        let folder = src
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| format!("mod{n}"));
        let mut st = ModStatus {
            id: folder.clone(),
            name: folder.clone(),
            version: String::new(),
            description: String::new(),
            dir: src.dir.display().to_string(),
            loaded: false,
            problems: Vec::new(),
        };
        let m: Manifest = match parse_ron(&src.manifest) {
            Ok(m) => m,
            Err(mut p) => {
                p.mod_id = folder.clone();
                st.problems.push(p);
                let key = format!("{folder}#{n}");
                given.push(key.clone());
                status.insert(key, st);
                continue;
            }
        };
        st.id = m.id.clone();
        st.name = m.name.clone();
        st.version = m.version.clone();
        st.description = m.description.clone();
        st.problems = check_manifest(&m, &src.manifest);
        if let Some(first) = sources.get(&m.id) {
            let (line, col) = locate(&src.manifest.text, &["id"]);
            st.problems.push(Problem {
                severity: Severity::Error,
                file: src.manifest.path.clone(),
                line,
                col,
                field: "id".into(),
                message: format!(
                    "another mod has the id `{}` ({}): remove one of the two folders or give \
                     this one its own id",
                    m.id,
                    first.dir.display()
                ),
                mod_id: m.id.clone(),
            });
            let key = format!("{}#{n}", m.id);
            given.push(key.clone());
            status.insert(key, st);
            continue;
        }
        given.push(m.id.clone());
        sources.insert(m.id.clone(), src);
        manifests.insert(m.id.clone(), m);
        status.insert(given[given.len() - 1].clone(), st);
    }
    Manifests {
        status,
        manifests,
        sources,
        given,
    }
}

/// An error in a mod's manifest, at `field`.
fn manifest_err(m: &Manifest, src: &ModSource, field: &str, message: String) -> Problem {
    let (line, col) = locate(&src.manifest.text, &[field]);
    Problem {
        severity: Severity::Error,
        file: src.manifest.path.clone(),
        line,
        col,
        field: field.to_string(),
        message,
        mod_id: m.id.clone(),
    }
}

/// A mod's dependencies that are not loaded, or not at a version it accepts.
fn dependency_problems(
    m: &Manifest,
    src: &ModSource,
    loaded: &BTreeMap<String, semver::Version>,
    manifests: &BTreeMap<String, Manifest>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (dep, range) in &m.dependencies {
        let Ok(req) = semver::VersionReq::parse(range) else {
            continue;
        };
        let found = if dep == BASE_ID {
            semver::Version::parse(GAME_VERSION).ok()
        } else {
            loaded.get(dep).cloned()
        };
        match found {
            Some(v) if req.matches(&v) => {}
            Some(v) => problems.push(manifest_err(
                m,
                src,
                "dependencies",
                format!(
                    "needs `{dep}` {range}, but version {v} is installed: install a \
                     matching version"
                ),
            )),
            None => {
                let why = if manifests.contains_key(dep) {
                    "is disabled because of its own problems"
                } else {
                    "is not installed or not enabled"
                };
                problems.push(manifest_err(
                    m,
                    src,
                    "dependencies",
                    format!(
                        "needs mod `{dep}`, which {why}: install it into a mods/ folder and \
                         enable it{}",
                        super::merge::closest(dep, manifests.keys().map(String::as_str))
                            .filter(|c| *c != dep)
                            .map(|c| format!(" (did you mean `{c}`?)"))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
    }
    problems
}

/// Conflicts, either way round, between a mod and those already loaded.
fn conflict_problems(
    m: &Manifest,
    src: &ModSource,
    loaded: &BTreeMap<String, semver::Version>,
    manifests: &BTreeMap<String, Manifest>,
) -> Vec<Problem> {
    let id = &m.id;
    let mut problems = Vec::new();
    for other in loaded.keys() {
        let theirs = manifests
            .get(other)
            .is_some_and(|o| o.conflicts.contains(id));
        if m.conflicts.contains(other) || theirs {
            problems.push(manifest_err(
                m,
                src,
                "conflicts",
                format!(
                    "conflicts with `{other}`, which is enabled and loads first: disable \
                     one of the two"
                ),
            ));
        }
    }
    problems
}

/// Lays a mod's content files (each must be a catalogue) and levels over `next`.
fn apply_files(next: &mut super::merge::Build, src: &ModSource, id: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    for f in &src.content {
        let name = Path::new(&f.path)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let catalogues = next.chapters.catalogues().clone();
        if let Some(r) = catalogues.find(&name) {
            problems.extend(r.apply(next, Arc::new(f.clone()), id));
            continue;
        }
        let all = catalogues.all_files();
        match mod_catalogs().find(|c| *c == name) {
            Some(c) => problems.extend(next.apply(c, Arc::new(f.clone()), id)),
            None => problems.push(Problem {
                severity: Severity::Error,
                file: f.path.clone(),
                line: 0,
                col: 0,
                field: String::new(),
                message: format!(
                    "`{name}` is not a content file{}; content files are: {}",
                    closest(&name, all.iter().copied())
                        .map(|c| format!(" (did you mean `{c}`?)"))
                        .unwrap_or_default(),
                    all.join(", ")
                ),
                mod_id: id.to_string(),
            }),
        }
    }
    for f in &src.levels {
        problems.extend(next.add_level(Arc::new(f.clone()), id));
    }
    problems
}

/// A mod's translation tables: a broken one, or an entry that loses a `{}`, is a warning.
fn translation_problems(src: &ModSource, id: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    // Translations: a broken table is skipped with a warning; the mod still loads.
    for f in &src.translations {
        let warn = |mut p: Problem| {
            p.severity = Severity::Warning;
            p.mod_id = id.to_string();
            p.message.push_str(" (this translation is skipped)");
            p
        };
        match translations::parse_table(f) {
            Err(p) => problems.push(warn(p)),
            Ok(table) => {
                // Each entry placed is a search of the file: the first ones, then a count.
                let mut found = Listed::new(MAX_PROBLEMS_PER_FILE);
                for (k, v) in &table {
                    if !translations::placeholders_agree(k, v) {
                        found.push_with(Severity::Warning, || {
                            let (line, col) = locate(&f.text, &[&format!("{k:?}")]);
                            Problem {
                                severity: Severity::Warning,
                                file: f.path.clone(),
                                line,
                                col,
                                field: k.clone(),
                                message: "the translation must keep every `{}` of the English \
                                          text, in the same number"
                                    .into(),
                                mod_id: id.to_string(),
                            }
                        });
                    }
                }
                for mut p in found.finish(&f.path) {
                    p.mod_id = id.to_string();
                    problems.push(p);
                }
            }
        }
    }
    problems
}

impl ModStatus {
    /// A mod folder that could not be read: disabled, with why.
    pub fn unreadable(dir: &Path, mut p: Problem) -> ModStatus {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        p.mod_id = id.to_string();
        ModStatus {
            id: id.to_string(),
            name: id,
            version: String::new(),
            description: String::new(),
            dir: dir.display().to_string(),
            loaded: false,
            problems: vec![p],
        }
    }
}

/// Reads each folder in `dirs` as a mod; unreadable ones become a disabled entry in the report.
pub fn read_all(dirs: &[PathBuf]) -> (Vec<ModSource>, Vec<ModStatus>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for d in dirs {
        match read_mod(d) {
            Ok(m) => ok.push(m),
            Err(p) => bad.push(ModStatus::unreadable(d, p)),
        }
    }
    (ok, bad)
}

/// Reads each folder in `dirs` as far as its manifest (`read_manifest`); those whose manifest
/// can't be read become a disabled entry in the report.
pub fn read_all_manifests(dirs: &[PathBuf]) -> (Vec<ModSource>, Vec<ModStatus>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for d in dirs {
        match read_manifest(d) {
            Ok(m) => ok.push(m),
            Err(p) => bad.push(ModStatus::unreadable(d, p)),
        }
    }
    (ok, bad)
}

/// Every mod there is: those in the mod folders (`mod_dirs`), then those given on the command
/// line that aren't among them, read as far as their manifests (`read_all` reads the ones
/// chosen whole); the folders whose manifest can't be read, as disabled entries.
pub fn found(cli: &[PathBuf]) -> (Vec<ModSource>, Vec<ModStatus>) {
    let mut dirs = mod_folders(&mod_dirs());
    for c in cli {
        if !dirs.contains(c) {
            dirs.push(c.clone());
        }
    }
    read_all_manifests(&dirs)
}

/// Adds to `sources` the installed mods (from `mod_dirs`) that they depend on, directly or not,
/// when not given already. The installed mods are read as far as their manifests; only those
/// needed are read whole.
pub fn add_installed_dependencies(sources: &mut Vec<ModSource>) {
    let installed: Vec<(String, PathBuf)> = discover(&mod_dirs())
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let man: Manifest = parse_ron(&m.manifest).ok()?;
            Some((man.id, m.dir))
        })
        .collect();
    // Each folder is read once at most, even when it can't be.
    let mut tried: BTreeSet<PathBuf> = BTreeSet::new();
    // Bounded: each round adds at least one mod or stops.
    for _ in 0..MAX_MODS {
        let have: BTreeSet<String> = sources
            .iter()
            .filter_map(|m| parse_ron::<Manifest>(&m.manifest).ok().map(|m| m.id))
            .collect();
        let needed: BTreeSet<String> = sources
            .iter()
            .filter_map(|m| parse_ron::<Manifest>(&m.manifest).ok())
            .flat_map(|m| m.dependencies.into_keys())
            .filter(|d| d != BASE_ID && !have.contains(d))
            .collect();
        let add: Vec<ModSource> = installed
            .iter()
            .filter(|(id, dir)| needed.contains(id) && tried.insert(dir.clone()))
            .filter_map(|(_, dir)| read_mod(dir).ok())
            .collect();
        if add.is_empty() {
            return;
        }
        // Dependencies first, so the user order keeps them ahead.
        let mut next = add;
        next.append(sources);
        *sources = next;
    }
}

/// The id a mod folder's manifest declares, if it can be read.
pub fn manifest_id(src: &ModSource) -> Option<String> {
    parse_ron::<Manifest>(&src.manifest).ok().map(|m| m.id)
}

/// The mods to load: those of `found` whose id is in `enabled`, in that order, then `always`
/// (given on the command line) unless already there.
pub fn choose(found: &[ModSource], enabled: &[String], always: &[ModSource]) -> Vec<ModSource> {
    let mut out: Vec<ModSource> = enabled
        .iter()
        .filter_map(|id| {
            found
                .iter()
                .find(|m| manifest_id(m).as_deref() == Some(id.as_str()))
                .cloned()
        })
        .collect();
    for m in always {
        if !out.iter().any(|o| o.dir == m.dir) {
            out.push(m.clone());
        }
    }
    out
}

/// What a change of content means for a game in progress: the reasons it needs a new game to
/// show fully (empty: everything applies at once). `unsafe_live` is true when entries the game
/// may hold were removed, so the new content must wait for a new game.
pub fn live_change(old: &ContentDb, new: &ContentDb) -> (Vec<String>, bool) {
    fn ids<T>(v: &[T], id: impl Fn(&T) -> &str) -> BTreeSet<String> {
        v.iter().map(|t| id(t).to_string()).collect()
    }
    let (a, b) = (&old.set, &new.set);
    let lists: [(&str, BTreeSet<String>, BTreeSet<String>); 11] = [
        (
            "terrains",
            ids(&a.terrains, |t| &t.id),
            ids(&b.terrains, |t| &t.id),
        ),
        (
            "improvements",
            ids(&a.improvements, |t| &t.id),
            ids(&b.improvements, |t| &t.id),
        ),
        (
            "buildings",
            ids(&a.buildings, |t| &t.id),
            ids(&b.buildings, |t| &t.id),
        ),
        (
            "outpost sizes",
            ids(&a.outpost_sizes, |t| &t.id),
            ids(&b.outpost_sizes, |t| &t.id),
        ),
        ("units", ids(&a.units, |t| &t.id), ids(&b.units, |t| &t.id)),
        (
            "events",
            ids(&a.events, |t| &t.id),
            ids(&b.events, |t| &t.id),
        ),
        (
            "chaos cards",
            ids(&a.chaos, |t| &t.id),
            ids(&b.chaos, |t| &t.id),
        ),
        (
            "research",
            ids(&a.research, |t| &t.id),
            ids(&b.research, |t| &t.id),
        ),
        (
            "artifacts",
            ids(&a.artifacts, |t| &t.id),
            ids(&b.artifacts, |t| &t.id),
        ),
        (
            "exploration",
            ids(&a.exploration, |t| &t.id),
            ids(&b.exploration, |t| &t.id),
        ),
        (
            "rituals",
            ids(&a.rituals, |t| &t.id),
            ids(&b.rituals, |t| &t.id),
        ),
    ];
    let mut reasons = Vec::new();
    let mut unsafe_live = false;
    for (what, before, after) in &lists {
        let removed: Vec<&String> = before.difference(after).collect();
        let added: Vec<&String> = after.difference(before).collect();
        if !removed.is_empty() {
            unsafe_live = true;
            reasons.push(format!(
                "{what} removed ({}): applies to a new game only",
                removed
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !added.is_empty() {
            let when = match *what {
                "events" | "chaos cards" | "research" | "artifacts" | "exploration" => {
                    "decks are dealt at the start: in the deck from the next new game"
                }
                "terrains" | "outpost sizes" => "used by the maps of new games",
                _ => "available now",
            };
            reasons.push(format!(
                "{what} added ({}): {when}",
                added
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let copies =
        |v: &[Card]| -> Vec<(String, u32)> { v.iter().map(|c| (c.id.clone(), c.copies)).collect() };
    if copies(&a.events) != copies(&b.events)
        || copies(&a.chaos) != copies(&b.chaos)
        || copies(&a.artifacts) != copies(&b.artifacts)
    {
        reasons.push("a deck's composition changed: a new game deals it".into());
    }
    if a.portal != b.portal {
        unsafe_live = true;
        reasons.push("the portal changed: applies to a new game only".into());
    }
    let changed_levels: Vec<&String> = new
        .levels
        .iter()
        .filter(|(id, l)| old.levels.get(*id) != Some(*l))
        .map(|(id, _)| id)
        .collect();
    if !changed_levels.is_empty() {
        reasons.push(format!(
            "levels changed ({}): a new game on them shows it",
            changed_levels
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    (reasons, unsafe_live)
}
