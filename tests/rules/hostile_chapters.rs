//! Hostile files against the chapters: a level whose chapter fields (`ext`) carry absurd
//! numbers, a save whose chapter state names seats, cells, cards and indices the game does not
//! have, a replay's action whose numbers overflow. Each is refused where the file comes in,
//! naming its field, and nothing changes; the chapters' rules stay sound (no overflow, no huge
//! loop) even on a value no check saw. Games played by the AI save and load back at every
//! action, as every viewer sees them, so the checks refuse nothing a real game holds.

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use chaos_outpost::chapters::clans::data::{ClanLevel, Fig};
use chaos_outpost::chapters::clans::state::{Clans, Owner as ClanOwner, Sheet as ClanSheet};
use chaos_outpost::chapters::clans::{phases as clan_phases, reckon};
use chaos_outpost::chapters::dragoness::data::{CellKind, DragonessLevel};
use chaos_outpost::chapters::dragoness::guide;
use chaos_outpost::chapters::dragoness::state::Dragoness;
use chaos_outpost::chapters::mercenaries::data::{Gain, Merc, MercLevel};
use chaos_outpost::chapters::mercenaries::phases::{self as merc_phases, MAX_FED};
use chaos_outpost::chapters::mercenaries::state::{MAX_SHEET, Mercs, Owner, Sheet, Standing};
use chaos_outpost::chapters::mercenaries::{self as merc, MercAction, MercRefusal};
use chaos_outpost::content::{Content, Problem};
use chaos_outpost::rules::chapter::{self, ChapterValue, Viewer};
use chaos_outpost::rules::snapshot::{capture, capture_seen_by, restore, state_hash};
use chaos_outpost::rules::{Modifiers, Outcome, setup, submit};
use chaos_outpost::text::Translations;

use crate::common::{self, Scn};

/// The shipped level `level` started with seed 7 for these players (the level fills its AI
/// seats), nothing played yet beyond the cycle's first decision.
fn start(level: &str, players: &[&str]) -> Scn {
    let mut app = setup::headless_app(Arc::new(common::base()));
    let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    setup::start_game_for(app.world_mut(), level, None, 7, &names).expect("the level starts");
    Scn { app }
}

/// A save of `s` whose chapter `id`'s state (typed `S`) `edit` changes, restored into `s`: it
/// must be refused and change nothing. The error.
fn refused<S: Serialize + DeserializeOwned>(
    s: &mut Scn,
    id: &str,
    edit: impl FnOnce(&mut S),
) -> String {
    let mut snap = capture(s.w());
    let mut state: S = ron::from_str(&snap.chapters[id]).expect("the state reads");
    edit(&mut state);
    snap.chapters
        .insert(id.into(), ron::to_string(&state).expect("the state writes"));
    let before = s.hash();
    let e = restore(s.w(), &snap).expect_err("a hostile chapter state is refused");
    assert_eq!(s.hash(), before, "a refused save changes nothing: {e}");
    e
}

/// The problem `chaos-outpost check` finds at `field` in the shipped level file `name` edited
/// by `edit`, with the edited text.
fn level_problem(
    name: &str,
    edit: impl FnOnce(String) -> String,
    field: &str,
) -> (String, Problem) {
    let (text, problems) = common::check_edited_level(name, edit);
    let p = problems
        .iter()
        .find(|p| p.field == field)
        .cloned()
        .unwrap_or_else(|| panic!("no problem at `{field}`: {problems:?}"));
    (text, p)
}

/// The shipped level `id`'s own chapter fields, typed.
fn shipped_fields<T: DeserializeOwned>(id: &str) -> T {
    common::base().levels[id].ext[id]
        .into_rust()
        .expect("the shipped fields read")
}

// A level's chapter fields: every number bounded, each problem at its field.

