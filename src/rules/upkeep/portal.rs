//! R8 — The portal. Cells are built from the base up on each arch, paying their printed cost
//! (R8.1); once both arches stand, crystals fill the power track from the left, at most 3 per
//! phase (R8.2). Chaos corruption markers take the next free cell too: while one sits after the
//! crystals no power goes in (R8.3), and a marker on the last cell hands the portal to Chaos
//! (R8.4). Filling the star cell powers the portal: *Portal operational* (Eladrin victory).

use bevy::prelude::*;

use crate::content::Res;
use crate::rules::economy::{available, outpost_purse};
use crate::rules::{
    CycleAppExt, GameEvent, GameWorld, Modifiers, Placement, Portal, RuleSet, StepDef, StepKind,
    StepSchedule, outcome,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R8",
            title: "The portal",
            kind: StepKind::eladrins(portal_decision_open),
        },
        Placement::End,
    )
    .add_systems(
        StepSchedule("R8"),
        open_portal_phase.in_set(RuleSet::R8Portal),
    );
}

/// R8.2: a new phase, a fresh allowance of crystals.
fn open_portal_phase(world: &mut World) {
    world.resource_mut::<Portal>().crystals_this_phase = 0;
}

/// Both arches fully built (R8.1).
pub fn is_built(world: &World) -> bool {
    let def = world.content();
    let p = world.resource::<Portal>();
    def.portal()
        .arches
        .iter()
        .enumerate()
        .all(|(i, a)| p.built.get(i).copied().unwrap_or(0) as usize >= a.len())
}

/// The cost of the next cell of `arch` (R8.1: from the base up), or why there is none.
pub fn next_cell(
    world: &World,
    arch: usize,
) -> Result<crate::content::Stock, crate::rules::Refusal> {
    let db = world.content();
    let cells = db
        .portal()
        .arches
        .get(arch)
        .ok_or(crate::rules::Refusal::UnknownArch(arch))?;
    let built = world
        .resource::<Portal>()
        .built
        .get(arch)
        .copied()
        .unwrap_or(0);
    cells
        .get(built as usize)
        .copied()
        .ok_or(crate::rules::Refusal::ArchComplete(arch))
}

/// Crystals allowed per phase (R8.2 plus technology).
pub fn crystals_allowed(world: &World) -> u32 {
    world.content().portal().crystals_per_phase + world.resource::<Modifiers>().portal_crystals
}

/// Chaos corruption markers onto the power track (R8.3); the last cell corrupted is defeat (R8.4).
pub fn add_corruption(world: &mut World, n: u32) {
    if n == 0 {
        return;
    }
    let track = world.content().portal().track;
    let mut p = world.resource_mut::<Portal>();
    if p.operational {
        return;
    }
    let room = track.saturating_sub(p.power + p.corruption);
    let added = n.min(room);
    p.corruption += added;
    let markers = p.corruption;
    world.emit(GameEvent::PortalCorrupted { added, markers });
    outcome::check(world);
}

/// Pushes corruption markers back off the power track (R8.3).
pub fn push_back(world: &mut World, n: u32) {
    let mut p = world.resource_mut::<Portal>();
    let removed = n.min(p.corruption);
    if removed == 0 {
        return;
    }
    p.corruption -= removed;
    let markers = p.corruption;
    world.emit(GameEvent::CorruptionPushedBack { removed, markers });
}

/// R8 waits while a cell could be built or crystals could go in. R8.3: a corruption marker
/// on the next power cell blocks power, yet the step still waits when crystals could otherwise
/// go in, so the player sees the block and a try is refused with the rule's reason
/// (`PowerBlocked`) rather than finding the step gone (rules version 2; version 1 closed it).
fn portal_decision_open(world: &mut World) -> bool {
    let def = world.content();
    let Some(o) = world.outpost_by_id(world.resource::<Portal>().outpost) else {
        return false;
    };
    let have = available(world, &outpost_purse(world, o));
    let p = world.resource::<Portal>().clone();
    if !is_built(world) {
        return (0..def.portal().arches.len())
            .any(|i| next_cell(world, i).is_ok_and(|cost| have.covers(&cost)));
    }
    (p.corruption == 0 || world.rules().blocked_portal_waits())
        && !p.operational
        && p.crystals_this_phase < crystals_allowed(world)
        && have.get(Res::Crystal) > 0
}
