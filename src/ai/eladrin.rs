//! The Eladrin AI: upkeep decisions (feed the starving, choose and fund research, build and power
//! the portal) and main-phase candidate actions (build what the portal lacks, food when short, a
//! laboratory, recruit defenders, explore, perform rituals, defend and attack with good odds).
//! It plays the Eladrins in balance runs, stands in for a missing hot-seat player, and finishes a
//! turn for a player who asks.

use bevy::prelude::*;
use hexx::Hex;

use super::{Candidate, Choice, active, armies_of, best, move_towards, outpost_hexes};
use crate::content::{Camp, Res, Skill, Stock};
use crate::rules::economy::{available, outpost_purse};
use crate::rules::upkeep::research;
use crate::rules::{Action, Army, GameWorld, Portal, Research, StepKind};

/// The Eladrins' choice among the legal actions.
pub fn choose(world: &mut World, legal: &[Action]) -> Choice {
    match world.step_kind() {
        StepKind::Decision { .. } => upkeep(world, legal),
        StepKind::Turns => {
            let (cas, fallback) = scorers(world);
            best(world, legal, cas, fallback)
        }
        // A chapter's rounds: its own scorers play them (`ai::ChapterScorers`).
        StepKind::Round { .. } => Choice {
            score: 0,
            action: Action::Pass,
            why: "pass",
        },
        StepKind::Automatic => Choice {
            score: 0,
            action: Action::Done,
            why: "done",
        },
    }
}

/// The Eladrins' main-phase candidates now, and what they do when none proposes anything:
/// inside an activation, and outside one.
pub fn scorers(world: &mut World) -> (&'static [Candidate], Action) {
    const ACTIVE: [Candidate; 6] = [ritual, attack, explore, sally, defend, card];
    const IDLE: [Candidate; 4] = [build_improvement, build_lab, recruit, activate];
    if active(world).is_some() {
        (&ACTIVE, Action::EndActivation)
    } else {
        (&IDLE, Action::Pass)
    }
}

fn pick(action: Action, why: &'static str) -> Choice {
    Choice {
        score: 1,
        action,
        why,
    }
}

/// Upkeep: feed every token food allows (R5.5); choose the research the level's victory asks
/// for, else the cheapest, and fund it (R7);
/// build the lowest portal cell first, then power it as fast as allowed (R8).
fn upkeep(world: &mut World, legal: &[Action]) -> Choice {
    let db = world.content();
    match world.step_id() {
        "R5" => {
            // The largest feeding of the first starving army: legal lists them in order.
            let feed = legal
                .iter()
                .filter(|a| matches!(a, Action::Feed { .. }))
                .max_by_key(|a| match a {
                    Action::Feed { army, tokens } => (*tokens, u32::MAX - army),
                    _ => (0, 0),
                });
            feed.cloned()
                .map(|a| pick(a, "feed"))
                .unwrap_or_else(|| pick(Action::Done, "done"))
        }
        "R7" => {
            let offer = world.resource::<Research>().offer.clone();
            // A technology the level's victory asks for (`victory.research`) first: without it
            // a powered portal does not win (measured on `stress`: games lost at the cycle
            // limit with the portal powered). Then the cheapest.
            let wanted = victory_research(world);
            if let Some(t) = offer.iter().min_by_key(|t| {
                (
                    !wanted.contains(t),
                    db.tech(t).map(|x| x.points + x.resources.total()),
                    (*t).clone(),
                )
            }) {
                return pick(Action::ChooseResearch { tech: t.clone() }, "research");
            }
            // Fund with the largest amount allowed.
            let fund = legal
                .iter()
                .filter(|a| matches!(a, Action::FundResearch { .. }))
                .max_by_key(|a| match a {
                    Action::FundResearch { amount, .. } => *amount,
                    _ => 0,
                });
            fund.cloned()
                .map(|a| pick(a, "fund"))
                .unwrap_or_else(|| pick(Action::Done, "done"))
        }
        "R8" => {
            let p = world.resource::<Portal>().clone();
            let mut arches: Vec<(u32, usize)> = (0..db.portal().arches.len())
                .map(|i| (p.built.get(i).copied().unwrap_or(0), i))
                .collect();
            arches.sort();
            for (_, i) in arches {
                let a = Action::BuildPortalCell { arch: i };
                if legal.contains(&a) {
                    return pick(a, "portal cell");
                }
            }
            let power = legal
                .iter()
                .filter(|a| matches!(a, Action::PowerPortal { .. }))
                .max_by_key(|a| match a {
                    Action::PowerPortal { crystals } => *crystals,
                    _ => 0,
                });
            power
                .cloned()
                .map(|a| pick(a, "power"))
                .unwrap_or_else(|| pick(Action::Done, "done"))
        }
        _ => pick(Action::Done, "done"),
    }
}

