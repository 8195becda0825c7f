//! The search AI (`ai::search`, issue 18): it plays only legal actions, thinks on a copy (the
//! game's dice and state untouched), chooses the same on the same state, plays a whole game
//! the same twice, sees a chapter's actions, and is set per camp by `Brains` or by the
//! difficulty's budgets in `ai.ron`.

use std::sync::Arc;

use chaos_outpost::ai::{self, search::Brain, search::Brains};
use chaos_outpost::content::Camp;
use chaos_outpost::rules::snapshot::{capture, restore, state_hash};
use chaos_outpost::rules::{GameRng, GameWorld, Outcome, setup, submit};
use chaos_outpost::sim;

use crate::common::*;

fn searching(nodes: u32) -> Brains {
    Brains {
        chaos: Brain::Search { nodes },
        eladrin: Brain::Search { nodes },
    }
}

/// At every decision of a game where both camps search: the state and the game's dice are
/// the same after the AI thought as before, and a restored copy of the state (the window's AI
/// thinks on one) gives the same action.
#[test]
fn the_search_thinks_on_a_copy_and_chooses_the_same_on_the_same_state() {
    let db = Arc::new(base());
    let mut app = setup::new_game(db.clone(), "standard", None, 5).expect("game");
    app.insert_resource(searching(120));
    let w = app.world_mut();
    let mut searched = 0;
    for _ in 0..160 {
        if w.resource::<Outcome>().winner.is_some() {
            break;
        }
        let before = state_hash(w);
        let dice = w.resource::<GameRng>().state();
        let mut copy = setup::headless_app(db.clone());
        copy.insert_resource(searching(120));
        restore(copy.world_mut(), &capture(w)).expect("restore");
        let (by, live) = ai::decide(w);
        assert_eq!(state_hash(w), before, "thinking changed the game");
        assert_eq!(
            w.resource::<GameRng>().state(),
            dice,
            "thinking drew the game's dice"
        );
        let (by2, copied) = ai::decide(copy.world_mut());
        assert_eq!((by, &live.action), (by2, &copied.action));
        if w.in_turns() {
            searched += 1;
        }
        submit(w, by, live.action).expect("the search plays legal actions");
    }
    assert!(searched > 20, "only {searched} main-phase decisions");
}

/// A whole game with both camps searching plays only legal actions and is the same game
/// twice (`sim`, replays and tests stay exact), and its battles are counted.
#[test]
fn a_searching_game_is_the_same_twice() {
    let db = Arc::new(base());
    let game = sim::Game {
        level: "first_light",
        difficulty: None,
        seed: 3,
        max_cycles: 30,
        brains: Some(searching(150)),
    };
    let (_, a) = sim::play(db.clone(), &game, &mut |_| Ok(())).expect("legal game");
    let (_, b) = sim::play(db.clone(), &game, &mut |_| Ok(())).expect("legal game");
    assert_eq!(
        (&a.hash, a.actions, a.battles),
        (&b.hash, b.actions, b.battles)
    );
    let heuristic = sim::Game {
        brains: Some(Brains {
            chaos: Brain::Heuristic,
            eladrin: Brain::Heuristic,
        }),
        ..game
    };
    let (_, h) = sim::play(db, &heuristic, &mut |_| Ok(())).expect("legal game");
    assert_ne!(h.hash, a.hash, "the search changed nothing at all");
}

/// Without `Brains`, a camp thinks as its difficulty's budget in `ai.ron: search.budgets`
/// says; a difficulty without one plays the candidates alone.
#[test]
fn the_difficulty_sets_each_camps_brain() {
    let mut db = base();
    db.set.ai.search.budgets.insert(
        "hard".into(),
        chaos_outpost::content::SearchBudget {
            chaos: 300,
            eladrin: 0,
        },
    );
    let db = Arc::new(db);
    let app = setup::new_game(db.clone(), "standard", Some("hard"), 1).expect("game");
    assert_eq!(
        ai::search::brain_of(app.world(), Camp::Chaos),
        Brain::Search { nodes: 300 }
    );
    assert_eq!(
        ai::search::brain_of(app.world(), Camp::Eladrins),
        Brain::Heuristic
    );
    let app = setup::new_game(db, "standard", Some("normal"), 1).expect("game");
    assert_eq!(
        ai::search::brain_of(app.world(), Camp::Chaos),
        Brain::Heuristic
    );
}

