//! The French table covers what a player reads: every interface string the source passes to
//! the translation functions, every name and text of the base content, every rules message a
//! whole game writes, the skills and battle outcomes. A missing entry fails with the list of
//! what lacks, so a translator sees exactly what to add.

use chaos_outpost::content::{ContentDb, Skill};
use chaos_outpost::rules::Chronicle;
use chaos_outpost::rules::event::GameEvent;
use chaos_outpost::rules::main_phase::combat::BattleEnd;
use chaos_outpost::text::{Translations, content_texts, match_template};

/// String literals passed directly to `t(`, `f(`, `p(` (a count's plural forms) or `name(`
/// (the translation calls and the panels' helper), in one source file.
fn translated_literals(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = src[i..].find('(') {
        let open = i + off;
        i = open + 1;
        // The identifier just before the parenthesis.
        let mut s = open;
        while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
            s -= 1;
        }
        let ident = &src[s..open];
        if !matches!(ident, "t" | "f" | "p" | "name") {
            continue;
        }
        // `fn t(` and the like are definitions, not calls.
        if src[..s].trim_end().ends_with("fn") {
            continue;
        }
        let rest = src[open + 1..].trim_start();
        let Some(lit) = rest.strip_prefix('"') else {
            continue;
        };
        let mut text = String::new();
        let mut chars = lit.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => text.push('\n'),
                    Some('"') => text.push('"'),
                    Some('\\') => text.push('\\'),
                    // A line continuation: the newline and the next line's indent vanish.
                    Some('\n') => {
                        let rest: String = chars.clone().collect();
                        let skip = rest.len() - rest.trim_start().len();
                        for _ in 0..rest[..skip].chars().count() {
                            chars.next();
                        }
                    }
                    Some(o) => text.push(o),
                    None => break,
                },
                c => text.push(c),
            }
        }
        out.push(text);
    }
    out
}

fn sources() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // The window, the text layer, the app (key names) and the chapters (their words and panels)
    // word everything a player reads.
    let mut files: Vec<std::path::PathBuf> = ["src/view", "src/text", "src/app", "src/chapters"]
        .iter()
        .flat_map(|d| crate::common::rust_files(&root.join(d)))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let mut text = std::fs::read_to_string(&p).expect("source file");
            // A file's unit tests hold fixtures no player reads.
            if let Some(i) = text.find("#[cfg(test)]") {
                text.truncate(i);
            }
            (p.display().to_string(), text)
        })
        .collect()
}

fn report(what: &str, missing: &[String]) {
    assert!(
        missing.is_empty(),
        "{} {what} lack a French entry in assets/i18n/:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_scanner_reads_calls_and_skips_definitions() {
    let src = r#"fn t(s: &str) {} let a = tr.t("Cycle {}"); x.f(
        "two {} \"quoted\" \
         lines", &[&1]); name("Done"); other("no"); t(var); tr.p("{} cat|{} cats", n, &[&n]);"#;
    assert_eq!(
        translated_literals(src),
        vec![
            "Cycle {}",
            "two {} \"quoted\" lines",
            "Done",
            "{} cat|{} cats"
        ]
    );
}

#[test]
fn every_interface_string_the_source_translates_has_a_french_entry() {
    let fr = Translations::base("fr");
    let mut missing = Vec::new();
    let mut seen = 0;
    for (path, text) in sources() {
        for s in translated_literals(&text) {
            seen += 1;
            // Test fixtures inside the source files are not shown to players.
            if s.is_empty() || s == "no such string" {
                continue;
            }
            if !fr.map.contains_key(&s) && !missing.iter().any(|m: &String| m.ends_with(&s)) {
                missing.push(format!("{path}: {s}"));
            }
        }
    }
    assert!(seen > 200, "the scanner found only {seen} strings");
    report("interface strings", &missing);
}

#[test]
fn every_base_content_name_and_text_has_a_french_entry() {
    let db = ContentDb::embedded(&chaos_outpost::chapters::shipped()).expect("base content");
    let fr = Translations::base("fr");
    let texts = content_texts(&db);
    assert!(texts.len() > 150, "{}", texts.len());
    let missing: Vec<String> = texts
        .into_iter()
        .filter(|s| !fr.map.contains_key(s))
        .collect();
    report("content names and texts", &missing);
}

