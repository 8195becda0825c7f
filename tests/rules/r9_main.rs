//! R9 — The main phase: building (R9.1, R9.2), exploring (R9.3), activating (R9.4), rituals,
//! Chaos summoning, turn order and outposts falling.

use chaos_outpost::content::{Camp, Res};
use chaos_outpost::rules::main_phase::activate::{path_to, reachable};
use chaos_outpost::rules::outcome::EndReason;
use chaos_outpost::rules::{
    Action, Army, Cycle, GameEvent, Outcome, Portal, Refusal, Research, Rift,
};

use chaos_outpost::rules::units::hp_left;

use crate::common::*;

fn main_phase(b: Builder) -> Scn {
    let mut s = b.build();
    s.run("R9");
    s
}

#[test]
fn r9_1_an_improvement_needs_a_control_zone_or_a_military_unit() {
    let mut s = main_phase(
        Builder::new(6)
            .outpost(
                "Home",
                (0, 0),
                "camp",
                st(&[(Res::Wood, 10), (Res::Stone, 10)]),
                &[],
            )
            .army(Camp::Eladrins, (4, 0), &["warden"])
            .army(Camp::Eladrins, (-4, 0), &["settler"])
            .lying((4, 0), st(&[(Res::Wood, 5), (Res::Stone, 5)]))
            .lying((-4, 0), st(&[(Res::Wood, 5), (Res::Stone, 5)])),
    );
    s.refused(
        Action::BuildImprovement {
            at: (3, -2),
            improvement: "lumber_camp".into(),
        },
        Refusal::NotControlled((3, -2)),
    );
    s.refused(
        Action::BuildImprovement {
            at: (-4, 0),
            improvement: "lumber_camp".into(),
        },
        Refusal::NotControlled((-4, 0)),
    );
    // Held by a military unit: paid from the tile.
    s.submit(Action::BuildImprovement {
        at: (4, 0),
        improvement: "lumber_camp".into(),
    })
    .expect("held tile");
    let t = s.tile((4, 0));
    let imp = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .improvement("lumber_camp")
        .cloned()
        .expect("lumber camp");
    assert_eq!(
        t.improvement.as_ref().map(|w| (w.id.as_str(), w.timer)),
        Some(("lumber_camp", imp.build_time))
    );
    assert_eq!(t.lying.get(Res::Wood), 5 - imp.cost.get(Res::Wood));
}

#[test]
fn r9_1_an_improvement_is_refused_with_an_enemy_on_the_tile_or_one_already_there() {
    let mut s = main_phase(
        Builder::new(6)
            .outpost(
                "Home",
                (0, 0),
                "camp",
                st(&[(Res::Wood, 10), (Res::Stone, 10)]),
                &[],
            )
            .army(Camp::Chaos, (1, 0), &["husk"])
            .improvement((0, 1), "lumber_camp"),
    );
    s.refused(
        Action::BuildImprovement {
            at: (1, 0),
            improvement: "lumber_camp".into(),
        },
        Refusal::EnemyThere((1, 0)),
    );
    s.refused(
        Action::BuildImprovement {
            at: (0, 1),
            improvement: "lumber_camp".into(),
        },
        Refusal::ImprovementThere((0, 1)),
    );
    s.refused(
        Action::BuildImprovement {
            at: (-1, 0),
            improvement: "quarry".into(),
        },
        // The refusal names them as the player reads them.
        Refusal::WrongTerrain {
            what: "Quarry".into(),
            terrain: "Forest".into(),
        },
    );
    let tech = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .improvement("orchard")
        .and_then(|i| i.requires_tech.clone())
        .expect("orchard needs a tech");
    // The refusal names the technology as the research sheet does.
    let tech = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .tech(&tech)
        .map(|t| t.name.clone())
        .expect("the tech exists");
    s.refused(
        Action::BuildImprovement {
            at: (-1, 0),
            improvement: "orchard".into(),
        },
        Refusal::Locked(tech),
    );
}

#[test]
fn r9_1_resources_come_from_the_controlling_outpost_and_the_turn_passes() {
    let mut s = main_phase(Builder::new(6).outpost(
        "Home",
        (0, 0),
        "camp",
        st(&[(Res::Wood, 10), (Res::Stone, 10)]),
        &[],
    ));
    s.submit(Action::BuildImprovement {
        at: (1, 0),
        improvement: "lumber_camp".into(),
    })
    .expect("build");
    let cost = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .improvement("lumber_camp")
        .map(|i| i.cost)
        .unwrap_or_default();
    assert_eq!(
        s.outpost("Home").stock.get(Res::Wood),
        10 - cost.get(Res::Wood)
    );
    assert_eq!(
        s.w().resource::<Cycle>().turn,
        Camp::Chaos,
        "one action, then the other camp"
    );
    s.refused(
        Action::Pass,
        Refusal::NotYourTurn {
            expected: Camp::Chaos,
        },
    );
}

