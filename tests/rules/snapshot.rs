//! Saves, loads and replays: atomic, checked, no rerolls by reloading, no drift.

use std::sync::Arc;

use chaos_outpost::content::Camp;
use chaos_outpost::rules::snapshot::{self, state_hash};
use chaos_outpost::rules::{GameRng, setup, submit};
use chaos_outpost::sim;

use crate::common::*;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("chaos-outpost-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn a_save_loads_back_to_the_same_state_and_the_same_dice() {
    let db = Arc::new(base());
    let (mut app, _) = sim::play_game(db.clone(), "standard", None, 11, 6).expect("game");
    let dir = tmpdir("save");
    let path = dir.join("slot1.ron");
    snapshot::save(app.world_mut(), &path).expect("save");
    let h = state_hash(app.world_mut());
    let mut other = setup::new_game(db, "first_light", None, 1).expect("other game");
    snapshot::load(other.world_mut(), &path).expect("load");
    assert_eq!(state_hash(other.world_mut()), h);
    // No rerolls by reloading: the next dice are the same.
    let a: Vec<u8> = (0..20)
        .map(|_| app.world_mut().resource_mut::<GameRng>().d6())
        .collect();
    let b: Vec<u8> = (0..20)
        .map(|_| other.world_mut().resource_mut::<GameRng>().d6())
        .collect();
    assert_eq!(a, b);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temp file left beside the save");
}

#[test]
fn a_corrupt_save_is_refused_with_its_line_and_nothing_changes() {
    let db = Arc::new(base());
    let mut app = setup::new_game(db, "first_light", None, 1).expect("game");
    let dir = tmpdir("corrupt");
    let path = dir.join("bad.ron");
    snapshot::save(app.world_mut(), &path).expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    let cut = &text[..text.len() / 2];
    std::fs::write(&path, cut).expect("write");
    let before = state_hash(app.world_mut());
    let err = snapshot::load(app.world_mut(), &path).expect_err("a truncated save must fail");
    assert!(err.contains("bad.ron:"), "{err}");
    assert_eq!(state_hash(app.world_mut()), before);
    // A save naming an unknown unit is refused too.
    // (Its checksum is right: the check behind the checksum catches it.)
    let body = text.split_once('\n').map(|(_, b)| b).unwrap_or_default();
    std::fs::write(
        &path,
        snapshot::envelope(
            "save",
            &body.replacen("kind: \"ranger\"", "kind: \"dragon\"", 1),
        ),
    )
    .expect("write");
    let err = snapshot::load(app.world_mut(), &path).expect_err("unknown unit");
    assert!(err.contains("dragon"), "{err}");
    assert_eq!(state_hash(app.world_mut()), before);
    // A body altered by one character fails its checksum before anything is parsed.
    std::fs::write(&path, text.replacen("number: 1", "number: 7", 1)).expect("write");
    let err = snapshot::load(app.world_mut(), &path).expect_err("checksum");
    assert!(
        err.contains("checksum") && err.contains("bad.ron:1:1"),
        "{err}"
    );
    // A save from a newer game says so, whatever its body.
    let newer = text.replacen(&format!("save v{}", snapshot::SAVE_VERSION), "save v99", 1);
    std::fs::write(&path, newer).expect("write");
    let err = snapshot::load(app.world_mut(), &path).expect_err("version");
    assert!(
        err.contains("newer version") && err.contains("format 99"),
        "{err}"
    );
    // A replay is not a save.
    let r = snapshot::replay_of(app.world_mut());
    snapshot::write_replay(&r, &path).expect("replay");
    let err = snapshot::load(app.world_mut(), &path).expect_err("kind");
    assert!(err.contains("replay file, not a save"), "{err}");
    assert_eq!(state_hash(app.world_mut()), before);
}