#[test]
fn skills_battle_outcomes_camps_and_steps_are_translated() {
    let fr = Translations::base("fr");
    let mut names: Vec<&str> = [
        Skill::Explorer,
        Skill::Founder,
        Skill::Boat {
            units: 1,
            resources: 1,
        },
        Skill::Pathfinder,
        Skill::Ritualist,
    ]
    .iter()
    .map(|s| s.name())
    .collect();
    names.extend(
        [
            BattleEnd::AttackerWins,
            BattleEnd::DefenderWins,
            BattleEnd::BothDestroyed,
            BattleEnd::Retreat,
            BattleEnd::Undecided,
        ]
        .map(BattleEnd::words),
    );
    names.extend(["Eladrins", "Chaos"]);
    // What each keyboard shortcut does (the help and the settings list them).
    names.extend(
        chaos_outpost::app::keys::Shortcut::all()
            .into_iter()
            .map(|s| s.describe()),
    );
    names.extend(chaos_outpost::view::help::MOUSE.iter().map(|(k, _, _)| *k));
    // The first level's hints.
    let hints = chaos_outpost::view::hints::hints();
    assert!(!hints.is_empty());
    names.extend(hints.iter().map(|h| h.text.as_str()));
    let app = chaos_outpost::rules::setup::headless_app(std::sync::Arc::new(
        ContentDb::embedded(&chaos_outpost::chapters::shipped()).expect("base content"),
    ));
    let order = app.world().resource::<chaos_outpost::rules::CycleOrder>();
    names.extend(order.0.iter().map(|s| s.title));
    let missing: Vec<String> = names
        .into_iter()
        .filter(|s| !fr.map.contains_key(*s))
        .map(str::to_string)
        .collect();
    report(
        "skills, outcomes, camps, step titles or shortcuts",
        &missing,
    );
}

#[test]
fn every_message_of_whole_games_reads_in_french() {
    // Whole AI games on two levels write nearly every kind of event; each must come out
    // translated: different from the English, with no English template left.
    let db = std::sync::Arc::new(
        ContentDb::embedded(&chaos_outpost::chapters::shipped()).expect("base content"),
    );
    let en = Translations::default();
    let fr = Translations::base("fr");
    let mut missing = std::collections::BTreeSet::new();
    let mut kinds = std::collections::BTreeSet::new();
    for (level, seed) in [("first_light", 2), ("standard", 4), ("hard", 1)] {
        let (app, _) =
            chaos_outpost::sim::play_game(db.clone(), level, None, seed, 30).expect("an AI game");
        for e in &app.world().resource::<Chronicle>().0 {
            let kind = format!("{e:?}");
            kinds.insert(kind.split([' ', '(']).next().unwrap_or("").to_string());
            let english = e.words(&en, Some(&db));
            let french = e.words(&fr, Some(&db));
            if english == french {
                missing.insert(english);
            }
            // The data inside an event (a die's purpose, who paid, a cause, a note) is worded
            // in the text layer: each must read differently in French.
            let default = Translations::default();
            let inner: Vec<(String, String)> = match e {
                GameEvent::Dice { what, .. } => vec![(what.words(&default), what.words(&fr))],
                GameEvent::UpkeepPaid { what, .. } | GameEvent::Inactive { what } => {
                    vec![(what.words(&default, Some(&db)), what.words(&fr, Some(&db)))]
                }
                GameEvent::UnitDied { cause, .. } => {
                    vec![(cause.words(&default), cause.words(&fr))]
                }
                GameEvent::GameOver { reason, .. } => {
                    vec![(reason.words(&default), reason.words(&fr))]
                }
                GameEvent::Note(n) => vec![(n.words(&default), n.words(&fr))],
                _ => vec![],
            };
            for (en, fr_words) in inner {
                if en == fr_words {
                    missing.insert(format!("(inside an event) {en}"));
                }
            }
        }
    }
    assert!(
        kinds.len() >= 25,
        "only {} kinds of event: {kinds:?}",
        kinds.len()
    );
    report(
        "messages of a whole game",
        &missing.into_iter().collect::<Vec<_>>(),
    );
}

#[test]
fn free_texts_match_templates_and_fill_them() {
    let mut fr = Translations::base("fr");
    fr.map.insert(
        "R9.5 round {} attack of unit {}".into(),
        "R9.5 manche {} attaque de l'unité {}".into(),
    );
    assert_eq!(
        fr.dynamic("R9.5 round 3 attack of unit 12"),
        "R9.5 manche 3 attaque de l'unité 12"
    );
    assert_eq!(fr.dynamic("nothing like it"), "nothing like it");
    assert_eq!(
        match_template("a {} b {}", "a x b yy"),
        Some(vec!["x".to_string(), "yy".to_string()])
    );
    assert_eq!(match_template("a {} b", "a  x b"), Some(vec![" x".into()]));
    assert_eq!(match_template("a {} b", "a b"), None);
    assert_eq!(match_template("a {}", "b c"), None);
    assert_eq!(
        match_template("{}é{}", "ééé"),
        Some(vec!["é".into(), "é".into()])
    );
}

