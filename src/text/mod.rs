//! Translations. English is the source language: the interface writes English strings, and a
//! language's table maps an English string (an interface label, a content name) to its
//! translation; what a table lacks shows in English. The base tables are `assets/i18n/*.ron`
//! (embedded); a mod ships its own in `i18n/LANG.ron`, merged over the base one. The language
//! switches live (`Settings::language`, followed by the app layer).
//!
//! This is the text layer: every sentence a player reads is built here from a structured value
//! (a refusal, an event, a warning, an action), in the player's language. The rules never word
//! anything; their types get their words in `refusal.rs`, `event.rs`, `warning.rs` and
//! `action.rs` (inherent impls, so a call reads `refusal.words(&tr)`).

mod action;
pub mod campaign;
pub mod chapter;
mod event;
mod outcome;
mod refusal;
mod warning;

pub use action::label;
pub use event::holder_words;
pub use outcome::end_headline;
pub use warning::corruption_chance;

use std::borrow::Cow;
use std::collections::HashMap;

use bevy::prelude::*;

use crate::content::SourceFile;
// A table file is content (a mod ships it); its reader lives there.
pub use crate::content::translations::{MAX_ENTRIES, language_of, parse_table, placeholders_agree};

/// The languages the game ships: (code, name in that language).
pub const LANGUAGES: [(&str, &str); 2] = [("en", "English"), ("fr", "Français")];

/// The base French table: the interface and the rules' messages.
pub const FR: &str = include_str!("../../assets/i18n/fr.ron");

/// The base French table of the content's longer texts (rules texts of units, buildings,
/// cards, technologies; level texts), kept apart so translators of either don't collide.
pub const FR_CONTENT: &str = include_str!("../../assets/i18n/fr.content.ron");

/// The table in use.
#[derive(Resource, Debug, Clone, Default)]
pub struct Translations {
    /// The language code.
    pub lang: String,
    /// English → translation.
    pub map: HashMap<String, String>,
    /// Tables the enabled mods ship: (language, table), applied over the base.
    pub mods: Vec<(String, HashMap<String, String>)>,
    /// The words of the app's chapters, and the names the level in play gives their things.
    pub chapters: chapter::ChapterTexts,
}

