//! Hostile content: mod and content files shaped to make the loader slow, to hide a fault, or to
//! name a folder they can't — a list of 600,000 unknown ids, a campaign of 200,000 chapters, a
//! disabled mod whose files can't be read, ids like `../../evil`, a campaign that never ends, a
//! level's fields for a chapter it does not play, a mod that breaks the base campaign. Each is
//! refused or reported with its file, line and field, the problems capped (the rest counted in
//! one line a file), and what it does not break still loads.

use std::path::{Path, PathBuf};
use std::process::Command;

use chaos_outpost::content::mods::{self, ModReport};
use chaos_outpost::content::{ContentDb, Problem, Severity, SourceFile, embedded_files};

use crate::common;

/// The problems listed for one file before the rest are counted
/// (`content::MAX_PROBLEMS_PER_FILE`).
const CAP: usize = 100;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "chaos-outpost-hostile-content-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write(dir: &Path, rel: &str, text: impl AsRef<[u8]>) {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(p, text).expect("write");
}

/// Loads the mods in these folders on the base game, as the game does.
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

/// How many problems a line stands for when it counts those left out of a list
/// ("… and N more problems not listed").
fn left_out(p: &Problem) -> Option<usize> {
    if p.line != 0 || !p.message.contains("more problems not listed") {
        return None;
    }
    p.message
        .trim_start_matches("… and ")
        .split(' ')
        .next()?
        .parse()
        .ok()
}

/// A plain Eladrin unit `id`, turning into `corrupts_into`, on one line.
fn unit(id: &str, corrupts_into: &str) -> String {
    format!(
        "(id: \"{id}\", name: \"U\", text: \"\", camp: Eladrins, hp: 1, attack: (dice: 1, \
         hit_on: 4), military: true, diet: Food, resistance: 4, corrupts_into: \
         Some(\"{corrupts_into}\")),\n"
    )
}

/// A campaign file with one campaign `id` of `chapters` chapters (one a line, from line 8),
/// each on a level that does not exist: its `chapters:` stands on line 7.
fn endless(id: &str, chapters: usize) -> String {
    let mut t = [
        "[",
        "    (",
        &format!("        id: \"{id}\","),
        "        name: \"Endless\",",
        "        difficulties: [\"normal\"],",
        "        carry: (),",
        "        chapters: [\n",
    ]
    .join("\n");
    for i in 0..chapters {
        t.push_str(&format!("(id:\"c{i}\",level:\"x\"),\n"));
    }
    t.push_str("        ],\n    ),\n]\n");
    t
}

