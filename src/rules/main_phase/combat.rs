//! R9.5 — Combat. Once per turn an army may attack an enemy army on its tile; the battle lasts
//! at most 5 rounds, each run as its own schedule (`CombatRound`: roll → wounds → end check).
//!
//! The procedure (docs/rules.md, R9.5): every unit of both sides rolls its attack dice at once;
//! a die hits on the unit's `hit_on` or more (−1 per attack technology for the Eladrins; +the
//! defender's terrain and outpost defence against the defender), never easier than 2+ nor harder
//! than 6+; then each famine token of its army takes 1 off the roll (R5.4), so a famished unit
//! that hits on 6 misses. Each side's hits then wound the other
//! side's units one at a time, always the unit with the fewest hit points left (then the
//! lowest id). A unit at 0 HP dies. The battle ends early when a side is destroyed, or when the
//! attacker is down to fewer units than the `retreat_below` it chose and can step back to a
//! neighbouring tile free of enemies.
//!
//! The same round function drives the real battle (with the game's RNG) and the odds shown before
//! engaging (`battle_odds`: the exact distribution of one round's hits, and a seeded Monte Carlo
//! of the whole battle that never touches the game's RNG).

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use hexx::Hex;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{active_army, build::armies_on};
use crate::content::{BuildingEffect, Camp};
use crate::rules::units::{attack_hit_on, attack_malus, cull, hp_left};
use crate::rules::{Army, Board, GameEvent, GameRng, GameWorld, Outpost, Refusal};

/// The schedule of one combat round.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CombatRound;

/// The ordered stages of a round.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundSet {
    /// Both sides roll.
    Roll,
    /// Hits become wounds; the dead fall.
    Wounds,
    /// Destroyed side or retreat ends the battle.
    End,
}

pub(super) fn plugin(app: &mut App) {
    crate::rules::init_rules_schedule(app, CombatRound);
    app.configure_sets(
        CombatRound,
        (RoundSet::Roll, RoundSet::Wounds, RoundSet::End).chain(),
    )
    .add_systems(
        CombatRound,
        (
            roll_attacks.in_set(RoundSet::Roll),
            deal_wounds.in_set(RoundSet::Wounds),
            end_or_retreat.in_set(RoundSet::End),
        ),
    );
}

/// A unit as the combat sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fighter {
    /// Unit id.
    pub id: u32,
    /// Hit points left.
    pub hp: i32,
    /// Dice per round.
    pub dice: u8,
    /// Each die hits on this or more, after the malus.
    pub hit_on: u8,
    /// Taken off each die before it is compared: the army's famine tokens (R5.4).
    pub malus: u8,
}

impl Fighter {
    /// Whether one die's face hits.
    pub fn hits(&self, face: u8) -> bool {
        face.saturating_sub(self.malus) >= self.hit_on
    }

    /// The chance that one die hits.
    pub fn chance(&self) -> f64 {
        (1..=6u8).filter(|d| self.hits(*d)).count() as f64 / 6.0
    }
}

/// The battle under way.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    /// Attacking army id.
    pub attacker: u32,
    /// Defending army id.
    pub defender: u32,
    /// Where.
    pub at: Hex,
    /// Round being fought (1-based).
    pub round: u8,
    /// The attacker retreats when it has fewer units than this.
    pub retreat_below: u32,
    /// Hits scored this round by (attacker, defender).
    pub hits: (u32, u32),
    /// Ended.
    pub over: bool,
}

// How a battle ended is an event's data; it lives with the events.
pub use crate::rules::event::BattleEnd;

/// Defence the defender enjoys: its tile's terrain, plus Defense buildings of an Eladrin outpost
/// standing there.
pub fn defense_of(world: &World, army: &Army) -> i32 {
    let db = world.content();
    let tile = world.tile(army.hex);
    let mut d = tile
        .and_then(|t| db.terrain(&t.terrain))
        .map(|t| t.defense as i32)
        .unwrap_or(0);
    // An explored tile's modifier (R9.3) may make it easier or harder to hold.
    d += tile
        .and_then(|t| t.modifier.as_ref())
        .and_then(|m| db.set.exploration.iter().find(|c| &c.id == m))
        .map(|c| c.modifier.defense as i32)
        .unwrap_or(0);
    if army.camp == Camp::Eladrins
        && let Some(mut q) = world.try_query::<&Outpost>()
    {
        for o in q.iter(world).filter(|o| o.hex == army.hex) {
            for b in o.buildings.iter().filter(|b| b.working()) {
                if let Some(def) = db.building(&b.id) {
                    for e in &def.effects {
                        if let BuildingEffect::Defense(n) = e {
                            d += *n as i32;
                        }
                    }
                }
            }
        }
    }
    d
}

