//! R5 — Upkeep: buildings and non-food upkeep (inactive when unpaid), armies eat ceil(n/3) food
//! (psara for some), famine tokens and their effects, extra food against famine.

use chaos_outpost::content::{Camp, Effect, Res};
use chaos_outpost::rules::effects::apply;
use chaos_outpost::rules::main_phase::combat::{fighters, hit_distribution};
use chaos_outpost::rules::units::{attack_hit_on, attack_malus, hp_left};
use chaos_outpost::rules::{Action, Refusal, Research};

use crate::common::*;

#[test]
fn r5_2_an_unpaid_building_is_inactive_this_phase() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", Default::default(), &["laboratory"])
        .build();
    s.w().resource_mut::<Research>().current = Some("deep_cellars".into());
    s.run("R5");
    assert!(s.outpost("Home").buildings[0].inactive);
    s.run("R7");
    assert_eq!(
        s.w().resource::<Research>().points,
        0,
        "an inactive lab adds no point"
    );
}

#[test]
fn r5_1_upkeep_is_paid_from_the_influence_zone_too() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", Default::default(), &["laboratory"])
        .lying((2, 0), st(&[(Res::Food, 1)]))
        .build();
    s.run("R5");
    assert!(!s.outpost("Home").buildings[0].inactive);
    assert!(s.tile((2, 0)).lying.is_empty());
}

#[test]
fn r5_3_four_units_eat_two_food() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 5)]), &[])
        .army(
            Camp::Eladrins,
            (0, 0),
            &["ranger", "warden", "warden", "ranger"],
        )
        .build();
    s.run("R5");
    assert_eq!(s.outpost("Home").stock.get(Res::Food), 3);
    assert_eq!(s.armies()[0].famine, 0);
}

#[test]
fn r5_3_three_units_eat_one_food() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 5)]), &[])
        .army(Camp::Eladrins, (0, 0), &["ranger", "warden", "warden"])
        .build();
    s.run("R5");
    assert_eq!(s.outpost("Home").stock.get(Res::Food), 4);
}

#[test]
fn r5_3_psara_eaters_eat_psara_instead_of_food() {
    let mut s = Builder::new(4)
        .outpost(
            "Home",
            (0, 0),
            "camp",
            st(&[(Res::Food, 5), (Res::Psara, 5)]),
            &[],
        )
        .army(
            Camp::Eladrins,
            (0, 0),
            &["wyvern_rider", "wyvern_rider", "ranger"],
        )
        .build();
    s.run("R5");
    let o = s.outpost("Home");
    assert_eq!(
        o.stock.get(Res::Psara),
        4,
        "two psara eaters: one group of three"
    );
    assert_eq!(o.stock.get(Res::Food), 4, "one food eater: one group");
}

#[test]
fn r5_4_each_missing_food_point_is_a_famine_token() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 1)]), &[])
        .army(
            Camp::Eladrins,
            (0, 0),
            &["warden", "warden", "warden", "warden"],
        )
        .build();
    s.run("R5");
    assert_eq!(s.armies()[0].famine, 1, "needs 2, has 1: one token");
    s.run("R5");
    assert_eq!(s.armies()[0].famine, 3, "tokens accumulate: 2 more");
}

#[test]
fn r5_4_famine_costs_a_hit_point_and_one_off_each_attack_roll_per_token() {
    let mut s = Builder::new(4)
        .army(Camp::Eladrins, (0, 0), &["warden"])
        .build();
    let a = s.armies()[0].clone();
    let (hp0, hit0) = (
        hp_left(s.w(), &a, &a.units[0]),
        attack_hit_on(s.w(), &a, &a.units[0]),
    );
    assert_eq!(attack_malus(s.w(), &a), 0);
    s.run("R5");
    let a = s.armies()[0].clone();
    assert_eq!(a.famine, 1);
    assert_eq!(hp_left(s.w(), &a, &a.units[0]), hp0 - 1);
    // "−1 to its attack rolls": the roll loses 1, the number it must reach stays.
    assert_eq!(attack_hit_on(s.w(), &a, &a.units[0]), hit0);
    assert_eq!(attack_malus(s.w(), &a), 1, "−1 to attack rolls");
}