/// A mod whose `remove:` names 600,000 ids that do not exist (6.5 MB, under the 8 MB a file
/// may hold) and whose `patch:` names 100,000: each file lists its first 100 problems, each at
/// its own line, then one line counting the rest. (The unknown ids were each searched for in
/// the file and placed by counting its lines from the start: minutes for this file.)
#[test]
fn a_mod_naming_600000_unknown_ids_lists_100_problems_a_file_and_counts_the_rest() {
    let dir = tempdir("unknown-ids");
    write(
        &dir,
        "mod.ron",
        r#"(id: "unknowns", name: "Unknowns", version: "1.0.0")"#,
    );
    let mut remove = String::from("(\n    remove: [\n");
    for i in 0..600_000 {
        remove.push_str(&format!("\"g{i}\",\n"));
    }
    remove.push_str("    ],\n)\n");
    assert!(remove.len() > 6_000_000 && remove.len() < 8 * 1024 * 1024);
    write(&dir, "content/units.ron", &remove);
    let mut patch = String::from("(\n    patch: {\n");
    for i in 0..100_000 {
        patch.push_str(&format!("\"b{i}\": (hp: 1),\n"));
    }
    patch.push_str("    },\n)\n");
    write(&dir, "content/buildings.ron", &patch);
    let (db, report) = load(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    let m = &report.mods[0];
    assert!(!m.loaded, "a mod with errors is disabled");
    assert!(db.unit("ranger").is_some(), "the game goes on");
    assert_eq!(m.problems.len(), 2 * (CAP + 1), "{}", report.text());
    for (file, part, id, verb, total) in [
        ("units.ron", "units.remove", "g", "units to remove", 600_000),
        (
            "buildings.ron",
            "buildings.patch",
            "b",
            "buildings to patch",
            100_000,
        ),
    ] {
        let mine: Vec<&Problem> = m
            .problems
            .iter()
            .filter(|p| p.file.ends_with(&format!("content/{file}")))
            .collect();
        let listed: Vec<&Problem> = mine
            .iter()
            .copied()
            .filter(|p| left_out(p).is_none())
            .collect();
        let counts: Vec<usize> = mine.iter().filter_map(|p| left_out(p)).collect();
        assert_eq!(listed.len(), CAP, "{file}");
        assert_eq!(counts, [total - CAP], "{file}: one line counts the rest");
        // The ids stand one a line from line 3: the n-th listed is the n-th id, at its line.
        for (n, p) in listed.iter().enumerate() {
            assert_eq!(
                (p.severity, p.line, p.field.as_str()),
                (Severity::Error, n + 3, part),
                "{p}"
            );
            assert!(
                p.message
                    .contains(&format!("there is no `{id}{n}` in {verb}")),
                "{p}"
            );
        }
    }
}

/// A mod adding 5,000 units that each turn into a unit that does not exist: the problems the
/// checks of the content find are placed in the mod's file up to the cap, and the rest
/// counted (each was placed by a search of the mod's file, and of the base file before).
#[test]
fn a_mod_with_5000_broken_references_lists_100_and_counts_the_rest() {
    let dir = tempdir("unknown-refs");
    write(
        &dir,
        "mod.ron",
        r#"(id: "refs", name: "Refs", version: "1.0.0")"#,
    );
    let mut units = String::from("(\n    add: [\n");
    for i in 0..5_000 {
        units.push_str(&unit(&format!("u{i}"), "ghost"));
    }
    units.push_str("    ],\n)\n");
    write(&dir, "content/units.ron", &units);
    let (_, report) = load(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    let m = &report.mods[0];
    assert!(!m.loaded);
    let listed: Vec<&Problem> = m
        .problems
        .iter()
        .filter(|p| left_out(p).is_none() && p.message.contains("ghost"))
        .collect();
    // The rest are counted where the checks found them: the base game's units.ron, whose
    // entries the mod's join.
    let counted: usize = m
        .problems
        .iter()
        .filter(|p| p.file.ends_with("units.ron"))
        .filter_map(left_out)
        .sum();
    assert_eq!(listed.len(), CAP, "{}", report.text());
    assert_eq!(listed.len() + counted, 5_000, "{}", report.text());
    // The first ones, each at its unit's line in the mod's file.
    for (n, p) in listed.iter().enumerate() {
        assert!(p.file.ends_with("content/units.ron"), "{p}");
        assert_eq!(p.field, format!("units[u{n}].corrupts_into"), "{p}");
        assert_eq!(p.line, n + 3, "{p}");
    }
}

/// A campaign of 200,000 chapters (5 MB) is refused in one problem at its `chapters`, before
/// any chapter is looked at; in a mod, that campaign alone is left out and the mod's unit
/// loads. (Each chapter was checked first, each chapter's branch looked up by a scan of the
/// others, each of its 200,000 problems placed by a search of the file: `check` and
/// `campaign list --mod` hung.)
#[test]
fn a_campaign_of_200000_chapters_is_refused_in_one_problem_before_any_chapter_is_checked() {
    let text = endless("endless", 200_000);
    assert!(text.len() < 8 * 1024 * 1024);
    // As the base game's own campaigns.ron.
    let files: Vec<SourceFile> = embedded_files()
        .into_iter()
        .map(|mut f| {
            if f.path.ends_with("campaigns.ron") {
                f.text = text.clone();
            }
            f
        })
        .collect();
    let ps =
        ContentDb::from_files(files, &chaos_outpost::chapters::shipped()).expect_err("refused");
    let mine: Vec<&Problem> = ps
        .iter()
        .filter(|p| p.field.starts_with("campaigns"))
        .collect();
    assert_eq!(mine.len(), 1, "{mine:?}");
    let p = mine[0];
    assert_eq!(
        (p.severity, p.field.as_str(), p.line),
        (Severity::Error, "campaigns[endless].chapters", 7),
        "{p}"
    );
    assert!(p.message.contains("1 to 64 chapters, not 200000"), "{p}");
    // In a mod: the campaign is left out, the rest of the mod loads.
    let dir = tempdir("endless");
    write(
        &dir,
        "mod.ron",
        r#"(id: "endless_mod", name: "Endless", version: "1.0.0")"#,
    );
    write(&dir, "content/campaigns.ron", &text);
    write(
        &dir,
        "content/units.ron",
        format!("(\n    add: [\n{}    ],\n)\n", unit("scout", "husk")),
    );
    let (db, report) = load(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    let m = &report.mods[0];
    assert!(m.loaded, "{}", report.text());
    assert!(db.unit("scout").is_some());
    assert!(db.set.campaigns.iter().all(|c| c.id != "endless"));
    assert!(db.set.campaigns.iter().any(|c| c.id == "chaos_outpost"));
    assert_eq!(m.problems.len(), 1, "{}", report.text());
    let p = &m.problems[0];
    assert_eq!(
        (p.severity, p.field.as_str(), p.line),
        (Severity::Error, "campaigns[endless].chapters", 7),
        "{p}"
    );
    assert!(p.file.ends_with("content/campaigns.ron"), "{p}");
    assert!(p.message.contains("left out"), "{p}");
}

/// An installed mod that is not enabled is read no further than its `mod.ron`: its content
/// file here is not UTF-8 and a level is past the 8 MB bound, and neither is opened. `mods`
/// lists it as off and succeeds. (Every installed mod was read whole: `discover` and `mods`
/// refused this one as unreadable, and 40 mods of 30 MB took over a gigabyte.)
#[test]
fn a_mod_that_is_not_enabled_is_read_no_further_than_its_manifest() {
    let data = tempdir("off-mod");
    let dir = data.join("chaos-outpost/mods/off_mod");
    write(
        &dir,
        "mod.ron",
        r#"(id: "off_mod", name: "Off", version: "1.0.0")"#,
    );
    write(&dir, "content/units.ron", b"\xff\xfe (add: [\xc3\x28])");
    std::fs::create_dir_all(dir.join("levels")).expect("dir");
    std::fs::File::create(dir.join("levels/huge.ron"))
        .and_then(|f| f.set_len(9 * 1024 * 1024))
        .expect("a sparse 9 MB level");
    let found = mods::discover(&[data.join("chaos-outpost/mods")]);
    assert_eq!(found.len(), 1);
    let m = found[0].as_ref().expect("its manifest reads");
    assert!(m.manifest.text.contains("off_mod"));
    assert!(
        m.content.is_empty() && m.levels.is_empty() && m.translations.is_empty(),
        "only the manifest is read"
    );
    // The command: the mod is found in the data folder, listed as off, and nothing fails.
    let out = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"))
        .arg("mods")
        .env("XDG_DATA_HOME", &data)
        .env("CHAOS_OUTPOST_CONFIG", data.join("settings.ron"))
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&data);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("off ") && l.contains("off_mod")),
        "{stdout}"
    );
    assert!(!stdout.contains("can't read"), "{stdout}");
}

