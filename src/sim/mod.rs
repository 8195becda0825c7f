//! Headless games: a simple placeholder policy for both camps (until the AI issue replaces it),
//! per-cycle summaries, and batches of seeded games for the `sim` command.

use std::sync::Arc;

use bevy::prelude::*;
use serde::Serialize;

use crate::content::{Camp, ContentDb, Res, Stock};
use crate::rules::economy::{available, outpost_purse};
use crate::rules::legal::legal_actions;
use crate::rules::snapshot::state_hash;
use crate::rules::upkeep::{portal, research};
use crate::rules::{
    Action, Army, Cycle, GameWorld, Outcome, Outpost, Portal, Research, Tile, setup, submit,
};

/// The state of the game at the end of a cycle's upkeep, as the summaries print it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CycleSummary {
    /// Cycle number.
    pub cycle: u32,
    /// Resources in all outposts' stocks.
    pub stock: Stock,
    /// Corrupted tiles (rifts included).
    pub corrupted: u32,
    /// Famine tokens on Eladrin armies.
    pub famine: u32,
    /// Eladrin units alive.
    pub eladrin_units: u32,
    /// Chaos units alive.
    pub chaos_units: u32,
    /// Portal cells built / all cells.
    pub portal_cells: (u32, u32),
    /// Crystals on the power track.
    pub power: u32,
    /// Corruption markers on the power track.
    pub corruption: u32,
    /// Technologies done.
    pub research_done: u32,
}

/// Reads a summary off the world.
pub fn summarize(world: &mut World) -> CycleSummary {
    let db = world.content();
    let mut stock = Stock::default();
    for o in world.query::<&Outpost>().iter(world) {
        stock.add_all(&o.stock);
    }
    let corrupted = world
        .query::<&Tile>()
        .iter(world)
        .filter(|t| t.is_corrupted())
        .count() as u32;
    let (mut famine, mut el, mut ch) = (0, 0, 0);
    for a in world.query::<&Army>().iter(world) {
        match a.camp {
            Camp::Eladrins => {
                famine += a.famine;
                el += a.units.len() as u32;
            }
            Camp::Chaos => ch += a.units.len() as u32,
        }
    }
    let p = world.resource::<Portal>();
    let total: u32 = db.portal().arches.iter().map(|a| a.len() as u32).sum();
    CycleSummary {
        cycle: world.resource::<Cycle>().number,
        stock,
        corrupted,
        famine,
        eladrin_units: el,
        chaos_units: ch,
        portal_cells: (p.built.iter().sum(), total),
        power: p.power,
        corruption: p.corruption,
        research_done: world.resource::<Research>().done.len() as u32,
    }
}