#[test]
fn r9_2_a_building_is_paid_and_the_size_caps_the_buildings() {
    let mut s = main_phase(Builder::new(4).outpost(
        "Home",
        (0, 0),
        "camp",
        st(&[(Res::Wood, 30), (Res::Stone, 30), (Res::Food, 10)]),
        &["granary", "granary"],
    ));
    let home = s.outpost("Home").id;
    s.submit(Action::BuildBuilding {
        outpost: home,
        building: "laboratory".into(),
    })
    .expect("third slot");
    let o = s.outpost("Home");
    assert_eq!(o.buildings.len(), 3);
    assert!(
        o.buildings[2].timer > 0,
        "under construction: time markers (R4)"
    );
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("chaos passes");
    s.refused(
        Action::BuildBuilding {
            outpost: home,
            building: "laboratory".into(),
        },
        Refusal::NoSlot { slots: 3 },
    );
}

/// Found by `chaos-outpost fuzz` (stress, seed 40): a recruit joined a starving army and stood
/// there with no hit points. Now the recruit is refused with the reason, until the army is fed.
#[test]
fn r5_4_a_recruit_is_refused_when_it_would_join_a_starving_army_and_die() {
    let mut s = main_phase(
        Builder::new(4)
            .outpost(
                "Home",
                (0, 0),
                "camp",
                st(&[(Res::Food, 9), (Res::Wood, 9)]),
                &[],
            )
            .army(Camp::Eladrins, (0, 0), &["warden"]),
    );
    let home = s.outpost("Home").id;
    let army = s.army_id((0, 0), Camp::Eladrins);
    // Rangers have 3 HP: three famine tokens would kill one at once (the warden has 4).
    s.army_mut(army, |a| a.famine = 3);
    s.refused(
        Action::Recruit {
            outpost: home,
            unit: "ranger".into(),
        },
        Refusal::RecruitWouldStarve { army, famine: 3 },
    );
    // Two tokens: the recruit joins with 1 HP left.
    s.army_mut(army, |a| a.famine = 2);
    s.submit(Action::Recruit {
        outpost: home,
        unit: "ranger".into(),
    })
    .expect("recruit");
    assert_eq!(
        s.army_at((0, 0), Camp::Eladrins).map(|a| a.units.len()),
        Some(2)
    );
    chaos_outpost::rules::invariants::check(s.w()).expect("invariants");
}

#[test]
fn r9_2_recruiting_adds_a_unit_at_the_outpost() {
    let mut s = main_phase(Builder::new(4).outpost(
        "Home",
        (0, 0),
        "camp",
        st(&[(Res::Food, 5), (Res::Wood, 5)]),
        &[],
    ));
    let home = s.outpost("Home").id;
    s.submit(Action::Recruit {
        outpost: home,
        unit: "ranger".into(),
    })
    .expect("recruit");
    assert_eq!(
        s.army_at((0, 0), Camp::Eladrins).map(|a| a.units.len()),
        Some(1)
    );
    s.submit_as(Camp::Chaos, Action::Pass).expect("pass");
    s.refused(
        Action::Recruit {
            outpost: home,
            unit: "husk".into(),
        },
        Refusal::NotRecruitable("Husk".into()),
    );
}

#[test]
fn r9_2_a_founder_founds_an_outpost_outside_control_zones() {
    let mut s = main_phase(Builder::new(6).army(Camp::Eladrins, (4, 0), &["settler", "warden"]));
    let id = s.army_id((4, 0), Camp::Eladrins);
    let settler = s.armies()[0].units[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::FoundOutpost {
        unit: settler,
        name: "Riverwatch".into(),
    })
    .expect("found");
    let o = s.outpost("Riverwatch");
    assert_eq!(o.hex, hex((4, 0)));
    assert_eq!(
        s.armies()[0].units.len(),
        1,
        "the settler became the outpost"
    );
}

