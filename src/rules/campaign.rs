//! K1–K4 — The campaign in play: what a chapter is given at its start, what it leaves, and the
//! campaign's own state between chapters.
//!
//! - `CarryIn` is part of a chapter game's setup (`GameSetup::carry`): the veterans who muster,
//!   the technologies and artifacts kept, a share of the stock. `apply` puts it in place when
//!   the level is set up, so a replay or a save of the chapter holds what it was given.
//! - `Left` is what a finished chapter leaves: its surviving Eladrin units, research, artifacts
//!   found and stock (`left_by`).
//! - `CampaignState` is the campaign between chapters: its roster of named veterans, what it
//!   keeps, the chapters done with their results and scores, the chapter to play next. It is
//!   saved alone at each chapter's start (`save`, atomically, the previous file kept) and
//!   embedded in the chapter's saves (`CampaignRun`, a plain state resource).
//! - The carry-over rule is the campaign's, stated once in data (`content::campaign::CarryRule`,
//!   K2); `CampaignState::carry_in` and `finish` are the only places that read it, and the
//!   briefing's words are written from the same value.
//!
//! Campaign files and saves are untrusted: sizes are bounded and every id is checked against
//! the content before a state is used (`check`).

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::outcome::EndReason;
use super::{Army, Decks, GameWorld, Ids, Outcome, Outpost, Research, Unit, effects, units};
use crate::content::campaign::{Campaign, ChapterDef, Goto, MAX_VETERANS};
use crate::content::{Camp, ContentDb, Res, Stock};
use crate::ground::files::{self, write_atomic};

/// The campaign save's format version.
pub const CAMPAIGN_VERSION: u32 = 1;
/// Most chapter records a campaign keeps (every attempt counts): bounds a hostile save.
pub const MAX_RECORDS: usize = 1000;
/// Largest campaign save read, in bytes.
pub const MAX_CAMPAIGN_BYTES: u64 = 1024 * 1024;
/// Longest veteran name.
pub const MAX_NAME: usize = 32;
/// Most flags a finished chapter records (the campaign's branches read them).
pub const MAX_FLAGS: usize = 64;

/// A veteran on the roster, or one mustering for a chapter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Veteran {
    /// Its name; empty for a fallback unit standing in for a veteran (named if it survives).
    #[serde(default)]
    pub name: String,
    /// Unit type id.
    pub kind: String,
    /// Wounds it carries (none when the carry-over heals).
    #[serde(default)]
    pub wounds: u8,
    /// Chapters it came through alive.
    #[serde(default)]
    pub chapters: u32,
}

/// What a chapter game is given at its start (K2, K3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CarryIn {
    /// The campaign and chapter it belongs to.
    pub campaign: String,
    /// The chapter's id in the campaign.
    pub chapter: String,
    /// The veterans mustering, as one Eladrin army.
    #[serde(default)]
    pub veterans: Vec<Veteran>,
    /// Technologies done from the start.
    #[serde(default)]
    pub research: Vec<String>,
    /// Artifacts already found.
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Resources added to the muster outpost.
    #[serde(default)]
    pub stock: Stock,
    /// Where the veterans muster (none: the portal's outpost, else the first outpost).
    #[serde(default)]
    pub muster_at: Option<(i32, i32)>,
}

/// Most resources of one kind a campaign carries or keeps (a campaign save, a carry-over in a
/// save or replay): far above any store a level has, small enough that sums of six of them,
/// shares and scores stay inside `u32`.
pub const MAX_STOCK: u32 = crate::content::campaign::MAX_CARRY_STOCK;
/// Most technologies or artifacts a campaign keeps or a chapter is given.
pub const MAX_KEPT: usize = crate::content::campaign::MAX_CARRY_CARDS;

