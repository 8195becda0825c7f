//! R3 — Resource generation: food rolls 1d6 (4+ healthy), other resources are placed on their
//! tile, outposts collect their influence zone up to their storage.

use chaos_outpost::content::Res;
use chaos_outpost::rules::GameEvent;

use crate::common::*;

#[test]
fn r3_1_each_food_point_is_healthy_on_4_or_more() {
    // A farm yields 2 food; far from any outpost, so it stays on its tile.
    let mut s = Builder::new(8).improvement((6, 0), "farm").build();
    s.dice(&[4, 3]);
    s.run("R3");
    assert_eq!(s.tile((6, 0)).lying.get(Res::Food), 1);
    let rolls = s.rolls("R3.1");
    assert_eq!(rolls, vec![(vec![4], 4, true), (vec![3], 4, false)]);
}

#[test]
fn r3_1_food_spoils_about_half_the_time() {
    let mut s = Builder::new(8).improvement((6, 0), "farm").build();
    for _ in 0..1000 {
        s.run("R3");
    }
    let healthy = s.tile((6, 0)).lying.get(Res::Food) as f64;
    let rate = healthy / 2000.0;
    // 3 of 6 faces: p = 0.5; 2000 rolls, sd ≈ 0.011: ±0.04 is over 3.5 sd.
    assert!((0.46..=0.54).contains(&rate), "healthy rate {rate}");
}

#[test]
fn r3_2_other_resources_are_placed_on_the_producing_tile() {
    let mut s = Builder::new(8)
        .terrain((6, 0), "hills")
        .improvement((6, 0), "quarry")
        .build();
    s.run("R3");
    assert_eq!(s.tile((6, 0)).lying.get(Res::Stone), 2);
    assert!(s.rolls("R3.1").is_empty(), "only food is rolled for");
}

#[test]
fn r3_terrain_bonus_and_technology_add_to_an_improvement() {
    let mut s = Builder::new(8)
        .terrain((6, 0), "crystal_fields")
        .improvement((6, 0), "crystal_mine")
        .build();
    s.w()
        .resource_mut::<chaos_outpost::rules::Modifiers>()
        .improvement_yield
        .insert("crystal_mine".into(), st(&[(Res::Crystal, 2)]));
    s.run("R3");
    // The mine's own yield, +1 from crystal fields, +2 from technology.
    let mine = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .improvement("crystal_mine")
        .map(|i| i.yields.get(Res::Crystal))
        .unwrap_or(0);
    assert_eq!(s.tile((6, 0)).lying.get(Res::Crystal), mine + 1 + 2);
}

#[test]
fn r3_corrupted_tiles_produce_nothing() {
    let mut s = Builder::new(8)
        .terrain((6, 0), "hills")
        .improvement((6, 0), "quarry")
        .corrupted((6, 0))
        .build();
    s.run("R3");
    assert!(s.tile((6, 0)).lying.is_empty());
}

#[test]
fn r3_3_outposts_collect_their_influence_zone_into_stock() {
    let mut s = Builder::new(6)
        .terrain((1, 0), "hills")
        .improvement((1, 0), "quarry")
        .lying((0, 2), st(&[(Res::Wood, 3)]))
        .lying((5, 0), st(&[(Res::Wood, 4)]))
        .build();
    s.run("R3");
    let o = s.outpost("Home");
    assert_eq!(o.stock.get(Res::Stone), 2);
    assert_eq!(
        o.stock.get(Res::Wood),
        3,
        "wood inside the zone is collected"
    );
    assert!(s.tile((1, 0)).lying.is_empty());
    assert_eq!(
        s.tile((5, 0)).lying.get(Res::Wood),
        4,
        "outside the zone it stays"
    );
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, GameEvent::Collected { .. }))
    );
}

#[test]
fn r3_3_collection_stops_at_storage_and_the_rest_stays_on_the_tile() {
    let mut s = Builder::new(6)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Stone, 18)]), &[])
        .lying((1, 0), st(&[(Res::Wood, 5)]))
        .build();
    let cap = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .size("camp")
        .map(|z| z.storage)
        .unwrap_or(0);
    assert_eq!(cap, 20, "this test assumes a camp stores 20");
    s.run("R3");
    assert_eq!(s.outpost("Home").stock.total(), 20);
    assert_eq!(s.tile((1, 0)).lying.get(Res::Wood), 3);
}

#[test]
fn r3_2_working_buildings_place_their_yield_on_the_outpost_tile() {
    let mut s = Builder::new(6)
        .outpost("Home", (0, 0), "camp", Default::default(), &["workshop"])
        .build();
    s.run("R3");
    let y = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .building("workshop")
        .map(|b| b.yields)
        .unwrap_or_default();
    assert!(!y.is_empty());
    assert_eq!(
        s.outpost("Home").stock,
        y,
        "the workshop's yield is collected the same step"
    );
}