#[test]
fn r9_3_only_an_explorer_explores_spending_all_its_points() {
    let mut s = main_phase(Builder::new(6).army(Camp::Eladrins, (3, 0), &["ranger", "warden"]));
    let id = s.army_id((3, 0), Camp::Eladrins);
    let (ranger, warden) = (s.armies()[0].units[0].id, s.armies()[0].units[1].id);
    s.submit(Action::Activate { army: id }).expect("activate");
    s.refused(
        Action::Explore { unit: warden },
        Refusal::MissingSkill("Explorer".into()),
    );
    s.submit(Action::Explore { unit: ranger }).expect("explore");
    let a = s.armies()[0].clone();
    assert_eq!(a.units[0].ap, 0, "all remaining points");
    assert_eq!(a.units[1].ap, 2);
    let card = s
        .tile((3, 0))
        .modifier
        .expect("the card sets the tile's modifier");
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, GameEvent::Explored { card: c, .. } if *c == card))
    );
}

#[test]
fn r9_3_an_exploration_modifier_adds_production() {
    let mut s = Builder::new(8)
        .with(|c| {
            c.exploration[0].modifier.yields = st(&[(Res::Crystal, 2)]);
        })
        .build();
    let card = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .set
        .exploration[0]
        .id
        .clone();
    s.tile_mut((6, 0), |t| t.modifier = Some(card));
    s.run("R3");
    assert_eq!(s.tile((6, 0)).lying.get(Res::Crystal), 2);
}

#[test]
fn r9_4_two_action_points_one_tile_each_more_on_difficult_terrain() {
    let mut s = main_phase(Builder::new(6).terrain((1, 0), "hills").army(
        Camp::Eladrins,
        (0, 0),
        &["warden"],
    ));
    let a = s.armies()[0].clone();
    assert_eq!(a.units[0].ap, 2);
    let reach: Vec<_> = reachable(s.w(), &a)
        .into_iter()
        .map(|(h, c, _)| ((h.x, h.y), c))
        .collect();
    assert!(reach.contains(&((1, -1), 1)));
    assert!(reach.contains(&((2, -1), 2)));
    assert!(reach.contains(&((1, 0), 2)), "hills cost 2");
    assert!(
        !reach.iter().any(|(h, _)| *h == (2, 0)),
        "beyond the hills: 3 points"
    );
    assert!(reach.iter().all(|(_, c)| *c <= 2));
    let id = a.id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.refused(Action::Move { to: (3, 0) }, Refusal::Unreachable((3, 0)));
    s.submit(Action::Move { to: (1, -1) }).expect("move");
    assert_eq!(s.armies()[0].units[0].ap, 1);
    s.submit(Action::Move { to: (2, -1) }).expect("move again");
    let a = s.armies()[0].clone();
    assert_eq!(a.hex, hex((2, -1)));
    assert_eq!(
        s.w().resource::<Cycle>().activation,
        None,
        "no point left: the activation ends"
    );
    assert_eq!(s.w().resource::<Cycle>().turn, Camp::Chaos);
}

#[test]
fn r9_4_a_pathfinder_crosses_difficult_terrain_at_one_point() {
    let s0 = Builder::new(6)
        .terrain((1, 0), "mountains")
        .army(Camp::Eladrins, (0, 0), &["ranger"]);
    let mut s = main_phase(s0);
    let a = s.armies()[0].clone();
    assert_eq!(path_to(s.w(), &a, hex((1, 0))).map(|p| p.1), Some(1));
}

#[test]
fn r9_4_enemies_block_the_way_but_can_be_reached() {
    let mut s = main_phase(
        Builder::new(6)
            .army(Camp::Eladrins, (0, 0), &["warden"])
            .army(Camp::Chaos, (1, 0), &["husk"]),
    );
    let a = s.army_at((0, 0), Camp::Eladrins).expect("army");
    let reach: Vec<_> = reachable(s.w(), &a)
        .into_iter()
        .map(|(h, c, _)| ((h.x, h.y), c))
        .collect();
    assert!(
        reach.contains(&((1, 0), 1)),
        "the enemy's tile can be entered"
    );
    for (h, _) in reach.iter().filter(|(h, _)| *h != (1, 0)) {
        let (path, _) = path_to(s.w(), &a, hex(*h)).expect("a path");
        assert!(
            !path.contains(&hex((1, 0))),
            "no path crosses the enemy: {h:?} via {path:?}"
        );
    }
}

