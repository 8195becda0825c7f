//! The chapter's AI terms: candidates scored for the searching AI (weights in
//! `assets/content/ai.ron`, `chapters.mercenaries`). A seat sends its largest groups to the
//! richest cards, veterans before recruits (veterans come back, M7; recruits are spent, M6),
//! takes the Healer when its Flame runs high and the Defender against a raid it can't pay;
//! the poachers (Chaos) send their recruits where the Eladrins would gain most.

use bevy::prelude::*;

use crate::ai::{self, Choice};
use crate::rules::Action;
use crate::rules::chapter;

use super::data::{Assistant, Card, Merc, MercLevel, level, size};
use super::round::owner;
use super::state::{Mercs, Owner};
use super::{ID, MercAction};

/// What a card is worth to a seat, in glory-like points.
fn worth(c: &Card) -> i64 {
    let g = &c.gives;
    // In i64: a level's numbers summed in u32 could overflow.
    let mercs: i64 = g.mercs.iter().map(|n| *n as i64).sum();
    let mut v = g.glory as i64 + g.equipment as i64 + mercs - g.flame as i64 + g.calm as i64;
    if let Some(d) = &c.dragon {
        v += d.glory as i64 + if d.unit.is_some() { 3 } else { 0 };
    }
    if let Some(h) = &c.hero {
        v += h.linked_glory as i64 + 2;
    }
    v += 2 * c.plot as i64;
    if let Some(o) = &c.objective {
        v += o.glory as i64 / 2;
    }
    v
}

/// What a group of `n` on `place` would claim as things stand: the `take` cards face up after
/// those the groups there as large or larger claim first (M3).
fn prize(lvl: &MercLevel, st: &Mercs, place: &str, n: u32) -> i64 {
    let Some(p) = lvl.place(place) else { return 0 };
    let Some(b) = st.boards.get(place) else {
        return 0;
    };
    let ahead = b
        .slots
        .iter()
        .flatten()
        .filter(|s| size(&s.group) >= n)
        .count()
        .saturating_mul(p.take);
    b.cards
        .iter()
        .flatten()
        .skip(ahead)
        .take(p.take)
        .filter_map(|id| lvl.card(id))
        .map(worth)
        .sum()
}

/// Scores the chapter's actions among `legal`.
pub fn act(world: &mut World, legal: &[Action]) -> Option<Choice> {
    let lvl = level(world);
    let st = world.resource::<Mercs>().clone();
    let camp = world.resource::<crate::rules::Cycle>().turn;
    let who = owner(world, camp);
    let sheet = st.sheet(who)?.clone();
    let w = |name: &str| ai::weight(world, ID, name);
    let (w_prize, w_size, w_vet, w_heal, w_defend, w_special) = (
        w("prize"),
        w("size"),
        w("veteran"),
        w("heal"),
        w("defend"),
        w("special"),
    );
    // M1 (rules version 3): a seat that can act may not pass, so its least bad action plays.
    let must_act = !legal.contains(&Action::Pass);
    let mut top: Option<Choice> = None;
    for a in legal {
        let Some(m) = chapter::decode::<MercAction>(a) else {
            continue;
        };
        let score = match &m {
            MercAction::Send { place, group, .. } => {
                let vets: i64 = group[1..].iter().map(|n| *n as i64).sum();
                w_prize * prize(&lvl, &st, place, size(group))
                    + w_size * size(group) as i64
                    + w_vet * vets
            }
            MercAction::Special { place } => {
                let Some(p) = lvl.place(place) else { continue };
                let recruits = sheet.reserve[Merc::Recruit.ix()];
                let need = if p.gives.mercs.iter().any(|n| *n > 0) {
                    (3 - recruits.min(3)) as i64 - p.gives.flame as i64
                } else {
                    (2 - sheet.equipment.min(2)) as i64
                };
                w_special * need
            }
            MercAction::Assist {
                who: which, raid, ..
            } => match which {
                Assistant::Healer => w_heal * sheet.flame.min(6) as i64,
                Assistant::Defender => {
                    // Worth what the raid it discards would have cost this seat.
                    let Some(i) = raid else { continue };
                    let keep = if *i == 0 {
                        st.raids.get(1)
                    } else {
                        st.raids.first()
                    };
                    let cost = |r: Option<&usize>| {
                        r.and_then(|r| lvl.raids.get(*r))
                            .map(|r| r.demands.iter().map(|n| *n as i64).sum::<i64>())
                            .unwrap_or(0)
                    };
                    let gone = st.raids.get(*i);
                    w_defend * (cost(gone) - cost(keep)).max(0)
                }
                Assistant::Survivalist => w_special,
                Assistant::Chief => 1,
            },
            MercAction::Swap { .. } => continue,
        };
        if who == Owner::Poachers && !matches!(m, MercAction::Send { .. }) {
            continue;
        }
        let score = if must_act { score.max(1) } else { score };
        if score > 0 && top.as_ref().is_none_or(|c| score > c.score) {
            top = Some(Choice {
                score,
                action: a.clone(),
                why: "mercenaries",
            });
        }
    }
    top
}
