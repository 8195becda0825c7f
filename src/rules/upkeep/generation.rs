//! R3 — Resource generation: tiles produce (food rolls 1d6, 4+ healthy, R3.1; other resources
//! are placed as they are, R3.2), then every outpost collects its influence zone into its stock,
//! up to its storage capacity (R3.3).

use bevy::prelude::*;

use crate::content::{Res, Stock};
use crate::rules::economy::{influence_zone, store};
use crate::rules::{
    Board, CycleAppExt, GameEvent, GameRng, GameWorld, Modifiers, Outpost, Placement, RuleSet,
    StepDef, StepKind, StepSchedule, Tile,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R3",
            title: "Resource generation",
            kind: StepKind::Automatic,
        },
        Placement::End,
    )
    .configure_sets(
        StepSchedule("R3"),
        (RuleSet::R3Generation, RuleSet::R3Collection).chain(),
    )
    .add_systems(
        StepSchedule("R3"),
        (
            produce_resources.in_set(RuleSet::R3Generation),
            collect_into_outposts.in_set(RuleSet::R3Collection),
        ),
    );
}

/// What a tile produces this generation step, before the food roll (R3).
pub fn tile_yield(world: &World, tile: &Tile) -> Stock {
    let mut out = Stock::default();
    // A corrupted tile yields nothing: Chaos has taken it.
    if tile.is_corrupted() {
        return out;
    }
    let db = world.content();
    if let Some(w) = &tile.improvement
        && w.working()
        && let Some(imp) = db.improvement(&w.id)
    {
        out.add_all(&imp.yields);
        if let Some(t) = db.terrain(&tile.terrain) {
            out.add_all(&t.yield_bonus);
        }
        if let Some(extra) = world.resource::<Modifiers>().improvement_yield.get(&w.id) {
            out.add_all(extra);
        }
    }
    if let Some(m) = &tile.modifier
        && let Some(card) = db.set.exploration.iter().find(|c| &c.id == m)
    {
        out.add_all(&card.modifier.yields);
    }
    out
}

/// The R3.1 target: a food point is healthy on 1d6 ≥ this.
pub fn food_target(world: &World) -> u8 {
    let base = world.content().rules().food_healthy_on;
    base.saturating_sub(world.resource::<Modifiers>().healthier_food)
        .max(2)
}

/// R3.1–R3.2: every tile (in board order) and every working building produce.
fn produce_resources(world: &mut World) {
    let db = world.content();
    let order = world.resource::<Board>().order.clone();
    let mut plan: Vec<(hexx::Hex, Stock)> = Vec::new();
    for h in &order {
        if let Some(t) = world.tile(*h) {
            let y = tile_yield(world, t);
            if !y.is_empty() {
                plan.push((*h, y));
            }
        }
    }
    // Buildings place their yield on their outpost's tile (R3.2).
    for o in world.outposts() {
        let Some(op) = world.get::<Outpost>(o) else {
            continue;
        };
        // An outpost standing on corrupted ground produces nothing, like any corrupted tile.
        if world.tile(op.hex).is_some_and(|t| t.is_corrupted()) {
            continue;
        }
        let mut y = Stock::default();
        for b in op.buildings.iter().filter(|b| b.working()) {
            if let Some(def) = db.building(&b.id) {
                y.add_all(&def.yields);
            }
        }
        if !y.is_empty() {
            plan.push((op.hex, y));
        }
    }
    let target = food_target(world);
    for (h, mut y) in plan {
        let food = y.get(Res::Food);
        let mut healthy = 0;
        for _ in 0..food {
            let d = world.resource_mut::<GameRng>().d6();
            let ok = d >= target;
            healthy += ok as u32;
            world.emit(GameEvent::Dice {
                what: crate::rules::event::Roll::Spoilage,
                dice: vec![d],
                target: target as i32,
                malus: 0,
                success: ok,
                at: Some(h),
            });
        }
        y.0[Res::Food.index()] = healthy;
        if let Some(mut t) = world.tile_mut(h) {
            t.lying.add_all(&y);
        }
        if !y.is_empty() {
            world.emit(GameEvent::Produced { at: h, stock: y });
        }
    }
}

/// R3.3: every outpost (by id) collects what lies in its influence zone, nearest tiles first,
/// resources in their fixed order, up to its storage; the rest stays on the tiles.
fn collect_into_outposts(world: &mut World) {
    for o in world.outposts() {
        let Some(op) = world.get::<Outpost>(o).cloned() else {
            continue;
        };
        let mut got = Stock::default();
        for h in influence_zone(world, &op) {
            let Some(te) = world.resource::<Board>().get(h) else {
                continue;
            };
            let lying = world.get::<Tile>(te).map(|t| t.lying).unwrap_or_default();
            if lying.is_empty() {
                continue;
            }
            let fitted = store(world, o, &lying);
            if let Some(mut t) = world.get_mut::<Tile>(te) {
                for (r, n) in fitted.iter() {
                    t.lying.take(r, n);
                }
            }
            got.add_all(&fitted);
        }
        if !got.is_empty() {
            world.emit(GameEvent::Collected {
                outpost: op.id,
                stock: got,
            });
        }
    }
}
