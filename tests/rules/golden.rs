//! Files recorded before the code was re-layered (main at 015372d), under rules version 1 (they
//! name no version), kept so that no refactoring can change how a game plays: two AI-vs-AI replays
//! (standard seed 5, a Chaos win at cycle 17 by the last power cell; First Light seed 3, an
//! Eladrin win at cycle 7) and an autosave of the standard game at cycle 9. Recorded with
//! `chaos-outpost sim --record` and `--autosave`; the hashes below are what `chaos-outpost replay`
//! printed for them then. First Light's normal has been re-tuned since, so its replay plays the
//! level as recorded through the mod beside it (`tests/golden/first_light_as_recorded`): these
//! files guard the rules' code, not a level's balance.

use std::path::PathBuf;
use std::sync::Arc;

use chaos_outpost::chapters::clans;
use chaos_outpost::rules::snapshot;
use chaos_outpost::rules::version::{OLDEST_RULES, RULES_VERSION, Rules};
use chaos_outpost::rules::{Action, GameWorld, Outcome, setup, submit};
use chaos_outpost::sim;

use crate::common::*;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Replays `name` on a fresh game (as `chaos-outpost replay` does) and gives its final state
/// hash as that command prints it.
fn replay_hash(name: &str) -> String {
    replay_hash_with(&[], name)
}

