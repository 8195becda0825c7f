//! R4 — Time counters: one marker off each source; at zero the thing is available and its
//! upkeep is due at R5 of the same phase.

use chaos_outpost::content::Res;
use chaos_outpost::rules::{GameEvent, Works};

use crate::common::*;

#[test]
fn r4_one_marker_comes_off_and_the_building_is_ready_at_zero() {
    let mut s = Builder::new(4).build();
    s.outpost_mut("Home", |o| {
        o.buildings.push(Works {
            id: "granary".into(),
            timer: 2,
            inactive: false,
        })
    });
    s.tile_mut((1, 0), |t| {
        t.improvement = Some(Works {
            id: "farm".into(),
            timer: 1,
            inactive: false,
        })
    });
    s.run("R4");
    assert_eq!(s.outpost("Home").buildings[0].timer, 1);
    assert_eq!(s.tile((1, 0)).improvement.map(|w| w.timer), Some(0));
    let ready = |s: &mut crate::common::Scn| {
        s.events()
            .iter()
            .filter(|e| matches!(e, GameEvent::Ready { .. }))
            .count()
    };
    assert_eq!(ready(&mut s), 1, "only the farm is ready");
    s.run("R4");
    assert_eq!(s.outpost("Home").buildings[0].timer, 0);
    assert_eq!(ready(&mut s), 2);
    s.run("R4");
    assert_eq!(s.outpost("Home").buildings[0].timer, 0, "never below zero");
}

#[test]
fn r4_a_building_ready_this_phase_pays_its_upkeep_at_r5_of_the_same_phase() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 1)]), &[])
        .build();
    s.outpost_mut("Home", |o| {
        o.buildings.push(Works {
            id: "laboratory".into(),
            timer: 1,
            inactive: false,
        })
    });
    s.run("R4");
    s.run("R5");
    let o = s.outpost("Home");
    assert_eq!(
        o.stock.get(Res::Food),
        0,
        "the lab's upkeep (1 food) is paid at once"
    );
    assert!(!o.buildings[0].inactive);
}

#[test]
fn r4_town_hall_grows_the_outpost_when_ready() {
    let mut s = Builder::new(4).build();
    s.outpost_mut("Home", |o| {
        o.buildings.push(Works {
            id: "town_hall".into(),
            timer: 1,
            inactive: false,
        })
    });
    s.run("R4");
    assert_eq!(s.outpost("Home").size, "village");
}
