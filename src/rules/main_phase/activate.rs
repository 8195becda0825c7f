//! R9.4 — Activating a unit or an army: 2 action points per unit, one tile per point (more on
//! difficult terrain), card actions (hourglass ends it), joining and leaving armies, and R9.3
//! exploration. Paths use the `pathfinding` crate; `reachable` and `path_to` serve the view
//! and the AI too.

use std::collections::HashMap;

use bevy::prelude::*;
use hexx::Hex;
use pathfinding::prelude::dijkstra_reach;

use super::{active_army, at_of, spend_ap};
use crate::content::{Camp, Skill};
use crate::rules::economy::{pay, purse_at};
use crate::rules::{
    Army, Board, Cycle, Decks, GameEvent, GameRng, GameWorld, Ids, Refusal, effects,
};

/// What entering `h` costs a unit: the terrain's move cost plus the tile's exploration modifier;
/// a Pathfinder pays 1 on difficult terrain. Afloat (embarked), only water, at 1 point a tile.
/// `None`: the tile can't be entered that way.
pub fn enter_cost(world: &World, h: Hex, pathfinder: bool, afloat: bool) -> Option<u8> {
    let t = world.tile(h)?;
    let db = world.content();
    let terrain = db.terrain(&t.terrain)?;
    if afloat {
        return terrain.water.then_some(1);
    }
    if terrain.impassable || terrain.water {
        return None;
    }
    let extra = t
        .modifier
        .as_ref()
        .and_then(|m| db.set.exploration.iter().find(|c| &c.id == m))
        .map(|c| c.modifier.move_cost)
        .unwrap_or(0);
    let cost = terrain.move_cost.max(1).saturating_add(extra);
    Some(if pathfinder && terrain.difficult {
        1
    } else {
        cost
    })
}

/// The army's step cost into `h`: what its slowest unit pays.
fn army_step_cost(world: &World, army: &Army, h: Hex) -> Option<u8> {
    let db = world.content();
    let all_pathfinders = army.units.iter().all(|u| {
        db.unit(&u.kind)
            .is_some_and(|t| t.skills.contains(&Skill::Pathfinder))
    });
    enter_cost(world, h, all_pathfinders, army.afloat)
}

/// Tiles the army can reach with its action points, with their cost, cheapest first. Enemy
/// armies block passage: a tile holding one can be entered (to engage) but not crossed.
pub fn reachable(world: &World, army: &Army) -> Vec<(Hex, u8, Option<Hex>)> {
    let ap = army.units.iter().map(|u| u.ap).min().unwrap_or(0);
    if ap == 0 {
        return vec![];
    }
    let board = world.resource::<Board>();
    let enemy = enemy_hexes(world, army.camp);
    let start = army.hex;
    dijkstra_reach(&start, |n: &Hex| {
        let blocked = *n != start && enemy.contains(n);
        let mut out = Vec::new();
        if !blocked {
            for m in board.neighbors(*n) {
                if let Some(c) = army_step_cost(world, army, m) {
                    out.push((m, c as u32));
                }
            }
        }
        out
    })
    .take_while(|item| item.total_cost <= ap as u32)
    .filter(|item| item.node != start)
    .map(|item| (item.node, item.total_cost as u8, item.parent))
    .collect()
}

/// Hexes holding an army of the other camp.
fn enemy_hexes(world: &World, camp: Camp) -> Vec<Hex> {
    let Some(mut q) = world.try_query::<&Army>() else {
        return vec![];
    };
    q.iter(world)
        .filter(|a| a.camp != camp)
        .map(|a| a.hex)
        .collect()
}

/// What the army could reach if activated now: its units' points as they stand when it is
/// activated, or, before activation, the points a fresh activation gives (R9.4). For the view.
pub fn reach_preview(world: &World, army: &Army) -> Vec<(Hex, u8)> {
    let mut a = army.clone();
    let active = world.resource::<crate::rules::Cycle>().activation == Some(a.id);
    if !a.activated && !active {
        let ap = world.content().rules().action_points;
        for u in a.units.iter_mut().filter(|u| !u.inactive) {
            u.ap = u.ap.max(ap);
        }
    }
    reachable(world, &a)
        .into_iter()
        .map(|(h, c, _)| (h, c))
        .collect()
}

/// The cheapest path to `to` (start excluded) and its cost.
pub fn path_to(world: &World, army: &Army, to: Hex) -> Option<(Vec<Hex>, u8)> {
    let reach = reachable(world, army);
    let parents: HashMap<Hex, (u8, Option<Hex>)> =
        reach.iter().map(|(h, c, p)| (*h, (*c, *p))).collect();
    let (cost, _) = *parents.get(&to)?;
    let mut path = vec![to];
    let mut cur = to;
    while let Some((_, Some(p))) = parents.get(&cur) {
        if *p == army.hex {
            break;
        }
        path.push(*p);
        cur = *p;
    }
    path.reverse();
    Some((path, cost))
}

