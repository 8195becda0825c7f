//! The chapters' hints for a first play (`view::hints`, `assets/help/chapters/*.hints.ron`):
//! every shipped chapter adds its file from its window half and each file reads; ids are unique
//! across the core's file and every chapter's; every step a chapter brings has its hints, and
//! each hint comes due in a game of the chapter's level, as the window reads the game; every
//! text reads in French, citing the same rules; a chapter's hints show on any level that plays
//! it, the core's only on a level that teaches.

use std::collections::BTreeMap;
use std::sync::Arc;

use chaos_outpost::content::ContentDb;
use chaos_outpost::rules::chapter::Chapters;
use chaos_outpost::rules::{
    CHRONICLE_MAX, Chronicle, Cycle, CycleOrder, GameEvent, GameWorld, InPlay, Outcome, setup,
    submit,
};
use chaos_outpost::sim;
use chaos_outpost::text::Translations;
use chaos_outpost::view::hints::{
    AtStep, ChapterHints, HintBook, StepsRun, When, chapter_hints_path, read_chapter_hints,
};

/// The base content, with the chapters the game ships.
fn db() -> Arc<ContentDb> {
    Arc::new(crate::common::base())
}

/// The chapters' hints files, as their window halves add them (`GamePlugin` builds them so).
fn files() -> ChapterHints {
    let mut app = setup::headless_app(db());
    let chapters = chaos_outpost::chapters::shipped();
    for c in chapters.iter() {
        c.build_view(&mut app);
    }
    app.world()
        .get_resource::<ChapterHints>()
        .cloned()
        .unwrap_or_default()
}

/// Every hint the window would know.
fn book() -> HintBook {
    HintBook::read(&files())
}

/// The chapter's hints for `step`, shown while the game is in it or once it went through it.
fn hints_step(book: &HintBook, chapter: &str, step: &str) -> bool {
    book.chapters
        .iter()
        .filter(|(c, _)| c == chapter)
        .flat_map(|(_, hs)| hs)
        .any(|h| matches!(&h.when, When::Step(s) | When::Ran(s) if s.as_str() == step))
}

/// The rules a text cites ("M4", "R5.4"; "C2–C4" gives C2 and C4), sorted.
fn cited(text: &str) -> Vec<String> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let starts = matches!(cs[i], 'C' | 'D' | 'M' | 'R')
            && (i == 0 || !cs[i - 1].is_alphanumeric())
            && cs.get(i + 1).is_some_and(|c| c.is_ascii_digit());
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < cs.len()
            && (cs[j].is_ascii_digit()
                || (cs[j] == '.' && cs.get(j + 1).is_some_and(|c| c.is_ascii_digit())))
        {
            j += 1;
        }
        out.push(cs[i..j].iter().collect());
        i = j;
    }
    out.sort();
    out
}

/// A step moment that has come when the game is in `step` (its Eladrins' turn).
fn in_step(step: &str) -> impl Fn(&When) -> bool + '_ {
    move |w: &When| *w == When::Step(step.into())
}

#[test]
fn the_citation_reader_finds_rule_numbers_only() {
    assert_eq!(
        cited("Recruits are spent (M6, M13); C2–C4 and R5.4. Mountains, R9."),
        vec!["C2", "C4", "M13", "M6", "R5.4", "R9"]
    );
    assert!(cited("Reset: CDRAW, a Round of 3, Rage 0.").is_empty());
}

#[test]
fn every_shipped_chapter_adds_its_hints_and_each_file_reads() {
    let files = files();
    let ids = chaos_outpost::chapters::shipped().ids();
    assert_eq!(ids.len(), 3, "{ids:?}");
    for id in &ids {
        let (_, ron) = files
            .files()
            .iter()
            .find(|(c, _)| c == id)
            .unwrap_or_else(|| panic!("the chapter `{id}` adds no hints (`add_chapter_hints`)"));
        let hs = read_chapter_hints(id, ron).unwrap_or_else(|p| panic!("{p}"));
        assert!(hs.len() >= 5, "{id}: only {} hints", hs.len());
        for h in &hs {
            assert!(
                h.id.starts_with(&format!("{id}.")),
                "{}: a chapter's hint ids start with its own",
                h.id
            );
            // The settings keep ids of 64 characters at most (`Settings::fix`).
            assert!(h.id.len() <= 64, "{}", h.id);
            // Short, like the core's: a hint is read over the game.
            assert!(
                !h.text.trim().is_empty() && h.text.len() <= 300,
                "{}: {} characters",
                h.id,
                h.text.len()
            );
            assert!(!cited(&h.text).is_empty(), "{}: cites no rule", h.id);
        }
    }
}

