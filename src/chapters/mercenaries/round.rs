//! The action phase (M1–M12): seats take turns, the poachers (Chaos) after them; a turn is one
//! of sending a group to an ordinary place, using a special place, or taking an assistant.
//!
//! - M1 A turn is exactly one of: send a group (M2–M8), use a special place (M10), take an
//!   assistant (M11). A seat passes only when it can take none of them (rules version 3; a
//!   special place a level lets a seat use again and again does not count, or the round could
//!   never end). The poachers only send groups of recruits, and may pass (reading).
//! - M2 A group stands on a free numbered slot of an ordinary place.
//! - M4 Its number of mercenaries equals the slot's number exactly.
//! - M6 Recruits go to any ordinary place; M7 each veteran kind only where the place allows.
//! - M9 On its turn, a seat may spend an equipment token to exchange one mercenary of its
//!   reserve for one of another kind, any number of times (a free action).
//! - M10 Special places give their gain at once, without mercenaries.
//! - M11 The four assistants, one per seat a round: Chief (first seat next round; may recall
//!   one of its groups and place it again), Defender (discards a face-up raid card),
//!   Survivalist (+1 equipment; breaks ties in the Mountains), Healer (Flame −2).
//! - M12 Once the last assistant is taken, the phase ends when that go-round does.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::chapter;
use crate::rules::version::Rules;
use crate::rules::{Action, GameWorld, Refusal};

use super::data::{Assistant, Group, MAX_SLOTS, Merc, MercLevel, Place, checked_size, level};
use super::state::{Mercs, Owner, Standing, add_up};
use super::{MercAction, MercRefusal, Recall};

/// Who acts for `by` now: the acting Eladrin seat, or the poachers.
pub fn owner(world: &World, by: Camp) -> Owner {
    match by {
        Camp::Chaos => Owner::Poachers,
        Camp::Eladrins => Owner::Seat(chapter::current_seat(world)),
    }
}

/// M2, M4, M6, M7: whether `who` may put `group` on `slot` of `place` in `st`.
pub fn check_send(
    lvl: &MercLevel,
    st: &Mercs,
    who: Owner,
    place: &str,
    slot: usize,
    group: &Group,
) -> Result<(), MercRefusal> {
    let p = lvl
        .place(place)
        .ok_or_else(|| MercRefusal::NoPlace(place.into()))?;
    if p.kind.special() {
        return Err(MercRefusal::NotOrdinary(place.into()));
    }
    let board = st.boards.get(place);
    let number = *p.slots.get(slot).ok_or(MercRefusal::NoSlot(slot))?;
    if board
        .and_then(|b| b.slots.get(slot))
        .is_some_and(|s| s.is_some())
    {
        return Err(MercRefusal::SlotTaken(slot));
    }
    // A group read from a file may count more than a `u32` holds: no slot takes it.
    let Some(n) = checked_size(group) else {
        return Err(MercRefusal::WrongSize {
            slot: number,
            group: u32::MAX,
        });
    };
    if n == 0 {
        return Err(MercRefusal::EmptyGroup);
    }
    if n != number {
        return Err(MercRefusal::WrongSize {
            slot: number,
            group: n,
        });
    }
    if who == Owner::Poachers && group[1..].iter().any(|x| *x > 0) {
        return Err(MercRefusal::PoachersRecruitsOnly);
    }
    for k in Merc::ALL {
        if k.veteran() && group[k.ix()] > 0 && !p.veterans.contains(&k) {
            return Err(MercRefusal::VeteranBarred {
                kind: k,
                place: place.into(),
            });
        }
    }
    let sheet = st.sheet(who).ok_or(MercRefusal::NoSheet)?;
    for k in Merc::ALL {
        if sheet.reserve[k.ix()] < group[k.ix()] {
            return Err(MercRefusal::Lacks(k));
        }
    }
    Ok(())
}

/// Puts the group on its slot (validated).
fn send(st: &mut Mercs, who: Owner, place: &str, slot: usize, group: &Group) {
    if let Some(s) = st.sheet_mut(who) {
        for k in Merc::ALL {
            s.reserve[k.ix()] = s.reserve[k.ix()].saturating_sub(group[k.ix()]);
        }
    }
    if let Some(b) = st.boards.get_mut(place)
        && let Some(s) = b.slots.get_mut(slot)
    {
        *s = Some(Standing {
            owner: who,
            group: *group,
        });
    }
}

