//! Content loading and checks: the base content is clean; broken files name file, line and
//! field; every level starts.

use std::sync::Arc;

use chaos_outpost::content::{ContentDb, Problem, Severity, SourceFile, embedded_files};
use chaos_outpost::rules::{Board, setup, submit};

use crate::common::*;

fn with_file(name: &str, f: impl Fn(String) -> String) -> Vec<chaos_outpost::content::Problem> {
    let files: Vec<SourceFile> = embedded_files()
        .into_iter()
        .map(|mut s| {
            if s.path.ends_with(name) {
                s.text = f(s.text);
            }
            s
        })
        .collect();
    match ContentDb::from_files(files, &chaos_outpost::chapters::shipped()) {
        Ok(db) => db.warnings,
        Err(ps) => ps,
    }
}

#[test]
fn the_base_content_loads_without_problems_and_has_enough_variety() {
    let db = base();
    assert!(db.warnings.is_empty(), "{:?}", db.warnings);
    let s = &db.set;
    assert!(s.events.len() >= 20 && s.chaos.len() >= 20);
    assert!(s.research.len() >= 15 && s.artifacts.len() >= 10 && s.exploration.len() >= 12);
    for l in ["first_light", "standard", "hard", "stress"] {
        assert!(db.levels.contains_key(l), "level {l}");
    }
}

#[test]
fn an_unknown_field_is_an_error_at_its_line() {
    let ps = with_file("terrains.ron", |t| {
        t.replacen("move_cost: 2", "move_cots: 2", 1)
    });
    let p = &ps[0];
    assert_eq!(p.severity, Severity::Error);
    assert!(p.file.ends_with("terrains.ron"));
    assert_eq!(p.field, "Terrain.move_cots");
    let line = embedded_files()
        .iter()
        .find(|f| f.path.ends_with("terrains.ron"))
        .map(|f| {
            f.text
                .lines()
                .position(|l| l.contains("move_cost: 2"))
                .unwrap_or(0)
                + 1
        })
        .unwrap_or(0);
    assert_eq!(p.line, line);
}

#[test]
fn an_unknown_unit_reference_names_file_line_and_field() {
    let ps = with_file("units.ron", |t| {
        t.replacen(
            "corrupts_into: Some(\"husk\")",
            "corrupts_into: Some(\"hsuk\")",
            1,
        )
    });
    let p = ps
        .iter()
        .find(|p| p.message.contains("hsuk"))
        .expect("a problem about hsuk");
    assert!(p.file.ends_with("units.ron"));
    assert!(p.field.ends_with(".corrupts_into"), "{}", p.field);
    let text = embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("units.ron"))
        .map(|f| f.text)
        .unwrap_or_default();
    let line = text
        .lines()
        .position(|l| l.contains("corrupts_into: Some(\"husk\")"))
        .unwrap_or(0)
        + 1;
    assert_eq!(p.line, line);
}

#[test]
fn a_duplicate_id_and_a_syntax_error_are_reported() {
    let ps = with_file("buildings.ron", |t| {
        t.replacen("id: \"granary\"", "id: \"laboratory\"", 1)
    });
    assert!(
        ps.iter()
            .any(|p| p.message.contains("duplicate id `laboratory`")),
        "{ps:?}"
    );
    let ps = with_file("chaos.ron", |t| t.replacen("),", ")", 1));
    assert_eq!(ps[0].severity, Severity::Error);
    assert!(ps[0].file.ends_with("chaos.ron") && ps[0].line > 0);
}

#[test]
fn a_level_with_an_outpost_off_the_map_or_an_unknown_size_is_refused() {
    let ps = with_file("first_light.ron", |t| {
        t.replacen("size: \"camp\"", "size: \"metropolis\"", 1)
    });
    assert!(
        ps.iter()
            .any(|p| p.message.contains("metropolis") && p.line > 0),
        "{ps:?}"
    );
    let ps = with_file("first_light.ron", |t| {
        t.replacen("radius: 5", "radius: 100000", 1)
    });
    assert!(ps.iter().any(|p| p.field == "map.radius"), "{ps:?}");
}

