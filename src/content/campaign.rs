//! Campaigns (`content/campaigns.ron`, rules K1–K4): chapters played in order, each a level,
//! where what the Eladrins keep carries on. A campaign is data, merged like every catalogue: a
//! mod adds a campaign, or patches one (`( patch: {"chaos_outpost": (chapters: […])} )`). A
//! chapter marked `optional` is listed only when its level exists, so a chapter that ships
//! later (or a mod's) adds itself by shipping its level.
//!
//! What carries over is stated once, in the campaign's `carry` (K2): the briefing's promise and
//! the result screen are written from it, and the rules apply the same value
//! (`rules::campaign`). Every chapter names its `fallback` (K3): what it starts with when played
//! cold, and what tops up a carry-over that falls short of its `needs`.
//!
//! The checks here name the file, line and field; `check` goes further and starts every chapter
//! from its fallback (`cli::check`).

use serde::{Deserialize, Serialize};

use super::{At, Stock};

/// A campaign: chapters played in order, where what the Eladrins keep carries on (K1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Campaign {
    /// Unique id; the campaign's save folder is named after it, so it is 1 to 64 lower-case
    /// letters, digits, `_` and `-` (`names_a_file`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// A line or two for the campaign list.
    #[serde(default)]
    pub description: String,
    /// The difficulties it may be played at (ids in `difficulty.ron`); the first is offered
    /// first.
    pub difficulties: Vec<String>,
    /// How many Eladrin seats (hot-seat players or AI seats) it is played by.
    #[serde(default)]
    pub seats: Seats,
    /// What carries from one chapter to the next (K2), stated once.
    pub carry: CarryRule,
    /// How a chapter's score is counted.
    #[serde(default)]
    pub score: ScoreRule,
    /// The chapters; the first is where the campaign starts, and a won chapter that names no
    /// branch leads to the next one listed.
    pub chapters: Vec<ChapterDef>,
    /// The names veterans take, in order: a unit carried over for the first time takes the
    /// first name no veteran bears (then "Veteran 2", "Veteran 3"…).
    #[serde(default)]
    pub names: Vec<String>,
}

/// How many Eladrin seats a campaign is played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Seats {
    /// At least.
    pub min: u8,
    /// At most (8 at most).
    pub max: u8,
}

impl Default for Seats {
    fn default() -> Self {
        Seats { min: 1, max: 4 }
    }
}

/// What carries from one chapter to the next (K2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CarryRule {
    /// Most veterans on the roster between chapters: the Eladrin units alive at a chapter's
    /// end, the longest-serving first. A chapter admits some of them (`admit`).
    pub veterans: u32,
    /// Veterans come back with their wounds healed.
    pub heal: bool,
    /// The technologies researched carry on: done from the start, their effects applied.
    pub research: bool,
    /// The artifacts found carry on: out of the next chapter's deck, their effects played
    /// again at its start.
    pub artifacts: bool,
    /// The share of the Eladrins' stock (every outpost's, summed) that carries on, in percent,
    /// rounded down; it goes to the outpost where the veterans muster.
    pub stock_percent: u32,
    /// The most of each resource that carries on.
    pub stock_max: u32,
}

impl Default for CarryRule {
    fn default() -> Self {
        CarryRule {
            veterans: 6,
            heal: true,
            research: true,
            artifacts: true,
            stock_percent: 40,
            stock_max: 8,
        }
    }
}

/// How a chapter's score is counted; a lost chapter scores nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScoreRule {
    /// For winning.
    pub won: u32,
    /// For each Eladrin unit alive at the end.
    pub per_survivor: u32,
    /// For each technology researched by the end.
    pub per_tech: u32,
    /// For each cycle under `par` the chapter took.
    pub per_cycle_saved: u32,
    /// The cycles a chapter is expected to take.
    pub par: u32,
    /// For each point of glory a seat won, where a chapter counts glory (all seats summed).
    pub per_glory: u32,
}

impl Default for ScoreRule {
    fn default() -> Self {
        ScoreRule {
            won: 100,
            per_survivor: 10,
            per_tech: 15,
            per_cycle_saved: 5,
            par: 15,
            per_glory: 2,
        }
    }
}

/// One chapter of a campaign: a level, what it admits, its fallback and where it leads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChapterDef {
    /// Unique in the campaign; its save (where "Replay from here" goes back to) is named
    /// after it, so it is 1 to 64 lower-case letters, digits, `_` and `-` (`names_a_file`).
    pub id: String,
    /// The level it plays (its `chapters` say which chapter rules it uses).
    pub level: String,
    /// Its name in the chapter list (the level's name when empty).
    #[serde(default)]
    pub name: String,
    /// The briefing's story, shown before the chapter.
    #[serde(default)]
    pub briefing: String,
    /// What is new in it, a line each (the briefing lists them).
    #[serde(default)]
    pub rules: Vec<String>,
    /// Rules the briefing links into the help (`R8`, `R9.5`, `D3`…).
    #[serde(default)]
    pub help: Vec<String>,
    /// The most veterans it admits from the roster (0: none; they wait for a later chapter).
    #[serde(default)]
    pub admit: u32,
    /// Which veterans it admits, by unit type id (none listed: any Eladrin unit). A chapter
    /// that wants only some trades (an expedition that climbs, a siege) says so here; the
    /// others wait on the roster for a later chapter.
    #[serde(default)]
    pub admit_kinds: Vec<String>,
    /// Where the veterans muster, as one army: a hex of the level (none: the portal's
    /// outpost, else the first outpost).
    #[serde(default)]
    pub muster_at: Option<At>,
    /// What it needs at its start; whatever the carry-over lacks, the fallback gives (K3).
    #[serde(default)]
    pub needs: Needs,
    /// What it starts with when played cold: replayed, skipped to, or played alone (K3).
    #[serde(default)]
    pub fallback: Fallback,
    /// Where each result leads, the first branch that matches; a result no branch names leads
    /// to the next chapter when won (the campaign's end after the last) and to a retry when
    /// lost.
    #[serde(default)]
    pub next: Vec<Branch>,
    /// Listed only when its level exists (a chapter that ships later, or a mod's).
    #[serde(default)]
    pub optional: bool,
}

