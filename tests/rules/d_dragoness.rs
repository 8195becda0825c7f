//! The chapter *The Dragoness* (`src/chapters/dragoness/`, rules D1–D13 of
//! `docs/chapters/dragoness.md`), one test per rule and the edge cases the rules raise, on the
//! shipped level `dragoness` (its route, chasm and rooms) with its fields changed where a test
//! needs it. Dice are scripted (the countdown's gems are a d6), token lists cut to one card.

use std::sync::Arc;

use bevy::prelude::World;
use chaos_outpost::chapters::dragoness::data::{CellKind, DragonessLevel, Find, Hazard, Speed};
use chaos_outpost::chapters::dragoness::guide::Told;
use chaos_outpost::chapters::dragoness::state::{Dragoness, Gone};
use chaos_outpost::chapters::dragoness::{self as dragon, DragonAction, DragonRefusal, GEMS};
use chaos_outpost::content::{Camp, Level, Res};
use chaos_outpost::rules::chapter;
use chaos_outpost::rules::outcome::EndReason;
use chaos_outpost::rules::tracks::{self, Holder};
use chaos_outpost::rules::units::Census;
use chaos_outpost::rules::{Action, Army, Chronicle, Cycle, GameEvent, GameWorld, Outcome, setup};

use crate::common::{self, Scn};

/// The dragoness level, its fields changed by `edit`, started with seed 7; nothing played yet
/// beyond the cycle's first decision.
fn game(edit: impl FnOnce(&mut Level, &mut DragonessLevel)) -> Scn {
    let db = common::with_chapter_level("dragoness", edit);
    let mut app = setup::headless_app(Arc::new(db));
    setup::start_game(app.world_mut(), "dragoness", None, 7).expect("the level starts");
    Scn { app }
}

/// The shipped level as it is.
fn shipped() -> Scn {
    game(|_, _| {})
}

/// Puts the game at the start of `step` and lets the driver enter it.
fn enter(s: &mut Scn, step: &str) {
    s.enter_step(step);
}

fn state(s: &mut Scn) -> Dragoness {
    s.w().resource::<Dragoness>().clone()
}

fn set(s: &mut Scn, f: impl FnOnce(&mut Dragoness)) {
    f(&mut s.w().resource_mut::<Dragoness>());
}

fn gems(w: &World, camp: Camp) -> i32 {
    tracks::get(w, GEMS, Holder::Camp(camp))
}

fn set_gems(s: &mut Scn, camp: Camp, n: i32) {
    let now = gems(s.w(), camp);
    tracks::add(s.w(), GEMS, Holder::Camp(camp), n - now);
}

fn act(a: DragonAction) -> Action {
    chapter::encode(&a)
}

fn advance_(toward: Option<(i32, i32)>) -> Action {
    act(DragonAction::Advance { toward })
}

fn brake() -> Action {
    act(DragonAction::Brake { toward: None })
}

fn refusal(r: DragonRefusal) -> chaos_outpost::rules::Refusal {
    chapter::refusal(dragon::ID, &r)
}

/// The level's teams, by id (their starting hexes in the level's order: Enoriel's team first).
fn teams(s: &mut Scn) -> Vec<u32> {
    let t = [(0, -1), (-1, 1), (1, 1)];
    t.iter().map(|at| s.army_id(*at, Camp::Eladrins)).collect()
}

fn place(s: &mut Scn, id: u32, at: (i32, i32)) {
    s.army_mut(id, |a| a.hex = common::hex(at));
}

fn route(s: &mut Scn) -> Vec<(i32, i32)> {
    dragon::data::level(s.w())
        .route
        .iter()
        .map(|c| c.at)
        .collect()
}

fn told(s: &mut Scn) -> Vec<Told> {
    s.w()
        .resource::<Chronicle>()
        .0
        .iter()
        .filter_map(|e| match e {
            GameEvent::Chapter { chapter, what } if chapter == dragon::ID => what.get(),
            _ => None,
        })
        .collect()
}

/// Takes Enoriel out of the first team (so D4 does not spare it).
/// The countdown's last draw as the panel shows it: its colour, and whether it was placed.
fn last_gem(s: &mut Scn) -> Option<(usize, bool)> {
    let w = s.w();
    dragon::panel::last_gem(w)
}

fn no_hero(level: &mut Level) {
    level.armies[1].units = vec!["ranger".into(), "warden".into()];
}

/// A game with the Guide's turn open, her on route cell `at`.
fn guide_at(at: usize, edit: impl FnOnce(&mut Level, &mut DragonessLevel)) -> Scn {
    let mut s = game(edit);
    set(&mut s, |d| d.at = at);
    enter(&mut s, dragon::GUIDE_STEP);
    s
}

/// A Guide's turn with her on Maender-Alkoor (route cell 2), the level edited, team `k` placed on
/// route cell `cells[k]`, `before` run, then her advance: the game and the teams.
fn advance_over(
    edit: impl FnOnce(&mut Level, &mut DragonessLevel),
    cells: &[usize],
    before: impl FnOnce(&mut Scn, &[u32]),
) -> (Scn, Vec<u32>) {
    let mut s = guide_at(2, edit);
    let t = teams(&mut s);
    let r = route(&mut s);
    for (k, c) in cells.iter().enumerate() {
        place(&mut s, t[k], r[*c]);
    }
    before(&mut s, &t);
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    (s, t)
}

#[test]
fn d1_on_her_red_cells_the_guide_only_advances_her_one_cell_for_a_gem() {
    let mut s = guide_at(0, |_, _| {});
    assert_eq!(s.w().step_id(), dragon::GUIDE_STEP, "the Guide decides");
    let before = gems(s.w(), Camp::Chaos);
    // D1: no brake on a red cell, whatever the gems.
    s.refused_as(Camp::Chaos, brake(), refusal(DragonRefusal::RedCell));
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(state(&mut s).at, 1, "one cell, not the 4 of three teams");
    assert_eq!(gems(s.w(), Camp::Chaos), before + 1);
    // The step is over: the main phase follows.
    assert_eq!(s.w().step_id(), "R9");
}

#[test]
fn d2_an_advance_moves_her_by_the_active_teams() {
    // 1–3 teams: +4; 4 teams: +3 (exactly 4 is the middle row); 5–6: +2.
    for (extra, cells) in [(0usize, 4usize), (1, 3), (2, 2), (3, 2)] {
        let mut s = guide_at(2, |level, ext| {
            let spots = [(2, 0), (1, 0), (0, 1)];
            for at in spots.iter().take(extra) {
                level.armies.push(chaos_outpost::content::ArmyStart {
                    camp: Camp::Eladrins,
                    at: *at,
                    units: vec!["ranger".into()],
                    seat: None,
                });
                ext.teams.push(*at);
            }
        });
        assert_eq!(state(&mut s).teams.len(), 3 + extra);
        s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
        assert_eq!(state(&mut s).at, 2 + cells, "{} teams", 3 + extra);
    }
}