#[test]
fn a_clans_level_whose_figures_overflow_is_refused_at_its_start_field() {
    // warriors + leaders + ships overflowed the check (debug: a panic; release: 1 figure,
    // accepted, then a reserve of 4·10⁹ warriors a clan, 103 GB).
    let (text, p) = level_problem(
        "clans",
        |t| {
            t.replace(
                "start: (warriors: 6, leaders: 1, ships: 1, hand: 4)",
                "start: (warriors: 4294967295, leaders: 1, ships: 1, hand: 4)",
            )
        },
        "ext.clans.start",
    );
    assert!(p.message.contains("at most 40 figures"), "{p:?}");
    assert_eq!(p.line, common::line_of(&text, "start: (warriors:"), "{p:?}");
    // A level put in place without the check does not start either.
    let db = common::with_chapter_level("clans", |_, c: &mut ClanLevel| {
        c.start.warriors = u32::MAX;
        c.start.leaders = 1;
    });
    let mut app = setup::headless_app(Arc::new(db));
    let e = setup::start_game(app.world_mut(), "clans", None, 7).expect_err("refused");
    assert!(e.contains("ext.clans") && e.contains("start"), "{e}");
}

#[test]
fn a_clans_level_with_absurd_strength_and_attempts_is_refused_at_each_field() {
    // Both were accepted: STR summed in a battle and attempts added to R6 overflowed.
    let edit = |t: String| {
        t.replace(
            "strength: (warrior: 1, leader: 2, ship: 1)",
            "strength: (warrior: 4294967295, leader: 2, ship: 1)",
        )
        .replace(
            "chaos: (attempts: 1, rage: 0)",
            "chaos: (attempts: 4294967295, rage: 0)",
        )
    };
    let (text, p) = level_problem("clans", edit, "ext.clans.strength.warrior");
    assert!(p.message.contains("at most 20"), "{p:?}");
    assert_eq!(
        p.line,
        common::line_of(&text, "strength: (warrior:"),
        "{p:?}"
    );
    let (text, p) = level_problem("clans", edit, "ext.clans.chaos.attempts");
    assert!(p.message.contains("at most 10"), "{p:?}");
    assert_eq!(p.line, common::line_of(&text, "chaos: (attempts:"), "{p:?}");
}

#[test]
fn a_mercenaries_level_with_absurd_flame_and_raid_demands_is_refused_at_each_field() {
    // Both were accepted: a start Flame of 2³²−1 queued hundreds of millions of corruption
    // attempts, and the raid's shortfall overflowed.
    let edit = |t: String| {
        t.replace(
            "start: (mercs: (3, 1, 1, 1), equipment: 1)",
            "start: (mercs: (3, 1, 1, 1), equipment: 1, flame: 4294967295)",
        )
        .replace(
            "(name: \"A Night Raid\", demands: (2, 0, 0, 0))",
            "(name: \"A Night Raid\", demands: (4294967295, 0, 0, 0))",
        )
    };
    let (text, p) = level_problem("mercenaries", edit, "ext.mercenaries.start.flame");
    assert!(p.message.contains("at most 100"), "{p:?}");
    assert_eq!(p.line, common::line_of(&text, "start: (mercs:"), "{p:?}");
    let (text, p) = level_problem("mercenaries", edit, "ext.mercenaries.raids[0].demands[0]");
    assert!(p.message.contains("at most 100"), "{p:?}");
    assert_eq!(p.line, common::line_of(&text, "A Night Raid"), "{p:?}");
}

#[test]
fn a_dragoness_level_with_absurd_gems_is_refused_at_each_field() {
    // Both were accepted: the Guide's gems for a hazard (`find.gems - cost`) overflowed.
    let edit = |t: String| {
        t.replace(
            "(cost: 1, find: (name: \"Rockslide\", gems: 2, wounds: 1))",
            "(cost: -2147483647, find: (name: \"Rockslide\", gems: 2147483647, wounds: 1))",
        )
    };
    let (text, p) = level_problem("dragoness", edit, "ext.dragoness.hazards[0].cost");
    assert!(p.message.contains("0 to 20"), "{p:?}");
    assert_eq!(p.line, common::line_of(&text, "Rockslide"), "{p:?}");
    let (_, p) = level_problem("dragoness", edit, "ext.dragoness.hazards[0].find.gems");
    assert!(p.message.contains("-20 to 20"), "{p:?}");
}

// The rules on a value no check saw: saturating, bounded, never a panic nor a huge loop.

