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
    std::fs::write(
        &path,
        text.replacen("kind: \"ranger\"", "kind: \"dragon\"", 1),
    )
    .expect("write");
    let err = snapshot::load(app.world_mut(), &path).expect_err("unknown unit");
    assert!(err.contains("dragon"), "{err}");
    assert_eq!(state_hash(app.world_mut()), before);
    // And one from another format version.
    std::fs::write(&path, text.replacen("version: 1", "version: 99", 1)).expect("write");
    let err = snapshot::load(app.world_mut(), &path).expect_err("version");
    assert!(err.contains("version 99"), "{err}");
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
