//! Rituals and rift closing (R8.3): ways to push corruption back from the portal's power track
//! and to seal rifts, performed by Ritualist units of the active army, with costs and conditions
//! from `rituals.ron`; and Chaos' summoning at its open rifts.

use bevy::prelude::*;
use hexx::Hex;

use super::{active_army, at_of};
use crate::content::{Camp, Skill};
use crate::rules::economy::{available, pay, ritual_purse};
use crate::rules::effects::{self, close_rift_at};
use crate::rules::units::spawn;
use crate::rules::{Army, GameEvent, GameWorld, Refusal, Rift};

/// Ritualists of the active army able to act, in unit order.
fn ritualists(world: &World, army: &Army, ap: u8) -> Vec<u32> {
    let db = world.content();
    army.units
        .iter()
        .filter(|u| !u.inactive && u.ap >= ap.max(1))
        .filter(|u| {
            db.unit(&u.kind)
                .is_some_and(|t| t.skills.contains(&Skill::Ritualist))
        })
        .map(|u| u.id)
        .collect()
}

/// A ritual needs its ritualists with their points, its cost within reach, and an open rift
/// under the army when it seals one.
pub fn validate_ritual(world: &mut World, by: Camp, id: &str) -> Result<(), Refusal> {
    let (_, a) = active_army(world, by)?;
    let db = world.content();
    let r = db
        .set
        .rituals
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| Refusal::UnknownContent(id.to_string()))?;
    let have = ritualists(world, &a, r.ap).len() as u32;
    if have < r.ritualists {
        return Err(Refusal::RitualistsNeeded {
            need: r.ritualists,
            have,
        });
    }
    if r.on_rift && world.tile(a.hex).is_none_or(|t| t.rift != Rift::Open) {
        return Err(Refusal::NotOnRift(at_of(a.hex)));
    }
    let purse = ritual_purse(world, a.hex);
    let funds = available(world, &purse);
    crate::rules::economy::can_pay(&r.cost, &funds)?;
    Ok(())
}

/// Performs a ritual: pays, spends the ritualists' points, applies its effects on the tile.
pub fn perform_ritual(world: &mut World, by: Camp, id: &str) {
    let Ok((e, a)) = active_army(world, by) else {
        return;
    };
    let db = world.content();
    let Some(r) = db.set.rituals.iter().find(|r| r.id == id).cloned() else {
        return;
    };
    let purse = ritual_purse(world, a.hex);
    if !pay(world, &purse, &r.cost) {
        return;
    }
    let who: Vec<u32> = ritualists(world, &a, r.ap)
        .into_iter()
        .take(r.ritualists as usize)
        .collect();
    for u in &who {
        super::spend_ap(world, e, *u, r.ap.max(1));
    }
    world.emit(GameEvent::RitualPerformed {
        ritual: id.to_string(),
        at: a.hex,
    });
    if r.on_rift {
        close_rift_at(world, a.hex);
    }
    let rest: Vec<_> = r
        .effects
        .iter()
        .filter(|e| !(r.on_rift && matches!(e, crate::content::Effect::CloseRift)))
        .cloned()
        .collect();
    effects::apply(world, &rest, Some(a.hex));
}

/// Chaos summons at an open rift, once per rift each main phase.
pub fn validate_summon(world: &mut World, by: Camp, rift: Hex) -> Result<(), Refusal> {
    if by != Camp::Chaos {
        return Err(Refusal::NotYourTurn {
            expected: Camp::Chaos,
        });
    }
    if world.tile(rift).is_none_or(|t| t.rift != Rift::Open) {
        return Err(Refusal::NotOnRift(at_of(rift)));
    }
    if world.resource::<super::Summoned>().0.contains(&at_of(rift)) {
        return Err(Refusal::AlreadySummoned(at_of(rift)));
    }
    // A rift stops summoning while its host stands on it: the host must march out first.
    let cap =
        world.content().rules().chaos_summon_cap as i32 + world.difficulty_level().chaos_summon_cap;
    let there: usize = world
        .armies_where(|a| a.hex == rift && a.camp == Camp::Chaos)
        .into_iter()
        .filter_map(|e| world.get::<crate::rules::Army>(e).map(|a| a.units.len()))
        .sum();
    if there as i32 >= cap.max(0) {
        return Err(Refusal::RiftCrowded(at_of(rift)));
    }
    if world
        .content()
        .unit(&world.content().rules().chaos_summon)
        .is_none()
    {
        return Err(Refusal::UnknownContent(
            world.content().rules().chaos_summon.clone(),
        ));
    }
    Ok(())
}

/// Applies a summoning.
pub fn summon(world: &mut World, rift: Hex) {
    let unit = world.content().rules().chaos_summon.clone();
    world
        .resource_mut::<super::Summoned>()
        .0
        .insert(at_of(rift));
    // The difficulty's spawn bonus applies to summonings too (difficulty.ron).
    let bonus = world.difficulty_level().chaos_spawn_bonus;
    spawn(world, Camp::Chaos, rift, &unit, 1 + bonus);
}