#[test]
fn the_clans_sums_saturate_on_unchecked_numbers() {
    // Debug: overflow panics; release: a warrior of STR 0, a clan of 0 Rage.
    let mut lvl: ClanLevel = shipped_fields("clans");
    lvl.strength.warrior = u32::MAX;
    lvl.levels.rage = vec![u32::MAX];
    let mut sheet = ClanSheet::default();
    sheet.slots[0] = Some("rune_axes".into());
    sheet.slots[5] = Some("oath_of_rage".into());
    assert_eq!(reckon::strength(&lvl, &sheet, &Fig::Warrior), u32::MAX);
    assert_eq!(
        clan_phases::rage_due(&lvl, ClanOwner::Seat(0), &sheet),
        u32::MAX
    );
}

#[test]
fn a_mercenaries_gain_stops_at_the_sheet_bound() {
    // Debug: an overflow panic; release: a Flame and glory wrapped round to 0.
    let mut s = Sheet {
        flame: 1,
        glory: 1,
        reserve: [1, 0, 0, 0],
        ..Sheet::default()
    };
    let g = Gain {
        mercs: [u32::MAX, 0, 0, 0],
        flame: u32::MAX,
        glory: u32::MAX,
        ..Gain::default()
    };
    merc_phases::gain(&mut s, &g);
    assert_eq!(
        (s.reserve[Merc::Recruit.ix()], s.flame, s.glory),
        (MAX_SHEET, MAX_SHEET, MAX_SHEET)
    );
}

#[test]
fn a_raid_on_unchecked_demands_and_flame_feeds_chaos_a_bounded_number_of_attempts() {
    // Debug: the shortfall overflowed; release: hundreds of millions of attempts queued for R6.
    let mut s = start("mercenaries", &["Ana", "Bo"]);
    let db = common::with_chapter_level("mercenaries", |_, m: &mut MercLevel| {
        m.raids[0].demands = [u32::MAX; 4];
        m.flame.per_attempt = 1;
    });
    s.w().insert_resource(Content(Arc::new(db)));
    {
        let mut m = s.w().resource_mut::<Mercs>();
        m.raids = vec![0];
        for sh in m.seats.values_mut() {
            sh.reserve = [0; 4];
        }
    }
    let pending = s.w().resource::<Modifiers>().pending_attempts;
    s.enter_step(merc::RAID_STEP);
    let m = s.w().resource::<Mercs>().clone();
    assert!(m.seats.values().all(|sh| sh.flame == MAX_SHEET), "{m:?}");
    assert_eq!(
        s.w().resource::<Modifiers>().pending_attempts,
        pending + MAX_FED
    );
}

#[test]
fn a_brake_costing_an_unchecked_i32_min_does_not_overflow() {
    // Debug: "attempt to negate with overflow" planning her move.
    let mut s = start("dragoness", &[]);
    let w = s.w();
    let mut lvl: DragonessLevel = (*chaos_outpost::chapters::dragoness::data::level(w)).clone();
    lvl.brake_cost = i32::MIN;
    for c in &mut lvl.route {
        if c.kind == CellKind::Red {
            c.kind = CellKind::Course;
        }
    }
    let st = w.resource::<Dragoness>().clone();
    let p = guide::plan(w, &lvl, &st, true, None).expect("a brake is planned");
    assert_eq!(p.gems, i32::MAX);
}

// A save's chapter state: every field checked against the content and the seats in play.

