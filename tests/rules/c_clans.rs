//! The chapter *Clans of the Rift* (`src/chapters/clans/`, rules C1–C17 of
//! `docs/chapters/clans.md`), one test per rule and the edge cases the rules raise, on the shipped
//! level `clans` with its fields changed where a test needs it. Hands, Rage and figures are set by
//! hand where a test needs them; refusals assert the rule and an unchanged state hash.

use std::sync::Arc;

use chaos_outpost::chapters::clans::battle::Told;
use chaos_outpost::chapters::clans::data::{ClanLevel, Fig, Slot, Track};
use chaos_outpost::chapters::clans::state::{Clans, HIDDEN, Owner, Placed, Spot, Stage};
use chaos_outpost::chapters::clans::{self as clans, ClanAction, ClanRefusal};
use chaos_outpost::content::{Camp, Level};
use chaos_outpost::rules::chapter::{self, ChapterState, Viewer};
use chaos_outpost::rules::tracks::{self, Holder};
use chaos_outpost::rules::{Action, Cycle, Modifiers, setup};

use crate::common::{self, Scn};

const ANA: Owner = Owner::Seat(0);
const BO: Owner = Owner::Seat(1);
const CHAOS: Owner = Owner::Chaos;

/// The clans level, its fields changed by `edit`, started with seed 7 and two seats (no AI
/// seat filling them up); the action phase entered, every hand empty, nothing on the board.
fn game(edit: impl FnOnce(&mut Level, &mut ClanLevel)) -> Scn {
    let db = common::with_chapter_level("clans", |l, c| {
        l.seats = Default::default();
        edit(l, c)
    });
    let mut app = setup::headless_app(Arc::new(db));
    let names = ["Ana".to_string(), "Bo".to_string()];
    setup::start_game_for(app.world_mut(), "clans", None, 7, &names).expect("the level starts");
    let mut s = Scn { app };
    s.enter_step(clans::ACTION_STEP);
    set(&mut s, |c| {
        for sh in c.sheets.values_mut() {
            sh.hand.clear();
        }
    });
    s
}

fn two() -> Scn {
    game(|_, _| {})
}

fn st(s: &mut Scn) -> Clans {
    s.w().resource::<Clans>().clone()
}

fn set(s: &mut Scn, f: impl FnOnce(&mut Clans)) {
    f(&mut s.w().resource_mut::<Clans>());
}

fn act(a: ClanAction) -> Action {
    chapter::encode(&a)
}

fn refusal(r: ClanRefusal) -> chaos_outpost::rules::Refusal {
    chapter::refusal(clans::ID, &r)
}

fn holder(o: Owner) -> Holder {
    match o {
        Owner::Seat(s) => Holder::Seat(s),
        Owner::Chaos => Holder::Camp(Camp::Chaos),
    }
}

/// Sets a clan's Rage.
fn rage(s: &mut Scn, o: Owner, n: i32) {
    let now = tracks::get(s.w(), clans::RAGE, holder(o));
    tracks::add(s.w(), clans::RAGE, holder(o), n - now);
}

fn rage_of(s: &mut Scn, o: Owner) -> i32 {
    tracks::get(s.w(), clans::RAGE, holder(o))
}

fn glory_of(s: &mut Scn, o: Owner) -> i32 {
    tracks::get(s.w(), clans::GLORY, holder(o))
}

/// Gives a clan these cards.
fn hand(s: &mut Scn, o: Owner, cards: &[&str]) {
    set(s, |c| {
        c.sheets.get_mut(&o).expect("clan").hand = cards.iter().map(|x| x.to_string()).collect();
    });
}

/// Puts a figure of the clan's reserve (or, for a monster, from the box) on a spot.
fn put(s: &mut Scn, o: Owner, fig: Fig, at: Spot) {
    set(s, |c| {
        let sh = c.sheets.get_mut(&o).expect("clan");
        if let Some(i) = sh.reserve.iter().position(|f| *f == fig) {
            sh.reserve.remove(i);
        }
        c.board.push(Placed { owner: o, fig, at });
        c.board.sort();
    });
}

fn prov(p: &str) -> Spot {
    Spot::Province(p.into())
}

/// Gives the turn to a clan (as the rounds would).
fn give(s: &mut Scn, o: Owner) {
    let mut c = s.w().resource_mut::<Cycle>();
    match o {
        Owner::Seat(x) => {
            c.turn = Camp::Eladrins;
            c.seat = Some(x);
        }
        Owner::Chaos => {
            c.turn = Camp::Chaos;
            c.seat = None;
        }
    }
}

/// Who has the turn.
fn turn(s: &mut Scn) -> Owner {
    let w = s.w();
    match w.resource::<Cycle>().turn {
        Camp::Chaos => CHAOS,
        Camp::Eladrins => Owner::Seat(chapter::current_seat(w)),
    }
}

fn upgrade(card: &str, slot: usize, invade: Option<Spot>) -> Action {
    act(ClanAction::Upgrade {
        card: card.into(),
        slot,
        invade,
    })
}

fn pillage(p: &str) -> Action {
    act(ClanAction::Pillage { province: p.into() })
}

fn join(fig: Fig, from: &str) -> Action {
    act(ClanAction::Join {
        fig,
        from: from.into(),
    })
}

fn play(card: Option<&str>) -> Action {
    act(ClanAction::Play {
        card: card.map(str::to_string),
    })
}

#[test]
fn c1_a_sheet_has_eight_slots_warriors_leader_ship_two_monsters_three_clan() {
    let mut s = two();
    let c = st(&mut s);
    assert_eq!(c.sheets.len(), 3, "two seats and Chaos' clan");
    for sh in c.sheets.values() {
        assert_eq!(sh.slots, vec![None; 8]);
    }
    let count = |k: Slot| clans::data::SHEET.iter().filter(|x| **x == k).count();
    assert_eq!(
        [
            count(Slot::Warriors),
            count(Slot::Leader),
            count(Slot::Ship),
            count(Slot::Monsters),
            count(Slot::Clan)
        ],
        [1, 1, 1, 2, 3]
    );
    rage(&mut s, ANA, 5);
    hand(&mut s, ANA, &["oath_of_rage"]);
    s.refused_as(
        Camp::Eladrins,
        upgrade("oath_of_rage", 8, None),
        refusal(ClanRefusal::NoSlot(8)),
    );
}

#[test]
fn c2_an_upgrade_costs_rage_equal_to_its_str_and_goes_on_a_slot_of_its_kind() {
    let mut s = two();
    hand(&mut s, ANA, &["rune_axes", "spear_wall"]);
    rage(&mut s, ANA, 1);
    s.refused_as(
        Camp::Eladrins,
        upgrade("rune_axes", 0, None),
        refusal(ClanRefusal::TooLittleRage { needs: 2, has: 1 }),
    );
    rage(&mut s, ANA, 3);
    s.refused_as(
        Camp::Eladrins,
        upgrade("rune_axes", 1, None),
        refusal(ClanRefusal::WrongSlot {
            slot: Slot::Leader,
            needs: Slot::Warriors,
        }),
    );
    s.refused_as(
        Camp::Eladrins,
        upgrade("spear_wall", 0, None),
        refusal(ClanRefusal::NotAnUpgrade("spear_wall".into())),
    );
    s.refused_as(
        Camp::Eladrins,
        upgrade("dragon_prow", 2, None),
        refusal(ClanRefusal::NotInHand("dragon_prow".into())),
    );
    s.submit(upgrade("rune_axes", 0, None)).expect("upgraded");
    let c = st(&mut s);
    assert_eq!(c.sheets[&ANA].slots[0].as_deref(), Some("rune_axes"));
    assert_eq!(c.sheets[&ANA].hand, ["spear_wall"]);
    assert_eq!(rage_of(&mut s, ANA), 1, "3 Rage less its STR 2");
    assert_eq!(turn(&mut s), BO, "an upgrade is the turn's action");
}

