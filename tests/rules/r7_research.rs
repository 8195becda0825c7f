//! R7 — Research and analysis.

use chaos_outpost::content::{Card, Effect, Res, Tech};
use chaos_outpost::rules::{Action, Decks, GameEvent, Modifiers, Refusal, Research};

use crate::common::*;

fn tech(
    id: &str,
    points: u32,
    resources: chaos_outpost::content::Stock,
    effects: Vec<Effect>,
    returns: bool,
) -> Tech {
    Tech {
        id: id.into(),
        name: id.into(),
        text: String::new(),
        points,
        resources,
        effects,
        returns,
    }
}

fn lab_scenario(labs: usize) -> Builder {
    let b: Vec<&str> = vec!["laboratory"; labs];
    Builder::new(5)
        .outpost(
            "Home",
            (0, 0),
            "citadel",
            st(&[(Res::Food, 10), (Res::Wood, 5)]),
            &b,
        )
        .with(|c| {
            c.research = vec![
                tech(
                    "cellars",
                    2,
                    Default::default(),
                    vec![Effect::Storage(10)],
                    false,
                ),
                tech(
                    "lenses",
                    3,
                    st(&[(Res::Wood, 2)]),
                    vec![Effect::LabPoints(1)],
                    false,
                ),
                tech(
                    "almanac",
                    1,
                    Default::default(),
                    vec![Effect::HealthierFood(1)],
                    true,
                ),
            ];
            c.artifacts = vec![Card {
                id: "old_coin".into(),
                name: "Old coin".into(),
                text: String::new(),
                copies: 1,
                effects: vec![Effect::Gain(st(&[(Res::Crystal, 2)]))],
            }];
        })
}

#[test]
fn r7_1_without_a_laboratory_research_is_skipped() {
    let mut s = lab_scenario(0).build();
    s.run("R7");
    let r = s.w().resource::<Research>().clone();
    assert!(r.offer.is_empty() && r.current.is_none());
    assert!(s.events().iter().any(|e| matches!(
        e,
        GameEvent::Note(chaos_outpost::rules::event::Notice::NoLaboratory)
    )));
}

#[test]
fn r7_4_two_cards_are_drawn_one_chosen_the_other_goes_back() {
    let mut s = lab_scenario(1).build();
    s.run("R7");
    let offer = s.w().resource::<Research>().offer.clone();
    assert_eq!(offer.len(), 2);
    assert_eq!(s.w().resource::<Decks>().research.draw.len(), 1);
    s.submit(Action::ChooseResearch {
        tech: offer[0].clone(),
    })
    .expect("choose");
    let r = s.w().resource::<Research>().clone();
    assert_eq!(r.current.as_deref(), Some(offer[0].as_str()));
    let deck = s.w().resource::<Decks>().research.draw.clone();
    assert_eq!(deck.len(), 2);
    assert!(
        deck.contains(&offer[1]),
        "the other card went back into the deck"
    );
}

#[test]
fn r7_4_a_technology_must_be_chosen_before_done_and_only_from_the_offer() {
    let mut s = lab_scenario(1).build();
    s.run("R7");
    s.refused(Action::Done, Refusal::ChooseFirst);
    s.refused(
        Action::ChooseResearch {
            tech: "nope".into(),
        },
        Refusal::NotOffered("nope".into()),
    );
}

#[test]
fn r7_2_each_lab_adds_a_point_and_extra_points_are_lost() {
    let mut s = lab_scenario(3).build();
    {
        let mut r = s.w().resource_mut::<Research>();
        r.current = Some("cellars".into());
        r.points = 0;
    }
    s.run("R7");
    let r = s.w().resource::<Research>().clone();
    assert!(r.current.is_none(), "3 points ≥ 2 needed: done");
    assert_eq!(r.done, vec!["cellars".to_string()]);
    assert_eq!(
        s.w().resource::<Modifiers>().storage,
        10,
        "the effect applies at once"
    );
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, GameEvent::ResearchDone { lost_points: 1, .. }))
    );
    assert!(
        !s.w()
            .resource::<Decks>()
            .research
            .draw
            .contains(&"cellars".to_string()),
        "done cards leave the deck"
    );
}