/// R9.4: your army, not yet activated this phase, with a unit able to act.
pub fn validate_activate(world: &mut World, by: Camp, army: u32) -> Result<(), Refusal> {
    let e = world.army_by_id(army).ok_or(Refusal::UnknownArmy(army))?;
    let a = world.get::<Army>(e).ok_or(Refusal::UnknownArmy(army))?;
    if a.camp != by {
        return Err(Refusal::NotYourArmy(army));
    }
    if a.activated {
        return Err(Refusal::AlreadyActivated(army));
    }
    if a.units.iter().all(|u| u.inactive || u.ap == 0) {
        return Err(Refusal::NothingCanAct(army));
    }
    Ok(())
}

/// Opens the activation.
pub fn activate(world: &mut World, army: u32) {
    let Some(e) = world.army_by_id(army) else {
        return;
    };
    if let Some(mut a) = world.get_mut::<Army>(e) {
        a.activated = true;
        // Inactive units (unpaid upkeep, R5.2) do nothing this phase.
        for u in a.units.iter_mut().filter(|u| u.inactive) {
            u.ap = 0;
        }
    }
    world.resource_mut::<Cycle>().activation = Some(army);
    world.emit(GameEvent::Activated { army });
}

/// R9.4 move: every unit pays the path's cost.
pub fn validate_move(world: &mut World, by: Camp, to: Hex) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    if !world.resource::<Board>().contains(to) {
        return Err(Refusal::OffMap(at_of(to)));
    }
    if a.hex == to {
        return Err(Refusal::Unreachable(at_of(to)));
    }
    if a.units.iter().any(|u| u.inactive) {
        return Err(Refusal::InactiveUnits);
    }
    match path_to(world, &a, to) {
        Some(_) => Ok(()),
        None => Err(Refusal::Unreachable(at_of(to))),
    }
}

/// Applies a move.
pub fn move_army(world: &mut World, by: Camp, to: Hex) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let Some((path, cost)) = path_to(world, &a, to) else {
        return;
    };
    if let Some(mut am) = world.get_mut::<Army>(e) {
        am.hex = to;
        for u in am.units.iter_mut() {
            u.ap = u.ap.saturating_sub(cost);
        }
    }
    world.emit(GameEvent::Moved {
        army: a.id,
        path,
        cost,
    });
}

/// R9.4 card action: one point (or all remaining, hourglass), its cost, its effects.
pub fn validate_card(world: &mut World, by: Camp, unit: u32, action: &str) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    let u = a
        .units
        .iter()
        .find(|u| u.id == unit)
        .ok_or(Refusal::UnknownUnit(unit))?;
    let db = world.content();
    let card = db
        .unit(&u.kind)
        .and_then(|t| t.actions.iter().find(|x| x.id == action))
        .ok_or_else(|| Refusal::UnknownContent(action.to_string()))?;
    let need = card.ap.max(1);
    if u.ap < need || u.inactive {
        return Err(Refusal::NoActionPoints {
            unit,
            need,
            have: u.ap,
        });
    }
    let purse = purse_at(world, a.hex);
    let have = crate::rules::economy::available(world, &purse);
    crate::rules::economy::can_pay(&card.cost, &have)?;
    Ok(())
}

/// Applies a card action.
pub fn use_card(world: &mut World, by: Camp, unit: u32, action: &str) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let db = world.content();
    let Some(u) = a.units.iter().find(|u| u.id == unit) else {
        return;
    };
    let Some(card) = db
        .unit(&u.kind)
        .and_then(|t| t.actions.iter().find(|x| x.id == action))
        .cloned()
    else {
        return;
    };
    let purse = purse_at(world, a.hex);
    if !pay(world, &purse, &card.cost) {
        return;
    }
    // Hourglass: all remaining points, and this unit's activation ends (R9.4).
    spend_ap(
        world,
        e,
        unit,
        if card.hourglass {
            u8::MAX
        } else {
            card.ap.max(1)
        },
    );
    world.emit(GameEvent::CardAction {
        unit,
        action: action.to_string(),
    });
    effects::apply(world, &card.effects, Some(a.hex));
}

/// R9.3: an Explorer spends all its remaining points (at least 1) and draws an exploration card
/// that sets its tile's modifier. A tile is explored once.
pub fn validate_explore(world: &mut World, by: Camp, unit: u32) -> Result<(), Refusal> {
    let (_, a, _) = super::acting_unit(world, by, unit, Some((&Skill::Explorer, "Explorer")))?;
    if world.tile(a.hex).is_some_and(|t| t.modifier.is_some()) {
        return Err(Refusal::AlreadyExplored(at_of(a.hex)));
    }
    if world.resource::<Decks>().exploration.draw.is_empty()
        && world.resource::<Decks>().exploration.discard.is_empty()
    {
        return Err(Refusal::ExplorationDeckEmpty);
    }
    Ok(())
}

