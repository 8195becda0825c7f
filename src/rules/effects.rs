//! Card, technology, artifact, ritual and unit-action effects (`content::Effect`), applied in
//! order. Choices an effect needs (which rift, which tile) follow a stable rule — nearest the
//! portal, then lowest hex — so the same state always gives the same result.

use bevy::prelude::*;
use hexx::Hex;

use super::board::key;
use super::upkeep::{corruption, portal, research};
use super::{Army, GameEvent, GameWorld, Ids, Modifiers, Outpost, Portal, Rift, Tile, Unit};
use crate::content::{Camp, Effect, Stock, Where};

/// Applies effects in order. `at` is the tile the effect concerns, if any (exploration).
pub fn apply(world: &mut World, effects: &[Effect], at: Option<Hex>) {
    for e in effects {
        apply_one(world, e, at);
        if world.resource::<super::Outcome>().winner.is_some() {
            return;
        }
    }
}

fn apply_one(world: &mut World, effect: &Effect, at: Option<Hex>) {
    match effect {
        Effect::Gain(stock) => {
            for o in world.outposts() {
                let got = super::economy::store(world, o, stock);
                let id = world.get::<Outpost>(o).map(|x| x.id).unwrap_or(0);
                world.emit(GameEvent::StockChanged {
                    outpost: id,
                    gained: got,
                    lost: Stock::default(),
                });
            }
        }
        Effect::Lose(stock) => {
            for o in world.outposts() {
                let mut lost = Stock::default();
                let mut id = 0;
                if let Some(mut op) = world.get_mut::<Outpost>(o) {
                    id = op.id;
                    for (r, n) in stock.iter() {
                        lost.add(r, op.stock.take(r, n));
                    }
                }
                world.emit(GameEvent::StockChanged {
                    outpost: id,
                    gained: Stock::default(),
                    lost,
                });
            }
        }
        Effect::CorruptionAttempts(n) => {
            world.resource_mut::<Modifiers>().pending_attempts += n;
        }
        Effect::CorruptNow(n) => {
            for _ in 0..*n {
                corruption::attempt(world);
            }
        }
        Effect::PortalCorruption(n) => portal::add_corruption(world, *n),
        Effect::PushBackCorruption(n) => portal::push_back(world, *n),
        Effect::OpenRift => open_rift(world),
        Effect::CloseRift => close_rift(world),
        Effect::Cleanse(n) => cleanse(world, *n),
        Effect::SpawnChaos { unit, count } => {
            let bonus = world.difficulty_level().chaos_spawn_bonus;
            if let Some(h) = rift_nearest_portal(world) {
                spawn(world, Camp::Chaos, h, unit, count + bonus);
            }
        }
        Effect::Famine(n, which) => {
            let mut armies = eladrin_armies(world);
            if *which == Where::One {
                // The army most exposed to Chaos: nearest an open rift, then lowest id.
                let rifts = super::upkeep::corruption::open_rifts(world);
                armies.sort_by_key(|a| {
                    let h = world.get::<Army>(*a).map(|x| x.hex);
                    let d = h
                        .map(|h| {
                            rifts
                                .iter()
                                .map(|r| r.unsigned_distance_to(h))
                                .min()
                                .unwrap_or(u32::MAX)
                        })
                        .unwrap_or(u32::MAX);
                    (d, world.get::<Army>(*a).map(|x| x.id).unwrap_or(0))
                });
                armies.truncate(1);
            }
            for a in armies {
                add_famine(world, a, *n);
            }
        }
        Effect::Feed(n) => {
            for a in eladrin_armies(world) {
                let Some(mut army) = world.get_mut::<Army>(a) else {
                    continue;
                };
                let k = army.famine.min(*n);
                if k > 0 {
                    army.famine -= k;
                    let (id, tokens) = (army.id, army.famine);
                    world.emit(GameEvent::Famine {
                        army: id,
                        change: -(k as i32),
                        tokens,
                    });
                }
            }
        }
        Effect::Heal(n) => {
            for a in eladrin_armies(world) {
                if let Some(mut army) = world.get_mut::<Army>(a) {
                    for u in army.units.iter_mut() {
                        // R5.4: famine losses are tokens, not wounds: healing never touches them.
                        u.wounds = u.wounds.saturating_sub(*n as u8);
                    }
                }
            }
        }
        Effect::Wound(n) => {
            for a in eladrin_armies(world) {
                let hex = world.get::<Army>(a).map(|x| x.hex);
                let corrupted = hex
                    .and_then(|h| world.tile(h))
                    .is_some_and(|t| t.is_corrupted());
                if corrupted {
                    wound_all(world, a, *n as u8, "a chaos card");
                }
            }
        }
        Effect::ResearchPoints(n) => research::add_points(world, *n),
        Effect::Storage(n) => world.resource_mut::<Modifiers>().storage += n,
        Effect::HealthierFood(n) => world.resource_mut::<Modifiers>().healthier_food += n,
        Effect::AttackBonus(n) => world.resource_mut::<Modifiers>().attack += n,
        Effect::HpBonus(n) => world.resource_mut::<Modifiers>().hp += n,
        Effect::LabPoints(n) => world.resource_mut::<Modifiers>().lab_points += n,
        Effect::Resistance(n) => world.resource_mut::<Modifiers>().resistance += n,
        Effect::PortalCrystals(n) => world.resource_mut::<Modifiers>().portal_crystals += n,
        Effect::ImprovementYield { improvement, extra } => {
            world
                .resource_mut::<Modifiers>()
                .improvement_yield
                .entry(improvement.clone())
                .or_default()
                .add_all(extra);
        }
        Effect::Unlock(id) => {
            world
                .resource_mut::<Modifiers>()
                .unlocked
                .insert(id.clone());
        }
        Effect::ArtifactToken => {
            let h = at.unwrap_or(world.resource::<Portal>().hex);
            if let Some(mut t) = world.tile_mut(h) {
                t.artifact = true;
                world.emit(GameEvent::ArtifactToken { at: h });
            }
        }
    }
}

