//! The chapters a program plays, as one value each (`Chapter`), and the set of them the program
//! passes to everything it builds (`ChapterSet`).
//!
//! A chapter is a Bevy plugin of a special kind: besides its rules it brings content (its own
//! catalogue files), and its window half is built only where there is a window. The set travels
//! with the content it was loaded with (`ContentDb::chapters`): content is read with the
//! chapters' catalogues, and every app made for that content (the window's, a headless game, an
//! AI's scratch copy, a forecast) builds the same chapters. Two sets in one process (a test
//! with a chapter of its own beside the shipped ones) never meet: nothing here is global.
//!
//! This layer only holds the values; `rules::chapter` says what a chapter's `build` may add to
//! the app (its steps, actions, state) and how the game plays them.

use std::fmt;
use std::sync::Arc;

use bevy::app::App;

use super::catalogue::{CatalogueEntry, Registered, SchemaSource};
use super::level_fields::{FieldsKind, LevelFields};

/// One chapter: its id, its content, its rules (with its AI and words) and its window half.
pub trait Chapter: Send + Sync + 'static {
    /// Its id, as a level plays it (`chapters: ["mercenaries"]`).
    fn id(&self) -> &'static str;
    /// Its catalogue files (`catalogues.register::<T>(…)`), read when content loads.
    fn content(&self, _catalogues: &mut ChapterContent) {}
    /// Its rules, its AI's terms and its words, built into every app the game makes.
    fn build(&self, app: &mut App);
    /// Its half of the window (panel, map marks, shows, help, sounds): only the window builds
    /// it, after every chapter's `build`.
    fn build_view(&self, _app: &mut App) {}
}

/// The chapters a program plays, in the order they were added, with their catalogues.
#[derive(Clone, Default)]
pub struct ChapterSet {
    chapters: Vec<Arc<dyn Chapter>>,
    catalogues: ChapterContent,
}

impl ChapterSet {
    /// No chapter.
    pub fn new() -> ChapterSet {
        ChapterSet::default()
    }

    /// This set and `chapter` (a chapter of the same id is replaced).
    pub fn with(mut self, chapter: impl Chapter) -> ChapterSet {
        let id = chapter.id();
        self.chapters.retain(|c| c.id() != id);
        self.chapters.push(Arc::new(chapter));
        let mut catalogues = ChapterContent::default();
        for c in &self.chapters {
            c.content(&mut catalogues);
        }
        self.catalogues = catalogues;
        self
    }

    /// The chapters, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Chapter> {
        self.chapters.iter().map(|c| &**c)
    }

    /// Their ids, in order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.chapters.iter().map(|c| c.id()).collect()
    }

    /// Whether the set has the chapter `id`.
    pub fn has(&self, id: &str) -> bool {
        self.chapters.iter().any(|c| c.id() == id)
    }

    /// The catalogue files of every chapter of the set.
    pub fn catalogues(&self) -> &ChapterContent {
        &self.catalogues
    }
}

impl fmt::Debug for ChapterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}

/// What the chapters bring to content: their catalogue files, by file name, and their level
/// fields, by chapter (a value: each `ChapterSet` holds its own, and content is loaded with it).
#[derive(Clone, Default)]
pub struct ChapterContent(
    Vec<Registered>,
    Vec<FieldsKind>,
    Vec<(&'static str, &'static [&'static str])>,
);

impl std::fmt::Debug for ChapterContent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChapterContent")
            .field(
                "catalogues",
                &self.0.iter().map(|r| r.file).collect::<Vec<_>>(),
            )
            .field(
                "fields",
                &self.1.iter().map(|k| k.chapter).collect::<Vec<_>>(),
            )
            .field("tracks", &self.2)
            .finish()
    }
}

impl ChapterContent {
    /// Registers `T` as the chapter `T::CHAPTER`'s fields of a level (`Level::ext[chapter]`):
    /// read typed and checked when content loads (registering again replaces them).
    pub fn level_fields<T: LevelFields>(&mut self) {
        let k = FieldsKind::of::<T>();
        self.1.retain(|x| x.chapter != k.chapter);
        self.1.push(k);
    }

    /// Declares the tracks (`tracks.ron`) the chapter `chapter` keeps: a level that plays it
    /// while one of them is not declared is refused when content loads.
    pub fn tracks(&mut self, chapter: &'static str, ids: &'static [&'static str]) {
        self.2.retain(|(c, _)| *c != chapter);
        self.2.push((chapter, ids));
    }

    /// The tracks the chapter `chapter` keeps.
    pub fn tracks_of(&self, chapter: &str) -> &[&'static str] {
        self.2
            .iter()
            .find(|(c, _)| *c == chapter)
            .map_or(&[], |(_, ids)| ids)
    }

    /// The chapters' level fields, in the order they were registered.
    pub fn fields(&self) -> impl Iterator<Item = &FieldsKind> {
        self.1.iter()
    }

    /// Registers `T`'s catalogue file (registering again replaces it).
    pub fn register<T: CatalogueEntry>(&mut self, schema: SchemaSource) {
        let r = Registered::of::<T>(schema);
        self.0.retain(|x| x.file != T::FILE);
        self.0.push(r);
        self.0.sort_by_key(|x| x.file);
    }

    /// The registered catalogue files, by file name.
    pub fn iter(&self) -> impl Iterator<Item = &Registered> {
        self.0.iter()
    }

    /// The registered catalogue with this file name.
    pub fn find(&self, file: &str) -> Option<&Registered> {
        self.0.iter().find(|r| r.file == file)
    }

    /// Every file name a content folder may hold: the core's catalogues, these and
    /// `levels.ron`.
    pub fn all_files(&self) -> Vec<&'static str> {
        super::mod_catalogs()
            .chain(self.0.iter().map(|r| r.file))
            .collect()
    }
}
