//! `campaign list` and `campaign run` (K1–K4): the campaigns the game has, and one played
//! headless by the AIs, chapter after chapter with the carry-over applied
//! (`sim::campaign`). `--games K` plays K campaigns (seeds `seed..seed+K`) and reports each
//! chapter's win rate. The JSON holds no timings: the same seed prints the same document.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

use serde::Serialize;

use super::{Failure, Outcome, Program};
use crate::sim;
use crate::sim::campaign::CampaignReport;

/// `campaign`'s subcommands.
#[derive(clap::Subcommand)]
pub enum Cmd {
    /// List the campaigns: their chapters in order, what each admits, what carries over.
    List {
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a campaign headless: the AIs play every chapter in turn, with the carry-over.
    Run(RunArgs),
}

/// `campaign run`'s arguments.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The campaign's id (the first campaign when none).
    #[arg(long)]
    campaign: Option<String>,
    /// The campaign's seed (each chapter's game seed comes from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Difficulty id (the campaign's first when none).
    #[arg(long)]
    difficulty: Option<String>,
    /// Stop a chapter after this many cycles (it counts as lost).
    #[arg(long, default_value_t = 60)]
    cycles: u32,
    /// Times a lost chapter is tried again before the campaign is given up.
    #[arg(long, default_value_t = 2)]
    retries: u32,
    /// Campaigns to play (seeds seed, seed+1, ...): prints each chapter's win rate.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Campaigns played at once (default: the machine's cores); the results are the same for
    /// any number.
    #[arg(long)]
    jobs: Option<usize>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// `campaign`.
pub fn run(p: &Program, cmd: Cmd, out: &mut dyn Write) -> Outcome {
    match cmd {
        Cmd::List { json } => list(p, json, out),
        Cmd::Run(a) => play(p, a, out),
    }
}

#[derive(Serialize)]
struct ListedChapter {
    id: String,
    name: String,
    level: String,
    admit: u32,
    /// The unit types it admits (none: any).
    admit_kinds: Vec<String>,
    /// False for an optional chapter whose level is missing (not listed in the game).
    listed: bool,
}

#[derive(Serialize)]
struct Listed {
    id: String,
    name: String,
    difficulties: Vec<String>,
    seats: (u8, u8),
    carry: crate::content::campaign::CarryRule,
    chapters: Vec<ListedChapter>,
}

fn list(p: &Program, json: bool, out: &mut dyn Write) -> Outcome {
    let db = p.content()?;
    let all: Vec<Listed> = db
        .set
        .campaigns
        .iter()
        .map(|c| Listed {
            id: c.id.clone(),
            name: c.name.clone(),
            difficulties: c.difficulties.clone(),
            seats: (c.seats.min, c.seats.max),
            carry: c.carry.clone(),
            chapters: c
                .chapters
                .iter()
                .map(|ch| ListedChapter {
                    id: ch.id.clone(),
                    name: if ch.name.is_empty() {
                        db.levels
                            .get(&ch.level)
                            .map(|l| l.name.clone())
                            .unwrap_or_default()
                    } else {
                        ch.name.clone()
                    },
                    level: ch.level.clone(),
                    admit: ch.admit,
                    admit_kinds: ch.admit_kinds.clone(),
                    listed: !ch.optional || db.levels.contains_key(&ch.level),
                })
                .collect(),
        })
        .collect();
    if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&all).unwrap_or_default()
        )?;
        return Ok(());
    }
    for c in &all {
        writeln!(
            out,
            "{} — {} ({}; {} to {} seats)",
            c.id,
            c.name,
            c.difficulties.join(", "),
            c.seats.0,
            c.seats.1
        )?;
        let k = &c.carry;
        writeln!(
            out,
            "  carries: up to {} veterans{}, {}{}{}% of the stock (at most {} each)",
            k.veterans,
            if k.heal { " (healed)" } else { "" },
            if k.research { "research, " } else { "" },
            if k.artifacts { "artifacts, " } else { "" },
            k.stock_percent,
            k.stock_max
        )?;
        for (i, ch) in c.chapters.iter().enumerate() {
            writeln!(
                out,
                "  {}. {} — {} (level {}, admits {}{}){}",
                i + 1,
                ch.id,
                ch.name,
                ch.level,
                ch.admit,
                if ch.admit_kinds.is_empty() {
                    String::new()
                } else {
                    format!(": {}", ch.admit_kinds.join(", "))
                },
                if ch.listed {
                    ""
                } else {
                    " — not listed: its level is missing"
                }
            )?;
        }
    }
    Ok(())
}

/// Each chapter's plays and wins over a batch.
#[derive(Serialize, Default)]
struct ChapterStats {
    /// Campaigns that reached it.
    reached: u32,
    /// Games played (retries included).
    plays: u32,
    /// Games won.
    wins: u32,
    /// Wins per play.
    win_rate: f64,
    /// Its 95 % interval.
    win_rate_ci95: (f64, f64),
    /// Mean cycles per play.
    mean_cycles: f64,
}

#[derive(Serialize)]
struct Batch {
    campaign: String,
    difficulty: String,
    seed: u64,
    games: u32,
    /// Campaigns won.
    won: u32,
    campaign_win_rate: f64,
    /// Per chapter, in the campaign's order.
    chapters: Vec<(String, ChapterStats)>,
}