#[test]
fn every_string_shown_draws_with_the_fonts_the_window_has() {
    // egui draws a box for a character its fonts lack (an arrow "→" once showed as "☐" in the
    // log). Every translation, template and content text must use glyphs the default fonts
    // carry.
    use bevy_egui::egui::epaint::text::{Fonts, TextOptions};
    use bevy_egui::egui::{FontDefinitions, FontId};
    let mut fonts = Fonts::new(TextOptions::default(), FontDefinitions::default());
    let font = FontId::proportional(14.0);
    let db = ContentDb::embedded(&chaos_outpost::chapters::shipped()).expect("base content");
    let fr = Translations::base("fr");
    let mut texts: Vec<String> = content_texts(&db);
    texts.extend(fr.map.iter().flat_map(|(k, v)| [k.clone(), v.clone()]));
    texts.extend(
        chaos_outpost::view::hints::hints()
            .into_iter()
            .map(|h| h.text),
    );
    // `has_glyph` can't tell an emoji from the replacement box when both live in the emoji
    // face; a glyph the resolved face really holds has a width.
    let mut view = fonts.with_pixels_per_point(1.0);
    let mut drawn = |c: char| view.glyph_width(&font, c) > 0.0;
    assert!(
        !drawn('→'),
        "the check must catch the arrow that showed as a box"
    );
    assert!(drawn('≥') && drawn('📖'));

    // And the symbols the view's code writes itself (◆ on the power track, ⏳ on cards…):
    // every non-ASCII character on a line of code that isn't a comment.
    for (path, text) in sources() {
        if !path.contains("src/view") {
            continue;
        }
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            if !code.is_ascii() {
                texts.push(format!("{path}: {}", code.trim()));
            }
        }
    }
    let mut missing = std::collections::BTreeMap::new();
    for t in &texts {
        for c in t.chars().filter(|c| !c.is_whitespace()) {
            if !drawn(c) {
                missing.entry(c).or_insert_with(|| t.clone());
            }
        }
    }
    let list: Vec<String> = missing
        .iter()
        .map(|(c, t)| format!("{c:?} (U+{:04X}) in: {t}", *c as u32))
        .collect();
    assert!(
        list.is_empty(),
        "characters the fonts lack:\n{}",
        list.join("\n")
    );
}

/// Key names read in the player's language where the game shows them (help, settings,
/// tooltips), while the settings file keeps the English names it parses.
#[test]
fn key_names_read_in_french() {
    use chaos_outpost::app::keys::{Binding, key_words};
    let fr = Translations::base("fr");
    let missing: Vec<&str> = key_words()
        .into_iter()
        .filter(|w| !fr.map.contains_key(&format!("key:{w}")))
        .collect();
    assert!(missing.is_empty(), "key names without French: {missing:?}");
    assert!(key_words().contains(&"Escape") && key_words().contains(&"Numpad"));
    let en = Translations::default();
    for (text, french, english) in [
        ("Ctrl+Backspace", "Ctrl+Retour arrière", "Ctrl+Backspace"),
        ("Shift+Escape", "Maj+Échap", "Shift+Escape"),
        ("Numpad7", "Pavé 7", "Numpad 7"),
        ("NumpadEnter", "Pavé Entrée", "Numpad Enter"),
        ("Ctrl+Z", "Ctrl+Z", "Ctrl+Z"),
        ("Space", "Espace", "Space"),
    ] {
        let b = Binding::parse(text).expect(text);
        assert_eq!(b.words(&fr), french);
        assert_eq!(b.words(&en), english);
        // What the settings file holds is unchanged.
        assert_eq!(b.to_string(), text);
    }
}

/// Counts read as real plurals in both languages, not "token(s)": French takes the singular
/// for 0 and 1, English only for 1.
#[test]
fn counts_read_as_real_plurals_in_both_languages() {
    use chaos_outpost::rules::Refusal;
    let (en, fr) = (Translations::base("en"), Translations::base("fr"));
    let famine = |tokens| Refusal::NotThatMuchFamine { tokens };
    let ap = |need| Refusal::NoActionPoints {
        unit: 4,
        need,
        have: 0,
    };
    for (refusal, tr, words) in [
        (famine(1), &en, "R5.5: the army has only 1 famine token"),
        (famine(2), &en, "R5.5: the army has only 2 famine tokens"),
        (famine(1), &fr, "R5.5 : l'armée n'a que 1 jeton de famine"),
        (famine(2), &fr, "R5.5 : l'armée n'a que 2 jetons de famine"),
        (ap(0), &en, "R9.4: unit 4 needs 0 action points and has 0"),
        (
            ap(0),
            &fr,
            "R9.4 : l'unité 4 a besoin de 0 point d'action et en a 0",
        ),
    ] {
        assert_eq!(refusal.words(tr), words);
    }
    // No "(s)" is left in what the rules' data is worded into.
    for (k, v) in &fr.map {
        assert!(!k.contains("(s)"), "English with (s): {k}");
        assert!(
            !v.contains("(s)") || !k.contains("{}"),
            "French with (s): {v}"
        );
    }
}
