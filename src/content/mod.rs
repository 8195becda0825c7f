//! Content: the RON files that define terrains, units, buildings, decks, the portal, difficulty
//! levels and scenarios, loaded through one path for the game, the CLI and the tests.
//!
//! The base game is embedded in the binary by `build.rs` (so it runs from any directory) and is
//! loaded exactly like a folder on disk would be: `ContentDb::from_files`. Every problem found is a
//! `Problem` naming the file, the line and column, and the field, with a sentence that says how to
//! fix it.

pub mod campaign;
pub mod catalogue;
pub mod chapters;
mod level_ai;
pub mod level_fields;
pub mod map;
mod merge;
pub mod mods;
pub mod ron_text;
pub mod schema;
pub mod schema_doc;
pub mod translations;
mod validate;

pub use merge::mod_catalogs;
pub use validate::{MAX_SEARCH_NODES, on_map};

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::Resource;
use serde::de::DeserializeOwned;

pub use campaign::Campaign;
pub use chapters::{Chapter, ChapterContent, ChapterSet};
pub use schema::*;

/// Files embedded at build time: (path relative to the crate root, text).
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Largest content or level file read, in bytes: bounds memory on hostile input.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Longest name or text accepted.
pub const MAX_TEXT: usize = 4096;
/// Largest map radius (a hexagon of radius 200 holds 120,601 hexes).
pub const MAX_MAP_RADIUS: u32 = 200;
/// Most cards in one deck, copies counted.
pub const MAX_DECK: u32 = 10_000;
/// Most names a level's chapter fields give (`ContentDb::chapter_names`).
pub const MAX_NAMES: usize = 1024;
/// Most entries in one catalog or level list.
pub const MAX_ENTRIES: usize = 100_000;
/// Most problems listed for one file. A hostile file can hold a million faults (600,000
/// unknown ids fill a 6 MB `remove:` list), and placing each at its line and column costs a
/// search of the file: past this many, a file's problems are only counted, in one last line
/// (`Problem::more`). A modder fixes the first ones first and checks again.
pub const MAX_PROBLEMS_PER_FILE: usize = 100;
/// Most problems listed for one load, every file together (the base game's and each mod's):
/// past it the rest are counted, one line a file, as past `MAX_PROBLEMS_PER_FILE`. Bounds the
/// searches a load spends placing problems, and the report a person reads.
pub const MAX_PROBLEMS: usize = 1000;

/// How a line that stands for problems left out of a list begins (`Problem::more`).
const MORE: &str = "… and ";

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Severity {
    /// The content can't be used.
    Error,
    /// Usable, but probably not what the author meant.
    Warning,
}

