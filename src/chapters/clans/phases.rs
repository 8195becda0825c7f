//! The chapter's automatic phases, and its setup.
//!
//! - Setup: the level's fields checked; each clan's sheet (the seats' and Chaos') with its
//!   reserve and its hand dealt from the shuffled deck.
//! - `CDRAW`, each cycle's start (reading): each clan's Rage becomes its Rage level's value
//!   and its upgrades' (Chaos' with `chaos.rage` more), it draws `draw` cards up to `hand_max`,
//!   the pillage tokens turn back to their reward side, the cycle's counts start again.
//! - C10 `CQUEST`: each quest committed is checked: fulfilled, its glory and its clan level;
//!   failed, nothing; either way it is discarded. C12: the highest total STR in one of the
//!   named provinces (a tie is nobody's highest).
//! - C7 `CRELEASE`: the figures in Valhalla come back to their reserve; each scores its
//!   clan's release glory (an upgrade's benefit, C4).

use bevy::prelude::*;
use hexx::Hex;

use crate::rules::chapter;
use crate::rules::tracks;
use crate::rules::{GameRng, GameSetup};

use super::battle::{Told, add_glory, tell};
use super::data::{CardKind, ClanLevel, Fig, MAX_FIGURES, MAX_HAND, Need, Track, level};
use super::reckon::{boost, holder, strength};
use super::state::{Clans, Owner, Sheet, Spot};
use super::{GLORY, RAGE};

/// Draws a card for `o`: the top of the deck, the discard pile shuffled back when it is empty.
fn draw_one(world: &mut World, st: &mut Clans, o: Owner) {
    if st.deck.is_empty() {
        let mut back = std::mem::take(&mut st.discard);
        world.resource_mut::<GameRng>().shuffle(&mut back);
        st.deck = back;
    }
    if let Some(c) = st.deck.pop()
        && let Some(s) = st.sheet_mut(o)
    {
        s.hand.push(c);
    }
}

/// Sets the chapter up for a new game.
pub fn setup(world: &mut World) -> Result<(), String> {
    let lvl = chapter::level_ext::<ClanLevel>(world, super::ID)?;
    let board = world.resource::<crate::rules::Board>().clone();
    let problems = lvl.check(|a| board.contains(Hex::new(a.0, a.1)));
    if !problems.is_empty() {
        let level = world.resource::<GameSetup>().level.clone();
        return Err(format!(
            "level `{level}`: ext.{}: {}",
            super::ID,
            problems.join("; ")
        ));
    }
    let mut st = Clans::default();
    let owners: Vec<Owner> = (0..chapter::seats(world))
        .map(Owner::Seat)
        .chain([Owner::Chaos])
        .collect();
    // The check above bounds the figures; each kind is bounded here too, so a level it did not
    // see can't make a reserve of billions.
    let start = |n: u32| n.min(MAX_FIGURES) as usize;
    for o in &owners {
        let mut s = Sheet::default();
        s.reserve
            .extend(std::iter::repeat_n(Fig::Warrior, start(lvl.start.warriors)));
        s.reserve
            .extend(std::iter::repeat_n(Fig::Leader, start(lvl.start.leaders)));
        s.reserve
            .extend(std::iter::repeat_n(Fig::Ship, start(lvl.start.ships)));
        st.sheets.insert(*o, s);
    }
    let mut deck = lvl.deck();
    world.resource_mut::<GameRng>().shuffle(&mut deck);
    st.deck = deck;
    for _ in 0..lvl.start.hand.min(MAX_HAND) {
        for o in &owners {
            draw_one(world, &mut st, *o);
        }
    }
    world.insert_resource(st);
    Ok(())
}

/// A clan's Rage at a cycle's start: its level's value and its upgrades'.
pub fn rage_due(lvl: &ClanLevel, o: Owner, s: &Sheet) -> u32 {
    let base = lvl
        .levels
        .value(Track::Rage, s.level(Track::Rage))
        .saturating_add(boost(lvl, s).rage);
    match o {
        Owner::Chaos => (base as i64 + lvl.chaos.rage as i64).max(0) as u32,
        Owner::Seat(_) => base,
    }
}