#[test]
fn d2_a_lost_team_makes_her_faster() {
    let mut s = guide_at(2, |_, ext| {
        ext.speeds = vec![Speed { teams: 2, cells: 4 }, Speed { teams: 3, cells: 2 }]
    });
    let t = teams(&mut s);
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(state(&mut s).at, 4, "3 teams: 2 cells");
    dragon::guide::lose(s.w(), t[2], "D4");
    enter(&mut s, dragon::GUIDE_STEP);
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(state(&mut s).at, 8, "2 teams left: 4 cells");
}

#[test]
fn d2_a_brake_moves_her_one_cell_for_a_gem_and_needs_the_gem() {
    let mut s = guide_at(2, |_, _| {});
    set_gems(&mut s, Camp::Chaos, 1);
    s.submit_as(Camp::Chaos, brake()).expect("brake");
    assert_eq!(state(&mut s).at, 3);
    assert_eq!(gems(s.w(), Camp::Chaos), 0);
    enter(&mut s, dragon::GUIDE_STEP);
    s.refused_as(
        Camp::Chaos,
        brake(),
        refusal(DragonRefusal::NoGems { need: 1, have: 0 }),
    );
}

#[test]
fn d2_the_guide_must_move_her_before_its_turn_ends() {
    let mut s = guide_at(2, |_, _| {});
    s.refused_as(Camp::Chaos, Action::Done, refusal(DragonRefusal::MustMove));
    // Nor may the Eladrins move her when Chaos guides.
    let got = s.submit_as(Camp::Eladrins, advance_(None));
    assert!(
        matches!(
            got,
            Err(chaos_outpost::rules::Refusal::NotYourTurn {
                expected: Camp::Chaos
            })
        ),
        "{got:?}"
    );
}

#[test]
fn d3_her_stop_on_a_mystery_token_gives_the_guide_its_gems() {
    // From Maender-Alkoor (2) four cells land on route cell 6; make it a mystery token.
    let mut s = guide_at(2, |_, ext| {
        ext.route[6].kind = CellKind::Mystery;
        ext.mysteries = vec![Find {
            name: "Old Cache".into(),
            gems: 3,
            ..Find::default()
        }];
    });
    let before = gems(s.w(), Camp::Chaos);
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(
        gems(s.w(), Camp::Chaos),
        before + 1 + 3,
        "advance +1, token +3"
    );
    assert_eq!(state(&mut s).taken, vec![6]);
    assert!(told(&mut s).contains(&Told::Token {
        name: "Old Cache".into(),
        by_her: true
    }));
}

#[test]
fn d3_her_stop_on_a_zone_hazard_is_paid_and_won_and_an_empty_cell_does_nothing() {
    let mut s = guide_at(2, |_, ext| {
        ext.route[6].kind = CellKind::Hazard;
        ext.route[10].kind = CellKind::Course;
        ext.hazards = vec![Hazard {
            cost: 2,
            find: Find {
                name: "Sulphur Vents".into(),
                gems: 3,
                ..Find::default()
            },
        }];
    });
    let before = gems(s.w(), Camp::Chaos);
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(gems(s.w(), Camp::Chaos), before + 1 - 2 + 3);
    // Next turn she stops on an ordinary cell (10): only the advance's gem.
    enter(&mut s, dragon::GUIDE_STEP);
    let before = gems(s.w(), Camp::Chaos);
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(state(&mut s).at, 10);
    assert_eq!(gems(s.w(), Camp::Chaos), before + 1);
    assert_eq!(state(&mut s).taken, vec![6], "a token is taken once");
}

#[test]
fn d4_a_team_she_crosses_is_lost_its_units_dead_and_a_rip_token_left() {
    let mut s = guide_at(2, |level, _| no_hero(level));
    let t = teams(&mut s);
    let r = route(&mut s);
    place(&mut s, t[0], r[4]);
    let units = s.army_at(r[4], Camp::Eladrins).expect("team").units.len() as u32;
    let died = s.w().resource::<Census>().died;
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert!(s.w().army_by_id(t[0]).is_none(), "the army is gone");
    assert_eq!(
        s.w().resource::<Census>().died,
        died + units,
        "its units died"
    );
    let st = state(&mut s);
    assert!(!st.teams.contains_key(&t[0]));
    assert_eq!(st.rips().collect::<Vec<_>>(), vec![r[4]], "a RIP token");
    assert!(told(&mut s).iter().any(|x| matches!(x,
        Told::TeamLost { army, rule, .. } if *army == t[0] && rule == "D4")));
    chaos_outpost::rules::invariants::check(s.w()).expect("units are conserved");
}

#[test]
fn d4_a_team_with_enoriel_alive_is_not_eliminated() {
    let (mut s, t) = advance_over(|_, _| {}, &[4], |_, _| {});
    assert!(s.w().army_by_id(t[0]).is_some(), "Enoriel's team stands");
    assert!(told(&mut s).iter().any(|x| matches!(x,
        Told::TeamSpared { army, why: dragon::guide::Spared::Hero } if *army == t[0])));
    // Enoriel dead: the same crossing loses the team.
    let (mut s, t) = advance_over(
        |_, _| {},
        &[4],
        |s, t| s.army_mut(t[0], |a| a.units.retain(|u| u.kind != "enoriel")),
    );
    assert!(s.w().army_by_id(t[0]).is_none());
}

/// Sets what the first team has before her advance crosses it (route cell 4), Enoriel away.
fn crossed_with(f: impl FnOnce(&mut chaos_outpost::chapters::dragoness::state::Team, u32)) -> bool {
    let (mut s, t) = advance_over(
        |level, _| no_hero(level),
        &[4],
        |s, t| {
            let cycle = s.w().resource::<Cycle>().number;
            set(s, |d| f(d.teams.get_mut(&t[0]).expect("team"), cycle));
        },
    );
    s.w().army_by_id(t[0]).is_some()
}

#[test]
fn d4_the_spirit_of_okaenia_the_draconis_ring_and_invincibility_spare_a_team() {
    assert!(crossed_with(|t, _| t
        .quests
        .push("spirit_of_okaenia".into())));
    assert!(crossed_with(|t, _| t.ring = true));
    assert!(crossed_with(|t, cycle| t.invincible_until = cycle));
    // The Chromatic Effect does not spare (D4 names the Spirit of Okaënia only).
    assert!(!crossed_with(|t, _| t
        .quests
        .push("chromatic_effect".into())));
}

#[test]
fn d4_invincibility_ends_after_its_cycles() {
    assert!(
        !crossed_with(|t, cycle| t.invincible_until = cycle - 1),
        "last cycle's invincibility is over"
    );
}

#[test]
fn d5_a_move_that_ends_on_a_pawn_goes_one_cell_more() {
    // Enoriel's team (spared) stands where the advance would end.
    let (mut s, t) = advance_over(|_, _| {}, &[6], |_, _| {});
    assert_eq!(state(&mut s).at, 7);
    assert!(s.w().army_by_id(t[0]).is_some());
}

#[test]
fn d5_stopping_on_a_pawn_then_on_another_goes_on_again() {
    let (mut s, t) = advance_over(
        |_, _| {},
        &[6, 7],
        |s, t| {
            set(s, |d| {
                let team = d.teams.get_mut(&t[1]).expect("team");
                team.quests.push("spirit_of_okaenia".into())
            })
        },
    );
    assert_eq!(state(&mut s).at, 8, "past both pawns");
    assert!(s.w().army_by_id(t[1]).is_some(), "both spared");
}

