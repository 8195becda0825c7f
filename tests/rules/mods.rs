//! Mods: the broken-mod corpus (`tests/mods/broken/`, one fault per folder, each with the file,
//! line and words it must be reported with), the example mod, patch semantics, load order, and
//! scenario tests as data (`tests/scenarios/` and the example mod's own).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chaos_outpost::content::mods::{self, ModReport};
use chaos_outpost::content::{ContentDb, Problem, Res, Severity, SourceFile, embedded_files};
use chaos_outpost::sim::scenario;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads the mods in these folders on the base game.
fn load(dirs: &[PathBuf]) -> (ContentDb, ModReport) {
    let (sources, unreadable) = mods::read_all(dirs);
    let (db, mut report) = match mods::load(
        embedded_files(),
        &sources,
        &chaos_outpost::chapters::shipped(),
    ) {
        Ok(x) => x,
        Err(ps) => panic!("the base game must load: {ps:?}"),
    };
    report.mods.extend(unreadable);
    (db, report)
}

/// The mod folders of a corpus case: the case itself, or each sub-folder (several mods).
fn case_dirs(case: &Path) -> Vec<PathBuf> {
    if case.join("mod.ron").is_file() {
        return vec![case.to_path_buf()];
    }
    let mut subs: Vec<PathBuf> = std::fs::read_dir(case)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    subs.retain(|p| p.is_dir());
    subs.sort();
    subs
}

/// One `EXPECT` line: `path/suffix.ron:LINE: words`, or just `words`.
fn matches(p: &Problem, expect: &str) -> bool {
    let parts: Vec<&str> = expect.splitn(3, ':').collect();
    let text = format!("{} {}", p.field, p.message);
    match parts.as_slice() {
        [file, line, words] if line.trim().parse::<usize>().is_ok() => {
            p.file.ends_with(file.trim())
                && p.line == line.trim().parse::<usize>().unwrap_or(usize::MAX)
                && text.contains(words.trim())
        }
        _ => text.contains(expect.trim()),
    }
}

