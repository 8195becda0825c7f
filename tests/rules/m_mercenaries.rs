//! The chapter *Wyvern Wardens* (`src/chapters/mercenaries/`, rules M1–M15 of
//! `docs/chapters/mercenaries.md`), one test per rule and the edge cases the rules raise, on
//! the shipped level `mercenaries` with its fields changed where a test needs it. Cards are set
//! by hand where a test needs a known card face up; refusals assert the rule and an unchanged
//! state hash.

use std::sync::Arc;

use chaos_outpost::chapters::mercenaries::data::{Assistant, Group, Merc, MercLevel, PlaceKind};
use chaos_outpost::chapters::mercenaries::phases::Told;
use chaos_outpost::chapters::mercenaries::state::{Mercs, Owner, Standing};
use chaos_outpost::chapters::mercenaries::{self as merc, MercAction, MercRefusal, Recall};
use chaos_outpost::content::{Camp, Level};
use chaos_outpost::rules::{Action, Cycle, GameWorld, Modifiers, setup};

use crate::common::{self, Scn};

/// The mercenaries level, its fields changed by `edit`, started with seed 7 and these seats
/// (no AI seat filling them up unless `edit` asks); nothing played yet.
fn game(players: &[&str], edit: impl FnOnce(&mut Level, &mut MercLevel)) -> Scn {
    let db = common::with_chapter_level("mercenaries", |l, m| {
        l.seats = Default::default();
        edit(l, m)
    });
    let mut app = setup::headless_app(Arc::new(db));
    let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    setup::start_game_for(app.world_mut(), "mercenaries", None, 7, &names)
        .expect("the level starts");
    Scn { app }
}

/// Two seats, the shipped level.
fn two() -> Scn {
    game(&["Ana", "Bo"], |_, _| {})
}

/// Puts the game at the start of `step` (the first participant's turn) and enters it.
fn enter(s: &mut Scn, step: &str) {
    s.enter_step(step);
}

fn st(s: &mut Scn) -> Mercs {
    s.w().resource::<Mercs>().clone()
}

fn set(s: &mut Scn, f: impl FnOnce(&mut Mercs)) {
    f(&mut s.w().resource_mut::<Mercs>());
}

fn act(a: MercAction) -> Action {
    chaos_outpost::rules::chapter::encode(&a)
}

fn send(place: &str, slot: usize, group: Group) -> Action {
    act(MercAction::Send {
        place: place.into(),
        slot,
        group,
    })
}

fn assist(who: Assistant) -> Action {
    act(MercAction::Assist {
        who,
        recall: None,
        raid: None,
    })
}

/// A seat's turn at the Warehouse (M10): the turn's action when a test has nothing else for
/// the seat to do (a seat that can act may not pass, M1).
fn warehouse() -> Action {
    act(MercAction::Special {
        place: "warehouse".into(),
    })
}

fn refusal(r: MercRefusal) -> chaos_outpost::rules::Refusal {
    chaos_outpost::rules::chapter::refusal(merc::ID, &r)
}

/// Who has the turn in the action phase.
fn turn(s: &mut Scn) -> (Camp, u8) {
    let w = s.w();
    (
        w.resource::<Cycle>().turn,
        chaos_outpost::rules::chapter::current_seat(w),
    )
}

/// Sets a seat's reserve.
fn reserve(s: &mut Scn, seat: u8, r: Group) {
    set(s, |m| m.seats.get_mut(&seat).expect("seat").reserve = r);
}

/// Puts these cards face up at a place, from the left.
fn cards(s: &mut Scn, place: &str, ids: &[&str]) {
    set(s, |m| {
        let b = m.boards.get_mut(place).expect("place");
        for (i, c) in b.cards.iter_mut().enumerate() {
            *c = ids.get(i).map(|x| x.to_string());
        }
    });
}

#[test]
fn m1_a_turn_is_one_action_and_passes_to_the_next_seat_then_the_poachers() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    assert_eq!(turn(&mut s), (Camp::Eladrins, 0));
    s.submit(send("tavern", 0, [1, 0, 0, 0]))
        .expect("Ana sends one");
    assert_eq!(turn(&mut s), (Camp::Eladrins, 1), "Bo's turn");
    s.submit(assist(Assistant::Healer))
        .expect("Bo takes the Healer");
    assert_eq!(turn(&mut s).0, Camp::Chaos, "then the poachers");
    // The poachers send recruits only (reading).
    s.refused_as(
        Camp::Chaos,
        send("camp", 0, [0, 1, 0, 0]),
        refusal(MercRefusal::PoachersRecruitsOnly),
    );
    s.submit_as(Camp::Chaos, send("camp", 1, [2, 0, 0, 0]))
        .expect("the poachers send two recruits");
    assert_eq!(turn(&mut s), (Camp::Eladrins, 0), "round again");
    let m = st(&mut s);
    assert_eq!(m.poachers.reserve[Merc::Recruit.ix()], 0);
    assert_eq!(
        m.boards["camp"].slots[1],
        Some(Standing {
            owner: Owner::Poachers,
            group: [2, 0, 0, 0]
        })
    );
}

#[test]
fn m2_a_group_goes_only_on_a_free_slot_of_an_ordinary_place() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    s.submit(send("tavern", 0, [1, 0, 0, 0])).expect("sent");
    s.refused_as(
        Camp::Eladrins,
        send("tavern", 0, [1, 0, 0, 0]),
        refusal(MercRefusal::SlotTaken(0)),
    );
    s.refused_as(
        Camp::Eladrins,
        send("barracks", 0, [1, 0, 0, 0]),
        refusal(MercRefusal::NotOrdinary("barracks".into())),
    );
    s.refused_as(
        Camp::Eladrins,
        send("tavern", 5, [1, 0, 0, 0]),
        refusal(MercRefusal::NoSlot(5)),
    );
}