#[test]
fn a_brain_is_written_heuristic_search_or_search_nodes() {
    assert_eq!(Brain::parse("heuristic"), Ok(Brain::Heuristic));
    assert_eq!(Brain::parse("search:250"), Ok(Brain::Search { nodes: 250 }));
    assert!(matches!(Brain::parse("search"), Ok(Brain::Search { .. })));
    for bad in ["search:0", "search:x", "deep", "search:99999999"] {
        let e = Brain::parse(bad).expect_err(bad);
        assert!(e.contains(bad), "{e}");
    }
}

/// The AIs' weights are not what a replay depends on: a mod that changes only `ai.ron` keeps
/// the content hash (replays recorded before still play), one that changes a rule does not.
#[test]
fn an_ai_change_keeps_the_content_hash_a_rule_change_does_not() {
    let a = base();
    let mut b = base();
    b.set.ai.chaos.attack += 5;
    b.set.ai.search.rollouts = 7;
    assert_eq!(a.hash(), b.hash());
    let mut c = base();
    c.set.rules.chaos_summon_cap += 1;
    assert_ne!(a.hash(), c.hash());
}

/// A mod's bad search settings are reported at their line in its `ai.ron`.
#[test]
fn bad_search_settings_are_reported_at_their_line() {
    let mut files = chaos_outpost::content::embedded_files();
    let ai = files
        .iter_mut()
        .find(|f| f.path.ends_with("ai.ron"))
        .expect("ai.ron");
    assert!(ai.text.contains("rollouts: 2,") && ai.text.contains("budgets: {},"));
    ai.text = ai
        .text
        .replace("rollouts: 2,", "rollouts: 40,")
        .replace("budgets: {},", "budgets: {\"nightmare\": (chaos: 10)},");
    let lines: Vec<&str> = ai.text.lines().collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle)).expect(needle) + 1;
    let (rollouts, budget) = (at("rollouts: 40"), at("nightmare"));
    let ps = match chaos_outpost::content::ContentDb::from_files(files) {
        Ok(db) => db.warnings,
        Err(ps) => ps,
    };
    let find = |field: &str| {
        ps.iter()
            .find(|p| p.field == field)
            .unwrap_or_else(|| panic!("no problem at {field}: {ps:?}"))
    };
    let p = find("ai.search.rollouts");
    assert_eq!(
        (p.line, p.severity),
        (rollouts, chaos_outpost::content::Severity::Error)
    );
    assert!(p.message.contains("1 to 16"), "{p:?}");
    let p = find("ai.search.budgets[nightmare]");
    assert_eq!(p.line, budget, "{p:?}");
    assert!(p.message.contains("easy, normal, hard"), "{p:?}");
}

/// The search's fast copy (`restore_trusted`: tiles rewritten in place on the same board) gives
/// exactly the state a full `restore` gives, whatever the copy held before: another moment of
/// the same game, another level.
#[test]
fn the_fast_copy_gives_the_same_state_as_a_full_restore() {
    use chaos_outpost::rules::snapshot::restore_trusted;
    let db = Arc::new(base());
    let mut scratch = setup::headless_app(db.clone());
    for (level, seed) in [
        ("standard", 5),
        ("standard", 6),
        ("first_light", 2),
        ("standard", 5),
    ] {
        let mut app = setup::new_game(db.clone(), level, None, seed).expect("game");
        let w = app.world_mut();
        for step in 0..120 {
            if w.resource::<Outcome>().winner.is_some() {
                break;
            }
            if step % 15 == 0 {
                let snap = capture(w);
                restore_trusted(scratch.world_mut(), &snap).expect("fast copy");
                let mut full = setup::headless_app(db.clone());
                restore(full.world_mut(), &snap).expect("restore");
                assert_eq!(
                    state_hash(scratch.world_mut()),
                    state_hash(full.world_mut()),
                    "{level} seed {seed} at action {step}"
                );
                assert_eq!(state_hash(scratch.world_mut()), state_hash(w));
            }
            let (by, a) = sim::next_action(w);
            submit(w, by, a).expect("legal");
        }
    }
}
