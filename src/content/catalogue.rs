//! A chapter's own catalogue files (`monsters.ron`, `quests.ron`, `route.ron`…), beside the
//! core's. The content layer never names a chapter. A chapter registers each of its files from
//! its `Chapter::content` (`ChapterContent::register::<T>`). In content loaded with that
//! chapter, the file is treated like a core catalogue:
//! - read from the base game's content and from every mod's `content/` folder;
//! - merged by mods: a plain list adds entries, or `( add: […], patch: {"id": (…)}, remove: […] )`,
//!   each by id;
//! - checked: parse errors and the chapter's own `CatalogueEntry::check` name the file,
//!   line:column and field (`omens[ember].value`), a mod's entry in that mod's file;
//! - hashed into the content hash, and listed by `schema` with its type's doc comments.
//!
//! The rules read it typed: `db.catalogue::<T>()`. Entries are kept as canonical RON in
//! `ContentSet::catalogues`, so the content hash sees them. A typed copy is built once per
//! content load.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::merge::{Build, Keyed, list};
use super::{ContentDb, Severity, SourceFile};

/// An entry of a chapter's catalogue file: a value with an id.
pub trait CatalogueEntry:
    Serialize + DeserializeOwned + Clone + std::fmt::Debug + Send + Sync + 'static
{
    /// The file's name under `content/` (`"omens.ron"`); it must not be a core file's.
    const FILE: &'static str;
    /// The chapter it belongs to.
    const CHAPTER: &'static str;
    /// The entry's id (unique in the file; mods patch and remove by it).
    fn id(&self) -> &str;
    /// Its display name (translated by the tables like any content name).
    fn name(&self) -> &str {
        self.id()
    }
    /// What is wrong with it, read against the rest of the content (a unit it names that does
    /// not exist, a number out of bounds). Each check names the entry's field.
    fn check(&self, _db: &ContentDb) -> Vec<Check> {
        Vec::new()
    }
}