#[test]
fn d5_a_lost_teams_pawn_counts_where_she_stops() {
    // The pawn is there when her move ends: she goes on one cell, and the team is lost.
    let (mut s, t) = advance_over(|level, _| no_hero(level), &[6], |_, _| {});
    assert_eq!(state(&mut s).at, 7);
    assert!(s.w().army_by_id(t[0]).is_none());
}

#[test]
fn d6_reaching_the_gate_seals_it_and_removes_the_teams_outside() {
    let mut s = guide_at(7, |level, _| no_hero(level));
    let t = teams(&mut s);
    let r = route(&mut s);
    // One team in the chasm, one on the Gate (inside, but crossed), one at home.
    place(&mut s, t[0], (-5, 3));
    place(&mut s, t[1], *r.last().expect("gate"));
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    let st = state(&mut s);
    assert_eq!(st.at, r.len() - 1, "four cells from 7: the Gate");
    assert!(st.sealed);
    assert!(st.teams.contains_key(&t[0]), "inside: still a team");
    assert!(!st.teams.contains_key(&t[1]), "crossed on the Gate: lost");
    assert!(!st.teams.contains_key(&t[2]), "outside: removed");
    let home = s.army_by_id_hex(t[2]);
    assert_eq!(home, (0, 0), "its heroes live: back at the outpost");
    assert!(st.gone.contains(&(t[2], None, (1, 1), Gone::Removed)));
    assert!(
        st.ghosts.is_empty(),
        "one seat, with a team still in the chasm"
    );
}

#[test]
fn d6_a_seat_whose_teams_all_left_the_board_becomes_a_ghost_guide() {
    let mut s = guide_at(7, |level, _| {
        for (k, a) in level.armies.iter_mut().skip(1).take(3).enumerate() {
            a.seat = Some(k as u8);
        }
    });
    let t = teams(&mut s);
    place(&mut s, t[0], (-5, 3));
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    assert_eq!(
        state(&mut s).ghosts,
        vec![1, 2],
        "the seats of the two teams outside"
    );
}

#[test]
fn d6_passing_the_gate_without_stopping_on_it_seals_it_too() {
    let mut s = guide_at(9, |_, _| {});
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    let st = state(&mut s);
    assert!(st.sealed);
    assert!(st.deep.is_some(), "she walked on into the chasm");
}

#[test]
fn d6_once_sealed_no_team_leaves_or_enters_and_only_teams_ever_enter() {
    let mut s = shipped();
    let t = teams(&mut s);
    let gate = *route(&mut s).last().expect("gate");
    // Before the seal: a team walks in by the Gate; the garrison may not.
    place(&mut s, t[1], GATE_OUT);
    enter(&mut s, "R9");
    s.submit(Action::Activate { army: t[1] }).expect("activate");
    s.submit(Action::Move { to: (-4, 0) })
        .expect("a team enters");
    // Its points spent, the activation may have ended by itself.
    let _ = s.submit(Action::EndActivation);
    let garrison = s.army_id((0, 0), Camp::Eladrins);
    place(&mut s, garrison, GATE_OUT);
    let _ = s.submit_as(Camp::Chaos, Action::Pass);
    s.submit(Action::Activate { army: garrison })
        .expect("activate");
    s.refused(
        Action::Move { to: gate },
        refusal(DragonRefusal::NotATeam(garrison)),
    );
    // Sealed: the team inside may not leave.
    set(&mut s, |d| d.sealed = true);
    enter(&mut s, "R9");
    s.submit(Action::Activate { army: t[1] }).expect("activate");
    s.refused(
        Action::Move { to: GATE_OUT },
        refusal(DragonRefusal::GateSealed),
    );
    let legal = chaos_outpost::rules::legal::legal_actions(s.w(), Camp::Eladrins);
    let lvl = dragon::data::level(s.w());
    assert!(
        legal
            .iter()
            .all(|a| !matches!(a, Action::Move { to } if !lvl.inside(common::hex(*to)))),
        "no legal move leaves the chasm"
    );
    assert!(
        legal.iter().any(|a| matches!(a, Action::Move { .. })),
        "moves inside remain"
    );
}

/// A hex outside the chasm next to the Gate.
const GATE_OUT: (i32, i32) = (-3, -2);

#[test]
fn d7_in_the_chasm_she_heads_for_the_nearest_hidden_room_and_the_guide_chooses_between_rooms_as_near()
 {
    // At the Gate: the Hall of Echoes and the Crystal Gallery are both 2 cells away.
    let mut s = guide_at(11, |_, _| {});
    let legal = chaos_outpost::rules::legal::legal_actions(s.w(), Camp::Chaos);
    assert!(legal.contains(&advance_(Some((-6, 1)))));
    assert!(legal.contains(&advance_(Some((-4, 1)))));
    // A room farther away is not the Guide's to choose.
    s.refused_as(
        Camp::Chaos,
        advance_(Some((-7, 3))),
        refusal(DragonRefusal::NotNearest((-7, 3))),
    );
    s.submit_as(Camp::Chaos, advance_(Some((-4, 1))))
        .expect("advance");
    let st = state(&mut s);
    assert_eq!(
        st.deep,
        Some((-4, 1)),
        "she stops in the room she reveals (D8)"
    );
    assert_eq!(st.revealed, vec!["crystal_gallery".to_string()]);
    // The other choice, in a second game.
    let mut s = guide_at(11, |_, _| {});
    s.submit_as(Camp::Chaos, advance_(Some((-6, 1))))
        .expect("advance");
    assert_eq!(state(&mut s).deep, Some((-6, 1)));
}

#[test]
fn d7_once_the_white_tomb_is_revealed_she_heads_for_it() {
    let mut s = guide_at(11, |_, _| {});
    set(&mut s, |d| d.revealed.push("white_tomb".into()));
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    let st = state(&mut s);
    // Four cells from the Gate towards (-7, 3): she is there, for good (D10).
    assert_eq!(st.deep, Some((-7, 3)));
    assert!(st.entombed);
    assert!(st.revealed.len() == 1, "no other room on her way");
}

#[test]
fn d8_a_room_she_reveals_is_paid_by_the_guide_and_she_stays_there() {
    let mut s = guide_at(11, |_, _| {});
    set_gems(&mut s, Camp::Chaos, 5);
    s.submit_as(Camp::Chaos, advance_(Some((-6, 1))))
        .expect("advance");
    // +1 for the advance, -1 for the Hall's reveal.
    assert_eq!(gems(s.w(), Camp::Chaos), 5);
    assert_eq!(state(&mut s).deep, Some((-6, 1)));
    assert!(told(&mut s).contains(&Told::Revealed {
        room: "hall_of_echoes".into(),
        name: "Hall of Echoes".into(),
        by_her: true
    }));
}