#[test]
fn r7_2_resources_must_be_placed_on_the_card_before_it_completes() {
    let mut s = lab_scenario(1).build();
    {
        let mut r = s.w().resource_mut::<Research>();
        r.current = Some("lenses".into());
        r.points = 3;
    }
    s.at("R7");
    let home = s.outpost("Home").id;
    s.refused(
        Action::FundResearch {
            outpost: home,
            res: Res::Stone,
            amount: 1,
        },
        Refusal::NotNeeded(Res::Stone),
    );
    s.submit(Action::FundResearch {
        outpost: home,
        res: Res::Wood,
        amount: 1,
    })
    .expect("fund");
    assert!(
        s.w().resource::<Research>().current.is_some(),
        "1 wood of 2: not yet"
    );
    s.submit(Action::FundResearch {
        outpost: home,
        res: Res::Wood,
        amount: 1,
    })
    .expect("fund");
    assert!(s.w().resource::<Research>().current.is_none());
    assert_eq!(s.w().resource::<Modifiers>().lab_points, 1);
    assert_eq!(
        s.outpost("Home").stock.get(Res::Wood),
        3,
        "resources placed are spent"
    );
}

#[test]
fn r7_2_a_card_that_says_so_goes_back_into_the_deck() {
    let mut s = lab_scenario(1).build();
    s.w().resource_mut::<Research>().current = Some("almanac".into());
    s.w()
        .resource_mut::<Decks>()
        .research
        .draw
        .retain(|c| c != "almanac");
    s.run("R7");
    assert_eq!(
        s.w().resource::<Research>().done,
        vec!["almanac".to_string()]
    );
    // Back in the deck (and maybe already drawn into the next offer).
    let deck = s.w().resource::<Decks>().research.draw.clone();
    let offer = s.w().resource::<Research>().offer.clone();
    assert!(deck.contains(&"almanac".to_string()) || offer.contains(&"almanac".to_string()));
}

#[test]
fn r7_3_an_artifact_analysis_succeeds_on_7_or_more() {
    let mut s = lab_scenario(2).artifact((1, 0)).build();
    s.w().resource_mut::<Research>().current = Some("lenses".into());
    s.at("R7");
    let home = s.outpost("Home").id;
    s.submit(Action::AssignLab {
        outpost: home,
        slot: 0,
        artifact: Some((1, 0)),
    })
    .expect("assign");
    // A failed roll (3 + 3): the token stays, the analysing lab adds no point.
    s.dice(&[3, 3]);
    s.run("R7");
    assert!(s.tile((1, 0)).artifact);
    assert_eq!(
        s.w().resource::<Research>().points,
        1,
        "only the other lab researched"
    );
    // Success (3 + 4 = 7).
    s.dice(&[3, 4]);
    s.run("R7");
    assert!(!s.tile((1, 0)).artifact, "the token is removed");
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e, GameEvent::ArtifactFound { card, .. } if card == "old_coin"))
    );
    assert_eq!(
        s.outpost("Home").stock.get(Res::Crystal),
        2,
        "the artifact card applied"
    );
    assert!(
        s.w().resource::<Research>().analysing.is_empty(),
        "the lab goes back to research"
    );
}

#[test]
fn r7_3_a_lab_can_only_analyse_an_artifact_in_its_zone() {
    let mut s = lab_scenario(1).artifact((4, 0)).artifact((1, 0)).build();
    s.at("R7");
    let home = s.outpost("Home").id;
    let far = s.outpost("Home").hex;
    let _ = far;
    s.refused(
        Action::AssignLab {
            outpost: home,
            slot: 0,
            artifact: Some((0, 1)),
        },
        Refusal::NoArtifact((0, 1)),
    );
    s.refused(
        Action::AssignLab {
            outpost: home,
            slot: 5,
            artifact: Some((1, 0)),
        },
        Refusal::NotALab,
    );
}

// One meaning for "unlocked" (R7.2, R9.1, R9.2): `Unlock(id)` opens the building or improvement
// `id`, whatever plays the effect. The Orchard needs Grafting (`requires_tech`); every source below
// opens it without Grafting being researched.

/// Whether the Orchard may be built on (1, 0), in Home's zone, at the main phase: the refusal.
fn orchard_at_main_phase(s: &mut Scn) -> Result<(), Refusal> {
    s.run("R9");
    chaos_outpost::rules::action::validate(
        s.w(),
        chaos_outpost::content::Camp::Eladrins,
        &Action::BuildImprovement {
            at: (1, 0),
            improvement: "orchard".into(),
        },
    )
}

