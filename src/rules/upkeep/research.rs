//! R7 — Research and analysis. No lab: skip (R7.1). Each lab not analysing an artifact adds a
//! research point to the technology under way (R7.2); a lab analysing an artifact rolls 2d6, 7+
//! succeeds: the token goes and an artifact card is drawn (R7.3). With nothing under way, two
//! cards are drawn and the Eladrins choose one; the other goes back and the deck is shuffled
//! (R7.4). Resources may be placed on the card (`Action::FundResearch`); when points and
//! resources are all there the technology completes at once and extra points are lost (R7.2).

use bevy::prelude::*;

use crate::content::{Camp, Stock};
use crate::rules::economy::{available, outpost_purse};
use crate::rules::{
    CycleAppExt, Decks, GameEvent, GameRng, GameWorld, Modifiers, Outpost, Placement, Research,
    RuleSet, StepDef, StepKind, StepSchedule, effects,
};
// Completing a technology applies its effects, and effects add research points: both live in
// the effect interpreter (`effects::add_points`, `effects::check_completion`).
use crate::rules::effects::add_points;

/// Resources the research under way still needs on its card.
pub fn resources_missing(world: &World) -> Stock {
    world.resource::<Research>().missing(&world.content())
}

pub(super) fn plugin(app: &mut App) {
    app.add_cycle_step(
        StepDef {
            id: "R7",
            title: "Research and analysis",
            kind: StepKind::eladrins(research_decision_open),
        },
        Placement::End,
    )
    .configure_sets(
        StepSchedule("R7"),
        (RuleSet::R7Labs, RuleSet::R7Offer).chain(),
    )
    .add_systems(
        StepSchedule("R7"),
        (
            run_labs.in_set(RuleSet::R7Labs),
            offer_research.in_set(RuleSet::R7Offer),
        ),
    );
}

/// Every working lab: (outpost entity, outpost id, building slot), outposts by id.
pub fn labs(world: &mut World) -> Vec<(Entity, u32, usize)> {
    let db = world.content();
    let mut v = Vec::new();
    for o in world.outposts() {
        if let Some(op) = world.get::<Outpost>(o) {
            for slot in op.labs(&db) {
                v.push((o, op.id, slot));
            }
        }
    }
    v
}

/// R7.1–R7.3.
fn run_labs(world: &mut World) {
    let labs = labs(world);
    if labs.is_empty() {
        world.emit(GameEvent::Note(crate::rules::event::Notice::NoLaboratory));
        return;
    }
    let db = world.content();
    let per_lab = db.rules().lab_points + world.resource::<Modifiers>().lab_points;
    let target = db.rules().analysis_target;
    let mut points = 0;
    for (_, oid, slot) in labs {
        let assigned = world
            .resource::<Research>()
            .analysing
            .get(&(oid, slot))
            .copied();
        let Some(h) = assigned else {
            points += per_lab;
            continue;
        };
        if !world.tile(h).is_some_and(|t| t.artifact) {
            // The token is gone: the lab goes back to research, this time without a point.
            world
                .resource_mut::<Research>()
                .analysing
                .remove(&(oid, slot));
            continue;
        }
        let dice = world.resource_mut::<GameRng>().two_d6();
        let ok = (dice[0] + dice[1]) >= target;
        world.emit(GameEvent::Dice {
            what: crate::rules::event::Roll::Analysis,
            dice: dice.to_vec(),
            target: target as i32,
            malus: 0,
            success: ok,
            at: Some(h),
        });
        if !ok {
            continue;
        }
        world
            .resource_mut::<Research>()
            .analysing
            .remove(&(oid, slot));
        if let Some(mut t) = world.tile_mut(h) {
            t.artifact = false;
        }
        let card = world.resource_scope(|world, mut decks: Mut<Decks>| {
            let mut rng = world.resource_mut::<GameRng>();
            decks.artifacts.draw(&mut rng)
        });
        if let Some(card) = card {
            world.emit(GameEvent::CardDrawn {
                camp: Camp::Eladrins,
                deck: "artifacts".into(),
                card: card.clone(),
            });
            world.emit(GameEvent::ArtifactFound {
                card: card.clone(),
                at: h,
            });
            if let Some(def) = db.set.artifacts.iter().find(|c| c.id == card) {
                effects::apply(world, &def.effects, Some(h));
            }
            world.resource_mut::<Decks>().artifacts.discard.push(card);
        }
    }
    add_points(world, points);
}

/// R7.4: with labs and nothing under way, draw up to N cards to choose from.
fn offer_research(world: &mut World) {
    if labs(world).is_empty() {
        return;
    }
    let r = world.resource::<Research>();
    if r.current.is_some() || !r.offer.is_empty() {
        return;
    }
    let n = world.content().rules().research_offer;
    let mut offer = Vec::new();
    {
        let mut decks = world.resource_mut::<Decks>();
        for _ in 0..n {
            // Done research cards leave the game (R7.2): the deck has no discard to reshuffle.
            if let Some(c) = decks.research.draw.pop() {
                offer.push(c);
            }
        }
    }
    if offer.is_empty() {
        world.emit(GameEvent::Note(
            crate::rules::event::Notice::ResearchDeckEmpty,
        ));
        return;
    }
    world.resource_mut::<Research>().offer = offer.clone();
    world.emit(GameEvent::ResearchOffered { cards: offer });
}

/// R7 waits while a card must be chosen, or resources could go on the card.
fn research_decision_open(world: &mut World) -> bool {
    if !world.resource::<Research>().offer.is_empty() {
        return true;
    }
    let missing = resources_missing(world);
    if missing.is_empty() {
        return false;
    }
    for o in world.outposts() {
        let purse = outpost_purse(world, o);
        let have = available(world, &purse);
        if missing.iter().any(|(r, _)| have.get(r) > 0) {
            return true;
        }
    }
    false
}