#[test]
fn d8_a_team_that_walks_into_a_hidden_room_reveals_it_and_finds_what_it_holds() {
    let mut s = shipped();
    let t = teams(&mut s);
    place(&mut s, t[1], (-5, 0));
    enter(&mut s, "R9");
    let crystal = |s: &mut Scn| s.outpost("Dawnspire").stock.get(Res::Crystal);
    let before = crystal(&mut s);
    s.submit(Action::Activate { army: t[1] }).expect("activate");
    s.submit(Action::Move { to: (-6, 1) })
        .expect("into the Hall");
    assert!(state(&mut s).is_revealed("hall_of_echoes"));
    assert_eq!(crystal(&mut s), before + 2, "the Echoing Hoard");
}

#[test]
fn d9_the_octuple_revealed_by_her_places_the_portal_token_and_its_guardian_dies() {
    let mut s = guide_at(11, |_, _| {});
    set(&mut s, |d| {
        d.deep = Some((-6, 3));
        d.revealed = vec![
            "hall_of_echoes".into(),
            "crystal_gallery".into(),
            "well_of_whispers".into(),
            "white_tomb".into(),
        ];
        d.revealed.retain(|r| r != "white_tomb");
    });
    // Nearest hidden from (-6, 3): the Octuple (-6, 4) and the Tomb (-7, 3), both 1 away.
    s.submit_as(Camp::Chaos, advance_(Some((-6, 4))))
        .expect("advance");
    let st = state(&mut s);
    assert!(st.portal);
    assert!(
        s.army_at((-6, 4), Camp::Chaos).is_none(),
        "no guardian where she revealed it"
    );
}

#[test]
fn d9_a_team_beats_the_guardian_then_takes_the_relic_and_may_leave_by_the_portal_token() {
    let mut s = shipped();
    let t = teams(&mut s);
    place(&mut s, t[1], (-6, 3));
    enter(&mut s, "R9");
    s.submit(Action::Activate { army: t[1] }).expect("activate");
    s.submit(Action::Move { to: (-6, 4) })
        .expect("into the Octuple");
    let _ = s.submit(Action::EndActivation);
    assert!(state(&mut s).portal);
    let guardian = s.army_at((-6, 4), Camp::Chaos).expect("its guardian");
    let kinds: Vec<&str> = guardian.units.iter().map(|u| u.kind.as_str()).collect();
    assert_eq!(kinds, ["husk", "imp"]);
    assert!(
        state(&mut s).teams[&t[1]].relics.is_empty(),
        "the guardian holds the relic token"
    );
    // The guardian holds its room: Chaos may not march it off.
    let _ = s.submit_as(Camp::Chaos, Action::Activate { army: guardian.id });
    s.refused_as(
        Camp::Chaos,
        Action::Move { to: (-6, 3) },
        refusal(DragonRefusal::GuardianHolds(guardian.id)),
    );
    let _ = s.submit_as(Camp::Chaos, Action::EndActivation);
    let escape = act(DragonAction::Escape { army: t[1] });
    s.refused(escape.clone(), refusal(DragonRefusal::Guarded));
    // Beaten (here: taken off the board): the next action finds the room free, the team takes
    // its relic token, and the way out is open.
    let e = s.w().army_by_id(guardian.id).expect("guardian");
    s.w().despawn(e);
    s.submit(Action::Activate { army: t[0] })
        .expect("another team's turn");
    let _ = s.submit(Action::EndActivation);
    let _ = s.submit_as(Camp::Chaos, Action::Pass);
    assert_eq!(
        state(&mut s).teams[&t[1]].relics,
        vec!["chromatic_effect".to_string()]
    );
    s.submit(escape).expect("escape");
    let st = state(&mut s);
    assert!(!st.teams.contains_key(&t[1]));
    assert!(st.gone.iter().any(|g| g.0 == t[1] && g.3 == Gone::Escaped));
    assert_eq!(s.army_by_id_hex(t[1]), (0, 0));
}

#[test]
fn d9_another_rooms_guardian_wakes_when_she_reveals_it() {
    let mut s = guide_at(11, |_, _| {});
    s.submit_as(Camp::Chaos, advance_(Some((-4, 1))))
        .expect("advance");
    // The Crystal Gallery has no guardian; give the Hall one and reveal it.
    assert!(s.army_at((-4, 1), Camp::Chaos).is_none());
    let mut s = guide_at(11, |_, ext| {
        let hall = ext
            .rooms
            .iter_mut()
            .find(|r| r.id == "hall_of_echoes")
            .expect("hall");
        hall.guardian = vec!["husk".into()];
    });
    s.submit_as(Camp::Chaos, advance_(Some((-6, 1))))
        .expect("advance");
    let g = s
        .army_at((-6, 1), Camp::Chaos)
        .expect("the Hall's guardian");
    assert!(state(&mut s).guardians.contains(&g.id));
}

#[test]
fn d10_in_the_white_tomb_she_stops_for_good_and_the_countdown_starts_next_turn() {
    let mut s = guide_at(11, |_, _| {});
    set(&mut s, |d| d.revealed.push("white_tomb".into()));
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    let st = state(&mut s);
    assert!(st.entombed);
    assert_eq!(st.placed(), 0, "no gem the turn she arrives");
    // The next Guide turn: a gem, and no move (the step closes by itself).
    s.dice(&[3]);
    enter(&mut s, dragon::GUIDE_STEP);
    assert_eq!(state(&mut s).placed(), 1);
    assert_eq!(s.w().step_id(), "R9", "nothing for the Guide to decide");
    enter(&mut s, dragon::GUIDE_STEP);
    let _ = s.w();
    // The step has closed; an advance now is not its step.
    let now = s.w().step_id().to_string();
    s.refused_as(
        Camp::Chaos,
        advance_(None),
        chaos_outpost::rules::Refusal::WrongStep {
            needs: vec![dragon::GUIDE_STEP.into()],
            now,
        },
    );
}

#[test]
fn d10_she_does_not_move_from_the_tomb() {
    let mut s = guide_at(11, |_, _| {});
    set(&mut s, |d| {
        d.deep = Some((-7, 3));
        d.entombed = true;
        d.slots = vec![false; 5];
        d.moved = false;
    });
    // The Guide's step is closed at once; a plan from the Tomb is refused.
    let lvl = dragon::data::level(s.w());
    let st = state(&mut s);
    assert_eq!(
        dragon::guide::plan(s.w(), &lvl, &st, false, None),
        Err(DragonRefusal::Entombed)
    );
}

/// A game with her in the Tomb, `placed` colours on the countdown (first ones), at the Guide's
/// step not yet entered.
fn counting(placed: usize) -> Scn {
    let mut s = shipped();
    set(&mut s, |d| {
        d.deep = Some((-7, 3));
        d.at = 11;
        d.sealed = true;
        d.entombed = true;
        d.revealed.push("white_tomb".into());
        d.slots = (0..5).map(|i| i < placed).collect();
    });
    s
}

#[test]
fn d11_each_guide_turn_draws_a_gem_onto_its_colours_slot() {
    let mut s = counting(0);
    s.dice(&[6, 2]);
    enter(&mut s, dragon::GUIDE_STEP);
    assert_eq!(
        state(&mut s).slots,
        vec![false, true, false, false, false],
        "a 6 is rolled again; a 2 is the second colour"
    );
    assert!(told(&mut s).iter().any(|x| matches!(x,
        Told::Gem { colour: 1, placed: true, name } if name == "blue")));
    assert_eq!(last_gem(&mut s), Some((1, true)));
}