#[test]
fn c3_a_card_on_an_occupied_slot_discards_the_one_there() {
    let mut s = two();
    hand(&mut s, ANA, &["oath_of_rage", "skalds_saga"]);
    rage(&mut s, ANA, 5);
    s.submit(upgrade("oath_of_rage", 5, None)).expect("first");
    give(&mut s, ANA);
    s.submit(upgrade("skalds_saga", 5, None)).expect("on top");
    let c = st(&mut s);
    assert_eq!(c.sheets[&ANA].slots[5].as_deref(), Some("skalds_saga"));
    assert!(c.discard.contains(&"oath_of_rage".to_string()));
    assert_eq!(rage_of(&mut s, ANA), 2, "5 − 2 − 1");
}

#[test]
fn c4_upgrades_are_permanent_and_the_same_benefit_in_two_slots_counts_twice() {
    let mut s = two();
    set(&mut s, |c| {
        let sh = c.sheets.get_mut(&ANA).expect("Ana");
        sh.slots[5] = Some("oath_of_rage".into());
        sh.slots[6] = Some("oath_of_rage".into());
        sh.slots[0] = Some("rune_axes".into());
    });
    let lvl = clans::data::level(s.w());
    let c = st(&mut s);
    let sh = &c.sheets[&ANA];
    assert_eq!(
        clans::phases::rage_due(&lvl, ANA, sh),
        5 + 2,
        "Rage level 0 (5) and +1 twice"
    );
    assert_eq!(clans::reckon::strength(&lvl, sh, &Fig::Warrior), 2);
    assert_eq!(
        clans::reckon::strength(&lvl, &c.sheets[&BO], &Fig::Warrior),
        1
    );
    // At the next cycle's start the Rage is refilled with both.
    s.run(clans::DRAW_STEP);
    assert_eq!(rage_of(&mut s, ANA), 7);
    assert_eq!(rage_of(&mut s, BO), 5);
}

#[test]
fn c5_a_unit_upgrade_brings_its_figure_from_the_reserve_onto_the_board_for_free() {
    let mut s = two();
    hand(
        &mut s,
        ANA,
        &["rune_axes", "chieftains_torc", "oath_of_rage"],
    );
    rage(&mut s, ANA, 8);
    // A clan upgrade has no figure.
    s.refused_as(
        Camp::Eladrins,
        upgrade("oath_of_rage", 5, Some(prov("stonecrest"))),
        refusal(ClanRefusal::NotItsFigure(Fig::Warrior)),
    );
    // The leader is not in the reserve (on the board already).
    put(&mut s, ANA, Fig::Leader, prov("reedholm"));
    s.refused_as(
        Camp::Eladrins,
        upgrade("chieftains_torc", 1, Some(prov("stonecrest"))),
        refusal(ClanRefusal::NotInReserve(Fig::Leader)),
    );
    s.submit(upgrade("rune_axes", 0, Some(prov("stonecrest"))))
        .expect("the warrior invades with its upgrade");
    let c = st(&mut s);
    assert_eq!(rage_of(&mut s, ANA), 6, "only the card's STR is paid");
    assert!(c.board.contains(&Placed {
        owner: ANA,
        fig: Fig::Warrior,
        at: prov("stonecrest")
    }));
    assert_eq!(
        c.sheets[&ANA]
            .reserve
            .iter()
            .filter(|f| **f == Fig::Warrior)
            .count(),
        5
    );
    // An invasion without its upgrade costs the figure's STR (reading).
    give(&mut s, ANA);
    s.submit(act(ClanAction::Invade {
        fig: Fig::Warrior,
        to: prov("southwatch"),
    }))
    .expect("invades");
    assert_eq!(rage_of(&mut s, ANA), 4, "a warrior of STR 2 now");
}

#[test]
fn c6_a_monster_joins_the_reserve_as_the_clans_own_figure_and_may_invade_at_once() {
    let mut s = two();
    hand(&mut s, ANA, &["card_frost_troll", "card_rift_wolf"]);
    rage(&mut s, ANA, 6);
    s.submit(upgrade("card_frost_troll", 3, Some(prov("sunfields"))))
        .expect("the troll invades");
    give(&mut s, ANA);
    s.submit(upgrade("card_rift_wolf", 4, None))
        .expect("the wolf joins the reserve");
    let c = st(&mut s);
    let troll = Fig::Monster("frost_troll".into());
    assert!(c.board.contains(&Placed {
        owner: ANA,
        fig: troll.clone(),
        at: prov("sunfields")
    }));
    assert!(
        c.sheets[&ANA]
            .reserve
            .contains(&Fig::Monster("rift_wolf".into()))
    );
    let lvl = clans::data::level(s.w());
    assert_eq!(clans::reckon::strength(&lvl, &c.sheets[&ANA], &troll), 4);
    assert_eq!(rage_of(&mut s, ANA), 1, "6 − 3 − 2");
}

#[test]
fn c7_dead_figures_go_to_valhalla_and_come_back_at_the_release_scoring_their_glory() {
    let mut s = two();
    set(&mut s, |c| {
        c.sheets.get_mut(&ANA).expect("Ana").slots[5] = Some("hall_of_heroes".into());
    });
    // Ana's warrior loses to Chaos' leader in Stonecrest: to Valhalla.
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    put(&mut s, CHAOS, Fig::Leader, prov("stonecrest"));
    rage(&mut s, ANA, 1);
    s.submit(pillage("stonecrest")).expect("pillages");
    // Nobody can bring anyone: the cards, Chaos first (from Ana's left), then Ana.
    assert_eq!(turn(&mut s), CHAOS);
    s.submit_as(Camp::Chaos, play(None)).expect("Chaos");
    s.submit(play(None)).expect("Ana");
    let c = st(&mut s);
    assert_eq!(c.sheets[&ANA].valhalla, [Fig::Warrior]);
    assert!(c.call.is_none());
    let before = glory_of(&mut s, ANA);
    s.run(clans::RELEASE_STEP);
    let c = st(&mut s);
    assert!(c.sheets[&ANA].valhalla.is_empty());
    assert_eq!(
        c.sheets[&ANA]
            .reserve
            .iter()
            .filter(|f| **f == Fig::Warrior)
            .count(),
        6
    );
    assert_eq!(glory_of(&mut s, ANA), before + 1, "Hall of Heroes: 1 each");
}

#[test]
fn c8_at_most_two_monsters_the_replaced_one_leaves_the_game_wherever_it_stands() {
    let mut s = two();
    let troll = Fig::Monster("frost_troll".into());
    set(&mut s, |c| {
        let sh = c.sheets.get_mut(&ANA).expect("Ana");
        sh.slots[3] = Some("card_frost_troll".into());
        sh.slots[4] = Some("card_sea_serpent".into());
        sh.reserve.push(Fig::Monster("sea_serpent".into()));
    });
    // The troll on the board (replacing a monster whose figure is on the board).
    put(&mut s, ANA, troll.clone(), prov("reedholm"));
    hand(&mut s, ANA, &["card_rift_wolf"]);
    hand(&mut s, BO, &["card_sea_serpent"]);
    rage(&mut s, ANA, 5);
    s.submit(upgrade("card_rift_wolf", 3, None))
        .expect("the third monster replaces the troll");
    let c = st(&mut s);
    let sh = &c.sheets[&ANA];
    assert!(!c.board.iter().any(|p| p.fig == troll), "back to the box");
    assert!(!sh.reserve.contains(&troll) && !sh.valhalla.contains(&troll));
    assert!(sh.reserve.contains(&Fig::Monster("rift_wolf".into())));
    assert!(c.discard.contains(&"card_frost_troll".to_string()));
    let monsters = sh
        .slots
        .iter()
        .flatten()
        .filter(|c| c.starts_with("card_"))
        .count();
    assert_eq!(monsters, 2);
    // A monster serves one clan: Bo can't call the serpent Ana holds.
    assert_eq!(turn(&mut s), BO);
    rage(&mut s, BO, 5);
    s.refused_as(
        Camp::Eladrins,
        upgrade("card_sea_serpent", 3, None),
        refusal(ClanRefusal::MonsterTaken("sea_serpent".into())),
    );
}