#[test]
fn a_save_whose_mercenaries_state_names_what_the_game_lacks_is_refused_at_its_field() {
    let mut s = start("mercenaries", &["Ana", "Bo"]);
    let seats = capture(s.w()).setup.seats();
    // Each was accepted and played a cycle.
    let e = refused(&mut s, "mercenaries", |m: &mut Mercs| {
        m.seats.insert(200, Sheet::default());
    });
    assert!(
        e.contains(&format!(
            "chapters.mercenaries.seats[200]: seat 200, the save has {seats} seats"
        )),
        "{e}"
    );
    let e = refused(&mut s, "mercenaries", |m: &mut Mercs| {
        m.raids = vec![4_000_000_000]
    });
    assert!(
        e.contains("chapters.mercenaries.raids[0]: raid card 4000000000"),
        "{e}"
    );
    let e = refused(&mut s, "mercenaries", |m: &mut Mercs| {
        m.seats.get_mut(&0).expect("seat 0").flame = u32::MAX
    });
    assert!(e.contains("chapters.mercenaries.seats[0].flame"), "{e}");
    let e = refused(&mut s, "mercenaries", |m: &mut Mercs| {
        m.boards.get_mut("tavern").expect("the tavern").slots[0] = Some(Standing {
            owner: Owner::Seat(9),
            group: [1, 0, 0, 0],
        })
    });
    assert!(
        e.contains("chapters.mercenaries.boards[tavern].slots[0].owner: seat 9"),
        "{e}"
    );
    let e = refused(&mut s, "mercenaries", |m: &mut Mercs| {
        m.decks
            .entry("tavern".into())
            .or_default()
            .push("nope".into())
    });
    assert!(e.contains("no card `nope`"), "{e}");
    // A card face up at a place and still in its deck: two of one card.
    let e = refused(&mut s, "mercenaries", |m: &mut Mercs| {
        let card = m.boards["tavern"].cards[0].clone().expect("a card face up");
        m.decks.entry("tavern".into()).or_default().push(card);
    });
    assert!(e.contains("lies at"), "{e}");
}

#[test]
fn a_save_whose_clans_state_names_what_the_game_lacks_is_refused_at_its_field() {
    let mut s = start("clans", &["Ana", "Bo"]);
    // Each was accepted and played a cycle.
    let e = refused(&mut s, "clans", |c: &mut Clans| {
        c.sheets.get_mut(&ClanOwner::Seat(0)).expect("Ana").hand = vec!["ghost".into(); 60]
    });
    assert!(
        e.contains("chapters.clans.sheets[Seat(0)].hand: 60 cards, a hand holds 6 at most"),
        "{e}"
    );
    let e = refused(&mut s, "clans", |c: &mut Clans| {
        c.sheets.get_mut(&ClanOwner::Seat(0)).expect("Ana").hand = vec!["ghost".into()]
    });
    assert!(
        e.contains("chapters.clans.sheets[Seat(0)].hand[0]: no card `ghost`"),
        "{e}"
    );
    let e = refused(&mut s, "clans", |c: &mut Clans| {
        c.sheets.insert(ClanOwner::Seat(200), ClanSheet::default());
    });
    assert!(
        e.contains("chapters.clans.sheets[Seat(200)]: seat 200"),
        "{e}"
    );
    // Figures the clan never had.
    let e = refused(&mut s, "clans", |c: &mut Clans| {
        let sh = c.sheets.get_mut(&ClanOwner::Chaos).expect("Chaos");
        sh.reserve.extend(std::iter::repeat_n(Fig::Warrior, 5));
    });
    assert!(e.contains("chapters.clans.sheets[Chaos]"), "{e}");
    // More copies of a card than the deck has.
    let e = refused(&mut s, "clans", |c: &mut Clans| {
        c.discard
            .extend(std::iter::repeat_n("face_the_rift".to_string(), 2))
    });
    assert!(e.contains("face_the_rift"), "{e}");
}

#[test]
fn a_save_whose_dragoness_state_names_what_the_game_lacks_is_refused_at_its_field() {
    let mut s = start("dragoness", &[]);
    // Each was accepted and played a cycle.
    let e = refused(&mut s, "dragoness", |d: &mut Dragoness| d.at = 999);
    assert!(e.contains("chapters.dragoness.at: cell 999"), "{e}");
    let e = refused(&mut s, "dragoness", |d: &mut Dragoness| {
        d.entombed = true;
        d.slots = vec![true; 6];
    });
    assert!(
        e.contains("chapters.dragoness.slots: 6 slots, the countdown has 5 colours"),
        "{e}"
    );
    let e = refused(&mut s, "dragoness", |d: &mut Dragoness| {
        d.slots = vec![true, false, false, false, false];
    });
    assert!(e.contains("chapters.dragoness.slots: 1 gems placed"), "{e}");
    let e = refused(&mut s, "dragoness", |d: &mut Dragoness| {
        d.revealed = vec!["no_such_room".into()]
    });
    assert!(e.contains("chapters.dragoness.revealed[0]"), "{e}");
    let e = refused(&mut s, "dragoness", |d: &mut Dragoness| {
        d.ghosts = vec![200]
    });
    assert!(e.contains("chapters.dragoness.ghosts[0]: seat 200"), "{e}");
}