#[test]
fn d11_a_gem_of_a_colour_placed_already_is_kept_by_the_guide() {
    let mut s = counting(2);
    let before = gems(s.w(), Camp::Chaos);
    s.dice(&[1]);
    enter(&mut s, dragon::GUIDE_STEP);
    assert_eq!(state(&mut s).placed(), 2, "nothing new on the countdown");
    assert_eq!(
        gems(s.w(), Camp::Chaos),
        before + 1,
        "the Guide keeps the gem"
    );
    // The panel shows which was drawn and that it was kept.
    assert_eq!(last_gem(&mut s), Some((0, false)));
}

#[test]
fn d12_all_colours_placed_lose_every_team_in_the_chasm_and_end_the_game() {
    let mut s = counting(4);
    let t = teams(&mut s);
    place(&mut s, t[0], (-5, 2)); // in the chasm (Enoriel does not spare from D12)
    s.dice(&[5]);
    enter(&mut s, dragon::GUIDE_STEP);
    let st = state(&mut s);
    assert_eq!(st.placed(), 5);
    assert!(s.w().army_by_id(t[0]).is_none(), "lost in the chasm");
    assert!(s.w().army_by_id(t[1]).is_some(), "outside it, untouched");
    let o = s.w().resource::<Outcome>().clone();
    assert_eq!(o.winner, Some(Camp::Chaos));
    assert_eq!(
        o.reason,
        Some(EndReason::Chapter {
            chapter: dragon::ID.into(),
            code: "countdown".into()
        })
    );
}

/// Counting with a team holding step I of a quest and its relic token in the Tomb, the main
/// phase open.
fn at_the_tomb(placed: usize) -> (Scn, u32) {
    let mut s = counting(placed);
    let t = teams(&mut s);
    place(&mut s, t[1], (-7, 3));
    set(&mut s, |d| {
        let team = d.teams.get_mut(&t[1]).expect("team");
        team.quests.push("chromatic_effect".into());
        team.relics.push("chromatic_effect".into());
        d.quests.push("chromatic_effect".into());
        // Its offerings taken already.
        d.looted.push("white_tomb".into());
    });
    enter(&mut s, "R9");
    (s, t[1])
}

fn relic(army: u32, q: &str) -> Action {
    act(DragonAction::PlaceRelic {
        army,
        quest: q.into(),
    })
}

#[test]
fn d13_the_relic_stops_the_countdown_and_its_gems_go_to_the_team() {
    let (mut s, id) = at_the_tomb(3);
    let before = gems(s.w(), Camp::Eladrins);
    s.submit(relic(id, "chromatic_effect")).expect("relic");
    let st = state(&mut s);
    assert_eq!(st.relic.as_deref(), Some("chromatic_effect"));
    assert_eq!(st.placed(), 0, "the slots are emptied");
    assert_eq!(gems(s.w(), Camp::Eladrins), before + 3);
    assert!(
        told(&mut s)
            .iter()
            .any(|x| matches!(x, Told::Relic { army, gems: 3, .. } if *army == id))
    );
    let o = s.w().resource::<Outcome>().clone();
    assert_eq!(o.winner, Some(Camp::Eladrins));
}

#[test]
fn d13_the_relic_placed_the_turn_the_fifth_colour_would_be_drawn_wins() {
    let (mut s, id) = at_the_tomb(4);
    s.submit(relic(id, "chromatic_effect")).expect("relic");
    assert_eq!(s.w().resource::<Outcome>().winner, Some(Camp::Eladrins));
    // The game is over: no Guide turn draws the fifth colour.
    let placed = state(&mut s).placed();
    assert_eq!(placed, 0);
}

#[test]
fn d13_the_relic_needs_step_one_its_token_the_tomb_her_in_it_and_no_guardian() {
    // No step I of that quest.
    let (mut s, id) = at_the_tomb(1);
    s.refused(
        relic(id, "spirit_of_okaenia"),
        refusal(DragonRefusal::NoStepOne("spirit_of_okaenia".into())),
    );
    // Step I but not the relic token.
    let (mut s, id) = at_the_tomb(1);
    set(&mut s, |d| {
        d.teams.get_mut(&id).expect("team").relics.clear()
    });
    s.refused(
        relic(id, "chromatic_effect"),
        refusal(DragonRefusal::NoRelic("chromatic_effect".into())),
    );
    // Not in the Tomb.
    let (mut s, id) = at_the_tomb(1);
    s.army_mut(id, |a| a.hex = common::hex((-6, 3)));
    s.refused(
        relic(id, "chromatic_effect"),
        refusal(DragonRefusal::NotInTomb),
    );
    // She is not in it yet: no countdown to stop.
    let (mut s, id) = at_the_tomb(1);
    set(&mut s, |d| d.entombed = false);
    s.refused(
        relic(id, "chromatic_effect"),
        refusal(DragonRefusal::NoCountdown),
    );
    // A guardian holds it.
    let (mut s, id) = at_the_tomb(1);
    chaos_outpost::rules::units::spawn(s.w(), Camp::Chaos, common::hex((-7, 3)), "husk", 1);
    s.refused(
        relic(id, "chromatic_effect"),
        refusal(DragonRefusal::Guarded),
    );
    // Not a team; and a team of another seat.
    let (mut s, id) = at_the_tomb(1);
    let garrison = s.army_id((0, 0), Camp::Eladrins);
    s.refused(
        relic(garrison, "chromatic_effect"),
        refusal(DragonRefusal::NotATeamArmy(garrison)),
    );
    s.army_mut(id, |a| a.seat = Some(1));
    s.refused(
        relic(id, "chromatic_effect"),
        refusal(DragonRefusal::NotYourTeam(id)),
    );
}

#[test]
fn quests_are_revealed_once_on_their_site_as_a_teams_turn() {
    let mut s = shipped();
    let t = teams(&mut s);
    place(&mut s, t[1], (-1, -1));
    place(&mut s, t[2], (-1, -1));
    enter(&mut s, "R9");
    let reveal = |army: u32, q: &str| {
        act(DragonAction::RevealQuest {
            army,
            quest: q.into(),
        })
    };
    s.refused(
        reveal(t[1], "chromatic_effect"),
        refusal(DragonRefusal::NotOnSite((-5, 2))),
    );
    s.submit(reveal(t[1], "spirit_of_okaenia")).expect("step I");
    assert_eq!(state(&mut s).teams[&t[1]].quests, vec!["spirit_of_okaenia"]);
    // It was the Eladrins' turn: Chaos plays now.
    assert_eq!(s.w().resource::<Cycle>().turn, Camp::Chaos);
    let _ = s.submit_as(Camp::Chaos, Action::Pass);
    s.refused(
        reveal(t[2], "spirit_of_okaenia"),
        refusal(DragonRefusal::QuestKnown("spirit_of_okaenia".into())),
    );
    // Not during an activation: it is a turn of its own.
    s.submit(Action::Activate { army: t[2] }).expect("activate");
    let got = s.submit(reveal(t[2], "chromatic_effect"));
    assert!(
        matches!(got, Err(chaos_outpost::rules::Refusal::ActivationOpen(_))),
        "{got:?}"
    );
}