fn orchard_home() -> Builder {
    Builder::new(5).outpost(
        "Home",
        (0, 0),
        "citadel",
        st(&[(Res::Food, 10), (Res::Wood, 10), (Res::Crystal, 2)]),
        &["laboratory"],
    )
}

/// Opens the main phase and activates the Eladrin army on `at`; its first unit's id.
fn activate_at_main_phase(s: &mut Scn, at: (i32, i32)) -> u32 {
    s.run("R9");
    let army = s.army_id(at, chaos_outpost::content::Camp::Eladrins);
    let unit = s
        .armies()
        .iter()
        .find(|a| a.id == army)
        .expect("army")
        .units[0]
        .id;
    s.submit(Action::Activate { army }).expect("activate");
    unit
}

fn unlock_orchard() -> Vec<Effect> {
    vec![Effect::Unlock("orchard".into())]
}

#[test]
fn r7_2_the_orchard_is_locked_until_something_unlocks_it() {
    let mut s = orchard_home().build();
    assert_eq!(
        orchard_at_main_phase(&mut s),
        Err(Refusal::Locked("Grafting".into()))
    );
    // Researching the technology it names opens it (R7.2).
    s.w()
        .resource_mut::<Research>()
        .done
        .push("grafting".into());
    assert_eq!(orchard_at_main_phase(&mut s), Ok(()));
}

#[test]
fn r7_2_unlock_from_an_event_card_opens_the_improvement() {
    let mut s = orchard_home()
        .with(|c| {
            c.events = vec![Card {
                id: "seedlings".into(),
                name: "Seedlings".into(),
                text: String::new(),
                copies: 1,
                effects: unlock_orchard(),
            }];
        })
        .build();
    s.run("R2");
    assert_eq!(orchard_at_main_phase(&mut s), Ok(()), "R2 event");
    assert!(
        !s.w()
            .resource::<Research>()
            .done
            .contains(&"grafting".to_string()),
        "without the research"
    );
}

#[test]
fn r7_3_unlock_from_an_artifact_card_opens_the_improvement() {
    let mut s = orchard_home()
        .artifact((1, 1))
        .with(|c| {
            c.artifacts = vec![Card {
                id: "graft_knife".into(),
                name: "Graft Knife".into(),
                text: String::new(),
                copies: 1,
                effects: unlock_orchard(),
            }];
        })
        .build();
    s.at("R7");
    let home = s.outpost("Home").id;
    s.submit(Action::AssignLab {
        outpost: home,
        slot: 0,
        artifact: Some((1, 1)),
    })
    .expect("assign");
    s.dice(&[3, 4]);
    s.run("R7");
    assert!(!s.tile((1, 1)).artifact, "the analysis succeeded");
    assert_eq!(orchard_at_main_phase(&mut s), Ok(()), "R7.3 artifact");
}

#[test]
fn r9_3_unlock_from_an_exploration_card_opens_the_improvement() {
    let mut s = orchard_home()
        .army(chaos_outpost::content::Camp::Eladrins, (2, 0), &["ranger"])
        .with(|c| {
            c.exploration.truncate(1);
            c.exploration[0].copies = 1;
            c.exploration[0].effects = unlock_orchard();
        })
        .build();
    let ranger = activate_at_main_phase(&mut s, (2, 0));
    s.submit(Action::Explore { unit: ranger }).expect("explore");
    assert_eq!(orchard_at_main_phase(&mut s), Ok(()), "R9.3 exploration");
}

#[test]
fn r9_4_unlock_from_a_unit_card_action_opens_the_improvement() {
    let mut s = orchard_home()
        .army(chaos_outpost::content::Camp::Eladrins, (2, 0), &["warden"])
        .with(|c| {
            let warden = c
                .units
                .iter_mut()
                .find(|u| u.id == "warden")
                .expect("warden");
            warden.actions.push(chaos_outpost::content::CardAction {
                id: "graft".into(),
                name: "Graft".into(),
                text: String::new(),
                ap: 1,
                hourglass: false,
                cost: Default::default(),
                effects: unlock_orchard(),
            });
        })
        .build();
    let warden = activate_at_main_phase(&mut s, (2, 0));
    s.submit(Action::UseCard {
        unit: warden,
        action: "graft".into(),
    })
    .expect("card action");
    assert!(s.w().resource::<Modifiers>().unlocked.contains("orchard"));
    assert_eq!(orchard_at_main_phase(&mut s), Ok(()), "R9.4 card action");
}