#[test]
fn r9_4_an_army_is_activated_once_per_turn_and_unused_points_are_lost() {
    let mut s = main_phase(Builder::new(6).army(Camp::Eladrins, (0, 0), &["warden"]));
    let id = s.armies()[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.refused(Action::Pass, Refusal::ActivationOpen(id));
    s.submit(Action::Move { to: (1, 0) }).expect("move");
    s.submit(Action::EndActivation).expect("end");
    assert_eq!(s.armies()[0].units[0].ap, 0, "the unused point is lost");
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("chaos passes");
    s.refused(Action::Activate { army: id }, Refusal::AlreadyActivated(id));
    s.refused(Action::Move { to: (2, 0) }, Refusal::NoActivation);
}

#[test]
fn r9_4_hourglass_ends_activation_of_the_unit() {
    let mut s = main_phase(
        Builder::new(4)
            .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 5)]), &[])
            .army(Camp::Eladrins, (0, 0), &["healer", "warden"]),
    );
    let id = s.armies()[0].id;
    let (healer, warden) = (s.armies()[0].units[0].id, s.armies()[0].units[1].id);
    s.army_mut(id, |a| a.units[1].wounds = 1);
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::UseCard {
        unit: healer,
        action: "mend".into(),
    })
    .expect("mend");
    let a = s.armies()[0].clone();
    assert_eq!(a.units[0].ap, 0, "hourglass: all its points");
    assert_eq!(a.units[1].ap, 2, "the other unit keeps its own");
    assert_eq!(a.units[1].wounds, 0, "mend healed");
    assert_eq!(
        s.outpost("Home").stock.get(Res::Food),
        4,
        "its cost was paid"
    );
    s.refused(
        Action::UseCard {
            unit: healer,
            action: "mend".into(),
        },
        Refusal::NoActionPoints {
            unit: healer,
            need: 1,
            have: 0,
        },
    );
    s.refused(
        Action::UseCard {
            unit: warden,
            action: "mend".into(),
        },
        Refusal::UnknownContent("mend".into()),
    );
}

/// The main phase with two Eladrin armies on (1, 0): the receiver, then the joiner.
fn two_armies(receiver: &[&str], joiner: &[&str]) -> Scn {
    main_phase(Builder::new(4).army(Camp::Eladrins, (1, 0), receiver).army(
        Camp::Eladrins,
        (1, 0),
        joiner,
    ))
}

/// The first army (activated, the receiver) takes in the second; the army left.
fn merged(s: &mut Scn) -> Army {
    let armies = s.armies();
    let (a, b) = (armies[0].id, armies[1].id);
    s.submit(Action::Activate { army: a }).expect("activate");
    s.submit(Action::Merge { from: b }).expect("merge");
    let armies = s.armies();
    assert_eq!(armies.len(), 1, "one army left");
    armies[0].clone()
}

#[test]
fn r9_4_a_unit_joining_another_unit_costs_both_a_point() {
    // "A unit joining another unit costs 1 point to both."
    let mut s = two_armies(&["warden"], &["ranger"]);
    let m = merged(&mut s);
    let ap: Vec<u8> = m.units.iter().map(|u| u.ap).collect();
    assert_eq!(ap, vec![1, 1], "receiver and joiner each pay 1 of their 2");
    // The joiner's point is its own: it can act with it in this activation.
    let ranger = m.units[1].id;
    s.submit(Action::Explore { unit: ranger })
        .expect("the joiner still has a point");
}

#[test]
fn r9_4_an_army_merging_costs_the_receiving_army_a_point() {
    // "Merging two armies (or a unit joining an army) costs 1 point to the army that receives."
    // Reading (docs/rules.md): the joining units pay nothing and keep the points they have.
    let mut s = two_armies(&["warden"], &["ranger", "ranger"]);
    let m = merged(&mut s);
    let ap: Vec<u8> = m.units.iter().map(|u| u.ap).collect();
    assert_eq!(ap, vec![1, 2, 2]);
    // A unit joining an army: the same.
    let mut s = two_armies(&["warden", "warden"], &["ranger"]);
    let m = merged(&mut s);
    let ap: Vec<u8> = m.units.iter().map(|u| u.ap).collect();
    assert_eq!(ap, vec![1, 1, 2]);
}

