//! The words of a chapter's actions, refusals and end reasons. The rules carry a chapter's
//! action and refusal as its own typed value in RON (`rules::chapter`); the chapter says how
//! each reads by installing its `ChapterWords` here (once, with its rules plugin), so this
//! layer never names a chapter. Without words, a plain form is shown: the chapter, the rule
//! and the value.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::Translations;

/// How a chapter words its values, in the language of a table.
#[derive(Clone, Copy)]
pub struct ChapterWords {
    /// An action (its RON text) as a button or log line reads it.
    pub action: fn(&Translations, &str) -> String,
    /// A refusal (its RON text), citing its rule.
    pub refusal: fn(&Translations, &str) -> String,
    /// An end reason the chapter gave (its code).
    pub end: fn(&Translations, &str) -> String,
    /// An event the chapter told (`GameEvent::Chapter`, its RON text), for the log.
    pub event: fn(&Translations, &str) -> String,
}

static WORDS: Mutex<Vec<(&'static str, ChapterWords)>> = Mutex::new(Vec::new());

/// The names a chapter's levels give their own things (a quest, a place, a card), by chapter
/// and id: an action's words carry an id and have no level at hand. Levels are untrusted: at
/// most `MAX_NAMES` are kept.
static NAMES: Mutex<BTreeMap<(String, String), String>> = Mutex::new(BTreeMap::new());

/// Most names `remember_names` keeps.
pub const MAX_NAMES: usize = 1024;

/// Keeps the names a chapter's level gives, `(id, name)`, for `name_of` (a chapter calls it
/// when it reads a level's fields).
pub fn remember_names<'a>(chapter: &str, names: impl IntoIterator<Item = (&'a str, &'a str)>) {
    let mut all = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    for (id, name) in names {
        let key = (chapter.to_string(), id.to_string());
        if all.len() < MAX_NAMES || all.contains_key(&key) {
            all.insert(key, name.to_string());
        }
    }
}

/// A chapter's thing named as the last level read names it; else its id.
pub fn name_of(chapter: &str, id: &str) -> String {
    NAMES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(chapter.to_string(), id.to_string()))
        .cloned()
        .unwrap_or_else(|| id.to_string())
}

/// Installs a chapter's words (installing again replaces them).
pub fn install(chapter: &'static str, words: ChapterWords) {
    let mut v = WORDS.lock().unwrap_or_else(|e| e.into_inner());
    v.retain(|(c, _)| *c != chapter);
    v.push((chapter, words));
}

/// The words a chapter installed.
pub fn words_of(chapter: &str) -> Option<ChapterWords> {
    WORDS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(c, _)| *c == chapter)
        .map(|(_, w)| *w)
}

/// A chapter's action in words.
pub fn action(tr: &Translations, chapter: &str, act: &str) -> String {
    match words_of(chapter) {
        Some(w) => (w.action)(tr, act),
        None => format!("{chapter}: {act}"),
    }
}

/// A chapter's refusal in words.
pub fn refusal(tr: &Translations, chapter: &str, rule: &str, reason: &str) -> String {
    match words_of(chapter) {
        Some(w) => (w.refusal)(tr, reason),
        None => format!("{rule}: {reason}"),
    }
}

/// A chapter's event in words.
pub fn event(tr: &Translations, chapter: &str, what: &str) -> String {
    match words_of(chapter) {
        Some(w) => (w.event)(tr, what),
        None => format!("{chapter}: {what}"),
    }
}

/// A chapter's end reason in words.
pub fn end(tr: &Translations, chapter: &str, code: &str) -> String {
    match words_of(chapter) {
        Some(w) => (w.end)(tr, code),
        None => format!("{chapter}: {code}"),
    }
}