/// M11 (Chief): the group on `from` is the seat's; back to the reserve, then sent again.
fn check_recall(lvl: &MercLevel, st: &Mercs, who: Owner, r: &Recall) -> Result<Mercs, MercRefusal> {
    let mut after = st.clone();
    let taken = after
        .boards
        .get_mut(&r.from.0)
        .and_then(|b| b.slots.get_mut(r.from.1))
        .and_then(|s| s.take_if(|g| g.owner == who))
        .ok_or(MercRefusal::RecallNotYours)?;
    if let Some(s) = after.sheet_mut(who) {
        for k in Merc::ALL {
            s.reserve[k.ix()] = add_up(s.reserve[k.ix()], taken.group[k.ix()]);
        }
    }
    check_send(lvl, &after, who, &r.to.0, r.to.1, &r.group)?;
    send(&mut after, who, &r.to.0, r.to.1, &r.group);
    Ok(after)
}

/// Checks an action-phase action for `by` (the step and turn were checked by the core).
pub fn check(world: &mut World, by: Camp, a: &MercAction) -> Result<(), MercRefusal> {
    let lvl = level(world);
    let st = world.resource::<Mercs>().clone();
    let who = owner(world, by);
    match a {
        MercAction::Send { place, slot, group } => check_send(&lvl, &st, who, place, *slot, group),
        MercAction::Special { place } => {
            let Owner::Seat(seat) = who else {
                return Err(MercRefusal::EladrinsOnly);
            };
            let p = lvl
                .place(place)
                .ok_or_else(|| MercRefusal::NoPlace(place.into()))?;
            if !p.kind.special() {
                return Err(MercRefusal::NotSpecial(place.into()));
            }
            if p.once && st.used.get(place).is_some_and(|v| v.contains(&seat)) {
                return Err(MercRefusal::SpecialUsed(place.into()));
            }
            Ok(())
        }
        MercAction::Assist { who: which, .. } => {
            let Owner::Seat(seat) = who else {
                return Err(MercRefusal::EladrinsOnly);
            };
            if st.assistants.contains_key(which) {
                return Err(MercRefusal::AssistantTaken(*which));
            }
            if st.assistants.values().any(|s| *s == seat) {
                return Err(MercRefusal::OneAssistant);
            }
            match a {
                MercAction::Assist {
                    recall: Some(r), ..
                } if *which == Assistant::Chief => check_recall(&lvl, &st, who, r).map(|_| ()),
                MercAction::Assist {
                    recall: Some(_), ..
                } => Err(MercRefusal::RecallNotYours),
                MercAction::Assist { raid: Some(i), .. } if *which == Assistant::Defender => {
                    if *i < st.raids.len() && st.raids.len() == 2 {
                        Ok(())
                    } else {
                        Err(MercRefusal::NoRaidCard(*i))
                    }
                }
                MercAction::Assist { raid: None, .. } if *which == Assistant::Defender => {
                    Err(MercRefusal::NoRaidCard(0))
                }
                MercAction::Assist { raid: Some(i), .. } => Err(MercRefusal::NoRaidCard(*i)),
                _ => Ok(()),
            }
        }
        MercAction::Swap { from, to } => {
            let Owner::Seat(_) = who else {
                return Err(MercRefusal::EladrinsOnly);
            };
            let s = st.sheet(who).ok_or(MercRefusal::NoSheet)?;
            if from == to {
                return Err(MercRefusal::SameKind);
            }
            if s.equipment == 0 {
                return Err(MercRefusal::NoEquipment);
            }
            if s.reserve[from.ix()] == 0 {
                return Err(MercRefusal::Lacks(*from));
            }
            Ok(())
        }
    }
}