#[test]
fn rations_feed_the_teams_far_from_any_outpost_until_they_run_out() {
    let mut s = game(|_, ext| ext.rations = 1);
    let t = teams(&mut s);
    place(&mut s, t[1], (-5, 2));
    // The driver plays the rations, then the upkeep (R5) right after.
    enter(&mut s, dragon::RATIONS_STEP);
    let famine = |s: &mut Scn| {
        s.armies()
            .into_iter()
            .find(|a| a.id == t[1])
            .map(|a| a.famine)
    };
    assert_eq!(famine(&mut s), Some(0), "fed from its rations");
    assert_eq!(state(&mut s).teams[&t[1]].rations, 0);
    enter(&mut s, dragon::RATIONS_STEP);
    assert_eq!(famine(&mut s), Some(1), "none left: famine (R5.4)");
}

#[test]
fn a_team_stays_one_pawn() {
    let mut s = shipped();
    let t = teams(&mut s);
    let garrison = s.army_id((0, 0), Camp::Eladrins);
    place(&mut s, t[0], (0, 0));
    enter(&mut s, "R9");
    s.submit(Action::Activate { army: garrison })
        .expect("activate");
    s.refused(
        Action::Merge { from: t[0] },
        refusal(DragonRefusal::TeamStaysWhole(t[0])),
    );
}

#[test]
fn a_broken_route_stops_the_level_from_starting_naming_the_field() {
    let mut db = common::base();
    let mut level = db.levels.get("dragoness").cloned().expect("level");
    let mut ext: DragonessLevel = level
        .ext
        .get("dragoness")
        .expect("ext")
        .into_rust()
        .expect("reads");
    ext.route.remove(5);
    ext.rooms.retain(|r| r.id != "white_tomb");
    level.ext.insert(
        "dragoness".into(),
        ron::value::RawValue::from_rust(&ext).expect("writes"),
    );
    db.levels.insert("dragoness".into(), level);
    // The levels' chapter fields are read when content is indexed.
    db.reindex();
    let mut app = setup::headless_app(Arc::new(db));
    let e = setup::start_game(app.world_mut(), "dragoness", None, 1).expect_err("refused");
    assert!(e.contains("ext.dragoness"), "{e}");
    assert!(e.contains("are not neighbours"), "{e}");
    assert!(e.contains("one White Tomb"), "{e}");
}

#[test]
fn a_saved_state_over_its_bounds_is_refused() {
    use chaos_outpost::rules::chapter::{ChapterState, StateCheck};
    let db = common::base();
    let cx = StateCheck {
        db: &db,
        level: &db.levels["dragoness"],
        seats: 1,
    };
    let mut d = Dragoness::default();
    assert!(d.check(&cx).is_ok());
    d.slots = vec![false; 7];
    assert!(d.check(&cx).is_err());
    let d = Dragoness {
        at: 5000,
        ..Dragoness::default()
    };
    assert!(d.check(&cx).is_err());
}

#[test]
fn the_chapters_state_is_saved_hashed_and_restored() {
    let mut s = guide_at(2, |_, _| {});
    s.submit_as(Camp::Chaos, advance_(None)).expect("advance");
    let snap = chaos_outpost::rules::snapshot::capture(s.w());
    let h = s.hash();
    let text = ron::to_string(&snap).expect("writes");
    let mut s2 = shipped();
    let back: chaos_outpost::rules::snapshot::Snapshot = ron::from_str(&text).expect("reads");
    chaos_outpost::rules::snapshot::restore(s2.w(), &back).expect("restores");
    assert_eq!(state(&mut s2), state(&mut s));
    assert_eq!(s2.hash(), h);
    // The state is in the hash: moving her changes it.
    set(&mut s2, |d| d.at += 1);
    assert_ne!(s2.hash(), h);
}

#[test]
fn a_whole_game_played_twice_is_the_same_game() {
    let play = || {
        let db = Arc::new(common::base());
        let (_, r) = chaos_outpost::sim::play_game(db, "dragoness", None, 11, 40).expect("plays");
        (r.hash, r.cycles, r.actions)
    };
    let a = play();
    let b = play();
    assert!(a.2 > 20, "a real game: {a:?}");
    assert_eq!(a, b);
}

impl Scn {
    fn army_by_id_hex(&mut self, id: u32) -> (i32, i32) {
        let w = self.w();
        let e = w.army_by_id(id).expect("army");
        let a = w.get::<Army>(e).expect("army");
        (a.hex.x, a.hex.y)
    }
}

#[test]
fn the_upkeep_forecast_counts_the_rations_a_team_carries() {
    use chaos_outpost::rules::forecast::{Warning, upkeep_forecast};
    let famished = |s: &mut Scn, id: u32| {
        upkeep_forecast(s.w())
            .iter()
            .any(|w| matches!(w, Warning::Famine { army, .. } if *army == id))
    };
    let mut s = shipped();
    let t = teams(&mut s);
    place(&mut s, t[1], (-5, 2));
    enter(&mut s, "R9");
    assert!(
        !famished(&mut s, t[1]),
        "its rations feed it far from Dawnspire"
    );
    set(&mut s, |d| {
        d.teams.get_mut(&t[1]).expect("team").rations = 0
    });
    assert!(
        famished(&mut s, t[1]),
        "no rations left: famine is forecast"
    );
}