/// `CDRAW`: Rage refilled, cards drawn, tokens turned back.
pub fn draw(world: &mut World) {
    let lvl = level(world);
    let mut st = world.resource::<Clans>().clone();
    st.pillaged.clear();
    let owners: Vec<Owner> = st.sheets.keys().copied().collect();
    for o in &owners {
        for _ in 0..lvl.draw.min(MAX_HAND) {
            if st
                .sheet(*o)
                .is_some_and(|s| (s.hand.len() as u32) < lvl.hand_max)
            {
                draw_one(world, &mut st, *o);
            }
        }
        if let Some(s) = st.sheet_mut(*o) {
            s.won = 0;
            s.pillaged = 0;
        }
    }
    let due: Vec<(Owner, u32)> = owners
        .iter()
        .filter_map(|o| st.sheet(*o).map(|s| (*o, rage_due(&lvl, *o, s))))
        .collect();
    world.insert_resource(st);
    for (o, r) in due {
        let now = tracks::get(world, RAGE, holder(o));
        tracks::add(world, RAGE, holder(o), r.min(i32::MAX as u32) as i32 - now);
    }
}

/// Each clan's total STR in a province (figures only).
pub fn str_in(lvl: &ClanLevel, st: &Clans, province: &str) -> Vec<(Owner, u32)> {
    let mut v: Vec<(Owner, u32)> = Vec::new();
    let spot = Spot::Province(province.into());
    for p in st.at(&spot) {
        let n = st.sheet(p.owner).map_or(0, |s| strength(lvl, s, &p.fig));
        match v.iter_mut().find(|(o, _)| *o == p.owner) {
            Some(e) => e.1 = e.1.saturating_add(n),
            None => v.push((p.owner, n)),
        }
    }
    v
}

/// Whether `o` fulfils a quest's need now (C10, C12).
pub fn met(lvl: &ClanLevel, st: &Clans, o: Owner, need: &Need) -> bool {
    let Some(s) = st.sheet(o) else { return false };
    match need {
        Need::MostStrIn(ps) => ps.iter().any(|p| {
            let v = str_in(lvl, st, p);
            let mine = v.iter().find(|(w, _)| *w == o).map_or(0, |e| e.1);
            mine > 0 && v.iter().all(|(w, n)| *w == o || *n < mine)
        }),
        Need::OnBoard(n) => st.on_board(o) as u32 >= *n,
        Need::Won(n) => s.won >= *n,
        Need::Pillaged(n) => s.pillaged >= *n,
    }
}

/// C10 `CQUEST`: every quest checked and discarded.
pub fn quests(world: &mut World) {
    let lvl = level(world);
    let mut st = world.resource::<Clans>().clone();
    let mut told = Vec::new();
    let mut glory = Vec::new();
    let owners: Vec<Owner> = st.sheets.keys().copied().collect();
    for o in owners {
        let committed = st.sheet_mut(o).map(|s| std::mem::take(&mut s.quests));
        for card in committed.unwrap_or_default() {
            let quest = match lvl.card(&card).map(|c| &c.kind) {
                Some(CardKind::Quest(q)) => Some(q.clone()),
                _ => None,
            };
            let ok = quest.as_ref().is_some_and(|q| met(&lvl, &st, o, &q.need));
            if ok && let Some(q) = &quest {
                glory.push((o, q.glory));
                if let (Some(t), Some(s)) = (q.level, st.sheet_mut(o)) {
                    let top = lvl.levels.of(t).len().saturating_sub(1) as u8;
                    s.levels[t.ix()] = s.levels[t.ix()].saturating_add(1).min(top);
                }
            }
            told.push(Told::Quest {
                owner: o,
                card: card.clone(),
                met: ok,
            });
            st.discard.push(card);
        }
    }
    world.insert_resource(st);
    for (o, g) in glory {
        add_glory(world, o, g);
    }
    for t in told {
        tell(world, t);
    }
}

/// C7 `CRELEASE`: Valhalla's figures back to their reserve, each with its release glory.
pub fn release(world: &mut World) {
    let lvl = level(world);
    let mut st = world.resource::<Clans>().clone();
    let mut back = Vec::new();
    let owners: Vec<Owner> = st.sheets.keys().copied().collect();
    for o in owners {
        let Some(s) = st.sheet_mut(o) else { continue };
        let dead = std::mem::take(&mut s.valhalla);
        if dead.is_empty() {
            continue;
        }
        let n = u32::try_from(dead.len()).unwrap_or(u32::MAX);
        s.reserve.extend(dead);
        s.reserve.sort();
        let per = boost(&lvl, s).release;
        back.push((o, n, per.saturating_mul(n)));
    }
    world.insert_resource(st);
    for (o, n, g) in back {
        add_glory(world, o, g);
        tell(
            world,
            Told::Released {
                owner: o,
                figures: n,
            },
        );
    }
}

/// Each seat's glory (its Glory track), for the end-of-game window and the campaign's score.
pub fn glory_by_seat(world: &World) -> Vec<u32> {
    (0..chapter::seats(world))
        .map(|s| tracks::get(world, GLORY, holder(Owner::Seat(s))).max(0) as u32)
        .collect()
}