/// Applies an action-phase action (validated).
pub fn apply(world: &mut World, by: Camp, a: &MercAction) {
    let lvl = level(world);
    let who = owner(world, by);
    let mut st = world.resource::<Mercs>().clone();
    match a {
        MercAction::Send { place, slot, group } => send(&mut st, who, place, *slot, group),
        MercAction::Special { place } => {
            if let (Some(p), Some(s)) = (lvl.place(place), st.sheet_mut(who)) {
                super::phases::gain(s, &p.gives);
            }
            // Each seat is listed once: a place a level lets it use again still lists it once.
            if let Owner::Seat(seat) = who {
                let users = st.used.entry(place.clone()).or_default();
                if !users.contains(&seat) {
                    users.push(seat);
                }
            }
        }
        MercAction::Assist {
            who: which,
            recall,
            raid,
        } => {
            let Owner::Seat(seat) = who else { return };
            if let (Some(r), Assistant::Chief) = (recall, which)
                && let Ok(after) = check_recall(&lvl, &st, who, r)
            {
                st = after;
            }
            st.assistants.insert(*which, seat);
            match which {
                Assistant::Chief => {}
                Assistant::Defender => {
                    if let Some(i) = raid
                        && *i < st.raids.len()
                    {
                        st.raids.remove(*i);
                    }
                }
                Assistant::Survivalist => {
                    if let Some(s) = st.sheet_mut(who) {
                        s.equipment = add_up(s.equipment, lvl.survivalist_equipment);
                    }
                }
                Assistant::Healer => {
                    if let Some(s) = st.sheet_mut(who) {
                        s.flame = s.flame.saturating_sub(lvl.healer_calm);
                    }
                }
            }
            if st.assistants.len() == Assistant::ALL.len() {
                st.closing = true;
            }
        }
        MercAction::Swap { from, to } => {
            if let Some(s) = st.sheet_mut(who) {
                s.equipment = s.equipment.saturating_sub(1);
                s.reserve[from.ix()] = s.reserve[from.ix()].saturating_sub(1);
                s.reserve[to.ix()] = add_up(s.reserve[to.ix()], 1);
            }
        }
    }
    world.insert_resource(st);
}

/// M12: the last assistant taken, the phase ends when the go-round does: when the turn is
/// back at the first participant.
pub fn phase_over(world: &mut World) -> bool {
    if !world.resource::<Mercs>().closing {
        return false;
    }
    // Among those the level has take part (`among` may be changed by a level).
    let crate::rules::StepKind::Round { among, .. } = world.step_kind() else {
        return false;
    };
    let first = chapter::participants(world, among).first().copied();
    first == Some(chapter::turn_of(world))
}

/// M1 (rules version 3): a seat must take one of the three actions on its turn. Before, a
/// seat could pass with a slot, a special place or an assistant still open to it.
pub fn must_act(rules: Rules) -> bool {
    rules.at_least(3)
}

/// Whether `by`'s seat could take one of M1's three actions now (not the free swap of M9, not
/// a special place it may use any number of times).
pub fn can_act(world: &mut World, by: Camp) -> bool {
    let lvl = level(world);
    candidates(world, by).iter().any(|a| {
        let repeatable = match a {
            MercAction::Swap { .. } => true,
            MercAction::Special { place } => lvl.place(place).is_some_and(|p| !p.once),
            _ => false,
        };
        !repeatable && check(world, by, a).is_ok()
    })
}

/// M1: in the action phase a seat that can act may not pass (the core's `Pass`).
pub fn veto(world: &mut World, by: Camp, action: &Action) -> Option<Refusal> {
    let seat_passes = matches!(action, Action::Pass)
        && by == Camp::Eladrins
        && world.step_id() == super::ACTION_STEP;
    (seat_passes && must_act(world.rules()) && can_act(world, by))
        .then(|| chapter::refusal(super::ID, &MercRefusal::MustAct))
}