#[test]
fn a_hints_file_that_does_not_read_gives_no_hints_and_names_itself() {
    let broken = "[(id: \"broken.x\", when: Sometime, text: \"\")]";
    let problem = read_chapter_hints("broken", broken).expect_err("an unknown moment");
    assert_eq!(problem.file, chapter_hints_path("broken"));
    assert_eq!(problem.file, "assets/help/chapters/broken.hints.ron");
    let mut files = ChapterHints::default();
    files.add("broken", broken);
    let book = HintBook::read(&files);
    assert_eq!(book.chapters, vec![("broken".to_string(), Vec::new())]);
    assert!(!book.core.is_empty(), "the core's hints are still there");
    // Adding again replaces.
    files.add("broken", "[]");
    assert_eq!(files.files(), &[("broken", "[]")]);
}

#[test]
fn hint_ids_are_unique_across_the_cores_file_and_every_chapters() {
    let book = book();
    assert_eq!(book.chapters.len(), 3);
    let mut ids: Vec<&str> = book
        .core
        .iter()
        .chain(book.chapters.iter().flat_map(|(_, hs)| hs))
        .map(|h| h.id.as_str())
        .collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "repeated hint ids");
    // The settings remember 256 hints seen at most.
    assert!(n <= 256, "{n}");
}

#[test]
fn every_step_a_chapter_brings_has_its_hints() {
    let db = db();
    let book = book();
    let app = setup::headless_app(db.clone());
    let steps: Vec<&'static str> = app
        .world()
        .resource::<Chapters>()
        .steps
        .iter()
        .map(|s| s.id)
        .collect();
    assert!(steps.len() >= 10, "{steps:?}");
    // Each step a chapter's level plays, in that chapter's file.
    let mut played = 0;
    for level in db.levels.values().filter(|l| !l.chapters.is_empty()) {
        for sp in level.steps.iter().flatten() {
            if !steps.iter().any(|s| *s == sp.id) {
                continue;
            }
            played += 1;
            assert!(
                level.chapters.iter().any(|c| hints_step(&book, c, &sp.id)),
                "the level {} plays the step {} without a hint in its chapters' files",
                level.id,
                sp.id
            );
        }
    }
    assert!(played >= 10, "{played}");
    // And every step a chapter brings, whether a level plays it yet or not.
    for s in &steps {
        assert!(
            book.chapters.iter().any(|(c, _)| hints_step(&book, c, s)),
            "the step {s} has no hint"
        );
    }
}

#[test]
fn each_chapter_hint_comes_due_in_a_game_of_its_level() {
    // The game played by the AIs, read as the window reads it: the steps each action went
    // through (`StepsRun`) and where the game then waits (`AtStep`). A hint whose moment never
    // comes (a `Step` hint for a step the game never waits in) would never show.
    let db = db();
    let book = book();
    for (chapter, hs) in &book.chapters {
        let level = db
            .levels
            .values()
            .find(|l| l.chapters.iter().any(|c| c == chapter))
            .map(|l| l.id.clone())
            .unwrap_or_else(|| panic!("no level plays {chapter}"));
        let mut app = setup::new_game(db.clone(), &level, None, 3).expect("the level starts");
        let w = app.world_mut();
        let mut run = StepsRun::default();
        let mut read = 0;
        let mut first: BTreeMap<String, &'static str> = BTreeMap::new();
        for _ in 0..50_000 {
            let chronicle = &w.resource::<Chronicle>().0;
            for e in chronicle.iter().skip(read) {
                if let GameEvent::StepStarted { step, .. } = e {
                    run.started(step);
                }
            }
            read = chronicle.len();
            let (order, cycle) = (w.resource::<CycleOrder>(), w.resource::<Cycle>());
            run.observe(order, cycle);
            let at = AtStep::new(order, cycle, &run);
            for h in hs {
                if at.now(&h.when) == Some(true) {
                    first.entry(h.id.clone()).or_insert(w.step_id());
                }
            }
            if first.len() == hs.len()
                || cycle.number > 4
                || w.resource::<Outcome>().winner.is_some()
            {
                break;
            }
            let (by, action) = sim::next_action(w);
            submit(w, by, action).expect("the AI plays a legal action");
            // The chronicle drops its older half when full.
            if w.resource::<Chronicle>().0.len() < read {
                read = read.saturating_sub(CHRONICLE_MAX / 2);
            }
        }
        let never: Vec<&str> = hs
            .iter()
            .filter(|h| !first.contains_key(&h.id))
            .map(|h| h.id.as_str())
            .collect();
        assert!(
            never.is_empty(),
            "{chapter}: hints never due in 4 cycles of {level}: {never:?}"
        );
        // The rewards, the raid and the reset run on their own after the round: their hints
        // come in the main phase that follows, not during the round before.
        if chapter == "mercenaries" {
            for id in [
                "mercenaries.rewards",
                "mercenaries.raid",
                "mercenaries.reset",
            ] {
                assert_eq!(first[id], "R9", "{id}");
            }
            assert_eq!(first["mercenaries.action"], "MACTION");
        }
    }
}

