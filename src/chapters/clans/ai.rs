//! The chapter's AI terms: candidates scored for the AI of either camp (weights in
//! `assets/content/ai.ron`, `chapters.clans`). A clan pillages where its side would win (alone,
//! or stronger than every figure that could answer the call), invades the provinces whose
//! token still shows its reward, takes the upgrades that raise its STR or its Rage, commits to
//! the quests it meets now, answers a call when its side is in the battle, and plays its
//! strongest battle card when it fights. Rage refills each cycle, so a clan spends it.

use bevy::prelude::*;

use crate::ai::{self, Choice};
use crate::rules::Action;
use crate::rules::chapter;

use super::battle::sides;
use super::data::{Boost, CardKind, ClanLevel, Reward, level};
use super::phases::met;
use super::reckon::{owner, present, rage, strength};
use super::state::{Clans, Owner, Spot, Stage};
use super::{ClanAction, ID};

/// What a benefit is worth, in STR-like points.
fn boost_worth(b: &Boost) -> i64 {
    (2 * b.warrior + b.leader + b.ship + b.monster + 2 * b.rage + b.win + b.release + b.pillage)
        as i64
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
/// and one figure from each adjacent province (C14), for each of its clans.
fn threat(lvl: &ClanLevel, st: &Clans, me: Owner, province: &str) -> i64 {
    let side = me.side();
    let fjords = lvl.fjords_of(province);
    let mut sum = 0i64;
    for p in st.board.iter().filter(|p| p.owner.side() != side) {
        let Some(s) = st.sheet(p.owner) else { continue };
        let there = match &p.at {
            Spot::Province(q) => q == province || lvl.adjacent(q, province),
            Spot::Fjord(f) => fjords.contains(&f.as_str()),
        };
        if there {
            sum += strength(lvl, s, &p.fig) as i64;
        }
    }
    sum
}

/// This side's STR in the province now (figures only).
fn ours(lvl: &ClanLevel, st: &Clans, me: Owner, province: &str) -> i64 {
    let (e, c) = sides(lvl, st, province);
    if me.side() { e as i64 } else { c as i64 }
}

/// Scores the chapter's actions among `legal`.
pub fn act(world: &mut World, legal: &[Action]) -> Option<Choice> {
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
    let mut top: Option<Choice> = None;
    for a in legal {
        let Some(m) = chapter::decode::<ClanAction>(a) else {
            continue;
        };
        let score = match &m {
            ClanAction::Pillage { province } => {
                let mine = ours(&lvl, &st, me, province);
                let edge = mine - threat(&lvl, &st, me, province);
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
                            - threat(&lvl, &st, me, p) * w_invade / 2
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
                w_march * reward_worth(&lvl, to) - threat(&lvl, &st, me, to) * w_march
            }
            ClanAction::Join { fig, .. } => {
                let Some(c) = &call else { continue };
                // Only into a battle against the other side.
                let foes = threat(&lvl, &st, me, &c.province) > 0 || c.pillager.side() != me.side();
                if !foes {
                    continue;
                }
                w_join * strength(&lvl, &sheet, fig) as i64
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
                why: "clans",
            });
        }
    }
    top
}