impl CarryIn {
    /// Checks a carry-over read from an untrusted file (a replay's or a save's setup) against
    /// the content: known ids, each once, names and lists bounded, nothing silently cut. The
    /// error names the field below `carry`.
    pub fn check(&self, db: &ContentDb) -> Result<(), (String, String)> {
        let bad = |field: &str, m: String| Err((format!("carry.{field}"), m));
        for (field, id) in [("campaign", &self.campaign), ("chapter", &self.chapter)] {
            if !safe_name(id) {
                return bad(
                    field,
                    format!(
                        "`{}` is not an id (1 to 64 lower-case letters, digits, `_` or `-`)",
                        files::clipped(id, 64)
                    ),
                );
            }
        }
        if self.veterans.len() > MAX_VETERANS as usize {
            return bad(
                "veterans",
                format!(
                    "{} veterans, at most {MAX_VETERANS} muster",
                    self.veterans.len()
                ),
            );
        }
        for (i, v) in self.veterans.iter().enumerate() {
            if v.name.chars().count() > MAX_NAME {
                return bad(
                    &format!("veterans[{i}].name"),
                    format!("at most {MAX_NAME} characters"),
                );
            }
            if db.unit(&v.kind).is_none_or(|t| t.camp != Camp::Eladrins) {
                return bad(
                    &format!("veterans[{i}].kind"),
                    format!("no Eladrin unit `{}`", files::clipped(&v.kind, 64)),
                );
            }
            if v.chapters > MAX_RECORDS as u32 {
                return bad(
                    &format!("veterans[{i}].chapters"),
                    format!("at most {MAX_RECORDS}"),
                );
            }
        }
        for (field, list) in [("research", &self.research), ("artifacts", &self.artifacts)] {
            if list.len() > MAX_KEPT {
                return bad(field, format!("at most {MAX_KEPT}"));
            }
            let mut seen = std::collections::BTreeSet::new();
            for (i, id) in list.iter().enumerate() {
                let known = match field {
                    "research" => db.tech(id).is_some(),
                    _ => db.set.artifacts.iter().any(|c| &c.id == id),
                };
                if !known {
                    return bad(
                        &format!("{field}[{i}]"),
                        format!("no `{}`", files::clipped(id, 64)),
                    );
                }
                if !seen.insert(id) {
                    return bad(&format!("{field}[{i}]"), format!("`{id}` is given twice"));
                }
            }
        }
        if let Some(r) = Res::ALL
            .into_iter()
            .find(|r| self.stock.get(*r) > MAX_STOCK)
        {
            return bad(
                &format!("stock.{r:?}"),
                format!("at most {MAX_STOCK} of a resource"),
            );
        }
        if let Some((q, r)) = self.muster_at
            && (q.unsigned_abs() > crate::content::MAX_MAP_RADIUS
                || r.unsigned_abs() > crate::content::MAX_MAP_RADIUS)
        {
            return bad("muster_at", format!("({q}, {r}) is off any map"));
        }
        Ok(())
    }
}

/// Where the veterans of `carry` muster: its hex, else the portal's outpost, else the first
/// outpost (by id).
fn muster_hex(world: &mut World, carry: &CarryIn) -> Hex {
    match carry.muster_at {
        Some((q, r)) => Hex::new(q, r),
        None => super::outposts::home_hex(world),
    }
}

/// Puts `carry` in place on a level just set up, before its decks are shuffled: the veterans
/// as one army at the muster hex, the stock in the outpost there (within its storage, R3.3;
/// the rest lies on the tile). Returns the technologies and artifacts to take out of the decks.
pub fn apply_units_and_stock(world: &mut World, carry: &CarryIn) -> Result<(), String> {
    let db = world.content();
    let at = muster_hex(world, carry);
    if !carry.veterans.is_empty() {
        // Passable land, as for a level's own Eladrin armies (`setup` checks those; this
        // module is below it and can't call it).
        let passable = world.tile(at).is_some_and(|t| {
            db.terrain(&t.terrain)
                .is_some_and(|x| !x.water && !x.impassable)
        });
        if !passable {
            return Err(format!(
                "chapter `{}`: the veterans muster at {:?}, which is not passable land on this map",
                carry.chapter,
                (at.x, at.y)
            ));
        }
        let mut list = Vec::new();
        for v in carry.veterans.iter().take(MAX_VETERANS as usize) {
            if db.unit(&v.kind).is_none_or(|t| t.camp != Camp::Eladrins) {
                return Err(format!(
                    "chapter `{}`: no Eladrin unit `{}` for veteran {}",
                    carry.chapter, v.kind, v.name
                ));
            }
            let hp = db.unit(&v.kind).map(|t| t.hp).unwrap_or(1);
            list.push(Unit {
                id: world.resource_mut::<Ids>().fresh(),
                kind: v.kind.clone(),
                // A veteran keeps at least one hit point (R9.5: a unit with none is dead).
                wounds: v.wounds.min(hp.saturating_sub(1)),
                ap: 0,
                inactive: false,
                embarked: false,
                name: (!v.name.is_empty()).then(|| v.name.clone()),
            });
        }
        world.resource_mut::<units::Census>().created += list.len() as u32;
        let id = world.resource_mut::<Ids>().fresh();
        world.spawn(Army {
            id,
            camp: Camp::Eladrins,
            hex: at,
            famine: 0,
            units: list,
            activated: false,
            afloat: false,
            cargo: Default::default(),
            seat: None,
        });
    }
    if !carry.stock.is_empty() {
        let outpost = world
            .query::<(Entity, &Outpost)>()
            .iter(world)
            .filter(|(_, o)| o.hex == at)
            .map(|(e, _)| e)
            .next();
        match outpost {
            Some(e) => {
                let mut room = world
                    .get::<Outpost>(e)
                    .map(|o| super::economy::storage_of(world, o).saturating_sub(o.stock.total()))
                    .unwrap_or(0);
                let mut lying = Stock::default();
                if let Some(mut o) = world.get_mut::<Outpost>(e) {
                    for r in Res::ALL {
                        let keep = carry.stock.get(r).min(room);
                        room -= keep;
                        o.stock.add(r, keep);
                        lying.add(r, carry.stock.get(r) - keep);
                    }
                }
                if let Some(mut t) = world.tile_mut(at) {
                    t.lying.add_all(&lying);
                }
            }
            None => {
                if let Some(mut t) = world.tile_mut(at) {
                    t.lying.add_all(&carry.stock);
                }
            }
        }
    }
    Ok(())
}

