//! The chapter seams (`rules::chapter`), each proved with the test chapter `trial`
//! (`tests/rules/trial.rs`, content in `tests/chapters/trial/`): a level listing its steps, a
//! step of each kind (automatic T1, a Chaos decision T2, rounds among the seats then Chaos
//! T3/T4), typed actions refused with their rule and accepted, a main-phase chapter action
//! settled by the core (T5), seats owning armies, hidden hands, its own victory (T6), saves
//! mid-step, undo, replays, the AI, perft counts and fuzzing.

use std::collections::BTreeMap;
use std::sync::Arc;

use chaos_outpost::content::{Camp, ContentDb, StepPlay};
use chaos_outpost::rules::chapter::{self, InPlay, Viewer};
use chaos_outpost::rules::legal::legal_actions;
use chaos_outpost::rules::outcome::EndReason;
use chaos_outpost::rules::snapshot::{self, capture, capture_seen_by, restore, state_hash};
use chaos_outpost::rules::tracks::{self, Holder};
use chaos_outpost::rules::{
    Action, ActionLog, Army, Cycle, CycleOrder, GameWorld, Outcome, Refusal, setup, submit,
};
use chaos_outpost::sim;
use chaos_outpost::text::Translations;
use chaos_outpost::view::chapter_panel::{self, PanelCx};
use chaos_outpost::view::handoff::{self, HandOff};

use bevy::prelude::*;

use crate::trial::{self, Trial, TrialAction, TrialRefusal};

fn act(a: TrialAction) -> Action {
    chapter::encode(&a)
}

/// A new game of the trial level with two seats, at its first decision.
fn game(seed: u64) -> App {
    let db = trial::content();
    let mut app = setup::headless_app(db);
    let w = app.world_mut();
    setup::spawn_game(w, "trial", None, seed).expect("the trial level starts");
    setup::set_players(w, &["Ana".into(), "Bo".into()]);
    chaos_outpost::rules::advance(w);
    app
}

/// A trial game at its council (T3), Chaos having staked `stake`.
fn council(seed: u64, stake: u32) -> App {
    let mut app = game(seed);
    let w = app.world_mut();
    submit(w, Camp::Chaos, act(TrialAction::Stake(stake))).expect("stake");
    play_to(w, "TCOUNCIL");
    app
}

/// Plays on to the main phase, then to an Eladrin turn in it.
fn to_eladrin_main_phase(w: &mut World) {
    play_to(w, "R9");
    while w.deciding() != Camp::Eladrins {
        let (by, a) = sim::next_action(w);
        submit(w, by, a).expect("AI");
    }
}

/// Refused with this chapter refusal, and nothing changed.
fn refused(w: &mut World, by: Camp, a: TrialAction, want: TrialRefusal) {
    let before = state_hash(w);
    let r = submit(w, by, act(a.clone())).expect_err("must be refused");
    let Refusal::Chapter { rule, .. } = &r else {
        panic!("{a:?}: refused with {r:?}, not the chapter's refusal");
    };
    assert_eq!(chapter::refusal_of::<TrialAction>(&r), Some(want.clone()));
    use chaos_outpost::rules::chapter::ChapterRefusal;
    assert_eq!(rule, want.rule());
    assert_eq!(
        state_hash(w),
        before,
        "{a:?} was refused but the state changed"
    );
}

fn trial_state(w: &World) -> Trial {
    w.resource::<Trial>().clone()
}

/// Plays the AI until the game reaches `step` (bounded).
fn play_to(w: &mut World, step: &str) {
    for _ in 0..2000 {
        if w.step_id() == step || w.resource::<Outcome>().winner.is_some() {
            return;
        }
        let (by, a) = sim::next_action(w);
        submit(w, by, a.clone()).unwrap_or_else(|e| panic!("AI's {a:?}: {e}"));
    }
    panic!("never reached {step}");
}

#[test]
fn a_level_plays_the_steps_it_lists_in_order_and_the_shipped_ones_the_core_cycle() {
    let mut app = game(1);
    let ids: Vec<&str> = app
        .world()
        .resource::<CycleOrder>()
        .0
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(
        ids,
        [
            "R2", "R3", "R4", "R5", "TDRAW", "TBID", "R6", "R7", "R8", "TCOUNCIL", "R9"
        ]
    );
    assert_eq!(
        app.world().resource::<InPlay>().0,
        vec!["trial".to_string()]
    );
    // The same program, with the chapter installed, plays a shipped level as it always did.
    let w = app.world_mut();
    setup::start_game(w, "first_light", None, 3).expect("first light");
    let ids: Vec<&str> = w.resource::<CycleOrder>().0.iter().map(|s| s.id).collect();
    assert_eq!(ids, ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]);
    assert!(w.resource::<InPlay>().0.is_empty());
    assert!(
        capture(w).chapters.is_empty(),
        "no chapter state in a core level"
    );
}

