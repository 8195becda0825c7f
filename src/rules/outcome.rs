//! Victory and defeat: *Portal operational* (R8.2) wins for the Eladrins; the last power cell
//! corrupted (R8.4), every outpost lost, or the level's cycle limit reached wins for Chaos.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::Camp;
use crate::rules::{Cycle, GameEvent, GameWorld, Outcome, Outpost, Portal};

/// Why a game ended: data, worded by the text layer in the player's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// *Portal operational*: the portal is powered (R8.2), with the level's other conditions.
    PortalPowered,
    /// Chaos corrupted the last power cell and took the portal (R8.4).
    LastCellCorrupted,
    /// Every Eladrin outpost is lost.
    OutpostsLost,
    /// Chaos overran the portal's outpost (R9.5).
    PortalOverrun {
        /// The outpost's name.
        outpost: String,
    },
    /// The level's cycle limit passed without the Eladrins' victory.
    CycleLimit {
        /// The last cycle allowed.
        max: u32,
        /// The portal was powered (or the level does not ask for it): what the Eladrins
        /// missed were the level's other conditions (`Victory`), not the portal. Absent in
        /// saves written before it, where it reads false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        conditions_only: bool,
    },
    /// A reason a plugin gave, or one a save holds that this game doesn't know.
    Other(String),
    /// A chapter's end condition (`chapter::ChapterAppExt::add_chapter_victory`), worded by
    /// the chapter.
    Chapter {
        /// The chapter's id.
        chapter: String,
        /// Its reason, a code the chapter words.
        code: String,
    },
}

/// `Outcome::reason` in saves: the English sentence the game wrote before reasons were data
/// (save format 2), read back into an `EndReason`, so old saves load and the state hash of
/// every game, its replays' included, stays the same. Nothing shows this text to a player:
/// the text layer words the reason from the value.
pub mod legacy_reason {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::EndReason;

    const POWERED: &str = "Portal operational: the portal is powered (R8.2)";
    const LAST_CELL: &str = "Chaos corrupted the last power cell and took the portal (R8.4)";
    const OUTPOSTS: &str = "Every outpost is lost";
    const LIMIT: &str = "The Eladrins did not power the portal within ";
    const CONDITIONS_LIMIT: &str = "The Eladrins did not meet the level's conditions within ";

    /// The sentence of a reason (empty for none).
    pub fn text(r: &Option<EndReason>) -> String {
        match r {
            None => String::new(),
            Some(EndReason::PortalPowered) => POWERED.into(),
            Some(EndReason::LastCellCorrupted) => LAST_CELL.into(),
            Some(EndReason::OutpostsLost) => OUTPOSTS.into(),
            Some(EndReason::PortalOverrun { outpost }) => {
                format!("Chaos overran {outpost} and took the portal")
            }
            Some(EndReason::CycleLimit {
                max,
                conditions_only: false,
            }) => format!("{LIMIT}{max} cycles"),
            Some(EndReason::CycleLimit {
                max,
                conditions_only: true,
            }) => format!("{CONDITIONS_LIMIT}{max} cycles"),
            Some(EndReason::Other(s)) => s.clone(),
            Some(EndReason::Chapter { chapter, code }) => format!("[{chapter}] {code}"),
        }
    }

    /// The reason a sentence stands for.
    pub fn parse(s: &str) -> Option<EndReason> {
        let overrun = s
            .strip_prefix("Chaos overran ")
            .and_then(|r| r.strip_suffix(" and took the portal"));
        let chapter = s
            .strip_prefix('[')
            .and_then(|r| r.split_once("] "))
            .map(|(c, code)| EndReason::Chapter {
                chapter: c.to_string(),
                code: code.to_string(),
            });
        let cycles = |prefix: &str| {
            s.strip_prefix(prefix)
                .and_then(|r| r.strip_suffix(" cycles"))
                .and_then(|n| n.parse::<u32>().ok())
        };
        let limit = cycles(LIMIT)
            .map(|max| (max, false))
            .or_else(|| cycles(CONDITIONS_LIMIT).map(|max| (max, true)));
        Some(match s {
            "" => return None,
            POWERED => EndReason::PortalPowered,
            LAST_CELL => EndReason::LastCellCorrupted,
            OUTPOSTS => EndReason::OutpostsLost,
            _ if overrun.is_some() => EndReason::PortalOverrun {
                outpost: overrun.unwrap_or_default().to_string(),
            },
            _ if limit.is_some() => {
                let (max, conditions_only) = limit.unwrap_or_default();
                EndReason::CycleLimit {
                    max,
                    conditions_only,
                }
            }
            _ if chapter.is_some() => chapter.unwrap_or(EndReason::Other(String::new())),
            _ => EndReason::Other(s.to_string()),
        })
    }

    /// Serde: writes the sentence.
    pub fn serialize<S: Serializer>(r: &Option<EndReason>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&text(r))
    }

    /// Serde: reads the sentence back.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<EndReason>, D::Error> {
        let s = String::deserialize(d)?;
        Ok(parse(&s))
    }
}

/// Ends the game.
pub fn win(world: &mut World, winner: Camp, reason: EndReason) {
    if world.resource::<Outcome>().winner.is_some() {
        return;
    }
    let cycle = world.resource::<Cycle>().number;
    *world.resource_mut::<Outcome>() = Outcome {
        winner: Some(winner),
        reason: Some(reason.clone()),
        cycle,
    };
    world.emit(GameEvent::GameOver { winner, reason });
}

