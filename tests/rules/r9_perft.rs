//! A perft-style golden test: in a fixed scenario, the number of legal actions at given points
//! matches `tests/golden/perft.ron`; every listed action validates, and actions outside the
//! list are refused.

use chaos_outpost::content::{Camp, Res};
use chaos_outpost::rules::Action;
use chaos_outpost::rules::action::validate;
use chaos_outpost::rules::legal::{candidates, legal_actions};

use crate::common::*;

fn scenario() -> Scn {
    let mut s = Builder::new(4)
        .outpost(
            "Home",
            (0, 0),
            "camp",
            st(&[(Res::Wood, 6), (Res::Stone, 4), (Res::Food, 4)]),
            &["laboratory"],
        )
        .terrain((1, 0), "hills")
        .rift((3, 0))
        .army(Camp::Eladrins, (0, 0), &["ranger", "warden"])
        .army(Camp::Chaos, (3, 0), &["husk"])
        .build();
    s.run("R9");
    s
}

/// (point, camp, legal actions) along a fixed line of play.
fn counts() -> Vec<(String, Camp, usize)> {
    let mut s = scenario();
    let mut out = Vec::new();
    let mut snap = |s: &mut Scn, name: &str, by: Camp| {
        let n = legal_actions(s.w(), by).len();
        out.push((name.to_string(), by, n));
    };
    snap(&mut s, "start", Camp::Eladrins);
    let e = s.army_id((0, 0), Camp::Eladrins);
    s.submit(Action::Activate { army: e }).expect("activate");
    snap(&mut s, "activated", Camp::Eladrins);
    s.submit(Action::Move { to: (1, -1) }).expect("move");
    snap(&mut s, "moved", Camp::Eladrins);
    s.submit(Action::EndActivation).expect("end");
    snap(&mut s, "chaos turn", Camp::Chaos);
    out
}

#[test]
fn legal_action_counts_match_the_golden_file() {
    let got = counts();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/perft.ron"
    ))
    .expect("tests/golden/perft.ron");
    let want: Vec<(String, Camp, usize)> = ron::from_str(&text).expect("golden file parses");
    assert_eq!(
        got,
        want,
        "regenerate with care: {}",
        ron::to_string(&got).unwrap_or_default()
    );
}

#[test]
fn listed_actions_validate_and_unlisted_candidates_do_not() {
    let mut s = scenario();
    for by in [Camp::Eladrins, Camp::Chaos] {
        let legal = legal_actions(s.w(), by);
        for a in &legal {
            assert_eq!(validate(s.w(), by, a), Ok(()), "{a:?}");
        }
        let refused: Vec<Action> = candidates(s.w(), by)
            .into_iter()
            .filter(|a| !legal.contains(a))
            .collect();
        for a in refused {
            assert!(
                validate(s.w(), by, &a).is_err(),
                "{a:?} is not listed but validates"
            );
        }
    }
    // Random actions off the candidate list are refused too.
    let odd = [
        Action::Move { to: (9, 9) },
        Action::Feed { army: 1, tokens: 1 },
        Action::BuildImprovement {
            at: (4, 0),
            improvement: "farm".into(),
        },
        Action::Summon { rift: (3, 0) },
        Action::Engage {
            target: 999,
            retreat_below: 0,
        },
    ];
    for a in odd {
        assert!(validate(s.w(), Camp::Eladrins, &a).is_err(), "{a:?}");
    }
}