#[test]
fn every_broken_mod_is_reported_at_its_line_and_disabled_and_the_game_goes_on() {
    let dir = root().join("tests/mods/broken");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "the corpus holds {} faults", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let expect = std::fs::read_to_string(case.join("EXPECT")).expect("EXPECT file");
        let (db, report) = load(&case_dirs(case));
        let problems: Vec<&Problem> = report.problems().collect();
        for want in expect.lines().filter(|l| !l.trim().is_empty()) {
            if !problems.iter().any(|p| matches(p, want)) {
                failures.push(format!(
                    "{}: no problem matches `{want}`; found:\n    {}",
                    case.display(),
                    problems
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("\n    ")
                ));
            }
        }
        // Each problem names a file, and the faulty mod is left out.
        assert!(
            problems
                .iter()
                .all(|p| !p.file.is_empty() && !p.message.is_empty())
        );
        // An error disables the mod; a fault that is only a warning (a translation) doesn't.
        let errors = problems.iter().any(|p| p.severity == Severity::Error);
        assert_eq!(
            report.mods.iter().any(|m| !m.loaded),
            errors,
            "{}: a mod with an error is disabled, one with warnings only is not",
            case.display()
        );
        // The game goes on with the base content.
        assert!(db.levels.contains_key("first_light"));
        assert!(db.unit("ranger").is_some());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_example_mod_loads_clean_and_changes_what_it_says() {
    let (db, report) = load(&[root().join("mods/highland_guard")]);
    let m = &report.mods[0];
    assert!(m.loaded, "{:?}", m.problems);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(db.mods.len(), 1);
    // Adds a unit, a building, two cards and a level.
    assert!(db.unit("highland_archer").is_some());
    assert!(db.building("beacon_tower").is_some());
    let events: Vec<&str> = db.set.events.iter().map(|c| c.id.as_str()).collect();
    assert!(events.contains(&"highland_pilgrims") && events.contains(&"avalanche"));
    assert!(db.levels.contains_key("highland_pass"));
    // Patches one cost, field by field: the warden's other fields are untouched.
    let base = common_base();
    let (w, w0) = (db.unit("warden"), base.unit("warden"));
    let (Some(w), Some(w0)) = (w, w0) else {
        panic!("warden in both");
    };
    assert_eq!(w.recruit_cost.map(|c| c.get(Res::Stone)), Some(1));
    assert_eq!(w0.recruit_cost.map(|c| c.get(Res::Stone)), Some(2));
    assert_eq!((w.hp, &w.name, &w.skills), (w0.hp, &w0.name, &w0.skills));
    // It ships French names, in a table the game reads.
    let src = mods::read_mod(&root().join("mods/highland_guard")).expect("readable");
    let fr = src
        .translations
        .iter()
        .find(|f| f.path.ends_with("fr.ron"))
        .expect("i18n/fr.ron");
    let table = chaos_outpost::text::parse_table(fr).expect("a table");
    assert_eq!(
        table.get("Highland Archer").map(String::as_str),
        Some("Archer des hautes terres")
    );
    // The base game's content hash changes with the mod (replays tell them apart).
    assert_ne!(db.hash(), base.hash());
}

fn common_base() -> ContentDb {
    super::common::base()
}

#[test]
fn a_mod_can_replace_an_entry_by_removing_and_adding_it_and_patch_a_single_value() {
    let dir = tempdir("replace");
    write(&dir, "mod.ron", r#"(id: "r", name: "R", version: "0.1.0")"#);
    let ranger = r#"(
        id: "ranger", name: "New Ranger", text: "", camp: Eladrins, hp: 9,
        attack: (dice: 1, hit_on: 4), military: true, diet: Food, resistance: 4,
        corrupts_into: Some("husk"), recruit_cost: Some({Food: 1}),
    )"#;
    write(
        &dir,
        "content/units.ron",
        &format!("(remove: [\"ranger\"], add: [{ranger}])"),
    );
    write(
        &dir,
        "content/rules.ron",
        "(patch: (action_points: 3, combat_rounds: 4))",
    );
    let (db, report) = load(std::slice::from_ref(&dir));
    assert!(report.mods[0].loaded, "{:?}", report.mods[0].problems);
    let r = db.unit("ranger").expect("ranger");
    assert_eq!((r.hp, r.name.as_str()), (9, "New Ranger"));
    assert_eq!(db.rules().action_points, 3);
    assert_eq!(db.rules().combat_rounds, 4);
    // Untouched numbers keep the base values.
    assert_eq!(
        db.rules().food_healthy_on,
        common_base().rules().food_healthy_on
    );
}

#[test]
fn mods_load_in_dependency_order_whatever_order_they_are_given() {
    let base = tempdir("order");
    let (a, b) = (base.join("a"), base.join("b"));
    // `a` patches the unit `b` adds: `a` must load after `b`.
    write(
        &a,
        "mod.ron",
        r#"(id: "a", name: "A", version: "1.0.0", dependencies: {"b": "^1.2"})"#,
    );
    write(&a, "content/units.ron", r#"(patch: {"scout": (hp: 5)})"#);
    write(&b, "mod.ron", r#"(id: "b", name: "B", version: "1.2.3")"#);
    let scout = r#"(
        id: "scout", name: "Scout", text: "", camp: Eladrins, hp: 1,
        attack: (dice: 1, hit_on: 4), military: true, diet: Food, resistance: 4,
    )"#;
    write(&b, "content/units.ron", &format!("(add: [{scout}])"));
    let (db, report) = load(&[a.clone(), b.clone()]);
    let order: Vec<(&str, bool)> = report
        .mods
        .iter()
        .map(|m| (m.id.as_str(), m.loaded))
        .collect();
    assert_eq!(order, [("b", true), ("a", true)], "{report:?}");
    assert_eq!(db.unit("scout").map(|u| u.hp), Some(5));
    // Without `b`, `a` is disabled for the missing dependency and the game goes on.
    let (db, report) = load(&[a]);
    assert!(!report.mods[0].loaded);
    assert!(db.unit("scout").is_none());
}

#[test]
fn the_broken_mod_check_prints_file_line_and_fix_and_exits_1() {
    let bin = env!("CARGO_BIN_EXE_chaos-outpost");
    let case = root().join("tests/mods/broken/22_patch_unknown_id");
    let out = std::process::Command::new(bin)
        .args(["check", "--json"])
        .arg(&case)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["errors"], 1);
    let p = &doc["problems"][0];
    assert_eq!(p["mod"], "broken");
    assert_eq!(p["line"], 3);
    assert!(
        p["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean `ranger`")),
        "{p}"
    );
    // The example mod checks clean, strictly.
    let out = std::process::Command::new(bin)
        .args(["check", "--strict"])
        .arg(root().join("mods/highland_guard"))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Runs every scenario in a folder on `db`; all must pass.
fn run_scenarios(db: ContentDb, dir: &Path) -> usize {
    let files: Vec<SourceFile> = chaos_outpost::content::ron_files_in(dir)
        .expect("scenario folder")
        .iter()
        .map(|p| SourceFile {
            path: p.display().to_string(),
            text: std::fs::read_to_string(p).expect("readable"),
        })
        .collect();
    assert!(!files.is_empty());
    let results = scenario::run_files(Arc::new(db), &files);
    let failed: Vec<String> = results
        .iter()
        .filter_map(|r| r.result.as_ref().err().map(|e| format!("{}: {e}", r.path)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    results.len()
}

#[test]
fn the_projects_scenarios_pass() {
    assert!(run_scenarios(common_base(), &root().join("tests/scenarios")) >= 3);
}

#[test]
fn the_example_mods_scenarios_pass_with_the_mod_and_fail_without_it() {
    let dir = root().join("mods/highland_guard");
    let (db, _) = load(std::slice::from_ref(&dir));
    assert_eq!(run_scenarios(db, &dir.join("scenarios")), 3);
    // Without the mod the level doesn't exist: the runner says so instead of passing.
    let text = std::fs::read_to_string(dir.join("scenarios/warden_cost.ron")).expect("file");
    let s = scenario::parse(&SourceFile {
        path: "warden_cost.ron".into(),
        text,
    })
    .expect("parses");
    let err = scenario::run(Arc::new(common_base()), &s).expect_err("no such level");
    assert!(err.detail.contains("highland_pass"), "{err}");
}

#[test]
fn a_failing_scenario_names_the_expectation_the_actual_value_and_the_action_before() {
    let text = r#"(
        name: "wrong on purpose",
        level: "first_light",
        seed: 1,
        steps: [
            Do(ChooseResearch(tech: "deep_cellars")),
            Do(Done),
            Do(BuildPortalCell(arch: 0)),
            Expect(PortalCells(Eq(2))),
        ],
    )"#;
    let s = scenario::parse(&SourceFile {
        path: "x.ron".into(),
        text: text.into(),
    })
    .expect("parses");
    let f = scenario::run(Arc::new(common_base()), &s).expect_err("must fail");
    assert_eq!(f.step, 4);
    assert!(f.detail.contains("portal cells built: 2"), "{f}");
    assert!(f.detail.contains("actual: 1"), "{f}");
    assert!(
        f.after
            .as_deref()
            .is_some_and(|a| a.contains("step 3") && a.contains("BuildPortalCell")),
        "{f}"
    );
}

#[test]
fn the_schema_reference_is_up_to_date() {
    // The shipped program's chapters: this test program's own (trial) is not in the reference.
    let doc = chaos_outpost::content::schema_doc::markdown(&chaos_outpost::chapters::shipped());
    let committed = std::fs::read_to_string(root().join("docs/schema.md")).unwrap_or_default();
    assert!(
        committed == doc,
        "docs/schema.md is out of date: run `cargo run -- schema > docs/schema.md`"
    );
    for t in [
        "## Manifest",
        "## UnitType",
        "## Level",
        "## Scenario",
        "## Check",
    ] {
        assert!(doc.contains(t), "{t}");
    }
}

#[test]
fn a_reload_says_what_applies_now_and_what_waits_for_a_new_game() {
    let base = common_base();
    let (with, _) = load(&[root().join("mods/highland_guard")]);
    // Enabling the mod: a new unit is available now, new cards wait for a new deal.
    let (reasons, unsafe_live) = mods::live_change(&base, &with);
    assert!(!unsafe_live, "{reasons:?}");
    let all = reasons.join("\n");
    assert!(
        all.contains("units added (highland_archer): available now"),
        "{all}"
    );
    assert!(all.contains("next new game"), "{all}");
    assert!(all.contains("levels changed (highland_pass)"), "{all}");
    // Disabling it removes what a game in progress may hold: that waits for a new game.
    let (reasons, unsafe_live) = mods::live_change(&with, &base);
    assert!(unsafe_live);
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("units removed (highland_archer)"))
    );
    // A cost change alone applies at once, with nothing to say.
    let mut cheaper = base.clone();
    cheaper.set.units[0].recruit_cost = None;
    assert_eq!(mods::live_change(&base, &cheaper), (Vec::new(), false));
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chaos-outpost-mods-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(p, text).expect("write");
}