#[test]
fn c9_quests_go_face_down_at_no_cost_any_number_even_two_alike() {
    let mut s = two();
    hand(
        &mut s,
        ANA,
        &["hold_the_north", "hold_the_north", "spear_wall"],
    );
    rage(&mut s, ANA, 1);
    let q = act(ClanAction::Quest {
        card: "hold_the_north".into(),
    });
    s.submit(q.clone()).expect("first");
    give(&mut s, ANA);
    s.submit(q).expect("the same again");
    assert_eq!(rage_of(&mut s, ANA), 1, "no Rage");
    assert_eq!(st(&mut s).sheets[&ANA].quests.len(), 2);
    give(&mut s, ANA);
    s.refused_as(
        Camp::Eladrins,
        act(ClanAction::Quest {
            card: "spear_wall".into(),
        }),
        refusal(ClanRefusal::NotAQuest("spear_wall".into())),
    );
}

#[test]
fn c10_quests_are_seen_by_their_seat_only_checked_at_the_quest_phase_failing_is_free() {
    let mut s = two();
    set(&mut s, |c| {
        let sh = c.sheets.get_mut(&ANA).expect("Ana");
        sh.quests = vec!["host_of_the_clan".into(), "blood_on_the_axe".into()];
        sh.hand = vec!["spear_wall".into()];
    });
    let c = st(&mut s);
    let hidden = vec![HIDDEN.to_string(); 2];
    assert_eq!(c.seen_by(Viewer::Seat(1)).sheets[&ANA].quests, hidden);
    assert_eq!(c.seen_by(Viewer::Chaos).sheets[&ANA].quests, hidden);
    assert_eq!(c.seen_by(Viewer::Chaos).sheets[&ANA].hand, [HIDDEN]);
    assert_eq!(
        c.seen_by(Viewer::Seat(0)).sheets[&ANA].quests,
        c.sheets[&ANA].quests
    );
    // Four figures on the board meets "Host of the Clan"; no battle won fails the other.
    for p in ["stonecrest", "southwatch", "reedholm", "sunfields"] {
        put(&mut s, ANA, Fig::Warrior, prov(p));
    }
    let levels = st(&mut s).sheets[&ANA].levels;
    s.run(clans::QUEST_STEP);
    let c = st(&mut s);
    assert_eq!(glory_of(&mut s, ANA), 4);
    assert!(c.sheets[&ANA].quests.is_empty(), "both discarded");
    assert_eq!(c.sheets[&ANA].levels, levels, "failing costs nothing");
    assert_eq!(c.on_board(ANA), 4);
}

#[test]
fn c11_at_zero_rage_a_clan_takes_no_action_not_even_a_free_one() {
    let mut s = two();
    hand(&mut s, ANA, &["hold_the_north", "rune_axes"]);
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    rage(&mut s, ANA, 0);
    for a in [
        act(ClanAction::Quest {
            card: "hold_the_north".into(),
        }),
        pillage("stonecrest"),
        upgrade("rune_axes", 0, None),
    ] {
        s.refused_as(Camp::Eladrins, a, refusal(ClanRefusal::NoRage));
    }
    let legal = chaos_outpost::rules::legal::legal_actions(s.w(), Camp::Eladrins);
    assert_eq!(legal, [Action::Pass], "only passing");
    // One Rage is enough for a free action.
    rage(&mut s, ANA, 1);
    s.submit(act(ClanAction::Quest {
        card: "hold_the_north".into(),
    }))
    .expect("with 1 Rage");
}

#[test]
fn c12_the_highest_str_in_a_named_province_gives_its_glory_and_a_clan_level() {
    let mut s = two();
    set(&mut s, |c| {
        c.sheets.get_mut(&ANA).expect("Ana").quests = vec!["face_the_rift".into()];
        c.sheets.get_mut(&BO).expect("Bo").quests = vec!["face_the_rift".into()];
    });
    // A tie is nobody's highest: Ana 2 (leader) against Chaos 2 (two warriors).
    put(&mut s, ANA, Fig::Leader, prov("riftheart"));
    put(&mut s, CHAOS, Fig::Warrior, prov("riftheart"));
    put(&mut s, CHAOS, Fig::Warrior, prov("riftheart"));
    s.run(clans::QUEST_STEP);
    assert_eq!(glory_of(&mut s, ANA), 0);
    // With one more warrior she leads.
    set(&mut s, |c| {
        c.sheets.get_mut(&ANA).expect("Ana").quests = vec!["face_the_rift".into()];
    });
    put(&mut s, ANA, Fig::Warrior, prov("riftheart"));
    s.run(clans::QUEST_STEP);
    assert_eq!(glory_of(&mut s, ANA), 7);
    assert_eq!(st(&mut s).sheets[&ANA].level(Track::Horns), 1);
}

#[test]
fn c13_pillage_needs_a_figure_there_or_on_a_fjord_beside_it_and_a_token_still_on_reward() {
    let mut s = two();
    rage(&mut s, ANA, 2);
    s.refused_as(
        Camp::Eladrins,
        pillage("stonecrest"),
        refusal(ClanRefusal::NotThere("stonecrest".into())),
    );
    // A ship on Cold Sound, beside Stonecrest and Southwatch (a fjord-adjacent figure).
    put(&mut s, ANA, Fig::Ship, Spot::Fjord("cold_sound".into()));
    s.refused_as(
        Camp::Eladrins,
        pillage("reedholm"),
        refusal(ClanRefusal::NotThere("reedholm".into())),
    );
    s.submit(pillage("stonecrest")).expect("from the fjord");
    let c = st(&mut s);
    assert!(c.pillaged.contains(&"stonecrest".to_string()));
    assert_eq!(rage_of(&mut s, ANA), 2, "a pillage costs no Rage");
    give(&mut s, ANA);
    s.refused_as(
        Camp::Eladrins,
        pillage("stonecrest"),
        refusal(ClanRefusal::AlreadyPillaged("stonecrest".into())),
    );
    // The tokens turn back at the next cycle's start.
    s.run(clans::DRAW_STEP);
    assert!(st(&mut s).pillaged.is_empty());
}