#[test]
fn a_level_naming_an_unknown_step_or_chapter_is_refused_naming_it() {
    let db = trial::content();
    let mut bad = (*db).clone();
    let level = bad.levels.get_mut("trial").expect("trial level");
    level.steps.as_mut().expect("steps").push(StepPlay {
        id: "NOPE".into(),
        by: None,
        among: None,
    });
    let mut app = setup::headless_app(Arc::new(bad));
    let e = setup::start_game(app.world_mut(), "trial", None, 1).expect_err("refused");
    assert!(e.contains("steps[11]: no step `NOPE`"), "{e}");
    assert!(e.contains("TCOUNCIL"), "the known steps are listed: {e}");

    let mut bad = (*db).clone();
    let level = bad.levels.get_mut("trial").expect("trial level");
    level.chapters.push("ghost".into());
    let mut app = setup::headless_app(Arc::new(bad));
    let e = setup::start_game(app.world_mut(), "trial", None, 1).expect_err("refused");
    assert!(e.contains("plays the chapter `ghost`"), "{e}");

    // `by` on a step that is not a decision.
    let mut bad = (*db).clone();
    let level = bad.levels.get_mut("trial").expect("trial level");
    level.steps.as_mut().expect("steps")[4].by = Some(chaos_outpost::content::Who::Chaos);
    let mut app = setup::headless_app(Arc::new(bad));
    let e = setup::start_game(app.world_mut(), "trial", None, 1).expect_err("refused");
    assert!(e.contains("steps[4]: `TDRAW` is automatic"), "{e}");
}

#[test]
fn t1_each_seat_draws_a_hand_in_the_automatic_step() {
    let app = game(2);
    let w = app.world();
    let t = trial_state(w);
    assert_eq!(t.hands.len(), 2, "{t:?}");
    assert!(t.hands.values().all(|h| h.len() == 2), "{t:?}");
    // 8 cards, 4 dealt.
    assert_eq!(t.deck.len(), 4);
}

#[test]
fn t2_chaos_decides_its_stake_and_a_wrong_stake_is_refused_citing_t2() {
    let mut app = game(3);
    let w = app.world_mut();
    assert_eq!(w.step_id(), "TBID");
    assert_eq!(w.deciding(), Camp::Chaos, "the step waits for Chaos");
    let legal = legal_actions(w, Camp::Chaos);
    assert!(legal.contains(&Action::Done));
    for n in 1..=3 {
        assert!(legal.contains(&act(TrialAction::Stake(n))), "{legal:?}");
    }
    refused(
        w,
        Camp::Chaos,
        TrialAction::Stake(7),
        TrialRefusal::StakeRange { max: 3 },
    );
    // Not the Eladrins' decision: the core's turn check, before the chapter's rule.
    let before = state_hash(w);
    assert_eq!(
        submit(w, Camp::Eladrins, act(TrialAction::Stake(2))),
        Err(Refusal::NotYourTurn {
            expected: Camp::Chaos
        })
    );
    // A play belongs to another step.
    assert!(matches!(
        submit(w, Camp::Chaos, act(TrialAction::Play { card: 1 })),
        Err(Refusal::WrongStep { .. })
    ));
    // Junk for the chapter.
    assert!(matches!(
        submit(
            w,
            Camp::Chaos,
            Action::Chapter {
                chapter: "trial".into(),
                act: chapter::ChapterValue::text("((")
            }
        ),
        Err(Refusal::Malformed { .. })
    ));
    assert_eq!(state_hash(w), before);
    submit(w, Camp::Chaos, act(TrialAction::Stake(2))).expect("a stake of 2");
    assert_eq!(trial_state(w).stake, 2);
    assert_ne!(
        w.step_id(),
        "TBID",
        "the decision closed and the cycle went on"
    );
}

#[test]
fn t3_t4_the_council_goes_round_the_seats_then_chaos_until_all_pass() {
    let mut app = council(4, 1);
    let w = app.world_mut();
    assert_eq!(w.deciding(), Camp::Eladrins);
    assert_eq!(chapter::current_seat(w), 0, "seat 0 opens the council");
    let hand0 = trial_state(w).hands[&0].clone();
    let hand1 = trial_state(w).hands[&1].clone();
    let missing = (1..=9)
        .find(|c| !hand0.contains(c))
        .expect("a card not held");
    refused(
        w,
        Camp::Eladrins,
        TrialAction::Play { card: missing },
        TrialRefusal::NotInHand(missing),
    );
    // Chaos waits its turn.
    assert_eq!(
        submit(w, Camp::Chaos, act(TrialAction::Quench)),
        Err(Refusal::NotYourTurn {
            expected: Camp::Eladrins
        })
    );
    let card = hand0[0];
    let f0 = trial::flame(w, 0);
    submit(w, Camp::Eladrins, act(TrialAction::Play { card })).expect("seat 0 plays");
    assert_eq!(
        trial::flame(w, 0),
        f0 + card as i32,
        "the flame track rose by the card"
    );
    assert_eq!(chapter::current_seat(w), 1, "then seat 1");
    // Seat 1 plays its own hand; seat 0's card is not its own unless it holds one too.
    let card1 = hand1[0];
    submit(w, Camp::Eladrins, act(TrialAction::Play { card: card1 })).expect("seat 1 plays");
    assert_eq!(w.deciding(), Camp::Chaos, "then Chaos");
    let before = [trial::flame(w, 0), trial::flame(w, 1)];
    submit(w, Camp::Chaos, act(TrialAction::Quench)).expect("quench");
    let after = [trial::flame(w, 0), trial::flame(w, 1)];
    // T4: the highest flame (seat 0 on a tie) loses the stake, 1.
    let top = usize::from(before[1] > before[0]);
    let mut want = before;
    want[top] -= 1;
    assert_eq!(after, want);
    // Everyone passes in a row: the step ends, the main phase begins.
    submit(w, Camp::Eladrins, Action::Pass).expect("seat 0 passes");
    submit(w, Camp::Eladrins, Action::Pass).expect("seat 1 passes");
    assert_eq!(w.step_id(), "TCOUNCIL", "Chaos has not passed yet");
    submit(w, Camp::Chaos, Action::Pass).expect("chaos passes");
    assert_eq!(w.step_id(), "R9");
    assert_eq!(
        w.resource::<Cycle>().seat,
        None,
        "the step's seat is cleared"
    );
}