/// Eladrin army entities, by id.
pub fn eladrin_armies(world: &mut World) -> Vec<Entity> {
    world.armies_where(|a| a.camp == Camp::Eladrins)
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
pub fn cull(world: &mut World, army: Entity, cause: &str) {
    let Some(a) = world.get::<Army>(army).cloned() else {
        return;
    };
    let dead: Vec<u32> = a
        .units
        .iter()
        .filter(|u| hp_left(world, &a, u) <= 0)
        .map(|u| u.id)
        .collect();
    world.resource_mut::<crate::rules::units::Census>().died += dead.len() as u32;
    for id in &dead {
        world.emit(GameEvent::UnitDied {
            army: a.id,
            unit: *id,
            cause: cause.to_string(),
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
    cull(world, army, "famine (R5.4)");
}

/// Wounds every unit of an army.
pub fn wound_all(world: &mut World, army: Entity, n: u8, cause: &str) {
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
    world.resource_mut::<crate::rules::units::Census>().created += count;
    for _ in 0..count {
        let id = world.resource_mut::<Ids>().fresh();
        units.push(Unit {
            id,
            kind: unit.to_string(),
            wounds: 0,
            ap,
            inactive: false,
            embarked: false,
        });
    }
    match existing {
        Some(e) => {
            if let Some(mut a) = world.get_mut::<Army>(e) {
                a.units.extend(units);
            }
            // Joining a starving army: its famine tokens count against the newcomers too.
            cull(world, e, "famine (R5.4)");
        }
        None => {
            let id = world.resource_mut::<Ids>().fresh();
            world.spawn(Army {
                id,
                camp,
                hex,
                famine: 0,
                units,
                activated: false,
                afloat: false,
                cargo: Default::default(),
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

/// Tiles matching `pred`, nearest the portal first, then by hex.
fn tiles_nearest_portal(world: &mut World, pred: impl Fn(&Tile) -> bool) -> Vec<Hex> {
    let p = world.resource::<Portal>().hex;
    let mut q = world.query::<&Tile>();
    let mut v: Vec<Hex> = q.iter(world).filter(|t| pred(t)).map(|t| t.hex).collect();
    v.sort_by_key(|h| (h.unsigned_distance_to(p), key(*h)));
    v
}

/// The open rift nearest the portal.
pub fn rift_nearest_portal(world: &mut World) -> Option<Hex> {
    tiles_nearest_portal(world, |t| t.rift == Rift::Open)
        .first()
        .copied()
}

fn open_rift(world: &mut World) {
    let Some(h) = tiles_nearest_portal(world, |t| t.corrupted && t.rift == Rift::None)
        .first()
        .copied()
    else {
        world.emit(GameEvent::Note(
            "No corrupted tile to open a rift on: the rift fails to open".into(),
        ));
        return;
    };
    if let Some(mut t) = world.tile_mut(h) {
        t.rift = Rift::Open;
        t.corrupted = true;
    }
    world.emit(GameEvent::RiftOpened { at: h });
}

/// Closes the open rift nearest the portal; closing a rift pushes back one corruption marker
/// from the power track (R8.3).
pub fn close_rift(world: &mut World) {
    if let Some(h) = rift_nearest_portal(world) {
        close_rift_at(world, h);
    }
}

/// Closes the rift at `h` (R8.3: and pushes back one corruption marker).
pub fn close_rift_at(world: &mut World, h: Hex) {
    if let Some(mut t) = world.tile_mut(h) {
        if t.rift != Rift::Open {
            return;
        }
        t.rift = Rift::Closed;
    }
    world.emit(GameEvent::RiftClosed { at: h });
    portal::push_back(world, 1);
}

fn cleanse(world: &mut World, n: u32) {
    let outposts: Vec<Hex> = world
        .outposts()
        .into_iter()
        .filter_map(|e| world.get::<Outpost>(e).map(|o| o.hex))
        .collect();
    let mut q = world.query::<&Tile>();
    let mut v: Vec<Hex> = q
        .iter(world)
        .filter(|t| t.corrupted && t.rift != Rift::Open)
        .map(|t| t.hex)
        .collect();
    v.sort_by_key(|h| {
        (
            outposts
                .iter()
                .map(|o| o.unsigned_distance_to(*h))
                .min()
                .unwrap_or(u32::MAX),
            key(*h),
        )
    });
    for h in v.into_iter().take(n as usize) {
        if let Some(mut t) = world.tile_mut(h) {
            t.corrupted = false;
        }
        world.emit(GameEvent::TileCleansed { at: h });
    }
}

/// The d6 result each attack die of a unit needs: its card's `hit_on`, one harder per famine
/// token (R5.4: −1 to attack rolls), one easier per attack technology (Eladrins); 7 = no hit.
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
    (base + army.famine as i32 - bonus).clamp(1, 7) as u8
}
