//! Merging content files into one content set: the base game and every mod go through here.
//!
//! A catalog file (`units.ron`, `events.ron`…) is either a plain list, whose entries are added, or
//! a mod file `( add: [...], patch: {"id": (field: value, …)}, remove: ["id"] )`. A single-value
//! file (`rules.ron`, `portal.ron`, `ai.ron`) is either the whole value or `( patch: (field: …) )`.
//! Removes apply first, then adds, then patches, so a mod can replace an entry by removing and
//! adding it. A patch replaces the fields it names, whole (a patched `cost` is the new cost),
//! but for `ai.ron`'s, merged at any depth as a level's own `ai` is (`patch_ai`).
//! Every problem names the file, line and column of the entry or field at fault.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::ron_text::{Entry, Lines, elements, entries, line_col, skip_blank};
use super::*;

/// Content with an id, kept in a list.
pub(super) trait Keyed {
    fn key(&self) -> &str;
}

macro_rules! keyed {
    ($($t:ty),*) => { $(impl Keyed for $t { fn key(&self) -> &str { &self.id } })* };
}
keyed!(
    Terrain,
    Improvement,
    Building,
    OutpostSize,
    UnitType,
    Card,
    Tech,
    ExplorationCard,
    Ritual,
    Difficulty,
    Level,
    TrackDef,
    Campaign
);

/// The catalog files a mod may add to or patch: the base game's content files, and
/// `levels.ron` (to patch or remove levels; new levels are files in `levels/`).
pub fn mod_catalogs() -> impl Iterator<Item = &'static str> {
    CONTENT_FILES
        .into_iter()
        .chain(std::iter::once("levels.ron"))
}

/// Who last added or patched an entry: problems found later point there.
#[derive(Debug, Clone)]
pub(super) struct Origin {
    /// The mod (`base` for the base game).
    pub mod_id: String,
    /// The file.
    pub file: Arc<SourceFile>,
}

/// Content being put together, file by file.
#[derive(Debug, Clone, Default)]
pub(super) struct Build {
    pub set: ContentSet,
    pub levels: Vec<Level>,
    /// Where each level was defined (its text locates level problems).
    pub level_files: BTreeMap<String, Arc<SourceFile>>,
    /// The base game's file of each catalog (its text locates content problems).
    pub catalog_files: BTreeMap<&'static str, Arc<SourceFile>>,
    /// Entries added or patched by a mod: (catalog, id) → origin.
    pub origins: HashMap<(&'static str, String), Origin>,
    /// The chapters the content is for (their catalogues are among the files).
    pub chapters: ChapterSet,
}

/// A problem at a byte offset of a file.
fn problem_at(f: &SourceFile, at: usize, field: String, message: String) -> Problem {
    let (line, col) = line_col(&f.text, at);
    Problem {
        severity: Severity::Error,
        file: f.path.clone(),
        line,
        col,
        field,
        message,
        mod_id: String::new(),
    }
}

/// A problem at a byte offset of a file whose lines were indexed (many problems, one reading).
fn problem_in(
    f: &SourceFile,
    lines: &Lines<'_>,
    at: usize,
    field: String,
    message: String,
) -> Problem {
    let (line, col) = lines.line_col(at);
    Problem {
        severity: Severity::Error,
        file: f.path.clone(),
        line,
        col,
        field,
        message,
        mod_id: String::new(),
    }
}

/// Parses the part of a file that starts at byte `at`, with positions in the whole file.
fn parse_part<T: DeserializeOwned>(f: &SourceFile, at: usize, part: &str) -> Result<T, Problem> {
    let sub = SourceFile {
        path: f.path.clone(),
        text: part.to_string(),
    };
    parse_ron(&sub).map_err(|mut p| {
        let (line0, col0) = line_col(&f.text, at);
        if p.line <= 1 {
            p.col += col0 - 1;
        }
        p.line = p.line.max(1) + line0 - 1;
        p
    })
}

/// The parts of a mod-style file: `add`, `patch`, `remove` entries.
struct ModForm<'a> {
    add: Option<Entry<'a>>,
    patch: Option<Entry<'a>>,
    remove: Option<Entry<'a>>,
}