/// Campaign and chapter ids name the campaign's save folder and the chapter's save ("Replay
/// from here"): `../../evil` and `../x` are refused at their lines, with their fields. (They
/// passed `check`; the campaign could never be saved.)
#[test]
fn campaign_and_chapter_ids_that_cannot_name_a_folder_are_refused_at_their_line() {
    let dir = tempdir("evil-ids");
    write(
        &dir,
        "mod.ron",
        r#"(id: "evil_ids", name: "Evil ids", version: "1.0.0")"#,
    );
    let text = [
        "[",
        "    (",
        "        id: \"../../evil\",",
        "        name: \"Evil\",",
        "        difficulties: [\"normal\"],",
        "        carry: (),",
        "        chapters: [",
        "            (",
        "                id: \"../x\",",
        "                level: \"first_light\",",
        "            ),",
        "        ],",
        "    ),",
        "]",
    ]
    .join("\n");
    write(&dir, "content/campaigns.ron", &text);
    let r = chaos_outpost::cli::check::check(
        std::slice::from_ref(&dir),
        &[],
        &chaos_outpost::chapters::shipped(),
    );
    let _ = std::fs::remove_dir_all(&dir);
    for (field, needle) in [
        ("campaigns[../../evil]", "id: \"../../evil\""),
        ("campaigns[../../evil].chapters[../x]", "id: \"../x\""),
    ] {
        let p = r
            .problems
            .iter()
            .find(|p| p.field == field)
            .unwrap_or_else(|| panic!("no problem at `{field}`: {:?}", r.problems));
        assert_eq!(p.severity, Severity::Error, "{p}");
        assert!(p.file.ends_with("content/campaigns.ron"), "{p}");
        assert_eq!(p.line, common::line_of(&text, needle), "{p}");
        assert!(p.message.contains("can't name"), "{p}");
    }
    assert!(r.errors() >= 2);
}

/// The campaign file of a mod whose two chapters lead to each other on every result, or (with
/// `end`) whose second chapter's win ends the campaign.
fn looping(end: bool) -> String {
    let b_won = if end { "Victory" } else { "Chapter(\"a\")" };
    [
        "[",
        "    (",
        "        id: \"loop\",",
        "        name: \"Loop\",",
        "        difficulties: [\"normal\"],",
        "        carry: (),",
        "        chapters: [",
        "            (id: \"a\", level: \"first_light\", next: [",
        "                (on: Won, to: Chapter(\"b\")), (on: Lost, to: Chapter(\"b\")),",
        "            ]),",
        &format!("            (id: \"b\", level: \"standard\", next: [(on: Won, to: {b_won}),"),
        "                (on: Lost, to: Chapter(\"a\"))]),",
        "        ],",
        "    ),",
        "]",
    ]
    .join("\n")
}

