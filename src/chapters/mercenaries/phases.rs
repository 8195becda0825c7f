//! The round's other phases, each an automatic step, and the chapter's setup.
//!
//! - M13 Rewards are claimed place by place in a fixed order (`reward_order`: Heroes' Guild,
//!   Tavern, Poachers' Camp, Mountains, Reserves, Garrison).
//! - M3 At a place, a larger group claims before a smaller one; then (reading) the slot's
//!   position from the left; in the Mountains the Survivalist's holder wins a tie (M11).
//! - M6 Recruits are discarded once their reward is claimed; M7 veterans go back to the reserve.
//! - M14 Raid: every seat discards what the raid card left face up demands (the one the
//!   Defender kept, or the newer of the two); each mercenary it can't discard: Flame +1. Then
//!   (reading) the Flame of all feeds Chaos: one more corruption attempt in R6 per
//!   `flame.per_attempt`, at most `MAX_FED` a raid.
//! - M15 Reset, in order: discard the cards left on the ordinary places except the
//!   Garrison's; refill each place's cards from the left; refill the Garrison's empty slots
//!   from its decks; the Chief's holder takes the first-seat marker; the assistants go back;
//!   the raid cards are discarded and two new dealt face up; the round marker advances. Heroes'
//!   abilities and plots give their round's due, and the poachers their recruits, at the reset.

use bevy::prelude::*;
use hexx::Hex;

use crate::content::Camp;
use crate::rules::chapter;
use crate::rules::{GameRng, Modifiers};

use super::data::{
    Assistant, Gain, Group, MAX_SLOTS, Merc, MercLevel, Need, PlaceKind, level, size,
};
use super::state::{Board, Mercs, Owner, Sheet, add_up};

/// Most corruption attempts one raid feeds Chaos (reading of M14): the seed's Flame feeds a
/// handful; fifty is past any game, and keeps a level's or a save's absurd Flame from queueing
/// millions of attempts for the next R6.
pub const MAX_FED: u32 = 50;

/// Adds a gain to a sheet (each number stops at `state::MAX_SHEET`).
pub fn gain(s: &mut Sheet, g: &Gain) {
    for k in Merc::ALL {
        s.reserve[k.ix()] = add_up(s.reserve[k.ix()], g.mercs[k.ix()]);
    }
    s.equipment = add_up(s.equipment, g.equipment);
    s.flame = add_up(s.flame, g.flame).saturating_sub(g.calm);
    s.glory = add_up(s.glory, g.glory);
}

/// Sets the chapter up for a new game: the level's fields checked, each seat's sheet, the
/// decks shuffled, the places' cards dealt, two raid cards face up.
pub fn setup(world: &mut World) -> Result<(), String> {
    let lvl = chapter::level_ext::<MercLevel>(world, super::ID)?;
    let board = world.resource::<crate::rules::Board>().clone();
    let problems = lvl.check(|a| board.contains(Hex::new(a.0, a.1)));
    if !problems.is_empty() {
        let level = world.resource::<crate::rules::GameSetup>().level.clone();
        return Err(format!(
            "level `{level}`: ext.{}: {}",
            super::ID,
            problems.join("; ")
        ));
    }
    let mut st = Mercs {
        round: 1,
        ..Mercs::default()
    };
    for seat in 0..chapter::seats(world) {
        let mut s = Sheet::default();
        gain(&mut s, &lvl.start);
        st.seats.insert(seat, s);
    }
    st.poachers.reserve[Merc::Recruit.ix()] = lvl.poachers.recruits;
    for (id, cards) in &lvl.decks {
        let mut ids: Vec<String> = cards.iter().map(|c| c.id.clone()).collect();
        world.resource_mut::<GameRng>().shuffle(&mut ids);
        st.decks.insert(id.clone(), ids);
    }
    let mut raids: Vec<usize> = (0..lvl.raids.len()).collect();
    world.resource_mut::<GameRng>().shuffle(&mut raids);
    st.raid_deck = raids;
    for p in lvl.places.iter().filter(|p| !p.kind.special()) {
        st.boards.insert(
            p.id.clone(),
            Board {
                slots: vec![None; p.slots.len().min(MAX_SLOTS)],
                cards: vec![None; p.cards.min(MAX_SLOTS)],
            },
        );
    }
    refill(world, &lvl, &mut st);
    deal_raids(&mut st, 2);
    world.insert_resource(st);
    Ok(())
}