/// Whether the text is a mod-style `( add / patch / remove )` file.
fn is_mod_form(text: &str) -> bool {
    let start = skip_blank(text, 0);
    match entries(text, start) {
        Ok((list, _)) => {
            !list.is_empty()
                && list
                    .iter()
                    .all(|e| matches!(e.key, "add" | "patch" | "remove"))
        }
        Err(_) => false,
    }
}

fn mod_form<'a>(f: &'a SourceFile, cat: &str) -> Result<ModForm<'a>, Problem> {
    let text = &f.text;
    let start = skip_blank(text, 0);
    let (list, end) = entries(text, start).map_err(|(at, m)| {
        problem_at(
            f,
            at,
            String::new(),
            format!("{m}; a mod file reads `( add: [...], patch: {{...}}, remove: [...] )`"),
        )
    })?;
    let rest = skip_blank(text, end);
    if rest < text.len() {
        return Err(problem_at(
            f,
            rest,
            String::new(),
            "unexpected text after the closing bracket: remove it".into(),
        ));
    }
    let mut form = ModForm {
        add: None,
        patch: None,
        remove: None,
    };
    for e in list {
        let slot = match e.key {
            "add" => &mut form.add,
            "patch" => &mut form.patch,
            "remove" => &mut form.remove,
            other => {
                return Err(problem_at(
                    f,
                    e.key_at,
                    other.to_string(),
                    format!(
                        "`{other}` is not a part of a mod file: use `add: [...]`, `patch: \
                         {{\"id\": (field: value)}}` or `remove: [\"id\"]` ({cat})"
                    ),
                ));
            }
        };
        if slot.is_some() {
            return Err(problem_at(
                f,
                e.key_at,
                e.key.to_string(),
                format!("`{}` is given twice: merge the two into one", e.key),
            ));
        }
        *slot = Some(e);
    }
    Ok(form)
}

