//! R6 — Chaos corruption: as many attempts as open rifts (R6.1) on tiles touching a corrupted
//! tile, each 2d6 ≥ 9 + distance to the nearest rift − adjacent corrupted tiles (R6.2); then
//! every unit on a corrupted tile resists or loses 1 HP, turning to Chaos at 0 (R6.3).
//!
//! Chaos picks its target by a fixed rule until the AI takes the choice over: the easiest tile,
//! then the one nearest the portal, then the lowest hex.

use bevy::prelude::*;
use hexx::Hex;

use crate::content::Camp;
use crate::rules::board::key;
use crate::rules::units::{hp_left, spawn};
use crate::rules::upkeep::portal::add_corruption;
use crate::rules::{
    Army, Board, CycleAppExt, GameEvent, GameRng, GameWorld, Modifiers, Placement, Portal, Rift,
    RuleSet, StepDef, StepKind, StepSchedule, Tile,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R6",
            title: "Chaos corruption",
            kind: StepKind::Automatic,
        },
        Placement::End,
    )
    .configure_sets(
        StepSchedule("R6"),
        (RuleSet::R6Attempts, RuleSet::R6Resistance).chain(),
    )
    .add_systems(
        StepSchedule("R6"),
        (
            attempt_corruption.in_set(RuleSet::R6Attempts),
            roll_resistance.in_set(RuleSet::R6Resistance),
        ),
    );
}

/// Open rifts on the map, in board order.
pub fn open_rifts(world: &mut World) -> Vec<Hex> {
    let mut q = world.query::<&Tile>();
    let mut v: Vec<Hex> = q
        .iter(world)
        .filter(|t| t.rift == Rift::Open)
        .map(|t| t.hex)
        .collect();
    v.sort_by_key(|h| key(*h));
    v
}

/// R6.2 difficulty of corrupting `h` (with the difficulty level's adjustment), or None when the
/// tile is not a legal target (already corrupted, or touching no corrupted tile, R6.1).
pub fn difficulty(world: &World, rifts: &[Hex], h: Hex) -> Option<i32> {
    let t = world.tile(h)?;
    if t.is_corrupted() {
        return None;
    }
    let board = world.resource::<Board>();
    let adjacent = board
        .neighbors(h)
        .filter(|n| world.tile(*n).is_some_and(|t| t.is_corrupted()))
        .count() as i32;
    if adjacent == 0 {
        return None;
    }
    let dist = nearest_rift(rifts, h);
    Some(target_number(world, dist, adjacent))
}

/// Distance to the nearest open rift (99 when none is open: no attempt can reach that far).
fn nearest_rift(rifts: &[Hex], h: Hex) -> i32 {
    rifts
        .iter()
        .map(|x| x.unsigned_distance_to(h) as i32)
        .min()
        .unwrap_or(99)
}

/// R6.2: 9 + distance to the nearest rift − adjacent corrupted tiles, plus the difficulty's.
fn target_number(world: &World, dist: i32, adjacent: i32) -> i32 {
    let db = world.content();
    let r = db.rules();
    r.corruption_base + r.corruption_per_distance * dist - r.corruption_per_adjacent * adjacent
        + world.difficulty_level().corruption_difficulty
}

/// Probability that 2d6 ≥ target.
pub fn two_d6_at_least(target: i32) -> f64 {
    let mut ok = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            if a + b >= target {
                ok += 1;
            }
        }
    }
    ok as f64 / 36.0
}

/// What R6.2 says of one tile's corruption at the next upkeep: the query the view's tile box
/// asks (the rules' own numbers, never worked out again by the view).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CorruptionChance {
    /// Corrupted already.
    Corrupted,
    /// Not a target: it touches no corrupted tile (R6.1).
    Safe,
    /// A target: Chaos corrupts it on 2d6 ≥ `at_least`, with this chance per attempt (0 to 1).
    Roll {
        /// The 2d6 roll needed (R6.2, the difficulty level's adjustment included).
        at_least: i32,
        /// Its chance per attempt.
        chance: f64,
    },
}

/// R6.1–R6.2 for the tile at `h`: corrupted, safe, or the roll that corrupts it.
pub fn chance_at(world: &mut World, h: Hex) -> CorruptionChance {
    if world.tile(h).is_some_and(|t| t.is_corrupted()) {
        return CorruptionChance::Corrupted;
    }
    let rifts = open_rifts(world);
    match difficulty(world, &rifts, h) {
        Some(at_least) => CorruptionChance::Roll {
            at_least,
            chance: two_d6_at_least(at_least),
        },
        None => CorruptionChance::Safe,
    }
}

/// Chaos' target for the next attempt: easiest, then nearest the portal, then lowest hex.
pub fn choose_target(world: &mut World) -> Option<(Hex, i32)> {
    let rifts = open_rifts(world);
    let portal = world.resource::<Portal>().hex;
    // Candidates touch a corrupted tile: look only around corrupted tiles. The same
    // `target_number` as `difficulty`, with the corrupted set built once.
    let corrupted: std::collections::HashSet<Hex> = world
        .query::<&Tile>()
        .iter(world)
        .filter(|t| t.is_corrupted())
        .map(|t| t.hex)
        .collect();
    let board = world.resource::<Board>();
    let mut best: Option<(i32, u32, (i32, i32), Hex)> = None;
    let mut order: Vec<&Hex> = corrupted.iter().collect();
    order.sort_by_key(|h| key(**h));
    for c in order {
        for n in board.neighbors(*c) {
            if corrupted.contains(&n) {
                continue;
            }
            let adjacent = board.neighbors(n).filter(|m| corrupted.contains(m)).count() as i32;
            let d = target_number(world, nearest_rift(&rifts, n), adjacent);
            let cand = (d, n.unsigned_distance_to(portal), key(n), n);
            if best.is_none_or(|b| (cand.0, cand.1, cand.2) < (b.0, b.1, b.2)) {
                best = Some(cand);
            }
        }
    }
    best.map(|(d, _, _, h)| (h, d))
}

