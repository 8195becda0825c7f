//! R9.4 — Embarking: boats carry units and resources over water. Embarking or landing costs
//! 1 action point to each unit involved, and a unit embarks or lands at most once per cycle;
//! loading or unloading resources costs a boat 1 point.
//!
//! Reading: an army embarks on a land tile next to water (its boats must hold every other unit)
//! and is then *afloat*: it moves over water tiles only (1 point each, the sea included) until it
//! lands on a neighbouring land tile. Boats are carried overland with their army.

use bevy::prelude::*;
use hexx::Hex;

use super::{active_army, at_of};
use crate::content::{Camp, ContentDb, Res, Skill, Stock};
use crate::rules::economy::{available, purse_at, store, take_up_to};
use crate::rules::{Army, Board, GameEvent, GameWorld, Outpost, Refusal, Unit};

/// A boat's capacity (units, resources), if the unit is a boat.
pub fn boat(db: &ContentDb, u: &Unit) -> Option<(u32, u32)> {
    db.unit(&u.kind)?.skills.iter().find_map(|s| match s {
        Skill::Boat { units, resources } => Some((*units, *resources)),
        _ => None,
    })
}

/// The army's boat capacity: (units, resources).
pub fn capacity(db: &ContentDb, army: &Army) -> (u32, u32) {
    army.units
        .iter()
        .filter_map(|u| boat(db, u))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

fn is_water(world: &World, h: Hex) -> bool {
    let db = world.content();
    world
        .tile(h)
        .and_then(|t| db.terrain(&t.terrain))
        .is_some_and(|t| t.water)
}

fn ready(a: &Army) -> Result<(), Refusal> {
    for u in &a.units {
        if u.embarked {
            return Err(Refusal::AlreadyEmbarked(u.id));
        }
        if u.ap == 0 {
            return Err(Refusal::NoActionPoints {
                unit: u.id,
                need: 1,
                have: 0,
            });
        }
    }
    Ok(())
}

/// Embark: boats for every other unit, water next to the army, every unit with a point.
pub fn validate_embark(world: &mut World, by: Camp) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    if a.afloat {
        return Err(Refusal::Afloat(true));
    }
    let db = world.content();
    let (seats, _) = capacity(&db, &a);
    let passengers = a.units.iter().filter(|u| boat(&db, u).is_none()).count() as u32;
    if seats == 0 || passengers > seats {
        return Err(Refusal::NoBoat { seats, passengers });
    }
    let around: Vec<Hex> = world.resource::<Board>().neighbors(a.hex).collect();
    if !around.into_iter().any(|n| is_water(world, n)) {
        return Err(Refusal::NoWater(at_of(a.hex)));
    }
    ready(&a)
}

/// Applies an embarkation.
pub fn embark(world: &mut World, by: Camp) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    if let Some(mut am) = world.get_mut::<Army>(e) {
        am.afloat = true;
        for u in am.units.iter_mut() {
            u.ap -= 1;
            u.embarked = true;
        }
    }
    world.emit(GameEvent::Embarked {
        army: a.id,
        at: a.hex,
    });
}

/// Land on a neighbouring land tile.
pub fn validate_land(world: &mut World, by: Camp, to: Hex) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    if !a.afloat {
        return Err(Refusal::Afloat(false));
    }
    if a.hex.unsigned_distance_to(to) != 1
        || super::activate::enter_cost(world, to, false, false).is_none()
    {
        return Err(Refusal::Unreachable(at_of(to)));
    }
    ready(&a)
}

/// Applies a landing.
pub fn land(world: &mut World, by: Camp, to: Hex) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    if let Some(mut am) = world.get_mut::<Army>(e) {
        am.afloat = false;
        am.hex = to;
        for u in am.units.iter_mut() {
            u.ap -= 1;
            u.embarked = true;
        }
    }
    world.emit(GameEvent::Landed { army: a.id, at: to });
}

/// The first boat of the army with a point left.
fn boat_with_ap(db: &ContentDb, a: &Army) -> Option<u32> {
    a.units
        .iter()
        .find(|u| u.ap > 0 && boat(db, u).is_some())
        .map(|u| u.id)
}

/// Load resources from the tile or the outposts around (R5.1's purse) into the boats.
pub fn validate_load(world: &mut World, by: Camp, res: Res, amount: u32) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    let db = world.content();
    if amount == 0 {
        return Err(Refusal::NothingToDo);
    }
    let (_, hold) = capacity(&db, &a);
    if a.cargo.total() + amount > hold {
        return Err(Refusal::HoldFull {
            hold,
            carried: a.cargo.total(),
        });
    }
    boat_with_ap(&db, &a).ok_or(Refusal::NoBoat {
        seats: 0,
        passengers: 0,
    })?;
    let purse = purse_at(world, a.hex);
    let have = available(world, &purse).get(res);
    if have < amount {
        return Err(Refusal::NotEnough {
            res,
            need: amount,
            have,
        });
    }
    Ok(())
}

/// Applies a loading.
pub fn load(world: &mut World, by: Camp, res: Res, amount: u32) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let db = world.content();
    let Some(unit) = boat_with_ap(&db, &a) else {
        return;
    };
    let purse = purse_at(world, a.hex);
    let took = take_up_to(world, &purse, res, amount);
    super::spend_ap(world, e, unit, 1);
    if let Some(mut am) = world.get_mut::<Army>(e) {
        am.cargo.add(res, took);
    }
    world.emit(GameEvent::Loaded {
        army: a.id,
        stock: Stock::of(res, took),
    });
}

/// Unload resources onto the army's (land) tile, into the outpost standing there if any.
pub fn validate_unload(world: &mut World, by: Camp, res: Res, amount: u32) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    let db = world.content();
    if amount == 0 {
        return Err(Refusal::NothingToDo);
    }
    if a.cargo.get(res) < amount {
        return Err(Refusal::NotEnough {
            res,
            need: amount,
            have: a.cargo.get(res),
        });
    }
    if is_water(world, a.hex) {
        return Err(Refusal::Afloat(true));
    }
    boat_with_ap(&db, &a).ok_or(Refusal::NoBoat {
        seats: 0,
        passengers: 0,
    })?;
    Ok(())
}

/// Applies an unloading.
pub fn unload(world: &mut World, by: Camp, res: Res, amount: u32) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let db = world.content();
    let Some(unit) = boat_with_ap(&db, &a) else {
        return;
    };
    super::spend_ap(world, e, unit, 1);
    if let Some(mut am) = world.get_mut::<Army>(e) {
        am.cargo.take(res, amount);
    }
    let mut rest = Stock::of(res, amount);
    let outpost = world
        .outposts()
        .into_iter()
        .find(|o| world.get::<Outpost>(*o).is_some_and(|op| op.hex == a.hex));
    if let Some(o) = outpost {
        let fitted = store(world, o, &rest);
        rest.take(res, fitted.get(res));
    }
    if let Some(mut t) = world.tile_mut(a.hex) {
        t.lying.add_all(&rest);
    }
    world.emit(GameEvent::Unloaded {
        army: a.id,
        stock: Stock::of(res, amount),
        at: a.hex,
    });
}
