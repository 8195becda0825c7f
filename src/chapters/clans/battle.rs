//! A pillage, from the call to battle to its reward (C13–C17). The call lends the turn to each
//! clan asked, one after the other (`chapter::lend_turn`), and gives it back after the
//! pillager when it is over (`chapter::resume_after`), so a hot-seat partner answers behind the
//! hand-off screen and Chaos' AI answers on its own turn.
//!
//! - C14 Call to battle: from the pillager's left round to the pillager, each clan may move one
//!   of its figures from an adjacent province into an empty village of the province; ships do
//!   not move; no Rage. Reading (rules version 3): the call goes once round the table, the
//!   pillager last, one figure per clan at most, and ends early when every village is taken; a
//!   clan with nothing to bring is not asked; a clan at 0 Rage still answers (C11 speaks of the
//!   clan's own turn). Version 1–2 asked round and round until every clan said no in a row.
//! - C15 A province without villages takes any number of troops (still one figure per clan).
//! - C16 The pillager's side alone in the province (reading: the Eladrin seats are one side):
//!   no battle; the reward is taken, the token flips, no glory for a battle.
//! - C17 Otherwise every figure in the province or on an adjacent fjord fights: each clan in
//!   it plays a card from its hand face down (or none); battle cards add their STR. The
//!   highest side wins the battle and the reward; the others' figures die (to Valhalla, C7).
//!   Readings: the Eladrin seats add their STR; a tie destroys every side and nobody takes the
//!   reward; each winning clan gains its Axes' glory; the winners' cards are discarded, the
//!   losers' go back to hand. The winning side takes the reward (rules version 3): the pillager
//!   if its side won, else the winning clan with the most STR of its own in the battle (the
//!   first asked on a tie). Version 1–2 gave it to a winning pillager only.

use bevy::prelude::*;

use crate::content::{Camp, Who};
use crate::rules::chapter;
use crate::rules::tracks;
use crate::rules::version::Rules;
use crate::rules::{Action, GameWorld, Modifiers, Refusal};

use super::data::{ClanLevel, Fig, MAX_CHAOS, Reward, Track, level};
use super::reckon::{battle_str, boost, holder, present, room_in, strength};
use super::state::{Call, Clans, Owner, Spot, Stage};
use super::{ClanAction, ClanRefusal, GLORY, ID};

/// The core's `Who` of an owner.
fn who(o: Owner) -> Who {
    match o {
        Owner::Seat(s) => Who::Seat(s),
        Owner::Chaos => Who::Chaos,
    }
}

/// C14 (rules version 3): a call to battle goes once round the table, one figure per clan.
pub fn once_round(rules: Rules) -> bool {
    rules.at_least(3)
}

/// C17 (rules version 3): the side that wins the battle takes the province's reward, whoever
/// pillaged.
pub fn winner_takes_reward(rules: Rules) -> bool {
    rules.at_least(3)
}

/// Every clan, in seat order, Chaos last.
pub fn clans(st: &Clans) -> Vec<Owner> {
    st.sheets.keys().copied().collect()
}

/// C13: the pillage opens its call to battle.
pub fn open(world: &mut World, pillager: Owner, province: &str) {
    let mut st = world.resource::<Clans>().clone();
    let all = clans(&st);
    let i = all.iter().position(|o| *o == pillager).unwrap_or(0);
    let order = (1..=all.len()).map(|k| all[(i + k) % all.len()]).collect();
    st.call = Some(Call {
        province: province.into(),
        pillager,
        order,
        at: 0,
        declined: 0,
        stage: Stage::Gather,
        picks: Default::default(),
    });
    world.insert_resource(st);
    tell(
        world,
        Told::Called {
            owner: pillager,
            province: province.into(),
        },
    );
    advance(world);
}

/// The figures `o` could bring into the province: its own (not ships) in adjacent provinces.
pub fn bringable(lvl: &ClanLevel, st: &Clans, o: Owner, province: &str) -> Vec<(Fig, String)> {
    let mut v: Vec<(Fig, String)> = st
        .board
        .iter()
        .filter(|p| p.owner == o && p.fig != Fig::Ship)
        .filter_map(|p| match &p.at {
            Spot::Province(q) if lvl.adjacent(q, province) => Some((p.fig.clone(), q.clone())),
            _ => None,
        })
        .collect();
    v.dedup();
    v
}