/// An army's fighters; `against` is the defence of the army they strike.
pub fn fighters(world: &World, army: &Army, against: i32) -> Vec<Fighter> {
    let db = world.content();
    army.units
        .iter()
        .map(|u| Fighter {
            id: u.id,
            hp: hp_left(world, army, u),
            dice: db.unit(&u.kind).map(|t| t.attack.dice).unwrap_or(0),
            hit_on: (attack_hit_on(world, army, u) as i32 + against).clamp(2, 6) as u8,
            malus: attack_malus(world, army),
        })
        .collect()
}

/// Rolls one side's attack: total hits. `d6` supplies the dice; `log` sees each unit's roll.
pub fn roll_side(
    side: &[Fighter],
    d6: &mut dyn FnMut() -> u8,
    log: &mut dyn FnMut(&Fighter, Vec<u8>),
) -> u32 {
    let mut hits = 0;
    for f in side.iter().filter(|f| f.hp > 0) {
        let dice: Vec<u8> = (0..f.dice).map(|_| d6()).collect();
        hits += dice.iter().filter(|d| f.hits(**d)).count() as u32;
        log(f, dice);
    }
    hits
}

/// Deals `hits` wounds to a side, weakest first (fewest HP left, then lowest id). Returns the
/// wounds per unit id.
pub fn assign_hits(side: &mut [Fighter], hits: u32) -> Vec<(u32, u8)> {
    let mut wounds: Vec<(u32, u8)> = Vec::new();
    for _ in 0..hits {
        let Some(target) = side
            .iter_mut()
            .filter(|f| f.hp > 0)
            .min_by_key(|f| (f.hp, f.id))
        else {
            break;
        };
        target.hp -= 1;
        match wounds.iter_mut().find(|(id, _)| *id == target.id) {
            Some(w) => w.1 += 1,
            None => wounds.push((target.id, 1)),
        }
    }
    wounds
}

fn alive(side: &[Fighter]) -> usize {
    side.iter().filter(|f| f.hp > 0).count()
}

/// R9.5 engage: the active army attacks an enemy army on its tile; it needs a military unit able
/// to act, and it has not fought this turn.
pub fn validate_engage(world: &mut World, by: Camp, target: u32) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    let te = world
        .army_by_id(target)
        .ok_or(Refusal::UnknownArmy(target))?;
    let t = world.get::<Army>(te).ok_or(Refusal::UnknownArmy(target))?;
    if t.camp == by {
        return Err(Refusal::NotAnEnemy(target));
    }
    if t.hex != a.hex {
        return Err(Refusal::NotHere(target));
    }
    let db = world.content();
    let can = a.units.iter().any(|u| {
        u.ap > 0
            && !u.inactive
            && db
                .unit(&u.kind)
                .is_some_and(|t| t.military || t.camp == Camp::Chaos)
    });
    if !can {
        return Err(Refusal::NoFighter(a.id));
    }
    Ok(())
}

/// Fights the battle, round by round, then ends the attacker's activation (all its points go).
pub fn engage(world: &mut World, by: Camp, target: u32, retreat_below: u32) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    world.insert_resource(Battle {
        attacker: a.id,
        defender: target,
        at: a.hex,
        round: 0,
        retreat_below,
        hits: (0, 0),
        over: false,
    });
    world.emit(GameEvent::BattleStarted {
        attacker: a.id,
        defender: target,
        at: a.hex,
    });
    let rounds = world.content().rules().combat_rounds;
    for r in 1..=rounds {
        world.resource_mut::<Battle>().round = r;
        world.run_schedule(CombatRound);
        if world.resource::<Battle>().over {
            break;
        }
    }
    let b = world.resource::<Battle>().clone();
    world.remove_resource::<Battle>();
    let ae = world.army_by_id(b.attacker);
    let de = world.army_by_id(b.defender);
    let end = match (ae, de) {
        (None, None) => BattleEnd::BothDestroyed,
        (Some(_), None) => BattleEnd::AttackerWins,
        (None, Some(_)) => BattleEnd::DefenderWins,
        (Some(x), Some(_)) => {
            if world.get::<Army>(x).is_some_and(|a| a.hex != b.at) {
                BattleEnd::Retreat
            } else {
                BattleEnd::Undecided
            }
        }
    };
    world.emit(GameEvent::BattleEnded {
        attacker: b.attacker,
        defender: b.defender,
        rounds: b.round,
        end,
    });
    // Engaging ends the attacker's activation (R9.5 reading).
    if let Some(mut am) = world.get_mut::<Army>(e) {
        for u in am.units.iter_mut() {
            u.ap = 0;
        }
    }
}

