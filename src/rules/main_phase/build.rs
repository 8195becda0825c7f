//! R9.1 improvements on tiles, R9.2 buildings in outposts, recruiting units and founding
//! outposts (readings of R9.2: outposts grow and new ones are founded by units that can).

use bevy::prelude::*;
use hexx::Hex;

use super::{active_army, hex_of, spend_ap};
use crate::content::{At, Camp, Skill, Stock};
use crate::rules::economy::{available, outpost_purse, pay};
use crate::rules::units::spawn;
use crate::rules::{Army, Board, GameEvent, GameWorld, Ids, Outpost, Refusal, Works, effects};

/// The Eladrin outpost whose control zone holds `h` (lowest id first), if any (R9.1).
pub fn controlling_outpost(world: &mut World, h: Hex) -> Option<Entity> {
    let db = world.content();
    world.outposts().into_iter().find(|o| {
        world
            .get::<Outpost>(*o)
            .is_some_and(|op| op.hex.unsigned_distance_to(h) <= op.control(&db))
    })
}

/// Armies of `camp` on `h`, by id.
pub fn armies_on(world: &mut World, h: Hex, camp: Camp) -> Vec<Entity> {
    world.armies_where(|a| a.hex == h && a.camp == camp)
}

fn has_military(world: &World, army: Entity) -> bool {
    let db = world.content();
    world.get::<Army>(army).is_some_and(|a| {
        a.units
            .iter()
            .any(|u| db.unit(&u.kind).is_some_and(|t| t.military))
    })
}

/// Where an improvement on `h` is paid from: the tile, then the controlling outpost (R9.1).
fn improvement_purse(world: &mut World, h: Hex) -> Vec<crate::rules::economy::Source> {
    let mut v = Vec::new();
    if let Some(e) = world.resource::<Board>().get(h) {
        v.push(crate::rules::economy::Source::Tile(e));
    }
    if let Some(o) = controlling_outpost(world, h) {
        v.push(crate::rules::economy::Source::Outpost(o));
    }
    v
}

/// `Locked` unless the building or improvement `id` is open (`effects::is_unlocked`), named as
/// the research sheet names its technology.
fn unlocked(world: &World, id: &str, requires: &Option<String>) -> Result<(), Refusal> {
    match requires {
        Some(t) if !effects::is_unlocked(world, id, requires) => {
            let db = world.content();
            Err(Refusal::Locked(
                db.tech(t).map_or(t.clone(), |x| x.name.clone()),
            ))
        }
        _ => Ok(()),
    }
}

/// R9.1: all three conditions, one improvement per tile, terrain and technology.
pub fn validate_improvement(world: &mut World, at: At, id: &str) -> Result<(), Refusal> {
    let h = hex_of(at);
    let db = world.content();
    let imp = db
        .improvement(id)
        .ok_or_else(|| Refusal::UnknownContent(id.to_string()))?;
    let tile = world.tile(h).cloned().ok_or(Refusal::OffMap(at))?;
    if tile.improvement.is_some() {
        return Err(Refusal::ImprovementThere(at));
    }
    // The refusal names the improvement and the terrain as a player reads them.
    let wrong_terrain = || Refusal::WrongTerrain {
        what: imp.name.clone(),
        terrain: db
            .terrain(&tile.terrain)
            .map_or(tile.terrain.clone(), |t| t.name.clone()),
    };
    if !imp.terrains.is_empty() && !imp.terrains.contains(&tile.terrain) {
        return Err(wrong_terrain());
    }
    if db
        .terrain(&tile.terrain)
        .is_some_and(|t| t.water || t.impassable)
        && imp.terrains.is_empty()
    {
        return Err(wrong_terrain());
    }
    unlocked(world, &imp.id, &imp.requires_tech)?;
    if !armies_on(world, h, Camp::Chaos).is_empty() {
        return Err(Refusal::EnemyThere(at));
    }
    let controlled = controlling_outpost(world, h).is_some();
    let held = armies_on(world, h, Camp::Eladrins)
        .into_iter()
        .any(|a| has_military(world, a));
    if !controlled && !held {
        return Err(Refusal::NotControlled(at));
    }
    let purse = improvement_purse(world, h);
    crate::rules::economy::can_pay(&imp.cost, &available(world, &purse))
}

/// Applies R9.1.
pub fn build_improvement(world: &mut World, at: At, id: &str) {
    let h = hex_of(at);
    let db = world.content();
    let Some(imp) = db.improvement(id) else {
        return;
    };
    let purse = improvement_purse(world, h);
    if !pay(world, &purse, &imp.cost) {
        return;
    }
    if let Some(mut t) = world.tile_mut(h) {
        t.improvement = Some(Works {
            id: id.to_string(),
            timer: imp.build_time,
            inactive: false,
        });
    }
    world.emit(GameEvent::Built {
        id: id.to_string(),
        at: h,
        timer: imp.build_time,
    });
}

/// R9.2: cost from the outpost or its influence zone; the size's slots cap all buildings.
pub fn validate_building(world: &mut World, outpost: u32, id: &str) -> Result<(), Refusal> {
    let db = world.content();
    let b = db
        .building(id)
        .ok_or_else(|| Refusal::UnknownContent(id.to_string()))?;
    let o = world
        .outpost_by_id(outpost)
        .ok_or(Refusal::UnknownOutpost(outpost))?;
    let op = world
        .get::<Outpost>(o)
        .ok_or(Refusal::UnknownOutpost(outpost))?;
    let slots = db.size(&op.size).map(|s| s.building_slots).unwrap_or(0);
    if op.buildings.len() as u32 >= slots {
        return Err(Refusal::NoSlot { slots });
    }
    unlocked(world, &b.id, &b.requires_tech)?;
    crate::rules::economy::can_pay(&b.cost, &available(world, &outpost_purse(world, o)))
}

