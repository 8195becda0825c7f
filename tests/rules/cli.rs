//! The command line, as a user types it: exit codes and messages.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chaos-outpost"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).output().expect("run the binary");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

#[test]
fn check_passes_on_the_base_content_and_fails_on_a_broken_file() {
    let (code, out, _) = run(&["check"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 error(s)"));
    let dir = std::env::temp_dir().join(format!("co-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("units.ron");
    std::fs::write(&bad, "[\n  (\n    id: \"x\",\n    nmae: \"X\",\n  ),\n]\n").expect("write");
    let (code, out, _) = run(&["check", bad.to_str().expect("utf8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("units.ron:4:"), "{out}");
    let (code, out, _) = run(&["check", "--json", bad.to_str().expect("utf8")]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["errors"].as_u64().unwrap_or(0) >= 1);
}

#[test]
fn sim_prints_json_with_the_fields_tools_need() {
    let (code, out, err) = run(&[
        "sim",
        "--level",
        "first_light",
        "--seed",
        "3",
        "--games",
        "2",
        "--cycles",
        "10",
        "--json",
        "--chaos-ai",
        "search:60",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(v["games"], 2);
    // Who played, battles, deaths per side and thinking time.
    // Written as `--chaos-ai` takes it.
    assert_eq!(v["ai"]["chaos"], "search:60");
    assert_eq!(v["ai"]["eladrins"], "heuristic");
    assert!(v["battles_per_game"].as_f64().is_some_and(|b| b >= 0.0));
    assert!(v["units_lost_per_game"]["eladrins"].as_f64().is_some());
    assert!(v["decision_us"]["chaos"]["p95"].as_u64().is_some());
    assert!(v["results"][0]["battles"].as_u64().is_some());
    assert!(
        v["eladrin_win_rate"]
            .as_f64()
            .is_some_and(|r| (0.0..=1.0).contains(&r))
    );
    assert!(v["mean_cycles"].as_f64().is_some());
    let (lo, hi) = (
        v["win_rate_ci95"][0].as_f64().unwrap_or(2.0),
        v["win_rate_ci95"][1].as_f64().unwrap_or(-1.0),
    );
    let rate = v["eladrin_win_rate"].as_f64().unwrap_or(-1.0);
    assert!(lo <= rate && rate <= hi, "{lo} <= {rate} <= {hi}");
    let ended: u64 = v["outcomes"]
        .as_array()
        .map(|a| a.iter().map(|o| o[1].as_u64().unwrap_or(0)).sum())
        .unwrap_or(0);
    assert_eq!(ended, 2, "every game's ending is counted");
    assert!(
        v["results"][0]["per_cycle"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
}

/// `sim` says, per game, the outposts held each cycle and which of the level's conditions
/// were still unmet at the end (a game lost at the cycle limit with the portal powered missed
/// these, not the portal): a level file asking for Star Charts within one cycle.
#[test]
fn sim_reports_the_outposts_held_and_the_conditions_a_lost_game_missed() {
    let dir = std::env::temp_dir().join(format!("co-cli-unmet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let level = dir.join("one_cycle.ron");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/first_light.ron"
    ))
    .expect("first light")
    .replace("id: \"first_light\"", "id: \"one_cycle\"")
    .replace(
        "    difficulty_tweaks: {",
        "    victory: (max_cycles: 1, without_portal: true, research: [\"star_charts\"]),\n    difficulty_tweaks: {",
    );
    std::fs::write(&level, text).expect("write");
    let path = level.to_str().expect("utf8");
    let (code, out, err) = run(&["sim", "--level", path, "--cycles", "5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let game = &v["results"][0];
    assert_eq!(game["winner"], "Chaos");
    assert_eq!(
        game["reason"],
        "The Eladrins did not meet the level's conditions within 1 cycle"
    );
    assert_eq!(game["unmet"], serde_json::json!(["Research Star Charts"]));
    assert_eq!(game["per_cycle"][0]["outposts"], 1, "Dawnwatch alone");
    // The text report says them too.
    let (code, out, err) = run(&["sim", "--level", path, "--cycles", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the level's conditions unmet: Research Star Charts"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sim --jobs`: games played on several threads give the same games, in the same order, as
/// one at a time (each game has its own seed), and `--jobs 0` is refused.
#[test]
fn sim_on_several_threads_plays_the_same_games() {
    let games = |jobs: &str| {
        let (code, out, err) = run(&[
            "sim",
            "--level",
            "first_light",
            "--seed",
            "5",
            "--games",
            "5",
            "--cycles",
            "8",
            "--json",
            "--jobs",
            jobs,
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        v["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| (r["seed"].clone(), r["hash"].clone()))
            .collect::<Vec<_>>()
    };
    let one = games("1");
    assert_eq!(one.len(), 5);
    assert_eq!(games("3"), one);
    let (code, _, err) = run(&["sim", "--jobs", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--jobs"), "{err}");
}

#[test]
fn bad_input_gets_a_clear_message_and_a_non_zero_exit() {
    let (code, _, err) = run(&["sim", "--level", "atlantis"]);
    assert_eq!(code, 1);
    assert!(err.contains("no level named `atlantis`"), "{err}");
    let (code, _, err) = run(&["sim", "--frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("--frobnicate"), "{err}");
    let (code, _, err) = run(&["sim", "--difficulty", "nightmare"]);
    assert_eq!(code, 1);
    assert!(err.contains("nightmare"), "{err}");
    let (code, _, err) = run(&["sim", "--chaos-ai", "deep"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`deep`") && err.contains("search:NODES"),
        "{err}"
    );
    let (code, _, err) = run(&["replay", "/nonexistent/replay.ron"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/replay.ron"), "{err}");
}

#[test]
fn a_recorded_game_replays_to_the_same_hash() {
    let dir = std::env::temp_dir().join(format!("co-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("game.replay.ron");
    let f = file.to_str().expect("utf8");
    let (code, out, err) = run(&[
        "sim", "--level", "standard", "--seed", "8", "--cycles", "12", "--record", f, "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let hash = v["results"][0]["hash"].as_str().expect("hash").to_string();
    let (code, out, err) = run(&["replay", f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), hash);
}

/// A folder given to `check` may not reach outside itself: a link to `../outside.ron` is
/// refused by name, and nothing outside is read.
#[cfg(unix)]
#[test]
fn check_refuses_a_file_that_links_outside_its_folder() {
    let root = std::env::temp_dir().join(format!("co-cli-escape-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let folder = root.join("mymod");
    std::fs::create_dir_all(folder.join("levels")).expect("dir");
    std::fs::write(root.join("outside.ron"), "(secret: 1)").expect("write");
    std::os::unix::fs::symlink("../../outside.ron", folder.join("levels/evil.ron"))
        .expect("symlink");
    let (code, out, _) = run(&["check", folder.to_str().expect("utf8")]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("evil.ron") && out.contains("leads outside its folder"),
        "{out}"
    );
    assert!(!out.contains("secret"), "{out}");
}

/// The commands' logic is callable without the binary: `check` gives its report as data, with
/// the problem's file, line and field.
#[test]
fn check_reports_as_data_when_called_in_process() {
    let dir = std::env::temp_dir().join(format!("co-cli-inproc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("units.ron");
    std::fs::write(&bad, "[\n  (\n    id: \"x\",\n    nmae: \"X\",\n  ),\n]\n").expect("write");
    let clean = chaos_outpost::cli::check::check(&[], &[], &chaos_outpost::chapters::shipped());
    assert_eq!(clean.errors(), 0, "{:?}", clean.problems);
    assert_eq!(clean.checked, vec!["base content".to_string()]);
    let r = chaos_outpost::cli::check::check(
        std::slice::from_ref(&bad),
        &[],
        &chaos_outpost::chapters::shipped(),
    );
    assert!(r.errors() >= 1);
    let p = r
        .problems
        .iter()
        .find(|p| p.file.ends_with("units.ron"))
        .expect("a problem in units.ron");
    assert_eq!(p.line, 4, "{p}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// K1–K4 headless: `campaign list` names the chapters in order; `campaign run` plays every
/// chapter with the carry-over, the same twice for a seed and differently for another; a bad
/// flag is a usage error.
#[test]
fn campaign_list_and_run_are_deterministic_per_seed() {
    let (code, out, err) = run(&["campaign", "list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let chapters: Vec<&str> = v[0]["chapters"]
        .as_array()
        .expect("chapters")
        .iter()
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(
        chapters,
        [
            "first_light",
            "wyvern_wardens",
            "clans_of_the_rift",
            "twin_rifts",
            "white_tomb",
            "ring_of_fire"
        ]
    );
    // The Dragoness' chapter says whom it admits.
    assert_eq!(v[0]["chapters"][4]["admit_kinds"][4], "wyvern_rider");
    let args = |seed: &'static str| {
        [
            "campaign",
            "run",
            "--seed",
            seed,
            "--json",
            "--cycles",
            "14",
            "--retries",
            "1",
        ]
    };
    let (code, a, err) = run(&args("1"));
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = run(&args("1"));
    let (_, c, _) = run(&args("2"));
    assert_eq!(a, b, "same seed, same campaign");
    assert_ne!(a, c, "another seed, another campaign");
    let r: serde_json::Value = serde_json::from_str(&a).expect("JSON");
    let first = &r["chapters"][0];
    assert_eq!(first["chapter"], "first_light");
    assert!(first["led_to"].is_string());
    let (code, _, err) = run(&["campaign", "run", "--games", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["campaign", "run", "--campaign", "nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("chaos_outpost"), "{err}");
}