/// Checks an answer to the call (the clan asked, the stage, the figure or the card).
pub fn check(lvl: &ClanLevel, st: &Clans, o: Owner, a: &ClanAction) -> Result<(), ClanRefusal> {
    let call = st.call.as_ref().ok_or(ClanRefusal::NoCall)?;
    if call.asks() != Some(o) {
        return Err(ClanRefusal::NoCall);
    }
    match (a, call.stage) {
        (ClanAction::Join { fig, from }, Stage::Gather) => {
            if *fig == Fig::Ship {
                return Err(ClanRefusal::ShipsStay);
            }
            let here = Spot::Province(from.clone());
            if !lvl.adjacent(from, &call.province)
                || !st.at(&here).any(|p| p.owner == o && p.fig == *fig)
            {
                return Err(ClanRefusal::NotAdjacent(from.clone()));
            }
            if !room_in(lvl, st, &call.province) {
                return Err(ClanRefusal::VillagesFull(call.province.clone()));
            }
            Ok(())
        }
        (ClanAction::Decline, Stage::Gather) => Ok(()),
        (ClanAction::Play { card }, Stage::Cards) => {
            if !present(lvl, st, o, &call.province) {
                return Err(ClanRefusal::NotInBattle);
            }
            let sheet = st.sheet(o).ok_or(ClanRefusal::NoSheet)?;
            if let Some(c) = card
                && !sheet.hand.contains(c)
            {
                return Err(ClanRefusal::NotInHand(c.clone()));
            }
            Ok(())
        }
        _ => Err(ClanRefusal::NoCall),
    }
}

/// The answers `o` may give now (none if it is not asked).
pub fn candidates(lvl: &ClanLevel, st: &Clans, o: Owner) -> Vec<ClanAction> {
    let Some(call) = &st.call else {
        return Vec::new();
    };
    if call.asks() != Some(o) {
        return Vec::new();
    }
    match call.stage {
        Stage::Gather => {
            let mut v = vec![ClanAction::Decline];
            for (fig, from) in bringable(lvl, st, o, &call.province) {
                v.push(ClanAction::Join { fig, from });
            }
            v
        }
        Stage::Cards => {
            let mut v = vec![ClanAction::Play { card: None }];
            let mut hand = st.sheet(o).map(|s| s.hand.clone()).unwrap_or_default();
            hand.sort();
            hand.dedup();
            v.extend(hand.into_iter().map(|c| ClanAction::Play { card: Some(c) }));
            v
        }
    }
}

/// Applies an answer (validated), then asks the next clan or settles the pillage.
pub fn answer(world: &mut World, o: Owner, a: &ClanAction) {
    let once = once_round(world.rules());
    let mut st = world.resource::<Clans>().clone();
    let Some(call) = st.call.as_mut() else { return };
    let n = call.order.len().max(1);
    match a {
        ClanAction::Join { fig, from } => {
            let to = Spot::Province(call.province.clone());
            if let Some(p) = st
                .board
                .iter_mut()
                .find(|p| p.owner == o && p.fig == *fig && p.at == Spot::Province(from.clone()))
            {
                p.at = to;
            }
            st.board.sort();
            if let Some(call) = st.call.as_mut() {
                call.declined = 0;
                call.at = if once { call.at + 1 } else { (call.at + 1) % n };
            }
        }
        ClanAction::Decline => {
            call.declined = call.declined.saturating_add(1);
            call.at = if once { call.at + 1 } else { (call.at + 1) % n };
        }
        ClanAction::Play { card } => {
            call.picks.insert(o, card.clone());
            call.at += 1;
        }
        _ => {}
    }
    world.insert_resource(st);
    advance(world);
}

