//! Fuzzed play (proptest): random mixes of legal and illegal actions from random seeds on the
//! shipped levels. Nothing panics, every refused action leaves the state hash unchanged, and the
//! invariants hold after every action. `cargo test` runs a bounded number of cases.

use std::sync::Arc;

use chaos_outpost::content::{Camp, ContentDb, Res};
use chaos_outpost::rules::effects::hp_left;
use chaos_outpost::rules::legal::legal_actions;
use chaos_outpost::rules::snapshot::state_hash;
use chaos_outpost::rules::{Action, Army, Cycle, GameWorld, Outcome, Portal, setup, submit};
use proptest::prelude::*;

use crate::common::base;

fn junk(k: u32, n: u32) -> Action {
    let c = (n as i32 % 13) - 6;
    match k % 12 {
        0 => Action::Move { to: (c, -c) },
        1 => Action::Feed {
            army: n % 40,
            tokens: n % 4,
        },
        2 => Action::BuildImprovement {
            at: (c, 1),
            improvement: ["farm", "quarry", "nope"][n as usize % 3].into(),
        },
        3 => Action::BuildPortalCell {
            arch: n as usize % 3,
        },
        4 => Action::PowerPortal { crystals: n % 6 },
        5 => Action::Engage {
            target: n % 40,
            retreat_below: n % 3,
        },
        6 => Action::Activate { army: n % 40 },
        7 => Action::Summon { rift: (c, c) },
        8 => Action::FundResearch {
            outpost: n % 3,
            res: Res::ALL[n as usize % 6],
            amount: n % 5,
        },
        9 => Action::Detach {
            units: vec![n % 60],
        },
        10 => Action::Ritual {
            ritual: "seal_rift".into(),
        },
        _ => Action::Done,
    }
}

fn check_invariants(world: &mut bevy::prelude::World) {
    let db = world.content();
    let ap = db.rules().action_points;
    let armies: Vec<Army> = world.query::<&Army>().iter(world).cloned().collect();
    for a in &armies {
        assert!(!a.units.is_empty(), "no empty army stays on the map");
        for u in &a.units {
            assert!(u.ap <= ap, "AP never above the rules' {ap}");
            assert!(hp_left(world, a, u) > 0, "no dead unit stays in an army");
        }
    }
    let p = world.resource::<Portal>().clone();
    assert!(p.power + p.corruption <= db.portal().track);
    let c = world.resource::<Cycle>().clone();
    if let Some(id) = c.activation {
        let a = armies
            .iter()
            .find(|a| a.id == id)
            .expect("the active army exists");
        assert_eq!(a.camp, c.turn, "only the camp whose turn it is activates");
    }
}

fn play(db: Arc<ContentDb>, level: &str, seed: u64, moves: &[(u32, u32)]) {
    let mut app = setup::new_game(db, level, None, seed).expect("start");
    let w = app.world_mut();
    for (k, n) in moves {
        if w.resource::<Outcome>().winner.is_some() {
            break;
        }
        let by = if w.step_id() == "R9" {
            w.resource::<Cycle>().turn
        } else {
            Camp::Eladrins
        };
        let action = if k % 3 == 0 {
            junk(*k / 3, *n)
        } else {
            let legal = legal_actions(w, by);
            legal[*n as usize % legal.len()].clone()
        };
        let before = state_hash(w);
        let by = if k % 7 == 1 { by.enemy() } else { by };
        if submit(w, by, action.clone()).is_err() {
            assert_eq!(
                before,
                state_hash(w),
                "refused {action:?} changed the state"
            );
        }
        check_invariants(w);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn random_play_never_breaks_the_rules(
        seed in any::<u64>(),
        level in 0usize..3,
        moves in prop::collection::vec((any::<u32>(), any::<u32>()), 20..80),
    ) {
        let level = ["first_light", "standard", "hard"][level];
        play(Arc::new(base()), level, seed, &moves);
    }
}