#[test]
fn r5_4_a_famished_unit_that_hits_on_6_misses_even_on_a_6() {
    // No "a 6 always hits" in the text: a 6 with −1 is a 5. Settlers, builders, healers and
    // boats hit on 6.
    let mut s = Builder::new(4)
        .army(Camp::Eladrins, (0, 0), &["settler"])
        .build();
    let a = s.armies()[0].clone();
    s.army_mut(a.id, |x| x.famine = 1);
    let a = s.armies()[0].clone();
    let f = fighters(s.w(), &a, 0)[0];
    assert_eq!((f.hit_on, f.malus), (6, 1));
    assert!(!f.hits(6), "6 − 1 = 5 < 6");
    assert_eq!(f.chance(), 0.0);
    assert_eq!(hit_distribution(&[f]), vec![1.0, 0.0]);
}

#[test]
fn r5_4_every_famine_token_counts_past_the_sixth_face() {
    // A warden hits on 4: 1 token needs a 5, 2 a 6, 3 never hit. Under the old clamp, 3 tokens
    // still hit on a 6.
    let mut s = Builder::new(4)
        .army(Camp::Eladrins, (0, 0), &["warden"])
        .build();
    let id = s.armies()[0].id;
    let mut chances = Vec::new();
    for tokens in 0..4 {
        s.army_mut(id, |x| x.famine = tokens);
        let a = s.armies()[0].clone();
        chances.push((fighters(s.w(), &a, 0)[0].chance() * 6.0).round() as u32);
    }
    assert_eq!(chances, vec![3, 2, 1, 0], "faces that hit, out of 6");
}

#[test]
fn r5_4_under_rules_version_1_famine_raised_a_clamped_hit_number() {
    // Replays and saves made before the fix play on as recorded (rules::version).
    let mut s = Builder::new(4)
        .rules(1)
        .army(Camp::Eladrins, (0, 0), &["settler"])
        .build();
    let id = s.armies()[0].id;
    s.army_mut(id, |x| x.famine = 2);
    let a = s.armies()[0].clone();
    let f = fighters(s.w(), &a, 0)[0];
    assert_eq!((f.hit_on, f.malus), (6, 0));
    assert!(f.hits(6));
}

#[test]
fn r5_4_starving_units_die_when_famine_takes_their_last_hit_point() {
    let mut s = Builder::new(4)
        .army(Camp::Eladrins, (0, 0), &["arcanist", "warden"])
        .build();
    // Arcanist 2 HP, warden 4 HP; each upkeep without food adds one token.
    s.run("R5");
    s.run("R5");
    let a = s.armies();
    assert_eq!(a.len(), 1);
    assert_eq!(
        a[0].units
            .iter()
            .map(|u| u.kind.as_str())
            .collect::<Vec<_>>(),
        vec!["warden"]
    );
}

#[test]
fn r5_4_healing_never_restores_famine_losses() {
    let mut s = Builder::new(4)
        .army(Camp::Eladrins, (0, 0), &["warden"])
        .build();
    let id = s.armies()[0].id;
    s.army_mut(id, |a| {
        a.famine = 1;
        a.units[0].wounds = 2;
    });
    apply(s.w(), &[Effect::Heal(10)], None);
    let a = s.armies()[0].clone();
    assert_eq!(a.units[0].wounds, 0);
    let full = hp_left(s.w(), &a, &a.units[0]);
    assert_eq!(a.famine, 1);
    s.army_mut(id, |a| a.famine = 0);
    let a = s.armies()[0].clone();
    assert_eq!(
        hp_left(s.w(), &a, &a.units[0]),
        full + 1,
        "only food (R5.5) restores it"
    );
}

#[test]
fn r5_5_extra_food_removes_famine_tokens() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 3)]), &[])
        .army(Camp::Eladrins, (0, 0), &["warden", "warden"])
        .build();
    let id = s.armies()[0].id;
    s.army_mut(id, |a| a.famine = 2);
    s.at("R5");
    s.submit(Action::Feed {
        army: id,
        tokens: 2,
    })
    .expect("feed");
    assert_eq!(s.armies()[0].famine, 0);
    assert_eq!(s.outpost("Home").stock.get(Res::Food), 1);
}