#[test]
fn t5_a_main_phase_chapter_action_is_listed_and_settled_by_the_core_turn() {
    let mut app = game(5);
    let w = app.world_mut();
    to_eladrin_main_phase(w);
    let seat = chapter::current_seat(w);
    let legal = legal_actions(w, Camp::Eladrins);
    assert!(legal.contains(&act(TrialAction::Rally)), "{legal:?}");
    let flame = trial::flame(w, seat);
    submit(w, Camp::Eladrins, act(TrialAction::Rally)).expect("rally");
    assert_eq!(trial::flame(w, seat), flame + 1);
    assert_eq!(
        w.resource::<Cycle>().turn,
        Camp::Chaos,
        "the rally was the turn's action"
    );
    assert_eq!(w.resource::<Cycle>().passes, 0);
    submit(w, Camp::Chaos, Action::Pass).expect("chaos passes");
    // The other seat's turn now; back to the first seat after it.
    assert_ne!(chapter::current_seat(w), seat);
    submit(w, Camp::Eladrins, Action::Pass).expect("other seat passes");
    submit(w, Camp::Chaos, act(TrialAction::Rally)).expect_err("not Chaos' action");
}

#[test]
fn a_seat_commands_only_its_own_army() {
    let mut app = game(6);
    let w = app.world_mut();
    to_eladrin_main_phase(w);
    let seat = chapter::current_seat(w);
    let mine: Vec<(u32, Option<u8>)> = w
        .query::<&Army>()
        .iter(w)
        .filter(|a| a.camp == Camp::Eladrins)
        .map(|a| (a.id, a.seat))
        .collect();
    let other = mine
        .iter()
        .find(|(_, s)| *s != Some(seat))
        .expect("the other seat's army")
        .0;
    let own = mine.iter().find(|(_, s)| *s == Some(seat)).expect("own").0;
    let before = state_hash(w);
    assert_eq!(
        submit(w, Camp::Eladrins, Action::Activate { army: other }),
        Err(Refusal::NotYourSeat { owner: 1 - seat })
    );
    assert_eq!(state_hash(w), before);
    let legal = legal_actions(w, Camp::Eladrins);
    assert!(!legal.contains(&Action::Activate { army: other }));
    assert!(legal.contains(&Action::Activate { army: own }));
}

#[test]
fn a_hand_is_seen_by_its_seat_only_never_by_a_partner_or_the_chaos_ai() {
    let mut app = game(7);
    let w = app.world_mut();
    let t = trial_state(w);
    let seen = |w: &mut World, v: Viewer| -> Trial {
        let s = capture_seen_by(w, v);
        ron::from_str(&s.chapters["trial"]).expect("trial state")
    };
    let by0 = seen(w, Viewer::Seat(0));
    assert_eq!(by0.hands[&0], t.hands[&0], "seat 0 sees its own hand");
    assert!(by0.hands[&1].iter().all(|c| *c == trial::HIDDEN), "{by0:?}");
    assert_eq!(by0.hands[&1].len(), t.hands[&1].len(), "but knows how many");
    let by1 = seen(w, Viewer::Seat(1));
    assert_eq!(by1.hands[&1], t.hands[&1]);
    assert!(by1.hands[&0].iter().all(|c| *c == trial::HIDDEN));
    let chaos = seen(w, Viewer::Chaos);
    assert!(chaos.hands.values().flatten().all(|c| *c == trial::HIDDEN));
    assert!(chaos.deck.iter().all(|c| *c == trial::HIDDEN));
    // The full state (a save) keeps everything, and the AI's redaction is undone after it.
    assert_eq!(seen(w, Viewer::All), t);
    trial::SEEN_BY_CHAOS.with(|s| s.borrow_mut().clear());
    submit(w, Camp::Chaos, act(TrialAction::Stake(3))).expect("stake");
    play_to(w, "TCOUNCIL");
    let (by, _) = chaos_outpost::ai::decide(w);
    assert_eq!(by, Camp::Eladrins);
    while w.step_id() == "TCOUNCIL" {
        let (by, a) = sim::next_action(w);
        submit(w, by, a).expect("AI");
    }
    let looked = trial::SEEN_BY_CHAOS.with(|s| s.borrow().clone());
    assert!(!looked.is_empty(), "the Chaos scorer ran");
    assert!(
        looked
            .iter()
            .flat_map(|h| h.values().flatten())
            .all(|c| *c == trial::HIDDEN),
        "the Chaos AI saw a hidden card: {looked:?}"
    );
    assert!(
        trial_state(w)
            .hands
            .values()
            .flatten()
            .all(|c| *c != trial::HIDDEN),
        "the real hands are back after the AI thought"
    );
}

/// A game started for two hot-seat players seats both before its first step runs: the
/// chapter's automatic draw (T1) deals a hand to each (the window and the menu start games so).
#[test]
fn t1_a_hot_seat_game_deals_every_seat_in_its_first_automatic_step() {
    let mut app = setup::headless_app(trial::content());
    let w = app.world_mut();
    let players = ["Ana".to_string(), "Bo".to_string()];
    setup::start_game_for(w, "trial", None, 1, &players).expect("the trial level starts");
    let t = trial_state(w);
    assert_eq!(t.hands.keys().copied().collect::<Vec<_>>(), vec![0, 1]);
    assert!(t.hands.values().all(|h| h.len() == 2), "{:?}", t.hands);
}