/// Plays `level` AI against AI for `actions` actions; before each, its save, as everyone sees
/// it and as Chaos' AI and the first seat's see it (the window's AI thinks on those), loads
/// into another game, the first to the same state: the checks refuse nothing a game holds, in
/// the middle of a chapter's rounds (a call to battle, its cards face down) as between them.
fn saves_load_back_as_it_plays(level: &str, seed: u64, actions: usize) {
    let db = Arc::new(common::base());
    let mut game = setup::headless_app(db.clone());
    setup::start_game_for(game.world_mut(), level, None, seed, &[]).expect("the level starts");
    let mut scratch = setup::headless_app(db);
    let w = game.world_mut();
    let mut played = 0;
    while played < actions && w.resource::<Outcome>().winner.is_none() {
        let all = capture(w);
        let other = scratch.world_mut();
        restore(other, &all)
            .unwrap_or_else(|e| panic!("{level}, action {played}: the save does not load: {e}"));
        assert_eq!(state_hash(other), state_hash(w), "{level}, action {played}");
        for viewer in [Viewer::Chaos, Viewer::Seat(0)] {
            let seen = capture_seen_by(w, viewer);
            restore(scratch.world_mut(), &seen).unwrap_or_else(|e| {
                panic!("{level}, action {played}: the save as {viewer:?} sees it: {e}")
            });
        }
        let (by, action) = chaos_outpost::sim::next_action(w);
        submit(w, by, action).expect("the AI's action is legal");
        played += 1;
    }
    assert!(played > 20, "{level}: {played} actions played");
}

#[test]
fn mercenaries_saves_load_back_as_it_plays() {
    saves_load_back_as_it_plays("mercenaries", 21, 100);
}

#[test]
fn clans_saves_load_back_as_it_plays() {
    saves_load_back_as_it_plays("clans", 22, 100);
}

#[test]
fn dragoness_saves_load_back_as_it_plays() {
    saves_load_back_as_it_plays("dragoness", 23, 100);
}

// A replay's action: numbers that overflow are refused as any wrong number is.

#[test]
fn a_send_whose_group_or_slot_overflows_is_refused_with_its_typed_refusal() {
    let mut s = start("mercenaries", &["Ana", "Bo"]);
    s.enter_step(merc::ACTION_STEP);
    let send = |slot: usize, group: [u32; 4]| {
        chapter::encode(&MercAction::Send {
            place: "tavern".into(),
            slot,
            group,
        })
    };
    let refusal = |r: MercRefusal| chapter::refusal(merc::ID, &r);
    // Debug: the group's size overflowed (a panic); release: it wrapped (2³²−2 here, and 0,
    // "a group of nobody", for the second).
    s.refused(
        send(0, [u32::MAX, u32::MAX, 0, 0]),
        refusal(MercRefusal::WrongSize {
            slot: 1,
            group: u32::MAX,
        }),
    );
    s.refused(
        send(0, [u32::MAX, 1, 0, 0]),
        refusal(MercRefusal::WrongSize {
            slot: 1,
            group: u32::MAX,
        }),
    );
    // A slot past any place's: refused; its words no longer overflow numbering it from 1.
    s.refused(
        send(u32::MAX as usize, [1, 0, 0, 0]),
        refusal(MercRefusal::NoSlot(u32::MAX as usize)),
    );
    s.refused(
        send(usize::MAX, [1, 0, 0, 0]),
        refusal(MercRefusal::NoSlot(usize::MAX)),
    );
    let tr = s.w().resource::<Translations>().clone();
    let words = refusal(MercRefusal::NoSlot(usize::MAX)).words(&tr);
    assert!(words.contains("slot"), "{words}");
    let act = ChapterValue::new(MercAction::Send {
        place: "tavern".into(),
        slot: usize::MAX,
        group: [1, 0, 0, 0],
    });
    let words = chaos_outpost::text::chapter::action(&tr, merc::ID, &act);
    assert!(words.contains("slot"), "{words}");
}