#[test]
fn r9_4_joiners_bring_only_the_points_they_have_left() {
    // A joiner that already spent its activation has no points left to bring (unused points are
    // lost, R9.4), and an inactive unit (unpaid upkeep, R5.2) does nothing this phase anywhere.
    let mut s = main_phase(
        Builder::new(4)
            .army(Camp::Eladrins, (1, 0), &["warden"])
            .army(Camp::Eladrins, (1, 0), &["ranger"])
            .army(Camp::Eladrins, (1, 0), &["warden"]),
    );
    let armies = s.armies();
    let (a, b, c) = (armies[0].id, armies[1].id, armies[2].id);
    s.army_mut(c, |x| x.units[0].inactive = true);
    // b moves off and back: its activation is spent.
    s.submit(Action::Activate { army: b }).expect("activate b");
    s.submit(Action::Move { to: (2, 0) }).expect("move");
    s.submit(Action::Move { to: (1, 0) }).expect("move back");
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("chaos passes");
    s.submit(Action::Activate { army: a }).expect("activate a");
    s.submit(Action::Merge { from: b }).expect("merge b");
    let ap: Vec<u8> = s.armies()[0].units.iter().map(|u| u.ap).collect();
    assert_eq!(
        ap,
        vec![1, 0],
        "b's ranger had no point left to pay or keep"
    );
    s.submit(Action::Merge { from: c }).expect("merge c");
    let m = s.armies().into_iter().find(|x| x.id == a).expect("a");
    assert_eq!(m.units.len(), 3);
    assert_eq!(m.units[2].ap, 0, "an inactive joiner brings no point");
}

#[test]
fn r9_4_under_rules_version_1_a_joiner_kept_no_point() {
    // Replays and saves made before the fix play on as recorded (rules::version).
    let mut s = main_phase(
        Builder::new(4)
            .rules(1)
            .army(Camp::Eladrins, (1, 0), &["warden"])
            .army(Camp::Eladrins, (1, 0), &["ranger"]),
    );
    let m = merged(&mut s);
    let ap: Vec<u8> = m.units.iter().map(|u| u.ap).collect();
    assert_eq!(ap, vec![1, 0]);
}

#[test]
fn r5_4_newcomers_suffer_the_receiving_armys_famine() {
    // "An army with a famine token ... can take new ones, which suffer its famine."
    let mut s = two_armies(&["warden"], &["ranger"]);
    let armies = s.armies();
    s.army_mut(armies[0].id, |x| x.famine = 1);
    let ranger_hp = {
        let b = s.armies()[1].clone();
        hp_left(s.w(), &b, &b.units[0])
    };
    let m = merged(&mut s);
    assert_eq!(m.famine, 1);
    assert_eq!(
        hp_left(s.w(), &m, &m.units[1]),
        ranger_hp - 1,
        "the newcomer loses a hit point to the army's token"
    );
}

#[test]
fn r5_4_a_famished_army_joining_brings_its_famine_with_it() {
    // The text is silent on this direction. Reading (docs/rules.md): the larger count stays, so
    // a merge never feeds anyone (only food removes tokens, R5.5) and the receiver's units
    // suffer the joiners' famine.
    let mut s = two_armies(&["warden"], &["ranger", "ranger"]);
    let armies = s.armies();
    s.army_mut(armies[1].id, |x| x.famine = 2);
    let warden_hp = {
        let a = s.armies()[0].clone();
        hp_left(s.w(), &a, &a.units[0])
    };
    let m = merged(&mut s);
    assert_eq!(m.famine, 2, "the tokens are not shed by merging");
    assert_eq!(hp_left(s.w(), &m, &m.units[0]), warden_hp - 2);
    // Both famished: the larger count, not the sum.
    let mut s = two_armies(&["warden"], &["ranger"]);
    let armies = s.armies();
    s.army_mut(armies[0].id, |x| x.famine = 1);
    s.army_mut(armies[1].id, |x| x.famine = 2);
    assert_eq!(merged(&mut s).famine, 2);
}

#[test]
fn r9_4_famine_army_cannot_detach() {
    let mut s = main_phase(Builder::new(4).army(Camp::Eladrins, (1, 0), &["warden", "ranger"]));
    let id = s.armies()[0].id;
    let ranger = s.armies()[0].units[1].id;
    s.army_mut(id, |a| a.famine = 1);
    s.submit(Action::Activate { army: id }).expect("activate");
    s.refused(
        Action::Detach {
            units: vec![ranger],
        },
        Refusal::Famished(id),
    );
    s.army_mut(id, |a| a.famine = 0);
    s.submit(Action::Detach {
        units: vec![ranger],
    })
    .expect("detach");
    let armies = s.armies();
    assert_eq!(armies.len(), 2);
    assert!(
        armies[1].activated,
        "the new army was part of this activation"
    );
    assert_eq!(armies[1].units[0].ap, 1, "detaching cost a point");
}