/// Plays what the decks were dealt without: the carried technologies are done and their
/// effects applied (R7.2), the carried artifacts found and their effects played at the
/// muster hex (R7.3). After the decks are shuffled (the carried cards were left out of them).
pub fn apply_research_and_artifacts(world: &mut World, carry: &CarryIn) {
    let db = world.content();
    for t in &carry.research {
        let Some(tech) = db.tech(t) else { continue };
        if world.resource::<Research>().done.contains(t) {
            continue;
        }
        world.resource_mut::<Research>().done.push(t.clone());
        // Out of the deck: a technology kept is not offered again (R7.4).
        world
            .resource_mut::<Decks>()
            .research
            .draw
            .retain(|c| c != t);
        effects::apply(world, &tech.effects, None);
    }
    let at = muster_hex(world, carry);
    for a in &carry.artifacts {
        let Some(card) = db.set.artifacts.iter().find(|c| &c.id == a) else {
            continue;
        };
        {
            let mut decks = world.resource_mut::<Decks>();
            if let Some(i) = decks.artifacts.draw.iter().position(|c| c == a) {
                decks.artifacts.draw.remove(i);
            }
            decks.artifacts.discard.push(a.clone());
        }
        effects::apply(world, &card.effects, Some(at));
    }
}

/// What a finished chapter leaves.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Left {
    /// Whether the Eladrins won.
    pub won: bool,
    /// Cycles played.
    pub cycles: u32,
    /// Its end flags (`end_flag`).
    pub flags: Vec<String>,
    /// The Eladrin units alive, by unit id (their names where they have one).
    pub survivors: Vec<Veteran>,
    /// Technologies done.
    pub research: Vec<String>,
    /// Technologies done in this chapter (not carried in).
    pub new_research: u32,
    /// Artifacts found (carried in ones included).
    pub artifacts: Vec<String>,
    /// Every outpost's stock, summed.
    pub stock: Stock,
    /// Each seat's glory, where a chapter counts it (`chapter::glory`): the seat's name (an
    /// AI seat's included) and its glory, in seat order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub glory: Vec<(String, u32)>,
}

/// The flag an ending sets, for branches (`content::campaign::When::Flag`).
pub fn end_flag(reason: &EndReason) -> String {
    match reason {
        EndReason::PortalPowered => "portal_powered".into(),
        EndReason::LastCellCorrupted => "last_cell_corrupted".into(),
        EndReason::OutpostsLost => "outposts_lost".into(),
        EndReason::PortalOverrun { .. } => "portal_overrun".into(),
        EndReason::CycleLimit { .. } => "cycle_limit".into(),
        EndReason::Other(_) => "other".into(),
        EndReason::Chapter { code, .. } => code.clone(),
    }
}

/// What the game in the world leaves (it need not be over: a chapter given up counts as lost).
pub fn left_by(world: &mut World) -> Left {
    let outcome = world.resource::<Outcome>().clone();
    let mut armies: Vec<Army> = world
        .query::<&Army>()
        .iter(world)
        .filter(|a| a.camp == Camp::Eladrins)
        .cloned()
        .collect();
    armies.sort_by_key(|a| a.id);
    let mut units: Vec<&Unit> = armies.iter().flat_map(|a| &a.units).collect();
    units.sort_by_key(|u| u.id);
    let carried = world
        .resource::<super::GameSetup>()
        .carry
        .as_ref()
        .map(|c| c.research.clone())
        .unwrap_or_default();
    let research = world.resource::<Research>().done.clone();
    let new_research = research.iter().filter(|t| !carried.contains(t)).count() as u32;
    // The artifact deck's discard pile: the artifacts found (and those carried in).
    let artifacts = world.resource::<Decks>().artifacts.discard.clone();
    let mut stock = Stock::default();
    for o in world.query::<&Outpost>().iter(world) {
        stock.add_all(&o.stock);
    }
    Left {
        won: outcome.winner == Some(Camp::Eladrins),
        cycles: world.resource::<super::Cycle>().number,
        flags: outcome.reason.iter().map(end_flag).collect(),
        survivors: units
            .iter()
            .map(|u| Veteran {
                name: u.name.clone().unwrap_or_default(),
                kind: u.kind.clone(),
                wounds: u.wounds,
                chapters: 0,
            })
            .collect(),
        research,
        new_research,
        artifacts,
        stock,
        glory: {
            let players = &world.resource::<super::GameSetup>().players;
            super::chapter::glory(world)
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let name = players.get(i).cloned();
                    (name.unwrap_or_else(|| format!("Seat {}", i + 1)), g)
                })
                .collect()
        },
    }
}

