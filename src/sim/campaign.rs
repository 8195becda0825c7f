//! A campaign played headless (`chaos-outpost campaign run`, K1–K4): the AIs play every chapter
//! in turn, each given what the campaign's carry-over rule keeps (`rules::campaign`), with the
//! veterans a player would bring by default (the roster's first, up to what the chapter
//! admits). A lost chapter is retried as the campaign says, at most `retries` times.
//!
//! The report holds no timings, so the same seed prints the same report on every machine.

use std::sync::Arc;

use serde::Serialize;

use crate::content::campaign::{Campaign, Goto};
use crate::content::{ContentDb, Res};
use crate::rules::campaign::{CampaignState, Veteran, left_by};

/// One chapter played.
#[derive(Debug, Clone, Serialize)]
pub struct ChapterReport {
    /// The chapter's id.
    pub chapter: String,
    /// Its level.
    pub level: String,
    /// Which attempt (1 for the first).
    pub attempt: u32,
    /// The game's seed.
    pub seed: u64,
    /// Whether the Eladrins won it.
    pub won: bool,
    /// How it ended.
    pub reason: String,
    /// Cycles played.
    pub cycles: u32,
    /// Its score.
    pub score: u32,
    /// The veterans who mustered (`name kind`; a fallback unit has no name).
    pub mustered: Vec<String>,
    /// Technologies it started with.
    pub research_in: Vec<String>,
    /// The roster after it (`name kind`).
    pub roster: Vec<String>,
    /// Technologies kept after it.
    pub research: Vec<String>,
    /// Stock kept after it (`Food 3`…).
    pub stock: Vec<String>,
    /// Where it led: a chapter's id, `retry`, `victory` or `defeat`.
    pub led_to: String,
}

/// One campaign played.
#[derive(Debug, Clone, Serialize)]
pub struct CampaignReport {
    /// The campaign's id.
    pub campaign: String,
    /// Difficulty.
    pub difficulty: String,
    /// Seed.
    pub seed: u64,
    /// The chapters played, in order (retries included).
    pub chapters: Vec<ChapterReport>,
    /// Whether the campaign was won (false: lost, or given up after the retries).
    pub won: bool,
    /// The campaign's score.
    pub score: u32,
    /// It was stopped before it ended: it played every chapter as many times as the retries
    /// allow and still had a chapter to play (a campaign whose branches loop back).
    pub cut_short: bool,
}

fn vet(v: &Veteran) -> String {
    if v.name.is_empty() {
        v.kind.clone()
    } else {
        format!("{} ({})", v.name, v.kind)
    }
}

/// Plays campaign `id` at `difficulty` with `seed`, each chapter for at most `max_cycles`
/// cycles (a chapter not decided by then counts as lost), a lost chapter retried at most
/// `retries` times.
pub fn run(
    content: Arc<ContentDb>,
    id: &str,
    difficulty: &str,
    seed: u64,
    max_cycles: u32,
    retries: u32,
) -> Result<CampaignReport, String> {
    let campaign: Campaign = content
        .set
        .campaigns
        .iter()
        .find(|c| c.id == id)
        .cloned()
        .ok_or_else(|| {
            format!(
                "no campaign `{id}`; campaigns: {}",
                content
                    .set
                    .campaigns
                    .iter()
                    .map(|c| c.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let mut state = CampaignState::new(&campaign, &content, difficulty, seed, &[], None)?;
    let mut chapters = Vec::new();
    // Bounded: every chapter, each tried 1 + retries times.
    let most = campaign.chapters.len() * (retries as usize + 1) + 1;
    while let Some(current) = state.current.clone() {
        if chapters.len() >= most {
            break;
        }
        let def = campaign
            .chapter(&current)
            .ok_or_else(|| format!("campaign `{id}` has no chapter `{current}`"))?
            .clone();
        let muster = state.default_muster(&def);
        let carry = state.carry_in(&def, &muster);
        let game_seed = state.seed_for(&current);
        let attempt = state.done.iter().filter(|r| r.chapter == current).count() as u32 + 1;
        let players = state.players.clone();
        let game = super::Game {
            level: &def.level,
            difficulty: Some(&state.difficulty),
            seed: game_seed,
            max_cycles,
            brains: None,
            players: &players,
            carry: Some(&carry),
        };
        let (mut app, report) =
            super::play(content.clone(), &game, &mut |_| Ok(())).map_err(|e| {
                if e.contains(&format!("`{current}`")) {
                    e
                } else {
                    format!("chapter `{current}`: {e}")
                }
            })?;
        let left = left_by(app.world_mut());
        let go = state.finish(&campaign, &content, &carry, &left);
        let mut go_text = match &go {
            Goto::Chapter(c) => c.clone(),
            Goto::Retry => "retry".into(),
            Goto::Victory => "victory".into(),
            Goto::Defeat => "defeat".into(),
        };
        if go == Goto::Retry && attempt > retries {
            state.current = None;
            state.ended = Some(false);
            go_text = "defeat (no retries left)".into();
        }
        chapters.push(ChapterReport {
            chapter: current.clone(),
            level: def.level.clone(),
            attempt,
            seed: game_seed,
            won: left.won,
            reason: report.reason.clone(),
            cycles: left.cycles.min(max_cycles),
            score: state.done.last().map(|r| r.score).unwrap_or(0),
            mustered: carry.veterans.iter().map(vet).collect(),
            research_in: carry.research.clone(),
            roster: state.roster.iter().map(vet).collect(),
            research: state.research.clone(),
            stock: Res::ALL
                .iter()
                .filter(|r| state.stock.get(**r) > 0)
                .map(|r| format!("{r:?} {}", state.stock.get(*r)))
                .collect(),
            led_to: go_text,
        });
    }
    Ok(CampaignReport {
        campaign: campaign.id.clone(),
        difficulty: state.difficulty.clone(),
        seed,
        chapters,
        won: state.ended == Some(true),
        score: state.score,
        cut_short: state.current.is_some(),
    })
}