/// One finding of a `CatalogueEntry::check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Error (the content is refused) or warning.
    pub severity: Severity,
    /// The entry's field at fault (`"value"`, `"unit"`); empty for the whole entry.
    pub field: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Check {
    /// An error on `field`.
    pub fn error(field: &str, message: impl Into<String>) -> Check {
        Check {
            severity: Severity::Error,
            field: field.into(),
            message: message.into(),
        }
    }
    /// A warning on `field`.
    pub fn warning(field: &str, message: impl Into<String>) -> Check {
        Check {
            severity: Severity::Warning,
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Where `schema` finds the documentation of a catalogue's entry type: the Rust source that
/// declares it (`include_str!`), and the types of it to list, the entry's first.
#[derive(Debug, Clone, Copy)]
pub struct SchemaSource {
    /// The source's path, as the reference shows it.
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
    /// The types to document, the entry type first.
    pub types: &'static [&'static str],
}

/// The most entries a chapter's catalogue may hold (content is untrusted: bounded).
pub const MAX_ENTRIES: usize = 10_000;

/// A registered catalogue file.
#[derive(Clone, Copy)]
pub struct Registered {
    /// Its file name.
    pub file: &'static str,
    /// Its chapter.
    pub chapter: &'static str,
    /// Its documentation.
    pub schema: SchemaSource,
    apply: ApplyFn,
    decode: fn(&[String]) -> Arc<dyn Any + Send + Sync>,
    check: fn(&ContentDb) -> Vec<(String, Check)>,
    name_of: NameFn,
}

type NameFn = for<'a> fn(&'a ContentDb, &str) -> Option<&'a str>;

type ApplyFn = fn(&mut Build, &'static str, &Arc<SourceFile>, &str) -> Vec<super::Problem>;

impl Registered {
    /// `T`'s catalogue file, documented by `schema` (`ChapterContent::register`).
    pub(super) fn of<T: CatalogueEntry>(schema: SchemaSource) -> Registered {
        Registered {
            file: T::FILE,
            chapter: T::CHAPTER,
            schema,
            apply: apply_as::<T>,
            decode: decode_as::<T>,
            check: check_as::<T>,
            name_of: name_as::<T>,
        }
    }
}

impl Registered {
    /// Applies one file of this catalogue (the base game's or a mod's).
    pub(super) fn apply(
        &self,
        build: &mut Build,
        f: Arc<SourceFile>,
        mod_id: &str,
    ) -> Vec<super::Problem> {
        let mut ps = (self.apply)(build, self.file, &f, mod_id);
        for p in &mut ps {
            p.mod_id = mod_id.to_string();
        }
        if mod_id == "base" {
            build.catalog_files.insert(self.file, f);
        }
        ps
    }
    /// Its checks, each with the entry's id.
    pub(super) fn check(&self, db: &ContentDb) -> Vec<(String, Check)> {
        (self.check)(db)
    }
}

/// An entry as the merge sees it: keyed by its id.
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
struct Entry<T>(T);

impl<T: CatalogueEntry> Keyed for Entry<T> {
    fn key(&self) -> &str {
        self.0.id()
    }
}

fn apply_as<T: CatalogueEntry>(
    build: &mut Build,
    file: &'static str,
    f: &Arc<SourceFile>,
    mod_id: &str,
) -> Vec<super::Problem> {
    let store = build.set.catalogues.entry(file.to_string()).or_default();
    // The stored entries were written from `T` by this very function: they read back.
    let mut v: Vec<Entry<T>> = store.iter().filter_map(|s| ron::from_str(s).ok()).collect();
    let mut ps = list(&mut v, file, f, mod_id, &mut build.origins);
    if v.len() > MAX_ENTRIES {
        v.truncate(MAX_ENTRIES);
        ps.push(super::Problem::whole_file(
            std::path::Path::new(&f.path),
            format!("more than {MAX_ENTRIES} entries in {file}: the rest are left out"),
        ));
    }
    *store = v.iter().filter_map(|e| ron::to_string(&e.0).ok()).collect();
    ps
}

fn decode_as<T: CatalogueEntry>(store: &[String]) -> Arc<dyn Any + Send + Sync> {
    let v: Vec<T> = store.iter().filter_map(|s| ron::from_str(s).ok()).collect();
    Arc::new(v)
}

fn check_as<T: CatalogueEntry>(db: &ContentDb) -> Vec<(String, Check)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for e in db.catalogue::<T>() {
        let id = e.id().to_string();
        if id.is_empty() {
            out.push((id.clone(), Check::error("id", "an id can't be empty")));
        }
        // Within one file a mod's merge doesn't see twins (it checks against what was there).
        if !seen.insert(id.clone()) {
            out.push((
                id.clone(),
                Check::error(
                    "id",
                    format!("duplicate id `{id}`: give each entry its own id"),
                ),
            ));
        }
        out.extend(e.check(db).into_iter().map(|c| (id.clone(), c)));
    }
    out
}

fn name_as<'a, T: CatalogueEntry>(db: &'a ContentDb, id: &str) -> Option<&'a str> {
    db.catalogue::<T>()
        .iter()
        .find(|e| e.id() == id)
        .map(|e| e.name())
}

/// The typed copies of the chapters' catalogues, built when content is indexed.
#[derive(Clone, Default)]
pub struct Typed(BTreeMap<&'static str, Arc<dyn Any + Send + Sync>>);

impl std::fmt::Debug for Typed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.keys()).finish()
    }
}

impl Typed {
    /// Decodes every registered catalogue's stored entries.
    pub(super) fn build<'a>(
        set: &super::ContentSet,
        catalogues: impl Iterator<Item = &'a Registered>,
    ) -> Typed {
        Typed(
            catalogues
                .map(|r| {
                    let store = set.catalogues.get(r.file).map_or(&[][..], |v| &v[..]);
                    (r.file, (r.decode)(store))
                })
                .collect(),
        )
    }
}

impl ContentDb {
    /// The entries of the chapter catalogue of `T`, in file order (after mods); empty where
    /// none was loaded or `T` was never registered.
    pub fn catalogue<T: CatalogueEntry>(&self) -> &[T] {
        self.typed
            .0
            .get(T::FILE)
            .and_then(|a| a.downcast_ref::<Vec<T>>())
            .map_or(&[], |v| &v[..])
    }
    /// The display name of an entry of any chapter catalogue.
    pub(super) fn catalogue_name(&self, id: &str) -> Option<&str> {
        self.chapters
            .catalogues()
            .iter()
            .find_map(|r| (r.name_of)(self, id))
    }
}
