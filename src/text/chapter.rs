//! The words of a chapter's actions, refusals, events and end reasons. The rules carry a
//! chapter's action, refusal and event as its own typed value (`rules::chapter::ChapterValue`,
//! read back with `get`); the chapter says how
//! each reads by adding its `ChapterWords` to the app (`app.add_chapter_words`, from its
//! `Chapter::build`), so this layer never names a chapter. The words travel with the language's
//! table (`Translations::chapters`): whoever words a thing in a language words a chapter's too.
//! Without words, a plain form is shown: the chapter, the rule and the value.
//!
//! A chapter's things (a place, a card, a quest) are named as the level in play names them:
//! the table follows that level (`ChapterTexts::follow_level`, by the app when a game starts or
//! its content changes).

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::Translations;
use crate::content::ContentDb;
use crate::rules::chapter::ChapterValue;

/// How a chapter words its values, in the language of a table.
#[derive(Clone, Copy)]
pub struct ChapterWords {
    /// An action (`ChapterValue::get` reads it typed) as a button or log line reads it.
    pub action: fn(&Translations, &ChapterValue) -> String,
    /// A refusal, citing its rule.
    pub refusal: fn(&Translations, &ChapterValue) -> String,
    /// An end reason the chapter gave (its code).
    pub end: fn(&Translations, &str) -> String,
    /// An event the chapter told (`GameEvent::Chapter`), for the log.
    pub event: fn(&Translations, &ChapterValue) -> String,
}

/// The chapters' words a table carries, and the names the level in play gives their things.
#[derive(Clone, Default)]
pub struct ChapterTexts {
    words: Arc<Vec<(&'static str, ChapterWords)>>,
    /// (level, content) the names were read from: the content by its address, which stays
    /// while its `Arc` is held here.
    from: Option<(String, Arc<ContentDb>)>,
    names: Arc<BTreeMap<(String, String), String>>,
}

impl std::fmt::Debug for ChapterTexts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChapterTexts")
            .field(
                "words",
                &self.words.iter().map(|(c, _)| c).collect::<Vec<_>>(),
            )
            .field("names", &self.names.len())
            .finish()
    }
}

impl ChapterTexts {
    /// Adds a chapter's words (adding again replaces them).
    pub fn add(&mut self, chapter: &'static str, words: ChapterWords) {
        let v = Arc::make_mut(&mut self.words);
        v.retain(|(c, _)| *c != chapter);
        v.push((chapter, words));
    }

    /// The words of `chapter`, if it added any.
    pub fn words_of(&self, chapter: &str) -> Option<ChapterWords> {
        self.words
            .iter()
            .find(|(c, _)| *c == chapter)
            .map(|(_, w)| *w)
    }

    /// Reads the names the level `level` of `content` gives the chapters' things, when the
    /// level or the content changed since the last read; whether it read them.
    pub fn follow_level(&mut self, content: &Arc<ContentDb>, level: &str) -> bool {
        if self
            .from
            .as_ref()
            .is_some_and(|(l, c)| l == level && Arc::ptr_eq(c, content))
        {
            return false;
        }
        // The names the chapters' level fields give (`LevelFields::names`), read at load.
        let names: BTreeMap<(String, String), String> = content
            .chapter_names(level)
            .into_iter()
            .map(|(chapter, id, name)| ((chapter.to_string(), id), name))
            .collect();
        self.names = Arc::new(names);
        self.from = Some((level.to_string(), content.clone()));
        true
    }

    /// A chapter's thing named as the level in play names it; else its id.
    pub fn name_of(&self, chapter: &str, id: &str) -> String {
        self.names
            .get(&(chapter.to_string(), id.to_string()))
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }
}

/// Adding a chapter's words to an app (its table, `Translations`, carries them).
pub trait ChapterWordsExt {
    /// The words of `chapter`'s values.
    fn add_chapter_words(&mut self, chapter: &'static str, words: ChapterWords) -> &mut Self;
}

impl ChapterWordsExt for App {
    fn add_chapter_words(&mut self, chapter: &'static str, words: ChapterWords) -> &mut Self {
        self.world_mut()
            .get_resource_or_init::<Translations>()
            .chapters
            .add(chapter, words);
        self
    }
}

/// A chapter's action in words.
pub fn action(tr: &Translations, chapter: &str, act: &ChapterValue) -> String {
    match tr.chapters.words_of(chapter) {
        Some(w) => (w.action)(tr, act),
        None => format!("{chapter}: {act}"),
    }
}

/// A chapter's refusal in words.
pub fn refusal(tr: &Translations, chapter: &str, rule: &str, reason: &ChapterValue) -> String {
    match tr.chapters.words_of(chapter) {
        Some(w) => (w.refusal)(tr, reason),
        None => format!("{rule}: {reason}"),
    }
}

/// A chapter's event in words.
pub fn event(tr: &Translations, chapter: &str, what: &ChapterValue) -> String {
    match tr.chapters.words_of(chapter) {
        Some(w) => (w.event)(tr, what),
        None => format!("{chapter}: {what}"),
    }
}

/// A chapter's end reason in words.
pub fn end(tr: &Translations, chapter: &str, code: &str) -> String {
    match tr.chapters.words_of(chapter) {
        Some(w) => (w.end)(tr, code),
        None => format!("{chapter}: {code}"),
    }
}