fn play(p: &Program, a: RunArgs, out: &mut dyn Write) -> Outcome {
    if a.games == 0 || a.games > 10_000 {
        return Err(Failure::Usage("--games must be from 1 to 10000".into()));
    }
    if a.cycles == 0 || a.cycles > 10_000 {
        return Err(Failure::Usage("--cycles must be from 1 to 10000".into()));
    }
    if a.retries > 100 {
        return Err(Failure::Usage("--retries must be from 0 to 100".into()));
    }
    let db = Arc::new(p.content()?);
    let campaign = match &a.campaign {
        Some(id) => db.set.campaigns.iter().find(|c| &c.id == id),
        None => db.set.campaigns.first(),
    }
    .ok_or_else(|| {
        format!(
            "no campaign `{}`; campaigns: {}",
            a.campaign.as_deref().unwrap_or(""),
            db.set
                .campaigns
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?
    .clone();
    let difficulty = a
        .difficulty
        .clone()
        .or_else(|| campaign.difficulties.first().cloned())
        .unwrap_or_else(|| "normal".into());
    let jobs = match a.jobs {
        Some(0) => return Err(Failure::Usage("--jobs must be at least 1".into())),
        Some(j) => j.min(256),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let started = std::time::Instant::now();
    let one = |k: u32| -> Result<CampaignReport, Failure> {
        Ok(sim::campaign::run(
            db.clone(),
            &campaign.id,
            &difficulty,
            a.seed.wrapping_add(k as u64),
            a.cycles,
            a.retries,
        )?)
    };
    let reports = super::sim::play_all(a.games, jobs, &one)?;
    if a.games == 1 {
        let r = &reports[0];
        if a.json {
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(r).unwrap_or_default()
            )?;
        } else {
            print_one(r, out)?;
            writeln!(out, "({:.1} s)", started.elapsed().as_secs_f64())?;
        }
        return Ok(());
    }
    let mut per: BTreeMap<String, ChapterStats> = BTreeMap::new();
    for r in &reports {
        let mut seen = Vec::new();
        for ch in &r.chapters {
            let s = per.entry(ch.chapter.clone()).or_default();
            if !seen.contains(&ch.chapter) {
                s.reached += 1;
                seen.push(ch.chapter.clone());
            }
            s.plays += 1;
            s.wins += u32::from(ch.won);
            s.mean_cycles += ch.cycles as f64;
        }
    }
    for s in per.values_mut() {
        let n = s.plays.max(1) as f64;
        s.win_rate = s.wins as f64 / n;
        s.win_rate_ci95 = sim::wilson(s.wins as f64, n);
        s.mean_cycles /= n;
    }
    let won = reports.iter().filter(|r| r.won).count() as u32;
    let batch = Batch {
        campaign: campaign.id.clone(),
        difficulty: difficulty.clone(),
        seed: a.seed,
        games: a.games,
        won,
        campaign_win_rate: won as f64 / a.games as f64,
        chapters: campaign
            .chapters
            .iter()
            .filter_map(|c| per.remove(&c.id).map(|s| (c.id.clone(), s)))
            .collect(),
    };
    if a.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&batch).unwrap_or_default()
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "campaign {} at {}: {} of {} won ({:.0} %)",
        batch.campaign,
        batch.difficulty,
        won,
        a.games,
        batch.campaign_win_rate * 100.0
    )?;
    for (id, s) in &batch.chapters {
        writeln!(
            out,
            "  {id}: reached {}, played {}, won {} ({:.0} % [{:.0}–{:.0}]), {:.1} cycles a game",
            s.reached,
            s.plays,
            s.wins,
            s.win_rate * 100.0,
            s.win_rate_ci95.0 * 100.0,
            s.win_rate_ci95.1 * 100.0,
            s.mean_cycles
        )?;
    }
    writeln!(out, "({:.1} s)", started.elapsed().as_secs_f64())?;
    Ok(())
}

fn print_one(r: &CampaignReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "campaign {} at {}, seed {}",
        r.campaign, r.difficulty, r.seed
    )?;
    for ch in &r.chapters {
        writeln!(
            out,
            "- {} (level {}, attempt {}, seed {}): {} after {} cycles — {}; score {}",
            ch.chapter,
            ch.level,
            ch.attempt,
            ch.seed,
            if ch.won { "won" } else { "lost" },
            ch.cycles,
            ch.reason,
            ch.score
        )?;
        let or_none = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        writeln!(out, "    mustered: {}", or_none(&ch.mustered))?;
        writeln!(
            out,
            "    research at the start: {}",
            or_none(&ch.research_in)
        )?;
        writeln!(out, "    roster after: {}", or_none(&ch.roster))?;
        writeln!(out, "    research kept: {}", or_none(&ch.research))?;
        writeln!(out, "    stock kept: {}", or_none(&ch.stock))?;
        writeln!(out, "    led to: {}", ch.led_to)?;
    }
    writeln!(
        out,
        "result: {}, score {}",
        if r.won {
            "campaign won".to_string()
        } else if r.cut_short {
            format!(
                "campaign cut short after {} plays: it had not ended (its branches lead back \
                 to chapters already played), counted as lost",
                r.chapters.len()
            )
        } else {
            "campaign lost".to_string()
        },
        r.score
    )
}