/// Fills each place's empty card slots from the left with its decks' top cards (one deck, or
/// one per slot in turn: the Garrison's three). A deck run out takes its discards back,
/// shuffled.
fn refill(world: &mut World, lvl: &MercLevel, st: &mut Mercs) {
    for p in lvl.places.iter().filter(|p| !p.kind.special()) {
        let Some(mut b) = st.boards.remove(&p.id) else {
            continue;
        };
        for (i, c) in b.cards.iter_mut().enumerate() {
            if c.is_some() || p.decks.is_empty() {
                continue;
            }
            let deck = &p.decks[i % p.decks.len()];
            if st.decks.get(deck).is_some_and(|d| d.is_empty()) {
                let mut back = st.discards.remove(deck).unwrap_or_default();
                world.resource_mut::<GameRng>().shuffle(&mut back);
                st.decks.insert(deck.clone(), back);
            }
            *c = st.decks.get_mut(deck).and_then(|d| d.pop());
        }
        st.boards.insert(p.id.clone(), b);
    }
}

/// The deck a card comes from.
fn deck_of(lvl: &MercLevel, card: &str) -> Option<String> {
    lvl.decks
        .iter()
        .find(|(_, cards)| cards.iter().any(|c| c.id == card))
        .map(|(id, _)| id.clone())
}

/// Deals raid cards face up from the deck's top until there are `n`.
fn deal_raids(st: &mut Mercs, n: usize) {
    while st.raids.len() < n {
        match st.raid_deck.pop() {
            Some(r) => st.raids.push(r),
            None => break,
        }
    }
}

/// What a card claimed does for its owner. A dragon freed by a seat serves on the map.
fn claim(world: &mut World, lvl: &MercLevel, st: &mut Mercs, who: Owner, card: &str) {
    let Some(c) = lvl.card(card).cloned() else {
        return;
    };
    if who == Owner::Poachers {
        // The poachers keep what they take: a dragon held feeds Chaos; other cards go to
        // their deck's discards.
        st.poachers.flame = add_up(st.poachers.flame, lvl.poachers.haul);
        if c.dragon.is_none()
            && let Some(d) = deck_of(lvl, card)
        {
            st.discards.entry(d).or_default().push(card.to_string());
        }
        return;
    }
    let Some(s) = st.sheet_mut(who) else { return };
    gain(s, &c.gives);
    if let Some(d) = &c.dragon {
        s.glory = add_up(s.glory, d.glory);
        s.dragons.push(c.id.clone());
        if let Some(unit) = &d.unit {
            let at = crate::rules::outposts::home_hex(world);
            crate::rules::units::spawn(world, Camp::Eladrins, at, unit, 1);
        }
    }
    if c.hero.is_some() {
        s.heroes.push(c.id.clone());
    }
    if c.plot > 0 {
        s.plots.push(c.id.clone());
    }
    if c.objective.is_some() {
        s.objectives.push(c.id.clone());
    }
    // A card that only gives (a tavern's mercenaries) goes to its deck's discards.
    if c.dragon.is_none()
        && c.hero.is_none()
        && c.plot == 0
        && c.objective.is_none()
        && let Some(d) = deck_of(lvl, card)
    {
        st.discards.entry(d).or_default().push(card.to_string());
    }
}

