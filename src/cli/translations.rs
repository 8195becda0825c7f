//! `translations`: for translators, every content name and text (of the base game and the
//! `--mod` mods) that a language's tables lack. Fails when any is missing.

use std::io::Write;

use super::{Failure, Outcome, Program};
use crate::content::mods;
use crate::text::{LANGUAGES, Translations, content_texts, language_of, parse_table};

/// `translations`' arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Language code.
    #[arg(long, default_value = "fr")]
    lang: String,
    /// Print a JSON list.
    #[arg(long)]
    json: bool,
}

/// `translations`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let dirs = p.mods.as_slice();
    let lang = a.lang.as_str();
    if !LANGUAGES.iter().any(|(code, _)| *code == lang) {
        let known: Vec<&str> = LANGUAGES.iter().map(|(c, _)| *c).collect();
        return Err(Failure::Usage(format!(
            "unknown language `{lang}` (known: {})",
            known.join(", ")
        )));
    }
    let db = p.content()?;
    let mut tr = Translations::base(lang);
    let (sources, _) = mods::read_all(dirs);
    for m in &sources {
        for f in &m.translations {
            if language_of(f) == lang {
                match parse_table(f) {
                    Ok(t) => tr.extend(t),
                    Err(p) => eprintln!("{p}"),
                }
            }
        }
    }
    let missing: Vec<String> = content_texts(&db)
        .into_iter()
        .filter(|s| lang != "en" && !tr.map.contains_key(s))
        .collect();
    if a.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&missing).unwrap_or_default()
        )?;
    } else {
        for m in &missing {
            writeln!(out, "{}", m.replace('\n', "\\n"))?;
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed(format!(
            "{} string(s) without a `{lang}` entry",
            missing.len()
        )))
    }
}
