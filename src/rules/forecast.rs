//! The upkeep forecast: what the next upkeep will do if nothing changes, from what is known now
//! (never from dice not yet rolled): armies that will go hungry (R5.3–R5.4), buildings and
//! improvements that can't pay their upkeep (R5.2), both played exactly on a copy of the state,
//! Chaos's first corruption target with its exact odds (R6.2), and a power track blocked by
//! corruption markers (R8.3). The panels show them as
//! warnings before they happen.

use bevy::prelude::*;
use hexx::Hex;
use serde::Serialize;

use super::economy::{available, purse_at};
use super::upkeep::corruption::{attempts_this_step, choose_target, two_d6_at_least};
use super::upkeep::maintenance::army_needs;
use super::{Army, GameWorld, Outpost, Tile};
use crate::content::{Camp, Res, Stock};

/// One warning about the next upkeep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Warning {
    /// An Eladrin army needs more food (or psara) than lies within its reach now.
    Famine {
        /// Army id.
        army: u32,
        /// Where it stands.
        at: (i32, i32),
        /// Food and psara it eats.
        needs: Stock,
        /// Food and psara within its reach now.
        within_reach: Stock,
        /// Famine tokens if no more arrives.
        tokens: u32,
    },
    /// A ready building can't pay its upkeep from its outpost's purse now.
    BuildingInactive {
        /// Outpost name.
        outpost: String,
        /// Building id.
        building: String,
        /// Its upkeep.
        upkeep: Stock,
    },
    /// A ready improvement can't pay its upkeep now.
    ImprovementInactive {
        /// Tile.
        at: (i32, i32),
        /// Improvement id.
        improvement: String,
        /// Its upkeep.
        upkeep: Stock,
    },
    /// Chaos's first corruption attempt: its target and the exact odds.
    Corruption {
        /// The tile Chaos will try first.
        at: (i32, i32),
        /// The 2d6 target.
        target: i32,
        /// Chance it succeeds.
        chance: f64,
        /// Attempts Chaos gets.
        attempts: u32,
        /// An Eladrin outpost stands there.
        outpost: bool,
    },
    /// R8.3: corruption markers sit on the next power cells; no crystal can go in until they are
    /// pushed back (closing a rift, a ritual).
    PowerBlocked {
        /// Markers on the track.
        markers: u32,
        /// Free cells before the last one: how many more markers Chaos needs to take the portal
        /// (R8.4).
        cells_left: u32,
    },
}

/// The warnings for the next upkeep, most urgent first (famine, idle works, corruption). R5 has
/// no dice, so it is played on a copy of the state (after the chapter steps the level plays
/// right before it, such as a team's rations): the famine tokens and idle works it shows are
/// exactly what the upkeep does if nothing changes before it.
pub fn upkeep_forecast(world: &mut World) -> Vec<Warning> {
    let db = world.content();
    let mut out = Vec::new();
    let snap = super::snapshot::capture(world);
    let mut sandbox = super::setup::headless_app(db.clone());
    let w2 = sandbox.world_mut();
    if super::snapshot::restore_trusted(w2, &snap).is_ok() {
        super::upkeep::maintenance::feed_after_chapter_steps(w2);
        let mut after: Vec<Army> = w2.query::<&Army>().iter(w2).cloned().collect();
        after.sort_by_key(|a| a.id);
        for a in world.armies() {
            let Some(army) = world.get::<Army>(a).cloned() else {
                continue;
            };
            if army.camp != Camp::Eladrins {
                continue;
            }
            let tokens = after
                .iter()
                .find(|x| x.id == army.id)
                .map_or(0, |x| x.famine.saturating_sub(army.famine));
            if tokens == 0 {
                continue;
            }
            let (food, psara) = army_needs(world, &army);
            let purse = purse_at(world, army.hex);
            let have = available(world, &purse);
            let mut needs = Stock::default();
            needs.add(Res::Food, food);
            needs.add(Res::Psara, psara);
            let mut within = Stock::default();
            within.add(Res::Food, have.get(Res::Food));
            within.add(Res::Psara, have.get(Res::Psara));
            out.push(Warning::Famine {
                army: army.id,
                at: (army.hex.x, army.hex.y),
                needs,
                within_reach: within,
                tokens,
            });
        }
        let mut ops: Vec<Outpost> = w2.query::<&Outpost>().iter(w2).cloned().collect();
        ops.sort_by_key(|o| o.id);
        for op in ops {
            for b in &op.buildings {
                let upkeep = db.building(&b.id).map(|d| d.upkeep).unwrap_or_default();
                if b.timer == 0 && b.inactive && !upkeep.is_empty() {
                    out.push(Warning::BuildingInactive {
                        outpost: op.name.clone(),
                        building: b.id.clone(),
                        upkeep,
                    });
                }
            }
        }
        let mut works: Vec<(Hex, String)> = w2
            .query::<&Tile>()
            .iter(w2)
            .filter_map(|t| {
                let w = t.improvement.as_ref()?;
                (w.timer == 0 && w.inactive).then(|| (t.hex, w.id.clone()))
            })
            .collect();
        works.sort_by_key(|(h, _)| (h.x, h.y));
        for (h, id) in works {
            let upkeep = db.improvement(&id).map(|d| d.upkeep).unwrap_or_default();
            if !upkeep.is_empty() {
                out.push(Warning::ImprovementInactive {
                    at: (h.x, h.y),
                    improvement: id,
                    upkeep,
                });
            }
        }
    }
    let p = world.resource::<super::Portal>().clone();
    if p.corruption > 0 && !p.operational && super::upkeep::portal::is_built(world) {
        let track = world.content().portal().track;
        out.push(Warning::PowerBlocked {
            markers: p.corruption,
            cells_left: track.saturating_sub(p.power + p.corruption),
        });
    }
    let attempts = attempts_this_step(world);
    if attempts > 0
        && let Some((h, target)) = choose_target(world)
    {
        let outpost = world.query::<&Outpost>().iter(world).any(|o| o.hex == h);
        out.push(Warning::Corruption {
            at: (h.x, h.y),
            target,
            chance: two_d6_at_least(target),
            attempts,
            outpost,
        });
    }
    out
}