impl Translations {
    /// The base table of `lang` (empty for English or an unknown code).
    pub fn base(lang: &str) -> Translations {
        let files: &[(&str, &str)] = match lang {
            "fr" => &[
                ("assets/i18n/fr.ron", FR),
                ("assets/i18n/fr.content.ron", FR_CONTENT),
            ],
            _ => &[],
        };
        let mut map = HashMap::new();
        for (path, text) in files {
            // The embedded tables are checked by the tests; a broken one can't reach a player.
            map.extend(
                parse_table(&SourceFile {
                    path: (*path).into(),
                    text: (*text).into(),
                })
                .unwrap_or_default(),
            );
        }
        Translations {
            lang: lang.into(),
            map,
            mods: Vec::new(),
            chapters: chapter::ChapterTexts::default(),
        }
    }
    /// Adds a mod's table over this one (an entry that drops or adds a `{}` is left out: the
    /// checker reports it).
    pub fn extend(&mut self, more: HashMap<String, String>) {
        self.map
            .extend(more.into_iter().filter(|(k, v)| placeholders_agree(k, v)));
    }
    /// The translation of `s`, or `s`.
    pub fn t<'a>(&'a self, s: &'a str) -> Cow<'a, str> {
        match self.map.get(s) {
            Some(t) => Cow::Borrowed(t.as_str()),
            None => Cow::Borrowed(s),
        }
    }
    /// The name of the content entry with this id (`crystal_mine` → "Mine de cristal"), the id
    /// itself when `db` is absent or doesn't know it.
    pub fn name(&self, db: Option<&crate::content::ContentDb>, id: &str) -> String {
        let n = db.and_then(|db| db.name_of(id)).unwrap_or(id);
        self.t(n).into_owned()
    }
    /// A free-form text the rules wrote with values inside ("R6.3 chaos resistance of unit
    /// 12"): the exact entry if there is one, else the first template whose fixed parts match,
    /// its `{}` filled with what stood there. Unmatched text shows as written.
    pub fn dynamic(&self, s: &str) -> String {
        if let Some(t) = self.map.get(s) {
            return t.clone();
        }
        // The longest matching template is the most specific (and the choice doesn't depend on
        // the table's order).
        let best = self
            .map
            .iter()
            .filter(|(k, _)| k.contains("{}"))
            .filter_map(|(k, v)| match_template(k, s).map(|args| (k.len(), k, v, args)))
            .max_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        match best {
            Some((_, _, v, args)) => {
                // A value may itself be a name the table knows ("Crystal mine").
                let args: Vec<String> = args.iter().map(|a| self.t(a).into_owned()).collect();
                let args: Vec<&dyn std::fmt::Display> =
                    args.iter().map(|a| a as &dyn std::fmt::Display).collect();
                fill(v, &args)
            }
            None => s.to_string(),
        }
    }
    /// A stock in words (`2 bois, 1 pierre`).
    pub fn stock(&self, s: &crate::content::Stock) -> String {
        if s.is_empty() {
            return self.t("nothing").into_owned();
        }
        s.iter()
            .map(|(r, n)| format!("{n} {}", self.t(r.name())))
            .collect::<Vec<_>>()
            .join(", ")
    }
    /// A translated template with `{}` filled in order: `f("Cycle {}", &[&n])`.
    pub fn f(&self, template: &str, args: &[&dyn std::fmt::Display]) -> String {
        fill(&self.t(template), args)
    }
    /// A template whose words follow a count `n`: `forms` is the English text's forms, one and
    /// other, separated by `|` (`"{} famine token|{} famine tokens"`); a table's entry gives
    /// the language's forms the same way, as many as its plural rule has. The form `n` takes
    /// is filled with `args` in order.
    pub fn p(&self, forms: &str, n: u64, args: &[&dyn std::fmt::Display]) -> String {
        // English forms follow the English rule, a translation its language's.
        let (text, lang) = match self.map.get(forms) {
            Some(t) => (t.as_str(), self.lang.as_str()),
            None => (forms, "en"),
        };
        let list: Vec<&str> = text.split('|').collect();
        let i = plural_index(lang, n).min(list.len() - 1);
        fill(list[i], args)
    }
}

/// The plural rule of a language (CLDR cardinal rules, for whole numbers): the index of the
/// form a count takes among a template's `|`-separated forms. English, and any language
/// without a rule here: 1 takes the first form, every other count the second. French: 0 and 1
/// take the first (« 0 jeton », « 1 jeton », « 2 jetons »).
pub fn plural_index(lang: &str, n: u64) -> usize {
    match lang {
        "fr" => usize::from(n > 1),
        _ => usize::from(n != 1),
    }
}