fn roll_attacks(world: &mut World) {
    let b = world.resource::<Battle>().clone();
    let (Some(ae), Some(de)) = (world.army_by_id(b.attacker), world.army_by_id(b.defender)) else {
        world.resource_mut::<Battle>().over = true;
        return;
    };
    let (Some(a), Some(d)) = (
        world.get::<Army>(ae).cloned(),
        world.get::<Army>(de).cloned(),
    ) else {
        return;
    };
    let def = defense_of(world, &d);
    let fa = fighters(world, &a, def);
    let fd = fighters(world, &d, 0);
    let mut logs: Vec<GameEvent> = Vec::new();
    let mut hits = (0, 0);
    world.resource_scope(|_, mut rng: Mut<GameRng>| {
        let mut d6 = || rng.d6();
        let mut log = |f: &Fighter, dice: Vec<u8>| {
            let ok = dice.iter().any(|x| f.hits(*x));
            logs.push(GameEvent::Dice {
                what: crate::rules::event::Roll::Attack {
                    round: b.round,
                    unit: f.id,
                },
                dice,
                target: f.hit_on as i32,
                malus: f.malus,
                success: ok,
                at: Some(b.at),
            });
        };
        hits.0 = roll_side(&fa, &mut d6, &mut log);
        hits.1 = roll_side(&fd, &mut d6, &mut log);
    });
    for l in logs {
        world.emit(l);
    }
    world.resource_mut::<Battle>().hits = hits;
}

fn deal_wounds(world: &mut World) {
    let b = world.resource::<Battle>().clone();
    if b.over {
        return;
    }
    // Simultaneous: both sides' hits were rolled before anyone falls.
    for (army, hits) in [(b.defender, b.hits.0), (b.attacker, b.hits.1)] {
        let Some(e) = world.army_by_id(army) else {
            continue;
        };
        let Some(a) = world.get::<Army>(e).cloned() else {
            continue;
        };
        let mut side = fighters(world, &a, 0);
        let wounds = assign_hits(&mut side, hits);
        if let Some(mut am) = world.get_mut::<Army>(e) {
            for (id, n) in &wounds {
                if let Some(u) = am.units.iter_mut().find(|u| u.id == *id) {
                    u.wounds = u.wounds.saturating_add(*n);
                }
            }
        }
        for (id, n) in wounds {
            world.emit(GameEvent::UnitWounded {
                army,
                unit: id,
                amount: n,
            });
        }
        cull(world, e, crate::rules::event::Cause::Battle);
    }
    world.emit(GameEvent::RoundFought {
        round: b.round,
        hits: b.hits,
    });
}

fn end_or_retreat(world: &mut World) {
    let b = world.resource::<Battle>().clone();
    let ae = world.army_by_id(b.attacker);
    let de = world.army_by_id(b.defender);
    if ae.is_none() || de.is_none() {
        world.resource_mut::<Battle>().over = true;
        return;
    }
    let Some(ae) = ae else { return };
    let Some(a) = world.get::<Army>(ae).cloned() else {
        return;
    };
    if (a.units.len() as u32) < b.retreat_below
        && let Some(to) = retreat_tile(world, &a)
    {
        if let Some(mut am) = world.get_mut::<Army>(ae) {
            am.hex = to;
        }
        world.emit(GameEvent::Retreated { army: a.id, to });
        world.resource_mut::<Battle>().over = true;
    }
}