#[test]
fn m4_a_group_of_3_on_a_slot_of_2_is_refused() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    s.refused_as(
        Camp::Eladrins,
        send("tavern", 1, [3, 0, 0, 0]),
        refusal(MercRefusal::WrongSize { slot: 2, group: 3 }),
    );
    s.refused_as(
        Camp::Eladrins,
        send("tavern", 1, [0, 0, 0, 0]),
        refusal(MercRefusal::EmptyGroup),
    );
    // A group the reserve can't field (M1).
    s.refused_as(
        Camp::Eladrins,
        send("tavern", 1, [0, 2, 0, 0]),
        refusal(MercRefusal::Lacks(Merc::Scout)),
    );
    s.submit(send("tavern", 1, [1, 1, 0, 0]))
        .expect("two on the 2");
}

#[test]
fn m5_m7_a_veteran_on_a_forbidden_place_is_refused_and_recruits_go_anywhere() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    // The Garrison takes guardians only among veterans.
    s.refused_as(
        Camp::Eladrins,
        send("garrison", 0, [0, 1, 0, 0]),
        refusal(MercRefusal::VeteranBarred {
            kind: Merc::Scout,
            place: "garrison".into(),
        }),
    );
    s.submit(send("garrison", 0, [1, 0, 0, 0]))
        .expect("a recruit goes anywhere (M6)");
}

#[test]
fn m6_recruits_are_discarded_after_their_reward_and_m7_veterans_come_back() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    reserve(&mut s, 0, [2, 1, 0, 0]);
    cards(&mut s, "tavern", &["t_guard", "t_crowd"]);
    s.submit(send("tavern", 1, [1, 1, 0, 0])).expect("sent");
    // No raid card face up: the raid after the rewards takes nothing.
    set(&mut s, |m| m.raids.clear());
    enter(&mut s, merc::REWARD_STEP);
    let r = st(&mut s).seats[&0].reserve;
    // 1 recruit left at home + the scout back + the card's recruit and guardian.
    assert_eq!(r, [1 + 1, 1, 0, 1]);
    assert!(
        st(&mut s).boards["tavern"]
            .slots
            .iter()
            .all(|x| x.is_none())
    );
}

#[test]
fn m8_a_mountain_group_frees_up_to_three_dragons_and_a_dragon_serves_on_the_map() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    reserve(&mut s, 0, [2, 0, 0, 0]);
    cards(&mut s, "mountains", &["m_aurum", "m_basalt", "m_cobalt"]);
    let riders = |s: &mut Scn| {
        let w = s.w();
        w.armies()
            .into_iter()
            .filter_map(|e| w.get::<chaos_outpost::rules::Army>(e))
            .flat_map(|a| a.units.iter())
            .filter(|u| u.kind == "wyvern_rider")
            .count()
    };
    let before = riders(&mut s);
    s.submit(send("mountains", 0, [2, 0, 0, 0])).expect("sent");
    enter(&mut s, merc::REWARD_STEP);
    let m = st(&mut s);
    assert_eq!(m.seats[&0].dragons, ["m_aurum", "m_basalt", "m_cobalt"]);
    assert_eq!(m.seats[&0].glory, 6 + 4 + 5);
    assert_eq!(riders(&mut s), before + 1, "Aurum becomes a wyvern rider");
}

#[test]
fn m9_an_equipment_token_exchanges_one_mercenary_as_a_free_action() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    reserve(&mut s, 0, [2, 0, 0, 0]);
    set(&mut s, |m| m.seats.get_mut(&0).expect("seat").equipment = 1);
    s.refused_as(
        Camp::Eladrins,
        act(MercAction::Swap {
            from: Merc::Recruit,
            to: Merc::Recruit,
        }),
        refusal(MercRefusal::SameKind),
    );
    s.submit(act(MercAction::Swap {
        from: Merc::Recruit,
        to: Merc::Guardian,
    }))
    .expect("swapped");
    assert_eq!(st(&mut s).seats[&0].reserve, [1, 0, 0, 1]);
    assert_eq!(turn(&mut s), (Camp::Eladrins, 0), "still Ana's turn");
    s.refused_as(
        Camp::Eladrins,
        act(MercAction::Swap {
            from: Merc::Recruit,
            to: Merc::Scout,
        }),
        refusal(MercRefusal::NoEquipment),
    );
}

#[test]
fn m10_the_warehouse_and_the_barracks_give_at_once() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    let before = st(&mut s).seats[&0].clone();
    s.submit(act(MercAction::Special {
        place: "warehouse".into(),
    }))
    .expect("warehouse");
    assert_eq!(st(&mut s).seats[&0].equipment, before.equipment + 2);
    s.submit(act(MercAction::Special {
        place: "barracks".into(),
    }))
    .expect("Bo at the barracks");
    let bo = st(&mut s).seats[&1].clone();
    assert_eq!(bo.reserve[0], before.reserve[0] + 4);
    assert_eq!(bo.flame, before.flame + 1);
    s.refused_as(
        Camp::Chaos,
        act(MercAction::Special {
            place: "tavern".into(),
        }),
        refusal(MercRefusal::EladrinsOnly),
    );
    // Once a round each (reading): Ana back at the Warehouse is refused; the reset frees it.
    s.submit_as(Camp::Chaos, Action::Pass).expect("poachers");
    s.refused_as(
        Camp::Eladrins,
        act(MercAction::Special {
            place: "warehouse".into(),
        }),
        refusal(MercRefusal::SpecialUsed("warehouse".into())),
    );
    enter(&mut s, merc::RESET_STEP);
    enter(&mut s, merc::ACTION_STEP);
    s.submit(act(MercAction::Special {
        place: "warehouse".into(),
    }))
    .expect("a new round");
}

