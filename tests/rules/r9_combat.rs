//! R9.5 — Combat: 5 rounds at most, simultaneous rolls, wounds to the weakest first, famine,
//! retreat, corrupted units fighting for Chaos, and odds that match the outcomes.

use chaos_outpost::content::Camp;
use chaos_outpost::rules::main_phase::combat::{
    BattleEnd, Fighter, assign_hits, battle_odds, fighters, hit_distribution,
};
use chaos_outpost::rules::{Action, GameEvent, Refusal};

use crate::common::*;

fn battle(b: Builder) -> Scn {
    let mut s = b.build();
    s.run("R9");
    s
}

fn ends(s: &mut Scn) -> Vec<(u8, BattleEnd)> {
    s.events()
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::BattleEnded { rounds, end, .. } => Some((rounds, end)),
            _ => None,
        })
        .collect()
}

#[test]
fn r9_5_battle_lasts_at_most_five_rounds() {
    // Two golems (6 HP) against an abomination-sized foe that can barely scratch them: all misses.
    let mut s = battle(
        Builder::new(4)
            .army(Camp::Eladrins, (1, 0), &["warden"])
            .army(Camp::Chaos, (1, 0), &["husk"]),
    );
    let (e, c) = (
        s.army_id((1, 0), Camp::Eladrins),
        s.army_id((1, 0), Camp::Chaos),
    );
    s.submit(Action::Activate { army: e }).expect("activate");
    // Every die a 1: nobody ever hits.
    s.dice(&[1; 200]);
    s.submit(Action::Engage {
        target: c,
        retreat_below: 0,
    })
    .expect("engage");
    assert_eq!(ends(&mut s), vec![(5, BattleEnd::Undecided)]);
    let rounds = s
        .events()
        .iter()
        .filter(|e| matches!(e, GameEvent::RoundFought { .. }))
        .count();
    assert_eq!(rounds, 5);
    assert_eq!(s.armies()[0].units[0].ap, 0, "engaging ends the activation");
}

#[test]
fn r9_5_a_destroyed_side_ends_the_battle_early() {
    let mut s = battle(
        Builder::new(4)
            .army(Camp::Eladrins, (1, 0), &["warden"])
            .army(Camp::Chaos, (1, 0), &["imp"]),
    );
    let (e, c) = (
        s.army_id((1, 0), Camp::Eladrins),
        s.army_id((1, 0), Camp::Chaos),
    );
    s.submit(Action::Activate { army: e }).expect("activate");
    // Warden: 2 dice (6, 6) hit; the imp's die (1) misses.
    s.dice(&[6, 6, 1]);
    s.submit(Action::Engage {
        target: c,
        retreat_below: 0,
    })
    .expect("engage");
    assert_eq!(ends(&mut s), vec![(1, BattleEnd::AttackerWins)]);
    assert!(s.army_at((1, 0), Camp::Chaos).is_none());
}

#[test]
fn r9_5_hits_wound_the_weakest_unit_first() {
    let mut side = vec![
        Fighter {
            id: 1,
            hp: 3,
            dice: 1,
            hit_on: 4,
            malus: 0,
        },
        Fighter {
            id: 2,
            hp: 1,
            dice: 1,
            hit_on: 4,
            malus: 0,
        },
        Fighter {
            id: 3,
            hp: 2,
            dice: 1,
            hit_on: 4,
            malus: 0,
        },
    ];
    let w = assign_hits(&mut side, 3);
    // 2 (1 HP) dies, then 3 (2 HP) takes two: ties go to the lowest id at equal HP.
    assert_eq!(w, vec![(2, 1), (3, 2)]);
    assert_eq!(side.iter().map(|f| f.hp).collect::<Vec<_>>(), vec![3, 0, 0]);
}

#[test]
fn r9_5_famine_makes_attacks_harder_and_defence_helps_the_defender() {
    let mut s = battle(
        Builder::new(4)
            .terrain((1, 0), "hills")
            .army(Camp::Eladrins, (1, 0), &["warden"])
            .army(Camp::Chaos, (1, 0), &["husk"]),
    );
    let e = s.army_at((1, 0), Camp::Eladrins).expect("army");
    let base = fighters(s.w(), &e, 0)[0];
    s.army_mut(e.id, |a| a.famine = 1);
    let e = s.army_at((1, 0), Camp::Eladrins).expect("army");
    let starved = fighters(s.w(), &e, 0)[0];
    assert_eq!(
        (starved.hit_on, starved.malus),
        (base.hit_on, 1),
        "R5.4: −1 to attack rolls"
    );
    assert!(starved.chance() < base.chance());
    let defense = chaos_outpost::rules::main_phase::combat::defense_of(s.w(), &e);
    let hills = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .terrain("hills")
        .map(|t| t.defense as i32)
        .unwrap_or(0);
    assert_eq!(defense, hills);
}