/// The closest id to `id` among `known`, for "did you mean" hints.
pub(super) fn closest<'a>(id: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                let sub = prev[j] + usize::from(ca != *cb);
                cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
            }
            prev = cur;
        }
        prev[b.len()]
    }
    known
        .map(|k| (dist(id, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

fn did_you_mean<'a>(id: &str, known: impl Iterator<Item = &'a str>) -> String {
    match closest(id, known) {
        Some(k) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    }
}

/// The value `item` with the fields in `patch` replaced (only the `only`th, when given).
fn patched_text<T: Serialize>(item: &T, patch: &[Entry], only: Option<usize>) -> Option<String> {
    let base = ron::to_string(item).ok()?;
    let (fields, _) = entries(&base, 0).ok()?;
    let chosen: Vec<&Entry> = match only {
        Some(i) => patch.get(i).into_iter().collect(),
        None => patch.iter().collect(),
    };
    let mut out = String::from("(");
    for b in &fields {
        let v = chosen
            .iter()
            .rev()
            .find(|p| p.key == b.key)
            .map_or(b.value, |p| p.value);
        out.push_str(&format!("{}: {v},", b.key));
    }
    for p in &chosen {
        if !fields.iter().any(|b| b.key == p.key) {
            out.push_str(&format!("{}: {},", p.key, p.value));
        }
    }
    out.push(')');
    Some(out)
}

/// `item` with `fields` patched; `None` when they don't fit, with the problems, each at its
/// field, in `found`. Which field is at fault is found by trying each alone (a parse of the
/// whole entry each), only while `found` has room to list what it finds.
fn patch_value<T: Serialize + DeserializeOwned>(
    f: &SourceFile,
    lines: &Lines<'_>,
    item: &T,
    fields: &[Entry],
    at: usize,
    path: &str,
    found: &mut Listed,
) -> Option<T> {
    let before = found.found();
    let mut seen = HashSet::new();
    for p in fields {
        if p.key == "id" {
            found.push_with(Severity::Error, || {
                problem_in(
                    f,
                    lines,
                    p.key_at,
                    format!("{path}.id"),
                    "an entry's id can't be patched: remove the entry and add a new one".into(),
                )
            });
        }
        if !seen.insert(p.key) {
            found.push_with(Severity::Error, || {
                problem_in(
                    f,
                    lines,
                    p.key_at,
                    format!("{path}.{}", p.key),
                    format!("`{}` is patched twice here: keep one", p.key),
                )
            });
        }
    }
    if found.found() > before {
        return None;
    }
    let parse = |only| patched_text(item, fields, only).map(|t| ron::from_str::<T>(&t));
    if let Some(Ok(v)) = parse(None) {
        return Some(v);
    }
    for (i, p) in fields.iter().enumerate() {
        if !found.has_room() {
            break;
        }
        if let Some(Err(e)) = parse(Some(i)) {
            found.push(problem_in(
                f,
                lines,
                p.key_at,
                format!("{path}.{}", p.key),
                format!(
                    "{} (a patch gives whole field values, written as in the base file; see \
                     docs/schema.md)",
                    e.code
                ),
            ));
        }
    }
    if found.found() == before {
        found.push_with(Severity::Error, || {
            problem_in(
                f,
                lines,
                at,
                path.to_string(),
                "these fields don't fit together: check each value against docs/schema.md".into(),
            )
        });
    }
    None
}

impl Build {
    /// Applies one catalog file of mod `mod_id` (or of the base game).
    pub fn apply(&mut self, cat: &'static str, f: Arc<SourceFile>, mod_id: &str) -> Vec<Problem> {
        let o = &mut self.origins;
        let s = &mut self.set;
        let mut ps = match cat {
            "rules.ron" => single(&mut s.rules, &f),
            "terrains.ron" => list(&mut s.terrains, cat, &f, mod_id, o),
            "improvements.ron" => list(&mut s.improvements, cat, &f, mod_id, o),
            "buildings.ron" => list(&mut s.buildings, cat, &f, mod_id, o),
            "outposts.ron" => list(&mut s.outpost_sizes, cat, &f, mod_id, o),
            "units.ron" => list(&mut s.units, cat, &f, mod_id, o),
            "events.ron" => list(&mut s.events, cat, &f, mod_id, o),
            "chaos.ron" => list(&mut s.chaos, cat, &f, mod_id, o),
            "research.ron" => list(&mut s.research, cat, &f, mod_id, o),
            "artifacts.ron" => list(&mut s.artifacts, cat, &f, mod_id, o),
            "exploration.ron" => list(&mut s.exploration, cat, &f, mod_id, o),
            "rituals.ron" => list(&mut s.rituals, cat, &f, mod_id, o),
            "difficulty.ron" => list(&mut s.difficulties, cat, &f, mod_id, o),
            "ai.ron" if is_mod_form(&f.text) => patch_ai(&mut s.ai, &f),
            "ai.ron" => single(&mut s.ai, &f),
            "tracks.ron" => list(&mut s.tracks, cat, &f, mod_id, o),
            "campaigns.ron" => list(&mut s.campaigns, cat, &f, mod_id, o),
            "portal.ron" => {
                if s.portal.is_none() && is_mod_form(&f.text) {
                    vec![problem_at(
                        &f,
                        0,
                        "portal".into(),
                        "there is no portal to patch yet: give the whole portal".into(),
                    )]
                } else {
                    let mut p = s.portal.clone().unwrap_or_else(PortalDef::empty);
                    let ps = single(&mut p, &f);
                    if ps.is_empty() {
                        s.portal = Some(p);
                    }
                    ps
                }
            }
            "levels.ron" => {
                let before: BTreeSet<String> = self.levels.iter().map(|l| l.id.clone()).collect();
                let ps = list(&mut self.levels, cat, &f, mod_id, o);
                // A level added here is located in this file; a patched one stays where it was
                // written (problems the patch causes say so, see `relocate`).
                for l in &self.levels {
                    if !before.contains(&l.id) {
                        self.level_files.insert(l.id.clone(), f.clone());
                    }
                }
                self.level_files
                    .retain(|id, _| self.levels.iter().any(|l| l.id == *id));
                ps
            }
            _ => vec![problem_at(
                &f,
                0,
                String::new(),
                format!(
                    "`{cat}` is not a content file; content files are: {}",
                    mod_catalogs().collect::<Vec<_>>().join(", ")
                ),
            )],
        };
        for p in &mut ps {
            p.mod_id = mod_id.to_string();
        }
        // A patched single value (rules, portal, AI weights): its problems point at the patch.
        if ps.is_empty() && matches!(cat, "rules.ron" | "portal.ron" | "ai.ron") {
            self.origins.insert(
                (cat, "*".into()),
                Origin {
                    mod_id: mod_id.to_string(),
                    file: f.clone(),
                },
            );
        }
        if mod_id == "base" && cat != "levels.ron" {
            self.catalog_files.insert(cat, f);
        }
        ps
    }

    /// Adds a level file (one level); an id already taken is refused.
    pub fn add_level(&mut self, f: Arc<SourceFile>, mod_id: &str) -> Vec<Problem> {
        let level: Level = match parse_ron(&f) {
            Ok(l) => l,
            Err(mut p) => {
                p.mod_id = mod_id.to_string();
                return vec![p];
            }
        };
        if let Some(old) = self.level_files.get(&level.id) {
            let (line, col) = locate(&f.text, &["id"]);
            return vec![Problem {
                severity: Severity::Error,
                file: f.path.clone(),
                line,
                col,
                field: "id".into(),
                message: format!(
                    "a level `{}` already exists ({}): choose another id, or change that level \
                     with `content/levels.ron` ( patch: {{\"{}\": (...)}} )",
                    level.id, old.path, level.id
                ),
                mod_id: mod_id.to_string(),
            }];
        }
        self.level_files.insert(level.id.clone(), f.clone());
        self.origins.insert(
            ("levels.ron", level.id.clone()),
            Origin {
                mod_id: mod_id.to_string(),
                file: f,
            },
        );
        self.levels.push(level);
        Vec::new()
    }

    /// The content as a database, and what validation finds in it.
    pub fn finish(&self) -> (ContentDb, Vec<Problem>) {
        let mut db = ContentDb {
            set: self.set.clone(),
            levels: self
                .levels
                .iter()
                .map(|l| (l.id.clone(), l.clone()))
                .collect(),
            level_paths: self
                .level_files
                .iter()
                .map(|(id, f)| (id.clone(), f.path.clone()))
                .collect(),
            chapters: self.chapters.clone(),
            ..Default::default()
        };
        db.reindex();
        db.merge_level_ai();
        let text_of = |name: &str| {
            self.catalog_files
                .get(name)
                .map(|f| (f.path.as_str(), f.text.as_str()))
        };
        // One budget for the whole load: past it, problems are counted, not placed.
        let mut budget = validate::Budget::default();
        let mut problems = validate::content(&db, &text_of, &mut budget);
        for (id, level) in &db.levels {
            let (path, text) = self
                .level_files
                .get(id)
                .map(|f| (f.path.as_str(), f.text.as_str()))
                .unwrap_or(("levels", ""));
            problems.extend(validate::level(&db, level, path, text, &mut budget));
        }
        (db, problems)
    }

    /// Points a problem found after applying mod `mod_id` at that mod's file when the entry at
    /// fault came from it; otherwise says the mod caused it.
    pub fn relocate(&self, p: &mut Problem, mod_id: &str) {
        p.mod_id = mod_id.to_string();
        let cat = self
            .catalog_files
            .iter()
            .find(|(_, f)| f.path == p.file)
            .map(|(c, _)| *c)
            .or_else(|| {
                self.level_files
                    .values()
                    .any(|f| f.path == p.file)
                    .then_some("levels.ron")
            })
            // A catalogue the base game has no file of (a chapter's, brought by a mod): its
            // problems name the catalogue itself.
            .or_else(|| self.origins.keys().map(|(c, _)| *c).find(|c| *c == p.file));
        let id = p
            .field
            .split_once('[')
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(id, _)| id.to_string());
        let origin = match (cat, id) {
            (Some("levels.ron"), _) => None,
            (Some(c), Some(id)) => self.origins.get(&(c, id.clone())).map(|o| (o, Some(id))),
            (Some(c), None) => self.origins.get(&(c, "*".to_string())).map(|o| (o, None)),
            _ => None,
        };
        match origin {
            Some((o, id)) if o.mod_id == mod_id => {
                // The entry's id, the ids within it (a campaign's chapter), then the field at
                // fault after the last of them: each searched after the one before.
                let mut anchors: Vec<String> = match id {
                    Some(_) => bracketed(&p.field)
                        .into_iter()
                        .filter(|i| i.parse::<usize>().is_err())
                        .map(|i| format!("\"{i}\""))
                        .collect(),
                    None => vec!["patch".into()],
                };
                let tail = p.field.rsplit(']').next().unwrap_or("");
                let last = tail.rsplit('.').next().unwrap_or("");
                if !last.is_empty() {
                    anchors.push(last.to_string());
                }
                let anchors: Vec<&str> = anchors.iter().map(String::as_str).collect();
                let (line, col) = locate(&o.file.text, &anchors);
                p.file = o.file.path.clone();
                p.line = line;
                p.col = col;
            }
            _ => {
                if !p.file.contains(&format!("/{mod_id}/")) {
                    p.message
                        .push_str(&format!(" (this follows from mod `{mod_id}`'s changes)"));
                }
            }
        }
    }
}

/// The ids a field path names in brackets, in order (`campaigns[a].chapters[b].next`: `a`,
/// `b`).
fn bracketed(field: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = field;
    while let Some((_, after)) = rest.split_once('[') {
        let Some((id, after)) = after.split_once(']') else {
            break;
        };
        out.push(id);
        rest = after;
    }
    out
}

/// A single-value file's mod form, with a problem for each `add` or `remove` in it (only
/// `patch` fits a file that holds one value).
fn single_form(f: &SourceFile) -> Result<(ModForm<'_>, Vec<Problem>), Problem> {
    let form = mod_form(f, &f.path)?;
    let out = [&form.add, &form.remove]
        .into_iter()
        .flatten()
        .map(|e| {
            problem_at(
                f,
                e.key_at,
                e.key.to_string(),
                format!(
                    "this file holds one value, not a list: only `patch: (field: value)` fits, \
                     not `{}`",
                    e.key
                ),
            )
        })
        .collect();
    Ok((form, out))
}

/// Applies a mod's `ai.ron`, `( patch: (field: …) )`, field by field at any depth, as a level's
/// own `ai` is (`level_ai`): the AI's settings are nested tables, so a patch of
/// `search: (budgets: {"hard": (chaos: 400)})` keeps the search's margins, its evaluation and
/// normal's budget, and one chapter's weight keeps that chapter's others (two chapters' mods
/// don't undo each other). Other single-value files replace the fields they name whole.
fn patch_ai(ai: &mut AiWeights, f: &SourceFile) -> Vec<Problem> {
    let (form, mut out) = match single_form(f) {
        Ok(x) => x,
        Err(p) => return vec![p],
    };
    if let Some(p) = &form.patch {
        match super::level_ai::merged(ai, p.value, &f.path, &f.text, "patch") {
            Ok(w) if out.is_empty() => *ai = w,
            Ok(_) => {}
            Err(ps) => out.extend(ps),
        }
    }
    out
}

/// Applies a file to a single value: the whole value, or `( patch: (field: …) )`.
fn single<T: Serialize + DeserializeOwned>(value: &mut T, f: &SourceFile) -> Vec<Problem> {
    if !is_mod_form(&f.text) {
        return match parse_ron::<T>(f) {
            Ok(v) => {
                *value = v;
                Vec::new()
            }
            Err(p) => vec![p],
        };
    }
    let (form, out) = match single_form(f) {
        Ok(x) => x,
        Err(p) => return vec![p],
    };
    // An `add` or `remove` refuses the file, patch or not.
    let refused = !out.is_empty();
    let mut found = Listed::new(MAX_PROBLEMS_PER_FILE);
    for p in out {
        found.push(p);
    }
    if let Some(p) = &form.patch {
        let lines = Lines::new(&f.text);
        match entries(&f.text, p.value_at) {
            Ok((fields, _)) if f.text[p.value_at..].starts_with('(') => {
                let patched = patch_value(f, &lines, value, &fields, p.key_at, "patch", &mut found);
                if let Some(v) = patched
                    && !refused
                {
                    *value = v;
                }
            }
            Ok(_) => found.push(problem_at(
                f,
                p.value_at,
                "patch".into(),
                "write the patch as `( field: value, … )`".into(),
            )),
            Err((at, m)) => found.push(problem_at(f, at, "patch".into(), m)),
        }
    }
    found.finish(&f.path)
}

/// Applies a file to a list of entries with ids. Problems are listed up to
/// `MAX_PROBLEMS_PER_FILE` and counted past it; each id is looked up in a set or an index, and
/// each problem placed with the file's line index, so a list of a million unknown ids costs
/// one reading of the file.
pub(super) fn list<T: Keyed + Serialize + DeserializeOwned>(
    v: &mut Vec<T>,
    cat: &'static str,
    f: &Arc<SourceFile>,
    mod_id: &str,
    origins: &mut HashMap<(&'static str, String), Origin>,
) -> Vec<Problem> {
    let what = cat.trim_end_matches(".ron");
    let text = &f.text;
    let lines = Lines::new(text);
    let mut found = Listed::new(MAX_PROBLEMS_PER_FILE);
    let start = skip_blank(text, 0);
    if text[start..].starts_with('[') {
        // A plain list adds every entry (the base game's files are written this way).
        match parse_ron::<Vec<T>>(f) {
            Ok(items) => add(v, items, (cat, f, &lines, 0), mod_id, origins, &mut found),
            Err(p) => found.push(p),
        }
        return found.finish(&f.path);
    }
    let form = match mod_form(f, cat) {
        Ok(form) => form,
        Err(p) => return vec![p],
    };
    if let Some(r) = &form.remove {
        match parse_part::<Vec<String>>(f, r.value_at, r.value) {
            Ok(ids) => remove(v, ids, (cat, f, &lines, r.value_at), origins, &mut found),
            Err(p) => found.push(p),
        }
    }
    if let Some(a) = &form.add {
        match parse_part::<Vec<T>>(f, a.value_at, a.value) {
            Ok(items) => add(
                v,
                items,
                (cat, f, &lines, a.value_at),
                mod_id,
                origins,
                &mut found,
            ),
            Err(p) => found.push(p),
        }
    }
    if let Some(p) = &form.patch {
        if !text[p.value_at..].starts_with('{') {
            found.push(problem_at(
                f,
                p.value_at,
                format!("{what}.patch"),
                "write the patch as a map `{\"id\": (field: value, …), …}`".into(),
            ));
            return found.finish(&f.path);
        }
        match entries(text, p.value_at) {
            Ok((list, _)) => patch(v, &list, (cat, f, &lines), mod_id, origins, &mut found),
            Err((at, m)) => found.push(problem_at(f, at, format!("{what}.patch"), m)),
        }
    }
    found.finish(&f.path)
}

/// Where a part of a catalog file stands: its catalog, the file, its line index, and the
/// offset the part starts at.
type Part<'a> = (&'static str, &'a Arc<SourceFile>, &'a Lines<'a>, usize);

/// Removes the entries `ids` names (the list at the part's offset); an id not there is a
/// problem at its place in the list. The ids are looked up in a set and the entries dropped in
/// one pass; the list's elements are found (once) only when a problem is listed.
fn remove<T: Keyed>(
    v: &mut Vec<T>,
    ids: Vec<String>,
    (cat, f, lines, at): Part<'_>,
    origins: &mut HashMap<(&'static str, String), Origin>,
    found: &mut Listed,
) {
    let what = cat.trim_end_matches(".ron");
    let mut present: HashSet<String> = v.iter().map(|t| t.key().to_string()).collect();
    let mut gone: HashSet<String> = HashSet::new();
    let mut places: Option<Vec<usize>> = None;
    for (n, id) in ids.into_iter().enumerate() {
        if present.remove(&id) {
            origins.remove(&(cat, id.clone()));
            gone.insert(id);
            continue;
        }
        found.push_with(Severity::Error, || {
            let place = places
                .get_or_insert_with(|| elements(&f.text, at).unwrap_or_default())
                .get(n)
                .copied()
                .unwrap_or(at);
            problem_in(
                f,
                lines,
                place,
                format!("{what}.remove"),
                format!(
                    "there is no `{id}` in {what} to remove{}",
                    did_you_mean(&id, present.iter().map(String::as_str))
                ),
            )
        });
    }
    if !gone.is_empty() {
        v.retain(|t| !gone.contains(t.key()));
    }
}

/// Applies the patches `list` (`"id": (field: value, …)` each) to the entries they name,
/// found through an index of the ids (a patch changes no id). An entry is patched once a
/// file: a second patch of it is a problem, so a file can't make the merge re-read one entry
/// a million times.
fn patch<T: Keyed + Serialize + DeserializeOwned>(
    v: &mut [T],
    list: &[Entry],
    (cat, f, lines): (&'static str, &Arc<SourceFile>, &Lines<'_>),
    mod_id: &str,
    origins: &mut HashMap<(&'static str, String), Origin>,
    found: &mut Listed,
) {
    let what = cat.trim_end_matches(".ron");
    let text = &f.text;
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, t) in v.iter().enumerate() {
        // The first of twins, as a search would find.
        index.entry(t.key().to_string()).or_insert(i);
    }
    let mut patched: HashSet<&str> = HashSet::new();
    for e in list {
        let Some(id) = e.string_key() else {
            found.push_with(Severity::Error, || {
                problem_in(
                    f,
                    lines,
                    e.key_at,
                    format!("{what}.patch"),
                    format!("`{}`: an id is written in quotes, like \"ranger\"", e.key),
                )
            });
            continue;
        };
        let Some(&i) = index.get(id) else {
            found.push_with(Severity::Error, || {
                problem_in(
                    f,
                    lines,
                    e.key_at,
                    format!("{what}.patch"),
                    format!(
                        "there is no `{id}` in {what} to patch{}",
                        did_you_mean(id, index.keys().map(String::as_str))
                    ),
                )
            });
            continue;
        };
        if !patched.insert(id) {
            found.push_with(Severity::Error, || {
                problem_in(
                    f,
                    lines,
                    e.key_at,
                    format!("{what}[{id}]"),
                    format!("`{id}` is patched twice in this file: merge the two patches"),
                )
            });
            continue;
        }
        let fields = match entries(text, e.value_at) {
            Ok((fields, _)) if text[e.value_at..].starts_with('(') => fields,
            Ok(_) => {
                found.push_with(Severity::Error, || {
                    problem_in(
                        f,
                        lines,
                        e.value_at,
                        format!("{what}[{id}]"),
                        "write the changes as `( field: value, … )`".into(),
                    )
                });
                continue;
            }
            Err((at, m)) => {
                found.push_with(Severity::Error, || {
                    problem_in(f, lines, at, format!("{what}[{id}]"), m)
                });
                continue;
            }
        };
        let path = format!("{what}[{id}]");
        if let Some(new) = patch_value(f, lines, &v[i], &fields, e.key_at, &path, found) {
            v[i] = new;
            origins.insert(
                (cat, id.to_string()),
                Origin {
                    mod_id: mod_id.to_string(),
                    file: f.clone(),
                },
            );
        }
    }
}

/// Adds entries; an id that already existed before this file is refused, at its place in the
/// part (searched only for the problems listed).
fn add<T: Keyed>(
    v: &mut Vec<T>,
    items: Vec<T>,
    (cat, f, lines, from): Part<'_>,
    mod_id: &str,
    origins: &mut HashMap<(&'static str, String), Origin>,
    found: &mut Listed,
) {
    let what = cat.trim_end_matches(".ron");
    let existing: BTreeSet<String> = v.iter().map(|t| t.key().to_string()).collect();
    for item in items {
        let id = item.key().to_string();
        if existing.contains(&id) {
            found.push_with(Severity::Error, || {
                let q = format!("\"{id}\"");
                let at = f.text[from..].find(&q).map_or(from, |i| from + i);
                let owner = origins
                    .get(&(cat, id.clone()))
                    .map_or("base".to_string(), |o| o.mod_id.clone());
                problem_in(
                    f,
                    lines,
                    at,
                    format!("{what}[{id}].id"),
                    format!(
                        "`{id}` already exists in {what} (from `{owner}`): to change it, patch \
                         it with `patch: {{\"{id}\": (field: value)}}`, or choose a new id"
                    ),
                )
            });
            continue;
        }
        origins.insert(
            (cat, id),
            Origin {
                mod_id: mod_id.to_string(),
                file: f.clone(),
            },
        );
        v.push(item);
    }
}
