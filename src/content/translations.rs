//! A mod's translation table: a RON map of English → translation, read bounded like every
//! content file. Which table is in use, and the words it gives, belong to the text layer.

use std::collections::HashMap;

use super::{Problem, SourceFile, parse_ron};

/// Whether a translation keeps the placeholders of its English text: every `|`-separated
/// plural form of either holds as many `{}` as the English text's first form. (A count's
/// forms are written `one|other` in English; a language gives as many forms as its plural rule
/// has, `text::plural_index`.)
pub fn placeholders_agree(english: &str, translation: &str) -> bool {
    let want = english
        .split('|')
        .next()
        .unwrap_or("")
        .matches("{}")
        .count();
    english
        .split('|')
        .chain(translation.split('|'))
        .all(|form| form.matches("{}").count() == want)
}

/// Most entries in one table.
pub const MAX_ENTRIES: usize = 20_000;

/// The language a mod's table is for: its file name (`i18n/fr.ron` → `fr`).
pub fn language_of(file: &SourceFile) -> String {
    std::path::Path::new(&file.path)
        .file_stem()
        .map(|x| x.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Parses a table file: a RON map of English → translation, bounded.
pub fn parse_table(file: &SourceFile) -> Result<HashMap<String, String>, Problem> {
    let map: HashMap<String, String> = parse_ron(file)?;
    if map.len() > MAX_ENTRIES {
        return Err(Problem::whole_file(
            std::path::Path::new(&file.path),
            format!("more than {MAX_ENTRIES} entries"),
        ));
    }
    Ok(map)
}
