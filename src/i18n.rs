//! Translations. English is the source language: the interface writes English strings, and a
//! language's table maps an English string (an interface label, a content name) to its
//! translation; what a table lacks shows in English. The base tables are `assets/i18n/*.ron`
//! (embedded); a mod ships its own in `i18n/LANG.ron`, merged over the base one. The language
//! switches live (`Settings::language`).

use std::borrow::Cow;
use std::collections::HashMap;

use bevy::prelude::*;

use crate::content::{SourceFile, parse_ron};

/// The languages the game ships: (code, name in that language).
pub const LANGUAGES: [(&str, &str); 2] = [("en", "English"), ("fr", "Français")];

/// The base French table.
pub const FR: &str = include_str!("../assets/i18n/fr.ron");

/// Most entries in one table.
pub const MAX_ENTRIES: usize = 20_000;

/// The table in use.
#[derive(Resource, Debug, Clone, Default)]
pub struct Translations {
    /// The language code.
    pub lang: String,
    /// English → translation.
    pub map: HashMap<String, String>,
    /// Tables the enabled mods ship: (language, table), applied over the base.
    pub mods: Vec<(String, HashMap<String, String>)>,
}

impl Translations {
    /// The base table of `lang` (empty for English or an unknown code).
    pub fn base(lang: &str) -> Translations {
        let map = match lang {
            "fr" => parse_table(&SourceFile {
                path: "assets/i18n/fr.ron".into(),
                text: FR.into(),
            })
            .unwrap_or_default(),
            _ => HashMap::new(),
        };
        Translations {
            lang: lang.into(),
            map,
            mods: Vec::new(),
        }
    }
    /// Adds a mod's table over this one (an entry that drops or adds a `{}` is left out: the
    /// checker reports it).
    pub fn extend(&mut self, more: HashMap<String, String>) {
        self.map.extend(
            more.into_iter()
                .filter(|(k, v)| k.matches("{}").count() == v.matches("{}").count()),
        );
    }
    /// The translation of `s`, or `s`.
    pub fn t<'a>(&'a self, s: &'a str) -> Cow<'a, str> {
        match self.map.get(s) {
            Some(t) => Cow::Borrowed(t.as_str()),
            None => Cow::Borrowed(s),
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
        let t = self.t(template);
        let mut out = String::new();
        let mut rest: &str = &t;
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
}

/// Parses a table file: a RON map of English → translation, bounded.
pub fn parse_table(file: &SourceFile) -> Result<HashMap<String, String>, crate::content::Problem> {
    let map: HashMap<String, String> = parse_ron(file)?;
    if map.len() > MAX_ENTRIES {
        return Err(crate::content::Problem::whole_file(
            std::path::Path::new(&file.path),
            format!("more than {MAX_ENTRIES} entries"),
        ));
    }
    Ok(map)
}

/// Keeps the table in step with the language setting.
pub fn plugin(app: &mut App) {
    app.init_resource::<Translations>()
        .add_systems(PreUpdate, follow_language);
}

fn follow_language(settings: Res<crate::settings::Settings>, mut tr: ResMut<Translations>) {
    if tr.lang != settings.language {
        let mods = std::mem::take(&mut tr.mods);
        *tr = Translations::base(&settings.language);
        for (lang, table) in &mods {
            if *lang == settings.language {
                tr.extend(table.clone());
            }
        }
        tr.mods = mods;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_french_table_reads_and_fills_templates() {
        let fr = Translations::base("fr");
        assert!(fr.map.len() > 100, "{}", fr.map.len());
        assert_eq!(fr.t("Ranger"), "Rôdeur");
        assert_eq!(fr.f("Cycle {}", &[&3]), "Cycle 3");
        assert_eq!(fr.t("no such string"), "no such string");
        let en = Translations::base("en");
        assert_eq!(en.f("Army {}", &[&7]), "Army 7");
        // Every template keeps its placeholders.
        for (k, v) in &fr.map {
            assert_eq!(
                k.matches("{}").count(),
                v.matches("{}").count(),
                "{k} → {v}"
            );
            assert!(!v.trim().is_empty(), "{k}");
        }
    }
}