/// What a chapter needs at its start.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Needs {
    /// At least this many veterans (fallback units make up the difference).
    pub veterans: u32,
    /// These technologies researched (the fallback's, when the carry-over lacks them).
    pub research: Vec<String>,
    /// At least these stores brought (the carry-over's share topped up to them): a chapter
    /// after one that spends everything still starts with what it was designed for.
    pub stock: Stock,
}

/// What a chapter starts with when played cold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Fallback {
    /// Units (unit type ids) that stand in for veterans.
    pub veterans: Vec<String>,
    /// Technologies researched.
    pub research: Vec<String>,
    /// Artifacts found.
    pub artifacts: Vec<String>,
    /// Resources at the muster outpost.
    pub stock: Stock,
}

/// Where a result leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branch {
    /// The result.
    pub on: When,
    /// Where it leads.
    pub to: Goto,
}

/// A chapter's result, as a branch reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum When {
    /// The Eladrins won.
    Won,
    /// Chaos won.
    Lost,
    /// The game ended with this flag set: the ending's (`portal_powered`,
    /// `last_cell_corrupted`, `outposts_lost`, `portal_overrun`, `cycle_limit`) or a
    /// chapter's own ending code.
    Flag(String),
}

/// Where a branch leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goto {
    /// This chapter of the campaign.
    Chapter(String),
    /// The same chapter again, from its start.
    Retry,
    /// The campaign is won.
    Victory,
    /// The campaign is lost.
    Defeat,
}

/// Most chapters in a campaign, campaigns in a game, names, veterans and branches: campaigns
/// are untrusted input.
pub const MAX_CHAPTERS: usize = 64;
/// Most veterans a roster holds.
pub const MAX_VETERANS: u32 = 64;
/// Most of one resource a campaign carries (its fallbacks here, a campaign save's or a
/// carry-over's stock in the rules): sums of six stay far inside `u32`.
pub const MAX_CARRY_STOCK: u32 = 1_000_000;
/// Most technologies or artifacts a campaign carries.
pub const MAX_CARRY_CARDS: usize = 1000;
/// Longest id that names a file or folder (`names_a_file`).
pub const MAX_FILE_ID: usize = 64;

/// Whether `id` can name a file or folder on every system: 1 to `MAX_FILE_ID` lower-case
/// ASCII letters, digits, `_` and `-`. A campaign's id names its save folder, and a chapter's
/// id the save "Replay from here" goes back to: an id that can't (`../../evil`, `a/b`, an
/// empty one) would leave that progress unsaved, so content checks refuse it.
pub fn names_a_file(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_FILE_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl ChapterDef {
    /// Whether a veteran of unit type `kind` may join this chapter (`admit_kinds`).
    pub fn admits(&self, kind: &str) -> bool {
        self.admit_kinds.is_empty() || self.admit_kinds.iter().any(|k| k == kind)
    }
}

impl Campaign {
    /// The chapter with this id.
    pub fn chapter(&self, id: &str) -> Option<&ChapterDef> {
        self.chapters.iter().find(|c| c.id == id)
    }

    /// The chapters listed with these levels present: an optional chapter whose level is
    /// missing is left out.
    pub fn listed(&self, has_level: impl Fn(&str) -> bool) -> Vec<&ChapterDef> {
        self.chapters
            .iter()
            .filter(|c| !c.optional || has_level(&c.level))
            .collect()
    }

    /// Where `chapter`'s result leads: its first matching branch, else the next listed chapter
    /// when won (victory after the last) and a retry when lost. `flags` are the game's end
    /// flags. A branch to a chapter that is not listed leads on from that chapter as if it
    /// had been won (a chapter not shipped yet is skipped).
    pub fn next_after(
        &self,
        chapter: &str,
        won: bool,
        flags: &[String],
        has_level: impl Fn(&str) -> bool,
    ) -> Goto {
        let mut go = self.branch(chapter, won, flags, &has_level);
        // A branch into a chapter not listed goes on as that chapter won would (bounded: each
        // chapter is passed through once).
        for _ in 0..self.chapters.len() {
            let Goto::Chapter(id) = &go else { break };
            match self.chapter(id) {
                Some(c) if c.optional && !has_level(&c.level) => {
                    go = self.branch(&c.id, true, &[], &has_level);
                }
                Some(_) => break,
                None => return Goto::Defeat,
            }
        }
        go
    }

    /// One step of `next_after`: `chapter`'s first matching branch, else the next listed
    /// chapter when won (victory after the last) and a retry when lost.
    fn branch(
        &self,
        chapter: &str,
        won: bool,
        flags: &[String],
        has_level: &impl Fn(&str) -> bool,
    ) -> Goto {
        let Some(at) = self.chapters.iter().position(|c| c.id == chapter) else {
            return Goto::Defeat;
        };
        let chosen = self.chapters[at].next.iter().find(|b| match &b.on {
            When::Won => won,
            When::Lost => !won,
            When::Flag(f) => flags.contains(f),
        });
        match chosen {
            Some(b) => b.to.clone(),
            None if !won => Goto::Retry,
            None => self.chapters[at + 1..]
                .iter()
                .find(|c| !c.optional || has_level(&c.level))
                .map(|c| Goto::Chapter(c.id.clone()))
                .unwrap_or(Goto::Victory),
        }
    }
}