/// Asks the next clan that has something to say, or ends the stage; lends it the turn.
fn advance(world: &mut World) {
    let lvl = level(world);
    let once = once_round(world.rules());
    // Each pass of the loop asks one clan or changes the stage; a call has at most nine clans
    // and two stages, so this bound is never reached by a sound state.
    for _ in 0..64 {
        let mut st = world.resource::<Clans>().clone();
        let Some(call) = st.call.clone() else { return };
        let n = call.order.len() as u32;
        match call.stage {
            Stage::Gather => {
                let round_done = if once {
                    call.at >= call.order.len()
                } else {
                    call.declined >= n
                };
                if !room_in(&lvl, &st, &call.province) || round_done {
                    gathered(world, &lvl);
                    continue;
                }
                let Some(o) = call.asks() else { return };
                if !bringable(&lvl, &st, o, &call.province).is_empty() {
                    chapter::lend_turn(world, who(o));
                    return;
                }
                if let Some(c) = st.call.as_mut() {
                    c.declined = c.declined.saturating_add(1);
                    c.at = if once {
                        c.at + 1
                    } else {
                        (c.at + 1) % call.order.len().max(1)
                    };
                }
                world.insert_resource(st);
            }
            Stage::Cards => match call.asks() {
                None => {
                    resolve(world, &lvl);
                    return;
                }
                Some(o) => {
                    chapter::lend_turn(world, who(o));
                    return;
                }
            },
        }
    }
}

/// C14 over: C16 the pillager's side alone takes the reward; else C17 the cards are asked of
/// the clans in the battle.
fn gathered(world: &mut World, lvl: &ClanLevel) {
    let mut st = world.resource::<Clans>().clone();
    let Some(call) = st.call.clone() else { return };
    let fighting: Vec<Owner> = call
        .order
        .iter()
        .copied()
        .filter(|o| present(lvl, &st, *o, &call.province))
        .collect();
    let side = call.pillager.side();
    if fighting.iter().all(|o| o.side() == side) {
        st.call = None;
        world.insert_resource(st);
        reward(world, lvl, call.pillager, &call.province, true);
        finish(world, call.pillager);
        return;
    }
    if let Some(c) = st.call.as_mut() {
        c.stage = Stage::Cards;
        c.order = fighting;
        c.at = 0;
    }
    world.insert_resource(st);
}

/// C17: each side's STR in the battle for `province`: (Eladrin seats, Chaos), figures and
/// battle cards picked; a card picked face down and not seen (`HIDDEN`, in a seat's view)
/// counts 0.
pub fn sides(lvl: &ClanLevel, st: &Clans, province: &str) -> (u32, u32) {
    let mut sum = figures(lvl, st, province);
    if let Some(c) = &st.call {
        for (o, pick) in &c.picks {
            let bonus = pick
                .as_deref()
                .and_then(|id| lvl.card(id))
                .map_or(0, battle_str);
            add_to(&mut sum, *o, bonus);
        }
    }
    sum
}

/// C17: each side's figures' STR in the battle for `province`: (Eladrin seats, Chaos).
pub fn figures(lvl: &ClanLevel, st: &Clans, province: &str) -> (u32, u32) {
    let fjords = lvl.fjords_of(province);
    let mut sum = (0, 0);
    for p in st
        .board
        .iter()
        .filter(|p| in_battle(&p.at, province, &fjords))
    {
        if let Some(s) = st.sheet(p.owner) {
            add_to(&mut sum, p.owner, strength(lvl, s, &p.fig));
        }
    }
    sum
}

/// Adds `n` to its owner's side of `sum` (saturating: STR read from a level).
fn add_to(sum: &mut (u32, u32), o: Owner, n: u32) {
    if o.side() {
        sum.0 = sum.0.saturating_add(n);
    } else {
        sum.1 = sum.1.saturating_add(n);
    }
}

fn in_battle(at: &Spot, province: &str, fjords: &[&str]) -> bool {
    match at {
        Spot::Province(q) => q == province,
        Spot::Fjord(f) => fjords.contains(&f.as_str()),
    }
}