#[test]
fn c14_the_call_goes_round_from_the_pillagers_left_one_figure_each_ships_stay() {
    let mut s = two();
    rage(&mut s, ANA, 2);
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    put(&mut s, BO, Fig::Warrior, prov("southwatch"));
    put(&mut s, CHAOS, Fig::Warrior, prov("southwatch"));
    put(&mut s, CHAOS, Fig::Ship, Spot::Fjord("cold_sound".into()));
    put(&mut s, CHAOS, Fig::Leader, prov("reedholm"));
    s.submit(pillage("stonecrest")).expect("Ana pillages");
    let c = st(&mut s).call.expect("a call");
    assert_eq!(c.order, [BO, CHAOS, ANA], "from her left round to her");
    assert_eq!(turn(&mut s), BO, "Bo is asked first");
    // While the call is open it is answered: no pass, no other action.
    s.refused_as(Camp::Eladrins, Action::Pass, refusal(ClanRefusal::CallOpen));
    s.submit(act(ClanAction::Decline)).expect("Bo declines");
    assert_eq!(turn(&mut s), CHAOS);
    s.refused_as(
        Camp::Chaos,
        join(Fig::Ship, "southwatch"),
        refusal(ClanRefusal::ShipsStay),
    );
    s.refused_as(
        Camp::Chaos,
        join(Fig::Leader, "reedholm"),
        refusal(ClanRefusal::NotAdjacent("reedholm".into())),
    );
    s.submit_as(Camp::Chaos, join(Fig::Warrior, "southwatch"))
        .expect("Chaos brings its warrior");
    // Both villages taken: the call ends, the battle's cards are asked, Chaos first.
    let c = st(&mut s).call.expect("the battle");
    assert_eq!(c.stage, Stage::Cards);
    assert_eq!(
        c.order,
        [CHAOS, ANA],
        "the clans in the battle: Bo has no one there"
    );
    assert_eq!(turn(&mut s), CHAOS);
}

#[test]
fn c14_the_call_ends_when_nobody_adds_troops() {
    let mut s = two();
    rage(&mut s, ANA, 2);
    put(&mut s, ANA, Fig::Warrior, prov("ashen_marches"));
    put(&mut s, BO, Fig::Warrior, prov("riftheart"));
    s.submit(pillage("ashen_marches")).expect("Ana pillages");
    assert_eq!(
        turn(&mut s),
        BO,
        "Chaos has nobody to bring and is not asked"
    );
    s.submit(act(ClanAction::Decline)).expect("Bo");
    // Ana has nobody to bring either: every clan said no, she is alone: the reward.
    let c = st(&mut s);
    assert!(c.call.is_none());
    assert!(c.pillaged.contains(&"ashen_marches".to_string()));
    assert_eq!(turn(&mut s), BO, "the turn goes on after the pillager");
}

#[test]
fn c15_a_province_without_villages_takes_any_number_of_troops() {
    let mut s = two();
    rage(&mut s, ANA, 20);
    // Her Horns at their top (8 figures on the board).
    set(&mut s, |c| {
        c.sheets.get_mut(&ANA).expect("Ana").levels[Track::Horns.ix()] = 3;
    });
    for _ in 0..5 {
        give(&mut s, ANA);
        s.submit(act(ClanAction::Invade {
            fig: Fig::Warrior,
            to: prov("riftheart"),
        }))
        .expect("room for all");
    }
    assert_eq!(st(&mut s).at(&prov("riftheart")).count(), 5);
    // A province with two villages takes two.
    for _ in 0..2 {
        give(&mut s, BO);
        rage(&mut s, BO, 5);
        s.submit(act(ClanAction::Invade {
            fig: Fig::Warrior,
            to: prov("stonecrest"),
        }))
        .expect("a village");
    }
    give(&mut s, BO);
    s.refused_as(
        Camp::Eladrins,
        act(ClanAction::Invade {
            fig: Fig::Warrior,
            to: prov("stonecrest"),
        }),
        refusal(ClanRefusal::VillagesFull("stonecrest".into())),
    );
}

#[test]
fn c16_alone_the_pillager_takes_the_reward_and_no_battle_glory() {
    let mut s = two();
    rage(&mut s, ANA, 1);
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    // Bo, on the same side, standing there makes no battle (reading: the seats together).
    put(&mut s, BO, Fig::Warrior, prov("stonecrest"));
    s.submit(pillage("stonecrest")).expect("pillages");
    let c = st(&mut s);
    assert!(c.call.is_none());
    assert_eq!(glory_of(&mut s, ANA), 3, "the reward alone, no Axes glory");
    assert_eq!(glory_of(&mut s, BO), 0);
    assert_eq!(c.sheets[&ANA].won, 0);
    assert_eq!(c.sheets[&ANA].pillaged, 1);
    // A level reward: Southwatch raises the Axes.
    give(&mut s, ANA);
    put(&mut s, ANA, Fig::Warrior, prov("southwatch"));
    s.submit(pillage("southwatch")).expect("pillages");
    // Both seats have a warrior next door, in Stonecrest: each is asked, and says no.
    assert_eq!(turn(&mut s), BO);
    s.submit(act(ClanAction::Decline)).expect("Bo");
    assert_eq!(turn(&mut s), ANA);
    s.submit(act(ClanAction::Decline)).expect("Ana");
    assert_eq!(st(&mut s).sheets[&ANA].level(Track::Axes), 1);
}

#[test]
fn c17_every_figure_there_fights_cards_raise_str_the_highest_wins_the_others_die() {
    let mut s = two();
    rage(&mut s, ANA, 1);
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    // Bo's ship on Cold Sound fights for Stonecrest too, on Ana's side.
    put(&mut s, BO, Fig::Ship, Spot::Fjord("cold_sound".into()));
    put(&mut s, CHAOS, Fig::Leader, prov("stonecrest"));
    put(&mut s, CHAOS, Fig::Warrior, prov("reedholm"));
    hand(&mut s, ANA, &["berserk_charge"]);
    hand(&mut s, CHAOS, &["spear_wall"]);
    s.submit(pillage("stonecrest")).expect("pillages");
    let c = st(&mut s).call.expect("a battle");
    assert_eq!(c.stage, Stage::Cards, "the villages are full");
    assert_eq!(c.order, [BO, CHAOS, ANA]);
    s.submit(play(None)).expect("Bo plays nothing");
    s.submit_as(Camp::Chaos, play(Some("spear_wall")))
        .expect("Chaos plays face down");
    // Hidden from the seats until the battle is resolved.
    let seen = st(&mut s).seen_by(Viewer::Seat(0));
    assert_eq!(
        seen.call.expect("call").picks[&CHAOS].as_deref(),
        Some(HIDDEN)
    );
    s.submit(play(Some("berserk_charge"))).expect("Ana");
    // Eladrins 1 + 1 (ship) + 2 = 4 against Chaos 2 + 1 = 3.
    let c = st(&mut s);
    assert!(c.call.is_none());
    assert!(
        !c.board
            .iter()
            .any(|p| p.owner == CHAOS && p.at == prov("stonecrest"))
    );
    assert!(
        c.board
            .iter()
            .any(|p| p.owner == CHAOS && p.at == prov("reedholm")),
        "only the figures of the battle die"
    );
    assert_eq!(c.sheets[&CHAOS].valhalla, [Fig::Leader]);
    assert_eq!(
        c.sheets[&CHAOS].hand,
        ["spear_wall"],
        "the loser's card back"
    );
    assert!(c.sheets[&ANA].hand.is_empty(), "the winner's card spent");
    assert!(c.discard.contains(&"berserk_charge".to_string()));
    assert_eq!(glory_of(&mut s, ANA), 2 + 3, "Axes 2 and the reward 3");
    assert_eq!(glory_of(&mut s, BO), 2, "Bo won the battle too");
    assert_eq!(c.sheets[&ANA].won, 1);
    assert!(c.pillaged.contains(&"stonecrest".to_string()));
    assert_eq!(turn(&mut s), BO, "the turn goes on after the pillager");
    // Told in the order the table resolves it, for the show to play step by step: each
    // clan's card turned up (in the order they were asked), the winner, the losers to
    // Valhalla, then the reward.
    let told: Vec<Told> = s
        .events()
        .into_iter()
        .filter_map(|e| match e {
            chaos_outpost::rules::GameEvent::Chapter { chapter, what } if chapter == clans::ID => {
                what.get::<Told>()
            }
            _ => None,
        })
        .skip_while(|t| !matches!(t, Told::Turned { .. }))
        .collect();
    let stonecrest = "stonecrest".to_string();
    assert_eq!(
        told,
        [
            Told::Turned {
                province: stonecrest.clone(),
                owner: BO,
                card: None
            },
            Told::Turned {
                province: stonecrest.clone(),
                owner: CHAOS,
                card: Some("spear_wall".into())
            },
            Told::Turned {
                province: stonecrest.clone(),
                owner: ANA,
                card: Some("berserk_charge".into())
            },
            Told::Battle {
                province: stonecrest.clone(),
                eladrins: 4,
                chaos: 3,
                winner: Some(true)
            },
            Told::Fallen {
                province: stonecrest.clone(),
                owner: CHAOS,
                figures: 1
            },
            Told::Pillaged {
                owner: ANA,
                province: stonecrest
            },
        ]
    );
}