/// A campaign whose chapters lead to each other on every result (A → B → A) can never end:
/// `check --strict` fails, naming the campaign's `chapters` at their line. With a way to
/// `Victory` it checks clean. (It passed `check --strict`.)
#[test]
fn a_campaign_that_can_never_end_fails_the_check() {
    let dir = tempdir("loop");
    write(
        &dir,
        "mod.ron",
        r#"(id: "looping", name: "Looping", version: "1.0.0")"#,
    );
    write(&dir, "content/campaigns.ron", looping(false));
    let out = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"))
        .args(["check", "--strict", "--json"])
        .arg(&dir)
        .output()
        .expect("runs");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(out.status.code(), Some(1), "{doc}");
    let p = doc["problems"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["field"] == "campaigns[loop].chapters"))
        .unwrap_or_else(|| panic!("no problem at the campaign's chapters: {doc}"));
    assert_eq!(p["severity"], "Error", "{p}");
    assert_eq!(p["line"], 7, "{p}");
    assert!(
        p["message"]
            .as_str()
            .is_some_and(|m| m.contains("can never end")),
        "{p}"
    );
    // The second chapter's win ends it: nothing to say.
    write(&dir, "content/campaigns.ron", looping(true));
    let (db, report) = load(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        report.mods[0].loaded && report.mods[0].problems.is_empty(),
        "{}",
        report.text()
    );
    assert!(db.set.campaigns.iter().any(|c| c.id == "loop"));
}

/// A level's fields for a chapter it does not play (`ext.dragoness` once `chapters` no longer
/// names it) are never read: a warning at the entry's line, field `ext.dragoness`. (They were
/// ignored without a word.)
#[test]
fn ext_for_a_chapter_the_level_does_not_play_is_a_warning_at_its_line() {
    let (text, ps) = common::check_edited_level("dragoness", |t| {
        t.replace("chapters: [\"dragoness\"],", "chapters: [],")
    });
    assert!(text.contains("chapters: [],"), "the edit applies");
    let p = ps
        .iter()
        .find(|p| p.field == "ext.dragoness")
        .unwrap_or_else(|| panic!("no problem at `ext.dragoness`: {ps:?}"));
    assert_eq!(p.severity, Severity::Warning, "{p}");
    assert_eq!(p.line, common::line_of(&text, "\"dragoness\": ("), "{p}");
    assert!(p.message.contains("does not play"), "{p}");
    // Played, the same fields say nothing.
    let (_, ps) = common::check_edited_level("dragoness", |t| t);
    assert!(!ps.iter().any(|p| p.field == "ext.dragoness"), "{ps:?}");
}

/// A mod that removes the artifact the base campaign's last chapter falls back on: the
/// campaign is left out, with the problem at its line in `campaigns.ron`, and the rest of the
/// mod (a unit, a level) loads. (The whole mod was disabled.)
#[test]
fn a_mod_that_breaks_the_base_campaign_loses_only_that_campaign() {
    let dir = tempdir("no-chalice");
    write(
        &dir,
        "mod.ron",
        r#"(id: "no_chalice", name: "No chalice", version: "1.0.0")"#,
    );
    write(
        &dir,
        "content/artifacts.ron",
        "(\n    remove: [\"healing_chalice\"],\n)\n",
    );
    write(
        &dir,
        "content/units.ron",
        format!("(\n    add: [\n{}    ],\n)\n", unit("scout", "husk")),
    );
    let level = std::fs::read_to_string(root().join("levels/first_light.ron"))
        .expect("first light")
        .replace("id: \"first_light\"", "id: \"quiet_dawn\"");
    write(&dir, "levels/quiet_dawn.ron", level);
    let (db, report) = load(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    let m = &report.mods[0];
    assert!(m.loaded, "{}", report.text());
    assert!(db.unit("scout").is_some(), "its unit loads");
    assert!(db.levels.contains_key("quiet_dawn"), "its level loads");
    assert!(db.set.artifacts.iter().all(|a| a.id != "healing_chalice"));
    assert!(
        db.set.campaigns.iter().all(|c| c.id != "chaos_outpost"),
        "the campaign it breaks is left out"
    );
    assert!(db.mods.iter().any(|x| x.id == "no_chalice"));
    let campaigns = embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("campaigns.ron"))
        .expect("campaigns.ron")
        .text;
    let p = m
        .problems
        .iter()
        .find(|p| p.field == "campaigns[chaos_outpost].chapters[ring_of_fire].fallback.artifacts")
        .unwrap_or_else(|| panic!("the campaign's problem: {}", report.text()));
    assert_eq!(p.severity, Severity::Error, "{p}");
    assert!(p.file.ends_with("campaigns.ron"), "{p}");
    assert_eq!(
        p.line,
        common::line_of(&campaigns, "artifacts: [\"healing_chalice\"]"),
        "{p}"
    );
    assert!(
        p.message.contains("healing_chalice") && p.message.contains("left out"),
        "{p}"
    );
}
