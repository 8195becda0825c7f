//! Legal actions: every action a camp may take now, for the AI, the view and tests. Candidates
//! are generated per step, then filtered through `validate`, so `legal_actions` and `validate`
//! can never disagree about what they list.

use bevy::prelude::*;

use super::economy::{available, outpost_purse};
use super::main_phase::activate::reachable;
use super::main_phase::at_of;
use super::upkeep::{corruption, research};
use super::{Action, Army, Board, Cycle, GameWorld, Outpost, Research, action::validate};
use crate::content::Camp;

/// Every action `by` may take now, in a stable order.
pub fn legal_actions(world: &mut World, by: Camp) -> Vec<Action> {
    // Moves are generated from the army's reachable tiles, the same search `validate` runs for
    // each one: validating the first stands for all (the other conditions are the army's), which
    // keeps this linear instead of one path search per tile. The perft test checks they agree.
    // A chapter's veto may forbid some destinations only: then each move is checked by it too.
    let mut moves_ok: Option<bool> = None;
    let vetoes = super::chapter::has_vetoes(world);
    candidates(world, by)
        .into_iter()
        .filter(|a| match a {
            Action::Move { .. } => {
                let first = *moves_ok
                    .get_or_insert_with(|| super::action::validate_core(world, by, a).is_ok());
                first && (!vetoes || super::chapter::veto(world, by, a).is_ok())
            }
            _ => validate(world, by, a).is_ok(),
        })
        .collect()
}

/// A superset of the legal actions (unvalidated), in a stable order.
pub fn candidates(world: &mut World, by: Camp) -> Vec<Action> {
    let mut v = Vec::new();
    let db = world.content();
    match world.step_id() {
        "R5" => {
            v.push(Action::Done);
            for e in world.armies() {
                if let Some(a) = world.get::<Army>(e) {
                    for t in 1..=a.famine.min(20) {
                        v.push(Action::Feed {
                            army: a.id,
                            tokens: t,
                        });
                    }
                }
            }
        }
        "R7" => {
            v.push(Action::Done);
            let r = world.resource::<Research>().clone();
            for t in &r.offer {
                v.push(Action::ChooseResearch { tech: t.clone() });
            }
            let missing = research::resources_missing(world);
            let labs = research::labs(world);
            for o in world.outposts() {
                let Some(op) = world.get::<Outpost>(o).cloned() else {
                    continue;
                };
                for (res, n) in missing.iter() {
                    for k in 1..=n.min(20) {
                        v.push(Action::FundResearch {
                            outpost: op.id,
                            res,
                            amount: k,
                        });
                    }
                }
                let zone = world.resource::<Board>().within(op.hex, op.influence(&db));
                for (_, oid, slot) in labs.iter().filter(|l| l.1 == op.id) {
                    v.push(Action::AssignLab {
                        outpost: *oid,
                        slot: *slot,
                        artifact: None,
                    });
                    for h in &zone {
                        if world.tile(*h).is_some_and(|t| t.artifact) {
                            v.push(Action::AssignLab {
                                outpost: *oid,
                                slot: *slot,
                                artifact: Some(at_of(*h)),
                            });
                        }
                    }
                }
            }
        }
        "R8" => {
            v.push(Action::Done);
            for i in 0..db.portal().arches.len() {
                v.push(Action::BuildPortalCell { arch: i });
            }
            for n in 1..=super::upkeep::portal::crystals_allowed(world).min(20) {
                v.push(Action::PowerPortal { crystals: n });
            }
        }
        "R9" => main_candidates(world, by, &mut v),
        _ => match world.step_kind() {
            super::StepKind::Round { .. } => v.push(Action::Pass),
            _ => v.push(Action::Done),
        },
    }
    // The actions of the chapters in play (none in a level without chapters).
    super::chapter::candidates(world, by, &mut v);
    v
}