#[test]
fn c17_a_tie_destroys_every_side_and_nobody_takes_the_reward() {
    let mut s = two();
    rage(&mut s, ANA, 1);
    put(&mut s, ANA, Fig::Leader, prov("stonecrest"));
    put(&mut s, CHAOS, Fig::Leader, prov("stonecrest"));
    s.submit(pillage("stonecrest")).expect("pillages");
    s.submit_as(Camp::Chaos, play(None)).expect("Chaos");
    s.submit(play(None)).expect("Ana");
    let c = st(&mut s);
    assert!(c.board.is_empty(), "both sides fall");
    assert_eq!(c.sheets[&ANA].valhalla, [Fig::Leader]);
    assert_eq!(c.sheets[&CHAOS].valhalla, [Fig::Leader]);
    assert!(!c.pillaged.contains(&"stonecrest".to_string()));
    assert_eq!(glory_of(&mut s, ANA), 0);
}

#[test]
fn chaos_is_a_clan_whose_pillages_feed_its_corruption() {
    let mut s = two();
    give(&mut s, CHAOS);
    rage(&mut s, CHAOS, 1);
    put(&mut s, CHAOS, Fig::Warrior, prov("riftheart"));
    let before = s.w().resource::<Modifiers>().pending_attempts;
    s.submit_as(Camp::Chaos, pillage("riftheart"))
        .expect("Chaos pillages");
    assert_eq!(s.w().resource::<Modifiers>().pending_attempts, before + 1);
    assert_eq!(glory_of(&mut s, CHAOS), 6);
    assert_eq!(turn(&mut s), ANA, "round again");
}

#[test]
fn a_clan_at_zero_rage_still_answers_the_call_and_plays_its_card() {
    let mut s = two();
    rage(&mut s, ANA, 1);
    rage(&mut s, BO, 0);
    put(&mut s, ANA, Fig::Warrior, prov("ashen_marches"));
    put(&mut s, CHAOS, Fig::Warrior, prov("ashen_marches"));
    put(&mut s, BO, Fig::Leader, prov("riftheart"));
    s.submit(pillage("ashen_marches")).expect("pillages");
    assert_eq!(turn(&mut s), BO);
    s.submit(join(Fig::Leader, "riftheart"))
        .expect("Bo answers at 0 Rage");
    let c = st(&mut s).call.expect("the battle");
    assert_eq!(c.stage, Stage::Cards, "three villages: all taken");
    assert_eq!(c.order, [BO, CHAOS, ANA]);
    s.submit(play(None)).expect("Bo plays at 0 Rage");
}

#[test]
fn each_seats_glory_is_its_own_and_counted_by_the_glory_seam() {
    let mut s = two();
    tracks::add(s.w(), clans::GLORY, Holder::Seat(0), 9);
    tracks::add(s.w(), clans::GLORY, Holder::Seat(1), 4);
    tracks::add(s.w(), clans::GLORY, Holder::Camp(Camp::Chaos), 20);
    assert_eq!(chapter::glory(s.w()), [9, 4]);
}

#[test]
fn the_ai_answers_a_call_with_a_legal_answer() {
    let mut s = two();
    rage(&mut s, ANA, 1);
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    put(&mut s, CHAOS, Fig::Warrior, prov("southwatch"));
    s.submit(pillage("stonecrest")).expect("pillages");
    assert_eq!(turn(&mut s), CHAOS);
    let (by, choice) = chaos_outpost::ai::decide(s.w());
    assert_eq!(by, Camp::Chaos);
    assert_eq!(
        choice.action,
        join(Fig::Warrior, "southwatch"),
        "Chaos answers against the Eladrins"
    );
    s.submit_as(by, choice.action).expect("legal");
}

#[test]
fn a_whole_game_played_twice_is_the_same_game() {
    let play = || {
        let mut s = game(|_, _| {});
        let mut battles = 0;
        for _ in 0..6000 {
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
            battles += s
                .events()
                .iter()
                .filter(|e| {
                    matches!(e, chaos_outpost::rules::GameEvent::Chapter { what, .. }
                    if matches!(what.get(), Some(Told::Battle { .. } | Told::Pillaged { .. })))
                })
                .count();
            s.clear_events();
        }
        (s.hash(), battles, s.w().resource::<Cycle>().number)
    };
    let a = play();
    assert!(a.2 > 3, "cycles were played: {}", a.2);
    assert!(a.1 > 0, "clans pillaged or fought");
    assert_eq!(a, play());
}

#[test]
fn a_broken_level_is_refused_naming_its_field() {
    let mut db = common::base();
    let mut level = db.levels["clans"].clone();
    let mut ext: ClanLevel = level.ext["clans"].into_rust().expect("reads");
    ext.provinces[0].villages.push((9, 9));
    ext.cards[0].kind = clans::data::CardKind::Monster("kraken".into());
    level.ext.insert(
        "clans".into(),
        ron::value::RawValue::from_rust(&ext).expect("writes"),
    );
    db.levels.insert("clans".into(), level);
    // The levels' chapter fields are read when content is indexed.
    db.reindex();
    let mut app = setup::headless_app(Arc::new(db));
    let e = setup::start_game(app.world_mut(), "clans", None, 7).expect_err("refused");
    assert!(
        e.contains("ext.clans") && e.contains("provinces[stonecrest].villages"),
        "{e}"
    );
    assert!(e.contains("no monster `kraken`"), "{e}");
}

#[test]
fn a_saved_state_with_a_wrong_sheet_is_refused() {
    let mut s = two();
    let mut c = st(&mut s);
    let db = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .0
        .clone();
    let cx = chapter::StateCheck {
        db: &db,
        level: &db.levels["clans"],
        seats: 2,
    };
    assert!(c.check(&cx).is_ok());
    c.sheets.get_mut(&ANA).expect("Ana").slots.push(None);
    assert!(c.check(&cx).expect_err("refused").contains("not 8"));
}

/// `sim` counts what the chapter told (its battles, pillages, quests) in each game's report and
/// in the batch's means, so the README's figures come from the tool.
#[test]
fn sim_counts_the_clans_battles_and_pillages() {
    let db = Arc::new(common::base());
    let (app, r) =
        chaos_outpost::sim::play_game(db, "clans", None, 101, 4).expect("a game of the clans");
    let n = |k: &str| r.chapter_events.get(k).copied().unwrap_or(0);
    assert!(n("clans:Pillaged") > 0, "{:?}", r.chapter_events);
    // Every pillage taken followed a call to battle (C13, C14).
    assert!(n("clans:Called") >= n("clans:Pillaged"));
    assert!(n("clans:Quest") > 0, "{:?}", r.chapter_events);
    let stats = chaos_outpost::sim::batch_stats(std::slice::from_ref(&r));
    assert_eq!(
        stats.chapter_events_per_game.get("clans:Pillaged").copied(),
        Some(n("clans:Pillaged") as f64)
    );
    assert_eq!(
        chaos_outpost::sim::chapter_kind("clans", "Battle(province:\"x\")"),
        "clans:Battle"
    );
    // Each seat's glory at the end (C7, C12, C16, C17), and its mean over the batch.
    assert_eq!(r.glory, chapter::glory(app.world()));
    assert_eq!(r.glory.len(), 2, "two seats");
    assert!(
        r.glory.iter().any(|g| *g > 0),
        "glory was won: {:?}",
        r.glory
    );
    let means: Vec<f64> = r.glory.iter().map(|g| *g as f64).collect();
    assert_eq!(stats.glory_per_seat, means);
}

