//! The chapter's AI terms: candidates scored for the AI of either camp (weights in
//! `assets/content/ai.ron`, `chapters.clans`). A clan pillages where its side would win (alone,
//! or stronger than every figure that could answer the call), invades the provinces whose
//! token still shows its reward, takes the upgrades that raise its STR or its Rage, commits to
//! the quests it meets now, answers a call when its side is in the battle (and, since the
//! winner takes the reward, C17, defends a province its side could hold for its reward), and
//! plays its strongest battle card when it fights. Rage refills each cycle, so a clan spends it.
//!
//! The searching AI (`ai::search`) plays these candidates' proposals out in the clans' rounds
//! too, and weighs the positions with `eval`, the chapter's part of its evaluation.

use bevy::prelude::*;

use crate::ai::{self, Choice};
use crate::rules::chapter;
use crate::rules::tracks;
use crate::rules::{Action, GameWorld, Modifiers};

use super::battle::{bringable, figures, once_round, sides, winner_takes_reward};
use super::data::{Boost, CardKind, ClanLevel, Reward, level};
use super::phases::met;
use super::reckon::{holder, odds, owner, present, rage, strength, unseen};
use super::state::{Clans, Owner, Spot, Stage};
use super::{ClanAction, GLORY, ID};

/// What a benefit is worth, in STR-like points (in i64: a level's numbers summed in u32
/// could overflow).
fn boost_worth(b: &Boost) -> i64 {
    let n = |x: u32| x as i64;
    2 * n(b.warrior)
        + n(b.leader)
        + n(b.ship)
        + n(b.monster)
        + 2 * n(b.rage)
        + n(b.win)
        + n(b.release)
        + n(b.pillage)
}

/// What a province's reward is worth to a clan.
fn reward_worth(lvl: &ClanLevel, province: &str) -> i64 {
    match lvl.province(province).map(|p| &p.reward) {
        Some(Reward::Glory(g)) => *g as i64,
        Some(Reward::Level(_)) => 3,
        None => 0,
    }
}

/// The STR the other side could gather in `province`: what stands there and on its fjords,
/// and what its clans may bring from the adjacent provinces (C14): since rules version 3 one
/// figure each, its strongest; before, every one.
fn threat(lvl: &ClanLevel, st: &Clans, me: Owner, province: &str, once: bool) -> i64 {
    let side = me.side();
    let fjords = lvl.fjords_of(province);
    let mut sum = 0i64;
    let mut brought: std::collections::BTreeMap<Owner, i64> = Default::default();
    for p in st.board.iter().filter(|p| p.owner.side() != side) {
        let Some(s) = st.sheet(p.owner) else { continue };
        let n = strength(lvl, s, &p.fig) as i64;
        match &p.at {
            Spot::Province(q) if q == province => sum += n,
            Spot::Fjord(f) if fjords.contains(&f.as_str()) => sum += n,
            Spot::Province(q) if lvl.adjacent(q, province) => {
                if once {
                    let b = brought.entry(p.owner).or_default();
                    *b = (*b).max(n);
                } else {
                    sum += n;
                }
            }
            _ => {}
        }
    }
    sum + brought.values().sum::<i64>()
}

/// This side's STR in the province now (figures only).
fn ours(lvl: &ClanLevel, st: &Clans, me: Owner, province: &str) -> i64 {
    let (e, c) = sides(lvl, st, province);
    if me.side() { e as i64 } else { c as i64 }
}

/// The chapter's candidates, one per kind of action, each proposing its best: the heuristic
/// plays the best of them all, the search weighs each by playing it out. In the order the rules
/// list the actions (`round::candidates`), so that a tie goes to the same action as when one
/// candidate scored them all.
pub const CANDIDATES: [ai::Candidate; 7] = [
    |w, l| best_of(w, l, Kind::Invade),
    |w, l| best_of(w, l, Kind::March),
    |w, l| best_of(w, l, Kind::Upgrade),
    |w, l| best_of(w, l, Kind::Quest),
    |w, l| best_of(w, l, Kind::Pillage),
    |w, l| best_of(w, l, Kind::Answer),
    |w, l| best_of(w, l, Kind::Play),
];

/// The kinds of the chapter's actions, one candidate each.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pillage,
    Invade,
    Upgrade,
    Quest,
    March,
    /// Joining a call to battle, or declining it.
    Answer,
    Play,
}

