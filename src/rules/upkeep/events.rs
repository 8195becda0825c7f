//! R2 — Events: the Eladrins draw a global event card, Chaos a chaos card; effects apply at once.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::{
    CycleAppExt, Decks, GameEvent, GameRng, GameWorld, Placement, RuleSet, StepDef, StepKind,
    StepSchedule, effects,
};

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R2",
            title: "Events",
            kind: StepKind::Automatic,
        },
        Placement::End,
    )
    .add_systems(
        StepSchedule("R2"),
        draw_event_cards.in_set(RuleSet::R2Events),
    );
}

/// Which deck a camp draws from at R2.
#[derive(Clone, Copy)]
enum Pile {
    Events,
    Chaos,
}

/// R2: each camp draws its card and applies it (Eladrins first).
fn draw_event_cards(world: &mut World) {
    for (camp, pile) in [(Camp::Eladrins, Pile::Events), (Camp::Chaos, Pile::Chaos)] {
        let card = world.resource_scope(|world, mut decks: Mut<Decks>| {
            let mut rng = world.resource_mut::<GameRng>();
            match pile {
                Pile::Events => decks.events.draw(&mut rng),
                Pile::Chaos => decks.chaos.draw(&mut rng),
            }
        });
        let Some(card) = card else { continue };
        let db = world.content();
        let list = match pile {
            Pile::Events => &db.set.events,
            Pile::Chaos => &db.set.chaos,
        };
        let Some(def) = list.iter().find(|c| c.id == card) else {
            continue;
        };
        world.emit(GameEvent::CardDrawn {
            camp,
            deck: match pile {
                Pile::Events => "events",
                Pile::Chaos => "chaos",
            }
            .into(),
            card: card.clone(),
        });
        effects::apply(world, &def.effects, None);
        let mut decks = world.resource_mut::<Decks>();
        match pile {
            Pile::Events => decks.events.discard.push(card),
            Pile::Chaos => decks.chaos.discard.push(card),
        }
    }
}
