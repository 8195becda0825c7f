//! R6 — Chaos corruption: attempts per open rift, 2d6 ≥ 9 + distance − adjacent corrupted,
//! resistance rolls, units turning to Chaos.

use chaos_outpost::content::Camp;
use chaos_outpost::rules::upkeep::corruption::{
    attempts_this_step, difficulty, open_rifts, two_d6_at_least,
};
use chaos_outpost::rules::{GameEvent, Portal};

use crate::common::*;

#[test]
fn r6_1_one_attempt_per_open_rift() {
    let mut s = Builder::new(8).rift((6, 0)).rift((-6, 0)).build();
    s.dice(&[1, 1, 1, 1]);
    s.run("R6");
    assert_eq!(s.rolls("R6.2").len(), 2);
}

#[test]
fn r6_1_a_closed_rift_makes_no_attempt() {
    let mut s = Builder::new(8).rift((6, 0)).rift((-6, 0)).build();
    s.tile_mut((-6, 0), |t| t.rift = chaos_outpost::rules::Rift::Closed);
    assert_eq!(attempts_this_step(s.w()), 1);
}

#[test]
fn r6_2_a_tile_next_to_a_rift_has_difficulty_9() {
    let mut s = Builder::new(8).rift((6, 0)).build();
    let rifts = open_rifts(s.w());
    // Distance 1 (+1), one corrupted neighbour, the rift (−1).
    assert_eq!(difficulty(s.w(), &rifts, hex((5, 0))), Some(9));
}

#[test]
fn r6_2_distance_raises_and_corrupted_neighbours_lower_the_difficulty() {
    let mut s = Builder::new(8)
        .rift((6, 0))
        .corrupted((5, 0))
        .corrupted((5, 1))
        .build();
    let rifts = open_rifts(s.w());
    // (4, 1): distance 2 to the rift, touching (5, 0) and (5, 1): 9 + 2 − 2.
    assert_eq!(difficulty(s.w(), &rifts, hex((4, 1))), Some(9));
    // (3, 0): distance 3, touching nothing corrupted: not a target (R6.1).
    assert_eq!(difficulty(s.w(), &rifts, hex((3, 0))), None);
    // Already corrupted: not a target.
    assert_eq!(difficulty(s.w(), &rifts, hex((5, 0))), None);
}

#[test]
fn r6_2_difficulty_level_adjusts_the_target() {
    // The shipped hard difficulty leaves corruption as written (its skill is the search):
    // a difficulty that makes corruption rolls 2 easier.
    let mut s = Builder::new(8)
        .rift((6, 0))
        .difficulty("hard")
        .with(|c| {
            if let Some(d) = c.difficulties.iter_mut().find(|d| d.id == "hard") {
                d.corruption_difficulty = -2;
            }
        })
        .build();
    let rifts = open_rifts(s.w());
    assert_eq!(difficulty(s.w(), &rifts, hex((5, 0))), Some(9 - 2));
}

#[test]
fn r6_2_success_on_2d6_at_least_the_difficulty() {
    let mut s = Builder::new(8).rift((6, 0)).build();
    s.dice(&[4, 4]);
    s.run("R6");
    assert_eq!(s.rolls("R6.2"), vec![(vec![4, 4], 9, false)]);
    let corrupted_before = s
        .events()
        .iter()
        .filter(|e| matches!(e, GameEvent::TileCorrupted { .. }))
        .count();
    assert_eq!(corrupted_before, 0);
    s.dice(&[4, 5]);
    s.run("R6");
    let corrupted: Vec<_> = s
        .events()
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::TileCorrupted { at } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(corrupted.len(), 1);
    assert!(s.w().tile(corrupted[0]).is_some_and(|t| t.corrupted));
    use chaos_outpost::rules::GameWorld;
}

#[test]
fn r6_2_corruption_succeeds_at_the_2d6_rate() {
    // Difficulty 9 each time: cleanse the target after each attempt so the odds stay the same.
    let mut s = Builder::new(8).rift((6, 0)).build();
    let mut ok = 0;
    for _ in 0..3000 {
        s.run("R6");
        for h in hexx::Hex::new(6, 0).all_neighbors() {
            if s.w().tile(h).is_some_and(|t| t.corrupted) {
                ok += 1;
                s.tile_mut((h.x, h.y), |t| t.corrupted = false);
            }
        }
    }
    let rate = ok as f64 / 3000.0;
    let p = two_d6_at_least(9);
    assert!((p - 10.0 / 36.0).abs() < 1e-9);
    assert!((rate - p).abs() < 0.03, "rate {rate} vs {p}");
    use chaos_outpost::rules::GameWorld;
}

