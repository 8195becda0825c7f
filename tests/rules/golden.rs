//! Files recorded before the code was re-layered (issue 15, main at 015372d), kept so that no
//! refactoring can change how a game plays: two AI-vs-AI replays (standard seed 5, a Chaos win
//! at cycle 17 by the last power cell; First Light seed 3, an Eladrin win at cycle 7) and an
//! autosave of the standard game at cycle 9. Recorded with `chaos-outpost sim --record` and
//! `--autosave`; the hashes below are what `chaos-outpost replay` printed for them then.

use std::path::PathBuf;
use std::sync::Arc;

use chaos_outpost::rules::snapshot;
use chaos_outpost::rules::{GameWorld, Outcome, setup, submit};
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
    let r = snapshot::read_replay(&golden(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        !r.cycle_hashes.is_empty(),
        "{name}: no cycle hashes to check"
    );
    let h = chaos_outpost::cli::replay::replay_hash(&[], &golden(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    format!("{h:016x}")
}

#[test]
fn a_replay_recorded_before_the_relayering_replays_to_its_hash() {
    // Every cycle's hash along the way is checked by `play_replay` too.
    assert_eq!(replay_hash("standard_seed5.replay.ron"), "dfe1cfcb05ed133d");
    assert_eq!(
        replay_hash("first_light_seed3.replay.ron"),
        "530cab4fe7f9bd61"
    );
}

#[test]
fn a_save_written_before_the_relayering_loads_and_plays_on_to_the_same_end() {
    let mut app = setup::headless_app(Arc::new(base()));
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
        EndReason::CycleLimit { max: 40 },
        EndReason::Other("a plugin's end".into()),
    ];
    for r in all {
        let text = legacy_reason::text(&Some(r.clone()));
        assert_eq!(legacy_reason::parse(&text), Some(r), "{text}");
    }
    assert_eq!(
        legacy_reason::text(&Some(EndReason::CycleLimit { max: 40 })),
        "The Eladrins did not power the portal within 40 cycles"
    );
    assert_eq!(legacy_reason::parse(""), None);
    assert_eq!(legacy_reason::text(&None), "");
}