/// A difficulty's extra research (`victory_research`) must name a technology in the deck: a
/// typo or an excluded card is refused at its line, not a level nobody can win.
#[test]
fn a_difficulty_asking_an_unknown_or_excluded_technology_is_refused() {
    let ps = with_file("stress.ron", |t| {
        t.replacen(
            "victory_research: [\"crystal_resonance\"]",
            "victory_research: [\"crystal_resonanse\"]",
            1,
        )
    });
    let p = ps
        .iter()
        .find(|p| p.field == "difficulty_tweaks.hard.victory_research")
        .unwrap_or_else(|| panic!("{ps:?}"));
    assert_eq!(p.severity, Severity::Error);
    assert!(
        p.message.contains("crystal_resonanse") && p.line > 0,
        "{p:?}"
    );
    let ps = with_file("stress.ron", |t| {
        t.replacen(
            "victory_research: [\"crystal_resonance\"]",
            "victory_research: [\"grafting\"]",
            1,
        )
        .replacen(
            "    victory: (",
            "    exclude_research: [\"grafting\"],\n    victory: (",
            1,
        )
    });
    assert!(
        ps.iter()
            .any(|p| p.message.contains("unwinnable on hard") && p.line > 0),
        "{ps:?}"
    );
}

#[test]
fn every_level_starts_and_the_stress_map_has_ten_thousand_hexes() {
    let db = Arc::new(base());
    for id in db.levels.keys() {
        let mut app = setup::headless_app(db.clone());
        setup::spawn_game(app.world_mut(), id, None, 1).unwrap_or_else(|e| panic!("{id}: {e}"));
        let n = app.world().resource::<Board>().order.len();
        if id == "stress" {
            assert!(n >= 10_000, "stress map has {n} hexes");
        }
    }
}

#[test]
fn a_generated_map_is_the_same_every_time() {
    let db = base();
    let l = db.levels.get("standard").expect("standard");
    assert_eq!(setup::make_map(&db, l), setup::make_map(&db, l));
}

