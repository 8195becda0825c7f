//! The game's invariants, checked after every action by the fuzzers (`cargo test` and the
//! `fuzz` command): they hold whatever the dice, the clicks or the order of actions.

use bevy::prelude::*;

use super::economy::storage_of;
use super::main_phase::combat::Battle;
use super::units::Census;
use super::units::hp_left;
use super::{Army, Cycle, GameWorld, Outpost, Portal};

/// Checks every invariant; the error names the first one broken.
pub fn check(world: &mut World) -> Result<(), String> {
    let db = world.content();
    let ap = db.rules().action_points;
    let mut armies: Vec<Army> = world.query::<&Army>().iter(world).cloned().collect();
    armies.sort_by_key(|a| a.id);
    let mut alive = 0u32;
    for a in &armies {
        if a.units.is_empty() {
            return Err(format!("army {} is empty but still on the map", a.id));
        }
        for u in &a.units {
            alive += 1;
            if u.ap > ap {
                return Err(format!(
                    "unit {} has {} AP, above the rules' {ap}",
                    u.id, u.ap
                ));
            }
            if hp_left(world, a, u) <= 0 {
                return Err(format!("unit {} of army {} is dead but stays", u.id, a.id));
            }
        }
    }
    let c = world.resource::<Census>().clone();
    if c.created != alive + c.died + c.turned + c.settled {
        return Err(format!(
            "units not conserved: {} created, but {alive} alive + {} dead + {} turned + {} \
             settled",
            c.created, c.died, c.turned, c.settled
        ));
    }
    let mut outposts: Vec<Outpost> = world.query::<&Outpost>().iter(world).cloned().collect();
    outposts.sort_by_key(|o| o.id);
    for o in &outposts {
        let cap = storage_of(world, o);
        if o.stock.total() > cap {
            return Err(format!(
                "{} holds {} resources, above its storage of {cap} (R3.3)",
                o.name,
                o.stock.total()
            ));
        }
    }
    let p = world.resource::<Portal>();
    let track = db.portal().track;
    if p.power + p.corruption > track {
        return Err(format!(
            "the power track holds {} crystals and {} markers, more than its {track} cells",
            p.power, p.corruption
        ));
    }
    if let Some(b) = world.get_resource::<Battle>()
        && b.round > db.rules().combat_rounds
    {
        return Err(format!(
            "a battle reached round {}, past the rules' {} (R9.5)",
            b.round,
            db.rules().combat_rounds
        ));
    }
    let cycle = world.resource::<Cycle>().clone();
    if let Some(id) = cycle.activation {
        match armies.iter().find(|a| a.id == id) {
            None => return Err(format!("the active army {id} does not exist")),
            Some(a) if a.camp != cycle.turn => {
                return Err(format!(
                    "army {id} of {:?} is active during the {:?} turn",
                    a.camp, cycle.turn
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