#[test]
fn a_replay_plays_back_to_the_same_hash_and_a_tampered_one_is_refused() {
    let db = Arc::new(base());
    let (mut app, report) = sim::play_game(db.clone(), "first_light", None, 21, 12).expect("game");
    let r = snapshot::replay_of(app.world_mut());
    assert_eq!(
        r.final_hash.map(|h| format!("{h:016x}")),
        Some(report.hash.clone())
    );
    let mut fresh = setup::headless_app(db.clone());
    let h = snapshot::play_replay(fresh.world_mut(), &r).expect("replay");
    assert_eq!(format!("{h:016x}"), report.hash);
    // Another seed: the same actions drift (or are refused), and the replay says so.
    let mut bad = r.clone();
    bad.seed += 1;
    let mut fresh = setup::headless_app(db.clone());
    assert!(snapshot::play_replay(fresh.world_mut(), &bad).is_err());
    // An illegal action in the list is named by its index.
    let mut bad = r.clone();
    bad.actions
        .insert(0, (Camp::Chaos, chaos_outpost::rules::Action::Done));
    let mut fresh = setup::headless_app(db);
    let err = snapshot::play_replay(fresh.world_mut(), &bad).expect_err("refused");
    assert!(err.starts_with("action 0"), "{err}");
    let _ = submit;
}

/// Version 1 saves (no header line, no census) still load, and the census is rebuilt so the
/// invariants hold afterwards.
#[test]
fn a_version_1_save_without_header_still_loads() {
    let db = Arc::new(base());
    let (mut app, _) = sim::play_game(db.clone(), "standard", None, 3, 4).expect("game");
    let mut snap = snapshot::capture(app.world_mut());
    snap.version = 1;
    snap.census = Default::default();
    let text = ron::ser::to_string_pretty(&snap, ron::ser::PrettyConfig::default()).expect("ron");
    let dir = tmpdir("v1");
    let path = dir.join("old.ron");
    std::fs::write(&path, &text).expect("write");
    let mut other = setup::headless_app(db);
    snapshot::load(other.world_mut(), &path).expect("a version 1 save loads");
    chaos_outpost::rules::invariants::check(other.world_mut()).expect("invariants after load");
    assert_eq!(
        other
            .world()
            .resource::<chaos_outpost::rules::Cycle>()
            .number,
        snap.cycle.number
    );
}

/// Hostile saves and replays: oversized, deeply nested, absurd numbers. Each one is an error
/// with the file's name, and the game in memory is untouched.
#[test]
fn hostile_saves_and_replays_are_refused_without_a_panic() {
    let db = Arc::new(base());
    let mut app = setup::new_game(db, "first_light", None, 1).expect("game");
    let before = state_hash(app.world_mut());
    let dir = tmpdir("hostile-saves");
    let huge = format!("(version: 2, name: \"{}\")", "x".repeat(10 << 20));
    let nested = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    let cases: Vec<(&str, String)> = vec![
        ("huge.ron", huge),
        ("nested.ron", nested),
        ("empty.ron", String::new()),
        ("binary.ron", "\u{0}\u{1}\u{2}garbage".into()),
        ("negative.ron", "(version: -1)".into()),
        ("nan.ron", "(version: NaN)".into()),
        (
            "header-only.ron",
            snapshot::envelope("save", "")
                .lines()
                .next()
                .unwrap_or("")
                .into(),
        ),
    ];
    for (name, text) in &cases {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let err = snapshot::load(app.world_mut(), &path).expect_err(name);
        assert!(err.contains(name), "{name}: {err}");
        let err = snapshot::read_replay(&path).expect_err(name);
        assert!(err.contains(name), "{name}: {err}");
        assert_eq!(state_hash(app.world_mut()), before, "{name}");
    }
}

#[test]
fn autosave_keeps_the_last_n_cycles_and_skips_a_damaged_one() {
    let db = Arc::new(base());
    let dir = tmpdir("autosave");
    // Easy: its heuristic Chaos lets the game last the cycles this test needs.
    let (mut app, report) =
        sim::play_game_with(db.clone(), "standard", Some("easy"), 5, 8, &mut |w| {
            snapshot::autosave(w, &dir, 3).map(|_| ())
        })
        .expect("game");
    assert!(
        report.cycles >= 5,
        "the game lasted {} cycles",
        report.cycles
    );
    let saves = snapshot::autosaves(&dir);
    assert_eq!(saves.len(), 3, "{saves:?}");
    let newest = saves[2].0;
    assert_eq!(
        saves.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![newest - 2, newest - 1, newest]
    );
    // Damage the newest: the one before is offered, with the reason.
    std::fs::write(&saves[2].1, "(version: 2, trunc").expect("write");
    let (found, problems) = snapshot::latest_autosave(&dir);
    let (path, snap) = found.expect("an older autosave");
    assert_eq!(path, saves[1].1);
    assert_eq!(snap.cycle.number, newest - 1);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let _ = app.world_mut();
}

