//! R5 — Upkeep of armies and buildings. Buildings and improvements pay their upkeep from their
//! outpost's purse or their tile (R5.1), else they are inactive this phase (R5.2). Units with a
//! non-food upkeep likewise. Each army eats 1 food per started group of 3 food-eating units and,
//! separately, 1 psara per started group of 3 psara eaters (R5.3); every point missing is a
//! famine token (R5.4). Then the Eladrins may spend extra food on tokens (R5.5, `Action::Feed`).

use bevy::prelude::*;

use crate::content::{Camp, Diet, Res};
use crate::rules::economy::{available, outpost_purse, pay, purse_at, take_up_to};
use crate::rules::event::Upkeeper;
use crate::rules::units::add_famine;
use crate::rules::{
    Army, Board, CycleAppExt, GameEvent, GameWorld, Outpost, Placement, RuleSet, StepDef, StepKind,
    StepSchedule,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R5",
            title: "Upkeep",
            kind: StepKind::eladrins(famine_can_be_fed),
        },
        Placement::End,
    )
    .configure_sets(
        StepSchedule("R5"),
        (RuleSet::R5Buildings, RuleSet::R5Armies).chain(),
    )
    .add_systems(
        StepSchedule("R5"),
        (
            pay_building_upkeep.in_set(RuleSet::R5Buildings),
            feed_armies.in_set(RuleSet::R5Armies),
        ),
    );
}

/// This step played now on `world`, as the upkeep would play it (it has no dice): for the
/// copies that the upkeep forecast and the search's foresight look ahead on, never the game.
pub fn feed_now(world: &mut World) {
    let _ = world.try_run_schedule(StepSchedule("R5"));
}

/// `feed_now` after the chapters' automatic steps the level plays right before R5 (a team's
/// rations laid on its tile): the upkeep forecast's copy sees the food those steps bring.
pub fn feed_after_chapter_steps(world: &mut World) {
    let chapter_steps: Vec<&'static str> = world
        .get_resource::<crate::rules::chapter::Chapters>()
        .map(|c| c.steps.iter().map(|d| d.id).collect())
        .unwrap_or_default();
    let order = world.resource::<crate::rules::CycleOrder>().0.clone();
    if let Some(r5) = order.iter().position(|d| d.id == "R5") {
        let before: Vec<&'static str> = order[..r5]
            .iter()
            .rev()
            .take_while(|d| {
                chapter_steps.contains(&d.id) && matches!(d.kind, crate::rules::StepKind::Automatic)
            })
            .map(|d| d.id)
            .collect();
        for id in before.into_iter().rev() {
            let _ = world.try_run_schedule(StepSchedule(id));
        }
    }
    feed_now(world);
}

/// Food an army needs this upkeep, and psara (R5.3): ceil(eaters / group) each.
pub fn army_needs(world: &World, army: &Army) -> (u32, u32) {
    let db = world.content();
    let group = db.rules().army_food_group.max(1);
    let (mut food, mut psara) = (0u32, 0u32);
    for u in &army.units {
        match db.unit(&u.kind).map(|t| t.diet).unwrap_or_default() {
            Diet::Food => food += 1,
            Diet::Psara => psara += 1,
            Diet::Nothing => {}
        }
    }
    (food.div_ceil(group), psara.div_ceil(group))
}

/// R5.1–R5.2: buildings (outposts by id), then improvements (board order).
fn pay_building_upkeep(world: &mut World) {
    let db = world.content();
    for o in world.outposts() {
        let Some(op) = world.get::<Outpost>(o).cloned() else {
            continue;
        };
        for (i, b) in op.buildings.iter().enumerate() {
            if b.timer > 0 {
                continue;
            }
            let cost = db.building(&b.id).map(|d| d.upkeep).unwrap_or_default();
            let paid = cost.is_empty() || pay(world, &outpost_purse(world, o), &cost);
            if let Some(mut op) = world.get_mut::<Outpost>(o) {
                op.buildings[i].inactive = !paid;
            }
            let what = Upkeeper::Building {
                id: b.id.clone(),
                outpost: op.name.clone(),
            };
            if !cost.is_empty() {
                world.emit(if paid {
                    GameEvent::UpkeepPaid { what, stock: cost }
                } else {
                    GameEvent::Inactive { what }
                });
            }
        }
    }
    // The improvements standing now, in board order: paying never builds or razes one.
    let works: Vec<(hexx::Hex, crate::rules::Works)> = Board::tiles(world)
        .filter_map(|t| t.improvement.clone().map(|w| (t.hex, w)))
        .collect();
    for (h, w) in works {
        if w.timer > 0 {
            continue;
        }
        let cost = db.improvement(&w.id).map(|d| d.upkeep).unwrap_or_default();
        let paid = cost.is_empty() || {
            let purse = purse_at(world, h);
            pay(world, &purse, &cost)
        };
        if let Some(mut t) = world.tile_mut(h)
            && let Some(w) = t.improvement.as_mut()
        {
            w.inactive = !paid;
        }
        let what = Upkeeper::Improvement {
            id: w.id.clone(),
            at: h,
        };
        if !cost.is_empty() {
            world.emit(if paid {
                GameEvent::UpkeepPaid { what, stock: cost }
            } else {
                GameEvent::Inactive { what }
            });
        }
    }
}

/// R5.2–R5.4: each army (by id) pays its units' other upkeep, then eats.
fn feed_armies(world: &mut World) {
    let db = world.content();
    for a in world.armies() {
        let Some(army) = world.get::<Army>(a).cloned() else {
            continue;
        };
        let purse = purse_at(world, army.hex);
        // Non-food upkeep, unit by unit (R5.2).
        for (i, u) in army.units.iter().enumerate() {
            let cost = db.unit(&u.kind).map(|t| t.upkeep).unwrap_or_default();
            if cost.is_empty() {
                continue;
            }
            let paid = pay(world, &purse, &cost);
            if let Some(mut am) = world.get_mut::<Army>(a) {
                am.units[i].inactive = !paid;
            }
            let what = Upkeeper::Unit {
                unit: u.id,
                kind: u.kind.clone(),
                army: army.id,
            };
            world.emit(if paid {
                GameEvent::UpkeepPaid { what, stock: cost }
            } else {
                GameEvent::Inactive { what }
            });
        }
        let (food, psara) = army_needs(world, &army);
        let ate_food = take_up_to(world, &purse, Res::Food, food);
        let ate_psara = take_up_to(world, &purse, Res::Psara, psara);
        let mut eaten = crate::content::Stock::default();
        eaten.add(Res::Food, ate_food);
        eaten.add(Res::Psara, ate_psara);
        if !eaten.is_empty() {
            world.emit(GameEvent::UpkeepPaid {
                what: Upkeeper::Army(army.id),
                stock: eaten,
            });
        }
        let missing = (food - ate_food) + (psara - ate_psara);
        add_famine(world, a, missing);
    }
}

/// R5.5 is open while an Eladrin army has famine tokens and food within reach.
fn famine_can_be_fed(world: &mut World) -> bool {
    let per = world.content().rules().famine_food_per_token.max(1);
    for a in world.armies() {
        let Some(army) = world.get::<Army>(a).cloned() else {
            continue;
        };
        if army.camp != Camp::Eladrins || army.famine == 0 {
            continue;
        }
        let purse = purse_at(world, army.hex);
        if available(world, &purse).get(Res::Food) >= per {
            return true;
        }
    }
    false
}