/// One finished chapter (each attempt counts).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChapterRecord {
    /// The chapter's id.
    pub chapter: String,
    /// Whether the Eladrins won it.
    pub won: bool,
    /// Cycles played.
    pub cycles: u32,
    /// Its score (`content::campaign::ScoreRule`; nothing when lost).
    pub score: u32,
    /// Its end flags.
    #[serde(default)]
    pub flags: Vec<String>,
    /// The veterans that came out of it onto the roster, by name.
    #[serde(default)]
    pub kept: Vec<String>,
    /// The veterans who mustered for it and fell, by name.
    #[serde(default)]
    pub fell: Vec<String>,
    /// Each seat's glory in it, by seat name in seat order (empty where the chapter counts
    /// none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub glory: Vec<(String, u32)>,
}

/// The campaign between chapters (K4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignState {
    /// Format version.
    pub version: u32,
    /// The campaign's id.
    pub campaign: String,
    /// Difficulty id.
    pub difficulty: String,
    /// The campaign's seed (each chapter's game seed comes from it, `seed_for`).
    pub seed: u64,
    /// The Eladrin seats, in turn order (a name ending in `(AI)` is an AI seat); they keep
    /// their seats through the campaign.
    pub players: Vec<String>,
    /// Finished chapters, in the order played.
    #[serde(default)]
    pub done: Vec<ChapterRecord>,
    /// The chapter to play next (none: the campaign is over).
    #[serde(default)]
    pub current: Option<String>,
    /// How it ended: won or lost (none while it goes on).
    #[serde(default)]
    pub ended: Option<bool>,
    /// The veterans, longest-serving first.
    #[serde(default)]
    pub roster: Vec<Veteran>,
    /// Veterans who fell or left the roster: their names are not given again.
    #[serde(default)]
    pub fallen: Vec<String>,
    /// Technologies kept.
    #[serde(default)]
    pub research: Vec<String>,
    /// Artifacts kept.
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Resources kept.
    #[serde(default)]
    pub stock: Stock,
    /// The score so far (the best of each chapter's won attempts, summed).
    #[serde(default)]
    pub score: u32,
}

/// The campaign a chapter game belongs to, embedded in its saves and autosaves (a plain state
/// resource: saved and restored with the game; none outside a campaign).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRun(pub Option<CampaignState>);

impl CampaignRun {
    /// Outside a campaign (not written in saves).
    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }
}

fn mix(a: u64, b: u64) -> u64 {
    let mut x = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}