/// The campaign (K2, K3): the base campaign's chapter `white_tomb` plays this level. Its
/// veterans, climbers only (`admit_kinds`), muster on a team's hex and join that team, so the
/// expedition stays three teams; played cold, its fallback's units do the same.
#[test]
fn campaign_veterans_muster_on_a_team_hex_and_join_that_team() {
    let db = common::base();
    let (c, state) = common::base_campaign_at(
        &db,
        "white_tomb",
        Some("twin_rifts"),
        &[
            ("Aelar", "golem"),
            ("Ilyana", "ranger"),
            ("Sariel", "healer"),
        ],
    );
    let def = c.chapter("white_tomb").expect("the chapter").clone();
    assert_eq!(def.level, "dragoness");
    let start = |carry: &chaos_outpost::rules::campaign::CarryIn| {
        let mut app = setup::headless_app(Arc::new(db.clone()));
        setup::start_chapter(app.world_mut(), "dragoness", Some("normal"), 3, &[], carry)
            .expect("the chapter starts");
        Scn { app }
    };
    // Who stands where, by team: its hex and its units' kinds and names.
    type Roll = Vec<((i32, i32), Vec<(String, Option<String>)>)>;
    let roll = |s: &mut Scn| -> Roll {
        teams(s)
            .into_iter()
            .map(|id| {
                let w = s.w();
                let e = w.army_by_id(id).expect("army");
                let a = w.get::<Army>(e).expect("army");
                let units = a
                    .units
                    .iter()
                    .map(|u| (u.kind.clone(), u.name.clone()))
                    .collect();
                ((a.hex.x, a.hex.y), units)
            })
            .collect()
    };
    let carry = state.carry_in(&def, &state.default_muster(&def));
    let mut s = start(&carry);
    let teams_now = roll(&mut s);
    assert_eq!(teams_now.len(), 3, "still three teams: {teams_now:?}");
    let (at, units) = teams_now
        .iter()
        .find(|(_, u)| u.iter().any(|(_, n)| n.as_deref() == Some("Ilyana")))
        .expect("Ilyana walks with a team");
    assert_eq!(*at, (-1, 1), "the chapter's muster hex");
    let kinds: Vec<&str> = units.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(kinds, ["ranger", "warden", "ranger", "healer"]);
    let w = s.w();
    let golem = w
        .armies()
        .into_iter()
        .filter_map(|e| w.get::<Army>(e))
        .any(|a| a.units.iter().any(|u| u.kind == "golem"));
    assert!(!golem, "the golem was not admitted: it waits on the roster");
    // Cold (the chapter chosen to start at): its fallback's ranger and arcanist.
    let (_, cold) = common::base_campaign_at(&db, "white_tomb", None, &[]);
    assert!(cold.cold());
    let carry = cold.carry_in(&def, &[]);
    let mut s = start(&carry);
    let teams_now = roll(&mut s);
    assert_eq!(teams_now.len(), 3);
    let second = teams_now
        .iter()
        .find(|(at, _)| *at == (-1, 1))
        .expect("the second team");
    let kinds: Vec<&str> = second.1.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(kinds, ["ranger", "warden", "ranger", "arcanist"]);
}

/// Reading (docs/chapters/dragoness.md): a level may give the Guide's step to the Eladrins
/// (`by: Eladrins`). The seats then guide in turn, one a cycle, and the gems are theirs; once a
/// seat is a Ghost-Guide (D6: its teams left the board) the ghosts take the Guide's turns.
#[test]
fn d6_the_eladrin_seats_guide_in_turn_and_ghost_guides_take_the_guides_turns() {
    use chaos_outpost::content::Who;
    use chaos_outpost::rules::GameSetup;
    let mut s = game(|level, _| {
        for st in level.steps.iter_mut().flatten() {
            if st.id == dragon::GUIDE_STEP {
                st.by = Some(Who::Eladrins);
            }
        }
        for (k, a) in level.armies.iter_mut().skip(1).take(3).enumerate() {
            a.seat = Some(k as u8);
        }
    });
    s.w().resource_mut::<GameSetup>().players = vec!["Ana".into(), "Bo".into(), "Cy".into()];
    let guide_of = |s: &mut Scn, cycle: u32| {
        s.w().resource_mut::<Cycle>().number = cycle;
        enter(s, dragon::GUIDE_STEP);
        (state(s).guide_seat, chapter::current_seat(s.w()))
    };
    assert_eq!(
        guide_of(&mut s, 1),
        (Some(0), 0),
        "the first seat guides first"
    );
    // Chaos does not guide here; the Eladrin seat does, and takes the gem (D1).
    let h = s.hash();
    assert!(s.submit_as(Camp::Chaos, advance_(None)).is_err());
    assert_eq!(s.hash(), h, "refused: nothing changed");
    let before = gems(s.w(), Camp::Eladrins);
    s.submit_as(Camp::Eladrins, advance_(None))
        .expect("the Guide seat advances her");
    assert_eq!(gems(s.w(), Camp::Eladrins), before + 1);
    assert_eq!(guide_of(&mut s, 2), (Some(1), 1), "then the next seat");
    assert_eq!(guide_of(&mut s, 4), (Some(0), 0), "and round again");
    // Bo's teams left the board: Bo is a Ghost-Guide and guides on every Guide turn.
    set(&mut s, |d| d.ghosts = vec![1]);
    assert_eq!(guide_of(&mut s, 5), (Some(1), 1));
    assert_eq!(guide_of(&mut s, 6), (Some(1), 1));
    // Chaos guiding (the shipped level): no seat guides.
    let mut s = shipped();
    enter(&mut s, dragon::GUIDE_STEP);
    assert_eq!(state(&mut s).guide_seat, None);
}

/// A level's own quest (a mod's) is worded by its name, not its id: the app's table names the
/// chapter's things as the level in play names them (`ChapterTexts::follow_level`); another
/// level's names do not leak into it.
#[test]
fn a_levels_own_quest_is_worded_by_its_name() {
    use chaos_outpost::chapters::dragoness::data::Quest;
    use chaos_outpost::text::Translations;
    let mut s = game(|_, ext| {
        ext.quests.push(Quest {
            id: "lyre_of_dawn".into(),
            name: "Lyre of Dawn".into(),
            site: (0, 1),
            protects: false,
        })
    });
    let act = chapter::ChapterValue::new(DragonAction::RevealQuest {
        army: 4,
        quest: "lyre_of_dawn".into(),
    });
    let content = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .0
        .clone();
    let level = s
        .w()
        .resource::<chaos_outpost::rules::GameSetup>()
        .level
        .clone();
    let mut tr = s.w().resource::<Translations>().clone();
    assert!(tr.chapters.follow_level(&content, &level));
    let words = chaos_outpost::text::chapter::action(&tr, dragon::ID, &act);
    assert!(words.contains("Lyre of Dawn"), "{words}");
    assert!(!words.contains("lyre_of_dawn"), "{words}");
    // The shipped level has no such quest: there it is its id.
    assert!(tr.chapters.follow_level(&content, "first_light"));
    let words = chaos_outpost::text::chapter::action(&tr, dragon::ID, &act);
    assert!(words.contains("lyre_of_dawn"), "{words}");
}

/// The chapter's level fields are checked when content loads: a cell of the route off the map
/// is named by `check` at its line and field path (`route[5]`).
#[test]
fn a_broken_route_is_reported_by_check_at_its_line_and_field() {
    let (text, ps) = common::check_edited_level("dragoness", |t| {
        t.replacen(
            "(at: (4, -2), kind: Course)",
            "(at: (40, -2), kind: Course)",
            1,
        )
    });
    let p = ps
        .iter()
        .find(|p| p.field == "ext.dragoness.route[3]" && p.message.contains("not on the map"))
        .unwrap_or_else(|| panic!("no problem at route[3]: {ps:?}"));
    assert_eq!(p.severity, chaos_outpost::content::Severity::Error);
    assert_eq!(p.line, common::line_of(&text, "(at: (40, -2)"), "{p:?}");
}

/// What the map shows of the Guide's next moves (`chapters::dragoness::map::marks`), read back
/// from its marks as a player reads them: the hexes labelled as an advance's and a brake's
/// stop, the teams' hexes labelled lost by either, and the hexes a click decides on.
#[derive(Debug, Default)]
struct Preview {
    stops: [Vec<(i32, i32)>; 2],
    lost: [Vec<(i32, i32)>; 2],
    clicks: Vec<((i32, i32), Action)>,
}