#[test]
fn hostile_files_get_a_clear_error_and_no_panic() {
    // A map of 10^9 hexes, a deck of a million cards, deep nesting, a file over the size bound.
    let ps = with_file("first_light.ron", |t| {
        t.replacen("radius: 5", "radius: 1000000000", 1)
    });
    assert!(
        ps.iter()
            .any(|p| p.field == "map.radius" && p.severity == Severity::Error),
        "{ps:?}"
    );
    let ps = with_file("events.ron", |t| {
        t.replacen("copies: 2", "copies: 1000000", 1)
    });
    assert!(ps.iter().any(|p| p.message.contains("at most")), "{ps:?}");
    let deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
    let ps = with_file("terrains.ron", |_| deep.clone());
    assert!(
        ps.iter()
            .any(|p| p.file.ends_with("terrains.ron") && p.severity == Severity::Error),
        "{ps:?}"
    );
    let dir = std::env::temp_dir().join(format!("co-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let huge = dir.join("huge.ron");
    std::fs::write(
        &huge,
        vec![b' '; (chaos_outpost::content::MAX_FILE_BYTES + 1) as usize],
    )
    .expect("write");
    let err = chaos_outpost::content::read_bounded(&huge).expect_err("over the bound");
    assert!(
        err.to_string().contains("huge.ron") && err.message.contains("limit"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// First Light with a test tweak on hard: one more Chaos army, more Eladrin stock, no marker.
fn tweaked_first_light() -> Arc<ContentDb> {
    use chaos_outpost::content::{ArmyStart, Camp, DifficultyTweak, Res, Stock};
    let mut db = base();
    let level = db.levels.get_mut("first_light").expect("first_light");
    let mut stock = Stock::default();
    stock.add(Res::Crystal, 4);
    level.difficulty_tweaks.insert(
        "hard".into(),
        DifficultyTweak {
            eladrin_stock: stock,
            portal_corruption_start: -1,
            text: "One more warband.".into(),
            armies: vec![ArmyStart {
                camp: Camp::Chaos,
                at: (2, 2),
                units: vec!["husk".into(), "husk".into()],
                seat: None,
            }],
            ..Default::default()
        },
    );
    level.difficulty_tweaks.remove("normal");
    Arc::new(db)
}

#[test]
fn a_level_tweak_adds_armies_and_stock_only_on_its_difficulty() {
    use chaos_outpost::rules::{Army, GameWorld, Outpost, Portal};
    let db = tweaked_first_light();
    let start = |d: &str| {
        let mut app = setup::headless_app(db.clone());
        setup::spawn_game(app.world_mut(), "first_light", Some(d), 1).expect("starts");
        let w = app.world_mut();
        let chaos_units: usize = w
            .query::<&Army>()
            .iter(w)
            .filter(|a| a.camp == chaos_outpost::content::Camp::Chaos)
            .map(|a| a.units.len())
            .sum();
        let crystals = w
            .query::<&Outpost>()
            .iter(w)
            .map(|o| o.stock.get(chaos_outpost::content::Res::Crystal))
            .sum::<u32>()
            // R3.3: what does not fit in the storage starts lying on the tile.
            + w.query::<&chaos_outpost::rules::Tile>()
                .iter(w)
                .map(|t| t.lying.get(chaos_outpost::content::Res::Crystal))
                .sum::<u32>();
        let markers = w.resource::<Portal>().corruption;
        (chaos_units, crystals, markers, w.difficulty_level().text)
    };
    let (normal_units, normal_crystals, normal_markers, _) = start("normal");
    let (hard_units, hard_crystals, hard_markers, text) = start("hard");
    assert_eq!(hard_units, normal_units + 2, "the tweak's warband of two");
    // Hard itself gives no crystals; the tweak gives 4 to each outpost.
    let outposts = db.levels["first_light"].outposts.len() as u32;
    assert_eq!(hard_crystals, normal_crystals + 4 * outposts);
    // difficulty.ron's hard puts no marker; the tweak's -1 stops at none.
    assert_eq!((normal_markers, hard_markers), (0, 0));
    assert!(text.ends_with("On this level: One more warband."), "{text}");
    let (easy_units, ..) = start("easy");
    assert_eq!(easy_units, normal_units, "no tweak on easy");
}

#[test]
fn a_tweak_for_an_unknown_difficulty_or_with_a_wrong_unit_is_reported_at_its_line() {
    let ps = with_file("first_light.ron", |t| {
        // First Light tweaks every difficulty: the ranger goes into its easy's own tweak (a
        // second "easy" key would be the one the map keeps, and hide the first).
        assert!(t.contains("\"easy\": ("), "First Light tweaks easy");
        t.replacen(
            "difficulty_tweaks: {",
            "difficulty_tweaks: {\n        \"nightmare\": (chaos_attempts: 2),",
            1,
        )
        .replacen(
            "\"easy\": (",
            "\"easy\": (\n            armies: [(camp: Chaos, at: (2, 2), units: [\"ranger\"])],",
            1,
        )
    });
    let bad = ps
        .iter()
        .find(|p| p.field == "difficulty_tweaks.nightmare")
        .unwrap_or_else(|| panic!("{ps:?}"));
    assert!(
        bad.message.contains("difficulty.ron") && bad.line > 0,
        "{bad:?}"
    );
    let wrong = ps
        .iter()
        .find(|p| p.field == "difficulty_tweaks.easy.armies[0].units")
        .unwrap_or_else(|| panic!("{ps:?}"));
    assert!(
        wrong.message.contains("ranger") && wrong.line > bad.line,
        "{wrong:?}"
    );
}

/// The base content with `first_light.ron` edited by `f`.
fn first_light_edited(f: impl Fn(String) -> String) -> Result<ContentDb, Vec<Problem>> {
    let files: Vec<SourceFile> = embedded_files()
        .into_iter()
        .map(|mut s| {
            if s.path.ends_with("first_light.ron") {
                s.text = f(s.text);
            }
            s
        })
        .collect();
    ContentDb::from_files(files, &chaos_outpost::chapters::shipped())
}

/// First Light's text with its own AI fields (`Level.ai`) replaced by `ai` (none: it plays
/// `ai.ron` as it is), written after its `hints`.
fn first_light_text_with_ai(text: &str, ai: Option<&str>) -> String {
    let mut out: Vec<String> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("ai: ("))
        .map(str::to_string)
        .collect();
    if let Some(ai) = ai
        && let Some(i) = out.iter().position(|l| l.contains("hints: true,"))
    {
        out.insert(i + 1, format!("    ai: {ai},"));
    }
    out.join("\n")
}

/// First Light's file as shipped.
fn base_text() -> String {
    embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("first_light.ron"))
        .map(|f| f.text)
        .unwrap_or_default()
}

/// The base content with First Light's AI fields replaced (`first_light_text_with_ai`).
fn first_light_with_ai(ai: &str) -> Result<ContentDb, Vec<Problem>> {
    first_light_edited(|t| first_light_text_with_ai(&t, Some(ai)))
}

/// A level's own AI fields are merged over `ai.ron` field by field, for that level only, and the
/// AI of a game of that level reads them.
#[test]
fn a_levels_own_ai_fields_merge_over_ai_ron_field_by_field_for_that_level_only() {
    let db = first_light_with_ai(
        "(chaos: (corrupt: 77), eladrin: (sally_radius: 5), chapters: {\"clans\": {\"pillage\": 9}})",
    )
    .expect("loads");
    let base_ai = &db.set.ai.clone();
    let fl = db.ai_for("first_light");
    assert_eq!(fl.chaos.corrupt, 77);
    assert_eq!(fl.eladrin.sally_radius, 5);
    // The fields it does not name keep ai.ron's values, down to one weight of a chapter's.
    assert_eq!(fl.chaos.advance, base_ai.chaos.advance);
    assert_eq!(fl.eladrin.threat_radius, base_ai.eladrin.threat_radius);
    assert_eq!(fl.chapters["clans"]["pillage"], 9);
    assert_eq!(
        fl.chapters["clans"]["invade"],
        base_ai.chapters["clans"]["invade"]
    );
    assert_eq!(fl.chapters["mercenaries"], base_ai.chapters["mercenaries"]);
    assert_eq!(fl.search, base_ai.search);
    // `hard` has no `ai` of its own (standard has since its hard margin).
    assert_eq!(db.ai_for("hard"), base_ai, "other levels play ai.ron");
    assert_ne!(base_ai.chaos.corrupt, 77);
    // A game's AI reads its level's.
    let db = Arc::new(db);
    for (level, corrupt) in [("first_light", 77), ("hard", base_ai.chaos.corrupt)] {
        let mut app = setup::headless_app(db.clone());
        setup::spawn_game(app.world_mut(), level, None, 1).expect("starts");
        assert_eq!(
            chaos_outpost::ai::weights(app.world()).chaos.corrupt,
            corrupt,
            "{level}"
        );
    }
}

/// The AI plays with its level's fields: a First Light whose Chaos weighs a taint at 0 plays
/// another game than ai.ron's; one that restates ai.ron's values plays the same as one without AI
/// fields.
#[test]
fn a_levels_ai_fields_change_how_its_ai_plays() {
    let game = |db: ContentDb| {
        let mut app =
            setup::new_game(Arc::new(db), "first_light", Some("easy"), 3).expect("starts");
        let w = app.world_mut();
        for _ in 0..400 {
            if w.resource::<chaos_outpost::rules::Outcome>()
                .winner
                .is_some()
            {
                break;
            }
            let (by, a) = chaos_outpost::sim::next_action(w);
            submit(w, by, a).expect("the AI plays legal actions");
        }
        w.resource::<chaos_outpost::rules::ActionLog>().0.clone()
    };
    let plain = game(first_light_edited(|t| first_light_text_with_ai(&t, None)).expect("loads"));
    let corrupt = base().set.ai.chaos.corrupt;
    let same = game(first_light_with_ai(&format!("(chaos: (corrupt: {corrupt}))")).expect("loads"));
    let other = game(first_light_with_ai("(chaos: (corrupt: 0))").expect("loads"));
    assert_eq!(plain, same);
    assert_ne!(plain, other);
}

/// A level's AI fields that don't fit `ai.ron` are refused at their line, each named.
#[test]
fn a_levels_bad_ai_fields_are_reported_at_their_line() {
    let line_of =
        |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).map(|i| i + 1);
    let ai = "(\n        eladrin: (sally_radious: 4),\n        chaos: (corrupt: \"lots\"),\n        search: (rollouts: 99),\n    )";
    let ps = first_light_with_ai(ai).expect_err("refused");
    let text = embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("first_light.ron"))
        .map(|f| first_light_text_with_ai(&f.text, Some(ai)))
        .unwrap_or_default();
    let find = |field: &str| {
        ps.iter()
            .find(|p| p.field == field)
            .unwrap_or_else(|| panic!("no problem for {field}: {ps:?}"))
    };
    let typo = find("ai.eladrin.sally_radious");
    assert!(typo.file.ends_with("first_light.ron") && typo.severity == Severity::Error);
    assert_eq!(Some(typo.line), line_of(&text, "sally_radious"));
    assert!(typo.message.contains("sally_radious"), "{typo:?}");
    let wrong = find("ai.chaos.corrupt");
    assert_eq!(Some(wrong.line), line_of(&text, "\"lots\""));
    // Fields that fit but break the search's bounds: the merged settings are checked too.
    let first = first_light_with_ai("(search: (rollouts: 99))").expect_err("refused");
    let bound = first
        .iter()
        .find(|p| p.field == "ai.search.rollouts")
        .unwrap_or_else(|| panic!("{first:?}"));
    assert!(bound.message.contains("99"), "{bound:?}");
    // The evaluation's `range` (how far a Chaos unit's closing in counts), named by its path.
    let far = first_light_with_ai("(search: (eval: (range: 65)))").expect_err("refused");
    let range = far
        .iter()
        .find(|p| p.field == "ai.search.eval.range")
        .unwrap_or_else(|| panic!("{far:?}"));
    assert!(range.message.contains("0 to 64, not 65"), "{range:?}");
    // Not a struct at all.
    let ps = first_light_with_ai("[1, 2]").expect_err("refused");
    let at = line_of(
        &first_light_text_with_ai(&base_text(), Some("[1, 2]")),
        "ai: [1, 2]",
    );
    assert!(
        ps.iter().any(|p| p.field == "ai" && Some(p.line) == at),
        "{ps:?}"
    );
}