#[test]
fn a_scenario_brings_its_own_level_file_but_only_from_inside_its_folder() {
    let dir = root().join("tests/scenarios");
    let file = |level: &str| SourceFile {
        path: dir.join("probe.ron").display().to_string(),
        text: format!(r#"(name: "probe", level: "{level}", seed: 8, steps: [Expect(Step("R9"))])"#),
    };
    let run = |level: &str| {
        scenario::run_files(Arc::new(common_base()), &[file(level)])
            .remove(0)
            .result
    };
    assert_eq!(
        run("levels/proving_ground.ron"),
        Ok(1),
        "a level file next to it"
    );
    for (bad, why) in [
        ("../scenarios/levels/proving_ground.ron", "without `..`"),
        ("/etc/passwd.ron", "without `..`"),
        ("levels/missing.ron", "no such level file"),
    ] {
        let e = run(bad).expect_err(bad);
        assert!(e.contains(why), "{bad}: {e}");
    }
    // A broken level file is named with its line and field, like any level.
    let tmp = std::env::temp_dir().join(format!("chaos-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("dir");
    std::fs::write(
        tmp.join("bad.ron"),
        "(\n    id: \"bad\",\n    nme: \"x\",\n)",
    )
    .expect("w");
    let f = SourceFile {
        path: tmp.join("probe.ron").display().to_string(),
        text: r#"(name: "p", level: "bad.ron", steps: [])"#.into(),
    };
    let e = scenario::run_files(Arc::new(common_base()), &[f])
        .remove(0)
        .result
        .expect_err("broken level");
    assert!(e.contains("bad.ron:3"), "{e}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn two_chapters_ai_weights_patches_keep_each_others_weights() {
    let dir = std::env::temp_dir().join(format!("chaos-ai-weights-{}", std::process::id()));
    let mut dirs = Vec::new();
    for (id, weight) in [("alpha", 3), ("beta", 7)] {
        let m = dir.join(id);
        std::fs::create_dir_all(m.join("content")).expect("dir");
        std::fs::write(
            m.join("mod.ron"),
            format!("(id: \"{id}\", name: \"{id}\", version: \"1.0.0\")"),
        )
        .expect("manifest");
        std::fs::write(
            m.join("content/ai.ron"),
            format!("(patch: (chapters: {{\"{id}\": {{\"w\": {weight}}}}}))"),
        )
        .expect("ai.ron");
        dirs.push(m);
    }
    let (db, report) = load(&dirs);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(report.errors(), 0, "{}", report.text());
    let w = |c: &str| db.set.ai.chapters.get(c).and_then(|m| m.get("w")).copied();
    assert_eq!((w("alpha"), w("beta")), (Some(3), Some(7)));
}

/// A mod's `ai.ron` patch is merged field by field at any depth, as a level's `ai` is: setting
/// hard's search budget keeps the search's margins, its evaluation and normal's budget (the
/// patch replaced the whole `search` with the defaults before, so docs/modding.md's own
/// example reset them), and one chapter weight keeps that chapter's others. A field that does
/// not fit is refused at its line, named by its path.
#[test]
fn an_ai_patch_sets_only_the_fields_it_names_at_any_depth() {
    let dir = tempdir("ai-deep");
    write(
        &dir,
        "mod.ron",
        r#"(id: "deep", name: "Deep", version: "1.0.0")"#,
    );
    write(
        &dir,
        "content/ai.ron",
        r#"(patch: (search: (budgets: {"hard": (chaos: 200)}), chapters: {"clans": {"pillage": 7}}))"#,
    );
    let (db, report) = load(std::slice::from_ref(&dir));
    assert_eq!(report.errors(), 0, "{}", report.text());
    let base = common_base();
    let (s, b) = (&db.set.ai.search, &base.set.ai.search);
    assert_eq!(s.budgets["hard"].chaos, 200);
    assert_ne!(b.budgets["hard"].chaos, 200, "the patch changes something");
    assert_eq!(s.budgets["normal"], b.budgets["normal"]);
    assert_eq!(s.margins, b.margins);
    assert_eq!(s.eval, b.eval);
    assert_eq!(
        (s.foresight, s.turns, s.margin),
        (b.foresight, b.turns, b.margin)
    );
    assert_eq!(db.set.ai.chaos.corrupt, base.set.ai.chaos.corrupt);
    let (clans, base_clans) = (&db.set.ai.chapters["clans"], &base.set.ai.chapters["clans"]);
    assert_eq!(clans["pillage"], 7);
    assert_eq!(clans["invade"], base_clans["invade"]);
    assert_eq!(
        db.set.ai.chapters["dragoness"],
        base.set.ai.chapters["dragoness"]
    );
    write(
        &dir,
        "content/ai.ron",
        "(\n    patch: (\n        search: (margins: {\"hard\": (chaos: \"x\")}),\n    ),\n)",
    );
    let (_, report) = load(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    let p = report.mods[0]
        .problems
        .iter()
        .find(|p| p.field == "patch.search.margins.hard.chaos")
        .unwrap_or_else(|| panic!("{}", report.text()));
    assert_eq!((p.line, p.file.ends_with("ai.ron")), (3, true), "{p:?}");
}

/// A level opened from a file (`play --level my.ron`) survives the window rebuilding its
/// content (the mods loaded at start, a base file edited): the file is read again, an edit to
/// it applies, and a broken edit keeps the last good level with the problem reported. Without
/// it the game lost its level at the first rebuild, and with it the level's victory (its cycle
/// limit, its conditions on the side panel).
#[test]
fn a_level_opened_from_a_file_is_kept_when_the_content_is_rebuilt() {
    let dir = tempdir("disk-level");
    let path = dir.join("my_level.ron");
    let text = std::fs::read_to_string(root().join("levels/first_light.ron"))
        .expect("first light")
        .replace("id: \"first_light\"", "id: \"my_level\"")
        .replace(
            "    difficulty_tweaks: {",
            "    victory: (max_cycles: 4),\n    difficulty_tweaks: {",
        );
    std::fs::write(&path, &text).expect("write");
    let mut opened = common_base();
    assert_eq!(
        opened.resolve_level(&path.display().to_string()),
        Ok("my_level".into())
    );
    assert_eq!(opened.disk_levels, vec![path.clone()]);
    // Rebuilt as the window does: the embedded files, then the level file again.
    let mut rebuilt = common_base();
    assert!(!rebuilt.levels.contains_key("my_level"));
    assert_eq!(rebuilt.add_disk_levels_of(&opened), Vec::new());
    assert_eq!(
        rebuilt.levels.get("my_level"),
        opened.levels.get("my_level")
    );
    assert_eq!(rebuilt.disk_levels, opened.disk_levels);
    assert_eq!(rebuilt.levels, opened.levels, "and nothing else changed");
    // An edit to the file applies at the next rebuild.
    std::fs::write(&path, text.replace("max_cycles: 4", "max_cycles: 9")).expect("write");
    let mut edited = common_base();
    assert_eq!(edited.add_disk_levels_of(&rebuilt), Vec::new());
    assert_eq!(edited.levels["my_level"].victory.max_cycles, 9);
    // A broken edit: reported with its file, the last good level kept.
    std::fs::write(&path, "(id: \"my_level\", name: ").expect("write");
    let mut broken = common_base();
    let problems = broken.add_disk_levels_of(&edited);
    assert!(!problems.is_empty());
    assert!(
        problems.iter().all(|p| p.file.ends_with("my_level.ron")),
        "{problems:?}"
    );
    assert_eq!(broken.levels.get("my_level"), edited.levels.get("my_level"));
    assert_eq!(broken.disk_levels, vec![path.clone()], "still watched");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chapter check whose path leads nowhere, or that names a chapter the level does not play,
/// or that compares nothing, fails naming why; a value seen by Chaos hides a seat's hand.
#[test]
fn a_chapter_check_names_a_wrong_path_or_chapter_and_hides_what_the_viewer_may_not_see() {
    let run = |check: &str| {
        let text = format!(
            "(name: \"t\", level: \"clans\", seed: 12, steps: [AiUntilCycle(1), Expect({check})])"
        );
        let s = scenario::parse(&SourceFile {
            path: "x.ron".into(),
            text,
        })
        .expect("parses");
        scenario::run(Arc::new(common_base()), &s)
    };
    let f = run("Chapter(chapter: \"clans\", path: \"sheets[Seat(7)].won\", is: Some(Eq(0)))")
        .expect_err("no seat 7");
    assert!(
        f.detail.contains("no `sheets[Seat(7)].won` in the state"),
        "{f}"
    );
    let f = run("Chapter(chapter: \"mercenaries\", path: \"round\", is: Some(Eq(1)))")
        .expect_err("not played here");
    assert!(
        f.detail.contains("the state of the chapter `mercenaries`"),
        "{f}"
    );
    let f = run("Chapter(chapter: \"clans\", path: \"deck\")").expect_err("nothing to compare");
    assert!(f.detail.contains("give `is` or `text`"), "{f}");
    // Seen by Chaos, the seat's hand is five hidden cards; seen by the seat, its own.
    let f = run(
        "Chapter(chapter: \"clans\", path: \"sheets[Seat(0)].hand\", text: Some(\"[]\"), \
         seen_by: Some(Chaos))",
    )
    .expect_err("not empty");
    assert!(f.detail.contains(r#"actual: ["?","?","?","?","?"]"#), "{f}");
    let f = run(
        "Chapter(chapter: \"clans\", path: \"sheets[Seat(0)].hand\", text: Some(\"[]\"), \
         seen_by: Some(Seat(0)))",
    )
    .expect_err("not empty");
    assert!(
        f.detail.contains("hall_of_heroes") && !f.detail.contains("\"?\""),
        "{f}"
    );
}