#[test]
fn m15_a_deck_run_out_takes_its_discards_back() {
    let mut s = two();
    set(&mut s, |m| {
        m.decks.insert("tavern".into(), Vec::new());
        m.boards
            .get_mut("tavern")
            .expect("tavern")
            .cards
            .iter_mut()
            .for_each(|c| *c = None);
        m.discards
            .insert("tavern".into(), vec!["t_crowd".into(), "t_smith".into()]);
    });
    enter(&mut s, merc::RESET_STEP);
    let m = st(&mut s);
    let mut shown: Vec<String> = m.boards["tavern"].cards.iter().flatten().cloned().collect();
    shown.sort();
    assert_eq!(shown, ["t_crowd", "t_smith"]);
    assert!(m.discards.get("tavern").is_none_or(|d| d.is_empty()));
}

#[test]
fn m11_the_assistants_one_per_seat() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    set(&mut s, |m| m.seats.get_mut(&0).expect("seat").flame = 3);
    s.submit(assist(Assistant::Healer)).expect("Ana heals");
    assert_eq!(st(&mut s).seats[&0].flame, 1);
    let eq = st(&mut s).seats[&1].equipment;
    s.submit(assist(Assistant::Survivalist)).expect("Bo");
    assert_eq!(st(&mut s).seats[&1].equipment, eq + 1);
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("poachers pass");
    s.refused_as(
        Camp::Eladrins,
        assist(Assistant::Chief),
        refusal(MercRefusal::OneAssistant),
    );
    s.refused_as(
        Camp::Eladrins,
        assist(Assistant::Survivalist),
        refusal(MercRefusal::AssistantTaken(Assistant::Survivalist)),
    );
    // The Defender discards one of the two raid cards: the other strikes (M14).
    let raids = st(&mut s).raids;
    assert_eq!(raids.len(), 2);
    s.submit(warehouse()).expect("Ana at the Warehouse");
    s.submit(act(MercAction::Assist {
        who: Assistant::Defender,
        recall: None,
        raid: Some(1),
    }))
    .expect_err("Bo has an assistant already");
}

#[test]
fn m11_the_defender_keeps_the_older_raid_card_when_it_discards_the_newer() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    let raids = st(&mut s).raids;
    s.submit(act(MercAction::Assist {
        who: Assistant::Defender,
        recall: None,
        raid: Some(1),
    }))
    .expect("defended");
    assert_eq!(st(&mut s).raids, vec![raids[0]]);
}

#[test]
fn m11_the_chiefs_recall_and_first_seat_next_round() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    reserve(&mut s, 0, [3, 0, 0, 0]);
    s.submit(send("tavern", 0, [1, 0, 0, 0])).expect("Ana");
    s.submit(warehouse()).expect("Bo at the Warehouse");
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("poachers pass");
    // Bo's group is not Ana's to recall.
    let recall = |from: (&str, usize), to: (&str, usize), group: Group| {
        act(MercAction::Assist {
            who: Assistant::Chief,
            recall: Some(Recall {
                from: (from.0.into(), from.1),
                to: (to.0.into(), to.1),
                group,
            }),
            raid: None,
        })
    };
    s.refused_as(
        Camp::Eladrins,
        recall(("camp", 0), ("camp", 1), [2, 0, 0, 0]),
        refusal(MercRefusal::RecallNotYours),
    );
    // The legal actions offer every recall of Ana's own group and none of Bo's (M11), each
    // one accepted; the one she plays among them.
    let legal = chaos_outpost::rules::legal::legal_actions(s.w(), Camp::Eladrins);
    let recalls: Vec<Recall> = legal
        .iter()
        .filter_map(chaos_outpost::rules::chapter::decode::<MercAction>)
        .filter_map(|m| m.recall().cloned())
        .collect();
    assert!(
        recalls.iter().all(|r| r.from == ("tavern".into(), 0)),
        "only Ana's group at the Tavern: {recalls:?}"
    );
    assert!(recalls.contains(&Recall {
        from: ("tavern".into(), 0),
        to: ("camp".into(), 2),
        group: [3, 0, 0, 0],
    }));
    assert!(
        recalls.contains(&Recall {
            from: ("tavern".into(), 0),
            to: ("tavern".into(), 0),
            group: [1, 0, 0, 0],
        }),
        "back where it stood"
    );
    let h = s.hash();
    for r in &recalls {
        let a = act(MercAction::Assist {
            who: Assistant::Chief,
            recall: Some(r.clone()),
            raid: None,
        });
        chaos_outpost::rules::action::validate(s.w(), Camp::Eladrins, &a)
            .unwrap_or_else(|e| panic!("{r:?} offered but refused: {e:?}"));
    }
    assert_eq!(s.hash(), h);
    s.submit(recall(("tavern", 0), ("camp", 2), [3, 0, 0, 0]))
        .expect("Ana takes the Chief and re-forms her group of 1 into 3");
    let m = st(&mut s);
    assert!(m.boards["tavern"].slots[0].is_none());
    assert_eq!(
        m.boards["camp"].slots[2].as_ref().map(|x| x.group),
        Some([3, 0, 0, 0])
    );
    assert_eq!(m.seats[&0].reserve[0], 0);
    // At the reset, Bo... no: Ana, the Chief's holder, takes the first-seat marker.
    set(&mut s, |m| {
        m.assistants.clear();
        m.assistants.insert(Assistant::Chief, 1);
    });
    enter(&mut s, merc::RESET_STEP);
    assert_eq!(s.w().resource::<Cycle>().first_seat, 1);
    enter(&mut s, merc::ACTION_STEP);
    assert_eq!(turn(&mut s), (Camp::Eladrins, 1), "Bo plays first");
}

