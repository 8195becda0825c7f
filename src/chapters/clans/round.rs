//! The action phase: the seats take turns, Chaos after them; a turn is one action (an
//! invasion, a march, an upgrade, a quest, a pillage) or a pass. The call to battle a pillage
//! opens is `battle`'s.
//!
//! - C1 A sheet has 8 slots: warriors 1, leader 1, ship 1, monsters 2, clan 3.
//! - C2 An upgrade card from the hand goes on a slot of its kind, for Rage equal to its STR.
//! - C3 On an occupied slot it discards the card there.
//! - C4 Upgrades are permanent; the same benefit in two slots counts twice (`boost`).
//! - C5 A warrior, leader or ship upgrade whose figure is in the reserve may place it on the
//!   board at once, for no more Rage.
//! - C6 A monster upgrade brings the monster into the reserve; it may invade at once.
//! - C8 At most 2 monsters (the two slots); a monster card discarded sends its figure back to
//!   the box, wherever it stands.
//! - C9 A quest card goes face down at no cost; any number, duplicates count each.
//! - C11 A clan at 0 Rage takes no action at all, not even a free one (it can only pass).
//! - C13 Pillage a province where the clan has a figure (or one on an adjacent fjord) whose
//!   token is on its reward side; no Rage.
//! - Readings: an invasion costs Rage equal to the figure's STR and needs a free village (any
//!   number in a province without villages, C15), ships on fjords only; a march moves one
//!   figure (not a ship) to an adjacent province for `march` Rage; a clan has at most its
//!   Horns' value of figures on the board.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::tracks;

use super::battle;
use super::data::{CardKind, ClanLevel, Fig, SHEET, Track, level};
use super::reckon::{figure_of, holder, owner, present, rage, room_in, slot_of, strength};
use super::state::{Clans, Owner, Placed, Sheet, Spot};
use super::{ClanAction, ClanRefusal, RAGE};

/// Whether `o` may put `fig` on `spot` now: the spot, the water, a free village, its Horns.
pub fn check_spot(
    lvl: &ClanLevel,
    st: &Clans,
    o: Owner,
    fig: &Fig,
    spot: &Spot,
) -> Result<(), ClanRefusal> {
    match spot {
        Spot::Province(p) => {
            if lvl.province(p).is_none() {
                return Err(ClanRefusal::NoSpot(p.clone()));
            }
            if *fig == Fig::Ship {
                return Err(ClanRefusal::WrongWater);
            }
            if !room_in(lvl, st, p) {
                return Err(ClanRefusal::VillagesFull(p.clone()));
            }
        }
        Spot::Fjord(f) => {
            if lvl.fjord(f).is_none() {
                return Err(ClanRefusal::NoSpot(f.clone()));
            }
            if *fig != Fig::Ship {
                return Err(ClanRefusal::WrongWater);
            }
        }
    }
    let sheet = st.sheet(o).ok_or(ClanRefusal::NoSheet)?;
    let horns = lvl.levels.value(Track::Horns, sheet.level(Track::Horns));
    if st.on_board(o) as u32 >= horns {
        return Err(ClanRefusal::HornsFull(horns));
    }
    Ok(())
}

/// C11: a clan at 0 Rage acts not at all.
fn needs_rage(world: &World, o: Owner) -> Result<u32, ClanRefusal> {
    match rage(world, o) {
        0 => Err(ClanRefusal::NoRage),
        r => Ok(r),
    }
}

/// C2: Rage enough for a cost.
fn afford(has: u32, needs: u32) -> Result<(), ClanRefusal> {
    if has < needs {
        return Err(ClanRefusal::TooLittleRage { needs, has });
    }
    Ok(())
}

/// C2, C3, C5, C6, C8: whether `o` may play `card` on `slot`, its figure invading `invade`.
fn check_upgrade(
    lvl: &ClanLevel,
    st: &Clans,
    o: Owner,
    has: u32,
    card: &str,
    slot: usize,
    invade: Option<&Spot>,
) -> Result<(), ClanRefusal> {
    let sheet = st.sheet(o).ok_or(ClanRefusal::NoSheet)?;
    if !sheet.hand.iter().any(|c| c == card) {
        return Err(ClanRefusal::NotInHand(card.into()));
    }
    let needs = slot_of(lvl, card).ok_or_else(|| ClanRefusal::NotAnUpgrade(card.into()))?;
    let kind = *SHEET.get(slot).ok_or(ClanRefusal::NoSlot(slot))?;
    if kind != needs {
        return Err(ClanRefusal::WrongSlot { slot: kind, needs });
    }
    let fig = figure_of(lvl, card);
    if let Some(Fig::Monster(m)) = &fig {
        // C8: one figure per monster: another clan's, or this clan's other slot.
        let owns = |(ow, s): (&Owner, &Sheet)| {
            s.slots.iter().enumerate().any(|(i, c)| {
                (*ow != o || i != slot)
                    && c.as_deref()
                        .and_then(|c| lvl.card(c))
                        .is_some_and(|c| c.kind == CardKind::Monster(m.clone()))
            })
        };
        if st.sheets.iter().any(owns) {
            return Err(ClanRefusal::MonsterTaken(m.clone()));
        }
    }
    let cost = lvl.card(card).map_or(0, |c| c.str);
    afford(has, cost)?;
    if let Some(spot) = invade {
        let fig = fig.ok_or(ClanRefusal::NotItsFigure(Fig::Warrior))?;
        // A monster joins the reserve first (C6); the replaced one leaves it (C8).
        let mut after = st.clone();
        place_card(lvl, &mut after, o, card, slot);
        if !after.sheet(o).is_some_and(|s| s.reserve.contains(&fig)) {
            return Err(ClanRefusal::NotInReserve(fig));
        }
        check_spot(lvl, &after, o, &fig, spot)?;
    }
    Ok(())
}

