//! The chapter's AI: scorers (`ai::ScorerAppExt`) that propose its actions to both camps'
//! AIs, weighed in `ai.ron` (`chapters: {"dragoness": {…}}`). They read the same course the
//! rules walk (`guide::plan`), so what the Guide expects is what happens.
//!
//! - The Guide (Chaos, or the Eladrins where a level gives them the step): the move that loses
//!   the most teams for Chaos (the fewest for the Eladrins), then the one that gains gems and
//!   keeps enough for the reveal it is heading into (D8), then the farther one.
//! - The teams' orders: the relic (D13) first, a quest's step I, the portal token (D9) once the
//!   countdown is far gone.
//! - The expedition: activate a team that has somewhere to go, then walk it there: a quest's
//!   site, the room of its quest's relic token, the White Tomb once she lies in it; never onto
//!   a hex her next advance would cross, unless the team is spared there (D4).

use std::collections::BTreeSet;

use bevy::prelude::*;
use hexx::Hex;

use crate::ai::{self, Choice};
use crate::content::{At, Camp};
use crate::rules::chapter;
use crate::rules::main_phase::at_of;
use crate::rules::tracks::{self, Holder};
use crate::rules::units::Army;
use crate::rules::{Action, GameWorld};

use super::data::{DragonessLevel, hex, level};
use super::guide::{self as g, Pos};
use super::state::Dragoness;
use super::{DragonAction, GEMS, ID};

/// The Guide's move, for whichever camp guides.
pub fn guide(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let lvl = level(world);
    let st = world.resource::<Dragoness>().clone();
    let camp = g::guide(world);
    let w_cross = ai::weight(world, ID, "cross");
    let w_gem = ai::weight(world, ID, "gem");
    let w_cell = ai::weight(world, ID, "cell");
    let w_short = ai::weight(world, ID, "short_of_gems");
    let w_tomb = ai::weight(world, ID, "tomb");
    let gems = tracks::get(world, GEMS, Holder::Camp(camp));
    let mut top: Option<Choice> = None;
    for a in legal {
        let Some(d) = chapter::decode::<DragonAction>(a) else {
            continue;
        };
        let (brake, toward) = match d {
            DragonAction::Advance { toward } => (false, toward),
            DragonAction::Brake { toward } => (true, toward),
            _ => continue,
        };
        let Ok(p) = g::plan(world, &lvl, &st, brake, toward) else {
            continue;
        };
        let lost = p.lost.len() as i64;
        let cross = if camp == Camp::Chaos { lost } else { -lost };
        // A reveal ahead: keep the gems it costs (D8).
        let reveal = p
            .reveals
            .as_ref()
            .and_then(|id| lvl.rooms.iter().find(|r| r.id == *id))
            .map_or(0, |r| r.reveal);
        // In i64: the gems track and a level's numbers summed in i32 could overflow.
        let short = (reveal as i64 - (gems as i64 + p.gems as i64)).max(0);
        let cells = if camp == Camp::Chaos {
            p.path.len() as i64
        } else {
            -(p.path.len() as i64)
        };
        // Chaos heads for the White Tomb first among rooms as near (D7: its countdown).
        let tomb = lvl.tomb().is_some_and(|t| {
            p.reveals.as_deref() == Some(t.id.as_str())
                || p.path.last().is_some_and(|h| *h == hex(t.at))
        });
        let tomb = if tomb && camp == Camp::Chaos {
            w_tomb
        } else {
            0
        };
        let score =
            1 + w_cross * cross + w_gem * p.gems as i64 + w_cell * cells - w_short * short + tomb;
        if top.as_ref().is_none_or(|c| score > c.score) {
            top = Some(Choice {
                score: score.max(1),
                action: a.clone(),
                why: "dragoness guide",
            });
        }
    }
    top
}

/// The teams' orders: the relic, a quest, the portal.
pub fn orders(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let placed = world.resource::<Dragoness>().placed() as i64;
    let mut top: Option<Choice> = None;
    for a in legal {
        let score = match chapter::decode::<DragonAction>(a) {
            Some(DragonAction::PlaceRelic { .. }) => ai::weight(world, ID, "relic"),
            Some(DragonAction::RevealQuest { .. }) => ai::weight(world, ID, "quest"),
            Some(DragonAction::Escape { .. }) if placed >= 3 => {
                ai::weight(world, ID, "escape") * placed
            }
            _ => continue,
        };
        if top.as_ref().is_none_or(|c| score > c.score) {
            top = Some(Choice {
                score,
                action: a.clone(),
                why: "dragoness order",
            });
        }
    }
    top
}