#[test]
fn m12_the_last_assistant_taken_by_the_first_seat_ends_the_phase_after_the_go_round() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    set(&mut s, |m| {
        m.assistants.insert(Assistant::Chief, 5);
        m.assistants.insert(Assistant::Defender, 6);
        m.assistants.insert(Assistant::Survivalist, 7);
    });
    s.submit(assist(Assistant::Healer))
        .expect("Ana takes the last");
    assert!(st(&mut s).closing);
    assert_eq!(s.w().step_id(), merc::ACTION_STEP, "Bo still plays");
    s.submit(send("tavern", 0, [1, 0, 0, 0])).expect("Bo");
    s.submit_as(Camp::Chaos, send("camp", 0, [1, 0, 0, 0]))
        .expect("the poachers");
    assert_ne!(
        s.w().step_id(),
        merc::ACTION_STEP,
        "the go-round is over: so is the phase"
    );
}

#[test]
fn m3_a_larger_group_claims_first_then_from_the_left() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    cards(&mut s, "camp", &["w_frost", "w_ash", "w_cinder"]);
    s.submit(send("camp", 0, [1, 0, 0, 0])).expect("Ana 1");
    s.submit(send("camp", 2, [3, 0, 0, 0])).expect("Bo 3");
    s.submit_as(Camp::Chaos, send("camp", 1, [2, 0, 0, 0]))
        .expect("poachers 2");
    enter(&mut s, merc::REWARD_STEP);
    let m = st(&mut s);
    assert_eq!(
        m.seats[&1].dragons,
        ["w_frost"],
        "Bo's 3 first: the first card"
    );
    assert_eq!(m.seats[&0].dragons, ["w_cinder"], "Ana's 1 last");
    assert_eq!(m.poachers.flame, 1, "the poachers' haul (reading)");
}

#[test]
fn m11_ties_in_the_mountains_go_to_the_survivalist_else_from_the_left() {
    for (survivalist, first) in [(None, 0u8), (Some(1u8), 1u8)] {
        let mut s = game(&["Ana", "Bo"], |_, l| {
            let m = l
                .places
                .iter_mut()
                .find(|p| p.kind == PlaceKind::Mountains)
                .expect("mountains");
            m.slots = vec![2, 2];
            m.take = 1;
        });
        enter(&mut s, merc::ACTION_STEP);
        cards(&mut s, "mountains", &["m_eclipse", "m_drake", "m_hail"]);
        s.submit(send("mountains", 0, [2, 0, 0, 0])).expect("Ana");
        s.submit(send("mountains", 1, [2, 0, 0, 0])).expect("Bo");
        if let Some(seat) = survivalist {
            set(&mut s, |m| {
                m.assistants.insert(Assistant::Survivalist, seat);
            });
        }
        enter(&mut s, merc::REWARD_STEP);
        let m = st(&mut s);
        assert_eq!(
            m.seats[&first].dragons,
            ["m_eclipse"],
            "Survivalist {survivalist:?}"
        );
    }
}