/// What the portal still needs: the cells not built yet (R8.1) and the crystals up to its star
/// (R8.2).
pub fn portal_need(world: &World) -> Stock {
    let db = world.content();
    let p = world.resource::<Portal>();
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
    need
}

/// What the portal still needs beyond what its outpost can pay now.
pub fn portal_shortfall(world: &mut World) -> Stock {
    let need = portal_need(world);
    let outpost = world.resource::<Portal>().outpost;
    let have = world
        .outpost_by_id(outpost)
        .map(|o| available(world, &outpost_purse(world, o)))
        .unwrap_or_default();
    let mut short = Stock::default();
    for (r, n) in need.iter() {
        short.add(r, n.saturating_sub(have.get(r)));
    }
    short
}

/// Food eaten each upkeep by the Eladrin armies (R5.3) and buildings, against food in stock.
fn food_short(world: &mut World) -> bool {
    let mut need = 0;
    for a in armies_of(world, Camp::Eladrins) {
        need += crate::rules::upkeep::maintenance::army_needs(world, &a).0;
    }
    let mut have = 0;
    for o in world.outposts() {
        have += available(world, &outpost_purse(world, o)).get(Res::Food);
    }
    have < need * 3
}

/// An improvement yielding what the portal lacks (or food when it runs short).
pub fn build_improvement(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let db = world.content();
    let w = super::weights(world).eladrin.clone();
    let short = portal_shortfall(world);
    let hungry = food_short(world);
    let mut top: Option<Choice> = None;
    for a in legal {
        let Action::BuildImprovement { improvement, .. } = a else {
            continue;
        };
        let Some(imp) = db.improvement(improvement) else {
            continue;
        };
        let mut score: i64 = imp
            .yields
            .iter()
            .map(|(r, n)| n.min(short.get(r)) as i64 * w.economy)
            .sum();
        if hungry {
            score += imp.yields.get(Res::Food) as i64 * w.food;
        }
        if score > 0 && top.as_ref().is_none_or(|t| score > t.score) {
            top = Some(Choice {
                score,
                action: a.clone(),
                why: "improvement",
            });
        }
    }
    top
}

/// The technologies this game's level still asks for to win (`outcome::missing_research`).
fn victory_research(world: &World) -> Vec<String> {
    crate::rules::outcome::victory(world)
        .map(|v| crate::rules::outcome::missing_research(world, &v))
        .unwrap_or_default()
}

/// The first laboratory (research needs one, R7.1), and one more for each technology the
/// level's victory still asks for (`victory.research`): each laboratory adds a point a cycle
/// (R7.2), and on `stress` one alone learnt the second of two in the last cycle, too late.
pub fn build_lab(world: &mut World, legal: &[Action]) -> Option<Choice> {
    if research::labs(world).len() > victory_research(world).len() {
        return None;
    }
    let w = super::weights(world).eladrin.lab;
    legal
        .iter()
        .find(|a| matches!(a, Action::BuildBuilding { building, .. } if building == "laboratory"))
        .map(|a| Choice {
            score: w,
            action: a.clone(),
            why: "laboratory",
        })
}