/// C17: the battle fought.
fn resolve(world: &mut World, lvl: &ClanLevel) {
    let mut st = world.resource::<Clans>().clone();
    let Some(call) = st.call.clone() else { return };
    // Every pick is known here: in the real game always, and in an AI's copy of what it may
    // see the search guessed the hidden ones first (`Clans::guess`).
    let (eladrins, chaos) = sides(lvl, &st, &call.province);
    // Some(true): the Eladrin seats won; Some(false): Chaos; None: a tie, every side dies.
    let winner = match eladrins.cmp(&chaos) {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    };
    // C17: who takes the reward, counted before the losers fall.
    let taker = match winner {
        Some(side) if side == call.pillager.side() => Some(call.pillager),
        Some(side) if winner_takes_reward(world.rules()) => strongest(lvl, &st, &call, side),
        _ => None,
    };
    let fjords = lvl.fjords_of(&call.province);
    let (dead, alive): (Vec<_>, Vec<_>) = std::mem::take(&mut st.board)
        .into_iter()
        .partition(|p| in_battle(&p.at, &call.province, &fjords) && Some(p.owner.side()) != winner);
    st.board = alive;
    // Who fell, counted by clan in the order the call asked them (told after the battle).
    let mut fallen: Vec<(Owner, u32)> = call.order.iter().map(|o| (*o, 0)).collect();
    for p in dead {
        match fallen.iter_mut().find(|(o, _)| *o == p.owner) {
            Some(e) => e.1 = e.1.saturating_add(1),
            None => fallen.push((p.owner, 1)),
        }
        if let Some(s) = st.sheet_mut(p.owner) {
            s.valhalla.push(p.fig);
        }
    }
    let mut glory = Vec::new();
    for (o, pick) in &call.picks {
        let won = Some(o.side()) == winner;
        if won
            && let Some(c) = pick
            && let Some(s) = st.sheet_mut(*o)
            && let Some(i) = s.hand.iter().position(|h| h == c)
        {
            let c = s.hand.remove(i);
            st.discard.push(c);
        }
        if won && let Some(s) = st.sheet_mut(*o) {
            s.won = s.won.saturating_add(1);
            let axes = lvl.levels.value(Track::Axes, s.level(Track::Axes));
            glory.push((*o, axes.saturating_add(boost(lvl, s).win)));
        }
    }
    st.call = None;
    world.insert_resource(st);
    // Told as the table resolves it: the cards turned up, the winner, the fallen; the reward
    // follows.
    for o in &call.order {
        tell(
            world,
            Told::Turned {
                province: call.province.clone(),
                owner: *o,
                card: call.picks.get(o).cloned().flatten(),
            },
        );
    }
    tell(
        world,
        Told::Battle {
            province: call.province.clone(),
            eladrins,
            chaos,
            winner,
        },
    );
    for (o, n) in fallen.into_iter().filter(|(_, n)| *n > 0) {
        tell(
            world,
            Told::Fallen {
                province: call.province.clone(),
                owner: o,
                figures: n,
            },
        );
    }
    for (o, g) in glory {
        add_glory(world, o, g);
    }
    if let Some(o) = taker {
        reward(world, lvl, o, &call.province, o == call.pillager);
    }
    finish(world, call.pillager);
}

/// C17 (rules version 3): of the clans of the winning `side` in the battle, the one with the
/// most STR of its own there (its figures and its card); the first asked on a tie.
fn strongest(lvl: &ClanLevel, st: &Clans, call: &Call, side: bool) -> Option<Owner> {
    let fjords = lvl.fjords_of(&call.province);
    let own = |o: Owner| -> u32 {
        let Some(sheet) = st.sheet(o) else { return 0 };
        let figures = st
            .board
            .iter()
            .filter(|p| p.owner == o && in_battle(&p.at, &call.province, &fjords))
            .fold(0u32, |n, p| n.saturating_add(strength(lvl, sheet, &p.fig)));
        let card = call
            .picks
            .get(&o)
            .and_then(|c| c.as_deref())
            .and_then(|id| lvl.card(id))
            .map_or(0, battle_str);
        figures.saturating_add(card)
    };
    let mut best: Option<(Owner, u32)> = None;
    for o in call.order.iter().copied().filter(|o| o.side() == side) {
        let n = own(o);
        if best.is_none_or(|(_, b)| n > b) {
            best = Some((o, n));
        }
    }
    best.map(|(o, _)| o)
}

/// Adds glory to a clan's track.
pub fn add_glory(world: &mut World, o: Owner, g: u32) {
    if g > 0 {
        tracks::add(world, GLORY, holder(o), g.min(i32::MAX as u32) as i32);
    }
}