impl Kind {
    fn of(m: &ClanAction) -> Kind {
        match m {
            ClanAction::Pillage { .. } => Kind::Pillage,
            ClanAction::Invade { .. } => Kind::Invade,
            ClanAction::Upgrade { .. } => Kind::Upgrade,
            ClanAction::Quest { .. } => Kind::Quest,
            ClanAction::March { .. } => Kind::March,
            ClanAction::Join { .. } | ClanAction::Decline => Kind::Answer,
            ClanAction::Play { .. } => Kind::Play,
        }
    }
    fn why(self) -> &'static str {
        match self {
            Kind::Pillage => "clans: pillage",
            Kind::Invade => "clans: invade",
            Kind::Upgrade => "clans: upgrade",
            Kind::Quest => "clans: quest",
            Kind::March => "clans: march",
            Kind::Answer => "clans: answer a call",
            Kind::Play => "clans: battle card",
        }
    }
}

/// Scores the chapter's actions of `kind` among `legal`: the best, if any scores above 0.
fn best_of(world: &mut World, legal: &[Action], kind: Kind) -> Option<Choice> {
    let lvl = level(world);
    let st = world.resource::<Clans>().clone();
    let camp = world.resource::<crate::rules::Cycle>().turn;
    let me = owner(world, camp);
    let sheet = st.sheet(me)?.clone();
    let has = rage(world, me) as i64;
    let w = |name: &str| ai::weight(world, ID, name);
    let (w_pillage, w_invade, w_upgrade, w_quest, w_join, w_card, w_march) = (
        w("pillage"),
        w("invade"),
        w("upgrade"),
        w("quest"),
        w("join"),
        w("card"),
        w("march"),
    );
    let call = st.call.clone();
    let winner_takes = winner_takes_reward(world.rules());
    let once = once_round(world.rules());
    let mut top: Option<Choice> = None;
    for a in legal {
        let Some(m) = chapter::decode::<ClanAction>(a).filter(|m| Kind::of(m) == kind) else {
            continue;
        };
        let score = match &m {
            ClanAction::Pillage { province } => {
                let mine = ours(&lvl, &st, me, province);
                let edge = mine - threat(&lvl, &st, me, province, once);
                if edge <= 0 {
                    continue;
                }
                w_pillage * (reward_worth(&lvl, province) + edge.min(3))
            }
            ClanAction::Invade { fig, to } => {
                let cost = strength(&lvl, &sheet, fig) as i64;
                if cost > has {
                    continue;
                }
                match to {
                    // A ship on a fjord fights for every province beside it.
                    Spot::Fjord(_) => w_invade,
                    Spot::Province(p) => {
                        if st.pillaged.contains(p) {
                            continue;
                        }
                        let crowd = present(&lvl, &st, me, p) as i64;
                        w_invade * (reward_worth(&lvl, p) + 2 * cost - 2 * crowd)
                            - threat(&lvl, &st, me, p, once) * w_invade / 2
                    }
                }
            }
            ClanAction::Upgrade { card, invade, .. } => {
                let Some(c) = lvl.card(card) else { continue };
                let gain = match &c.kind {
                    CardKind::Upgrade { boost, .. } => boost_worth(boost),
                    CardKind::Monster(id) => lvl
                        .monster(id)
                        .map_or(0, |x| x.str as i64 + boost_worth(&x.boost)),
                    _ => continue,
                };
                let free = if invade.is_some() { 3 } else { 0 };
                w_upgrade * (gain + free) - c.str as i64
            }
            ClanAction::Quest { card } => {
                let Some(CardKind::Quest(q)) = lvl.card(card).map(|c| &c.kind) else {
                    continue;
                };
                let now = met(&lvl, &st, me, &q.need) as i64;
                w_quest * (q.glory as i64 + q.level.map_or(0, |_| 3)) * (1 + 2 * now) / 3
            }
            ClanAction::March { to, .. } => {
                if st.pillaged.contains(to) {
                    continue;
                }
                w_march * reward_worth(&lvl, to) - threat(&lvl, &st, me, to, once) * w_march
            }
            ClanAction::Join { fig, .. } => {
                let Some(c) = &call else { continue };
                // Only into a battle against the other side.
                let foes =
                    threat(&lvl, &st, me, &c.province, once) > 0 || c.pillager.side() != me.side();
                if !foes {
                    continue;
                }
                let brings = strength(&lvl, &sheet, fig) as i64;
                // C17: a defending side that would hold the province takes its reward.
                let (e, ch) = figures(&lvl, &st, &c.province);
                let (mine, theirs) = if me.side() { (e, ch) } else { (ch, e) };
                let holds = mine as i64 + brings >= theirs as i64;
                let stake = if winner_takes && c.pillager.side() != me.side() && holds {
                    reward_worth(&lvl, &c.province)
                } else {
                    0
                };
                w_join * (brings + stake)
            }
            ClanAction::Decline => 1,
            ClanAction::Play { card } => {
                let Some(c) = &call else { continue };
                if c.stage != Stage::Cards {
                    continue;
                }
                match card.as_deref().and_then(|id| lvl.card(id)) {
                    Some(x) if x.kind == CardKind::Battle => 1 + w_card * x.str as i64,
                    Some(_) => continue,
                    None => 1,
                }
            }
        };
        if score > 0 && top.as_ref().is_none_or(|c| score > c.score) {
            top = Some(Choice {
                score,
                action: a.clone(),
                why: kind.why(),
            });
        }
    }
    top
}