/// Where a retreating army goes: a neighbouring passable tile with no enemy, the one nearest
/// its camp's nearest outpost (Eladrins) or rift (Chaos), then the lowest hex.
pub fn retreat_tile(world: &mut World, army: &Army) -> Option<Hex> {
    let homes: Vec<Hex> = match army.camp {
        Camp::Eladrins => world
            .outposts()
            .into_iter()
            .filter_map(|o| world.get::<Outpost>(o).map(|x| x.hex))
            .collect(),
        Camp::Chaos => crate::rules::upkeep::corruption::open_rifts(world),
    };
    let around: Vec<Hex> = world.resource::<Board>().neighbors(army.hex).collect();
    let mut options: Vec<Hex> = around
        .into_iter()
        .filter(|h| super::activate::enter_cost(world, *h, false, army.afloat).is_some())
        .collect();
    options.retain(|h| armies_on(world, *h, army.camp.enemy()).is_empty());
    options.sort_by_key(|h| {
        (
            homes
                .iter()
                .map(|x| x.unsigned_distance_to(*h))
                .min()
                .unwrap_or(0),
            crate::rules::board::key(*h),
        )
    });
    options.first().copied()
}

/// The odds of a battle, for the combat preview.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleOdds {
    /// Exact distribution of the attacker's hits in the first round (index = hits).
    pub attacker_round_hits: Vec<f64>,
    /// Exact distribution of the defender's hits in the first round.
    pub defender_round_hits: Vec<f64>,
    /// Share of simulated battles the attacker won (defender destroyed, attacker standing).
    pub attacker_wins: f64,
    /// Share the defender won (attacker destroyed, defender standing).
    pub defender_wins: f64,
    /// Share with both standing at the end (or the attacker retreating).
    pub undecided: f64,
    /// Share with both destroyed.
    pub both_destroyed: f64,
    /// Simulated battles.
    pub samples: u32,
    /// What famine takes off each attack die of (attacker, defender) (R5.4).
    pub famine: (u8, u8),
}

/// Exact distribution of a side's hits in one round (a convolution of its dice).
pub fn hit_distribution(side: &[Fighter]) -> Vec<f64> {
    let mut dist = vec![1.0];
    for f in side.iter().filter(|f| f.hp > 0) {
        let p = f.chance();
        for _ in 0..f.dice {
            let mut next = vec![0.0; dist.len() + 1];
            for (k, q) in dist.iter().enumerate() {
                next[k] += q * (1.0 - p);
                next[k + 1] += q * p;
            }
            dist = next;
        }
    }
    dist
}

/// The odds of `attacker` engaging `defender` now: exact first-round hits, and `samples`
/// simulated battles with the same procedure (seeded from the armies, never the game's RNG).
pub fn battle_odds(
    world: &World,
    attacker: &Army,
    defender: &Army,
    retreat_below: u32,
    samples: u32,
) -> BattleOdds {
    let def = defense_of(world, defender);
    let fa = fighters(world, attacker, def);
    let fd = fighters(world, defender, 0);
    let rounds = world.content().rules().combat_rounds;
    let seed = ((attacker.id as u64) << 32) ^ defender.id as u64 ^ 0x5eed;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut aw, mut dw, mut un, mut both) = (0u32, 0u32, 0u32, 0u32);
    let samples = samples.max(1);
    for _ in 0..samples {
        let (mut a, mut d) = (fa.clone(), fd.clone());
        let mut d6 = || rng.random_range(1..=6u8);
        for _ in 0..rounds {
            let ha = roll_side(&a, &mut d6, &mut |_, _| {});
            let hd = roll_side(&d, &mut d6, &mut |_, _| {});
            assign_hits(&mut d, ha);
            assign_hits(&mut a, hd);
            if alive(&a) == 0 || alive(&d) == 0 {
                break;
            }
            if (alive(&a) as u32) < retreat_below {
                break;
            }
        }
        match (alive(&a) > 0, alive(&d) > 0) {
            (true, false) => aw += 1,
            (false, true) => dw += 1,
            (false, false) => both += 1,
            (true, true) => un += 1,
        }
    }
    let n = samples as f64;
    BattleOdds {
        attacker_round_hits: hit_distribution(&fa),
        defender_round_hits: hit_distribution(&fd),
        attacker_wins: aw as f64 / n,
        defender_wins: dw as f64 / n,
        undecided: un as f64 / n,
        both_destroyed: both as f64 / n,
        samples,
        famine: (attack_malus(world, attacker), attack_malus(world, defender)),
    }
}