/// M13, M3, M6, M7: the reward phase.
pub fn rewards(world: &mut World) {
    let lvl = level(world);
    let mut st = world.resource::<Mercs>().clone();
    let survivalist = st.holder(Assistant::Survivalist).map(Owner::Seat);
    for p in lvl.claim_order() {
        let Some(board) = st.boards.get(&p.id).cloned() else {
            continue;
        };
        let mut order: Vec<(usize, super::state::Standing)> = board
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.clone().map(|s| (i, s)))
            .collect();
        // Larger first (M3); in the Mountains the Survivalist wins a tie (M11); then from
        // the left.
        order.sort_by_key(|(i, s)| {
            let tie = p.kind == PlaceKind::Mountains && Some(s.owner) == survivalist;
            (std::cmp::Reverse(size(&s.group)), !tie, *i)
        });
        for (slot, s) in order {
            for _ in 0..p.take.min(MAX_SLOTS) {
                let card = st
                    .boards
                    .get_mut(&p.id)
                    .and_then(|b| b.cards.iter_mut().find(|c| c.is_some()))
                    .and_then(|c| c.take());
                let Some(card) = card else { break };
                claim(world, &lvl, &mut st, s.owner, &card);
                tell(
                    world,
                    Told::Claimed {
                        owner: s.owner,
                        place: p.id.clone(),
                        card,
                    },
                );
            }
            // Recruits are discarded (M6); veterans go home (M7).
            if let Some(sheet) = st.sheet_mut(s.owner) {
                for k in Merc::ALL.into_iter().filter(|k| k.veteran()) {
                    sheet.reserve[k.ix()] = add_up(sheet.reserve[k.ix()], s.group[k.ix()]);
                }
            }
            if let Some(on) = st.boards.get_mut(&p.id).and_then(|b| b.slots.get_mut(slot)) {
                *on = None;
            }
        }
    }
    world.insert_resource(st);
}

/// M14: the raid, and what the Flame feeds Chaos.
pub fn raid(world: &mut World) {
    let lvl = level(world);
    let mut st = world.resource::<Mercs>().clone();
    // The one left face up: the Defender kept it, or the newer of the two.
    if let Some(r) = st.raids.last().and_then(|i| lvl.raids.get(*i)).cloned() {
        tell(
            world,
            Told::Struck {
                name: r.name.clone(),
                demands: r.demands,
            },
        );
        for (seat, s) in st.seats.iter_mut() {
            let mut short: u32 = 0;
            let mut lost: Group = [0; 4];
            for k in Merc::ALL {
                let want = r.demands[k.ix()];
                let gone = want.min(s.reserve[k.ix()]);
                s.reserve[k.ix()] -= gone;
                lost[k.ix()] = gone;
                short = short.saturating_add(want - gone);
            }
            s.flame = add_up(s.flame, short);
            if short > 0 || size(&lost) > 0 {
                let seat = *seat;
                tell(
                    world,
                    Told::Flame {
                        seat,
                        up: short,
                        lost,
                    },
                );
            }
        }
    }
    let total = st
        .seats
        .values()
        .chain([&st.poachers])
        .fold(0u32, |n, s| n.saturating_add(s.flame));
    if let Some(attempts) = total.checked_div(lvl.flame.per_attempt)
        && attempts > 0
    {
        let attempts = attempts.min(MAX_FED);
        {
            let mut m = world.resource_mut::<Modifiers>();
            m.pending_attempts = m.pending_attempts.saturating_add(attempts);
        }
        tell(world, Told::Fed { attempts });
    }
    world.insert_resource(st);
}