/// C3, C6, C8: the card from the hand onto the slot; the card there discarded (a monster's
/// figure back to the box); a monster joins the reserve.
fn place_card(lvl: &ClanLevel, st: &mut Clans, o: Owner, card: &str, slot: usize) {
    let mut gone = None;
    if let Some(s) = st.sheet_mut(o) {
        if let Some(i) = s.hand.iter().position(|c| c == card) {
            s.hand.remove(i);
        }
        if let Some(place) = s.slots.get_mut(slot) {
            gone = place.replace(card.to_string());
        }
        if let Some(Fig::Monster(m)) = figure_of(lvl, card) {
            s.reserve.push(Fig::Monster(m));
        }
    }
    if let Some(old) = gone {
        if let Some(Fig::Monster(m)) = figure_of(lvl, &old) {
            let fig = Fig::Monster(m);
            st.board.retain(|p| !(p.owner == o && p.fig == fig));
            if let Some(s) = st.sheet_mut(o) {
                s.reserve.retain(|f| *f != fig);
                s.valhalla.retain(|f| *f != fig);
            }
        }
        st.discard.push(old);
    }
}

/// A figure of the reserve onto the board (validated).
fn enter(st: &mut Clans, o: Owner, fig: &Fig, spot: &Spot) {
    if let Some(s) = st.sheet_mut(o)
        && let Some(i) = s.reserve.iter().position(|f| f == fig)
    {
        s.reserve.remove(i);
        st.board.push(Placed {
            owner: o,
            fig: fig.clone(),
            at: spot.clone(),
        });
        st.board.sort();
    }
}

/// Checks an action-phase action for `by` (the step and turn were checked by the core).
pub fn check(world: &mut World, by: Camp, a: &ClanAction) -> Result<(), ClanRefusal> {
    let lvl = level(world);
    let st = world.resource::<Clans>().clone();
    let o = owner(world, by);
    let sheet = st.sheet(o).ok_or(ClanRefusal::NoSheet)?;
    let answer = matches!(
        a,
        ClanAction::Join { .. } | ClanAction::Decline | ClanAction::Play { .. }
    );
    if answer {
        return battle::check(&lvl, &st, o, a);
    }
    if st.call.is_some() {
        return Err(ClanRefusal::CallOpen);
    }
    let has = needs_rage(world, o)?;
    match a {
        ClanAction::Invade { fig, to } => {
            if !sheet.reserve.contains(fig) {
                return Err(ClanRefusal::NotInReserve(fig.clone()));
            }
            check_spot(&lvl, &st, o, fig, to)?;
            afford(has, strength(&lvl, sheet, fig))
        }
        ClanAction::March { fig, from, to } => {
            if *fig == Fig::Ship {
                return Err(ClanRefusal::ShipsStay);
            }
            let here = Spot::Province(from.clone());
            if !st.at(&here).any(|p| p.owner == o && p.fig == *fig) {
                return Err(ClanRefusal::NotThere(from.clone()));
            }
            if lvl.province(to).is_none() {
                return Err(ClanRefusal::NoSpot(to.clone()));
            }
            if !lvl.adjacent(from, to) {
                return Err(ClanRefusal::NotAdjacent(to.clone()));
            }
            if !room_in(&lvl, &st, to) {
                return Err(ClanRefusal::VillagesFull(to.clone()));
            }
            afford(has, lvl.march)
        }
        ClanAction::Upgrade { card, slot, invade } => {
            check_upgrade(&lvl, &st, o, has, card, *slot, invade.as_ref())
        }
        ClanAction::Quest { card } => {
            if !sheet.hand.contains(card) {
                return Err(ClanRefusal::NotInHand(card.clone()));
            }
            match lvl.card(card).map(|c| &c.kind) {
                Some(CardKind::Quest(_)) => Ok(()),
                _ => Err(ClanRefusal::NotAQuest(card.clone())),
            }
        }
        ClanAction::Pillage { province } => {
            if lvl.province(province).is_none() {
                return Err(ClanRefusal::NoSpot(province.clone()));
            }
            if st.pillaged.contains(province) {
                return Err(ClanRefusal::AlreadyPillaged(province.clone()));
            }
            if !present(&lvl, &st, o, province) {
                return Err(ClanRefusal::NotThere(province.clone()));
            }
            Ok(())
        }
        ClanAction::Join { .. } | ClanAction::Decline | ClanAction::Play { .. } => Ok(()),
    }
}