/// As `replay_hash`, with `mods` (folders under tests/golden) on.
fn replay_hash_with(mods: &[&str], name: &str) -> String {
    let mods: Vec<PathBuf> = mods.iter().map(|m| golden(m)).collect();
    let r = snapshot::read_replay(&golden(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        !r.cycle_hashes.is_empty(),
        "{name}: no cycle hashes to check"
    );
    let program = chaos_outpost::cli::Program {
        mods,
        chapters: chaos_outpost::chapters::shipped(),
    };
    let h = chaos_outpost::cli::replay::replay_hash(&program, &golden(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    format!("{h:016x}")
}

#[test]
fn a_replay_recorded_before_the_relayering_replays_to_its_hash() {
    // Every cycle's hash along the way is checked by `play_replay` too.
    assert_eq!(replay_hash("standard_seed5.replay.ron"), "dfe1cfcb05ed133d");
    assert_eq!(
        replay_hash_with(&["first_light_as_recorded"], "first_light_seed3.replay.ron"),
        "530cab4fe7f9bd61"
    );
}

#[test]
fn first_lights_golden_replay_is_refused_without_the_level_as_recorded() {
    // The level's normal changed: played on today's First Light the replay would not play the same
    // way, so it is refused by its content hash, not replayed wrongly.
    let program = chaos_outpost::cli::Program {
        mods: Vec::new(),
        chapters: chaos_outpost::chapters::shipped(),
    };
    let e =
        chaos_outpost::cli::replay::replay_hash(&program, &golden("first_light_seed3.replay.ron"))
            .expect_err("today's First Light is not the recorded one");
    assert!(e.contains("recorded with other content"), "{e}");
}

#[test]
fn a_save_written_before_the_relayering_loads_and_plays_on_to_the_same_end() {
    // The AI the game was recorded with: the candidates alone (normal has thought ahead since,
    // a change of play, not a refactoring), and Eladrins that never sally out (the sally came
    // later too).
    let mut db = base();
    // Every copy: the level's own AI fields (standard's hard margin) were merged at load.
    for ai in db.ai_mut() {
        ai.eladrin.sally = 0;
    }
    let mut app = setup::headless_app(Arc::new(db));
    app.insert_resource(chaos_outpost::ai::search::Brains::heuristic());
    let w = app.world_mut();
    snapshot::load(w, &golden("standard_seed5_c0009.save.ron")).expect("the old save loads");
    assert_eq!(w.resource::<chaos_outpost::rules::Cycle>().number, 9);
    // The AI is a function of the state, and the save holds the RNG: playing on from it is the
    // recorded game's second half, to the same final state.
    for _ in 0..5_000 {
        if w.resource::<Outcome>().winner.is_some() {
            break;
        }
        let (by, a) = sim::next_action(w);
        submit(w, by, a).expect("the AI plays legal actions");
    }
    let o = w.resource::<Outcome>().clone();
    assert_eq!(o.cycle, 17, "{o:?}");
    assert_eq!(
        format!("{:016x}", snapshot::state_hash(w)),
        "dfe1cfcb05ed133d",
        "ended on step {}",
        w.step_id()
    );
}

/// The reason a game ended is data (`EndReason`), but saves hold it as the sentence format 2
/// wrote, so old saves read back into the same value and every state hash stays as it was
/// (the golden replays above end on the last power cell and on the powered portal).
#[test]
fn end_reasons_are_saved_as_the_sentences_format_2_wrote() {
    use chaos_outpost::rules::outcome::{EndReason, legacy_reason};
    let all = [
        EndReason::PortalPowered,
        EndReason::LastCellCorrupted,
        EndReason::OutpostsLost,
        EndReason::PortalOverrun {
            outpost: "Dawnwatch".into(),
        },
        EndReason::CycleLimit {
            max: 40,
            conditions_only: false,
        },
        EndReason::CycleLimit {
            max: 40,
            conditions_only: true,
        },
        EndReason::Other("a plugin's end".into()),
    ];
    for r in all {
        let text = legacy_reason::text(&Some(r.clone()));
        assert_eq!(legacy_reason::parse(&text), Some(r), "{text}");
    }
    assert_eq!(
        legacy_reason::text(&Some(EndReason::CycleLimit {
            max: 40,
            conditions_only: false
        })),
        "The Eladrins did not power the portal within 40 cycles"
    );
    assert_eq!(legacy_reason::parse(""), None);
    assert_eq!(legacy_reason::text(&None), "");
}

/// Recorded under rules version 2 (R9.4 joiners keep their points, R5.4 famine on the roll, R8.3
/// the blocked portal step waits) with `chaos-outpost sim --record`; the hash is what
/// `chaos-outpost replay` printed then. Standard seed 5 now ends in an Eladrin win at cycle 13.
#[test]
fn a_replay_recorded_under_rules_2_replays_to_its_hash() {
    let r = snapshot::read_replay(&golden("standard_seed5.rules2.replay.ron")).expect("reads");
    assert_eq!(r.rules, Rules(2));
    assert_eq!(
        replay_hash("standard_seed5.rules2.replay.ron"),
        "609be24603b441cd"
    );
}

#[test]
fn a_replay_keeps_the_rules_it_was_recorded_under() {
    // The files above from before rules versions name none: they are version 1, and replay
    // under version 1 (the first test). Told they were version 2, the same actions drift or
    // are refused, with the cycle named: which rules a replay plays under matters.
    let mut r = snapshot::read_replay(&golden("standard_seed5.replay.ron")).expect("reads");
    assert_eq!(r.rules, Rules(1), "no field: version 1");
    r.rules = Rules(2);
    let mut app = setup::headless_app(Arc::new(base()));
    let e = snapshot::play_replay(app.world_mut(), &r).expect_err("other rules, other game");
    assert!(e.contains("drifted") || e.contains("refused"), "{e}");
    // A new game records the version it is played under, and a replay says it back.
    let mut app = setup::new_game(Arc::new(base()), "first_light", None, 3).expect("game");
    let w = app.world_mut();
    assert_eq!(w.rules(), Rules::CURRENT);
    let text = {
        let r = snapshot::replay_of(w);
        ron::ser::to_string(&r).expect("ron")
    };
    assert!(
        text.contains(&format!("rules:{RULES_VERSION}")),
        "{text:.300}"
    );
}

#[test]
fn a_replay_or_save_from_newer_rules_is_refused_naming_both_versions() {
    let newer = RULES_VERSION + 1;
    let text = std::fs::read_to_string(golden("standard_seed5.rules2.replay.ron")).expect("file");
    let mut r = snapshot::parse_replay(&text).expect("parses");
    r.rules = Rules(newer);
    let mut app = setup::headless_app(Arc::new(base()));
    let before = snapshot::state_hash(app.world_mut());
    let e = snapshot::play_replay(app.world_mut(), &r).expect_err("refused");
    assert!(
        e.contains(&format!("rules version {newer}"))
            && e.contains(&format!("{OLDEST_RULES} to {RULES_VERSION}")),
        "{e}"
    );
    assert_eq!(
        snapshot::state_hash(app.world_mut()),
        before,
        "nothing started"
    );
    // A save: refused before anything is replaced.
    let mut app = setup::new_game(Arc::new(base()), "first_light", None, 3).expect("game");
    let w = app.world_mut();
    let mut s = snapshot::capture(w);
    let before = snapshot::state_hash(w);
    s.setup.rules = Rules(newer);
    let e = snapshot::restore(w, &s).expect_err("refused");
    assert!(e.contains(&format!("rules version {newer}")), "{e}");
    assert_eq!(snapshot::state_hash(w), before);
}

#[test]
fn a_save_under_rules_1_plays_on_under_rules_1() {
    let mut app = setup::headless_app(Arc::new(base()));
    let w = app.world_mut();
    snapshot::load(w, &golden("standard_seed5_c0009.save.ron")).expect("the old save loads");
    assert_eq!(w.rules(), Rules(1));
    // Saved again, it still says nothing of rules: the same bytes hash as before versions.
    let s = snapshot::capture(w);
    let text = ron::ser::to_string(&s).expect("ron");
    assert!(!text.contains("rules:"), "version 1 is written as no field");
}

/// The three chapter levels, recorded under rules version 2 with `chaos-outpost sim --level L
/// --seed 5 --cycles 60 --record FILE` before version 3 changed M1, C14 and C17; the hashes
/// are what `chaos-outpost replay` printed then. Wyvern Wardens' seats pass with actions open
/// in it, and the clans' calls ask a clan twice: version 2 must go on playing them so.
#[test]
fn chapter_replays_recorded_under_rules_2_replay_to_their_hashes() {
    for (name, hash) in [
        ("mercenaries_seed5.rules2.replay.ron", "c9b6117d6307d104"),
        ("clans_seed5.rules2.replay.ron", "2144d1a5271e289a"),
        ("dragoness_seed5.rules2.replay.ron", "114d3fedbcaaf863"),
    ] {
        let r = snapshot::read_replay(&golden(name)).expect("reads");
        assert_eq!(r.rules, Rules(2), "{name}");
        assert_eq!(replay_hash(name), hash, "{name}");
    }
}

/// A level's own AI fields are the AI's, like `ai.ron`: a replay does not ask the AI, so
/// re-tuning how a level's Chaos plays leaves every recorded game's content hash as it was,
/// while a change of what the level plays (a difficulty tweak) does not.
#[test]
fn a_levels_ai_fields_are_not_in_the_content_hash() {
    let db = base();
    let before = db.hash();
    let mut retuned = db.clone();
    let text = "(search: (margins: {\"normal\": (chaos: 5)}))";
    retuned.levels.get_mut("clans").expect("clans").ai =
        Some(ron::value::RawValue::from_boxed_ron(text.into()).expect("RON"));
    assert_eq!(retuned.hash(), before, "the AI's fields do not count");
    let mut other = db.clone();
    other
        .levels
        .get_mut("clans")
        .expect("clans")
        .difficulty_tweaks
        .clear();
    assert_ne!(other.hash(), before, "what the level plays counts");
}

/// Replays and saves of the three chapter levels written before chapters' actions, refusals
/// and events were carried typed in memory (recorded with `chaos-outpost sim --level L --seed 9
/// --cycles 40 --record FILE --autosave DIR` by that program; the hashes are what its
/// `replay` printed): their text reads into the chapters' typed values and plays to the same
/// hashes, and a save's chapter actions are written back byte for byte.
#[test]
fn chapter_replays_and_saves_written_as_text_play_to_their_hashes_typed() {
    for (name, hash) in [
        ("mercenaries_seed9.rules3.replay.ron", "b427631450dee9f5"),
        ("clans_seed9.rules3.replay.ron", "73074f61d79a89e7"),
        ("dragoness_seed9.rules3.replay.ron", "e8390388782a8e28"),
    ] {
        let r = snapshot::read_replay(&golden(name)).expect("reads");
        assert_eq!(r.rules, Rules(3), "{name}");
        assert_eq!(replay_hash(name), hash, "{name}");
    }
    // The clans' autosave of cycle 6: it loads, its log's chapter actions are typed, and
    // saved again it is the same file, byte for byte (so the same state hash: the hash is
    // that of the text).
    let mut app = setup::headless_app(Arc::new(base()));
    let w = app.world_mut();
    let file = golden("clans_seed9_c0006.save.ron");
    snapshot::load(w, &file).expect("the save loads");
    let log = w.resource::<chaos_outpost::rules::ActionLog>().0.clone();
    let typed = log
        .iter()
        .filter(|(_, a)| matches!(a, Action::Chapter { act, .. } if act.as_ref::<clans::ClanAction>().is_some()))
        .count();
    assert!(
        typed > 10,
        "the log holds the clans' actions typed: {typed}"
    );
    let out = std::env::temp_dir().join(format!("chaos-outpost-resave-{}.ron", std::process::id()));
    snapshot::save(w, &out).expect("saves");
    let again = std::fs::read(&out).expect("the new save");
    let _ = std::fs::remove_file(&out);
    assert!(
        again == std::fs::read(&file).expect("the old save"),
        "the save written again differs from the one read"
    );
}
