//! Armies and their units (R5, R6.3, R9.4). An army is an entity; its units are plain data in
//! it, each with a stable id so that logs, saves and the view can name them.

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::event::Cause;
use super::{GameEvent, GameWorld, Ids, Modifiers};
use crate::content::Camp;

/// One unit of an army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Stable id.
    pub id: u32,
    /// Unit type id.
    pub kind: String,
    /// Hit points lost to wounds (healable; famine losses are the army's tokens, R5.4).
    pub wounds: u8,
    /// Action points left this activation (R9.4).
    pub ap: u8,
    /// Non-food upkeep unpaid this phase (R5.2).
    pub inactive: bool,
    /// Embarked or landed this cycle (R9.4: once per cycle).
    pub embarked: bool,
    /// A veteran's name, carried from chapter to chapter of a campaign (K2); none for the
    /// others (and in every save made before names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// An army: one or more units on one hex, of one camp.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    /// Stable id.
    pub id: u32,
    /// Owner.
    pub camp: Camp,
    /// Where.
    pub hex: Hex,
    /// Famine tokens (R5.4): −1 attack and −1 hit point each to every unit.
    pub famine: u32,
    /// Units.
    pub units: Vec<Unit>,
    /// Activated this main phase (R9.4: once per turn).
    pub activated: bool,
    /// Aboard its boats (R9.4 embark): moves over water, lands to go ashore.
    #[serde(default)]
    pub afloat: bool,
    /// Resources carried by its boats.
    #[serde(default)]
    pub cargo: crate::content::Stock,
    /// The Eladrin seat it belongs to (only that seat commands it); none: any Eladrin seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
}

/// Unit bookkeeping behind the invariant "units are conserved": every unit ever created is
/// alive, dead, turned to Chaos (R6.3) or spent founding an outpost. Fuzzing checks it after
/// every action, so a rule that drops a unit without saying so is caught.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Census {
    /// Units created (at setup, recruited, spawned, summoned, turned into).
    pub created: u32,
    /// Units dead (wounds, famine).
    pub died: u32,
    /// Eladrin units turned to Chaos (the Chaos unit they become counts as created).
    pub turned: u32,
    /// Settlers spent founding an outpost.
    pub settled: u32,
}

/// Hit points a unit has left: its card, plus technology (Eladrins), minus wounds, minus the
/// army's famine tokens (R5.4).
pub fn hp_left(world: &World, army: &Army, unit: &Unit) -> i32 {
    let db = world.content();
    let base = db.unit(&unit.kind).map(|t| t.hp as i32).unwrap_or(1);
    let bonus = if army.camp == Camp::Eladrins {
        world.resource::<Modifiers>().hp as i32
    } else {
        0
    };
    base + bonus - unit.wounds as i32 - army.famine as i32
}

/// Removes units with no hit points left (and the army when empty).
pub fn cull(world: &mut World, army: Entity, cause: Cause) {
    let Some(a) = world.get::<Army>(army).cloned() else {
        return;
    };
    let dead: Vec<u32> = a
        .units
        .iter()
        .filter(|u| hp_left(world, &a, u) <= 0)
        .map(|u| u.id)
        .collect();
    world.resource_mut::<Census>().died += dead.len() as u32;
    for id in &dead {
        world.emit(GameEvent::UnitDied {
            army: a.id,
            unit: *id,
            cause: cause.clone(),
        });
    }
    if let Some(mut am) = world.get_mut::<Army>(army) {
        am.units.retain(|u| !dead.contains(&u.id));
        if am.units.is_empty() {
            world.despawn(army);
        }
    }
}

/// Adds famine tokens to an army (R5.4) and removes the units that starve.
pub fn add_famine(world: &mut World, army: Entity, n: u32) {
    if n == 0 {
        return;
    }
    let Some(mut a) = world.get_mut::<Army>(army) else {
        return;
    };
    a.famine += n;
    let (id, tokens) = (a.id, a.famine);
    world.emit(GameEvent::Famine {
        army: id,
        change: n as i32,
        tokens,
    });
    cull(world, army, Cause::Famine);
}