/// Every group of `n` mercenaries `reserve` can form, kinds limited to `allowed`; none for a
/// slot numbered past `MAX_SLOTS` (a level the check refused), whose groups could be billions.
pub fn groups(reserve: &Group, n: u32, allowed: impl Fn(Merc) -> bool) -> Vec<Group> {
    let mut out = Vec::new();
    if n > MAX_SLOTS as u32 {
        return out;
    }
    let cap = |k: Merc| if allowed(k) { reserve[k.ix()] } else { 0 };
    for a in 0..=cap(Merc::Recruit).min(n) {
        for b in 0..=cap(Merc::Scout).min(n - a) {
            for c in 0..=cap(Merc::Ranger).min(n - a - b) {
                let d = n - a - b - c;
                if d <= cap(Merc::Guardian) {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    out
}

/// Every group `who` could send from its reserve in `st` to a free slot of the ordinary place
/// `p` (M2, M4, M6, M7): slot, group.
fn sends_to(p: &Place, st: &Mercs, who: Owner) -> Vec<(usize, Group)> {
    let Some(sheet) = st.sheet(who) else {
        return Vec::new();
    };
    let mut v = Vec::new();
    if p.kind.special() {
        return v;
    }
    for (slot, n) in p.slots.iter().enumerate() {
        let free = st
            .boards
            .get(&p.id)
            .and_then(|b| b.slots.get(slot))
            .is_some_and(|s| s.is_none());
        if !free {
            continue;
        }
        let allowed = |k: Merc| {
            if who == Owner::Poachers {
                k == Merc::Recruit
            } else {
                !k.veteran() || p.veterans.contains(&k)
            }
        };
        for group in groups(&sheet.reserve, *n, allowed) {
            v.push((slot, group));
        }
    }
    v
}

/// M11: every recall the Chief allows `who` in `st`: each of its groups on the board taken
/// back to its reserve, then every group it could send from there (to the slot it left, too).
fn recalls(lvl: &MercLevel, st: &Mercs, who: Owner) -> Vec<Recall> {
    let mut v = Vec::new();
    for (place, b) in &st.boards {
        for (slot, s) in b.slots.iter().enumerate() {
            let Some(stand) = s.as_ref().filter(|s| s.owner == who) else {
                continue;
            };
            let mut after = st.clone();
            if let Some(x) = after
                .boards
                .get_mut(place)
                .and_then(|b| b.slots.get_mut(slot))
            {
                *x = None;
            }
            if let Some(sh) = after.sheet_mut(who) {
                for k in Merc::ALL {
                    sh.reserve[k.ix()] = add_up(sh.reserve[k.ix()], stand.group[k.ix()]);
                }
            }
            for p in &lvl.places {
                for (i, group) in sends_to(p, &after, who) {
                    v.push(Recall {
                        from: (place.clone(), slot),
                        to: (p.id.clone(), i),
                        group,
                    });
                }
            }
        }
    }
    v
}

/// The action phase's candidates for `by`: every group on every free slot, the special
/// places, the assistants free (the Chief with each recall it allows), the swaps.
pub fn candidates(world: &mut World, by: Camp) -> Vec<MercAction> {
    let lvl = level(world);
    let st = world.resource::<Mercs>().clone();
    let who = owner(world, by);
    let Some(sheet) = st.sheet(who).cloned() else {
        return Vec::new();
    };
    let mut v = Vec::new();
    for p in &lvl.places {
        if p.kind.special() {
            let used = match who {
                Owner::Seat(seat) => {
                    p.once && st.used.get(&p.id).is_some_and(|v| v.contains(&seat))
                }
                Owner::Poachers => true,
            };
            if !used {
                v.push(MercAction::Special {
                    place: p.id.clone(),
                });
            }
            continue;
        }
        for (slot, group) in sends_to(p, &st, who) {
            v.push(MercAction::Send {
                place: p.id.clone(),
                slot,
                group,
            });
        }
    }
    if who != Owner::Poachers {
        for a in Assistant::ALL {
            match a {
                Assistant::Defender => {
                    for i in 0..st.raids.len() {
                        v.push(MercAction::Assist {
                            who: a,
                            recall: None,
                            raid: Some(i),
                        });
                    }
                }
                Assistant::Chief => {
                    v.push(MercAction::Assist {
                        who: a,
                        recall: None,
                        raid: None,
                    });
                    // Only while the Chief is free: a taken Chief's recalls would all be
                    // refused, and there can be hundreds.
                    if !st.assistants.contains_key(&a) {
                        for r in recalls(&lvl, &st, who) {
                            v.push(MercAction::Assist {
                                who: a,
                                recall: Some(r),
                                raid: None,
                            });
                        }
                    }
                }
                _ => v.push(MercAction::Assist {
                    who: a,
                    recall: None,
                    raid: None,
                }),
            }
        }
        if sheet.equipment > 0 {
            for from in Merc::ALL {
                for to in Merc::ALL {
                    if from != to && sheet.reserve[from.ix()] > 0 {
                        v.push(MercAction::Swap { from, to });
                    }
                }
            }
        }
    }
    v
}
