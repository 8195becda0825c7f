//! A chapter's own fields of a level (`Level::ext[CHAPTER]`: the Wyvern Wardens' places and
//! decks, the clans' provinces), typed and checked when content loads, like the core's fields.
//!
//! A chapter registers its fields' type from its `Chapter::content`
//! (`content.level_fields::<T>()`). Loading a level then reads `ext[CHAPTER]` as `T`: a value
//! that does not read is a problem at its file, line and column with the field path
//! (`ext.mercenaries.places[1].slots`), and so is each finding of `LevelFields::check`. The
//! rules read the typed value (`ContentDb::level_fields::<T>`), read once per load.

use std::any::Any;
use std::cell::OnceCell;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::catalogue::Check;
use super::{ContentDb, Level, Problem, Severity, locate, ron_text};

/// A chapter's fields of a level, read from `Level::ext[CHAPTER]`.
pub trait LevelFields: DeserializeOwned + Default + Send + Sync + 'static {
    /// The chapter (the key under `ext`).
    const CHAPTER: &'static str;
    /// What is wrong with them, read against their level (its map) and the content: each check
    /// names its field path below `ext.CHAPTER` (`places[2].slots`).
    fn check(&self, _level: &Level, _db: &ContentDb) -> Vec<Check> {
        Vec::new()
    }
    /// The names they give the chapter's things (a place, a card), `(id, name)`, for the words.
    fn names(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// A typed level's fields, type-erased.
pub type Typed = Arc<dyn Any + Send + Sync>;

/// A chapter's level fields, type-erased (`ChapterContent::level_fields`).
#[derive(Clone, Copy)]
pub struct FieldsKind {
    /// The chapter.
    pub chapter: &'static str,
    default: fn() -> Typed,
    read: fn(&str) -> Result<Typed, ron::error::SpannedError>,
    check: fn(&Typed, &Level, &ContentDb) -> Vec<Check>,
    names: fn(&Typed) -> Vec<(String, String)>,
}

impl FieldsKind {
    pub(super) fn of<T: LevelFields>() -> FieldsKind {
        FieldsKind {
            chapter: T::CHAPTER,
            default: || Arc::new(T::default()) as Typed,
            read: |text| ron::from_str::<T>(text).map(|v| Arc::new(v) as Typed),
            check: |v, level, db| {
                v.downcast_ref::<T>()
                    .map(|v| v.check(level, db))
                    .unwrap_or_default()
            },
            names: |v| v.downcast_ref::<T>().map(T::names).unwrap_or_default(),
        }
    }

    /// The level's fields of this chapter, typed: the default when the level gives none;
    /// `None` when they do not read (the load reported it).
    pub fn read(&self, level: &Level) -> Option<Typed> {
        match level.ext.get(self.chapter) {
            None => Some((self.default)()),
            Some(raw) => (self.read)(raw.get_ron()).ok(),
        }
    }

    /// The names the fields give, where they read.
    pub fn names(&self, v: &Typed) -> Vec<(String, String)> {
        (self.names)(v)
    }

    /// The problems of the level's fields of this chapter: a value that does not read, or the
    /// chapter's checks, each at its place in the level's file `file` (text `text`). Only the
    /// first `room` are placed (a search of the file each, and of the file for the value once);
    /// the others come with line 0, for the caller to count.
    pub(super) fn problems(
        &self,
        db: &ContentDb,
        level: &Level,
        file: &str,
        text: &str,
        room: usize,
    ) -> Vec<Problem> {
        let Some(raw) = level.ext.get(self.chapter) else {
            return Vec::new();
        };
        let chapter = self.chapter;
        let raw = raw.get_ron();
        // The value's place in the file (its text is the file's, as written): searched once,
        // and only when a problem is placed, since a file many levels share (a mod's
        // `levels.ron`) would otherwise be read through once a level.
        let found_at = OnceCell::new();
        let base = || *found_at.get_or_init(|| text.find(raw));
        let problem = |line: usize, col: usize, field: String, message: String| Problem {
            severity: Severity::Error,
            file: file.to_string(),
            line,
            col,
            field,
            message,
            mod_id: String::new(),
        };
        match (self.read)(raw) {
            Err(e) if room == 0 => {
                vec![problem(0, 0, format!("ext.{chapter}"), e.code.to_string())]
            }
            Err(e) => {
                // Where the error stands in the value, and so in the file.
                let at = offset_of(raw, e.span.start.line, e.span.start.col);
                let (line, col) = match base() {
                    Some(b) => ron_text::line_col(text, b + at),
                    None => locate(text, &["ext:", &format!("\"{chapter}\"")]),
                };
                let path = Some(ron_text::path_at(raw, at))
                    .filter(|p| !p.is_empty())
                    .map(|p| format!("ext.{chapter}.{p}"))
                    .unwrap_or_else(|| format!("ext.{chapter}"));
                vec![problem(line, col, path, e.code.to_string())]
            }
            Ok(v) => (self.check)(&v, level, db)
                .into_iter()
                .enumerate()
                .map(|(n, c)| {
                    let field = if c.field.is_empty() {
                        format!("ext.{chapter}")
                    } else {
                        format!("ext.{chapter}.{}", c.field)
                    };
                    let (line, col) = if n < room {
                        place(text, raw, base(), chapter, &c.field)
                    } else {
                        (0, 0)
                    };
                    let mut p = problem(line, col, field, c.message);
                    p.severity = c.severity;
                    p
                })
                .collect(),
        }
    }
}

/// Where the chapter `chapter`'s field `field` stands in a level's text `text`: the value the
/// path names, where the value `raw` (found at `base`) has it; else each part of the path as
/// an anchor: a field as `name:`, a list's entry by its id as `"id"`.
fn place(text: &str, raw: &str, base: Option<usize>, chapter: &str, field: &str) -> (usize, usize) {
    if let Some((b, o)) = base.zip(ron_text::offset_of_path(raw, field)) {
        return ron_text::line_col(text, b + o);
    }
    let mut anchors: Vec<String> = vec!["ext:".into(), format!("\"{chapter}\"")];
    for part in field.split('.') {
        let (name, ids) = part.split_once('[').unwrap_or((part, ""));
        if !name.is_empty() {
            anchors.push(format!("{name}:"));
        }
        for id in ids.split('[').map(|i| i.trim_end_matches(']')) {
            if !id.is_empty() && id.parse::<usize>().is_err() {
                anchors.push(format!("\"{id}\""));
            }
        }
    }
    let anchors: Vec<&str> = anchors.iter().map(String::as_str).collect();
    locate(text, &anchors)
}

/// The byte offset of a 1-based line and column in `text`.
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut at = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return at
                + l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        at += l.len();
    }
    text.len()
}

/// Checks written as lines `field: what is wrong` (a chapter's own check) as `Check`s on their
/// field; a line without a field is on the whole value.
pub fn checks_from_lines(lines: Vec<String>) -> Vec<Check> {
    lines
        .into_iter()
        .map(|l| match l.split_once(": ") {
            Some((field, message))
                if !field.is_empty()
                    && field
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c)) =>
            {
                Check::error(field, message)
            }
            _ => Check::error("", l),
        })
        .collect()
}