/// A level's Eladrin victory condition beyond the portal (`docs/rules.md`, R8 reading).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    /// This technology researched.
    Research(String),
    /// At least this many outposts held.
    Outposts {
        /// Needed.
        need: u32,
        /// Held now.
        have: u32,
    },
    /// At least this many rifts closed.
    RiftsClosed {
        /// Needed.
        need: u32,
        /// Closed now.
        have: u32,
    },
}

/// The technologies a level's victory asks for that are not researched yet, in its order
/// (what the Eladrin AI researches and builds laboratories for).
pub fn missing_research(world: &World, v: &crate::content::Victory) -> Vec<String> {
    let done = &world.resource::<crate::rules::Research>().done;
    v.research
        .iter()
        .filter(|t| !done.contains(t))
        .cloned()
        .collect()
}

/// What this game's level asks of the Eladrins beyond the portal, its difficulty's
/// `victory_outposts` added (never below 0) and `victory_research` after the level's
/// technologies; `None` for a level the content doesn't hold.
pub fn victory(world: &World) -> Option<crate::content::Victory> {
    let def = world.content();
    let mut v = def
        .levels
        .get(&world.resource::<crate::rules::GameSetup>().level)?
        .victory
        .clone();
    let difficulty = world.difficulty_level();
    let more = difficulty.victory_outposts as i64;
    v.outposts = (v.outposts as i64 + more).clamp(0, u32::MAX as i64) as u32;
    for tech in difficulty.victory_research {
        if !v.research.contains(&tech) {
            v.research.push(tech);
        }
    }
    Some(v)
}

/// The level's extra Eladrin victory conditions not met yet.
pub fn missing_conditions(world: &mut World, v: &crate::content::Victory) -> Vec<Condition> {
    conditions(world, v)
        .into_iter()
        .filter(|(_, met)| !met)
        .map(|(c, _)| c)
        .collect()
}

/// Every extra Eladrin victory condition of `v` (its technologies in its order, then the
/// outposts, then the rifts closed, each only where asked), and whether it is met now: what
/// the end check asks, and what the side panel shows the player.
pub fn conditions(world: &mut World, v: &crate::content::Victory) -> Vec<(Condition, bool)> {
    let done = &world.resource::<crate::rules::Research>().done;
    let mut out: Vec<(Condition, bool)> = v
        .research
        .iter()
        .map(|t| (Condition::Research(t.clone()), done.contains(t)))
        .collect();
    if v.outposts > 0 {
        let have = world.outposts().len() as u32;
        out.push((
            Condition::Outposts {
                need: v.outposts,
                have,
            },
            have >= v.outposts,
        ));
    }
    if v.rifts_closed > 0 {
        let have = world
            .query::<&crate::rules::Tile>()
            .iter(world)
            .filter(|t| t.rift == crate::rules::Rift::Closed)
            .count() as u32;
        out.push((
            Condition::RiftsClosed {
                need: v.rifts_closed,
                have,
            },
            have >= v.rifts_closed,
        ));
    }
    out
}

/// An end condition of a chapter: the winner and why, once reached.
pub type VictoryCheck = fn(&mut World) -> Option<(Camp, EndReason)>;

/// The chapters' end conditions (`chapter::ChapterAppExt::add_chapter_victory`), by chapter.
#[derive(Resource, Default, Clone)]
pub struct Victories(pub Vec<(&'static str, VictoryCheck)>);

/// The first chapter end condition reached, of the chapters in play.
fn chapter_victory(world: &mut World) -> Option<(Camp, EndReason)> {
    let all = world.get_resource::<Victories>()?.0.clone();
    let in_play = world.get_resource::<crate::rules::InPlay>()?.clone();
    all.into_iter()
        .filter(|(id, _)| in_play.has(id))
        .find_map(|(_, f)| f(world))
}

/// Checks every end condition.
pub fn check(world: &mut World) {
    if world.resource::<Outcome>().winner.is_some() {
        return;
    }
    let def = world.content();
    let p = world.resource::<Portal>().clone();
    let track = def.portal().track;
    // The level's conditions, read once (not the whole level: this runs after every action).
    let v = victory(world);
    if let Some((winner, reason)) = chapter_victory(world) {
        win(world, winner, reason);
        return;
    }
    let portal_wins = !v.as_ref().is_some_and(|v| v.without_portal);
    if p.operational && portal_wins {
        // A level may ask for more than the portal (`docs/rules.md`, R8 reading).
        let missing = v
            .as_ref()
            .map(|v| missing_conditions(world, v))
            .unwrap_or_default();
        if missing.is_empty() {
            win(world, Camp::Eladrins, EndReason::PortalPowered);
            return;
        }
    }
    if p.corruption > 0 && p.power + p.corruption >= track {
        win(world, Camp::Chaos, EndReason::LastCellCorrupted);
        return;
    }
    let mut q = world.query::<&Outpost>();
    if q.iter(world).next().is_none() {
        win(world, Camp::Chaos, EndReason::OutpostsLost);
        return;
    }
    let max = v
        .as_ref()
        .map(|v| v.max_cycles)
        .filter(|m| *m > 0)
        .unwrap_or(def.rules().max_cycles);
    // A difficulty may lengthen or shorten the limit, never below one cycle.
    let max = if max > 0 {
        (max as i64 + world.difficulty_level().extra_cycles as i64).max(1) as u32
    } else {
        0
    };
    if max > 0 && world.resource::<Cycle>().number > max {
        // Say what the Eladrins missed: a powered portal (or one the level does not ask for)
        // lost on the level's other conditions is not "the portal not powered".
        let conditions_only = p.operational || !portal_wins;
        win(
            world,
            Camp::Chaos,
            EndReason::CycleLimit {
                max,
                conditions_only,
            },
        );
    }
}