/// One corruption attempt (R6.2), also used by chaos cards.
pub fn attempt(world: &mut World) {
    let Some((h, target)) = choose_target(world) else {
        return;
    };
    let dice = world.resource_mut::<GameRng>().two_d6();
    let success = (dice[0] + dice[1]) as i32 >= target;
    world.emit(GameEvent::Dice {
        what: crate::rules::event::Roll::Corruption,
        dice: dice.to_vec(),
        target,
        malus: 0,
        success,
        at: Some(h),
    });
    if !success {
        return;
    }
    if let Some(mut t) = world.tile_mut(h) {
        t.corrupted = true;
    }
    world.emit(GameEvent::TileCorrupted { at: h });
    // Corruption reaching the portal's surroundings creeps onto its power track (R8 reading).
    let p = world.resource::<Portal>().hex;
    let radius = world.content().portal().threat_radius;
    if h.unsigned_distance_to(p) <= radius {
        add_corruption(world, 1);
    }
}

/// Attempts this step: open rifts, plus cards' extra attempts, plus the difficulty's.
pub fn attempts_this_step(world: &mut World) -> u32 {
    let rifts = open_rifts(world).len() as i64;
    let pending = i64::from(world.resource::<Modifiers>().pending_attempts);
    let extra = i64::from(world.difficulty_level().chaos_attempts);
    // The difficulty's extra attempts only apply while Chaos has a rift open.
    let extra = if rifts > 0 { extra } else { 0 };
    (rifts + pending + extra).clamp(0, i64::from(u32::MAX)) as u32
}

/// R6.1–R6.2.
fn attempt_corruption(world: &mut World) {
    let n = attempts_this_step(world);
    world.resource_mut::<Modifiers>().pending_attempts = 0;
    for _ in 0..n {
        attempt(world);
    }
}

/// R6.3: every Eladrin unit on a corrupted tile (armies by id, units in order) rolls 1d6 against
/// its resistance; a failure costs 1 HP; at 0 HP it turns and joins Chaos on its tile.
fn roll_resistance(world: &mut World) {
    let db = world.content();
    let bonus = world.resource::<Modifiers>().resistance;
    for a in world.armies() {
        let Some(army) = world.get::<Army>(a).cloned() else {
            continue;
        };
        if army.camp != Camp::Eladrins || !world.tile(army.hex).is_some_and(|t| t.is_corrupted()) {
            continue;
        }
        let mut turned = Vec::new();
        for u in &army.units {
            let Some(t) = db.unit(&u.kind) else { continue };
            if t.resistance == 0 {
                continue; // immune
            }
            let target = t.resistance.saturating_sub(bonus).max(1);
            let d = world.resource_mut::<GameRng>().d6();
            let ok = d >= target;
            world.emit(GameEvent::Dice {
                what: crate::rules::event::Roll::Resistance { unit: u.id },
                dice: vec![d],
                target: target as i32,
                malus: 0,
                success: ok,
                at: Some(army.hex),
            });
            if ok {
                continue;
            }
            let Some(mut am) = world.get_mut::<Army>(a) else {
                break;
            };
            let Some(unit) = am.units.iter_mut().find(|x| x.id == u.id) else {
                continue;
            };
            unit.wounds = unit.wounds.saturating_add(1);
            world.emit(GameEvent::UnitWounded {
                army: army.id,
                unit: u.id,
                amount: 1,
            });
            let Some(am) = world.get::<Army>(a) else {
                break;
            };
            let Some(unit) = am.units.iter().find(|x| x.id == u.id) else {
                continue;
            };
            if hp_left(world, am, unit) <= 0 {
                turned.push((u.id, t.corrupts_into.clone()));
            }
        }
        for (id, into) in turned {
            if let Some(mut am) = world.get_mut::<Army>(a) {
                am.units.retain(|x| x.id != id);
            }
            world.resource_mut::<crate::rules::units::Census>().turned += 1;
            let into = into.unwrap_or_else(|| default_husk(&db));
            world.emit(GameEvent::UnitTurned {
                unit: id,
                into: into.clone(),
                at: army.hex,
            });
            spawn(world, Camp::Chaos, army.hex, &into, 1);
        }
        if world.get::<Army>(a).is_some_and(|x| x.units.is_empty()) {
            world.despawn(a);
        }
    }
}

/// The Chaos unit a corrupted unit becomes when its card names none: `husk`, else the first.
pub fn default_husk(db: &crate::content::ContentDb) -> String {
    if db.unit("husk").is_some_and(|u| u.camp == Camp::Chaos) {
        return "husk".into();
    }
    db.set
        .units
        .iter()
        .find(|u| u.camp == Camp::Chaos)
        .map(|u| u.id.clone())
        .unwrap_or_default()
}