/// M15: the reset.
pub fn reset(world: &mut World) {
    let lvl = level(world);
    let mut st = world.resource::<Mercs>().clone();
    // 1. The cards left on the ordinary places are discarded, except the Garrison's.
    for p in lvl.places.iter().filter(|p| !p.kind.special()) {
        if p.kind == PlaceKind::Garrison {
            continue;
        }
        let left: Vec<String> = st
            .boards
            .get_mut(&p.id)
            .map(|b| b.cards.iter_mut().filter_map(|c| c.take()).collect())
            .unwrap_or_default();
        for c in left {
            if let Some(d) = deck_of(&lvl, &c) {
                st.discards.entry(d).or_default().push(c);
            }
        }
    }
    // 2–3. Each place refilled from the left; the Garrison from its decks.
    refill(world, &lvl, &mut st);
    // 4. The Chief's holder takes the first-seat marker.
    if let Some(seat) = st.holder(Assistant::Chief) {
        world.resource_mut::<crate::rules::Cycle>().first_seat = seat;
    }
    // 5. The assistants go back.
    st.assistants.clear();
    st.closing = false;
    st.used.clear();
    // 6. The raid cards discarded, two new face up; the deck cycles when it runs out.
    let mut spent = std::mem::take(&mut st.raids);
    if st.raid_deck.len() < 2 {
        spent.reverse();
        let mut again = spent;
        again.extend(std::mem::take(&mut st.raid_deck));
        st.raid_deck = again;
    }
    deal_raids(&mut st, 2);
    // The round's due: heroes' abilities, plots with a dragon linked, the poachers' recruits.
    for s in st.seats.values_mut() {
        for h in s.heroes.clone() {
            if let Some(hero) = lvl.card(&h).and_then(|c| c.hero.clone()) {
                gain(s, &hero.each_round);
            }
        }
        if !s.dragons.is_empty() {
            let due = s
                .plots
                .iter()
                .filter_map(|p| lvl.card(p))
                .fold(0u32, |n, c| n.saturating_add(c.plot));
            s.glory = add_up(s.glory, due);
        }
    }
    let recruits = &mut st.poachers.reserve[Merc::Recruit.ix()];
    *recruits = add_up(*recruits, lvl.poachers.recruits);
    // 7. The round marker.
    st.round = st.round.saturating_add(1);
    world.insert_resource(st);
}

/// Each seat's glory as the game's end would count it now (`final_glory`), for the core's
/// end-of-game window and the campaign's score.
pub fn glory_by_seat(world: &World) -> Vec<u32> {
    let lvl = super::data::level(world);
    let st = world.resource::<Mercs>();
    let n = st.seats.keys().next_back().map_or(0, |k| *k as usize + 1);
    let mut v = vec![0; n.min(8)];
    for (seat, sh) in &st.seats {
        if let Some(g) = v.get_mut(*seat as usize) {
            *g = final_glory(&lvl, sh);
        }
    }
    v
}

/// A seat's glory as the game's end counts it: what it won, its heroes linked to a dragon,
/// its objectives met.
pub fn final_glory(lvl: &MercLevel, s: &Sheet) -> u32 {
    let linked = !s.dragons.is_empty();
    let heroes: u32 = if linked {
        s.heroes
            .iter()
            .filter_map(|h| lvl.card(h).and_then(|c| c.hero.as_ref()))
            .fold(0u32, |n, h| n.saturating_add(h.linked_glory))
    } else {
        0
    };
    let objectives: u32 = s
        .objectives
        .iter()
        .filter_map(|o| lvl.card(o).and_then(|c| c.objective.as_ref()))
        .filter(|o| met(s, o.need))
        .fold(0u32, |n, o| n.saturating_add(o.glory));
    s.glory.saturating_add(heroes).saturating_add(objectives)
}

/// Whether a seat meets what an objective asks.
pub fn met(s: &Sheet, need: Need) -> bool {
    match need {
        Need::Dragons(n) => s.dragons.len() as u32 >= n,
        Need::Veterans(n) => {
            s.reserve[1..]
                .iter()
                .fold(0u32, |a, x| a.saturating_add(*x))
                >= n
        }
        Need::Heroes(n) => s.heroes.len() as u32 >= n,
        Need::FlameAtMost(n) => s.flame <= n,
    }
}

/// What the chapter tells (`GameEvent::Chapter`), for the log and the view.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Told {
    /// A group claimed a card (M13).
    Claimed {
        /// Whose group.
        owner: Owner,
        /// The place.
        place: String,
        /// The card.
        card: String,
    },
    /// The raid card left face up strikes (M14).
    Struck {
        /// Its name.
        name: String,
        /// What it demands of each seat.
        demands: Group,
    },
    /// A raid took a seat's mercenaries and raised its Flame by those it could not discard
    /// (M14).
    Flame {
        /// The seat.
        seat: u8,
        /// By how much.
        up: u32,
        /// The mercenaries it discarded, by kind (absent in a log written before it was told).
        #[serde(default)]
        lost: Group,
    },
    /// The Flame fed Chaos corruption attempts (reading of M14).
    Fed {
        /// Attempts added to the next R6.
        attempts: u32,
    },
}

fn tell(world: &mut World, t: Told) {
    chapter::tell(world, super::ID, t);
}
