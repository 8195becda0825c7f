//! Card, technology, artifact, ritual and unit-action effects (`content::Effect`), applied in
//! order. Choices an effect needs (which rift, which tile) follow a stable rule — nearest the
//! portal, then lowest hex — so the same state always gives the same result.
//!
//! Research points and a technology's completion (R7.2) live here too: completing applies the
//! technology's effects and effects add points, so they are one recursion. The steps (R6, R7,
//! R8) call into this file; it calls only their track operations (a corruption attempt, the
//! portal's markers), never back into a step that calls it.

use bevy::prelude::*;
use hexx::Hex;

use super::board::key;
use super::units::{add_famine, spawn, wound_all};
use super::upkeep::{corruption, portal};
use super::{
    Army, Decks, GameEvent, GameRng, GameWorld, Modifiers, Outpost, Portal, Research, Rift, Tile,
};
use crate::content::{Camp, Effect, Stock, Where};

/// Whether the building or improvement `id` may be built, with the one meaning every source of
/// `Unlock` shares: it names no technology (`requires_tech`), or that technology is researched
/// (R7.2), or an `Unlock(id)` effect opened it, whatever played the effect (a technology, an
/// artifact, an event, an exploration card, a ritual, a mod's card).
pub fn is_unlocked(world: &World, id: &str, requires_tech: &Option<String>) -> bool {
    match requires_tech {
        None => true,
        Some(t) => {
            world.resource::<Research>().done.contains(t)
                || world.resource::<Modifiers>().unlocked.contains(id)
        }
    }
}

/// Applies effects in order. `at` is the tile the effect concerns, if any (exploration).
pub fn apply(world: &mut World, effects: &[Effect], at: Option<Hex>) {
    for e in effects {
        apply_one(world, e, at);
        if world.resource::<super::Outcome>().winner.is_some() {
            return;
        }
    }
}

/// A chapter's hook: `Effect::Hook { hook, arg }` in a card calls it (with the effect's tile,
/// if any). Registered by `chapter::ChapterAppExt::add_chapter_hook`.
pub type Hook = fn(&mut World, &str, i32, Option<Hex>);

/// The chapters' hooks, by chapter id.
#[derive(Resource, Default, Clone)]
pub struct Hooks(pub std::collections::BTreeMap<&'static str, Hook>);

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
            let m = &mut world.resource_mut::<Modifiers>();
            m.pending_attempts = m.pending_attempts.saturating_add(*n);
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
                spawn(world, Camp::Chaos, h, unit, count.saturating_add(bonus));
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
                    wound_all(world, a, *n as u8, super::event::Cause::Card);
                }
            }
        }
        Effect::ResearchPoints(n) => add_points(world, *n),
        // The permanent bonuses saturate: an event card drawn again and again adds up.
        Effect::Storage(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.storage = m.storage.saturating_add(*n);
        }
        Effect::HealthierFood(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.healthier_food = m.healthier_food.saturating_add(*n);
        }
        Effect::AttackBonus(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.attack = m.attack.saturating_add(*n);
        }
        Effect::HpBonus(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.hp = m.hp.saturating_add(*n);
        }
        Effect::LabPoints(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.lab_points = m.lab_points.saturating_add(*n);
        }
        Effect::Resistance(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.resistance = m.resistance.saturating_add(*n);
        }
        Effect::PortalCrystals(n) => {
            let m = &mut world.resource_mut::<Modifiers>();
            m.portal_crystals = m.portal_crystals.saturating_add(*n);
        }
        Effect::ImprovementYield { improvement, extra } => {
            world
                .resource_mut::<Modifiers>()
                .improvement_yield
                .entry(improvement.clone())
                .or_default()
                .add_all(extra);
        }
        Effect::Track { track, change, who } => {
            if let Some(d) = super::tracks::def(world, track) {
                for h in super::tracks::targets(world, &d, *who) {
                    super::tracks::add(world, track, h, *change);
                }
            }
        }
        Effect::Hook { chapter, hook, arg } => {
            let f = world
                .get_resource::<Hooks>()
                .and_then(|h| h.0.get(chapter.as_str()).copied());
            let in_play = world
                .get_resource::<super::InPlay>()
                .is_some_and(|p| p.has(chapter));
            if let Some(f) = f
                && in_play
            {
                f(world, hook, *arg, at);
            }
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
        world.emit(GameEvent::Note(super::event::Notice::NoTileForRift));
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

/// R7.2: completes the research under way if its points and resources are all there.
pub fn check_completion(world: &mut World) {
    let r = world.resource::<Research>().clone();
    let Some(id) = r.current.clone() else { return };
    let db = world.content();
    let Some(tech) = db.tech(&id) else { return };
    if r.points < tech.points || !r.missing(&db).is_empty() {
        return;
    }
    let lost = r.points - tech.points;
    {
        let mut res = world.resource_mut::<Research>();
        res.current = None;
        res.points = 0;
        res.placed = Stock::default();
        res.done.push(id.clone());
    }
    world.emit(GameEvent::ResearchDone {
        tech: id.clone(),
        lost_points: lost,
    });
    apply(world, &tech.effects, None);
    if tech.returns {
        world.resource_scope(|world, mut decks: Mut<Decks>| {
            let mut rng = world.resource_mut::<GameRng>();
            decks.research.put_back_and_shuffle(id, &mut rng);
        });
    }
}

/// Adds points to the research under way (labs, cards) and checks completion.
pub fn add_points(world: &mut World, n: u32) {
    if n == 0 || world.resource::<Research>().current.is_none() {
        return;
    }
    let total = {
        let mut r = world.resource_mut::<Research>();
        r.points += n;
        r.points
    };
    world.emit(GameEvent::ResearchPoints { added: n, total });
    check_completion(world);
}