/// Applies an exploration.
pub fn explore(world: &mut World, by: Camp, unit: u32) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    spend_ap(world, e, unit, u8::MAX);
    let card = world.resource_scope(|world, mut decks: Mut<Decks>| {
        let mut rng = world.resource_mut::<GameRng>();
        decks.exploration.draw(&mut rng)
    });
    let Some(card) = card else { return };
    let db = world.content();
    if let Some(mut t) = world.tile_mut(a.hex) {
        t.modifier = Some(card.clone());
    }
    world.emit(GameEvent::CardDrawn {
        camp: by,
        deck: "exploration".into(),
        card: card.clone(),
    });
    world.emit(GameEvent::Explored {
        at: a.hex,
        card: card.clone(),
    });
    if let Some(def) = db.set.exploration.iter().find(|c| c.id == card) {
        effects::apply(world, &def.effects, Some(a.hex));
    }
    world.resource_mut::<Decks>().exploration.discard.push(card);
}

/// R9.4 merge: the active army takes in another friendly army on its tile. "A unit joining
/// another unit costs 1 point to both": when both are single units, the joiner keeps its points
/// less one. "Merging two armies (or a unit joining an army) costs 1 point to the army that
/// receives": each of the receiver's units able to act pays 1, and the joiners keep the points
/// they have (docs/rules.md, the reading). Famine: the larger count stays (R5.4).
pub fn validate_merge(world: &mut World, by: Camp, from: u32) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    let fe = world.army_by_id(from).ok_or(Refusal::UnknownArmy(from))?;
    let f = world.get::<Army>(fe).ok_or(Refusal::UnknownArmy(from))?;
    if f.camp != by || f.id == a.id {
        return Err(Refusal::NotYourArmy(from));
    }
    if f.hex != a.hex {
        return Err(Refusal::NotHere(from));
    }
    if a.units.iter().all(|u| u.ap == 0) {
        return Err(Refusal::NoActionPoints {
            unit: a.units.first().map(|u| u.id).unwrap_or(0),
            need: 1,
            have: 0,
        });
    }
    Ok(())
}

/// Applies a merge.
pub fn merge(world: &mut World, by: Camp, from: u32) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let Some(fe) = world.army_by_id(from) else {
        return;
    };
    let Some(f) = world.get::<Army>(fe).cloned() else {
        return;
    };
    let rules = world.rules();
    let unit_joins_unit = a.units.len() == 1 && f.units.len() == 1;
    world.despawn(fe);
    if let Some(mut am) = world.get_mut::<Army>(e) {
        for u in am.units.iter_mut() {
            u.ap = u.ap.saturating_sub(1);
        }
        am.famine = am.famine.max(f.famine);
        am.cargo.add_all(&f.cargo);
        am.units.extend(f.units.into_iter().map(|mut u| {
            u.ap = if !rules.joiner_keeps_points() {
                // Rules version 1: the newcomers brought no points.
                0
            } else if u.inactive {
                // Unpaid upkeep (R5.2): it does nothing this phase, in any army.
                0
            } else if unit_joins_unit {
                u.ap.saturating_sub(1)
            } else {
                u.ap
            };
            u
        }));
    }
    world.emit(GameEvent::Merged { into: a.id, from });
    crate::rules::units::cull(world, e, crate::rules::event::Cause::Famine);
}

/// R9.4 detach: units leave the active army as a new army on the tile, 1 point each; never
/// under famine (R5.4).
pub fn validate_detach(world: &mut World, by: Camp, units: &[u32]) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    if a.famine > 0 {
        return Err(Refusal::Famished(a.id));
    }
    if units.is_empty() || units.len() >= a.units.len() {
        return Err(Refusal::DetachSome);
    }
    for id in units {
        let u = a
            .units
            .iter()
            .find(|u| u.id == *id)
            .ok_or(Refusal::UnknownUnit(*id))?;
        if u.ap == 0 {
            return Err(Refusal::NoActionPoints {
                unit: *id,
                need: 1,
                have: 0,
            });
        }
        if units.iter().filter(|x| *x == id).count() > 1 {
            return Err(Refusal::UnknownUnit(*id));
        }
    }
    Ok(())
}

/// Applies a detachment. The new army counts as activated this phase.
pub fn detach(world: &mut World, by: Camp, units: &[u32]) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let mut leaving = Vec::new();
    if let Some(mut am) = world.get_mut::<Army>(e) {
        let (go, stay): (Vec<_>, Vec<_>) = am.units.drain(..).partition(|u| units.contains(&u.id));
        am.units = stay;
        leaving = go;
    }
    for u in leaving.iter_mut() {
        u.ap = u.ap.saturating_sub(1);
    }
    let id = world.resource_mut::<Ids>().fresh();
    world.spawn(Army {
        id,
        camp: a.camp,
        hex: a.hex,
        famine: 0,
        units: leaving,
        activated: true,
        afloat: a.afloat,
        cargo: Default::default(),
        seat: a.seat,
    });
    world.emit(GameEvent::Detached {
        from: a.id,
        army: id,
    });
}
