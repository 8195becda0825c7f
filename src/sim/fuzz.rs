//! Fuzzed play: random mixes of legal and illegal actions, from either camp, on a level. After
//! every action the invariants hold (`rules::invariants`), a refused action leaves the state
//! hash unchanged, and tiles are corrupted or cleansed only with the event that says so. The
//! test suite drives it with proptest; the `fuzz` command runs long seeded campaigns.

use std::sync::Arc;

use bevy::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::content::{ContentDb, Res};
use crate::rules::legal::legal_actions;
use crate::rules::snapshot::state_hash;
use crate::rules::{Action, Chronicle, GameEvent, GameWorld, Outcome, Tile, setup, submit};

/// What a fuzzed game did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FuzzStats {
    /// Actions submitted.
    pub actions: u64,
    /// Of which refused.
    pub refused: u64,
    /// Games that reached an end.
    pub finished: u64,
}

/// A made-up action, usually illegal: wrong ids, far hexes, unknown names.
pub fn junk(k: u32, n: u32) -> Action {
    let c = (n as i32 % 13) - 6;
    match k % 13 {
        0 => Action::Move { to: (c, -c) },
        1 => Action::Feed {
            army: n % 40,
            tokens: n % 4,
        },
        2 => Action::BuildImprovement {
            at: (c, 1),
            improvement: ["farm", "quarry", "nope"][n as usize % 3].into(),
        },
        3 => Action::BuildPortalCell {
            arch: n as usize % 3,
        },
        4 => Action::PowerPortal { crystals: n % 6 },
        5 => Action::Engage {
            target: n % 40,
            retreat_below: n % 3,
        },
        6 => Action::Activate { army: n % 40 },
        7 => Action::Summon { rift: (c, c) },
        8 => Action::FundResearch {
            outpost: n % 3,
            res: Res::ALL[n as usize % 6],
            amount: n % 5,
        },
        9 => Action::Detach {
            units: vec![n % 60],
        },
        10 => Action::Ritual {
            ritual: "seal_rift".into(),
        },
        // A chapter action that is not one: an unknown chapter, or junk for a known one.
        11 => Action::Chapter {
            chapter: ["trial", "nope", ""][n as usize % 3].into(),
            act: crate::rules::chapter::ChapterValue::text(
                ["Play(card: 99)", "((", "Stake(7)", ""][n as usize % 4],
            ),
        },
        _ => Action::Done,
    }
}

fn corrupted(world: &mut World) -> i64 {
    world
        .query::<&Tile>()
        .iter(world)
        .filter(|t| t.corrupted)
        .count() as i64
}

/// Plays `moves` on a new game of `level`: each `(k, n)` is a legal action (picked by `n`) two
/// times in three, else a junk one, sent by the camp to play or, one time in seven, by the
/// other. Returns what happened, or the first broken rule with the action that broke it.
pub fn play_moves(
    db: Arc<ContentDb>,
    level: &str,
    seed: u64,
    moves: &[(u32, u32)],
) -> Result<FuzzStats, String> {
    let mut app = setup::new_game(db, level, None, seed)?;
    let w = app.world_mut();
    let mut stats = FuzzStats::default();
    crate::rules::invariants::check(w).map_err(|e| format!("{level} seed {seed} at start: {e}"))?;
    for (i, (k, n)) in moves.iter().enumerate() {
        if w.resource::<Outcome>().winner.is_some() {
            stats.finished = 1;
            break;
        }
        // Whoever the game waits for: the camp whose turn or decision it is (a chapter's step
        // may wait for Chaos).
        let by = w.deciding();
        let action = if k % 3 == 0 {
            junk(*k / 3, *n)
        } else {
            let legal = legal_actions(w, by);
            if legal.is_empty() {
                return Err(format!(
                    "{level} seed {seed}, move {i}: no legal action for {by:?} in step {}",
                    w.step_id()
                ));
            }
            legal[*n as usize % legal.len()].clone()
        };
        let by = if k % 7 == 1 { by.enemy() } else { by };
        let before = state_hash(w);
        let corrupt_before = corrupted(w);
        let events_before = w.resource::<Chronicle>().0.len();
        stats.actions += 1;
        let at = |e: String| format!("{level} seed {seed}, move {i} ({action:?} by {by:?}): {e}");
        match submit(w, by, action.clone()) {
            Err(_) => {
                stats.refused += 1;
                if before != state_hash(w) {
                    return Err(at("refused, but the state changed".into()));
                }
            }
            Ok(()) => {
                let events = &w.resource::<Chronicle>().0;
                if events.len() >= events_before {
                    let said: i64 = events[events_before..]
                        .iter()
                        .map(|e| match e {
                            GameEvent::TileCorrupted { .. } => 1,
                            GameEvent::TileCleansed { .. } => -1,
                            _ => 0,
                        })
                        .sum();
                    let changed = corrupted(w) - corrupt_before;
                    if said != changed {
                        return Err(at(format!(
                            "corruption changed by {changed} but the events say {said}"
                        )));
                    }
                }
            }
        }
        crate::rules::invariants::check(w).map_err(at)?;
    }
    Ok(stats)
}

/// A long campaign for the `fuzz` command: `games` games spread over `levels`, each of
/// `moves` seeded random moves. Stops at the first finding.
pub fn campaign(
    db: Arc<ContentDb>,
    levels: &[String],
    seed: u64,
    games: u64,
    moves: usize,
    mut progress: impl FnMut(u64, &FuzzStats),
) -> Result<FuzzStats, String> {
    let mut total = FuzzStats::default();
    for g in 0..games {
        let level = &levels[g as usize % levels.len()];
        let game_seed = seed.wrapping_add(g);
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed ^ 0x5eed_f022);
        let ms: Vec<(u32, u32)> = (0..moves)
            .map(|_| (rng.random::<u32>(), rng.random::<u32>()))
            .collect();
        let db = db.clone();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play_moves(db, level, game_seed, &ms)
        }));
        let s = match run {
            Ok(r) => r?,
            Err(p) => {
                return Err(format!(
                    "{level} seed {game_seed}: panic: {}",
                    panic_text(&p)
                ));
            }
        };
        total.actions += s.actions;
        total.refused += s.refused;
        total.finished += s.finished;
        progress(g + 1, &total);
    }
    Ok(total)
}

/// The message a caught panic carries (`panic!`'s text), or nothing.
pub fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