#[test]
fn r9_5_the_attacker_retreats_below_its_threshold() {
    let mut s = battle(
        Builder::new(4)
            .army(Camp::Eladrins, (1, 0), &["ranger", "ranger"])
            .army(Camp::Chaos, (1, 0), &["abomination"]),
    );
    let (e, c) = (
        s.army_id((1, 0), Camp::Eladrins),
        s.army_id((1, 0), Camp::Chaos),
    );
    s.army_mut(e, |a| a.units[0].wounds = 2);
    s.submit(Action::Activate { army: e }).expect("activate");
    // Rangers miss (1, 1); the abomination hits with everything.
    s.dice(
        &[1; 2]
            .iter()
            .chain([6u8; 10].iter())
            .copied()
            .collect::<Vec<_>>(),
    );
    s.submit(Action::Engage {
        target: c,
        retreat_below: 2,
    })
    .expect("engage");
    let end = ends(&mut s);
    assert!(
        matches!(end[0].1, BattleEnd::Retreat | BattleEnd::DefenderWins),
        "{end:?}"
    );
    if end[0].1 == BattleEnd::Retreat {
        let a = s
            .armies()
            .into_iter()
            .find(|a| a.id == e)
            .expect("still alive");
        assert_ne!(a.hex, hex((1, 0)));
    }
}

#[test]
fn r9_5_engaging_needs_an_enemy_on_the_tile_and_a_fighter() {
    let mut s = battle(
        Builder::new(4)
            .army(Camp::Eladrins, (1, 0), &["settler"])
            .army(Camp::Chaos, (1, 0), &["husk"])
            .army(Camp::Chaos, (2, 0), &["husk"]),
    );
    let e = s.army_id((1, 0), Camp::Eladrins);
    let (c1, c2) = (
        s.army_id((1, 0), Camp::Chaos),
        s.army_id((2, 0), Camp::Chaos),
    );
    s.submit(Action::Activate { army: e }).expect("activate");
    s.refused(
        Action::Engage {
            target: c2,
            retreat_below: 0,
        },
        Refusal::NotHere(c2),
    );
    s.refused(
        Action::Engage {
            target: c1,
            retreat_below: 0,
        },
        Refusal::NoFighter(e),
    );
    s.refused(
        Action::Engage {
            target: e,
            retreat_below: 0,
        },
        Refusal::NotAnEnemy(e),
    );
}

#[test]
fn r9_5_corrupted_units_fight_for_chaos() {
    let mut s = Builder::new(4)
        .corrupted((1, 0))
        .army(Camp::Eladrins, (1, 0), &["arcanist"])
        .army(Camp::Eladrins, (2, 0), &["warden"])
        .build();
    let arc = s.army_id((1, 0), Camp::Eladrins);
    s.army_mut(arc, |a| a.units[0].wounds = 1);
    s.dice(&[1]);
    s.run("R6");
    let turned = s.army_at((1, 0), Camp::Chaos).expect("the arcanist turned");
    s.run("R9");
    s.submit(Action::Pass).expect("pass");
    s.submit_as(Camp::Chaos, Action::Activate { army: turned.id })
        .expect("activate");
    s.submit_as(Camp::Chaos, Action::Move { to: (2, 0) })
        .expect("move onto the warden");
    let w = s.army_id((2, 0), Camp::Eladrins);
    s.submit_as(
        Camp::Chaos,
        Action::Engage {
            target: w,
            retreat_below: 0,
        },
    )
    .expect("a turned unit attacks its former camp");
}

#[test]
fn r9_5_exact_round_odds() {
    let one = [Fighter {
        id: 1,
        hp: 1,
        dice: 1,
        hit_on: 4,
        malus: 0,
    }];
    assert_eq!(hit_distribution(&one), vec![0.5, 0.5]);
    let two = [Fighter {
        id: 1,
        hp: 1,
        dice: 2,
        hit_on: 5,
        malus: 0,
    }];
    let d = hit_distribution(&two);
    let p = 2.0 / 6.0;
    assert!((d[0] - (1.0 - p) * (1.0 - p)).abs() < 1e-12);
    assert!((d[1] - 2.0 * p * (1.0 - p)).abs() < 1e-12);
    assert!((d[2] - p * p).abs() < 1e-12);
}

#[test]
fn r9_5_the_preview_odds_match_the_battles_fought() {
    // Fight the same battle 300 times with different seeds; compare with the preview.
    let mut wins = 0;
    let mut odds = None;
    for seed in 0..300 {
        let mut s = battle(
            Builder::new(4)
                .seed(seed)
                .army(Camp::Eladrins, (1, 0), &["warden", "ranger"])
                .army(Camp::Chaos, (1, 0), &["husk", "husk", "imp"]),
        );
        let e = s.army_at((1, 0), Camp::Eladrins).expect("e");
        let c = s.army_at((1, 0), Camp::Chaos).expect("c");
        if odds.is_none() {
            odds = Some(battle_odds(s.w(), &e, &c, 0, 4000));
        }
        s.submit(Action::Activate { army: e.id }).expect("activate");
        s.submit(Action::Engage {
            target: c.id,
            retreat_below: 0,
        })
        .expect("engage");
        if ends(&mut s)[0].1 == BattleEnd::AttackerWins {
            wins += 1;
        }
    }
    let o = odds.expect("odds");
    let rate = wins as f64 / 300.0;
    assert!(
        (o.attacker_wins + o.defender_wins + o.undecided + o.both_destroyed - 1.0).abs() < 1e-9
    );
    // 300 battles: sd ≤ 0.029; allow 4 sd.
    assert!(
        (rate - o.attacker_wins).abs() < 0.12,
        "fought {rate}, preview {}",
        o.attacker_wins
    );
}