#[test]
fn rituals_seal_a_rift_and_push_back_corruption() {
    let mut s = main_phase(
        Builder::new(6)
            .rift((3, 0))
            .lying(
                (3, 0),
                st(&[(Res::Crystal, 5), (Res::Stone, 5), (Res::Psara, 2)]),
            )
            .army(Camp::Eladrins, (3, 0), &["arcanist", "arcanist"]),
    );
    s.w().resource_mut::<Portal>().corruption = 2;
    let id = s.armies()[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::Ritual {
        ritual: "seal_rift".into(),
    })
    .expect("seal");
    assert_eq!(s.tile((3, 0)).rift, Rift::Closed);
    assert_eq!(
        s.w().resource::<Portal>().corruption,
        1,
        "closing a rift pushes back a marker (R8.3)"
    );
    assert_eq!(s.tile((3, 0)).lying.get(Res::Crystal), 3);
}

#[test]
fn rituals_need_their_ritualists_and_an_open_rift() {
    let mut s = main_phase(
        Builder::new(6)
            .rift((3, 0))
            .lying((2, 0), st(&[(Res::Crystal, 5), (Res::Stone, 5)]))
            .army(Camp::Eladrins, (2, 0), &["arcanist", "warden"]),
    );
    let id = s.armies()[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.refused(
        Action::Ritual {
            ritual: "seal_rift".into(),
        },
        Refusal::RitualistsNeeded { need: 2, have: 1 },
    );
    s.refused(
        Action::Ritual {
            ritual: "purify".into(),
        },
        Refusal::NotEnough {
            res: Res::Psara,
            need: 1,
            have: 0,
        },
    );
}

#[test]
fn chaos_summons_once_per_rift_each_turn() {
    let mut s = main_phase(Builder::new(6).rift((4, 0)));
    s.submit(Action::Pass).expect("eladrins pass");
    s.submit_as(Camp::Chaos, Action::Summon { rift: (4, 0) })
        .expect("summon");
    let unit = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .rules()
        .chaos_summon
        .clone();
    assert_eq!(
        s.army_at((4, 0), Camp::Chaos)
            .map(|a| a.units[0].kind.clone()),
        Some(unit)
    );
    s.submit(Action::Pass).expect("pass");
    s.refused_as(
        Camp::Chaos,
        Action::Summon { rift: (4, 0) },
        Refusal::AlreadySummoned((4, 0)),
    );
    s.refused_as(
        Camp::Chaos,
        Action::Summon { rift: (2, 0) },
        Refusal::NotOnRift((2, 0)),
    );
    s.refused_as(
        Camp::Chaos,
        Action::BuildImprovement {
            at: (1, 0),
            improvement: "farm".into(),
        },
        Refusal::EladrinsOnly,
    );
}

#[test]
fn an_outpost_falls_to_a_chaos_army_alone_on_it_and_the_portal_with_it() {
    let mut s = main_phase(
        Builder::new(6)
            .outpost("Home", (0, 0), "camp", Default::default(), &[])
            .outpost("Far", (4, 0), "camp", Default::default(), &[])
            .army(Camp::Chaos, (3, 0), &["husk"])
            .army(Camp::Chaos, (1, 0), &["husk"]),
    );
    s.submit(Action::Pass).expect("pass");
    let c = s.army_id((3, 0), Camp::Chaos);
    s.submit_as(Camp::Chaos, Action::Activate { army: c })
        .expect("activate");
    s.submit_as(Camp::Chaos, Action::Move { to: (4, 0) })
        .expect("move");
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, GameEvent::OutpostLost { name, .. } if name == "Far"))
    );
    assert_eq!(
        s.w().resource::<Outcome>().winner,
        None,
        "Far held no portal"
    );
    s.submit_as(Camp::Chaos, Action::EndActivation).ok();
    s.submit(Action::Pass).expect("pass");
    let c = s.army_id((1, 0), Camp::Chaos);
    s.submit_as(Camp::Chaos, Action::Activate { army: c })
        .expect("activate");
    s.submit_as(Camp::Chaos, Action::Move { to: (0, 0) })
        .expect("move");
    let o = s.w().resource::<Outcome>().clone();
    assert_eq!(o.winner, Some(Camp::Chaos));
    assert!(
        matches!(o.reason, Some(EndReason::PortalOverrun { .. })),
        "{o:?}"
    );
}