/// Applies R9.2.
pub fn build_building(world: &mut World, outpost: u32, id: &str) {
    let db = world.content();
    let Some(b) = db.building(id) else { return };
    let Some(o) = world.outpost_by_id(outpost) else {
        return;
    };
    if !pay(world, &outpost_purse(world, o), &b.cost) {
        return;
    }
    let Some(mut op) = world.get_mut::<Outpost>(o) else {
        return;
    };
    op.buildings.push(Works {
        id: id.to_string(),
        timer: b.build_time,
        inactive: false,
    });
    let at = op.hex;
    world.emit(GameEvent::Built {
        id: id.to_string(),
        at,
        timer: b.build_time,
    });
}

/// Recruiting (R9.2 reading): a unit with a recruit cost joins the Eladrins on the outpost's tile.
pub fn validate_recruit(world: &mut World, outpost: u32, unit: &str) -> Result<(), Refusal> {
    let db = world.content();
    let t = db
        .unit(unit)
        .ok_or_else(|| Refusal::UnknownContent(unit.to_string()))?;
    let cost = t
        .recruit_cost
        .filter(|_| t.camp == Camp::Eladrins)
        .ok_or_else(|| Refusal::NotRecruitable(t.name.clone()))?;
    let o = world
        .outpost_by_id(outpost)
        .ok_or(Refusal::UnknownOutpost(outpost))?;
    crate::rules::economy::can_pay(&cost, &available(world, &outpost_purse(world, o)))?;
    // The recruit joins the Eladrin army on the tile, famine tokens and all (R5.4).
    let hp = t.hp as i32 + world.resource::<crate::rules::Modifiers>().hp as i32;
    if let Some(h) = world.get::<Outpost>(o).map(|x| x.hex)
        && let Some(a) = armies_on(world, h, Camp::Eladrins)
            .first()
            .and_then(|e| world.get::<crate::rules::Army>(*e))
        && a.famine as i32 >= hp
    {
        return Err(Refusal::RecruitWouldStarve {
            army: a.id,
            famine: a.famine,
        });
    }
    Ok(())
}

/// Applies a recruitment.
pub fn recruit(world: &mut World, outpost: u32, unit: &str) {
    let db = world.content();
    let Some(cost) = db.unit(unit).and_then(|t| t.recruit_cost) else {
        return;
    };
    let Some(o) = world.outpost_by_id(outpost) else {
        return;
    };
    if !pay(world, &outpost_purse(world, o), &cost) {
        return;
    }
    let Some(h) = world.get::<Outpost>(o).map(|x| x.hex) else {
        return;
    };
    spawn(world, Camp::Eladrins, h, unit, 1);
    world.emit(GameEvent::Recruited {
        unit: unit.to_string(),
        at: h,
    });
}

/// Founding an outpost (R9.2 reading): a Founder unit of the active army, on land outside every
/// outpost's control zone, spends its action points (hourglass) and becomes a camp.
pub fn validate_found(world: &mut World, by: Camp, unit: u32) -> Result<(), Refusal> {
    let (_, army, _) = super::acting_unit(world, by, unit, Some((&Skill::Founder, "Founder")))?;
    let db = world.content();
    if controlling_outpost(world, army.hex).is_some()
        || world.outposts().iter().any(|o| {
            world
                .get::<Outpost>(*o)
                .is_some_and(|op| op.hex == army.hex)
        })
    {
        return Err(Refusal::TooCloseToOutpost);
    }
    if world.tile(army.hex).is_some_and(|t| t.is_corrupted()) {
        return Err(Refusal::Corrupted(super::at_of(army.hex)));
    }
    if army.afloat || super::activate::enter_cost(world, army.hex, false, false).is_none() {
        return Err(Refusal::WrongTerrain {
            what: "an outpost".into(),
            terrain: world
                .tile(army.hex)
                .map(|t| {
                    let db = world.content();
                    db.terrain(&t.terrain)
                        .map_or(t.terrain.clone(), |x| x.name.clone())
                })
                .unwrap_or_default(),
        });
    }
    let smallest = db.set.outpost_sizes.first();
    if smallest.is_none() {
        return Err(Refusal::NoOutpostSize);
    }
    Ok(())
}

/// Applies a founding.
pub fn found(world: &mut World, by: Camp, unit: u32, name: &str) {
    let Ok((e, army)) = active_army(world, by) else {
        return;
    };
    spend_ap(world, e, unit, u8::MAX);
    world.resource_mut::<crate::rules::units::Census>().settled += 1;
    if let Some(mut a) = world.get_mut::<Army>(e) {
        a.units.retain(|u| u.id != unit);
        if a.units.is_empty() {
            world.despawn(e);
            world.resource_mut::<crate::rules::Cycle>().activation = None;
        }
    }
    let db = world.content();
    let size = db
        .set
        .outpost_sizes
        .first()
        .map(|s| s.id.clone())
        .unwrap_or_default();
    let id = world.resource_mut::<Ids>().fresh();
    let name: String = name.chars().take(40).collect();
    let name = if name.trim().is_empty() {
        format!("Outpost {id}")
    } else {
        name
    };
    world.spawn(Outpost {
        id,
        name: name.clone(),
        hex: army.hex,
        size,
        stock: Stock::default(),
        buildings: vec![],
        portal: false,
        seat: army.seat,
    });
    world.emit(GameEvent::OutpostFounded { name, at: army.hex });
}