/// `{}` in `template` filled with `args` in order.
fn fill(template: &str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::new();
    let mut rest: &str = template;
    for a in args {
        match rest.find("{}") {
            Some(i) => {
                out.push_str(&rest[..i]);
                out.push_str(&a.to_string());
                rest = &rest[i + 2..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// What each `{}` of `template` stands for in `s`, if `s` has the template's fixed parts in
/// order (each `{}` takes the shortest non-empty text up to the next fixed part).
pub fn match_template(template: &str, s: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = template.split("{}").collect();
    let mut rest = s.strip_prefix(parts[0])?;
    let mut args = Vec::new();
    for (i, part) in parts.iter().enumerate().skip(1) {
        let last = i == parts.len() - 1;
        let at = if last {
            // The final fixed part must end the text.
            if part.is_empty() {
                rest.len()
            } else {
                rest.strip_suffix(part)?.len()
            }
        } else {
            let first = rest.chars().next()?.len_utf8();
            rest[first..].find(part)? + first
        };
        if at == 0 {
            return None;
        }
        args.push(rest[..at].to_string());
        rest = &rest[at + part.len()..];
    }
    rest.is_empty().then_some(args)
}

/// Every name and text of the content a player reads (units and their card actions,
/// buildings, improvements, terrains, outpost sizes, technologies, cards, rituals,
/// difficulties, levels), each once, in a stable order: what a translation must cover.
pub fn content_texts(db: &crate::content::ContentDb) -> Vec<String> {
    let s = &db.set;
    let mut out: Vec<&str> = Vec::new();
    for t in &s.terrains {
        out.push(&t.name);
    }
    for x in &s.improvements {
        out.extend([x.name.as_str(), &x.text]);
    }
    for x in &s.buildings {
        out.extend([x.name.as_str(), &x.text]);
    }
    for x in &s.outpost_sizes {
        out.push(&x.name);
    }
    for u in &s.units {
        out.extend([u.name.as_str(), &u.text]);
        for a in &u.actions {
            out.extend([a.name.as_str(), &a.text]);
        }
    }
    for c in s.events.iter().chain(&s.chaos).chain(&s.artifacts) {
        out.extend([c.name.as_str(), &c.text]);
    }
    for c in &s.exploration {
        out.extend([c.name.as_str(), &c.text]);
    }
    for t in &s.research {
        out.extend([t.name.as_str(), &t.text]);
    }
    for r in &s.rituals {
        out.extend([r.name.as_str(), &r.text]);
    }
    for d in &s.difficulties {
        out.extend([d.name.as_str(), &d.text]);
    }
    for l in db.levels.values() {
        out.extend([l.name.as_str(), &l.description, &l.intro]);
        for o in &l.outposts {
            out.push(&o.name);
        }
        for t in l.difficulty_tweaks.values() {
            out.push(&t.text);
        }
    }
    for c in &s.campaigns {
        out.extend([c.name.as_str(), &c.description]);
        for ch in &c.chapters {
            out.extend([ch.name.as_str(), &ch.briefing]);
            out.extend(ch.rules.iter().map(String::as_str));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    out.into_iter()
        .filter(|x| !x.trim().is_empty())
        .filter(|x| seen.insert(*x))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_plural_form_of_their_language() {
        let forms = "{} famine token|{} famine tokens";
        let en = Translations::base("en");
        let words: Vec<String> = [0, 1, 2].iter().map(|n| en.p(forms, *n, &[n])).collect();
        assert_eq!(
            words,
            ["0 famine tokens", "1 famine token", "2 famine tokens"]
        );
        let mut fr = Translations::base("fr");
        // The second entry drops a placeholder in one form: it is left out.
        fr.extend(HashMap::from([
            (
                forms.to_string(),
                "{} jeton de famine|{} jetons de famine".to_string(),
            ),
            (
                "{} dog|{} dogs".to_string(),
                "un chien|{} chiens".to_string(),
            ),
        ]));
        let words: Vec<String> = [0, 1, 2].iter().map(|n| fr.p(forms, *n, &[n])).collect();
        assert_eq!(
            words,
            [
                "0 jeton de famine",
                "1 jeton de famine",
                "2 jetons de famine"
            ]
        );
        // Without an entry the English forms show, by the English rule.
        assert_eq!(fr.p("{} cat|{} cats", 0, &[&0]), "0 cats");
        assert_eq!(fr.p("{} dog|{} dogs", 1, &[&1]), "1 dog");
    }

    #[test]
    fn the_french_table_reads_and_fills_templates() {
        // Both embedded files parse (a broken one would silently show English), and no
        // string is translated in both.
        let read = |path: &str, text: &str| {
            parse_table(&SourceFile {
                path: path.into(),
                text: text.into(),
            })
            .unwrap_or_else(|p| panic!("{p}"))
        };
        let ui = read("fr.ron", FR);
        let content = read("fr.content.ron", FR_CONTENT);
        assert!(content.len() > 100, "{}", content.len());
        for k in content.keys() {
            assert!(!ui.contains_key(k), "translated twice: {k}");
        }
        let fr = Translations::base("fr");
        assert!(fr.map.len() > 100, "{}", fr.map.len());
        assert_eq!(fr.t("Ranger"), "Rôdeur");
        assert_eq!(fr.f("Cycle {}", &[&3]), "Cycle 3");
        assert_eq!(fr.t("no such string"), "no such string");
        let en = Translations::base("en");
        assert_eq!(en.f("Army {}", &[&7]), "Army 7");
        // Every template keeps its placeholders.
        for (k, v) in &fr.map {
            assert!(placeholders_agree(k, v), "{k} → {v}");
            assert_eq!(
                k.matches('|').count(),
                v.matches('|').count(),
                "French has two plural forms, as English: {k} → {v}"
            );
            assert!(!v.trim().is_empty(), "{k}");
        }
    }
}