fn main_candidates(world: &mut World, by: Camp, v: &mut Vec<Action>) {
    let db = world.content();
    if let Some(id) = world.resource::<Cycle>().activation {
        let Some(e) = world.army_by_id(id) else {
            return;
        };
        let Some(a) = world.get::<Army>(e).cloned() else {
            return;
        };
        for (h, _, _) in reachable(world, &a) {
            v.push(Action::Move { to: at_of(h) });
        }
        for u in &a.units {
            if let Some(t) = db.unit(&u.kind) {
                for c in &t.actions {
                    v.push(Action::UseCard {
                        unit: u.id,
                        action: c.id.clone(),
                    });
                }
            }
            v.push(Action::Explore { unit: u.id });
            v.push(Action::FoundOutpost {
                unit: u.id,
                name: String::new(),
            });
            if a.units.len() > 1 {
                v.push(Action::Detach { units: vec![u.id] });
            }
        }
        for other in world.armies() {
            let Some(o) = world.get::<Army>(other) else {
                continue;
            };
            if o.hex != a.hex || o.id == a.id {
                continue;
            }
            if o.camp == a.camp {
                v.push(Action::Merge { from: o.id });
            } else {
                v.push(Action::Engage {
                    target: o.id,
                    retreat_below: 0,
                });
            }
        }
        v.push(Action::Embark);
        let around: Vec<hexx::Hex> = world.resource::<Board>().neighbors(a.hex).collect();
        for n in around {
            v.push(Action::Land { to: at_of(n) });
        }
        let (_, hold) = super::main_phase::embark::capacity(&db, &a);
        if hold > 0 {
            for res in crate::content::Res::ALL {
                for k in 1..=hold.min(20) {
                    v.push(Action::Load { res, amount: k });
                }
                for k in 1..=a.cargo.get(res).min(20) {
                    v.push(Action::Unload { res, amount: k });
                }
            }
        }
        for r in &db.set.rituals {
            v.push(Action::Ritual {
                ritual: r.id.clone(),
            });
        }
        v.push(Action::EndActivation);
        return;
    }
    v.push(Action::Pass);
    for e in world.armies() {
        if let Some(a) = world.get::<Army>(e)
            && a.camp == by
        {
            v.push(Action::Activate { army: a.id });
        }
    }
    match by {
        Camp::Eladrins => {
            // Tiles where an improvement could go: control zones and tiles held by armies.
            let mut tiles = Vec::new();
            for o in world.outposts() {
                if let Some(op) = world.get::<Outpost>(o) {
                    let zone = world.resource::<Board>().within(op.hex, op.control(&db));
                    tiles.extend(zone);
                }
            }
            for e in world.armies() {
                if let Some(a) = world.get::<Army>(e)
                    && a.camp == Camp::Eladrins
                {
                    tiles.push(a.hex);
                }
            }
            tiles.sort_by_key(|h| super::board::key(*h));
            tiles.dedup();
            // Prefilter on what any purse could pay (a superset: `validate` still decides), so
            // that unaffordable candidates don't each pay for a purse search.
            let mut rich = crate::content::Stock::default();
            let mut purses = Vec::new();
            for o in world.outposts() {
                let have = available(world, &outpost_purse(world, o));
                rich.add_all(&have);
                purses.push((o, have));
            }
            for h in tiles {
                let Some(t) = world.tile(h).cloned() else {
                    continue;
                };
                if t.improvement.is_some() {
                    continue;
                }
                let mut here = rich;
                here.add_all(&t.lying);
                for imp in &db.set.improvements {
                    if (!imp.terrains.is_empty() && !imp.terrains.contains(&t.terrain))
                        || !here.covers(&imp.cost)
                    {
                        continue;
                    }
                    v.push(Action::BuildImprovement {
                        at: at_of(h),
                        improvement: imp.id.clone(),
                    });
                }
            }
            for (o, have) in purses {
                let Some(op) = world.get::<Outpost>(o).cloned() else {
                    continue;
                };
                for b in db.set.buildings.iter().filter(|b| have.covers(&b.cost)) {
                    v.push(Action::BuildBuilding {
                        outpost: op.id,
                        building: b.id.clone(),
                    });
                }
                for u in db
                    .set
                    .units
                    .iter()
                    .filter(|u| u.recruit_cost.is_some_and(|c| have.covers(&c)))
                {
                    v.push(Action::Recruit {
                        outpost: op.id,
                        unit: u.id.clone(),
                    });
                }
            }
        }
        Camp::Chaos => {
            for r in corruption::open_rifts(world) {
                v.push(Action::Summon { rift: at_of(r) });
            }
        }
    }
}