/// Wounds every unit of an army.
pub fn wound_all(world: &mut World, army: Entity, n: u8, cause: Cause) {
    let Some(mut a) = world.get_mut::<Army>(army) else {
        return;
    };
    let id = a.id;
    let units: Vec<u32> = a.units.iter().map(|u| u.id).collect();
    for u in a.units.iter_mut() {
        u.wounds = u.wounds.saturating_add(n);
    }
    for u in units {
        world.emit(GameEvent::UnitWounded {
            army: id,
            unit: u,
            amount: n,
        });
    }
    cull(world, army, cause);
}

/// Adds units to the army of `camp` on `hex`, or a new army there.
pub fn spawn(world: &mut World, camp: Camp, hex: Hex, unit: &str, count: u32) {
    if count == 0 || world.content().unit(unit).is_none() {
        return;
    }
    let existing = world.armies().into_iter().find(|e| {
        world
            .get::<Army>(*e)
            .is_some_and(|a| a.camp == camp && a.hex == hex)
    });
    // Fresh units come with their action points: an army that was not activated yet this turn
    // may use them at once; one that was keeps its "activated" mark.
    let ap = world.content().rules().action_points;
    let mut units = Vec::new();
    world.resource_mut::<Census>().created += count;
    for _ in 0..count {
        let id = world.resource_mut::<Ids>().fresh();
        units.push(Unit {
            id,
            kind: unit.to_string(),
            wounds: 0,
            ap,
            inactive: false,
            embarked: false,
            name: None,
        });
    }
    match existing {
        Some(e) => {
            if let Some(mut a) = world.get_mut::<Army>(e) {
                a.units.extend(units);
            }
            // Joining a starving army: its famine tokens count against the newcomers too.
            cull(world, e, Cause::Famine);
        }
        None => {
            let id = world.resource_mut::<Ids>().fresh();
            // A new army belongs to the seat of the outpost it is raised at, if any.
            let seat = seat_at(world, hex);
            world.spawn(Army {
                id,
                camp,
                hex,
                famine: 0,
                units,
                activated: false,
                afloat: false,
                cargo: Default::default(),
                seat,
            });
        }
    }
    if camp == Camp::Chaos {
        world.emit(GameEvent::Spawned {
            unit: unit.to_string(),
            count,
            at: hex,
        });
    }
}

/// The d6 result each attack die of a unit needs: its card's `hit_on`, one easier per attack
/// technology (Eladrins); 7 = no hit. Under rules version 1 each famine token made it one
/// harder, clamped at 7 (`attack_malus` takes famine off the roll instead).
pub fn attack_hit_on(world: &World, army: &Army, unit: &Unit) -> u8 {
    let db = world.content();
    let base = db
        .unit(&unit.kind)
        .map(|t| t.attack.hit_on as i32)
        .unwrap_or(6);
    let bonus = if army.camp == Camp::Eladrins {
        world.resource::<Modifiers>().attack as i32
    } else {
        0
    };
    let famine = if world.rules().famine_lowers_the_roll() {
        0
    } else {
        army.famine as i32
    };
    (base + famine - bonus).clamp(1, 7) as u8
}

/// What each attack roll of the army's units loses (R5.4: −1 per famine token). Nothing under
/// rules version 1, where famine raised the hit number instead.
pub fn attack_malus(world: &World, army: &Army) -> u8 {
    if world.rules().famine_lowers_the_roll() {
        army.famine.min(u8::MAX as u32) as u8
    } else {
        0
    }
}

/// The seat owning the outpost at `hex`, if one stands there and belongs to a seat.
pub fn seat_at(world: &mut World, hex: Hex) -> Option<u8> {
    let mut q = world.query::<&crate::rules::Outpost>();
    q.iter(world).find(|o| o.hex == hex).and_then(|o| o.seat)
}