#[test]
fn r6_corruption_next_to_the_portal_puts_a_marker_on_the_power_track() {
    let mut s = Builder::new(6).rift((2, 0)).build();
    // The only targets touching the rift are (1, 0) etc.; scripted success.
    s.dice(&[6, 6]);
    s.run("R6");
    let p = s.w().resource::<Portal>().clone();
    assert_eq!(
        p.corruption, 1,
        "corruption within the threat radius creeps onto the track"
    );
}

#[test]
fn r6_3_a_unit_on_a_corrupted_tile_that_fails_its_resistance_loses_a_hit_point() {
    let mut s = Builder::new(6)
        .corrupted((3, 0))
        .army(Camp::Eladrins, (3, 0), &["ranger", "ranger"])
        .build();
    // No rift: no attempt. Ranger resistance 4: 3 fails, 4 passes.
    s.dice(&[3, 4]);
    s.run("R6");
    let a = s.armies()[0].clone();
    assert_eq!(a.units[0].wounds, 1);
    assert_eq!(a.units[1].wounds, 0);
    assert_eq!(
        s.rolls("R6.3")
            .iter()
            .map(|r| (r.1, r.2))
            .collect::<Vec<_>>(),
        vec![(4, false), (4, true)]
    );
}

#[test]
fn r6_3_a_unit_brought_to_zero_turns_to_chaos_on_its_tile() {
    let mut s = Builder::new(6)
        .corrupted((3, 0))
        .army(Camp::Eladrins, (3, 0), &["arcanist"])
        .build();
    let id = s.armies()[0].id;
    s.army_mut(id, |a| a.units[0].wounds = 1);
    s.dice(&[1]);
    s.run("R6");
    assert!(
        s.army_at((3, 0), Camp::Eladrins).is_none(),
        "the Eladrin army is gone"
    );
    let chaos = s
        .army_at((3, 0), Camp::Chaos)
        .expect("a Chaos army stands there");
    let into = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .unit("arcanist")
        .and_then(|u| u.corrupts_into.clone())
        .unwrap_or_else(|| "husk".into());
    assert_eq!(chaos.units[0].kind, into);
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, GameEvent::UnitTurned { .. }))
    );
}

#[test]
fn r6_3_units_on_clean_tiles_and_immune_units_never_roll() {
    let mut s = Builder::new(6)
        .corrupted((3, 0))
        .army(Camp::Eladrins, (3, 0), &["golem"])
        .army(Camp::Eladrins, (-3, 0), &["ranger"])
        .build();
    s.run("R6");
    assert!(s.rolls("R6.3").is_empty());
}

#[test]
fn r6_3_technology_makes_resistance_easier() {
    let mut s = Builder::new(6)
        .corrupted((3, 0))
        .army(Camp::Eladrins, (3, 0), &["ranger"])
        .build();
    s.w()
        .resource_mut::<chaos_outpost::rules::Modifiers>()
        .resistance = 1;
    s.dice(&[3]);
    s.run("R6");
    assert_eq!(s.armies()[0].units[0].wounds, 0, "4+ became 3+");
}

#[test]
fn r6_2_the_forecast_names_the_tile_chaos_tries_first_with_its_exact_odds() {
    use chaos_outpost::rules::forecast::{Warning, upkeep_forecast};
    let mut s = Builder::new(8).rift((6, 0)).build();
    let w = upkeep_forecast(s.w());
    let Some(Warning::Corruption {
        at,
        target,
        chance,
        attempts,
        ..
    }) = w.last().cloned()
    else {
        panic!("a corruption warning: {w:?}");
    };
    assert_eq!((target, attempts), (9, 1));
    assert!((chance - 10.0 / 36.0).abs() < 1e-9, "2d6 ≥ 9 is 10/36");
    // The upkeep tries that very tile: a success corrupts it.
    s.dice(&[6, 6]);
    s.run("R6");
    assert!(
        s.tile(at).corrupted,
        "the forecast tile {at:?} was the one tried"
    );
}