#[test]
fn r5_5_feeding_is_refused_without_enough_food_or_tokens_or_outside_r5() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 1)]), &[])
        .army(Camp::Eladrins, (0, 0), &["warden"])
        .army(Camp::Chaos, (3, 0), &["husk"])
        .build();
    let id = s.armies()[0].id;
    let chaos = s.armies()[1].id;
    s.army_mut(id, |a| a.famine = 2);
    s.at("R5");
    s.refused(
        Action::Feed {
            army: id,
            tokens: 2,
        },
        Refusal::NotEnough {
            res: Res::Food,
            need: 2,
            have: 1,
        },
    );
    s.refused(
        Action::Feed {
            army: id,
            tokens: 3,
        },
        Refusal::NotThatMuchFamine { tokens: 2 },
    );
    s.refused(
        Action::Feed {
            army: id,
            tokens: 0,
        },
        Refusal::NothingToDo,
    );
    s.refused(
        Action::Feed {
            army: 999,
            tokens: 1,
        },
        Refusal::UnknownArmy(999),
    );
    s.refused(
        Action::Feed {
            army: chaos,
            tokens: 1,
        },
        Refusal::NotYourArmy(chaos),
    );
    s.at("R7");
    s.refused(
        Action::Feed {
            army: id,
            tokens: 1,
        },
        Refusal::WrongStep {
            needs: vec!["R5".into()],
            now: "R7".into(),
        },
    );
}

#[test]
fn r5_2_a_unit_whose_non_food_upkeep_is_unpaid_is_inactive() {
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Crystal, 1)]), &[])
        .army(Camp::Eladrins, (0, 0), &["golem", "golem"])
        .build();
    s.run("R5");
    let a = s.armies()[0].clone();
    assert!(!a.units[0].inactive, "the first golem gets the crystal");
    assert!(a.units[1].inactive, "the second stands idle");
    assert_eq!(a.famine, 0, "an unpaid non-food upkeep is no famine");
}

#[test]
fn r5_1_an_army_away_from_outposts_eats_what_lies_on_its_tile() {
    let mut s = Builder::new(8)
        .army(Camp::Eladrins, (6, 0), &["warden"])
        .lying((6, 0), st(&[(Res::Food, 2)]))
        .build();
    s.run("R5");
    assert_eq!(s.tile((6, 0)).lying.get(Res::Food), 1);
    assert_eq!(s.armies()[0].famine, 0);
}

#[test]
fn r5_the_forecast_warns_of_famine_and_idle_works_and_the_upkeep_does_what_it_said() {
    use chaos_outpost::rules::forecast::{Warning, upkeep_forecast};
    let mut s = Builder::new(4)
        .outpost(
            "Home",
            (0, 0),
            "camp",
            st(&[(Res::Food, 1)]),
            &["laboratory"],
        )
        .army(
            Camp::Eladrins,
            (0, 0),
            &["warden", "warden", "warden", "warden"],
        )
        .build();
    let w = upkeep_forecast(s.w());
    // The lab pays first (R5.1 before R5.3) and takes the only food: the army's two groups
    // go hungry, two tokens.
    let famine: Vec<u32> = w
        .iter()
        .filter_map(|x| match x {
            Warning::Famine { tokens, .. } => Some(*tokens),
            _ => None,
        })
        .collect();
    assert_eq!(famine, [2]);
    assert!(
        !w.iter()
            .any(|x| matches!(x, Warning::BuildingInactive { .. }))
    );
    assert!(w.iter().all(|x| !x.to_string().is_empty()));
    s.run("R5");
    assert_eq!(s.armies()[0].famine, 2, "as forecast");
    assert!(!s.outpost("Home").buildings[0].inactive);
    // No food at all: the lab stands idle as well, and says so.
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", Default::default(), &["laboratory"])
        .build();
    let w = upkeep_forecast(s.w());
    assert!(
        w.iter().any(
            |x| matches!(x, Warning::BuildingInactive { building, .. } if building == "laboratory")
        ),
        "{w:?}"
    );
    s.run("R5");
    assert!(s.outpost("Home").buildings[0].inactive);
    // Fed enough, nothing to say about famine.
    let mut s = Builder::new(4)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Food, 5)]), &[])
        .army(Camp::Eladrins, (0, 0), &["warden"])
        .build();
    assert!(upkeep_forecast(s.w()).is_empty());
}