/// One problem in one file, at one place.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// The file, as given.
    pub file: String,
    /// 1-based line (0 when the problem is about the whole file).
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// The field path, e.g. `units[ranger].corrupts_into`.
    pub field: String,
    /// What is wrong and how to fix it.
    pub message: String,
    /// The mod the file belongs to (`base` for the base game, empty when not loaded as a mod).
    #[serde(rename = "mod", skip_serializing_if = "String::is_empty")]
    pub mod_id: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if !self.mod_id.is_empty() && self.mod_id != "base" {
            write!(f, "[mod {}] ", self.mod_id)?;
        }
        write!(f, "{}:{}:{}: {sev}", self.file, self.line, self.col)?;
        if !self.field.is_empty() {
            write!(f, " in `{}`", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// A RON file's path and text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path as shown in messages (relative to the content root).
    pub path: String,
    /// The text.
    pub text: String,
}

/// The content files a content set is made of, by file name.
pub const CONTENT_FILES: [&str; 17] = [
    "rules.ron",
    "terrains.ron",
    "improvements.ron",
    "buildings.ron",
    "outposts.ron",
    "units.ron",
    "events.ron",
    "chaos.ron",
    "research.ron",
    "artifacts.ron",
    "exploration.ron",
    "rituals.ron",
    "portal.ron",
    "difficulty.ron",
    "ai.ron",
    "tracks.ron",
    "campaigns.ron",
];

/// All loaded content, checked, with indexes by id.
#[derive(Debug, Clone, Default)]
pub struct ContentDb {
    /// The content itself.
    pub set: ContentSet,
    /// Levels by id, in id order.
    pub levels: BTreeMap<String, Level>,
    /// Where each level came from.
    pub level_paths: BTreeMap<String, String>,
    /// Level files added from disk after the load (`add_level_file`: a path given on the
    /// command line), in order: content rebuilt in the window (a mod enabled, a base file
    /// edited) adds them again (`add_disk_levels_of`), or its game would lose its level.
    pub disk_levels: Vec<PathBuf>,
    /// Warnings found while loading (errors refuse the load).
    pub warnings: Vec<Problem>,
    /// The mods applied on the base game, in load order.
    pub mods: Vec<mods::Manifest>,
    terrain_ix: HashMap<String, usize>,
    unit_ix: HashMap<String, usize>,
    building_ix: HashMap<String, usize>,
    improvement_ix: HashMap<String, usize>,
    size_ix: HashMap<String, usize>,
    tech_ix: HashMap<String, usize>,
    /// The chapters this content was loaded for: their catalogues are read, and every app
    /// made for this content builds them.
    pub chapters: ChapterSet,
    /// The chapters' catalogues, typed (`catalogue`).
    typed: catalogue::Typed,
    /// Each level's chapter fields, typed (`level_fields`): by level, then chapter.
    level_fields: BTreeMap<String, BTreeMap<&'static str, level_fields::Typed>>,
    /// Each level's AI settings where it has its own `ai` fields (`level_ai`).
    level_ai: BTreeMap<String, Arc<AiWeights>>,
}

/// The content as a Bevy resource (shared, read-only).
#[derive(Resource, Clone, Debug)]
pub struct Content(pub Arc<ContentDb>);

impl std::ops::Deref for Content {
    type Target = ContentDb;
    fn deref(&self) -> &ContentDb {
        &self.0
    }
}

/// Parses one RON file into `T`, turning a syntax or type error into a `Problem`.
pub fn parse_ron<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Problem> {
    let opts = ron::Options::default();
    opts.from_str::<T>(&file.text).map_err(|e| {
        let msg = e.code.to_string();
        let field = match &e.code {
            ron::Error::NoSuchStructField { found, outer, .. } => match outer {
                Some(o) => format!("{o}.{found}"),
                None => found.to_string(),
            },
            ron::Error::MissingStructField { field, outer } => match outer {
                Some(o) => format!("{o}.{field}"),
                None => field.to_string(),
            },
            ron::Error::DuplicateStructField { field, .. } => field.to_string(),
            ron::Error::NoSuchEnumVariant { found, .. } => found.to_string(),
            _ => String::new(),
        };
        let hint = match &e.code {
            ron::Error::IntegerOutOfBounds => {
                "amounts, costs and counts are whole numbers from 0 up: no negative values"
            }
            ron::Error::NoSuchStructField { .. } | ron::Error::MissingStructField { .. } => {
                "see the fields of each type in docs/schema.md"
            }
            _ => "check the RON syntax and the field names in docs/schema.md",
        };
        Problem {
            severity: Severity::Error,
            file: file.path.clone(),
            line: e.span.start.line,
            col: e.span.start.col,
            field,
            message: format!("{msg} ({hint})"),
            mod_id: String::new(),
        }
    })
}

impl Problem {
    /// An error about a whole file (no line or field).
    pub fn whole_file(path: &Path, message: String) -> Problem {
        Problem {
            severity: Severity::Error,
            file: path.display().to_string(),
            line: 0,
            col: 0,
            field: String::new(),
            message,
            mod_id: String::new(),
        }
    }

    /// The line that stands for `count` problems of `file` left out of a list past its caps
    /// (`MAX_PROBLEMS_PER_FILE`, `MAX_PROBLEMS`), of `severity` (an error when one of them is:
    /// the content is refused all the same).
    pub fn more(file: &str, count: usize, severity: Severity) -> Problem {
        Problem {
            severity,
            file: file.to_string(),
            line: 0,
            col: 0,
            field: String::new(),
            message: format!(
                "{MORE}{count} more problems not listed: fix the ones above first, then check \
                 again"
            ),
            mod_id: String::new(),
        }
    }

    /// How many problems this line stands for, when it is one of `Problem::more`.
    pub fn left_out(&self) -> Option<usize> {
        if self.line != 0 || !self.field.is_empty() {
            return None;
        }
        self.message
            .strip_prefix(MORE)?
            .split(' ')
            .next()?
            .parse()
            .ok()
    }

    /// Whether this line stands for problems left out (`Problem::more`): lists put it last.
    pub fn is_more(&self) -> bool {
        self.left_out().is_some()
    }
}

/// `problems` as a list shows them: at most `MAX_PROBLEMS_PER_FILE` a file and `MAX_PROBLEMS`
/// in all, in their order; those past the caps, and the `Problem::more` lines already among
/// them, are counted in one `Problem::more` line a file, at the end.
pub fn cap(problems: Vec<Problem>) -> Vec<Problem> {
    cap_within(problems, MAX_PROBLEMS)
}

/// `cap`, with at most `total` problems listed in all (what a load has left of `MAX_PROBLEMS`).
pub fn cap_within(problems: Vec<Problem>, total: usize) -> Vec<Problem> {
    /// A file's problems left out: its mod, how many, whether an error is among them.
    struct Left {
        file: String,
        mod_id: String,
        count: usize,
        error: bool,
    }
    let mut out: Vec<Problem> = Vec::new();
    let mut per_file: HashMap<String, usize> = HashMap::new();
    let mut left: Vec<Left> = Vec::new();
    let mut left_at: HashMap<String, usize> = HashMap::new();
    for p in problems {
        let listed = per_file.entry(p.file.clone()).or_default();
        let count = match p.left_out() {
            Some(n) => n,
            None if *listed < MAX_PROBLEMS_PER_FILE && out.len() < total => {
                *listed += 1;
                out.push(p);
                continue;
            }
            None => 1,
        };
        let i = *left_at.entry(p.file.clone()).or_insert_with(|| {
            left.push(Left {
                file: p.file.clone(),
                mod_id: p.mod_id.clone(),
                count: 0,
                error: false,
            });
            left.len() - 1
        });
        left[i].count += count;
        left[i].error |= p.severity == Severity::Error;
    }
    for l in left {
        let severity = if l.error {
            Severity::Error
        } else {
            Severity::Warning
        };
        let mut p = Problem::more(&l.file, l.count, severity);
        p.mod_id = l.mod_id;
        out.push(p);
    }
    out
}

/// The problems of one file as they are found: listed while there is room (at most
/// `MAX_PROBLEMS_PER_FILE`, or what a load has left), then only counted. `push_with` builds a
/// problem (a search of the file for its line) only when there is room for it, so a file with
/// a million faults costs no more than its first ones and a count.
struct Listed {
    out: Vec<Problem>,
    room: usize,
    more: usize,
    more_error: bool,
}

impl Listed {
    /// Room for `room` problems.
    fn new(room: usize) -> Listed {
        Listed {
            out: Vec::new(),
            room,
            more: 0,
            more_error: false,
        }
    }
    /// Whether another problem would be listed.
    fn has_room(&self) -> bool {
        self.out.len() < self.room
    }
    /// How many more problems would be listed.
    fn room_left(&self) -> usize {
        self.room.saturating_sub(self.out.len())
    }
    /// A problem found: listed, or counted past the room.
    fn push(&mut self, p: Problem) {
        if self.has_room() {
            self.out.push(p);
        } else {
            self.count(p.severity);
        }
    }
    /// A problem of `severity` found, built by `make` only when it is listed.
    fn push_with(&mut self, severity: Severity, make: impl FnOnce() -> Problem) {
        if self.has_room() {
            self.out.push(make());
        } else {
            self.count(severity);
        }
    }
    fn count(&mut self, severity: Severity) {
        self.more += 1;
        self.more_error |= severity == Severity::Error;
    }
    /// How many problems were found, listed or counted.
    fn found(&self) -> usize {
        self.out.len() + self.more
    }
    /// How many are listed.
    fn listed(&self) -> usize {
        self.out.len()
    }
    /// Whether an error was found, listed or counted.
    fn has_errors(&self) -> bool {
        self.more_error || self.out.iter().any(|p| p.severity == Severity::Error)
    }
    /// The problems listed, then a `Problem::more` line for those counted, in `file`.
    fn finish(mut self, file: &str) -> Vec<Problem> {
        if self.more > 0 {
            let severity = if self.more_error {
                Severity::Error
            } else {
                Severity::Warning
            };
            self.out.push(Problem::more(file, self.more, severity));
        }
        self.out
    }
}

/// Reads a file from disk with a size bound; the error names the file.
pub fn read_bounded(path: &Path) -> Result<String, Problem> {
    crate::ground::files::read_bounded(path, MAX_FILE_BYTES)
        .map_err(|message| Problem::whole_file(path, message))
}

/// The base game's files, embedded at build time.
pub fn embedded_files() -> Vec<SourceFile> {
    embedded::FILES
        .iter()
        .map(|(p, t)| SourceFile {
            path: (*p).to_string(),
            text: (*t).to_string(),
        })
        .collect()
}

impl ContentDb {
    /// The base game, embedded at build time, for `chapters`.
    pub fn embedded(chapters: &ChapterSet) -> Result<ContentDb, Vec<Problem>> {
        ContentDb::from_files(embedded_files(), chapters)
    }

    /// Loads content from a game root on disk (`ROOT/assets/content/*.ron`, `ROOT/levels/*.ron`)
    /// for `chapters`.
    pub fn from_root(root: &Path, chapters: &ChapterSet) -> Result<ContentDb, Vec<Problem>> {
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for dir in [root.join("assets/content"), root.join("levels")] {
            match ron_files_in(&dir) {
                Ok(list) => {
                    for p in list {
                        match inside(root, &p).and_then(|_| read_bounded(&p)) {
                            Ok(text) => files.push(SourceFile {
                                path: p.strip_prefix(root).unwrap_or(&p).display().to_string(),
                                text,
                            }),
                            Err(e) => problems.push(e),
                        }
                    }
                }
                Err(e) => problems.push(e),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        ContentDb::from_files(files, chapters)
    }

    /// Builds the content from files: `…/content/NAME.ron` for the catalogs, `…levels/ID.ron` for
    /// levels. Every problem in every file is reported, not just the first. This is the base
    /// game's path through the same merge as mods (`mods::load`): each file adds its entries.
    /// `chapters` are the chapters it is for: their catalogue files are read among the files.
    pub fn from_files(
        files: Vec<SourceFile>,
        chapters: &ChapterSet,
    ) -> Result<ContentDb, Vec<Problem>> {
        let build = base_build(files, chapters)?;
        let (mut db, problems) = build.finish();
        let mut problems = cap(problems);
        if problems.iter().any(|p| p.severity == Severity::Error) {
            problems.sort_by_key(|p| (p.severity, p.is_more()));
            return Err(problems);
        }
        db.warnings = problems;
        Ok(db)
    }

    /// Adds a level from a file on disk (a path given on the command line), checked.
    pub fn add_level_file(&mut self, path: &Path) -> Result<String, Vec<Problem>> {
        let text = read_bounded(path).map_err(|p| vec![p])?;
        let file = SourceFile {
            path: path.display().to_string(),
            text,
        };
        let level: Level = parse_ron(&file).map_err(|p| vec![p])?;
        let mut budget = validate::Budget::default();
        let problems: Vec<Problem> =
            validate::level(self, &level, &file.path, &file.text, &mut budget)
                .into_iter()
                .filter(|p| p.severity == Severity::Error)
                .collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        let id = level.id.clone();
        self.insert_disk_level(level, path, file.path);
        Ok(id)
    }

    /// Puts a level read from a file on disk in place, and remembers the file.
    fn insert_disk_level(&mut self, level: Level, path: &Path, shown: String) {
        self.level_paths.insert(level.id.clone(), shown);
        self.levels.insert(level.id.clone(), level);
        if !self.disk_levels.iter().any(|p| p == path) {
            self.disk_levels.push(path.to_path_buf());
        }
        self.merge_level_ai();
        self.read_level_fields();
    }

    /// Reads every level's chapter fields, typed (those that do not read are left out: the
    /// load reported them).
    fn read_level_fields(&mut self) {
        let kinds: Vec<level_fields::FieldsKind> =
            self.chapters.catalogues().fields().copied().collect();
        self.level_fields = self
            .levels
            .iter()
            .map(|(id, level)| {
                let typed = kinds
                    .iter()
                    .filter_map(|k| k.read(level).map(|v| (k.chapter, v)))
                    .collect();
                (id.clone(), typed)
            })
            .collect();
    }

    /// The names the chapters' fields of the level `level` give their things (a place, a card,
    /// a quest): `(chapter, id, name)`, at most `MAX_NAMES` (levels are untrusted).
    pub fn chapter_names(&self, level: &str) -> Vec<(&'static str, String, String)> {
        let Some(typed) = self.level_fields.get(level) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for k in self.chapters.catalogues().fields() {
            if let Some(v) = typed.get(k.chapter) {
                out.extend(k.names(v).into_iter().map(|(id, n)| (k.chapter, id, n)));
            }
        }
        out.truncate(MAX_NAMES);
        out
    }

    /// The chapter `T::CHAPTER`'s fields of the level `level`, typed when content loaded;
    /// `None` where the level is unknown, its fields did not read, or `T` is not registered
    /// with the chapters of this content.
    pub fn level_fields<T: level_fields::LevelFields>(&self, level: &str) -> Option<Arc<T>> {
        let v = self.level_fields.get(level)?.get(T::CHAPTER)?.clone();
        v.downcast::<T>().ok()
    }

    /// Adds again, read afresh, the level files `old` had added from disk (a rebuilt content
    /// keeps the level the window was opened on). A file that no longer loads keeps `old`'s
    /// level as it was; its problems are returned, for the player to read.
    pub fn add_disk_levels_of(&mut self, old: &ContentDb) -> Vec<Problem> {
        let mut problems = Vec::new();
        for path in &old.disk_levels {
            if let Err(ps) = self.add_level_file(path) {
                problems.extend(ps);
                let shown = path.display().to_string();
                let kept = old.level_paths.iter().find(|(_, p)| **p == shown);
                if let Some(level) = kept.and_then(|(id, _)| old.levels.get(id)) {
                    self.insert_disk_level(level.clone(), path, shown);
                }
            }
        }
        problems
    }

    /// Rebuilds the id indexes after `set` was edited in place, and reads the levels' chapter
    /// fields again (after `levels` was).
    pub fn reindex(&mut self) {
        fn ix<T>(v: &[T], id: impl Fn(&T) -> &str) -> HashMap<String, usize> {
            v.iter()
                .enumerate()
                .map(|(i, t)| (id(t).to_string(), i))
                .collect()
        }
        self.terrain_ix = ix(&self.set.terrains, |t| &t.id);
        self.unit_ix = ix(&self.set.units, |t| &t.id);
        self.building_ix = ix(&self.set.buildings, |t| &t.id);
        self.improvement_ix = ix(&self.set.improvements, |t| &t.id);
        self.size_ix = ix(&self.set.outpost_sizes, |t| &t.id);
        self.tech_ix = ix(&self.set.research, |t| &t.id);
        self.typed = catalogue::Typed::build(&self.set, self.chapters.catalogues().iter());
        self.read_level_fields();
    }

    /// The rules' numbers.
    pub fn rules(&self) -> &RulesNumbers {
        &self.set.rules
    }
    /// A terrain by id.
    pub fn terrain(&self, id: &str) -> Option<&Terrain> {
        self.terrain_ix.get(id).map(|i| &self.set.terrains[*i])
    }
    /// A unit type by id.
    pub fn unit(&self, id: &str) -> Option<&UnitType> {
        self.unit_ix.get(id).map(|i| &self.set.units[*i])
    }
    /// A building by id.
    pub fn building(&self, id: &str) -> Option<&Building> {
        self.building_ix.get(id).map(|i| &self.set.buildings[*i])
    }
    /// An improvement by id.
    pub fn improvement(&self, id: &str) -> Option<&Improvement> {
        self.improvement_ix
            .get(id)
            .map(|i| &self.set.improvements[*i])
    }
    /// An outpost size by id.
    pub fn size(&self, id: &str) -> Option<&OutpostSize> {
        self.size_ix.get(id).map(|i| &self.set.outpost_sizes[*i])
    }
    /// A research card by id.
    pub fn tech(&self, id: &str) -> Option<&Tech> {
        self.tech_ix.get(id).map(|i| &self.set.research[*i])
    }
    /// The display name of whatever content entry has this id (unit, building, improvement,
    /// terrain, technology, card, ritual), for messages that carry only the id.
    pub fn name_of(&self, id: &str) -> Option<&str> {
        let s = &self.set;
        self.unit(id)
            .map(|x| x.name.as_str())
            .or_else(|| self.building(id).map(|x| x.name.as_str()))
            .or_else(|| self.improvement(id).map(|x| x.name.as_str()))
            .or_else(|| self.terrain(id).map(|x| x.name.as_str()))
            .or_else(|| self.tech(id).map(|x| x.name.as_str()))
            .or_else(|| {
                s.events
                    .iter()
                    .chain(&s.chaos)
                    .chain(&s.artifacts)
                    .find(|c| c.id == id)
                    .map(|c| c.name.as_str())
            })
            .or_else(|| {
                s.exploration
                    .iter()
                    .find(|c| c.id == id)
                    .map(|c| c.name.as_str())
            })
            .or_else(|| {
                s.rituals
                    .iter()
                    .find(|r| r.id == id)
                    .map(|r| r.name.as_str())
            })
            .or_else(|| {
                s.tracks
                    .iter()
                    .find(|t| t.id == id)
                    .map(|t| t.name.as_str())
            })
            .or_else(|| self.catalogue_name(id))
    }
    /// A hash of what the content means (not how its files are laid out): two builds whose
    /// content hashes match play a replay the same way. Comments and spacing don't count, nor
    /// the AIs' weights and search (`ai.ron`, and a level's own `ai` fields): a replay is its
    /// actions, the AI is not asked; nor the campaigns (`campaigns.ron`): a chapter's game
    /// holds what it was given in its setup, whatever the campaign file says now.
    pub fn hash(&self) -> u64 {
        // A level's AI fields are the AI's, like `ai.ron`: re-tuning how a level's Chaos plays
        // leaves every recorded game playing the same way.
        let levels: BTreeMap<&String, Level> = self
            .levels
            .iter()
            .map(|(id, l)| {
                let mut l = l.clone();
                l.ai = None;
                (id, l)
            })
            .collect();
        // Every field but `ai`, named once: destructured without `..`, so a new field fails
        // to compile here until it is hashed or left out on purpose. (Hashing the set with
        // `ai` at its default made every new AI setting change the hash.)
        // How a track is drawn (`show`, `every`) changes no game, like the AIs' weights.
        let set = ContentSet {
            tracks: self.set.tracks.iter().map(TrackDef::as_played).collect(),
            ..self.set.clone()
        };
        macro_rules! all_but_ai {
            ($($field:ident),*) => {{
                let ContentSet { ai: _, campaigns: _, $($field),* } = &set;
                ron::to_string(&(($($field,)*), &levels)).unwrap_or_default()
            }};
        }
        let text = all_but_ai!(
            rules,
            terrains,
            improvements,
            buildings,
            outpost_sizes,
            units,
            events,
            chaos,
            research,
            artifacts,
            exploration,
            rituals,
            portal,
            difficulties,
            tracks,
            catalogues
        );
        crate::ground::hash::fnv1a(text.as_bytes())
    }
    /// The difficulty with this id.
    pub fn difficulty(&self, id: &str) -> Option<&Difficulty> {
        self.set.difficulties.iter().find(|d| d.id == id)
    }
    /// The difficulty `id` as played on `level`: `difficulty.ron`'s values plus the level's
    /// `difficulty_tweaks`. An unknown id plays as the rules are written (validation reports it).
    pub fn difficulty_for(&self, level: &str, id: &str) -> Difficulty {
        let base = self.difficulty(id).cloned().unwrap_or_else(|| Difficulty {
            id: id.to_string(),
            name: id.to_string(),
            ..Default::default()
        });
        match self
            .levels
            .get(level)
            .and_then(|l| l.difficulty_tweaks.get(id))
        {
            Some(t) => base.tweaked(t),
            None => base,
        }
    }
    /// The portal (validated to exist).
    pub fn portal(&self) -> &PortalDef {
        static FALLBACK: std::sync::OnceLock<PortalDef> = std::sync::OnceLock::new();
        self.set
            .portal
            .as_ref()
            .unwrap_or_else(|| FALLBACK.get_or_init(PortalDef::empty))
    }
    /// Finds a level by id, or loads it from a path (`levels/x.ron`, `./my.ron`).
    pub fn resolve_level(&mut self, name: &str) -> Result<String, Vec<Problem>> {
        if self.levels.contains_key(name) {
            return Ok(name.to_string());
        }
        let path = PathBuf::from(name);
        if name.ends_with(".ron") || path.exists() {
            return self.add_level_file(&path);
        }
        Err(vec![Problem {
            severity: Severity::Error,
            file: name.to_string(),
            line: 0,
            col: 0,
            field: String::new(),
            message: format!(
                "no level named `{name}`; known levels: {}",
                self.levels.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
            mod_id: String::new(),
        }])
    }
}

/// The base game's files merged (parse errors only; validation comes after). A file named like
/// a content file (the core's or a registered chapter catalogue) is one; any other RON file is
/// a level.
fn base_build(files: Vec<SourceFile>, chapters: &ChapterSet) -> Result<merge::Build, Vec<Problem>> {
    let mut build = merge::Build {
        chapters: chapters.clone(),
        ..Default::default()
    };
    let catalogues = chapters.catalogues();
    let mut problems = Vec::new();
    let mut catalogs: Vec<(&'static str, SourceFile)> = Vec::new();
    let mut level_files = Vec::new();
    let mut chapter_files: Vec<(catalogue::Registered, SourceFile)> = Vec::new();
    for f in files {
        let name = Path::new(&f.path)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        match CONTENT_FILES.iter().find(|c| **c == name) {
            Some(c) => catalogs.push((c, f)),
            None => match catalogues.find(&name) {
                Some(r) => chapter_files.push((*r, f)),
                None => level_files.push(f),
            },
        }
    }
    // A later file of the same name replaces an earlier one (a folder overriding the embedded).
    for name in CONTENT_FILES {
        match catalogs.iter().rev().find(|(c, _)| *c == name) {
            Some((c, f)) => problems.extend(build.apply(c, Arc::new(f.clone()), "base")),
            // Optional: the base game has no portal file of its own in a bare test set, and no
            // tracks (a chapter brings them).
            None if matches!(name, "portal.ron" | "tracks.ron" | "campaigns.ron") => {}
            None => problems.push(Problem::whole_file(
                Path::new(name),
                format!("missing content file {name}"),
            )),
        }
    }
    // A chapter's catalogue: the last file of its name, like the core's.
    for r in catalogues.iter() {
        if let Some((_, f)) = chapter_files.iter().rev().find(|(c, _)| c.file == r.file) {
            problems.extend(r.apply(&mut build, Arc::new(f.clone()), "base"));
        }
    }
    for f in level_files {
        problems.extend(build.add_level(Arc::new(f), "base"));
    }
    for p in &mut problems {
        p.mod_id.clear();
    }
    if problems.iter().any(|p| p.severity == Severity::Error) {
        return Err(cap(problems));
    }
    Ok(build)
}

/// `path` if it really lies inside `root` once links and `..` are resolved; a mod or content
/// folder may not reach outside itself (a link to `../../secret.ron` is refused).
pub fn inside(root: &Path, path: &Path) -> Result<PathBuf, Problem> {
    let refuse = |message: String| Problem::whole_file(path, message);
    let root = root
        .canonicalize()
        .map_err(|e| refuse(format!("can't resolve the folder: {e}")))?;
    let real = path
        .canonicalize()
        .map_err(|e| refuse(format!("can't resolve: {e}")))?;
    if real.starts_with(&root) {
        Ok(real)
    } else {
        Err(refuse(format!(
            "leads outside its folder {} (to {}): refused",
            root.display(),
            real.display()
        )))
    }
}

/// The `.ron` files directly in `dir`, sorted (at most 10,000).
pub fn ron_files_in(dir: &Path) -> Result<Vec<PathBuf>, Problem> {
    let rd = std::fs::read_dir(dir).map_err(|e| Problem {
        severity: Severity::Error,
        file: dir.display().to_string(),
        line: 0,
        col: 0,
        field: String::new(),
        message: format!("can't read folder: {e}"),
        mod_id: String::new(),
    })?;
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
        .take(10_000)
        .collect();
    out.sort();
    Ok(out)
}

/// The first occurrence of `needle` at or after `from` that is not inside a `//` comment.
fn find_outside_comments(text: &str, from: usize, needle: &str) -> Option<usize> {
    let mut at = from;
    while let Some(i) = text.get(at..)?.find(needle) {
        let hit = at + i;
        let line_start = text[..hit].rfind('\n').map(|j| j + 1).unwrap_or(0);
        if !text[line_start..hit].contains("//") {
            return Some(hit);
        }
        // The rest of the line is in the comment too: the search goes on at the next line, so
        // a long comment full of the needle is read once, not once a hit.
        at = text[hit..].find('\n').map_or(text.len(), |j| hit + j + 1);
    }
    None
}

/// Finds the line and column of a value in a RON text: the first anchor, then each next anchor
/// after it (`["\"farm\"", "terrains", "\"plainz\""]`). Falls back to the longest prefix found.
pub fn locate(text: &str, anchors: &[&str]) -> (usize, usize) {
    let mut pos = 0usize;
    let mut found_any = false;
    for a in anchors {
        match find_outside_comments(text, pos, a) {
            Some(i) => {
                pos = i;
                found_any = true;
            }
            None => break,
        }
    }
    if !found_any {
        return (1, 1);
    }
    ron_text::line_col(text, pos)
}