/// A pillage of Stonecrest by `pillager` at its cards (C17): `order` to pick, `at` asked now,
/// one card already picked where given.
fn cards_in_stonecrest(
    s: &mut Scn,
    pillager: Owner,
    order: Vec<Owner>,
    at: usize,
    picked: Option<(Owner, &str)>,
) {
    set(s, |c| {
        c.call = Some(chaos_outpost::chapters::clans::state::Call {
            province: "stonecrest".into(),
            pillager,
            order,
            at,
            declined: 0,
            stage: Stage::Cards,
            picks: picked
                .into_iter()
                .map(|(o, card)| (o, Some(card.to_string())))
                .collect(),
        })
    });
}

/// The search weighs the chapter's part of a position (`ai::eval`, weights `eval_*` in
/// `ai.ron: chapters.clans`), from Chaos' side: the corruption attempts its pillages add to the
/// next R6, each side's STR on the board, the clans' levels, the seats' glory.
#[test]
fn the_search_weighs_the_clans_eval_term() {
    let mut s = two();
    let w = |s: &mut Scn, n: &str| chaos_outpost::ai::weight(s.w(), clans::ID, n);
    let ev = |s: &mut Scn| chaos_outpost::ai::search::evaluate(s.w());
    for n in ["eval_attempt", "eval_str", "eval_level", "eval_glory"] {
        assert!(w(&mut s, n) > 0, "{n} is weighed");
    }
    let lvl = clans::data::level(s.w());
    let warrior = |s: &mut Scn, o: Owner| {
        clans::reckon::strength(&lvl, &st(s).sheets[&o], &Fig::Warrior) as i64
    };
    let base = ev(&mut s);
    s.w().resource_mut::<Modifiers>().pending_attempts += 1;
    assert_eq!(ev(&mut s) - base, w(&mut s, "eval_attempt"));
    let base = ev(&mut s);
    put(&mut s, CHAOS, Fig::Warrior, prov("stonecrest"));
    let gain = warrior(&mut s, CHAOS) * w(&mut s, "eval_str");
    assert_eq!(ev(&mut s) - base, gain);
    let base = ev(&mut s);
    put(&mut s, ANA, Fig::Warrior, prov("reedholm"));
    let loss = warrior(&mut s, ANA) * w(&mut s, "eval_str");
    assert_eq!(base - ev(&mut s), loss);
    let base = ev(&mut s);
    tracks::add(s.w(), clans::GLORY, holder(BO), 2);
    assert_eq!(base - ev(&mut s), 2 * w(&mut s, "eval_glory"));
    let base = ev(&mut s);
    set(&mut s, |c| {
        c.sheets.get_mut(&CHAOS).expect("clan").levels[1] += 1
    });
    assert_eq!(ev(&mut s) - base, w(&mut s, "eval_level"));
}

/// A battle under way counts as the odds of its hidden cards (C17): with the same STR on both
/// sides, Chaos' pillage is worth more than nothing and less than the attempt it would win.
#[test]
fn the_clans_eval_counts_a_battle_under_way_by_its_odds() {
    let mut s = two();
    put(&mut s, CHAOS, Fig::Warrior, prov("stonecrest"));
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    let ev = |s: &mut Scn| chaos_outpost::ai::search::evaluate(s.w());
    let before = ev(&mut s);
    cards_in_stonecrest(&mut s, CHAOS, vec![ANA, CHAOS], 0, None);
    let stake = chaos_outpost::ai::weight(s.w(), clans::ID, "eval_attempt")
        * clans::data::level(s.w()).chaos.attempts as i64;
    let worth = ev(&mut s) - before;
    assert!(
        0 < worth && worth < stake,
        "an even battle is worth {worth} of {stake}"
    );
}

/// The searching AI plays the clans' rounds out: in the action phase, each kind of clan
/// action's best proposal and passing are played on a copy of the game, which is left as it
/// was; the choice is legal.
#[test]
fn the_searching_ai_plays_out_the_clans_round_on_a_copy() {
    use chaos_outpost::ai::search::{self, Brain, Brains};
    let mut s = two();
    s.w().insert_resource(Brains {
        chaos: Brain::Search {
            nodes: 400,
            margin: Some(0),
        },
        eladrin: Brain::Heuristic,
    });
    s.submit(Action::Pass).expect("Ana passes");
    s.submit(Action::Pass).expect("Bo passes");
    assert_eq!(turn(&mut s), CHAOS);
    rage(&mut s, CHAOS, 3);
    let hash = s.hash();
    let counted = |s: &mut Scn| {
        s.w()
            .get_resource::<search::SearchScratch>()
            .map_or(0, |c| c.counted.0)
    };
    let copies = counted(&mut s);
    let (by, choice) = chaos_outpost::ai::decide(s.w());
    assert_eq!(by, Camp::Chaos);
    assert!(counted(&mut s) > copies, "the proposals were played out");
    assert_eq!(s.hash(), hash, "the game is untouched");
    s.submit_as(by, choice.action).expect("a legal choice");
}

/// The search's copy holds where a step ends (`HoldAtStepEnd`): the last clan's pass ends the
/// round and the copy stays in it, over (`step_over`), the quest phase not run; a real game
/// moves on to it.
#[test]
fn a_copy_that_holds_stops_where_the_clans_round_ends() {
    use chaos_outpost::rules::{GameWorld, HoldAtStepEnd, step_over};
    let mut held = two();
    held.w().insert_resource(HoldAtStepEnd(true));
    let mut real = two();
    for s in [&mut held, &mut real] {
        s.submit(Action::Pass).expect("Ana passes");
        s.submit(Action::Pass).expect("Bo passes");
        assert!(!step_over(s.w()), "Chaos has not passed");
        s.clear_events();
        s.submit_as(Camp::Chaos, Action::Pass)
            .expect("Chaos passes");
    }
    assert_eq!(held.w().step_id(), clans::ACTION_STEP);
    assert!(step_over(held.w()));
    assert!(
        !held
            .events()
            .iter()
            .any(|e| matches!(e, chaos_outpost::rules::GameEvent::StepStarted { .. })),
        "no later step ran"
    );
    assert_ne!(
        real.w().step_id(),
        clans::ACTION_STEP,
        "a real game moves on"
    );
}