#[test]
fn every_chapter_hint_reads_in_french_citing_the_same_rules() {
    let fr = Translations::base("fr");
    let book = book();
    let mut missing = Vec::new();
    for (chapter, hs) in &book.chapters {
        assert!(!hs.is_empty(), "{chapter}");
        for h in hs {
            match fr.map.get(&h.text) {
                None => missing.push(format!("{}: {}", h.id, h.text)),
                Some(french) => {
                    assert_ne!(french, &h.text, "{}", h.id);
                    assert_eq!(cited(french), cited(&h.text), "{}", h.id);
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} chapter hints lack a French entry in assets/i18n/fr.ron:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn a_chapters_hints_show_on_any_level_that_plays_it_the_cores_only_where_the_level_teaches() {
    let book = book();
    let merc = InPlay(vec!["mercenaries".into()]);
    let none = InPlay::default();
    // Wyvern Wardens' level does not teach: its round shows the chapter's first hint...
    let h = book
        .due(false, &merc, &[], in_step("MACTION"))
        .expect("a hint for the round");
    assert_eq!(h.id, "mercenaries.action");
    // ...its main phase none: the core's hint for R9 is the teaching level's.
    assert_eq!(book.due(false, &merc, &[], in_step("R9")), None);
    assert_eq!(
        book.due(true, &none, &[], in_step("R9"))
            .map(|h| h.id.as_str()),
        Some("step_r9")
    );
    // A chapter the level does not play shows nothing.
    assert_eq!(book.due(false, &none, &[], in_step("MACTION")), None);
    // The round's hints come one after the other, in the file's order, each once.
    let mut seen: Vec<String> = Vec::new();
    while let Some(h) = book.due(false, &merc, &seen, in_step("MACTION")) {
        seen.push(h.id.clone());
    }
    assert_eq!(
        seen,
        [
            "mercenaries.action",
            "mercenaries.slots",
            "mercenaries.veterans",
            "mercenaries.special",
            "mercenaries.assistants",
        ]
    );
    // Where both are due, on a level that teaches and plays the chapter, the chapter's come
    // first; once they are seen, the core's.
    let any = |_: &When| true;
    let first = book.due(true, &merc, &[], any).expect("a hint");
    assert_eq!(first.id, "mercenaries.action");
    let all_merc: Vec<String> = book.offered(false, &merc).map(|h| h.id.clone()).collect();
    assert_eq!(all_merc.len(), 8);
    assert_eq!(
        book.due(true, &merc, &all_merc, any).map(|h| h.id.as_str()),
        Some("step_r2")
    );
    assert_eq!(book.due(false, &merc, &all_merc, any), None);
    // A level of two chapters offers them in its order.
    let two = InPlay(vec!["dragoness".into(), "clans".into()]);
    let order: Vec<&str> = book
        .offered(false, &two)
        .map(|h| h.id.split('.').next().unwrap_or(""))
        .collect();
    let switch = order.iter().position(|c| *c == "clans").expect("clans");
    assert!(
        order[..switch].iter().all(|c| *c == "dragoness"),
        "{order:?}"
    );
    assert!(order[switch..].iter().all(|c| *c == "clans"), "{order:?}");
}
