//! Paying and collecting: where resources can be taken from (an outpost's stock, tiles in its
//! influence zone, a unit's own tile, R5.1 and R9.2) and the stable order they are taken in.

use bevy::prelude::*;
use hexx::Hex;

use super::{Board, GameWorld, Modifiers, Outpost, Tile};
use crate::content::{Res, Stock};

/// A place resources can be paid from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An outpost's stock.
    Outpost(Entity),
    /// Resources lying on a tile.
    Tile(Entity),
}

/// The hexes of an outpost's influence zone on the map, nearest first.
pub fn influence_zone(world: &World, outpost: &Outpost) -> Vec<Hex> {
    let db = world.content();
    world
        .resource::<Board>()
        .within(outpost.hex, outpost.influence(&db))
}

/// An outpost's purse: its stock first, then what lies in its influence zone (R9.2, R5.1).
pub fn outpost_purse(world: &World, outpost: Entity) -> Vec<Source> {
    let mut v = vec![Source::Outpost(outpost)];
    if let Some(o) = world.get::<Outpost>(outpost) {
        let board = world.resource::<Board>();
        for h in influence_zone(world, o) {
            if let Some(e) = board.get(h) {
                v.push(Source::Tile(e));
            }
        }
    }
    v
}

/// What a unit or building on `hex` may pay upkeep from (R5.1): its own tile, then every
/// outpost (by id) whose influence zone holds the hex, with that zone.
pub fn purse_at(world: &mut World, hex: Hex) -> Vec<Source> {
    let mut v = Vec::new();
    if let Some(e) = world.resource::<Board>().get(hex) {
        v.push(Source::Tile(e));
    }
    let db = world.content();
    for o in world.outposts() {
        let Some(op) = world.get::<Outpost>(o) else {
            continue;
        };
        if op.hex.unsigned_distance_to(hex) <= op.influence(&db) {
            for s in outpost_purse(world, o) {
                if !v.contains(&s) {
                    v.push(s);
                }
            }
        }
    }
    v
}

/// A ritual's purse (rituals.ron): what the tile and the outposts around hold, then the stock and
/// zone of the nearest Eladrin outpost (by distance, then id), however far: the outpost sends its
/// ritualists what they need.
pub fn ritual_purse(world: &mut World, hex: Hex) -> Vec<Source> {
    let mut v = purse_at(world, hex);
    let nearest = world.outposts().into_iter().min_by_key(|o| {
        world
            .get::<Outpost>(*o)
            .map(|op| (op.hex.unsigned_distance_to(hex), op.id))
            .unwrap_or((u32::MAX, u32::MAX))
    });
    if let Some(o) = nearest {
        for s in outpost_purse(world, o) {
            if !v.contains(&s) {
                v.push(s);
            }
        }
    }
    v
}

/// Everything a purse holds.
pub fn available(world: &World, purse: &[Source]) -> Stock {
    let mut total = Stock::default();
    for s in purse {
        match s {
            Source::Outpost(e) => {
                if let Some(o) = world.get::<Outpost>(*e) {
                    total.add_all(&o.stock);
                }
            }
            Source::Tile(e) => {
                if let Some(t) = world.get::<Tile>(*e) {
                    total.add_all(&t.lying);
                }
            }
        }
    }
    total
}

/// Takes up to `n` of `res` from the purse in order; returns how much was taken.
pub fn take_up_to(world: &mut World, purse: &[Source], res: Res, n: u32) -> u32 {
    let mut left = n;
    for s in purse {
        if left == 0 {
            break;
        }
        let took = match s {
            Source::Outpost(e) => world
                .get_mut::<Outpost>(*e)
                .map(|mut o| o.stock.take(res, left))
                .unwrap_or(0),
            Source::Tile(e) => world
                .get_mut::<Tile>(*e)
                .map(|mut t| t.lying.take(res, left))
                .unwrap_or(0),
        };
        left -= took;
    }
    n - left
}

/// Pays `cost` in full from the purse, or takes nothing and returns false.
pub fn pay(world: &mut World, purse: &[Source], cost: &Stock) -> bool {
    if !available(world, purse).covers(cost) {
        return false;
    }
    for (r, n) in cost.iter() {
        take_up_to(world, purse, r, n);
    }
    true
}

/// An outpost's storage capacity (R3.3), with technology bonuses.
pub fn storage_of(world: &World, outpost: &Outpost) -> u32 {
    let db = world.content();
    outpost.storage(&db, world.resource::<Modifiers>().storage)
}

/// Adds to an outpost's stock up to its storage; returns what fitted.
pub fn store(world: &mut World, outpost: Entity, stock: &Stock) -> Stock {
    let Some(o) = world.get::<Outpost>(outpost) else {
        return Stock::default();
    };
    let cap = storage_of(world, o);
    let mut room = cap.saturating_sub(o.stock.total());
    let mut fitted = Stock::default();
    for (r, n) in stock.iter() {
        let k = n.min(room);
        room -= k;
        fitted.add(r, k);
    }
    if let Some(mut o) = world.get_mut::<Outpost>(outpost) {
        o.stock.add_all(&fitted);
    }
    fitted
}

/// `Ok` when `have` covers `need`, else the first resource short, as a refusal.
pub fn can_pay(need: &Stock, have: &Stock) -> Result<(), super::Refusal> {
    for (r, n) in need.iter() {
        if have.get(r) < n {
            return Err(super::Refusal::NotEnough {
                res: r,
                need: n,
                have: have.get(r),
            });
        }
    }
    Ok(())
}