/// SIGKILL at random moments while the game autosaves every cycle: afterwards every autosave
/// on disk loads (none is half-written) and the newest one is a real cycle of that game.
#[cfg(unix)]
#[test]
fn killing_the_game_while_it_saves_never_leaves_a_broken_save() {
    use rand::{RngExt, SeedableRng};
    let db = Arc::new(base());
    let root = tmpdir("kill");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let (mut kills, mut with_saves, mut loaded) = (0, 0, 0);
    for round in 0..12 {
        let dir = root.join(format!("game{round}"));
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chaos-outpost"))
            .args([
                "sim", "--level", "standard", "--games", "500", "--cycles", "30", "--seed",
            ])
            .arg((round * 1000).to_string())
            .arg("--autosave")
            .arg(&dir)
            .args(["--keep", "3"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the game");
        std::thread::sleep(std::time::Duration::from_millis(rng.random_range(150..900)));
        if child.try_wait().expect("wait").is_none() {
            child.kill().expect("SIGKILL");
            kills += 1;
        }
        let _ = child.wait();
        let saves = snapshot::autosaves(&dir);
        for (cycle, p) in &saves {
            let s = snapshot::read(p).unwrap_or_else(|e| panic!("round {round}: {e}"));
            assert_eq!(s.cycle.number, *cycle, "{}", p.display());
            let mut app = setup::headless_app(db.clone());
            snapshot::restore(app.world_mut(), &s).unwrap_or_else(|e| panic!("{e}"));
            loaded += 1;
        }
        with_saves += usize::from(!saves.is_empty());
        assert!(
            saves.len() <= 4,
            "at most keep + the one being written: {saves:?}"
        );
    }
    assert!(kills >= 10, "only {kills} kills landed");
    assert!(
        with_saves >= 8,
        "only {with_saves} rounds had saved before the kill"
    );
    assert!(loaded >= 16, "only {loaded} autosaves checked");
}

#[test]
fn a_replay_names_the_first_cycle_that_drifts_and_refuses_other_content() {
    let db = Arc::new(base());
    let (mut app, _) = sim::play_game(db.clone(), "standard", None, 9, 10).expect("game");
    let r = snapshot::replay_of(app.world_mut());
    assert!(r.cycle_hashes.len() >= 5, "{} cycles", r.cycle_hashes.len());
    // Through a file and back.
    let dir = tmpdir("replay");
    let path = dir.join("game.replay.ron");
    snapshot::write_replay(&r, &path).expect("write");
    let back = snapshot::read_replay(&path).expect("read");
    assert_eq!(back, r);
    let mut fresh = setup::headless_app(db.clone());
    snapshot::play_replay(fresh.world_mut(), &back).expect("no drift");
    // A recorded hash that differs at the start of cycle 4 is named.
    let mut bad = r.clone();
    bad.cycle_hashes[2] ^= 1;
    let mut fresh = setup::headless_app(db.clone());
    let err = snapshot::play_replay(fresh.world_mut(), &bad).expect_err("drift");
    assert!(err.contains("drifted at the start of cycle 4"), "{err}");
    // Other content: refused before playing.
    let mut other = base();
    other.set.rules.action_points += 1;
    let mut fresh = setup::headless_app(Arc::new(other));
    let err = snapshot::play_replay(fresh.world_mut(), &r).expect_err("content");
    assert!(err.contains("other content"), "{err}");
}

#[test]
fn a_small_replay_soak_finds_no_drift() {
    let db = Arc::new(base());
    for (i, level) in ["first_light", "standard", "hard", "first_light"]
        .iter()
        .enumerate()
    {
        let (mut app, _) =
            sim::play_game(db.clone(), level, None, 400 + i as u64, 40).expect("game");
        let r = snapshot::replay_of(app.world_mut());
        let text = snapshot::envelope("replay", &ron::to_string(&r).expect("ron"));
        let back = snapshot::parse_replay(&text).expect("parse");
        let mut fresh = setup::headless_app(db.clone());
        let h = snapshot::play_replay(fresh.world_mut(), &back).expect("no drift");
        assert_eq!(Some(h), r.final_hash);
    }
}

/// The streamed state hash is the FNV-1a of the snapshot's RON text, as replays recorded before
/// it expect.
#[test]
fn the_state_hash_is_the_fnv_of_the_ron_text() {
    let db = Arc::new(base());
    let (mut app, _) = sim::play_game(db, "standard", None, 2, 3).expect("game");
    let mut s = snapshot::capture(app.world_mut());
    s.actions = Default::default();
    let text = ron::to_string(&s).expect("ron");
    assert_eq!(
        state_hash(app.world_mut()),
        chaos_outpost::ground::hash::fnv1a(text.as_bytes())
    );
}

#[test]
fn undo_reaches_back_only_until_something_is_revealed() {
    use chaos_outpost::rules::snapshot::capture;
    use chaos_outpost::rules::{Action, Chronicle, GameEvent};
    use chaos_outpost::view::undo::undoable;
    let db = std::sync::Arc::new(crate::common::base());
    let mut app = setup::new_game(db, "first_light", None, 1).expect("game");
    let w = app.world_mut();
    let since = |w: &mut bevy::prelude::World, n: usize| w.resource::<Chronicle>().0[n..].to_vec();
    let s0 = capture(w);
    let c0 = w.resource::<Chronicle>().0.len();
    // R7.4: choosing a technology reveals nothing (the other card is shuffled back, unseen).
    submit(
        w,
        Camp::Eladrins,
        Action::ChooseResearch {
            tech: "deep_cellars".into(),
        },
    )
    .expect("ok");
    let s1 = capture(w);
    assert!(undoable(&s0, &s1, &since(w, c0)));
    // Closing the step moves the game on (R8, the portal): no way back past it.
    let c1 = w.resource::<Chronicle>().0.len();
    submit(w, Camp::Eladrins, Action::Done).expect("ok");
    let s2 = capture(w);
    assert!(!undoable(&s1, &s2, &since(w, c1)));
    // A die rolled in between: never, even in the same step.
    let roll = [GameEvent::Dice {
        what: chaos_outpost::rules::event::Roll::Attack { round: 1, unit: 1 },
        dice: vec![6],
        target: 4,
        malus: 0,
        success: true,
        at: None,
    }];
    assert!(!undoable(&s0, &s1, &roll));
    // Nothing new: nothing to undo.
    assert!(!undoable(&s2, &s2, &[]));
}

#[test]
fn named_saves_keep_to_their_folder_and_list_newest_first_with_damaged_ones_named() {
    let dir = std::env::temp_dir().join(format!("chaos-outpost-slots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    // A name can't reach outside the folder or be empty.
    for bad in ["../x", "a/b", "", "   ", "x.ron", &"n".repeat(41)] {
        assert!(snapshot::slot_path(&dir, bad).is_err(), "{bad:?}");
    }
    let db = std::sync::Arc::new(crate::common::base());
    let mut app = setup::new_game(db, "first_light", None, 1).expect("game");
    let first = snapshot::slot_path(&dir, "Before the storm").expect("a fine name");
    snapshot::save(app.world_mut(), &first).expect("saved");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let second = snapshot::slot_path(&dir, "late-game_2").expect("a fine name");
    snapshot::save(app.world_mut(), &second).expect("saved");
    std::fs::write(dir.join("broken.ron"), "not a save").expect("write");
    let list = snapshot::slots(&dir);
    let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names[..2], ["broken", "late-game_2"], "newest first");
    assert_eq!(names[2], "Before the storm");
    assert!(list[0].summary.is_err());
    assert_eq!(
        list[1].summary.as_deref(),
        Ok("first_light, normal, cycle 1")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slot_list_reads_again_only_what_changed() {
    let dir = std::env::temp_dir().join(format!("chaos-outpost-slots2-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let db = std::sync::Arc::new(crate::common::base());
    let mut app = setup::new_game(db, "first_light", None, 1).expect("game");
    let p = snapshot::slot_path(&dir, "one").expect("name");
    snapshot::save(app.world_mut(), &p).expect("saved");
    let first = snapshot::slots(&dir);
    assert!(first[0].summary.is_ok());
    // An unchanged file keeps its summary without being read: a made-up one survives.
    let mut seen = first.clone();
    seen[0].summary = Ok("kept".into());
    assert_eq!(
        snapshot::slots_since(&dir, &seen)[0].summary.as_deref(),
        Ok("kept")
    );
    // A changed file is read again.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&p, "damaged now").expect("write");
    assert!(snapshot::slots_since(&dir, &seen)[0].summary.is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