/// Chaos armies within the threat radius of an outpost: (outpost hex, Chaos units near).
fn threats(world: &mut World) -> Vec<(Hex, usize)> {
    let r = super::weights(world).eladrin.threat_radius;
    let chaos = armies_of(world, Camp::Chaos);
    outpost_hexes(world)
        .into_iter()
        .map(|o| {
            let n = chaos
                .iter()
                .filter(|a| a.hex.unsigned_distance_to(o) <= r)
                .map(|a| a.units.len())
                .sum();
            (o, n)
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// Recruit the strongest defender affordable at a threatened outpost.
pub fn recruit(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let threatened = threats(world);
    if threatened.is_empty() {
        return None;
    }
    let db = world.content();
    let w = super::weights(world).eladrin.recruit;
    let mut best_unit: Option<(i64, Action)> = None;
    for a in legal {
        let Action::Recruit { outpost, unit } = a else {
            continue;
        };
        let Some(o) = world.outpost_by_id(*outpost) else {
            continue;
        };
        let Some(h) = world.get::<crate::rules::Outpost>(o).map(|x| x.hex) else {
            continue;
        };
        if !threatened.iter().any(|(t, _)| *t == h) {
            continue;
        }
        let Some(t) = db.unit(unit) else { continue };
        if !t.military {
            continue;
        }
        let strength = t.hp as i64 * t.attack.dice as i64 * (7 - t.attack.hit_on as i64);
        if best_unit.as_ref().is_none_or(|(s, _)| strength > *s) {
            best_unit = Some((strength, a.clone()));
        }
    }
    best_unit.map(|(_, action)| Choice {
        score: w,
        action,
        why: "recruit",
    })
}

/// Would activating this army do something useful?
fn worth_activating(world: &mut World, army: &Army) -> Option<&'static str> {
    let db = world.content();
    let has = |s: &Skill| {
        army.units
            .iter()
            .any(|u| db.unit(&u.kind).is_some_and(|t| t.skills.contains(s)))
    };
    if has(&Skill::Explorer) && world.tile(army.hex).is_some_and(|t| t.modifier.is_none()) {
        return Some("explore");
    }
    if !crate::rules::main_phase::build::armies_on(world, army.hex, Camp::Chaos).is_empty() {
        return Some("fight");
    }
    if has(&Skill::Ritualist) && world.resource::<Portal>().corruption > 0 {
        return Some("ritual");
    }
    if sally_target(world, army).is_some() {
        return Some("sally");
    }
    if is_military(world, army)
        && let Some((o, _)) = threats(world).first().copied()
        && o != army.hex
    {
        return Some("defend");
    }
    None
}

/// Activate the first army with something useful to do; ritualists first while a marker
/// blocks the portal (R8.3), at a ritual's weight: before a recruit spends the crystals that
/// would push it back.
pub fn activate(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).eladrin.clone();
    let mut top: Option<Choice> = None;
    for a in legal {
        let Action::Activate { army } = a else {
            continue;
        };
        let Some(am) = world
            .army_by_id(*army)
            .and_then(|e| world.get::<Army>(e).cloned())
        else {
            continue;
        };
        if let Some(why) = worth_activating(world, &am) {
            let score = if why == "ritual" {
                w.ritual
            } else {
                w.explore.min(w.defend)
            };
            if top.as_ref().is_none_or(|t| score > t.score) {
                top = Some(Choice {
                    score,
                    action: a.clone(),
                    why,
                });
            }
        }
    }
    top
}

/// A ritual: pushing back corruption while the track holds markers, sealing a rift always.
pub fn ritual(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let db = world.content();
    let w = super::weights(world).eladrin.ritual;
    let markers = world.resource::<Portal>().corruption;
    legal
        .iter()
        .filter_map(|a| {
            let Action::Ritual { ritual } = a else {
                return None;
            };
            let r = db.set.rituals.iter().find(|r| &r.id == ritual)?;
            let pushes = r
                .effects
                .iter()
                .any(|e| matches!(e, crate::content::Effect::PushBackCorruption(_)));
            (r.on_rift || (pushes && markers > 0)).then(|| Choice {
                score: w + if r.on_rift { 1 } else { 0 },
                action: a.clone(),
                why: "ritual",
            })
        })
        .max_by_key(|c| c.score)
}

/// Attack a Chaos army on the tile with good odds.
pub fn attack(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).eladrin.clone();
    super::best_attack(
        world,
        legal,
        w.odds_samples,
        w.attack_min_odds,
        w.attack,
        w.retreat,
    )
}

/// Whether the army has a military unit (one that fights for the outposts).
fn is_military(world: &World, army: &Army) -> bool {
    let db = world.content();
    army.units
        .iter()
        .any(|u| db.unit(&u.kind).is_some_and(|t| t.military))
}