/// The placeholder policy: the next (camp, action) to play. Feeds starving armies, takes the
/// cheapest research and funds it, builds the portal's lower cells first, powers it as fast as
/// allowed; in the main phase see `main_phase_action`. (The AI milestone replaces it.)
pub fn placeholder_action(world: &mut World) -> (Camp, Action) {
    let step = world.step_id();
    let db = world.content();
    match step {
        "R5" => {
            let per = db.rules().famine_food_per_token.max(1);
            for a in world.armies() {
                let Some(army) = world.get::<Army>(a).cloned() else {
                    continue;
                };
                if army.camp != Camp::Eladrins || army.famine == 0 {
                    continue;
                }
                let purse = crate::rules::economy::purse_at(world, army.hex);
                let food = available(world, &purse).get(Res::Food);
                let tokens = army.famine.min(food / per);
                if tokens > 0 {
                    return (
                        Camp::Eladrins,
                        Action::Feed {
                            army: army.id,
                            tokens,
                        },
                    );
                }
            }
            (Camp::Eladrins, Action::Done)
        }
        "R7" => {
            let offer = world.resource::<Research>().offer.clone();
            if let Some(best) = offer.iter().min_by_key(|t| {
                (
                    db.tech(t).map(|x| x.points + x.resources.total()),
                    (*t).clone(),
                )
            }) {
                return (
                    Camp::Eladrins,
                    Action::ChooseResearch { tech: best.clone() },
                );
            }
            let missing = research::resources_missing(world);
            for o in world.outposts() {
                let have = available(world, &outpost_purse(world, o));
                let id = world.get::<Outpost>(o).map(|x| x.id).unwrap_or(0);
                for (r, n) in missing.iter() {
                    let k = n.min(have.get(r));
                    if k > 0 {
                        return (
                            Camp::Eladrins,
                            Action::FundResearch {
                                outpost: id,
                                res: r,
                                amount: k,
                            },
                        );
                    }
                }
            }
            (Camp::Eladrins, Action::Done)
        }
        "R8" => {
            let p = world.resource::<Portal>().clone();
            let Some(o) = world.outpost_by_id(p.outpost) else {
                return (Camp::Eladrins, Action::Done);
            };
            let have = available(world, &outpost_purse(world, o));
            if !portal::is_built(world) {
                let mut arches: Vec<(u32, usize)> = db
                    .portal()
                    .arches
                    .iter()
                    .enumerate()
                    .map(|(i, _)| (p.built.get(i).copied().unwrap_or(0), i))
                    .collect();
                arches.sort();
                for (built, i) in arches {
                    if let Some(cost) = db.portal().arches[i].get(built as usize)
                        && have.covers(cost)
                    {
                        return (Camp::Eladrins, Action::BuildPortalCell { arch: i });
                    }
                }
                return (Camp::Eladrins, Action::Done);
            }
            let room = portal::crystals_allowed(world).saturating_sub(p.crystals_this_phase);
            let n = room.min(have.get(Res::Crystal));
            if n > 0 && p.corruption == 0 && !p.operational {
                return (Camp::Eladrins, Action::PowerPortal { crystals: n });
            }
            (Camp::Eladrins, Action::Done)
        }
        "R9" => {
            let by = world.resource::<Cycle>().turn;
            (by, main_phase_action(world, by))
        }
        _ => (Camp::Eladrins, Action::Done),
    }
}

/// What the portal still needs, beyond what its outpost can pay now.
fn portal_shortfall(world: &mut World) -> Stock {
    let db = world.content();
    let p = world.resource::<Portal>().clone();
    let mut need = Stock::default();
    for (i, arch) in db.portal().arches.iter().enumerate() {
        for cost in arch
            .iter()
            .skip(p.built.get(i).copied().unwrap_or(0) as usize)
        {
            need.add_all(cost);
        }
    }
    need.add(Res::Crystal, db.portal().star.saturating_sub(p.power));
    let have = world
        .outpost_by_id(p.outpost)
        .map(|o| available(world, &outpost_purse(world, o)))
        .unwrap_or_default();
    let mut short = Stock::default();
    for (r, n) in need.iter() {
        short.add(r, n.saturating_sub(have.get(r)));
    }
    short
}

/// The placeholder's main phase: Eladrins build what the portal lacks, a laboratory, and
/// explore; Chaos summons at its rifts and marches on the nearest Eladrins, attacking on contact.
fn main_phase_action(world: &mut World, by: Camp) -> Action {
    let legal = legal_actions(world, by);
    let db = world.content();
    if let Some(id) = world.resource::<Cycle>().activation {
        let army = world
            .army_by_id(id)
            .and_then(|e| world.get::<Army>(e).cloned());
        if let Some(a) = army {
            if let Some(x) = legal.iter().find(|x| matches!(x, Action::Engage { .. })) {
                return x.clone();
            }
            if let Some(x) = legal.iter().find(|x| matches!(x, Action::Explore { .. })) {
                return x.clone();
            }
            if by == Camp::Chaos
                && let Some(target) = nearest_eladrins(world, a.hex)
            {
                let here = a.hex.unsigned_distance_to(target);
                let best = legal
                    .iter()
                    .filter_map(|x| match x {
                        Action::Move { to } => Some((hexx::Hex::new(to.0, to.1), x)),
                        _ => None,
                    })
                    .min_by_key(|(h, _)| (h.unsigned_distance_to(target), (h.x, h.y)));
                if let Some((h, x)) = best
                    && h.unsigned_distance_to(target) < here
                {
                    return x.clone();
                }
            }
        }
        return Action::EndActivation;
    }
    match by {
        Camp::Chaos => {
            if let Some(x) = legal.iter().find(|x| matches!(x, Action::Summon { .. })) {
                return x.clone();
            }
            if let Some(x) = legal.iter().find(|x| matches!(x, Action::Activate { .. })) {
                return x.clone();
            }
            Action::Pass
        }
        Camp::Eladrins => {
            let short = portal_shortfall(world);
            let best = legal
                .iter()
                .filter_map(|x| match x {
                    Action::BuildImprovement { improvement, .. } => {
                        let y = db.improvement(improvement)?.yields;
                        let score: u32 = y.iter().map(|(r, n)| n.min(short.get(r))).sum();
                        (score > 0).then_some((score, x))
                    }
                    _ => None,
                })
                .max_by_key(|(score, _)| *score);
            if let Some((_, x)) = best {
                return x.clone();
            }
            let has_lab = !crate::rules::upkeep::research::labs(world).is_empty();
            if !has_lab
                && let Some(x) = legal.iter().find(|x| {
                    matches!(x, Action::BuildBuilding { building, .. } if building == "laboratory")
                })
            {
                return x.clone();
            }
            // Activate an explorer standing on unexplored ground.
            for x in &legal {
                if let Action::Activate { army } = x
                    && let Some(a) = world
                        .army_by_id(*army)
                        .and_then(|e| world.get::<Army>(e).cloned())
                {
                    let explorer = a.units.iter().any(|u| {
                        db.unit(&u.kind)
                            .is_some_and(|t| t.skills.contains(&crate::content::Skill::Explorer))
                    });
                    if explorer && world.tile(a.hex).is_some_and(|t| t.modifier.is_none()) {
                        return x.clone();
                    }
                }
            }
            Action::Pass
        }
    }
}