/// The search plays out a copy of what its camp may see: a foe's card face down (C17), the
/// other clans' hands and quests and the deck are guessed anew for each playout from the cards
/// that camp has not seen (`ChapterState::guess_unseen`, a determinization), so the rules never
/// meet a hidden card. The same dice give the same guess; no card is guessed more often than
/// the deck holds it; the real game, with nothing hidden, is left as it is.
#[test]
fn a_hidden_card_in_an_ais_copy_is_guessed_from_the_cards_it_has_not_seen() {
    use chaos_outpost::rules::GameRng;
    use chaos_outpost::rules::snapshot::state_hash;
    let mut s = two();
    put(&mut s, CHAOS, Fig::Warrior, prov("stonecrest"));
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    let lvl = clans::data::level(s.w());
    let card = lvl.deck()[0].clone();
    cards_in_stonecrest(
        &mut s,
        ANA,
        vec![CHAOS, ANA],
        1,
        Some((CHAOS, card.as_str())),
    );
    let real = st(&mut s);
    assert!(!real.holds_hidden());
    let hash = state_hash(s.w());
    chapter::guess_unseen(s.w());
    assert_eq!(state_hash(s.w()), hash, "nothing hidden: nothing guessed");
    // Ana's view: Chaos' pick, Chaos' hand and quests and the deck are hidden.
    let seen = real.seen_by(Viewer::Seat(0));
    assert!(seen.holds_hidden());
    let guessed = |seed| {
        let mut c = seen.clone();
        c.guess(&lvl, &mut GameRng::seeded(seed));
        c
    };
    let a = guessed(1);
    assert_eq!(a, guessed(1), "the same dice, the same guess");
    assert!(!a.holds_hidden(), "every hidden card guessed");
    assert_eq!(a.sheets[&ANA], real.sheets[&ANA], "what Ana sees stays");
    assert_eq!(a.deck.len(), real.deck.len());
    assert_eq!(a.sheets[&CHAOS].hand.len(), real.sheets[&CHAOS].hand.len());
    for q in &a.sheets[&CHAOS].quests {
        assert!(
            matches!(
                lvl.card(q).map(|c| &c.kind),
                Some(clans::data::CardKind::Quest(_))
            ),
            "a hidden quest is guessed as a quest: {q}"
        );
    }
    let copies = |c: &Clans| {
        let mut n: std::collections::BTreeMap<String, u32> = Default::default();
        let all = c
            .sheets
            .values()
            .flat_map(|s| s.slots.iter().flatten().chain(&s.hand).chain(&s.quests))
            .chain(&c.deck)
            .chain(&c.discard)
            .chain(c.call.iter().flat_map(|c| c.picks.values().flatten()));
        for id in all {
            *n.entry(id.clone()).or_default() += 1;
        }
        n
    };
    for seed in 1..=12 {
        for (id, n) in copies(&guessed(seed)) {
            let deck = lvl.card(&id).map_or(0, |c| c.copies);
            assert!(n <= deck, "seed {seed}: {n} of {id}, the deck holds {deck}");
        }
    }
    let picks: std::collections::BTreeSet<String> = (1..=12)
        .filter_map(|seed| guessed(seed).call?.picks[&CHAOS].clone())
        .collect();
    assert!(picks.len() > 1, "other dice, other guesses: {picks:?}");
    // Through the seam, on a copy in the world as the search makes it.
    set(&mut s, |c| *c = seen.clone());
    chapter::guess_unseen(s.w());
    assert!(!st(&mut s).holds_hidden());
}

/// While the clans gather (C14), a clan that just said no brings nothing more: the call's worth
/// to Chaos no longer counts the figure it could have brought.
#[test]
fn the_clans_eval_forgets_a_clan_that_declined_the_call() {
    let mut s = two();
    rage(&mut s, CHAOS, 1);
    put(&mut s, CHAOS, Fig::Warrior, prov("stonecrest"));
    put(&mut s, ANA, Fig::Warrior, prov("southwatch"));
    put(&mut s, BO, Fig::Warrior, prov("southwatch"));
    give(&mut s, CHAOS);
    s.submit_as(Camp::Chaos, pillage("stonecrest"))
        .expect("Chaos pillages");
    assert_eq!(turn(&mut s), ANA, "Ana is asked first");
    let ev = |s: &mut Scn| chaos_outpost::ai::search::evaluate(s.w());
    let asked = ev(&mut s);
    s.submit(act(ClanAction::Decline)).expect("Ana says no");
    assert_eq!(turn(&mut s), BO, "then Bo");
    assert!(
        ev(&mut s) > asked,
        "Ana's warrior no longer counts against Chaos"
    );
}

fn rules(s: &mut Scn, v: u32) {
    s.w()
        .resource_mut::<chaos_outpost::rules::GameSetup>()
        .rules = chaos_outpost::rules::version::Rules(v);
}

/// Riftheart has no villages (C15): Ana pillages it; Chaos has two warriors next door.
fn call_on_riftheart() -> Scn {
    let mut s = two();
    rage(&mut s, ANA, 1);
    put(&mut s, ANA, Fig::Warrior, prov("riftheart"));
    put(&mut s, CHAOS, Fig::Warrior, prov("ashen_marches"));
    put(&mut s, CHAOS, Fig::Warrior, prov("ashen_marches"));
    s
}

#[test]
fn c14_one_figure_per_clan_once_round_the_table() {
    // "Each player (you included) may move ONE of its figures": once round, from the
    // pillager's left to the pillager, even into a province without villages.
    let mut s = call_on_riftheart();
    s.submit(pillage("riftheart")).expect("Ana pillages");
    assert_eq!(
        turn(&mut s),
        CHAOS,
        "Bo has no one to bring and is not asked"
    );
    s.submit_as(Camp::Chaos, join(Fig::Warrior, "ashen_marches"))
        .expect("Chaos brings one warrior");
    // Ana, the last asked, has nobody next door: the round of the table is over.
    let c = st(&mut s);
    let call = c.call.clone().expect("the battle");
    assert_eq!(call.stage, Stage::Cards, "Chaos is not asked a second time");
    assert_eq!(
        c.at(&prov("riftheart")).count(),
        2,
        "Ana's warrior and one of Chaos'"
    );
    assert_eq!(
        c.at(&prov("ashen_marches")).count(),
        1,
        "Chaos' second warrior stays home"
    );
}

#[test]
fn c14_under_rules_2_a_clan_was_asked_until_everyone_said_no() {
    // The old reading, kept for replays and saves made under it.
    let mut s = call_on_riftheart();
    rules(&mut s, 2);
    s.submit(pillage("riftheart")).expect("Ana pillages");
    s.submit_as(Camp::Chaos, join(Fig::Warrior, "ashen_marches"))
        .expect("one");
    assert_eq!(turn(&mut s), CHAOS, "asked again");
    s.submit_as(Camp::Chaos, join(Fig::Warrior, "ashen_marches"))
        .expect("two");
    assert_eq!(st(&mut s).at(&prov("riftheart")).count(), 3);
}

#[test]
fn c17_the_winner_takes_the_reward_even_when_it_defends() {
    // Chaos holds Stonecrest (Glory 3) with its leader; Ana's warrior pillages and loses.
    let defend = |v: u32| {
        let mut s = two();
        rules(&mut s, v);
        rage(&mut s, ANA, 1);
        put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
        put(&mut s, CHAOS, Fig::Leader, prov("stonecrest"));
        let attempts = s.w().resource::<Modifiers>().pending_attempts;
        s.submit(pillage("stonecrest")).expect("Ana pillages");
        s.submit_as(Camp::Chaos, play(None)).expect("Chaos");
        s.submit(play(None)).expect("Ana");
        let c = st(&mut s);
        assert!(c.call.is_none());
        assert_eq!(c.sheets[&ANA].valhalla, [Fig::Warrior], "the pillager lost");
        let added = s.w().resource::<Modifiers>().pending_attempts - attempts;
        (s, c, added)
    };
    let (mut s, c, added) = defend(3);
    assert_eq!(
        glory_of(&mut s, CHAOS),
        2 + 3,
        "its Axes' battle glory and the province's reward"
    );
    assert!(
        c.pillaged.contains(&"stonecrest".to_string()),
        "the token flips"
    );
    assert_eq!(c.sheets[&CHAOS].pillaged, 0, "holding is no pillage");
    assert_eq!(added, 1, "a reward Chaos takes feeds its corruption");
    assert!(
        s.events().iter().any(|e| matches!(e,
            chaos_outpost::rules::GameEvent::Chapter { chapter, what }
                if chapter == clans::ID && matches!(what.get(), Some(Told::Defended { .. })))),
        "told"
    );
    // Under rules 2 only a winning pillager took it.
    let (mut s, c, added) = defend(2);
    assert_eq!(glory_of(&mut s, CHAOS), 2, "battle glory only");
    assert!(!c.pillaged.contains(&"stonecrest".to_string()));
    assert_eq!(added, 0);
}