#[test]
fn m13_rewards_are_claimed_place_by_place_in_the_fixed_order() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    reserve(&mut s, 0, [5, 0, 0, 0]);
    s.submit(send("garrison", 0, [1, 0, 0, 0]))
        .expect("garrison");
    s.submit(warehouse()).expect("Bo");
    s.submit_as(Camp::Chaos, Action::Pass).expect("poachers");
    s.submit(send("guild", 0, [2, 0, 0, 0])).expect("guild");
    enter(&mut s, merc::REWARD_STEP);
    let places: Vec<String> = s
        .events()
        .iter()
        .filter_map(|e| match e {
            chaos_outpost::rules::GameEvent::Chapter { chapter, what } if chapter == merc::ID => {
                what.get::<chaos_outpost::chapters::mercenaries::phases::Told>()
            }
            _ => None,
        })
        .filter_map(|t| match t {
            chaos_outpost::chapters::mercenaries::phases::Told::Claimed { place, .. } => {
                Some(place)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        places,
        ["guild", "garrison"],
        "the Guild before the Garrison"
    );
}

#[test]
fn m14_a_raid_demanding_a_kind_the_seat_lacks_raises_its_flame() {
    let mut s = two();
    // The newer raid card strikes: "Everyone Pays" (a recruit, a scout, a ranger).
    let everyone = {
        let l: MercLevel = common::base().levels["mercenaries"].ext["mercenaries"]
            .into_rust()
            .expect("reads");
        l.raids
            .iter()
            .position(|r| r.name == "Everyone Pays")
            .expect("card")
    };
    set(&mut s, |m| m.raids = vec![0, everyone]);
    reserve(&mut s, 0, [2, 0, 1, 0]);
    reserve(&mut s, 1, [0, 0, 0, 0]);
    set(&mut s, |m| {
        m.seats.values_mut().for_each(|x| x.flame = 0);
        m.poachers.flame = 0;
    });
    let pending = s.w().resource::<Modifiers>().pending_attempts;
    enter(&mut s, merc::RAID_STEP);
    let m = st(&mut s);
    assert_eq!(
        m.seats[&0].reserve,
        [1, 0, 0, 0],
        "a recruit and the ranger gone"
    );
    assert_eq!(m.seats[&0].flame, 1, "no scout to give: Flame +1");
    assert_eq!(m.seats[&1].flame, 3, "nothing to give: Flame +3");
    // What each seat gave and the Flame it took are told, for the log and the board.
    let told: Vec<Told> = s
        .events()
        .iter()
        .filter_map(|e| match e {
            chaos_outpost::rules::GameEvent::Chapter { chapter, what } if chapter == merc::ID => {
                what.get::<Told>()
            }
            _ => None,
        })
        .filter(|t| matches!(t, Told::Flame { .. } | Told::Struck { .. }))
        .collect();
    assert_eq!(
        told,
        [
            Told::Struck {
                name: "Everyone Pays".into(),
                demands: [1, 1, 1, 0]
            },
            Told::Flame {
                seat: 0,
                up: 1,
                lost: [1, 0, 1, 0]
            },
            Told::Flame {
                seat: 1,
                up: 3,
                lost: [0, 0, 0, 0]
            },
        ]
    );
    // 4 Flame of all, one attempt per 10 (the level): none yet.
    assert_eq!(s.w().resource::<Modifiers>().pending_attempts, pending);
    set(&mut s, |m| m.seats.get_mut(&1).expect("seat").flame = 5);
    set(&mut s, |m| m.raids = vec![everyone]);
    enter(&mut s, merc::RAID_STEP);
    // Ana gives her recruit and lacks a scout and a ranger (3), Bo lacks all three (8): 11
    // Flame of all, one attempt.
    assert_eq!(s.w().resource::<Modifiers>().pending_attempts, pending + 1);
}

#[test]
fn m15_the_reset_in_its_seven_steps() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    let before = st(&mut s);
    let garrison = before.boards["garrison"].cards.clone();
    // The tavern's first card claimed; the others left lie there until the reset.
    set(&mut s, |m| {
        m.boards.get_mut("tavern").expect("tavern").cards[0] = None;
        m.assistants.insert(Assistant::Chief, 1);
        m.closing = true;
    });
    enter(&mut s, merc::RESET_STEP);
    let m = st(&mut s);
    // 1–2: the tavern's cards discarded, two new from its deck.
    let tavern = &m.boards["tavern"].cards;
    assert!(tavern.iter().all(|c| c.is_some()));
    assert!(
        tavern
            .iter()
            .flatten()
            .all(|c| !before.boards["tavern"].cards.contains(&Some(c.clone())))
    );
    // 3: the Garrison's cards stay.
    assert_eq!(m.boards["garrison"].cards, garrison);
    // 4–5: the Chief's holder first; the assistants back.
    assert_eq!(s.w().resource::<Cycle>().first_seat, 1);
    assert!(m.assistants.is_empty() && !m.closing);
    // 6: two new raid cards; 7: the round marker.
    assert_eq!(m.raids.len(), 2);
    assert!(m.raids.iter().all(|r| !before.raids.contains(r)));
    assert_eq!(m.round, before.round + 1);
}

#[test]
fn the_poachers_ai_sends_its_recruits() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    s.submit(warehouse()).expect("Ana");
    s.submit(warehouse()).expect("Bo");
    let (camp, choice) = chaos_outpost::ai::decide(s.w());
    assert_eq!(camp, Camp::Chaos);
    let m = chaos_outpost::rules::chapter::decode::<MercAction>(&choice.action);
    assert!(
        matches!(m, Some(MercAction::Send { .. })),
        "{:?} ({})",
        choice.action,
        choice.why
    );
}

