//! The clan's numbers, read by the action phase, the call to battle, the phases and the AI:
//! who acts, Rage, the benefits of a sheet (C4), a figure's STR, the slot and figure of an
//! upgrade card (C2, C5, C6), room in a province (C14, C15), presence in a province or on a
//! fjord beside it (C13, C17), the odds the cards of a battle not seen yet give (C17). Reads
//! only.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::chapter;
use crate::rules::tracks::{self, Holder};

use super::RAGE;
use super::data::{Boost, Card, CardKind, ClanLevel, Fig, Slot};
use super::state::{Call, Clans, HIDDEN, Owner, Sheet, Spot, Stage};

/// Who acts for `by` now: the acting Eladrin seat, or Chaos.
pub fn owner(world: &World, by: Camp) -> Owner {
    match by {
        Camp::Chaos => Owner::Chaos,
        Camp::Eladrins => Owner::Seat(chapter::current_seat(world)),
    }
}

/// An owner's holder on the chapter's tracks.
pub fn holder(o: Owner) -> Holder {
    match o {
        Owner::Seat(s) => Holder::Seat(s),
        Owner::Chaos => Holder::Camp(Camp::Chaos),
    }
}

/// An owner's Rage now.
pub fn rage(world: &World, o: Owner) -> u32 {
    tracks::get(world, RAGE, holder(o)).max(0) as u32
}

/// C4: the benefits of a sheet's upgrades and monsters together.
pub fn boost(lvl: &ClanLevel, s: &Sheet) -> Boost {
    let mut b = Boost::default();
    for c in s.slots.iter().flatten().filter_map(|id| lvl.card(id)) {
        match &c.kind {
            CardKind::Upgrade { boost, .. } => b.add(boost),
            CardKind::Monster(m) => {
                if let Some(m) = lvl.monster(m) {
                    b.add(&m.boost);
                }
            }
            _ => {}
        }
    }
    b
}

/// A figure's STR for its clan: its base, and its clan's upgrades (C4).
pub fn strength(lvl: &ClanLevel, s: &Sheet, fig: &Fig) -> u32 {
    let b = boost(lvl, s);
    match fig {
        Fig::Warrior => lvl.strength.warrior.saturating_add(b.warrior),
        Fig::Leader => lvl.strength.leader.saturating_add(b.leader),
        Fig::Ship => lvl.strength.ship.saturating_add(b.ship),
        Fig::Monster(m) => lvl
            .monster(m)
            .map_or(0, |m| m.str)
            .saturating_add(b.monster),
    }
}

/// The slot a card goes on, if it is an upgrade (C2, C6).
pub fn slot_of(lvl: &ClanLevel, card: &str) -> Option<Slot> {
    match &lvl.card(card)?.kind {
        CardKind::Upgrade { slot, .. } => Some(*slot),
        CardKind::Monster(_) => Some(Slot::Monsters),
        _ => None,
    }
}

/// The figure an upgrade card may bring onto the board (C5, C6): none for a clan upgrade.
pub fn figure_of(lvl: &ClanLevel, card: &str) -> Option<Fig> {
    match &lvl.card(card)?.kind {
        CardKind::Upgrade { slot, .. } => match slot {
            Slot::Warriors => Some(Fig::Warrior),
            Slot::Leader => Some(Fig::Leader),
            Slot::Ship => Some(Fig::Ship),
            _ => None,
        },
        CardKind::Monster(m) => Some(Fig::Monster(m.clone())),
        _ => None,
    }
}

/// Whether a province has a free village (C14; one without villages takes any number, C15).
pub fn room_in(lvl: &ClanLevel, st: &Clans, province: &str) -> bool {
    let Some(p) = lvl.province(province) else {
        return false;
    };
    p.villages.is_empty() || st.at(&Spot::Province(province.into())).count() < p.villages.len()
}

/// Whether `o` has a figure in the province or on a fjord beside it (C13).
pub fn present(lvl: &ClanLevel, st: &Clans, o: Owner, province: &str) -> bool {
    let fjords = lvl.fjords_of(province);
    st.board.iter().any(|p| {
        p.owner == o
            && match &p.at {
                Spot::Province(q) => q == province,
                Spot::Fjord(f) => fjords.contains(&f.as_str()),
            }
    })
}

/// C17: the STR a card adds in a battle: a battle card its STR, any other card nothing.
pub fn battle_str(card: &Card) -> u32 {
    if card.kind == CardKind::Battle {
        card.str
    } else {
        0
    }
}

/// The chances (win, tie, loss) of the Eladrin side when each hidden or coming card is drawn
/// at random from the deck's make-up (battle cards add their STR, any other card nothing).
pub fn odds(lvl: &ClanLevel, eladrins: u32, chaos: u32, hidden: &[bool]) -> (f64, f64, f64) {
    let total: u64 = lvl.cards.iter().map(|c| u64::from(c.copies)).sum();
    let mut one: Vec<(u32, f64)> = Vec::new();
    for c in &lvl.cards {
        let add = battle_str(c);
        let p = c.copies as f64 / total.max(1) as f64;
        match one.iter_mut().find(|(a, _)| *a == add) {
            Some(e) => e.1 += p,
            None => one.push((add, p)),
        }
    }
    if one.is_empty() {
        one.push((0, 1.0));
    }
    // The difference Eladrins − Chaos, as a distribution, card by card.
    let mut dist: Vec<(i64, f64)> = vec![(eladrins as i64 - chaos as i64, 1.0)];
    for eladrin_side in hidden {
        let mut next: Vec<(i64, f64)> = Vec::new();
        for (d, p) in &dist {
            for (a, q) in &one {
                let v = if *eladrin_side {
                    d + *a as i64
                } else {
                    d - *a as i64
                };
                match next.iter_mut().find(|(x, _)| *x == v) {
                    Some(e) => e.1 += p * q,
                    None => next.push((v, p * q)),
                }
            }
        }
        dist = next;
    }
    let sum = |f: &dyn Fn(i64) -> bool| dist.iter().filter(|(d, _)| f(*d)).map(|e| e.1).sum();
    (sum(&|d| d > 0), sum(&|d| d == 0), sum(&|d| d < 0))
}

/// The sides (`Owner::side`) of the cards of a battle not seen yet: picked face down, or still
/// to be picked. While the clans gather, each clan in the province now may still play one.
pub fn unseen(lvl: &ClanLevel, st: &Clans, c: &Call) -> Vec<bool> {
    c.order
        .iter()
        .filter(|o| match c.stage {
            Stage::Gather => present(lvl, st, **o, &c.province),
            Stage::Cards => match c.picks.get(o) {
                None => true,
                Some(p) => p.as_deref() == Some(HIDDEN),
            },
        })
        .map(|o| o.side())
        .collect()
}