/// The chapter's part of a position for the search (`ai::ScorerAppExt::add_chapter_eval`), from
/// Chaos' side, weights `eval_*` in `ai.ron: chapters.clans`: the corruption attempts waiting
/// for the next R6 (what Chaos' pillages feed), each side's STR on the board, the clans'
/// levels, the seats' glory (their score), and a call to battle under way as its odds say
/// (C16, C17), counting the figures the clans not there yet may still bring: the pillager's
/// reward, and the figures the losing side loses (a tie: both).
pub fn eval(world: &World) -> i64 {
    let lvl = level(world);
    let st = world.resource::<Clans>();
    let w = |name: &str| ai::weight(world, ID, name);
    let (w_attempt, w_str, w_glory, w_level) = (
        w("eval_attempt"),
        w("eval_str"),
        w("eval_glory"),
        w("eval_level"),
    );
    // Chaos' side counts for Chaos, the seats' against it.
    let sign = |o: Owner| if o.side() { -1 } else { 1 };
    let mut score = world.resource::<Modifiers>().pending_attempts as i64 * w_attempt;
    for p in &st.board {
        if let Some(s) = st.sheet(p.owner) {
            score += sign(p.owner) * strength(&lvl, s, &p.fig) as i64 * w_str;
        }
    }
    for (o, s) in &st.sheets {
        let levels: i64 = s.levels.iter().map(|l| *l as i64).sum();
        score += sign(*o) * levels * w_level;
        if o.side() {
            score -= tracks::get(world, GLORY, holder(*o)).max(0) as i64 * w_glory;
        }
    }
    if let Some(c) = &st.call {
        let (mut e, mut ch) = sides(&lvl, st, &c.province);
        let (mut fe, mut fc) = figures(&lvl, st, &c.province);
        let mut hidden = unseen(&lvl, st, c);
        if c.stage == Stage::Gather {
            // Each clan not in the province yet may still bring its strongest figure from
            // beside it (C14), and then play a card; not those that answered already (once
            // round the table: every clan before `at`; before rules version 3, the `declined`
            // last asked, before `at`).
            let n = c.order.len().max(1);
            let said_no: Vec<Owner> = if once_round(world.rules()) {
                c.order.iter().take(c.at).copied().collect()
            } else {
                (1..=(c.declined as usize).min(n))
                    .filter_map(|k| c.order.get((c.at + n - k) % n).copied())
                    .collect()
            };
            for o in c
                .order
                .iter()
                .filter(|o| !present(&lvl, st, **o, &c.province) && !said_no.contains(o))
            {
                let Some(sheet) = st.sheet(*o) else { continue };
                let best = bringable(&lvl, st, *o, &c.province)
                    .iter()
                    .map(|(f, _)| strength(&lvl, sheet, f))
                    .max();
                if let Some(n) = best {
                    if o.side() {
                        e = e.saturating_add(n);
                        fe = fe.saturating_add(n);
                    } else {
                        ch = ch.saturating_add(n);
                        fc = fc.saturating_add(n);
                    }
                    hidden.push(o.side());
                }
            }
        }
        let (pe, tie, pc) = odds(&lvl, e, ch, &hidden);
        // The reward: what Chaos' pillage feeds its corruption, or a seat's glory; since rules
        // version 3 the winning side takes it whoever pillaged (C17).
        let chaos_stake = pc * (lvl.chaos.attempts as i64 * w_attempt) as f64;
        let seat_stake = pe * (-reward_worth(&lvl, &c.province) * w_glory) as f64;
        let stake = if winner_takes_reward(world.rules()) {
            chaos_stake + seat_stake
        } else {
            match c.pillager {
                Owner::Chaos => chaos_stake,
                Owner::Seat(_) => seat_stake,
            }
        };
        // The figures the losers lose (their cards go back to hand, C17 reading).
        let lost = (pc + tie) * fe as f64 - (pe + tie) * fc as f64;
        score += (stake + lost * w_str as f64).round() as i64;
    }
    score
}