impl CampaignState {
    /// A new campaign, at its first listed chapter, or at `start` (a later chapter started
    /// cold: it gets its fallback, K3).
    pub fn new(
        campaign: &Campaign,
        db: &ContentDb,
        difficulty: &str,
        seed: u64,
        players: &[String],
        start: Option<&str>,
    ) -> Result<CampaignState, String> {
        let listed = campaign.listed(|l| db.levels.contains_key(l));
        let first = match start {
            Some(s) => listed
                .iter()
                .find(|c| c.id == s)
                .ok_or_else(|| {
                    format!(
                        "no chapter `{s}` in campaign `{}`; chapters: {}",
                        campaign.id,
                        listed
                            .iter()
                            .map(|c| c.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?
                .id
                .clone(),
            None => listed
                .first()
                .ok_or_else(|| format!("campaign `{}` has no playable chapter", campaign.id))?
                .id
                .clone(),
        };
        if !campaign.difficulties.iter().any(|d| d == difficulty) {
            return Err(format!(
                "campaign `{}` is played at {}, not `{difficulty}`",
                campaign.id,
                campaign.difficulties.join(", ")
            ));
        }
        let mut players: Vec<String> = players
            .iter()
            .take(campaign.seats.max.clamp(1, 8) as usize)
            .map(|p| p.chars().take(MAX_NAME).collect())
            .filter(|p: &String| !p.trim().is_empty())
            .collect();
        if players.is_empty() {
            players.push("Eladrins".into());
        }
        Ok(CampaignState {
            version: CAMPAIGN_VERSION,
            campaign: campaign.id.clone(),
            difficulty: difficulty.to_string(),
            seed,
            players,
            current: Some(first),
            ..Default::default()
        })
    }

    /// Whether no other chapter was finished yet (at most lost attempts at this one, which
    /// carry nothing): the current chapter starts cold, from its fallback (K3).
    pub fn cold(&self) -> bool {
        self.done
            .iter()
            .all(|r| !r.won && Some(&r.chapter) == self.current.as_ref())
    }

    /// The game seed of `chapter`'s next attempt: from the campaign's seed, the chapter and
    /// how many times it was played, so a retry meets other dice and the same campaign the
    /// same ones.
    pub fn seed_for(&self, chapter: &str) -> u64 {
        let attempts = self.done.iter().filter(|r| r.chapter == chapter).count() as u64;
        mix(
            mix(self.seed, crate::ground::hash::fnv1a(chapter.as_bytes())),
            attempts,
        ) % 1_000_000_000
    }

    /// The veterans a chapter admits by default: the first `admit` of the roster whose unit
    /// type it admits (`admit_kinds`).
    pub fn default_muster(&self, chapter: &ChapterDef) -> Vec<String> {
        self.roster
            .iter()
            .filter(|v| chapter.admits(&v.kind))
            .take(chapter.admit as usize)
            .map(|v| v.name.clone())
            .collect()
    }

    /// What `chapter` is given (K2, K3): the veterans named in `muster` (the roster's, at most
    /// `admit`, of the unit types it admits), the research, artifacts and stock kept; started
    /// cold, its fallback; and whatever falls short of its `needs`, from its fallback.
    pub fn carry_in(&self, chapter: &ChapterDef, muster: &[String]) -> CarryIn {
        let fb = &chapter.fallback;
        let mut carry = CarryIn {
            campaign: self.campaign.clone(),
            chapter: chapter.id.clone(),
            muster_at: chapter.muster_at,
            ..Default::default()
        };
        if self.cold() {
            carry.veterans = fb
                .veterans
                .iter()
                .map(|k| Veteran {
                    kind: k.clone(),
                    ..Default::default()
                })
                .collect();
            carry.research = fb.research.clone();
            carry.artifacts = fb.artifacts.clone();
            carry.stock = fb.stock;
            return carry;
        }
        let mut seen = Vec::new();
        for name in muster {
            if carry.veterans.len() >= chapter.admit as usize || seen.contains(name) {
                continue;
            }
            if let Some(v) = self
                .roster
                .iter()
                .find(|v| &v.name == name && chapter.admits(&v.kind))
            {
                carry.veterans.push(v.clone());
                seen.push(name.clone());
            }
        }
        // No dead end for want of a unit: the fallback's units make up what the chapter needs.
        let short = (chapter.needs.veterans as usize).saturating_sub(carry.veterans.len());
        carry
            .veterans
            .extend(fb.veterans.iter().take(short).map(|k| Veteran {
                kind: k.clone(),
                ..Default::default()
            }));
        carry.research = self.research.clone();
        for t in &chapter.needs.research {
            if !carry.research.contains(t) {
                carry.research.push(t.clone());
            }
        }
        carry.artifacts = self.artifacts.clone();
        carry.stock = self.stock;
        // The stores it needs, topped up where the carry-over falls short (K3).
        for (r, n) in chapter.needs.stock.iter() {
            let short = n.saturating_sub(carry.stock.get(r));
            carry.stock.add(r, short);
        }
        carry
    }

    /// The score `left` earns under `campaign`'s rule (nothing for a lost chapter).
    pub fn score_of(campaign: &Campaign, left: &Left) -> u32 {
        let s = &campaign.score;
        if !left.won {
            return 0;
        }
        let glory: u32 = left.glory.iter().fold(0u32, |a, g| a.saturating_add(g.1));
        // The rule's numbers come from a mod: every step saturates, so a score near `u32::MAX`
        // stays there in any build.
        let survivors = u32::try_from(left.survivors.len()).unwrap_or(u32::MAX);
        s.won
            .saturating_add(s.per_survivor.saturating_mul(survivors))
            .saturating_add(s.per_tech.saturating_mul(left.new_research))
            .saturating_add(
                s.per_cycle_saved
                    .saturating_mul(s.par.saturating_sub(left.cycles)),
            )
            .saturating_add(s.per_glory.saturating_mul(glory))
    }

    /// Each seat's glory over the campaign, by name in the order they first won some: for each
    /// chapter, the glory of the won attempt its score counts (the best), summed. Each seat's
    /// own score in co-op.
    pub fn glory_by_seat(&self) -> Vec<(String, u32)> {
        let mut total: Vec<(String, u32)> = Vec::new();
        let mut chapters: Vec<&str> = self.done.iter().map(|r| r.chapter.as_str()).collect();
        chapters.sort_unstable();
        chapters.dedup();
        for c in chapters {
            // The first of the best won attempts, as `finish` counts the score.
            let best = self.done.iter().filter(|r| r.chapter == c && r.won).fold(
                None::<&ChapterRecord>,
                |b, r| match b {
                    Some(b) if b.score >= r.score => Some(b),
                    _ => Some(r),
                },
            );
            for (name, g) in best.iter().flat_map(|r| r.glory.iter()).take(8) {
                match total.iter_mut().find(|(n, _)| n == name) {
                    Some(t) => t.1 = t.1.saturating_add(*g),
                    None => total.push((name.clone(), *g)),
                }
            }
        }
        total
    }

    /// Records the end of the current chapter, played with `carry`, and moves the campaign on
    /// where the result leads. A won chapter's survivors join the roster (named, healed if the
    /// rule heals) with the veterans who stayed behind, the longest-serving first, up to the
    /// rule's number; research, artifacts and a share of the stock carry as the rule says. A
    /// retried chapter changes nothing but its record. Returns where it led.
    pub fn finish(
        &mut self,
        campaign: &Campaign,
        db: &ContentDb,
        carry: &CarryIn,
        left: &Left,
    ) -> Goto {
        let Some(chapter) = self.current.clone() else {
            return Goto::Defeat;
        };
        let go = campaign.next_after(&chapter, left.won, &left.flags, |l| {
            db.levels.contains_key(l)
        });
        let score = Self::score_of(campaign, left);
        let mut record = ChapterRecord {
            chapter: chapter.clone(),
            won: left.won,
            cycles: left.cycles,
            score,
            flags: left.flags.clone(),
            kept: Vec::new(),
            fell: Vec::new(),
            glory: left
                .glory
                .iter()
                .take(8)
                .map(|(n, g)| (n.chars().take(MAX_NAME).collect(), *g))
                .collect(),
        };
        if matches!(go, Goto::Chapter(_) | Goto::Victory) {
            let rule = &campaign.carry;
            // Who stayed behind keeps their place; who mustered comes back only if alive.
            let mustered: Vec<&str> = carry
                .veterans
                .iter()
                .filter(|v| !v.name.is_empty())
                .map(|v| v.name.as_str())
                .collect();
            let roster: Vec<Veteran> = self
                .roster
                .iter()
                .filter(|v| !mustered.contains(&v.name.as_str()))
                .cloned()
                .collect();
            let mut back: Vec<Veteran> = left.survivors.clone();
            for v in &mut back {
                v.chapters = self
                    .roster
                    .iter()
                    .find(|r| !v.name.is_empty() && r.name == v.name)
                    .map(|r| r.chapters)
                    .unwrap_or(0)
                    .saturating_add(1);
                if rule.heal {
                    v.wounds = 0;
                }
            }
            // Who mustered and did not come back fell.
            for m in &mustered {
                if !back.iter().any(|v| v.name == *m) && self.fallen.len() < MAX_RECORDS {
                    self.fallen.push(m.to_string());
                    record.fell.push(m.to_string());
                }
            }
            // (veteran, came out of this chapter)
            let mut next: Vec<(Veteran, bool)> = roster.into_iter().map(|v| (v, false)).collect();
            next.extend(back.into_iter().map(|v| (v, true)));
            // Longest-serving first; among equals, the order they came (stable).
            next.sort_by_key(|(v, _)| std::cmp::Reverse(v.chapters));
            let keep = (rule.veterans.min(MAX_VETERANS) as usize).min(next.len());
            for (v, _) in next.drain(keep..) {
                // Past the roster's size: they stay home, and their names with them.
                if !v.name.is_empty() && self.fallen.len() < MAX_RECORDS {
                    self.fallen.push(v.name);
                }
            }
            // New veterans take names never given before (not a fallen one's).
            let mut taken: Vec<String> = next
                .iter()
                .map(|(v, _)| v.name.clone())
                .chain(self.fallen.iter().cloned())
                .filter(|n| !n.is_empty())
                .collect();
            let mut n = 1;
            for (v, _) in next.iter_mut().filter(|(v, _)| v.name.is_empty()) {
                let name = campaign
                    .names
                    .iter()
                    .find(|x| !taken.contains(x))
                    .cloned()
                    .unwrap_or_else(|| {
                        loop {
                            n += 1;
                            let x = format!("Veteran {n}");
                            if !taken.contains(&x) {
                                break x;
                            }
                        }
                    });
                taken.push(name.clone());
                v.name = name;
            }
            record.kept = next
                .iter()
                .filter(|(_, new)| *new)
                .map(|(v, _)| v.name.clone())
                .collect();
            self.roster = next.into_iter().map(|(v, _)| v).collect();
            if rule.research {
                for t in &left.research {
                    if !self.research.contains(t) {
                        self.research.push(t.clone());
                    }
                }
            }
            if rule.artifacts {
                for a in &left.artifacts {
                    if !self.artifacts.contains(a) {
                        self.artifacts.push(a.clone());
                    }
                }
            }
            let mut stock = Stock::default();
            for r in Res::ALL {
                let share = (u64::from(left.stock.get(r)) * u64::from(rule.stock_percent.min(100))
                    / 100)
                    .min(u64::from(MAX_STOCK)) as u32;
                stock.add(r, share.min(rule.stock_max));
            }
            self.stock = stock;
        }
        // The best won attempt of each chapter counts once.
        let best_before = self
            .done
            .iter()
            .filter(|r| r.chapter == chapter)
            .map(|r| r.score)
            .max()
            .unwrap_or(0);
        self.score = self.score.saturating_add(score.saturating_sub(best_before));
        if self.done.len() < MAX_RECORDS {
            self.done.push(record);
        }
        match &go {
            Goto::Chapter(next) => self.current = Some(next.clone()),
            Goto::Retry => {}
            Goto::Victory => {
                self.current = None;
                self.ended = Some(true);
            }
            Goto::Defeat => {
                self.current = None;
                self.ended = Some(false);
            }
        }
        go
    }

    /// Checks an untrusted state against the content: a known campaign, difficulty, chapter,
    /// unit types and ids, bounded lists and names. The error names the field.
    pub fn check<'a>(&self, db: &'a ContentDb) -> Result<&'a Campaign, (String, String)> {
        let bad = |field: &str, m: String| Err((field.to_string(), m));
        if self.version > CAMPAIGN_VERSION {
            return bad(
                "version",
                format!(
                    "made by a newer game (campaign format {}, this game reads up to \
                     {CAMPAIGN_VERSION})",
                    self.version
                ),
            );
        }
        let Some(campaign) = db.set.campaigns.iter().find(|c| c.id == self.campaign) else {
            return bad(
                "campaign",
                format!("no campaign `{}` in this game", self.campaign),
            );
        };
        if db.difficulty(&self.difficulty).is_none() {
            return bad("difficulty", format!("no difficulty `{}`", self.difficulty));
        }
        if self.players.is_empty()
            || self.players.len() > 8
            || self
                .players
                .iter()
                .any(|p| p.chars().count() > MAX_NAME || p.trim().is_empty())
        {
            return bad(
                "players",
                format!("1 to 8 names of 1 to {MAX_NAME} characters"),
            );
        }
        if let Some(c) = &self.current
            && campaign.chapter(c).is_none()
        {
            return bad(
                "current",
                format!("no chapter `{c}` in campaign `{}`", campaign.id),
            );
        }
        if self.done.len() > MAX_RECORDS || self.fallen.len() > MAX_RECORDS {
            return bad("done", format!("more than {MAX_RECORDS} records"));
        }
        if let Some(r) = self
            .done
            .iter()
            .find(|r| campaign.chapter(&r.chapter).is_none())
        {
            return bad(
                "done",
                format!("no chapter `{}` in the campaign", r.chapter),
            );
        }
        if let Some(n) = self.fallen.iter().find(|n| n.chars().count() > MAX_NAME) {
            return bad(
                "fallen",
                format!(
                    "`{}`: a veteran's name is at most {MAX_NAME} characters",
                    files::clipped(n, 64)
                ),
            );
        }
        if let Some(r) = self.done.iter().find(|r| {
            r.kept.len() > MAX_VETERANS as usize
                || r.fell.len() > MAX_VETERANS as usize
                || r.flags.len() > MAX_FLAGS
                || r.kept
                    .iter()
                    .chain(&r.fell)
                    .any(|n| n.chars().count() > MAX_NAME)
                || r.flags.iter().any(|f| f.len() > 64)
        }) {
            return bad(
                "done",
                format!(
                    "`{}` keeps or loses more than {MAX_VETERANS} veterans, names one in more \
                     than {MAX_NAME} characters, or has more than {MAX_FLAGS} flags or one over \
                     64 bytes",
                    r.chapter
                ),
            );
        }
        if let Some(r) = self.done.iter().find(|r| {
            r.glory.len() > 8 || r.glory.iter().any(|(n, _)| n.chars().count() > MAX_NAME)
        }) {
            return bad(
                "done",
                format!(
                    "`{}` counts glory for more than 8 seats, or a name too long",
                    r.chapter
                ),
            );
        }
        if self.roster.len() > MAX_VETERANS as usize {
            return bad("roster", format!("more than {MAX_VETERANS} veterans"));
        }
        for v in &self.roster {
            if v.name.trim().is_empty() || v.name.chars().count() > MAX_NAME {
                return bad(
                    "roster",
                    format!("a veteran's name is 1 to {MAX_NAME} characters"),
                );
            }
            if db.unit(&v.kind).is_none_or(|t| t.camp != Camp::Eladrins) {
                return bad(
                    "kind",
                    format!(
                        "no Eladrin unit `{}` ({})",
                        files::clipped(&v.kind, 64),
                        v.name
                    ),
                );
            }
            if v.chapters > MAX_RECORDS as u32 {
                return bad(
                    "chapters",
                    format!("{}: at most {MAX_RECORDS} chapters", v.name),
                );
            }
        }
        if self.research.len() > MAX_KEPT || self.artifacts.len() > MAX_KEPT {
            return bad(
                "research",
                format!("at most {MAX_KEPT} technologies and artifacts"),
            );
        }
        if let Some(t) = self.research.iter().find(|t| db.tech(t).is_none()) {
            return bad("research", format!("no technology `{t}`"));
        }
        if let Some(a) = self
            .artifacts
            .iter()
            .find(|a| !db.set.artifacts.iter().any(|c| &c.id == *a))
        {
            return bad("artifacts", format!("no artifact `{a}`"));
        }
        if self.stock.0.iter().any(|n| *n > MAX_STOCK) {
            return bad("stock", format!("at most {MAX_STOCK} of a resource"));
        }
        Ok(campaign)
    }
}

/// The campaign save's file name in its folder, and the previous one kept beside it.
pub const SAVE_FILE: &str = "campaign.ron";
/// The previous campaign save, kept when a new one is written.
pub const PREVIOUS_FILE: &str = "campaign.prev.ron";

/// Writes `state` atomically as `dir/campaign.ron`, the file it replaces kept as
/// `campaign.prev.ron`; and as `dir/chapters/CHAPTER.ron` when it stands at a chapter's start,
/// so a done chapter can be replayed from where it began.
pub fn save(state: &CampaignState, dir: &Path) -> Result<PathBuf, String> {
    let text = ron::ser::to_string_pretty(state, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("can't serialise the campaign: {e}"))?;
    let text = files::envelope("campaign", CAMPAIGN_VERSION, &text);
    std::fs::create_dir_all(dir.join("chapters"))
        .map_err(|e| format!("{}: can't create: {e}", dir.display()))?;
    let path = dir.join(SAVE_FILE);
    // The previous save is kept whole or not at all (written like the save itself); a copy
    // that fails is no reason to lose the new save. Only a save that reads is kept: a damaged
    // `campaign.ron` (cut short, edited by hand, grown past the bound) must not replace the
    // good previous copy that `load` would fall back on.
    if let Ok(old) = files::read_bounded(&path, MAX_CAMPAIGN_BYTES)
        && parse(&old).is_ok()
    {
        let prev = dir.join(PREVIOUS_FILE);
        if let Err(e) = write_atomic(&prev, &old) {
            bevy::log::warn!("{}: can't keep the previous campaign: {e}", prev.display());
        }
    }
    write_atomic(&path, &text).map_err(|e| format!("{}: can't write: {e}", path.display()))?;
    if let Some(c) = &state.current
        && safe_name(c)
    {
        let at = dir.join("chapters").join(format!("{c}.ron"));
        write_atomic(&at, &text).map_err(|e| format!("{}: can't write: {e}", at.display()))?;
    }
    Ok(path)
}

/// Whether `id` may name a file: 1 to 64 lower-case letters, digits, `_` or `-` (a
/// campaign's or chapter's id from an untrusted file never leads outside its folder).
pub fn safe_name(id: &str) -> bool {
    // The content's own rule for a campaign's or chapter's id: what loads can be saved.
    crate::content::campaign::names_a_file(id)
}

/// Parses a campaign save's text (header checked); errors start with `line:col:`.
pub fn parse(text: &str) -> Result<CampaignState, String> {
    let (_, body) = files::open_envelope("campaign", CAMPAIGN_VERSION, text)
        .map_err(|e| format!("1:1: {e}"))?;
    ron::Options::default()
        .from_str::<CampaignState>(body)
        .map_err(|e| {
            format!(
                "{}:{}: not a valid campaign save: {}",
                e.span.start.line + 1,
                e.span.start.col,
                e.code
            )
        })
}

/// Reads and checks a campaign save: bounded, parsed, checked against the content. The error
/// names the file, line and field; nothing is changed on disk.
pub fn read(path: &Path, db: &ContentDb) -> Result<CampaignState, String> {
    let text = files::read_bounded(path, MAX_CAMPAIGN_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let state = parse(&text).map_err(|e| format!("{}:{e}", path.display()))?;
    if let Err((field, message)) = state.check(db) {
        let (line, col) = crate::content::locate(&text, &[&format!("{field}:")]);
        return Err(format!(
            "{}:{line}:{col}: in `{field}`: {message}",
            path.display()
        ));
    }
    Ok(state)
}

/// The campaign in `dir`: its save, else the previous one when the save is damaged (with
/// the damage reported), else nothing. Never writes.
pub fn load(dir: &Path, db: &ContentDb) -> (Option<CampaignState>, Vec<String>) {
    let mut problems = Vec::new();
    for name in [SAVE_FILE, PREVIOUS_FILE] {
        let p = dir.join(name);
        if !p.exists() {
            continue;
        }
        match read(&p, db) {
            Ok(s) => return (Some(s), problems),
            Err(e) => problems.push(e),
        }
    }
    (None, problems)
}

/// The folder campaign `id`'s save lives in under `root` (`root/ID`); none for an id that
/// can't name a folder (`safe_name`), so a hostile campaign never writes outside `root`.
pub fn dir_for(root: &Path, id: &str) -> Option<PathBuf> {
    safe_name(id).then(|| root.join(id))
}

/// The campaign as it stood when `chapter` last began (`dir/chapters/CHAPTER.ron`, written by
/// `save`): replaying a done chapter goes back there, and the chapters after it are played
/// again. Checked like any campaign save.
pub fn chapter_start(dir: &Path, chapter: &str, db: &ContentDb) -> Result<CampaignState, String> {
    if !safe_name(chapter) {
        return Err(format!("`{chapter}` can't name a chapter's save"));
    }
    let path = dir.join("chapters").join(format!("{chapter}.ron"));
    let state = read(&path, db)?;
    if state.current.as_deref() != Some(chapter) {
        return Err(format!(
            "{}: in `current`: the save stands at {:?}, not at `{chapter}`",
            path.display(),
            state.current
        ));
    }
    Ok(state)
}