fn preview(s: &mut Scn) -> Preview {
    use chaos_outpost::view::chapter_map::Mark;
    let tr = chaos_outpost::text::Translations::base("en");
    let mut p = Preview::default();
    for m in dragon::map::marks(s.w(), &tr) {
        match m {
            Mark::Label { at, text, .. } => {
                let h = (at.x, at.y);
                if text.starts_with("advance:") {
                    p.stops[0].push(h);
                } else if text.starts_with("brake:") {
                    p.stops[1].push(h);
                }
                if text == "lost if she advances" || text == "lost either way" {
                    p.lost[0].push(h);
                }
                if text == "lost if braked" || text == "lost either way" {
                    p.lost[1].push(h);
                }
            }
            Mark::Choice { at, action, .. } => p.clicks.push(((at.x, at.y), action)),
            _ => {}
        }
    }
    p
}

/// The preview agrees with the rules (D2, D4, D5, D7): over 200 Guide decisions of seeded games
/// played by the AIs, on the shipped level and on one where the Eladrins guide, the teams put at
/// random on and around her next hexes before each (so that she meets some, spared or not), every
/// move the rules accept is tried from the same state: it leaves her on a hex the map labels as
/// that kind of move's stop (the very hex a click on that move decides, where the Eladrins
/// guide), and the teams it loses stood on the hexes the map marks lost for that kind of move;
/// where the Guide has one move of a kind, exactly those.
#[test]
fn the_guides_preview_on_the_map_is_what_her_moves_do() {
    use chaos_outpost::content::Who;
    use chaos_outpost::rules::legal::legal_actions;
    use chaos_outpost::rules::snapshot;
    let mut decisions = 0;
    let mut losses = [0usize; 2];
    let mut clicked = 0;
    let mut seed = 0u64;
    while decisions < 200 {
        seed += 1;
        assert!(
            seed < 200,
            "only {decisions} Guide decisions in {seed} games"
        );
        let eladrins_guide = seed.is_multiple_of(2);
        let db =
            common::with_chapter_level("dragoness", |level: &mut Level, _: &mut DragonessLevel| {
                if eladrins_guide {
                    for st in level.steps.iter_mut().flatten() {
                        if st.id == dragon::GUIDE_STEP {
                            st.by = Some(Who::Eladrins);
                        }
                    }
                }
            });
        let mut app = setup::headless_app(Arc::new(db));
        setup::start_game(app.world_mut(), "dragoness", None, seed).expect("the level starts");
        let mut s = Scn { app };
        // A small generator of its own, so the game's RNG is left to the game.
        let mut r = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut roll = |n: usize| {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            (r % n.max(1) as u64) as usize
        };
        for _ in 0..3000 {
            if s.w().resource::<Outcome>().winner.is_some() || decisions >= 200 {
                break;
            }
            let camp = dragon::guide::guide(s.w());
            let moves: Vec<Action> = if s.w().step_id() == dragon::GUIDE_STEP {
                legal_actions(s.w(), camp)
                    .into_iter()
                    .filter(|a| {
                        matches!(
                            chapter::decode::<DragonAction>(a),
                            Some(DragonAction::Advance { .. } | DragonAction::Brake { .. })
                        )
                    })
                    .collect()
            } else {
                Vec::new()
            };
            if !moves.is_empty() {
                decisions += 1;
                // The teams on and around her next hexes, at random.
                let lvl = dragon::data::level(s.w());
                let st = state(&mut s);
                let mut near: Vec<hexx::Hex> = Vec::new();
                for a in &moves {
                    let (brake, toward) = match chapter::decode::<DragonAction>(a) {
                        Some(DragonAction::Advance { toward }) => (false, toward),
                        Some(DragonAction::Brake { toward }) => (true, toward),
                        _ => continue,
                    };
                    if let Ok(p) = dragon::guide::plan(s.w(), &lvl, &st, brake, toward) {
                        for h in p.path {
                            near.push(h);
                            near.extend(h.all_neighbors().into_iter().filter(|n| {
                                lvl.inside(*n) || lvl.route.iter().any(|c| common::hex(c.at) == *n)
                            }));
                        }
                    }
                }
                if !near.is_empty() {
                    for id in st.team_ids() {
                        if roll(3) > 0 {
                            let h = near[roll(near.len())];
                            place(&mut s, id, (h.x, h.y));
                        }
                    }
                }
                let seen = preview(&mut s);
                let st = state(&mut s);
                let hexes: Vec<(u32, (i32, i32))> = st
                    .team_ids()
                    .into_iter()
                    .map(|id| (id, s.army_by_id_hex(id)))
                    .collect();
                let before = snapshot::capture(s.w());
                for a in &moves {
                    let kind = match chapter::decode::<DragonAction>(a) {
                        Some(DragonAction::Brake { .. }) => 1,
                        _ => 0,
                    };
                    let of_kind = moves
                        .iter()
                        .filter(|m| {
                            matches!(
                                chapter::decode::<DragonAction>(m),
                                Some(DragonAction::Brake { .. })
                            ) == (kind == 1)
                        })
                        .count();
                    s.submit_as(camp, a.clone()).expect("a legal move");
                    let after = state(&mut s);
                    let her = dragon::guide::Pos::of(&after).hex(&lvl);
                    let her = (her.x, her.y);
                    let what = if kind == 0 { "advance" } else { "brake" };
                    assert!(
                        seen.stops[kind].contains(&her),
                        "seed {seed}: the {what} {a:?} left her on {her:?}, the map labels {:?}",
                        seen.stops[kind]
                    );
                    if eladrins_guide {
                        let click = seen.clicks.iter().find(|(_, c)| c == a);
                        assert_eq!(
                            click.map(|c| c.0),
                            Some(her),
                            "seed {seed}: a click on the map for {a:?}"
                        );
                        clicked += 1;
                    } else {
                        assert!(seen.clicks.is_empty(), "Chaos guides: nothing to click");
                    }
                    let mut lost: Vec<(i32, i32)> = after
                        .gone
                        .iter()
                        .filter(|g| g.3 == Gone::Lost && !st.gone.contains(g))
                        .filter_map(|g| hexes.iter().find(|(id, _)| *id == g.0).map(|x| x.1))
                        .collect();
                    lost.sort_unstable();
                    lost.dedup();
                    let mut marked = seen.lost[kind].clone();
                    marked.sort_unstable();
                    marked.dedup();
                    losses[kind] += lost.len();
                    for h in &lost {
                        assert!(
                            marked.contains(h),
                            "seed {seed}: the {what} lost a team on {h:?}, the map marks {marked:?}"
                        );
                    }
                    if of_kind == 1 {
                        assert_eq!(lost, marked, "seed {seed}: the teams the {what} loses");
                    }
                    snapshot::restore(s.w(), &before).expect("restores");
                }
            }
            let (by, a) = chaos_outpost::sim::next_action(s.w());
            if s.submit_as(by, a.clone()).is_err() {
                break;
            }
        }
    }
    // The check checked something: both kinds of move lost teams, and clicks were read.
    eprintln!("{decisions} decisions in {seed} games: teams lost {losses:?}, {clicked} clicks");
    assert!(losses[0] > 5 && losses[1] > 5, "teams lost: {losses:?}");
    assert!(clicked > 30, "moves clicked: {clicked}");
}