/// Where a team heads: a quest's site, then the room holding its quest's relic token, then the
/// White Tomb once she lies in it (before: it waits off her path).
fn goal(lvl: &DragonessLevel, st: &Dragoness, army: u32, at: Hex) -> Option<Hex> {
    let team = st.teams.get(&army)?;
    let target = if team.quests.is_empty() {
        // The nearest quest site (the ones in the chasm count once inside).
        ai::nearest(
            at,
            lvl.quests
                .iter()
                .filter(|q| !st.quests.contains(&q.id))
                .map(|q| hex(q.site))
                .filter(|h| lvl.inside(*h) == lvl.inside(at) || !st.sealed)
                .collect(),
        )?
    } else if let Some(room) = lvl.rooms.iter().find(|r| {
        // The relic token of a quest it revealed, still in its room.
        r.find
            .relic
            .as_ref()
            .is_some_and(|q| team.quests.contains(q) && !team.relics.contains(q))
            && !st.looted.contains(&r.id)
    }) {
        hex(room.at)
    } else if !team.relics.is_empty() && st.entombed {
        // She lies in the Tomb: the relic stops the countdown (D13).
        hex(lvl.tomb()?.at)
    } else if !team.relics.is_empty() && st.sealed {
        // Wait next to the Tomb, off her way to it, until she lies in it.
        let tomb = hex(lvl.tomb()?.at);
        let way: BTreeSet<At> = g::targets(lvl, st, Pos::of(st).hex(lvl))
            .into_iter()
            .flat_map(|(_, p)| p.into_iter().map(at_of))
            .collect();
        let spots: Vec<Hex> = tomb
            .all_neighbors()
            .into_iter()
            .filter(|h| lvl.inside(*h) && lvl.room_at(*h).is_none() && !way.contains(&at_of(*h)))
            .collect();
        ai::nearest(at, spots)?
    } else {
        // Nothing to do yet: hold.
        return None;
    };
    // Into the chasm by the Gate, the only way through its cliffs (D6).
    match (lvl.inside(at), lvl.inside(target), st.sealed) {
        (false, true, false) => lvl.gate(),
        (a, b, true) if a != b => None,
        _ => Some(target),
    }
}

/// The hexes her next advance would cross (what a team should keep off).
fn danger(world: &mut World, lvl: &DragonessLevel, st: &Dragoness) -> BTreeSet<At> {
    let mut out = BTreeSet::new();
    for brake in [false, true] {
        if let Ok(p) = g::plan(world, lvl, st, brake, None) {
            out.extend(p.path.iter().map(|h| at_of(*h)));
        }
    }
    out.insert(at_of(Pos::of(st).hex(lvl)));
    out
}

/// Activates a team with somewhere to go, and walks the active team there.
pub fn expedition(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let lvl = level(world);
    let st = world.resource::<Dragoness>().clone();
    if let Some((id, a)) = super::teams::active_team(world) {
        let target = goal(&lvl, &st, id, a.hex)?;
        let spared = g::spared(world, &lvl, &st, id).is_some();
        let unsafe_hexes = if spared {
            BTreeSet::new()
        } else {
            danger(world, &lvl, &st)
        };
        let safe: Vec<Action> = legal
            .iter()
            .filter(|x| match x {
                Action::Move { to } => !unsafe_hexes.contains(to),
                _ => false,
            })
            .cloned()
            .collect();
        if target == a.hex {
            // There: it holds, rather than wander into a fight.
            return legal
                .iter()
                .find(|x| matches!(x, Action::EndActivation))
                .map(|x| Choice {
                    score: ai::weight(world, ID, "hold"),
                    action: x.clone(),
                    why: "dragoness expedition",
                });
        }
        let (gain, mv) = ai::move_towards(&safe, a.hex, target)?;
        return Some(Choice {
            score: ai::weight(world, ID, "step") * gain as i64,
            action: mv,
            why: "dragoness expedition",
        });
    }
    let w = ai::weight(world, ID, "activate");
    for a in legal {
        let Action::Activate { army } = a else {
            continue;
        };
        if !st.teams.contains_key(army) {
            continue;
        }
        let Some(at) = world
            .army_by_id(*army)
            .and_then(|e| world.get::<Army>(e))
            .map(|x| x.hex)
        else {
            continue;
        };
        // At its goal it gives an order there instead (`orders`), a turn of its own.
        if goal(&lvl, &st, *army, at).is_some_and(|t| t != at) {
            return Some(Choice {
                score: w,
                action: a.clone(),
                why: "dragoness expedition",
            });
        }
    }
    None
}