/// Spends an owner's Rage.
fn spend(world: &mut World, o: Owner, n: u32) {
    if n > 0 {
        tracks::add(world, RAGE, holder(o), -(n.min(i32::MAX as u32) as i32));
    }
}

/// Applies an action-phase action (validated).
pub fn apply(world: &mut World, by: Camp, a: &ClanAction) {
    let lvl = level(world);
    let o = owner(world, by);
    let mut st = world.resource::<Clans>().clone();
    let mut cost = 0;
    match a {
        ClanAction::Invade { fig, to } => {
            cost = st.sheet(o).map_or(0, |s| strength(&lvl, s, fig));
            enter(&mut st, o, fig, to);
        }
        ClanAction::March { fig, from, to } => {
            cost = lvl.march;
            if let Some(p) = st
                .board
                .iter_mut()
                .find(|p| p.owner == o && p.fig == *fig && p.at == Spot::Province(from.clone()))
            {
                p.at = Spot::Province(to.clone());
            }
            st.board.sort();
        }
        ClanAction::Upgrade { card, slot, invade } => {
            cost = lvl.card(card).map_or(0, |c| c.str);
            place_card(&lvl, &mut st, o, card, *slot);
            if let (Some(spot), Some(fig)) = (invade, figure_of(&lvl, card)) {
                enter(&mut st, o, &fig, spot);
            }
        }
        ClanAction::Quest { card } => {
            if let Some(s) = st.sheet_mut(o)
                && let Some(i) = s.hand.iter().position(|c| c == card)
            {
                let c = s.hand.remove(i);
                s.quests.push(c);
            }
        }
        ClanAction::Pillage { province } => {
            world.insert_resource(st);
            battle::open(world, o, province);
            return;
        }
        ClanAction::Join { .. } | ClanAction::Decline | ClanAction::Play { .. } => {
            world.insert_resource(st);
            battle::answer(world, o, a);
            return;
        }
    }
    world.insert_resource(st);
    spend(world, o, cost);
}

/// The action phase's candidates for `by`: the answers to the call open, or every invasion,
/// march, upgrade, quest and pillage (nothing at 0 Rage: only the core's pass, C11).
pub fn candidates(world: &mut World, by: Camp) -> Vec<ClanAction> {
    let lvl = level(world);
    let st = world.resource::<Clans>().clone();
    let o = owner(world, by);
    if st.call.is_some() {
        return battle::candidates(&lvl, &st, o);
    }
    let Some(sheet) = st.sheet(o).cloned() else {
        return Vec::new();
    };
    if rage(world, o) == 0 {
        return Vec::new();
    }
    let spots: Vec<Spot> = lvl
        .provinces
        .iter()
        .map(|p| Spot::Province(p.id.clone()))
        .chain(lvl.fjords.iter().map(|f| Spot::Fjord(f.id.clone())))
        .collect();
    let fits = |fig: &Fig, s: &Spot| matches!(s, Spot::Fjord(_)) == (*fig == Fig::Ship);
    let mut v = Vec::new();
    let mut figs = sheet.reserve.clone();
    figs.sort();
    figs.dedup();
    for fig in &figs {
        for s in spots.iter().filter(|s| fits(fig, s)) {
            v.push(ClanAction::Invade {
                fig: fig.clone(),
                to: s.clone(),
            });
        }
    }
    let mut moving: Vec<(Fig, String)> = st
        .board
        .iter()
        .filter(|p| p.owner == o && p.fig != Fig::Ship)
        .filter_map(|p| match &p.at {
            Spot::Province(q) => Some((p.fig.clone(), q.clone())),
            Spot::Fjord(_) => None,
        })
        .collect();
    moving.dedup();
    for (fig, from) in &moving {
        for to in lvl.provinces.iter().filter(|q| lvl.adjacent(from, &q.id)) {
            v.push(ClanAction::March {
                fig: fig.clone(),
                from: from.clone(),
                to: to.id.clone(),
            });
        }
    }
    let mut hand = sheet.hand.clone();
    hand.sort();
    hand.dedup();
    for card in &hand {
        if let Some(kind) = slot_of(&lvl, card) {
            let fig = figure_of(&lvl, card);
            for (slot, _) in SHEET.iter().enumerate().filter(|(_, k)| **k == kind) {
                v.push(ClanAction::Upgrade {
                    card: card.clone(),
                    slot,
                    invade: None,
                });
                if let Some(fig) = &fig {
                    for s in spots.iter().filter(|s| fits(fig, s)) {
                        v.push(ClanAction::Upgrade {
                            card: card.clone(),
                            slot,
                            invade: Some(s.clone()),
                        });
                    }
                }
            }
        }
        if matches!(lvl.card(card).map(|c| &c.kind), Some(CardKind::Quest(_))) {
            v.push(ClanAction::Quest { card: card.clone() });
        }
    }
    for p in &lvl.provinces {
        v.push(ClanAction::Pillage {
            province: p.id.clone(),
        });
    }
    v
}