/// Draws the chapters' panels as the window does for `seat` (in a bare egui context) and
/// gives the hands each panel was handed.
fn draw_chapter_panels(w: &mut World, seat: u8) -> (usize, Vec<BTreeMap<u8, Vec<u8>>>) {
    trial::SEEN_BY_PANEL.with(|s| s.borrow_mut().clear());
    let panels = chapter_panel::seen(w, seat);
    let legal = legal_actions(w, Camp::Eladrins);
    let db = w.content();
    let tr = Translations::default();
    let players = w
        .resource::<chaos_outpost::rules::GameSetup>()
        .players
        .clone();
    let cx = PanelCx {
        tr: &tr,
        db: &db,
        seat,
        legal: &legal,
        players: &players,
        level: "trial",
    };
    let mut frame = bevy_egui::egui::Context::default().run_ui(Default::default(), |ui| {
        for p in &panels {
            p.draw(ui, &cx);
        }
    });
    // The font atlas it made is for no screen.
    frame.textures_delta.clear();
    (
        panels.len(),
        trial::SEEN_BY_PANEL.with(|s| s.borrow().clone()),
    )
}

/// A chapter's own panel (`view::chapter_panel`) is handed the state as the seat at the screen
/// may see it: Bo's panel has his cards and only the count of Ana's. The seat at the screen is
/// the one that last took the keyboard at the hand-off screen; nobody before that.
#[test]
fn a_chapter_panel_is_drawn_with_the_hand_of_the_seat_at_the_screen_only() {
    let mut app = council(7, 2);
    // The chapters' window halves, as the window builds them (`GamePlugin`).
    window_halves(&mut app);
    let w = app.world_mut();
    let t = trial_state(w);
    w.init_resource::<HandOff>();
    assert_eq!(handoff::at_screen(w), None, "nobody took the keyboard yet");
    w.resource_mut::<HandOff>().acknowledged = Some((1, 9, 1));
    assert_eq!(handoff::at_screen(w), Some(1), "Bo took it last");
    let (n, drawn) = draw_chapter_panels(w, 1);
    assert_eq!((n, drawn.len()), (1, 1), "the trial panel, drawn once");
    assert_eq!(drawn[0][&1], t.hands[&1], "Bo sees his own hand");
    assert_eq!(
        drawn[0][&0].len(),
        t.hands[&0].len(),
        "and how many Ana holds"
    );
    assert!(
        drawn[0][&0].iter().all(|c| *c == trial::HIDDEN),
        "but not her cards: {drawn:?}"
    );
    assert!(drawn[0].values().flatten().any(|c| *c != trial::HIDDEN));
    // A level without the chapter draws no chapter panel.
    let mut plain = setup::headless_app(trial::content());
    window_halves(&mut plain);
    let p = plain.world_mut();
    setup::spawn_game(p, "first_light", None, 1).expect("first light");
    assert_eq!(draw_chapter_panels(p, 0).0, 0);
}

/// Adds the window halves of the app's chapters, as `GamePlugin` does.
fn window_halves(app: &mut App) {
    let chapters = app.world().content().chapters.clone();
    for c in chapters.iter() {
        c.build_view(app);
    }
}

#[test]
fn t6_the_beacon_lit_wins_with_the_chapters_own_reason_in_both_languages() {
    let mut app = council(8, 1);
    let w = app.world_mut();
    let card = trial_state(w).hands[&0][0];
    // One card short of the goal (16).
    tracks::add(
        w,
        trial::FLAME,
        Holder::Seat(1),
        16 - card as i32 - trial::flame(w, 1),
    );
    assert_eq!(trial::total(w), 16 - card as i32);
    submit(w, Camp::Eladrins, act(TrialAction::Play { card })).expect("the last card");
    let o = w.resource::<Outcome>().clone();
    assert_eq!(o.winner, Some(Camp::Eladrins));
    assert_eq!(
        o.reason,
        Some(EndReason::Chapter {
            chapter: "trial".into(),
            code: "beacon_lit".into()
        })
    );
    // The app's table carries the chapter's words (`add_chapter_words`).
    let en = w.resource::<Translations>().clone();
    assert_eq!(
        o.reason.as_ref().map(|r| r.words(&en)).as_deref(),
        Some("The beacon is lit (T6)")
    );
    assert_eq!(
        o.reason
            .as_ref()
            .map(|r| r.words(&Translations::default()))
            .as_deref(),
        Some("trial: beacon_lit"),
        "a table without the chapter's words shows its plain form"
    );
    let path = trial::folder().join("i18n/fr.ron");
    let mut fr = Translations::base("fr");
    fr.chapters = en.chapters.clone();
    fr.extend(
        chaos_outpost::text::parse_table(&chaos_outpost::content::SourceFile {
            path: path.display().to_string(),
            text: std::fs::read_to_string(&path).expect("fr"),
        })
        .expect("fr table"),
    );
    assert_eq!(
        o.reason.as_ref().map(|r| r.words(&fr)).as_deref(),
        Some("Le fanal est allumé (T6)")
    );
    // The end is saved and read back as the same reason.
    let s = capture(w);
    let text = ron::to_string(&s).expect("ron");
    let back: snapshot::Snapshot = ron::from_str(&text).expect("back");
    assert_eq!(back.outcome, o);
}