#[test]
fn c17_of_the_defending_seats_the_strongest_takes_the_reward() {
    // Chaos pillages Riftheart (Glory 6), where Ana's warrior (1) and Bo's leader (2) stand.
    let mut s = two();
    rage(&mut s, CHAOS, 1);
    put(&mut s, CHAOS, Fig::Warrior, prov("riftheart"));
    put(&mut s, ANA, Fig::Warrior, prov("riftheart"));
    put(&mut s, BO, Fig::Leader, prov("riftheart"));
    give(&mut s, CHAOS);
    s.submit_as(Camp::Chaos, pillage("riftheart"))
        .expect("Chaos pillages");
    let c = st(&mut s).call.expect("a battle");
    assert_eq!(c.stage, Stage::Cards);
    assert_eq!(c.order, [ANA, BO, CHAOS]);
    s.submit(play(None)).expect("Ana");
    s.submit(play(None)).expect("Bo");
    s.submit_as(Camp::Chaos, play(None)).expect("Chaos");
    assert_eq!(glory_of(&mut s, ANA), 2, "Ana: her battle glory");
    assert_eq!(
        glory_of(&mut s, BO),
        2 + 6,
        "Bo, the stronger: the reward too"
    );
    assert_eq!(st(&mut s).sheets[&CHAOS].valhalla, [Fig::Warrior]);
}

#[test]
fn c17_a_clan_defends_a_province_it_can_hold_for_its_reward() {
    // Ana pillages Stonecrest (Glory 3) against Chaos' warrior there; Chaos' leader next door
    // would make Chaos the stronger: Chaos' AI brings it, and holds the province.
    let mut s = two();
    rage(&mut s, ANA, 1);
    put(&mut s, ANA, Fig::Warrior, prov("stonecrest"));
    put(&mut s, CHAOS, Fig::Leader, prov("southwatch"));
    s.submit(pillage("stonecrest")).expect("Ana pillages");
    assert_eq!(turn(&mut s), CHAOS);
    let (by, choice) = chaos_outpost::ai::decide(s.w());
    assert_eq!(by, Camp::Chaos);
    assert_eq!(choice.action, join(Fig::Leader, "southwatch"));
    assert!(
        choice.score > {
            // Worth more than the figure alone: the reward is at stake.
            let mut t = two();
            rules(&mut t, 2);
            rage(&mut t, ANA, 1);
            put(&mut t, ANA, Fig::Warrior, prov("stonecrest"));
            put(&mut t, CHAOS, Fig::Leader, prov("southwatch"));
            t.submit(pillage("stonecrest")).expect("Ana pillages");
            chaos_outpost::ai::decide(t.w()).1.score
        },
        "the reward counts for the defender"
    );
}

/// The chapter's level fields are checked when content loads: a village outside its province
/// is named by `check` at its line and field path; and a level that plays the clans while
/// `tracks.ron` lacks their Rage is refused at its `chapters` field (a track the chapter keeps,
/// `ChapterContent::tracks`), not silently read as 0.
#[test]
fn a_broken_field_or_a_missing_track_is_reported_by_check_at_its_line() {
    let (text, ps) = common::check_edited_level("clans", |t| {
        t.replace(
            "villages: [(2, -1), (3, -2)], reward: Glory(3)",
            "villages: [(2, -1), (9, 9)], reward: Glory(3)",
        )
    });
    let p = ps
        .iter()
        .find(|p| {
            p.field
                .starts_with("ext.clans.provinces[stonecrest].villages")
        })
        .unwrap_or_else(|| panic!("no problem at Stonecrest's villages: {ps:?}"));
    assert_eq!(p.severity, chaos_outpost::content::Severity::Error);
    assert_eq!(p.line, common::line_of(&text, "(9, 9)"), "{p:?}");
    // Without Rage in tracks.ron.
    let mut files = chaos_outpost::content::embedded_files();
    let tracks = files
        .iter_mut()
        .find(|f| f.path.ends_with("tracks.ron"))
        .expect("tracks.ron");
    let id = tracks.text.find("id: \"rage\"").expect("rage");
    let start = tracks.text[..id].rfind("\n    (").expect("its start");
    let end = id + tracks.text[id..].find("\n    ),").expect("its end") + "\n    ),".len();
    tracks.text.replace_range(start..end, "");
    let ps =
        chaos_outpost::content::ContentDb::from_files(files, &chaos_outpost::chapters::shipped())
            .expect_err("refused");
    let p = ps
        .iter()
        .find(|p| p.message.contains("keeps the track `rage`"))
        .unwrap_or_else(|| panic!("no problem for the missing track: {ps:?}"));
    assert!(p.file.ends_with("levels/clans.ron"), "{p:?}");
    assert_eq!(p.field, "chapters", "{p:?}");
}

/// C13 on the map: while the Eladrins may pillage, each province they may pillage has its token
/// clickable (`Mark::Choice`, at the province's name) sending exactly the action the rules list,
/// and no other province has one; the click's action is accepted: the call to battle (C14)
/// follows, or the province is pillaged at once.
#[test]
fn c13_a_pillage_is_clicked_on_the_provinces_token_on_the_map() {
    use chaos_outpost::rules::legal::legal_actions;
    use chaos_outpost::view::chapter_map::Mark;
    let tr = chaos_outpost::text::Translations::base("en");
    let mut s = game(|_, _| {});
    let mut seen = 0;
    for _ in 0..2000 {
        let mut pillages: Vec<Action> = legal_actions(s.w(), Camp::Eladrins)
            .into_iter()
            .filter(|a| {
                matches!(
                    chapter::decode::<ClanAction>(a),
                    Some(ClanAction::Pillage { .. })
                )
            })
            .collect();
        let on_turn = s.w().resource::<Cycle>().turn == Camp::Eladrins;
        if on_turn && !pillages.is_empty() {
            let mut clicks: Vec<Action> = clans::map::marks(s.w(), &tr)
                .into_iter()
                .filter_map(|m| match m {
                    Mark::Choice { action, .. } => Some(action),
                    _ => None,
                })
                .collect();
            clicks.sort_by_key(|a| format!("{a:?}"));
            pillages.sort_by_key(|a| format!("{a:?}"));
            assert_eq!(clicks, pillages, "the map's pillage tokens");
            let Some(ClanAction::Pillage { province }) = chapter::decode(&clicks[0]) else {
                panic!("not a pillage: {:?}", clicks[0]);
            };
            s.submit(clicks[0].clone()).expect("the click's pillage");
            let st = s.w().resource::<Clans>().clone();
            assert!(
                st.call.as_ref().is_some_and(|c| c.province == province)
                    || st.pillaged.contains(&province),
                "the pillage of {province} neither calls to battle nor is done (C13, C14)"
            );
            seen += 1;
            if seen == 3 {
                return;
            }
            continue;
        }
        let (by, a) = chaos_outpost::sim::next_action(s.w());
        s.submit_as(by, a).expect("the AI's action");
    }
    panic!("only {seen} pillages offered to the Eladrins");
}