#[test]
fn research_is_not_a_main_phase_action() {
    let mut s = main_phase(Builder::new(4));
    s.w().resource_mut::<Research>().offer = vec!["x".into()];
    s.refused(
        Action::ChooseResearch { tech: "x".into() },
        Refusal::WrongStep {
            needs: vec!["R7".into()],
            now: "R9".into(),
        },
    );
}

#[test]
fn r9_4_embarking_costs_a_point_each_once_per_cycle_and_boats_sail_and_carry() {
    let mut s = main_phase(
        Builder::new(6)
            .terrain((1, 0), "lake")
            .terrain((2, 0), "lake")
            .outpost("Home", (0, 0), "camp", st(&[(Res::Stone, 6)]), &[])
            .army(Camp::Eladrins, (0, 0), &["boat", "warden"]),
    );
    let id = s.armies()[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.refused(Action::Move { to: (1, 0) }, Refusal::Unreachable((1, 0)));
    s.submit(Action::Load {
        res: Res::Stone,
        amount: 4,
    })
    .expect("load");
    assert_eq!(s.outpost("Home").stock.get(Res::Stone), 2);
    assert_eq!(
        s.armies()[0].units.iter().map(|u| u.ap).collect::<Vec<_>>(),
        vec![1, 2],
        "loading cost the boat 1"
    );
    s.submit(Action::EndActivation).expect("end");
    s.submit_as(Camp::Chaos, Action::Pass).expect("pass");
    s.run("R9");
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::Embark).expect("embark");
    let a = s.armies()[0].clone();
    assert!(a.afloat);
    assert_eq!(a.cargo.get(Res::Stone), 4);
    assert_eq!(
        a.units.iter().map(|u| u.ap).collect::<Vec<_>>(),
        vec![1, 1],
        "1 point each"
    );
    s.submit(Action::Move { to: (1, 0) }).expect("sail");
    assert_eq!(s.armies()[0].hex, hex((1, 0)));
    s.submit_as(Camp::Chaos, Action::Pass).expect("pass");
    // Next cycle the army lands (the same units may not land this cycle: once per cycle).
    s.run("R9");
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::Land { to: (2, -1) }).expect("land");
    let a = s.armies()[0].clone();
    assert!(!a.afloat);
    assert_eq!(a.hex, hex((2, -1)));
    s.submit(Action::Unload {
        res: Res::Stone,
        amount: 4,
    })
    .expect("unload");
    assert_eq!(s.tile((2, -1)).lying.get(Res::Stone), 4);
    let a = s.armies()[0].clone();
    s.refused(Action::Embark, Refusal::AlreadyEmbarked(a.units[0].id));
}

#[test]
fn r9_4_a_unit_embarks_or_lands_once_per_cycle() {
    let mut s = main_phase(Builder::new(6).terrain((1, 0), "lake").army(
        Camp::Eladrins,
        (0, 0),
        &["boat", "warden"],
    ));
    let id = s.armies()[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::Embark).expect("embark");
    let boat = s.armies()[0].units[0].id;
    s.refused(Action::Land { to: (0, 1) }, Refusal::AlreadyEmbarked(boat));
}

#[test]
fn r9_hot_seat_players_share_the_eladrin_turn_in_a_fixed_order() {
    let mut s = main_phase(Builder::new(4));
    chaos_outpost::rules::setup::set_players(s.w(), &["Ana".into(), "Bo".into(), "Cy".into()]);
    let who = |s: &mut Scn| chaos_outpost::rules::main_phase::current_player(s.w());
    assert_eq!(who(&mut s), "Ana");
    s.submit(Action::Pass).expect("Ana passes");
    s.submit_as(Camp::Chaos, Action::Summon { rift: (9, 9) })
        .ok();
    assert_eq!(who(&mut s), "Bo");
    let home = s.outpost("Home").id;
    let _ = home;
    s.submit_as(Camp::Chaos, Action::Pass).ok();
    assert_eq!(
        s.w().resource::<Cycle>().number,
        2,
        "Ana and Chaos passed in a row"
    );
    assert_eq!(who(&mut s), "Bo", "the order goes on in the next cycle");
}