/// The Chaos army a military `army` would sally out against: the nearest within
/// `sally_radius` that threatens an outpost (`threat_radius`) and that it beats with at least
/// `sally_min_odds` by the rules' own `battle_odds`. Closer first, then by id: stable.
fn sally_target(world: &mut World, army: &Army) -> Option<Hex> {
    let w = super::weights(world).eladrin.clone();
    if w.sally <= 0 || !is_military(world, army) {
        return None;
    }
    let outposts = outpost_hexes(world);
    // A garrison strikes only next door: the last military army on an outpost does not go
    // further (measured: sallies that emptied Dawnwatch lost it to the next Chaos army).
    let garrison = outposts.contains(&army.hex)
        && !armies_of(world, Camp::Eladrins)
            .iter()
            .any(|a| a.id != army.id && a.hex == army.hex && is_military(world, a));
    let radius = if garrison { 1 } else { w.sally_radius };
    let mut near: Vec<Army> = armies_of(world, Camp::Chaos)
        .into_iter()
        .filter(|c| {
            c.hex != army.hex
                && c.hex.unsigned_distance_to(army.hex) <= radius
                && outposts
                    .iter()
                    .any(|o| o.unsigned_distance_to(c.hex) <= w.threat_radius)
        })
        .collect();
    near.sort_by_key(|c| (c.hex.unsigned_distance_to(army.hex), c.id));
    near.into_iter()
        .find(|c| {
            let odds =
                crate::rules::main_phase::combat::battle_odds(world, army, c, 0, w.odds_samples);
            (odds.attacker_wins * 100.0).round() as u32 >= w.sally_min_odds
        })
        .map(|c| c.hex)
}

/// Sally out: march a military army on a threatening Chaos army it can beat (a
/// counter-attack; `attack` then fights it on its tile).
pub fn sally(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let me = active(world)?;
    let target = sally_target(world, &me)?;
    let (gain, action) = move_towards(legal, me.hex, target)?;
    Some(Choice {
        score: super::weights(world).eladrin.sally * gain as i64,
        action,
        why: "sally",
    })
}

/// Explore the tile.
pub fn explore(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let w = super::weights(world).eladrin.explore;
    legal
        .iter()
        .find(|a| matches!(a, Action::Explore { .. }))
        .map(|a| Choice {
            score: w,
            action: a.clone(),
            why: "explore",
        })
}

/// March a military army back towards the most threatened outpost.
pub fn defend(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let me = active(world)?;
    let w = super::weights(world).eladrin.defend;
    let (o, _) = threats(world)
        .into_iter()
        .max_by_key(|(h, n)| (*n, (-h.x, -h.y)))?;
    let (gain, action) = move_towards(legal, me.hex, o)?;
    Some(Choice {
        score: w * gain as i64,
        action,
        why: "defend",
    })
}

/// Useful card actions: pushing back a marker that blocks the portal (R8.3, at a ritual's
/// weight: an arcanist's ward where no psara is at hand for Purify), healing the wounded,
/// foraging while food runs short.
pub fn card(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let me = active(world)?;
    let db = world.content();
    let wounded = me.units.iter().any(|u| u.wounds > 0);
    let hungry = food_short(world);
    let blocked = world.resource::<Portal>().corruption > 0;
    let ritual = super::weights(world).eladrin.ritual;
    let ward = legal.iter().find(|a| {
        let Action::UseCard { unit, action } = a else {
            return false;
        };
        me.units
            .iter()
            .find(|x| x.id == *unit)
            .and_then(|u| db.unit(&u.kind))
            .and_then(|t| t.actions.iter().find(|c| &c.id == action))
            .is_some_and(|c| {
                c.effects
                    .iter()
                    .any(|e| matches!(e, crate::content::Effect::PushBackCorruption(_)))
            })
    });
    if blocked && let Some(a) = ward {
        return Some(Choice {
            score: ritual,
            action: a.clone(),
            why: "ward",
        });
    }
    legal.iter().find_map(|a| {
        let Action::UseCard { unit, action } = a else {
            return None;
        };
        let u = me.units.iter().find(|x| x.id == *unit)?;
        let c = db.unit(&u.kind)?.actions.iter().find(|c| &c.id == action)?;
        let heals = c
            .effects
            .iter()
            .any(|e| matches!(e, crate::content::Effect::Heal(_)));
        let feeds = c
            .effects
            .iter()
            .any(|e| matches!(e, crate::content::Effect::Gain(s) if s.get(Res::Food) > 0));
        ((heals && wounded) || (feeds && hungry)).then(|| Choice {
            score: 50,
            action: a.clone(),
            why: "card",
        })
    })
}