/// C13, C16, C17: the province's reward is taken by `o` and its token flips; a reward Chaos
/// takes feeds its corruption (reading: `chaos.attempts` more attempts in the next R6). Only
/// the pillager (`pillaged`) counts a pillage and its upgrades' pillage glory; a defender that
/// won the battle takes the reward alone.
fn reward(world: &mut World, lvl: &ClanLevel, o: Owner, province: &str, pillaged: bool) {
    let mut st = world.resource::<Clans>().clone();
    st.pillaged.push(province.into());
    let Some(p) = lvl.province(province) else {
        world.insert_resource(st);
        return;
    };
    let mut glory: u32 = 0;
    if let Some(s) = st.sheet_mut(o) {
        if pillaged {
            s.pillaged = s.pillaged.saturating_add(1);
            glory = glory.saturating_add(boost(lvl, s).pillage);
        }
        match p.reward {
            Reward::Glory(g) => glory = glory.saturating_add(g),
            Reward::Level(t) => {
                let top = lvl.levels.of(t).len().saturating_sub(1) as u8;
                s.levels[t.ix()] = s.levels[t.ix()].saturating_add(1).min(top);
            }
        }
    }
    world.insert_resource(st);
    add_glory(world, o, glory);
    if o == Owner::Chaos && lvl.chaos.attempts > 0 {
        // A level's check bounds it (`MAX_CHAOS`); an unchecked one still can't wrap.
        let mut m = world.resource_mut::<Modifiers>();
        m.pending_attempts = m
            .pending_attempts
            .saturating_add(lvl.chaos.attempts.min(MAX_CHAOS));
    }
    let told = if pillaged {
        Told::Pillaged {
            owner: o,
            province: province.into(),
        }
    } else {
        Told::Defended {
            owner: o,
            province: province.into(),
        }
    };
    tell(world, told);
}

/// The pillage is over: the turn goes on after the pillager, as after its action.
fn finish(world: &mut World, pillager: Owner) {
    chapter::resume_after(world, who(pillager));
}

/// While a call to battle is open it is answered first: the core's pass is refused (C14).
pub fn veto(world: &mut World, _by: Camp, a: &Action) -> Option<Refusal> {
    let open = world
        .get_resource::<Clans>()
        .is_some_and(|s| s.call.is_some());
    (open && matches!(a, Action::Pass)).then(|| chapter::refusal(ID, &ClanRefusal::CallOpen))
}

/// What the chapter tells (`GameEvent::Chapter`), for the log and the view.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Told {
    /// A clan called to battle over a province (C13, C14).
    Called {
        /// Who pillages.
        owner: Owner,
        /// The province.
        province: String,
    },
    /// A battle was fought (C17).
    Battle {
        /// The province.
        province: String,
        /// The Eladrin seats' STR.
        eladrins: u32,
        /// Chaos' STR.
        chaos: u32,
        /// Some(true): the Eladrins won; Some(false): Chaos; none: a tie.
        winner: Option<bool>,
    },
    /// A clan's card of the battle turned up (C17), or none played; told before the battle.
    Turned {
        /// The province fought over.
        province: String,
        /// Whose.
        owner: Owner,
        /// The card, if it played one.
        card: Option<String>,
    },
    /// A clan's figures that lost the battle went to Valhalla (C7, C17); told after it.
    Fallen {
        /// The province fought over.
        province: String,
        /// Whose.
        owner: Owner,
        /// How many.
        figures: u32,
    },
    /// A province was pillaged (C13, C16).
    Pillaged {
        /// Who.
        owner: Owner,
        /// The province.
        province: String,
    },
    /// A clan that defended a province won the battle and took its reward (C17).
    Defended {
        /// Who.
        owner: Owner,
        /// The province.
        province: String,
    },
    /// A quest was checked (C10).
    Quest {
        /// Whose.
        owner: Owner,
        /// The card.
        card: String,
        /// Fulfilled.
        met: bool,
    },
    /// Figures came back from Valhalla (C7).
    Released {
        /// Whose.
        owner: Owner,
        /// How many.
        figures: u32,
    },
}

/// Tells something of the chapter.
pub fn tell(world: &mut World, t: Told) {
    chapter::tell(world, ID, t);
}