#[test]
fn a_game_saved_in_the_middle_of_the_council_loads_and_plays_on_the_same() {
    let mut app = council(9, 2);
    let w = app.world_mut();
    let card = trial_state(w).hands[&0][0];
    submit(w, Camp::Eladrins, act(TrialAction::Play { card })).expect("seat 0 plays");
    assert_eq!(chapter::current_seat(w), 1, "mid-round: seat 1 to play");
    let dir = std::env::temp_dir().join(format!("chaos-trial-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("mid.ron");
    snapshot::save(w, &path).expect("save");
    let mut other = setup::headless_app(trial::content());
    snapshot::load(other.world_mut(), &path).expect("load");
    let o = other.world_mut();
    assert_eq!(state_hash(o), state_hash(w));
    assert_eq!(trial_state(o), trial_state(w));
    assert_eq!(chapter::current_seat(o), 1);
    for _ in 0..300 {
        if w.resource::<Outcome>().winner.is_some() {
            break;
        }
        let (by, a) = sim::next_action(w);
        let (by2, a2) = sim::next_action(o);
        assert_eq!((by, &a), (by2, &a2), "the loaded game decides the same");
        submit(w, by, a).expect("AI");
        submit(o, by2, a2).expect("AI");
        assert_eq!(state_hash(w), state_hash(o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_save_without_chapter_state_loads_fresh_and_a_damaged_one_is_refused_naming_it() {
    let mut app = game(10);
    let w = app.world_mut();
    let mut s = capture(w);
    // A save from before the chapter kept state.
    s.chapters.clear();
    let mut other = setup::headless_app(trial::content());
    restore(other.world_mut(), &s).expect("an old save loads");
    assert_eq!(trial_state(other.world()), Trial::default());
    // A damaged state: refused, nothing replaced.
    let before = state_hash(w);
    let mut bad = capture(w);
    bad.chapters.insert("trial".into(), "(deck: [1, 2".into());
    let e = restore(w, &bad).expect_err("refused");
    assert!(e.contains("chapters.trial"), "{e}");
    let mut bad = capture(w);
    bad.chapters.insert(
        "trial".into(),
        format!("(deck: [{}])", vec!["1"; 2000].join(",")),
    );
    let e = restore(w, &bad).expect_err("refused");
    assert!(e.contains("chapters.trial: more cards"), "{e}");
    let mut bad = capture(w);
    bad.chapters.insert("ghost".into(), "()".into());
    let e = restore(w, &bad).expect_err("refused");
    assert!(e.contains("chapters.ghost"), "{e}");
    assert_eq!(state_hash(w), before);
}

#[test]
fn undo_puts_the_chapter_state_back() {
    let mut app = council(11, 2);
    let w = app.world_mut();
    let before = capture(w);
    let h = state_hash(w);
    let card = trial_state(w).hands[&0][0];
    submit(w, Camp::Eladrins, act(TrialAction::Play { card })).expect("play");
    assert_ne!(state_hash(w), h, "the play is in the state hash");
    restore(w, &before).expect("undo");
    assert_eq!(state_hash(w), h);
    assert!(trial_state(w).hands[&0].contains(&card));
    assert_eq!(chapter::current_seat(w), 0);
}

#[test]
fn the_ai_plays_the_chapter_to_an_end_and_its_replays_give_the_same_hash() {
    let db = trial::content();
    let mut chapter_actions = [0usize; 2];
    let mut ends = 0;
    for seed in 0..6 {
        let (mut app, r) = sim::play_game(db.clone(), "trial", None, seed, 40)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let w = app.world_mut();
        if w.resource::<Outcome>().winner.is_some() {
            ends += 1;
        }
        for (by, a) in &w.resource::<ActionLog>().0 {
            if chapter::decode::<TrialAction>(a).is_some() {
                chapter_actions[usize::from(*by == Camp::Chaos)] += 1;
            }
        }
        let replay = snapshot::replay_of(w);
        let mut fresh = setup::headless_app(db.clone());
        let h = snapshot::play_replay(fresh.world_mut(), &replay)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(format!("{h:016x}"), r.hash, "seed {seed}");
    }
    assert!(
        chapter_actions[0] > 20,
        "Eladrin chapter actions: {chapter_actions:?}"
    );
    assert!(
        chapter_actions[1] > 10,
        "Chaos chapter actions: {chapter_actions:?}"
    );
    assert_eq!(ends, 6, "every game ends");
}

#[test]
fn soak_replays_the_chapter_level_without_drift() {
    let (actions, cycles) = sim::soak::run(
        trial::content(),
        &["trial".to_string()],
        20,
        4,
        40,
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        actions > 100 && cycles > 4,
        "{actions} actions, {cycles} cycle hashes"
    );
}

/// (point, camp, legal actions) along a fixed line of play on the trial level.
fn trial_counts() -> Vec<(String, Camp, usize)> {
    let mut app = game(12);
    let w = app.world_mut();
    let mut out = Vec::new();
    let mut snap = |w: &mut World, name: &str, by: Camp| {
        let legal = legal_actions(w, by);
        for a in &legal {
            chaos_outpost::rules::action::validate(w, by, a)
                .unwrap_or_else(|e| panic!("{name}: listed {a:?} is refused: {e}"));
        }
        out.push((name.to_string(), by, legal.len()));
    };
    play_to(w, "TBID");
    snap(w, "stake", Camp::Chaos);
    snap(w, "stake, eladrins", Camp::Eladrins);
    submit(w, Camp::Chaos, act(TrialAction::Stake(2))).expect("stake");
    play_to(w, "TCOUNCIL");
    snap(w, "council seat 0", Camp::Eladrins);
    submit(w, Camp::Eladrins, Action::Pass).expect("pass");
    submit(w, Camp::Eladrins, Action::Pass).expect("pass");
    snap(w, "council chaos", Camp::Chaos);
    submit(w, Camp::Chaos, Action::Pass).expect("pass");
    assert_eq!(w.step_id(), "R9");
    snap(w, "main phase", Camp::Eladrins);
    out
}

#[test]
fn chapter_actions_are_in_the_legal_counts_of_the_golden_file() {
    let got = trial_counts();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/perft_trial.ron");
    let text = std::fs::read_to_string(&path).expect("tests/golden/perft_trial.ron");
    let want: Vec<(String, Camp, usize)> = ron::from_str(
        text.lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
            .as_str(),
    )
    .expect("golden counts");
    assert_eq!(got, want);
}

/// The fuzzer on the trial level (proptest in `fuzz.rs` runs the shipped levels).
mod fuzzed {
    use super::*;
    use proptest::prelude::*;

    fn db() -> Arc<ContentDb> {
        trial::content()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]
        #[test]
        fn random_play_on_the_chapter_level_never_breaks_the_rules(
            seed in any::<u64>(),
            moves in prop::collection::vec((any::<u32>(), any::<u32>()), 20..120),
        ) {
            if let Err(e) = sim::fuzz::play_moves(db(), "trial", seed, &moves) {
                panic!("{e}");
            }
        }
    }

    #[test]
    fn a_fuzz_campaign_on_the_chapter_level_finds_nothing() {
        let s = sim::fuzz::campaign(db(), &["trial".to_string()], 99, 12, 400, |_, _| {})
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(s.actions > 2000 && s.refused > 100, "{s:?}");
    }
}

#[test]
fn a_card_moves_a_track_within_its_bounds_and_calls_the_chapters_hook() {
    let mut app = game(13);
    let w = app.world_mut();
    let db = w.content();
    let card = db
        .set
        .events
        .iter()
        .find(|c| c.id == "beacon_wind")
        .cloned()
        .expect("the chapter's event card");
    let flames = [trial::flame(w, 0), trial::flame(w, 1)];
    let hands: Vec<usize> = (0..2).map(|s| trial_state(w).hands[&s].len()).collect();
    chaos_outpost::rules::effects::apply(w, &card.effects, None);
    assert_eq!(
        [trial::flame(w, 0), trial::flame(w, 1)],
        [flames[0] + 1, flames[1] + 1],
        "Track(who: Eladrins) moves every seat"
    );
    let after: Vec<usize> = (0..2).map(|s| trial_state(w).hands[&s].len()).collect();
    assert_eq!(
        after,
        [hands[0] + 1, hands[1] + 1],
        "the hook dealt a card each"
    );
    // Bounded: the track stops at its max (40) and the event says by how much it moved.
    assert_eq!(
        tracks::add(w, trial::FLAME, Holder::Seat(0), 1000),
        Some(40)
    );
    let moved = w
        .resource::<chaos_outpost::rules::Chronicle>()
        .0
        .iter()
        .rev()
        .find_map(|e| match e {
            chaos_outpost::rules::GameEvent::TrackMoved { change, value, .. } => {
                Some((*change, *value))
            }
            _ => None,
        });
    assert_eq!(moved, Some((40 - flames[0] - 1, 40)));
    assert_eq!(tracks::rows(w).len(), 1, "the track bar shows the flame");
    assert_eq!(tracks::rows(w)[0].values.len(), 2, "one bar per seat");
    // The same card where the chapter is not played: nothing happens, nothing is kept.
    setup::start_game(w, "first_light", None, 1).expect("first light");
    let before = state_hash(w);
    chaos_outpost::rules::effects::apply(w, &card.effects, None);
    assert_eq!(state_hash(w), before);
    assert!(tracks::rows(w).is_empty());
}

#[test]
fn a_broken_track_is_reported_at_its_file_and_line() {
    let mut files = chaos_outpost::content::embedded_files();
    files.push(chaos_outpost::content::SourceFile {
        path: "tracks.ron".into(),
        text:
            "[\n    (id: \"rage\", name: \"Rage\", chapter: \"x\", per: Seat, min: 5, max: 2),\n]\n"
                .into(),
    });
    let ps =
        ContentDb::from_files(files, &chaos_outpost::chapters::shipped()).expect_err("refused");
    let p = ps
        .iter()
        .find(|p| p.file.ends_with("tracks.ron"))
        .unwrap_or_else(|| panic!("no problem in tracks.ron: {ps:?}"));
    assert_eq!(p.line, 2, "{p:?}");
    assert!(p.message.contains("min 5 <= start 0 <= max 2"), "{p:?}");
}

/// A mod laid over the trial chapter, with these files under `content/` (name, text).
fn over_trial(files: &[(&str, &str)]) -> (ContentDb, chaos_outpost::content::mods::ModReport) {
    use chaos_outpost::content::SourceFile;
    use chaos_outpost::content::mods::{self, ModSource};
    let base = mods::read_mod(&trial::folder()).expect("trial folder");
    let dir = std::path::PathBuf::from("/mods/sparks_plus");
    let extra = ModSource {
        dir: dir.clone(),
        manifest: SourceFile {
            path: "/mods/sparks_plus/mod.ron".into(),
            text: "(id: \"sparks_plus\", name: \"More sparks\", version: \"1.0.0\", \
                   load_after: [\"trial\"])"
                .into(),
        },
        content: files
            .iter()
            .map(|(name, text)| SourceFile {
                path: format!("/mods/sparks_plus/content/{name}"),
                text: text.to_string(),
            })
            .collect(),
        levels: vec![],
        scenarios: vec![],
        translations: vec![],
    };
    mods::load(
        chaos_outpost::content::embedded_files(),
        &[base, extra],
        &trial::chapters(),
    )
    .unwrap_or_else(|ps| panic!("the base game loads: {ps:?}"))
}

/// A chapter's own catalogue (`content::catalogue`): the trial's `sparks.ron` is read typed,
/// makes the deck of T1, counts in the content hash, and a mod adds, patches and removes its
/// entries by id like any catalogue's.
#[test]
fn t1_the_chapters_own_catalogue_makes_the_deck_and_a_mod_changes_it_by_id() {
    let db = trial::content();
    let ids: Vec<&str> = db
        .catalogue::<trial::Spark>()
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(ids, ["spark", "ember", "flare", "blaze", "nova"]);
    assert_eq!(trial::full_deck(&db), [1, 1, 2, 2, 3, 3, 4, 5]);
    assert_eq!(
        db.name_of("blaze"),
        Some("Blaze"),
        "its names are content names"
    );
    let (db2, report) = over_trial(&[(
        "sparks.ron",
        "(remove: [\"spark\"], add: [(id: \"comet\", name: \"Comet\", value: 9)], \
          patch: {\"nova\": (copies: 3)})",
    )]);
    assert_eq!(report.errors(), 0, "{}", report.text());
    assert_eq!(trial::full_deck(&db2), [2, 2, 3, 3, 4, 5, 5, 5, 9]);
    assert_ne!(
        db.hash(),
        db2.hash(),
        "the catalogue is in the content hash"
    );
    // And the game deals from it.
    let mut app = setup::headless_app(Arc::new(db2));
    let w = app.world_mut();
    setup::start_game_for(w, "trial", None, 3, &["Ana".into(), "Bo".into()]).expect("starts");
    let t = trial_state(w);
    let mut dealt: Vec<u8> = t.hands.values().flatten().chain(&t.deck).copied().collect();
    dealt.sort();
    assert_eq!(
        dealt,
        [2, 2, 3, 3, 4, 5, 5, 5, 9],
        "the patched deck, shuffled and dealt"
    );
}

/// The first problem of a mod report that `want` picks (the report shown when there is none).
fn problem(
    report: &chaos_outpost::content::mods::ModReport,
    want: impl Fn(&chaos_outpost::content::Problem) -> bool,
) -> &chaos_outpost::content::Problem {
    report
        .mods
        .iter()
        .flat_map(|m| &m.problems)
        .find(|p| want(p))
        .unwrap_or_else(|| panic!("no such problem: {}", report.text()))
}

/// A broken entry of a chapter's catalogue is reported at its file, line and field, from the
/// chapter's own check or from the parser, and the mod is left out; a file the program does
/// not know is refused with the name it looks like.
#[test]
fn a_broken_chapter_catalogue_is_reported_at_its_file_line_and_field() {
    let (_, report) = over_trial(&[(
        "sparks.ron",
        "(\n    add: [\n        (id: \"dud\", name: \"Dud\", value: 0),\n    ],\n)\n",
    )]);
    let p = problem(&report, |p| p.field == "sparks[dud].value");
    assert_eq!(p.file, "/mods/sparks_plus/content/sparks.ron");
    assert_eq!(p.line, 3, "{p:?}");
    assert!(p.message.contains("1 to 9"), "{p:?}");
    let m = report
        .mods
        .iter()
        .find(|m| m.id == "sparks_plus")
        .expect("the mod");
    assert!(!m.loaded, "a mod with an error is left out");

    let (_, report) = over_trial(&[(
        "sparks.ron",
        "[\n    (id: \"x\", name: \"X\", value: 2, colour: 1),\n]\n",
    )]);
    let p = problem(&report, |p| p.file.ends_with("sparks.ron"));
    assert_eq!(
        (p.line, p.severity),
        (2, chaos_outpost::content::Severity::Error)
    );
    assert!(p.message.contains("colour"), "{p:?}");

    let (_, report) = over_trial(&[("sparkz.ron", "[]")]);
    assert!(
        report.text().contains("did you mean `sparks.ron`"),
        "{}",
        report.text()
    );
}

/// `schema` lists a registered chapter catalogue with its entry type's doc comments.
#[test]
fn the_schema_reference_lists_a_chapters_catalogue() {
    let doc = chaos_outpost::content::schema_doc::markdown(&trial::chapters());
    assert!(
        doc.contains("| `content/sparks.ron` (chapter `trial`) | [`[Spark]`](#spark) |"),
        "{doc}"
    );
    assert!(doc.contains("## Spark"), "{doc}");
    assert!(doc.contains("| `copies` | `u8` |"), "{doc}");
}

/// The program's command line `args` (after `--mod tests/chapters/trial`) run as the shipped
/// program's `main` runs it, with the trial chapter beside the shipped ones
/// (`cli::main_for`); its report, after it succeeded.
fn run_trial_program(args: &[&str]) -> String {
    let mut all = vec![
        "chaos-outpost".to_string(),
        "--mod".to_string(),
        trial::folder().display().to_string(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    let code = chaos_outpost::cli::main_for(
        trial::chapters(),
        all.iter().map(std::ffi::OsString::from),
        &mut out,
    );
    let out = String::from_utf8_lossy(&out).to_string();
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{args:?}: {out}");
    out
}

/// The program a modder builds with a chapter of their own (`examples/trial_program.rs`: the
/// shipped chapters and the trial one), run with `args` after `--mod tests/chapters/trial`.
/// `cargo test` builds it with the tests; a test run that built only this test program
/// (`cargo test --test rules`) has to build it first (`cargo build --example trial_program`).
pub fn trial_program(args: &[&str]) -> std::process::Command {
    let exe = std::env::current_exe().expect("this test program");
    // target/PROFILE/deps/rules-HASH → target/PROFILE/examples/trial_program
    let program = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join("examples").join("trial_program"))
        .expect("the target folder");
    assert!(
        program.is_file(),
        "{} is not built: run `cargo build --example trial_program` (cargo test builds it)",
        program.display()
    );
    let mut c = std::process::Command::new(program);
    c.arg("--mod").arg(trial::folder()).args(args);
    c
}

/// The real `fuzz` and `soak` commands on the chapter's level, with the chapter passed as the
/// shipped program passes its own: no finding, no drift.
#[test]
fn the_fuzz_and_soak_commands_play_the_chapters_level() {
    let fuzz = run_trial_program(&[
        "fuzz",
        "--levels",
        "trial",
        "--actions",
        "3000",
        "--moves",
        "300",
        "--seed",
        "11",
    ]);
    assert!(
        fuzz.contains("10 games on trial") && fuzz.contains("no finding"),
        "{fuzz}"
    );
    let soak = run_trial_program(&[
        "soak", "--levels", "trial", "--games", "4", "--cycles", "12", "--seed", "5",
    ]);
    assert!(
        soak.contains("soak: 4 replays") && soak.contains("no drift"),
        "{soak}"
    );
}

/// `check` says a level can't start where it names a chapter this program lacks, at the
/// level's `chapters` field, as starting it would refuse it.
#[test]
fn check_refuses_a_level_that_plays_a_chapter_the_program_lacks() {
    let dir = std::env::temp_dir().join(format!("chaos-outpost-nochapter-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("levels")).expect("dir");
    std::fs::write(
        dir.join("mod.ron"),
        "(id: \"lost\", name: \"Lost chapter\", version: \"1.0.0\")",
    )
    .expect("manifest");
    let level = std::fs::read_to_string(trial::folder().join("levels/trial.ron"))
        .expect("the trial level")
        .replace("id: \"trial\"", "id: \"lost\"")
        .replace("chapters: [\"trial\"]", "chapters: [\"trial\", \"nope\"]")
        .replace("ext: {", "ext: {\"nope\": (),");
    std::fs::write(dir.join("levels/lost.ron"), &level).expect("level");
    let r = chaos_outpost::cli::check::check(
        std::slice::from_ref(&dir),
        &[trial::folder()],
        &trial::chapters(),
    );
    let p = r
        .problems
        .iter()
        .find(|p| p.field == "levels[lost].chapters")
        .unwrap_or_else(|| panic!("no problem at levels[lost].chapters: {:?}", r.problems));
    assert_eq!(p.severity, chaos_outpost::content::Severity::Error);
    assert!(p.file.ends_with("levels/lost.ron"), "{p:?}");
    let line = level
        .lines()
        .position(|l| l.contains("chapters:"))
        .expect("line")
        + 1;
    assert_eq!(p.line, line, "{p:?}");
    assert!(
        p.message.contains("`nope`") && p.message.contains("trial"),
        "{p:?}"
    );
    // The trial level itself starts: no such problem for it.
    assert!(
        !r.problems
            .iter()
            .any(|p| p.field.starts_with("levels[trial]")),
        "{:?}",
        r.problems
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The search AI needs nothing of a chapter but its candidates: on the trial level, both
/// camps searching play only legal actions, the chapter's included, to an end.
#[test]
fn the_search_ai_plays_the_chapters_level_with_its_actions() {
    use chaos_outpost::ai::search::{Brain, Brains};
    let mut app = game(9);
    app.insert_resource(Brains {
        chaos: Brain::Search {
            nodes: 120,
            margin: None,
        },
        eladrin: Brain::Search {
            nodes: 120,
            margin: None,
        },
    });
    let w = app.world_mut();
    let mut chapter_moves = 0;
    for _ in 0..3000 {
        if w.resource::<Outcome>().winner.is_some() {
            break;
        }
        let (by, a) = sim::next_action(w);
        chapter_moves += usize::from(matches!(a, Action::Chapter { .. }));
        submit(w, by, a.clone()).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
    assert!(w.resource::<Outcome>().winner.is_some(), "the game ended");
    assert!(chapter_moves > 5, "only {chapter_moves} chapter actions");
}

/// The phase bar names every step of every shipped level by its title (after its rule number
/// where the id is one, `R6`); a chapter's step id (`MACTION`, `CDRAW`, `DGUIDE`) never shows.
#[test]
fn no_step_id_is_shown_on_any_shipped_levels_phase_bar() {
    use chaos_outpost::view::panels::phase_bar::step_label;
    let db = std::sync::Arc::new(crate::common::base());
    let mut chapter_steps = 0;
    for level in db.levels.keys() {
        let app = chaos_outpost::rules::setup::new_game(db.clone(), level, None, 1).expect("game");
        let order = &app.world().resource::<chaos_outpost::rules::CycleOrder>().0;
        for s in order {
            let label = step_label(s.id, s.title);
            assert!(
                !s.title.trim().is_empty(),
                "{level}: step {} has no title",
                s.id
            );
            let rule = s.id.len() <= 4
                && s.id.starts_with(['R', 'M', 'C', 'D', 'K'])
                && s.id[1..].chars().all(|c| c.is_ascii_digit());
            if rule {
                assert_eq!(label, format!("{} {}", s.id, s.title));
            } else {
                chapter_steps += 1;
                assert!(!label.contains(s.id), "{level}: the bar shows `{label}`");
                assert_eq!(label, s.title);
            }
        }
    }
    assert!(
        chapter_steps >= 10,
        "the chapters' steps were read: {chapter_steps}"
    );
}