#[test]
fn a_level_may_ask_for_more_than_the_portal() {
    let mut b = Builder::new(4).outpost("Home", (0, 0), "citadel", st(&[(Res::Crystal, 20)]), &[]);
    b.level.victory.research = vec!["deep_cellars".into()];
    let mut s = b.build();
    let arches = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .arches
        .iter()
        .map(|a| a.len() as u32)
        .collect::<Vec<_>>();
    let star = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .star;
    {
        let mut p = s.w().resource_mut::<Portal>();
        p.built = arches;
        p.power = star - 1;
    }
    s.at("R8");
    s.submit(Action::PowerPortal { crystals: 1 })
        .expect("power");
    assert!(s.w().resource::<Portal>().operational);
    assert_eq!(
        s.w().resource::<Outcome>().winner,
        None,
        "deep_cellars is still missing"
    );
    s.w()
        .resource_mut::<Research>()
        .done
        .push("deep_cellars".into());
    chaos_outpost::rules::outcome::check(s.w());
    assert_eq!(s.w().resource::<Outcome>().winner, Some(Camp::Eladrins));
}

#[test]
fn chaos_stops_summoning_while_its_host_crowds_the_rift() {
    let cap = base().rules().chaos_summon_cap as usize;
    let host = vec!["husk"; cap];
    let mut s = main_phase(
        Builder::new(6)
            .rift((4, 0))
            .army(Camp::Chaos, (4, 0), &host),
    );
    s.submit(Action::Pass).expect("pass");
    s.refused_as(
        Camp::Chaos,
        Action::Summon { rift: (4, 0) },
        Refusal::RiftCrowded((4, 0)),
    );
    // One unit marches out: room for one more.
    let id = s.army_id((4, 0), Camp::Chaos);
    s.army_mut(id, |a| {
        a.units.pop();
    });
    s.submit_as(Camp::Chaos, Action::Summon { rift: (4, 0) })
        .expect("room again");
}

#[test]
fn the_hard_difficulty_summons_more_and_lets_rifts_hold_more() {
    let db = base();
    let hard = db.difficulty("hard").cloned().expect("hard");
    let cap = db.rules().chaos_summon_cap as usize;
    let host = vec!["husk"; cap];
    let mut s = main_phase(Builder::new(6).difficulty("hard").rift((4, 0)).army(
        Camp::Chaos,
        (4, 0),
        &host,
    ));
    s.submit(Action::Pass).expect("pass");
    assert!(
        hard.chaos_summon_cap > 0 && hard.chaos_spawn_bonus > 0,
        "difficulty.ron: hard"
    );
    s.submit_as(Camp::Chaos, Action::Summon { rift: (4, 0) })
        .expect("a larger host on hard");
    let n = s
        .army_at((4, 0), Camp::Chaos)
        .map(|a| a.units.len())
        .unwrap_or(0);
    assert_eq!(
        n,
        cap + 1 + hard.chaos_spawn_bonus as usize,
        "one summoned, plus the spawn bonus"
    );
}

#[test]
fn units_detached_afloat_stay_afloat() {
    let mut s = main_phase(Builder::new(6).terrain((1, 0), "lake").army(
        Camp::Eladrins,
        (0, 0),
        &["boat", "boat", "warden", "ranger"],
    ));
    let id = s.armies()[0].id;
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::Embark).expect("embark");
    s.submit(Action::Move { to: (1, 0) }).expect("sail");
    let units: Vec<u32> = s.armies()[0].units.iter().map(|u| u.id).collect();
    s.run("R9");
    s.submit(Action::Activate { army: id }).expect("activate");
    s.submit(Action::Detach {
        units: vec![units[1], units[3]],
    })
    .expect("detach a boat and the ranger");
    let armies = s.armies();
    assert!(
        armies.iter().all(|a| a.afloat && a.hex == hex((1, 0))),
        "{armies:?}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, .. Default::default() })]
    /// R9.2: an influence zone (`Board::within`, moved from `ground::hex::disc`) is every hex
    /// within the radius, nearest first, then by `key`: the same list, in the same order, as
    /// sorting the whole range around that centre, for radii kept (up to 16) and made anew.
    #[test]
    fn r9_2_an_influence_zone_is_every_hex_within_its_radius_nearest_first(
        x in -80i32..80,
        y in -80i32..80,
        radius in 0u32..20,
    ) {
        let center = hexx::Hex::new(x, y);
        let mut want: Vec<hexx::Hex> = center.range(radius).collect();
        want.sort_by_key(|h| (h.unsigned_distance_to(center), chaos_outpost::ground::hex::key(*h)));
        let got: Vec<hexx::Hex> =
            chaos_outpost::ground::hex::disc(radius).iter().map(|o| center + *o).collect();
        proptest::prop_assert_eq!(got, want);
    }
}
