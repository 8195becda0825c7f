//! R4 — Time counters: one marker comes off every source that has one; at zero the improvement
//! or building is available, and its upkeep is due at R5 of this same phase.

use bevy::prelude::*;

use crate::content::BuildingEffect;
use crate::rules::{
    Board, CycleAppExt, GameEvent, GameWorld, Outpost, Placement, RuleSet, StepDef, StepKind,
    StepSchedule,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R4",
            title: "Time counters",
            kind: StepKind::Automatic,
        },
        Placement::End,
    )
    .add_systems(
        StepSchedule("R4"),
        remove_time_markers.in_set(RuleSet::R4Timers),
    );
}

/// R4: tiles in board order, then outposts by id.
fn remove_time_markers(world: &mut World) {
    let order = world.resource::<Board>().order.clone();
    for h in order {
        let mut ready = None;
        if let Some(mut t) = world.tile_mut(h)
            && let Some(w) = t.improvement.as_mut()
            && w.timer > 0
        {
            w.timer -= 1;
            if w.timer == 0 {
                ready = Some(w.id.clone());
            }
        }
        if let Some(id) = ready {
            world.emit(GameEvent::Ready { id, at: h });
        }
    }
    let db = world.content();
    for o in world.outposts() {
        let mut readied = Vec::new();
        let Some(mut op) = world.get_mut::<Outpost>(o) else {
            continue;
        };
        let hex = op.hex;
        for b in op.buildings.iter_mut() {
            if b.timer > 0 {
                b.timer -= 1;
                if b.timer == 0 {
                    readied.push(b.id.clone());
                }
            }
        }
        for id in &readied {
            // A building that grows its outpost does so the moment it stands (R9.2 reading).
            let grows = db
                .building(id)
                .is_some_and(|b| b.effects.contains(&BuildingEffect::GrowOutpost));
            if grows && let Some(next) = db.size(&op.size).and_then(|s| s.next.clone()) {
                op.size = next;
            }
        }
        for id in readied {
            world.emit(GameEvent::Ready { id, at: hex });
        }
    }
}