/// The poachers weigh what they would really claim (M3): not the Mountains' dragons a larger
/// Eladrin group there takes first, but the Camp's.
#[test]
fn the_poachers_ai_goes_where_no_larger_group_takes_the_cards_first() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    reserve(&mut s, 0, [4, 0, 0, 0]);
    cards(&mut s, "mountains", &["m_eclipse", "m_aurum", "m_iris"]);
    cards(&mut s, "camp", &["w_ember", "w_cinder", "w_hollow"]);
    s.submit(send("mountains", 2, [4, 0, 0, 0]))
        .expect("Ana's 4");
    s.submit(warehouse()).expect("Bo");
    let (camp, choice) = chaos_outpost::ai::decide(s.w());
    assert_eq!(camp, Camp::Chaos);
    match chaos_outpost::rules::chapter::decode::<MercAction>(&choice.action) {
        Some(MercAction::Send { place, .. }) => assert_ne!(place, "mountains"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_whole_game_played_twice_is_the_same_game() {
    let play = || {
        let mut s = two();
        for _ in 0..4000 {
            if s.w()
                .resource::<chaos_outpost::rules::Outcome>()
                .winner
                .is_some()
                || s.w().resource::<Cycle>().number > 8
            {
                break;
            }
            let (camp, choice) = chaos_outpost::ai::decide(s.w());
            s.submit_as(camp, choice.action)
                .expect("the AI plays legal actions");
        }
        (s.hash(), st(&mut s).round)
    };
    let a = play();
    assert!(a.1 > 3, "rounds were played: {}", a.1);
    assert_eq!(a, play());
}

#[test]
fn a_broken_level_is_refused_naming_its_field() {
    let mut db = common::base();
    let mut level = db.levels["mercenaries"].clone();
    let mut ext: MercLevel = level.ext["mercenaries"].into_rust().expect("reads");
    ext.places[0].slots.clear();
    ext.raids.truncate(1);
    level.ext.insert(
        "mercenaries".into(),
        ron::value::RawValue::from_rust(&ext).expect("writes"),
    );
    db.levels.insert("mercenaries".into(), level);
    // The levels' chapter fields are read when content is indexed.
    db.reindex();
    let mut app = setup::headless_app(Arc::new(db));
    let e = setup::start_game(app.world_mut(), "mercenaries", None, 7).expect_err("refused");
    assert!(
        e.contains("ext.mercenaries") && e.contains("places[guild].slots"),
        "{e}"
    );
    assert!(e.contains("raids"), "{e}");
}

/// The campaign (K2, K3): the base campaign's chapter `wyvern_wardens` plays this level; it
/// admits riders and trackers only (`admit_kinds`), who muster at Windhold; played cold, its
/// fallback's ranger stands in.
#[test]
fn campaign_veterans_muster_at_windhold_and_only_those_admitted() {
    let db = common::base();
    let (c, state) = common::base_campaign_at(
        &db,
        "wyvern_wardens",
        Some("first_light"),
        &[("Aelar", "arcanist"), ("Ilyana", "ranger")],
    );
    let def = c.chapter("wyvern_wardens").expect("the chapter").clone();
    assert_eq!(def.level, "mercenaries");
    let muster = state.default_muster(&def);
    assert_eq!(muster, ["Ilyana"], "the arcanist is not admitted");
    let carry = state.carry_in(&def, &muster);
    let mut app = setup::headless_app(Arc::new(db.clone()));
    setup::start_chapter(
        app.world_mut(),
        "mercenaries",
        Some("normal"),
        3,
        &[],
        &carry,
    )
    .expect("the chapter starts");
    let w = app.world_mut();
    let at = w
        .armies()
        .into_iter()
        .filter_map(|e| w.get::<chaos_outpost::rules::Army>(e))
        .find(|a| a.units.iter().any(|u| u.name.as_deref() == Some("Ilyana")))
        .map(|a| (a.hex.x, a.hex.y));
    assert_eq!(at, Some((0, 0)), "at Windhold, the portal's outpost");
    assert!(
        w.resource::<Mercs>().seats.contains_key(&0),
        "the seat's sheet"
    );
    let (_, cold) = common::base_campaign_at(&db, "wyvern_wardens", None, &[]);
    let kinds: Vec<String> = cold
        .carry_in(&def, &[])
        .veterans
        .iter()
        .map(|v| v.kind.clone())
        .collect();
    assert_eq!(kinds, ["ranger"]);
}

/// The co-op reading on seats: played alone, the level's other seats are AI seats
/// (`Level::seats`), named from the level after the players, each with its sheet and its turn
/// in the rounds (M1); a level asking for more than 8 seats is refused at its file, line and
/// field.
#[test]
fn m1_played_alone_the_other_seats_are_ai_rivals() {
    let db = common::base();
    let mut app = setup::headless_app(Arc::new(db.clone()));
    setup::start_game(app.world_mut(), "mercenaries", None, 7).expect("starts");
    let w = app.world_mut();
    let players = w
        .resource::<chaos_outpost::rules::GameSetup>()
        .players
        .clone();
    assert_eq!(players, ["Eladrins", "Thorn (AI)", "Mirelle (AI)"]);
    assert!(players[1..].iter().all(|p| setup::is_ai_name(p)));
    assert!(!setup::is_ai_name(&players[0]));
    let sheets: Vec<u8> = w.resource::<Mercs>().seats.keys().copied().collect();
    assert_eq!(sheets, [0, 1, 2]);
    // Two players: one rival fills the third seat.
    let mut s = Scn { app };
    setup::start_game_for(
        s.w(),
        "mercenaries",
        None,
        7,
        &["Ana".to_string(), "Bo".to_string()],
    )
    .expect("starts");
    let players = s
        .w()
        .resource::<chaos_outpost::rules::GameSetup>()
        .players
        .clone();
    assert_eq!(players, ["Ana", "Bo", "Thorn (AI)"]);
    // The rival takes its turn in the round, after the players and before the poachers.
    enter(&mut s, merc::ACTION_STEP);
    let mut order = vec![turn(&mut s)];
    for _ in 0..3 {
        s.submit_as(Camp::Eladrins, warehouse())
            .or_else(|_| s.submit_as(Camp::Chaos, Action::Pass))
            .expect("a turn");
        order.push(turn(&mut s));
    }
    assert_eq!(
        order[..3],
        [
            (Camp::Eladrins, 0),
            (Camp::Eladrins, 1),
            (Camp::Eladrins, 2)
        ]
    );
    assert_eq!(order[3].0, Camp::Chaos);
    // A level asking for 9 seats is refused where it says so.
    let mut files = chaos_outpost::content::embedded_files();
    let lv = files
        .iter_mut()
        .find(|f| f.path.ends_with("levels/mercenaries.ron"))
        .expect("the level's file");
    lv.text = lv.text.replace("seats: (min: 3,", "seats: (min: 9,");
    let ps =
        chaos_outpost::content::ContentDb::from_files(files, &chaos_outpost::chapters::shipped())
            .expect_err("refused");
    let p = ps
        .iter()
        .find(|p| p.file.ends_with("mercenaries.ron"))
        .unwrap_or_else(|| panic!("no problem in the level: {ps:?}"));
    assert!(p.message.contains("at most 8"), "{p:?}");
    assert!(p.line > 1, "{p:?}");
}

/// The co-op reading on glory: each seat keeps its own glory (`final_glory`, heroes and
/// objectives counted), shown at the end by name (`chapter::glory`, `Left::glory`, AI seats
/// included), and a won chapter carries it into the campaign's score (`per_glory`) and each
/// seat's total.
#[test]
fn m13_each_seat_keeps_its_glory_into_the_campaign_score() {
    let db = common::base();
    let (c, mut state) = common::base_campaign_at(&db, "wyvern_wardens", Some("first_light"), &[]);
    let def = c.chapter("wyvern_wardens").expect("the chapter").clone();
    let carry = state.carry_in(&def, &[]);
    let mut app = setup::headless_app(Arc::new(db.clone()));
    let players = ["Ana".to_string(), "Bo".to_string()];
    setup::start_chapter(
        app.world_mut(),
        "mercenaries",
        Some("normal"),
        3,
        &players,
        &carry,
    )
    .expect("starts");
    let mut s = Scn { app };
    set(&mut s, |m| {
        m.seats.get_mut(&0).expect("Ana").glory = 7;
        m.seats.get_mut(&1).expect("Bo").glory = 3;
        m.seats.get_mut(&2).expect("the rival").glory = 5;
    });
    assert_eq!(chaos_outpost::rules::chapter::glory(s.w()), [7, 3, 5]);
    let mut left = chaos_outpost::rules::campaign::left_by(s.w());
    assert_eq!(
        left.glory,
        [
            ("Ana".to_string(), 7),
            ("Bo".to_string(), 3),
            ("Thorn (AI)".to_string(), 5)
        ]
    );
    // Lost, a chapter scores nothing; won, each point of glory counts `per_glory`.
    left.won = false;
    assert_eq!(
        chaos_outpost::rules::campaign::CampaignState::score_of(&c, &left),
        0
    );
    left.won = true;
    let without = {
        let mut l = left.clone();
        l.glory.clear();
        chaos_outpost::rules::campaign::CampaignState::score_of(&c, &l)
    };
    assert_eq!(c.score.per_glory, 2);
    assert_eq!(
        chaos_outpost::rules::campaign::CampaignState::score_of(&c, &left),
        without + 2 * 15
    );
    state.finish(&c, &db, &carry, &left);
    let rec = state.done.last().expect("recorded");
    assert_eq!(rec.glory.len(), 3);
    let mut all = state.glory_by_seat();
    all.sort();
    assert_eq!(
        all,
        [
            ("Ana".to_string(), 7),
            ("Bo".to_string(), 3),
            ("Thorn (AI)".to_string(), 5)
        ]
    );
    // A level without the chapter counts no glory.
    let mut other = setup::headless_app(Arc::new(db));
    setup::start_game(other.world_mut(), "first_light", None, 3).expect("starts");
    assert!(chaos_outpost::rules::chapter::glory(other.world_mut()).is_empty());
}

/// Takes every choice of M1 from seat 0 in the action phase but those `keep` names: its
/// reserve emptied, both special places used, an assistant already its own (`"assistant"`).
fn leave_seat_nothing_but(s: &mut Scn, keep: &[&str]) {
    set(s, |m| {
        if !keep.contains(&"group") {
            m.seats.get_mut(&0).expect("seat").reserve = [0, 0, 0, 0];
        }
        for place in ["warehouse", "barracks"] {
            if !keep.contains(&place) {
                m.used.entry(place.into()).or_default().push(0);
            }
        }
        if !keep.contains(&"assistant") {
            m.assistants.insert(Assistant::Chief, 0);
        }
    });
}

#[test]
fn m01_a_seat_that_can_act_may_not_pass() {
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    assert_eq!(turn(&mut s), (Camp::Eladrins, 0));
    // "On your turn you must take one of the three actions": with slots, special places and
    // assistants open, Ana's pass is refused (M1), and nothing changes.
    s.refused(Action::Pass, refusal(MercRefusal::MustAct));
    assert!(
        !chaos_outpost::rules::legal::legal_actions(s.w(), Camp::Eladrins).contains(&Action::Pass),
        "no pass among her legal actions"
    );
    // Any one of the three left keeps her from passing.
    for keep in ["group", "warehouse", "barracks", "assistant"] {
        let mut s = two();
        enter(&mut s, merc::ACTION_STEP);
        leave_seat_nothing_but(&mut s, &[keep]);
        s.refused(Action::Pass, refusal(MercRefusal::MustAct));
    }
    // With none left (the swap of M9 is no action of its own), she passes; the turn moves on.
    leave_seat_nothing_but(&mut s, &[]);
    set(&mut s, |m| m.seats.get_mut(&0).expect("seat").equipment = 3);
    s.submit(Action::Pass).expect("nothing left: Ana passes");
    assert_eq!(turn(&mut s), (Camp::Eladrins, 1), "Bo's turn");
    // The poachers may pass with recruits left (reading: M1 binds the seats).
    s.submit(send("tavern", 0, [1, 0, 0, 0]))
        .expect("Bo sends one");
    assert_eq!(turn(&mut s).0, Camp::Chaos);
    assert!(st(&mut s).poachers.reserve[Merc::Recruit.ix()] > 0);
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("the poachers pass");
}

#[test]
fn m01_a_special_place_a_level_lets_a_seat_reuse_does_not_forbid_the_pass() {
    // Without the once-a-round limit the Barracks is always open: counting it, a seat could
    // never pass and the round could never end.
    let mut s = game(&["Ana", "Bo"], |_, m| {
        for p in &mut m.places {
            p.once = false;
        }
    });
    enter(&mut s, merc::ACTION_STEP);
    leave_seat_nothing_but(&mut s, &["warehouse", "barracks"]);
    s.submit(act(MercAction::Special {
        place: "barracks".into(),
    }))
    .expect("the Barracks, again and again");
    assert_eq!(turn(&mut s), (Camp::Eladrins, 1));
}

#[test]
fn m01_a_game_under_rules_2_still_lets_a_seat_pass() {
    // A replay or save made before M1 was enforced plays on as it was recorded.
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    s.w()
        .resource_mut::<chaos_outpost::rules::GameSetup>()
        .rules = chaos_outpost::rules::version::Rules(2);
    s.submit(Action::Pass).expect("rules 2: Ana may pass");
    assert_eq!(turn(&mut s), (Camp::Eladrins, 1));
}

#[test]
fn m12_the_phase_ends_when_the_round_is_over_not_before_the_seats_run_out() {
    // Three seats and four assistants: the last one is never taken (one per seat), so the
    // phase ends only when no seat can act and everyone passes in a row; each seat plays on
    // until then, as the AIs play it.
    // Players who would rather pass: each tries to pass first, and plays its first legal action
    // when refused. Two passes in a row no longer end the phase with assistants untaken.
    let mut s = two();
    enter(&mut s, merc::ACTION_STEP);
    let mut last = st(&mut s);
    for _ in 0..500 {
        if s.w().step_id() != merc::ACTION_STEP {
            break;
        }
        last = st(&mut s);
        let by = s.w().resource::<Cycle>().turn;
        if s.submit_as(by, Action::Pass).is_err() {
            let legal = chaos_outpost::rules::legal::legal_actions(s.w(), by);
            let first = legal
                .first()
                .cloned()
                .expect("a seat refused its pass can act");
            s.submit_as(by, first).expect("legal");
        }
    }
    assert_ne!(s.w().step_id(), merc::ACTION_STEP, "the phase ends");
    assert_eq!(
        last.assistants.len(),
        2,
        "both seats took an assistant before the passes ended the phase"
    );
    // The AIs play it too.
    let mut s = game(&["Ana", "Bo", "Cy"], |_, _| {});
    enter(&mut s, merc::ACTION_STEP);
    let mut turns = 0;
    // The state before the action that closed the phase (the reward and reset run at once).
    let mut last = st(&mut s);
    while s.w().step_id() == merc::ACTION_STEP {
        turns += 1;
        last = st(&mut s);
        assert!(turns < 500, "the phase ends");
        let (by, choice) = chaos_outpost::ai::decide(s.w());
        if by == Camp::Eladrins && choice.action == Action::Pass {
            // A seat passes only with nothing left to do.
            assert!(
                !chaos_outpost::chapters::mercenaries::round::can_act(s.w(), by),
                "a seat passed with an action open"
            );
        }
        s.submit_as(by, choice.action)
            .expect("the AI plays legal actions");
    }
    let m = last;
    assert_eq!(m.assistants.len(), 3, "every seat took its assistant");
    for seat in 0..3u8 {
        assert!(
            m.used.get("warehouse").is_some_and(|v| v.contains(&seat))
                && m.used.get("barracks").is_some_and(|v| v.contains(&seat)),
            "seat {seat} used both special places before passing"
        );
    }
    // With four seats the phase ends by M12: once the last assistant is taken, the go-round.
    let mut s = game(&["Ana", "Bo", "Cy", "Dag"], |_, _| {});
    enter(&mut s, merc::ACTION_STEP);
    for seat in 0..4u8 {
        assert_eq!(turn(&mut s), (Camp::Eladrins, seat));
        let who = Assistant::ALL[seat as usize];
        let a = match who {
            Assistant::Defender => act(MercAction::Assist {
                who,
                recall: None,
                raid: Some(0),
            }),
            _ => assist(who),
        };
        s.submit(a).expect("an assistant each");
    }
    assert!(st(&mut s).closing);
    s.submit_as(Camp::Chaos, Action::Pass)
        .expect("the poachers");
    assert_ne!(
        s.w().step_id(),
        merc::ACTION_STEP,
        "the last assistant taken, the go-round over: the phase ends with groups unsent"
    );
}

/// The chapter's level fields are checked when content loads, like the core's: `check` names
/// the file, the line and column, and the field path, of a value that does not read and of a
/// place off the map, and the level never reaches a game.
#[test]
fn a_broken_field_of_the_level_is_reported_by_check_at_its_line_and_field() {
    let (text, ps) = common::check_edited_level("mercenaries", |t| {
        t.replace(
            "kind: Tavern, at: (1, 0), slots: [1, 2]",
            "kind: Tavern, at: (1, 0), slots: [1, \"two\"]",
        )
    });
    let p = ps
        .iter()
        .find(|p| p.field == "ext.mercenaries.places[1].slots[1]")
        .unwrap_or_else(|| panic!("no problem at the tavern's slot: {ps:?}"));
    assert_eq!(p.severity, chaos_outpost::content::Severity::Error);
    assert_eq!(
        p.line,
        common::line_of(&text, "slots: [1, \"two\"]"),
        "{p:?}"
    );
    let col = text
        .lines()
        .nth(p.line - 1)
        .expect("line")
        .find("\"two\"")
        .expect("col")
        + 1;
    assert_eq!(p.col, col, "{p:?}");
    let (text, ps) = common::check_edited_level("mercenaries", |t| {
        t.replace("kind: Guild, at: (0, 1)", "kind: Guild, at: (40, 1)")
    });
    let p = ps
        .iter()
        .find(|p| p.field == "ext.mercenaries.places[guild].at")
        .unwrap_or_else(|| panic!("no problem at the guild's hex: {ps:?}"));
    assert!(p.message.contains("(40, 1) is not on the map"), "{p:?}");
    assert_eq!(p.line, common::line_of(&text, "at: (40, 1)"), "{p:?}");
}