/// The Eladrin army or outpost nearest `from`.
fn nearest_eladrins(world: &mut World, from: hexx::Hex) -> Option<hexx::Hex> {
    let mut targets: Vec<hexx::Hex> = world
        .query::<&Outpost>()
        .iter(world)
        .map(|o| o.hex)
        .collect();
    targets.extend(
        world
            .query::<&Army>()
            .iter(world)
            .filter(|a| a.camp == Camp::Eladrins)
            .map(|a| a.hex),
    );
    targets
        .into_iter()
        .min_by_key(|h| (h.unsigned_distance_to(from), (h.x, h.y)))
}

/// One finished headless game.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    /// Seed.
    pub seed: u64,
    /// The winner, if decided.
    pub winner: Option<Camp>,
    /// How it ended.
    pub reason: String,
    /// Cycles played.
    pub cycles: u32,
    /// Actions accepted.
    pub actions: usize,
    /// Final state hash.
    pub hash: String,
    /// Per-cycle summaries.
    pub per_cycle: Vec<CycleSummary>,
}

/// Plays one game with the placeholder policy for at most `max_cycles` cycles.
pub fn play_game(
    content: Arc<ContentDb>,
    level: &str,
    difficulty: Option<&str>,
    seed: u64,
    max_cycles: u32,
) -> Result<(App, GameReport), String> {
    let mut app = setup::new_game(content, level, difficulty, seed)?;
    let world = app.world_mut();
    let mut per_cycle = Vec::new();
    let mut last_cycle = 0;
    let mut actions = 0usize;
    // Bound the loop: a game is a few hundred actions; a stuck policy must not hang.
    for _ in 0..1_000_000 {
        if world.resource::<Outcome>().winner.is_some() {
            break;
        }
        let c = world.resource::<Cycle>().number;
        if c > max_cycles {
            break;
        }
        if world.step_id() == "R9" && c != last_cycle {
            last_cycle = c;
            per_cycle.push(summarize(world));
        }
        let (by, action) = placeholder_action(world);
        match submit(world, by, action.clone()) {
            Ok(()) => actions += 1,
            Err(e) => {
                return Err(format!(
                    "the placeholder policy proposed an illegal action {action:?}: {e}"
                ));
            }
        }
    }
    let o = world.resource::<Outcome>().clone();
    let cycles = world.resource::<Cycle>().number.min(max_cycles);
    let hash = format!("{:016x}", state_hash(world));
    let report = GameReport {
        seed,
        winner: o.winner,
        reason: if o.winner.is_some() {
            o.reason
        } else {
            format!("stopped after {max_cycles} cycles")
        },
        cycles,
        actions,
        hash,
        per_cycle,
    };
    Ok((app, report))
}
