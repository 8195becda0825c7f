//! The Guide's turn (D1–D12): where an advance or a brake takes the dragoness (`plan`, pure, so
//! the rules, the AI and the view read the same course), and what happens when she moves
//! (`walk`): teams crossed (D4), her stop (D3, D5), the Gate (D6), the chasm (D7–D9), the White
//! Tomb and its countdown (D10–D12).
//!
//! - D1 On a red cell the Guide may only advance her one cell (+1 gem).
//! - D2 On the course: advance by the active teams (`speeds`, +1 gem) or brake one cell (1 gem).
//! - D3 Her stop: a mystery token is the Guide's (its gems); a zone hazard is paid and won.
//! - D4 A team she crosses is lost unless spared (quest, hero, ring, invincible).
//! - D5 A move that ends on a team's pawn goes on one cell (again while it does).
//! - D6 Reaching or passing the Gate seals it; teams outside are removed, their seats ghosts.
//! - D7 In the chasm she heads for the White Tomb if revealed, else the nearest hidden room
//!   (the Guide chooses between rooms as near).
//! - D8 A room she enters is revealed (the Guide pays its reveal) and she stops there.
//! - D9 The Chamber of the Octuple: the portal token is placed, its guardian dies (another
//!   room's guardian wakes when she reveals it, as when a team does).
//! - D10 In the White Tomb she stops for good; the countdown runs from the next Guide turn.
//! - D11 Each Guide turn then starts with a gem drawn (a d6, rerolled above the colours) onto
//!   its colour's slot; a slot taken already: the Guide keeps the gem.
//! - D12 All slots filled: every team in the chasm is lost and the game ends.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::{At, Camp, Who};
use crate::rules::event::Cause;
use crate::rules::main_phase::at_of;
use crate::rules::tracks::{self, Holder};
use crate::rules::units::{self, Army};
use crate::rules::{CycleOrder, GameRng, GameWorld, Outpost};

use super::data::{CellKind, DragonessLevel, MAX_COLOURS, RoomKind, hex, level};
use super::state::{Dragoness, Gone};
use super::{DragonRefusal, GEMS, GUIDE_STEP, ID};

/// What the chapter tells (`GameEvent::Chapter`), for the log, the view and the sounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Told {
    /// She moved over these hexes (D1, D2).
    Walked {
        /// The hexes entered, in order.
        path: Vec<At>,
        /// The Guide braked.
        braked: bool,
    },
    /// A team she crossed is lost (D4), or the countdown caught it (D12).
    TeamLost {
        /// Its army.
        army: u32,
        /// Where its RIP token lies.
        at: At,
        /// The rule.
        rule: String,
    },
    /// A team she crossed is spared (D4), and why.
    TeamSpared {
        /// Its army.
        army: u32,
        /// Why.
        why: Spared,
    },
    /// The Gate is sealed (D6).
    Sealed,
    /// A team outside the sealed chasm left the board (D6).
    TeamRemoved {
        /// Its army.
        army: u32,
    },
    /// A room is revealed (D8), by her or a team.
    Revealed {
        /// The room's id.
        room: String,
        /// Its name.
        name: String,
        /// By the dragoness.
        by_her: bool,
    },
    /// A token or a hazard on the route is revealed (D3).
    Token {
        /// What it was.
        name: String,
        /// By the dragoness (the Guide's), else a team's.
        by_her: bool,
    },
    /// She entered the White Tomb (D10).
    Entombed,
    /// A gem is drawn (D11): placed on its slot, or kept by the Guide.
    Gem {
        /// Its colour (index into the level's colours).
        colour: usize,
        /// The colour's name.
        name: String,
        /// Placed on its slot.
        placed: bool,
    },
    /// A team revealed step I of a quest.
    Quest {
        /// The team's army.
        army: u32,
        /// The quest's name.
        quest: String,
    },
    /// The relic is placed (D13): the countdown stops.
    Relic {
        /// The team's army.
        army: u32,
        /// The quest's name.
        quest: String,
        /// Gems it took from the slots.
        gems: usize,
    },
    /// A team left through the portal token (D9).
    Escaped {
        /// Its army.
        army: u32,
    },
}

/// Why the dragoness spares a team (D4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Spared {
    /// It revealed a quest that protects (*Spirit of Okaënia*).
    Quest,
    /// Its hero (*Enoriel*) is alive.
    Hero,
    /// It holds the *Draconis Ring*.
    Ring,
    /// It is invincible.
    Invincible,
}

/// Tells an event of the chapter.
pub fn tell(world: &mut World, what: Told) {
    crate::rules::chapter::tell(world, ID, what);
}

/// Where she is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pos {
    /// On the route, at this cell.
    Route(usize),
    /// In the chasm, on this hex.
    Deep(Hex),
}

impl Pos {
    /// Her position in a state.
    pub fn of(st: &Dragoness) -> Pos {
        match st.deep {
            Some(a) => Pos::Deep(hex(a)),
            None => Pos::Route(st.at),
        }
    }
    /// Its hex.
    pub fn hex(self, lvl: &DragonessLevel) -> Hex {
        match self {
            Pos::Route(i) => lvl.route.get(i).map_or(Hex::ZERO, |c| hex(c.at)),
            Pos::Deep(h) => h,
        }
    }
}

/// Her course for one Guide action, computed without changing anything.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// The hexes she enters, in order.
    pub path: Vec<Hex>,
    /// Where she ends (`None`: she does not move).
    pub end: Option<Pos>,
    /// Teams on the hexes she enters (army ids), in order.
    pub crossed: Vec<u32>,
    /// Those of them lost (D4).
    pub lost: Vec<u32>,
    /// She reaches or passes the Gate, not sealed yet (D6).
    pub seals: bool,
    /// The hidden room she reveals and stops in (D8).
    pub reveals: Option<String>,
    /// Gems the move gains (negative: costs), before the stop's own (D1, D2).
    pub gems: i32,
}

/// The teams on the board: hex → army ids (by id).
pub fn team_pawns(world: &mut World, st: &Dragoness) -> BTreeMap<At, Vec<u32>> {
    let mut out: BTreeMap<At, Vec<u32>> = BTreeMap::new();
    for id in st.teams.keys() {
        if let Some(e) = world.army_by_id(*id)
            && let Some(a) = world.get::<Army>(e)
        {
            out.entry(at_of(a.hex)).or_default().push(*id);
        }
    }
    out
}

/// How many teams are active (D2): teams in play whose army stands.
pub fn active_teams(world: &mut World, st: &Dragoness) -> usize {
    team_pawns(world, st).values().map(Vec::len).sum()
}

/// Why a team is spared (D4), if it is: the first of `spares`.
pub fn spared(
    world: &mut World,
    lvl: &DragonessLevel,
    st: &Dragoness,
    army: u32,
) -> Option<Spared> {
    let units: Vec<String> = world
        .army_by_id(army)
        .and_then(|e| world.get::<Army>(e))
        .map(|a| a.units.iter().map(|u| u.kind.clone()).collect())
        .unwrap_or_default();
    let cycle = world.resource::<crate::rules::Cycle>().number;
    spares(lvl, st, army, &units, cycle).first().copied()
}

/// Everything that spares a team (D4) whose army holds `units` (their kinds) at `cycle`: a
/// quest it revealed that protects, its hero alive, the Ring, its invincibility. In that order;
/// empty when she would take it.
pub fn spares(
    lvl: &DragonessLevel,
    st: &Dragoness,
    army: u32,
    units: &[String],
    cycle: u32,
) -> Vec<Spared> {
    let Some(team) = st.teams.get(&army) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let protects = |q: &String| lvl.quests.iter().any(|x| x.protects && x.id == *q);
    if team.quests.iter().any(protects) {
        out.push(Spared::Quest);
    }
    if units.iter().any(|u| lvl.heroes.contains(u)) {
        out.push(Spared::Hero);
    }
    if team.ring {
        out.push(Spared::Ring);
    }
    if team.invincible_until >= cycle && team.invincible_until > 0 {
        out.push(Spared::Invincible);
    }
    out
}

/// The hidden rooms nearest `from` through the chasm, and the path to each (D7); the White
/// Tomb alone once it is revealed. In the level's room order.
pub fn targets(lvl: &DragonessLevel, st: &Dragoness, from: Hex) -> Vec<(At, Vec<Hex>)> {
    let paths = paths_from(lvl, from);
    let to = |at: At| paths.get(&at).cloned().map(|p| (at, p));
    if let Some(t) = lvl.tomb().filter(|t| st.is_revealed(&t.id)) {
        return to(t.at).into_iter().collect();
    }
    let hidden: Vec<(At, Vec<Hex>)> = lvl
        .rooms
        .iter()
        .filter(|r| !st.is_revealed(&r.id))
        .filter_map(|r| to(r.at))
        .collect();
    let Some(near) = hidden.iter().map(|(_, p)| p.len()).min() else {
        return Vec::new();
    };
    hidden
        .into_iter()
        .filter(|(_, p)| p.len() == near)
        .collect()
}

/// Shortest paths through the chasm from `from` (the hexes entered, `from` excluded), by a
/// breadth-first search in hexx's neighbour order, so the same level walks the same way.
fn paths_from(lvl: &DragonessLevel, from: Hex) -> BTreeMap<At, Vec<Hex>> {
    let mut parent: BTreeMap<At, Hex> = BTreeMap::new();
    let mut todo = VecDeque::from([from]);
    let mut seen = BTreeSet::from([at_of(from)]);
    while let Some(h) = todo.pop_front() {
        for n in h.all_neighbors() {
            if lvl.inside(n) && seen.insert(at_of(n)) {
                parent.insert(at_of(n), h);
                todo.push_back(n);
            }
        }
    }
    let mut out = BTreeMap::new();
    for &end in parent.keys() {
        let mut path = vec![hex(end)];
        let mut at = end;
        while let Some(&p) = parent.get(&at) {
            if p == from {
                break;
            }
            path.push(p);
            at = at_of(p);
        }
        path.reverse();
        out.insert(end, path);
    }
    out
}

/// Where an advance (`brake` false) or a brake takes her, heading for `toward` among rooms as
/// near (D7; `None`: the first in the level's order). Refused as the rules say.
pub fn plan(
    world: &mut World,
    lvl: &DragonessLevel,
    st: &Dragoness,
    brake: bool,
    toward: Option<At>,
) -> Result<Plan, DragonRefusal> {
    if st.entombed {
        return Err(DragonRefusal::Entombed);
    }
    let start = Pos::of(st);
    let red =
        matches!(start, Pos::Route(i) if lvl.route.get(i).is_some_and(|c| c.kind == CellKind::Red));
    if brake && red {
        return Err(DragonRefusal::RedCell);
    }
    let gems = tracks::get(world, GEMS, Holder::Camp(guide(world)));
    if brake && gems < lvl.brake_cost {
        return Err(DragonRefusal::NoGems {
            need: lvl.brake_cost,
            have: gems,
        });
    }
    let pawns = team_pawns(world, st);
    let n = if brake || red {
        1
    } else {
        lvl.speed(active_teams(world, st))
    };
    // In the chasm the Guide's choice between rooms as near holds for the whole move; it is
    // made from where she enters it (the Gate) when she is still on the route.
    if let Some(t) = toward {
        let from = match start {
            Pos::Deep(h) => Some(h),
            Pos::Route(_) => lvl.gate(),
        };
        let near = from.map(|f| targets(lvl, st, f)).unwrap_or_default();
        if !near.iter().any(|(a, _)| *a == t) {
            return Err(DragonRefusal::NotNearest(t));
        }
    }
    let mut p = Plan {
        gems: if brake {
            lvl.brake_cost.saturating_neg()
        } else {
            lvl.advance_gain
        },
        ..Plan::default()
    };
    let mut pos = start;
    let mut stopped = false;
    let walk = |pos: &mut Pos, p: &mut Plan, steps: u32| -> bool {
        for _ in 0..steps {
            let Some(next) = step(lvl, st, *pos, toward) else {
                return false;
            };
            *pos = next;
            let h = next.hex(lvl);
            p.path.push(h);
            if let Some(ids) = pawns.get(&at_of(h)) {
                p.crossed.extend(ids.iter().copied());
            }
            if matches!(next, Pos::Route(i) if i + 1 == lvl.route.len()) && !st.sealed {
                p.seals = true;
            }
            if let Some(room) = lvl.room_at(h) {
                if !st.is_revealed(&room.id) {
                    p.reveals = Some(room.id.clone());
                    return true;
                }
                if room.kind == RoomKind::Tomb {
                    return true;
                }
            }
        }
        false
    };
    stopped |= walk(&mut pos, &mut p, n as u32);
    // D5: a move that ends on a pawn goes on (bounded: a route is finite).
    for _ in 0..MAX_PAWN_STEPS {
        if stopped || lvl.pawn_extra == 0 {
            break;
        }
        let on_pawn = p
            .path
            .last()
            .is_some_and(|h| pawns.get(&at_of(*h)).is_some_and(|v| !v.is_empty()));
        if !on_pawn {
            break;
        }
        let before = p.path.len();
        stopped |= walk(&mut pos, &mut p, lvl.pawn_extra as u32);
        if p.path.len() == before {
            break;
        }
    }
    if !p.path.is_empty() {
        p.end = Some(pos);
    }
    p.crossed.dedup();
    let crossed = p.crossed.clone();
    for id in crossed {
        if spared(world, lvl, st, id).is_none() {
            p.lost.push(id);
        }
    }
    Ok(p)
}

/// The most extra cells D5 may add in one move.
const MAX_PAWN_STEPS: usize = 64;

/// Her next cell from `pos`: on along the route, then through the chasm towards her aim (D7).
fn step(lvl: &DragonessLevel, st: &Dragoness, pos: Pos, toward: Option<At>) -> Option<Pos> {
    let here = match pos {
        Pos::Route(i) if i + 1 < lvl.route.len() => return Some(Pos::Route(i + 1)),
        Pos::Route(_) => lvl.gate()?,
        Pos::Deep(h) => h,
    };
    let near = targets(lvl, st, here);
    let pick = toward
        .and_then(|t| near.iter().find(|(a, _)| *a == t))
        .or(near.first())?;
    pick.1.first().map(|h| Pos::Deep(*h))
}

/// Who decides the Guide's step in this level (Chaos by default; `by` in the level's steps).
fn guide_who(world: &World) -> Who {
    world
        .get_resource::<CycleOrder>()
        .and_then(|o| o.0.iter().find(|d| d.id == GUIDE_STEP).map(|d| d.kind))
        .and_then(|k| match k {
            crate::rules::StepKind::Decision { by, .. } => Some(by),
            _ => None,
        })
        .unwrap_or(Who::Chaos)
}

/// The camp that guides: whoever decides the Guide's step in this level (Chaos by default).
pub fn guide(world: &World) -> Camp {
    guide_who(world).camp()
}

/// The Eladrin seat that guides this cycle when the level gives the Guide's step to the
/// Eladrins as a camp (`by: Eladrins`): the seats guide in turn, one a cycle; once some seats
/// are Ghost-Guides (D6: their teams left the board, they play the Guide on their turns), the
/// ghosts guide in turn and the seats still leading teams lead them. None when Chaos guides or
/// the level names the seat (the core gives that seat the step).
pub fn guide_seat(world: &World, st: &Dragoness) -> Option<u8> {
    if guide_who(world) != Who::Eladrins {
        return None;
    }
    let turn = world
        .resource::<crate::rules::Cycle>()
        .number
        .saturating_sub(1) as usize;
    if !st.ghosts.is_empty() {
        return Some(st.ghosts[turn % st.ghosts.len()]);
    }
    let seats = crate::rules::chapter::seats(world).max(1) as usize;
    Some((turn % seats) as u8)
}

/// Moves her as the Guide asked (validated already): D1–D10.
pub fn walk(world: &mut World, brake: bool, toward: Option<At>) {
    let lvl = level(world);
    let st = world.resource::<Dragoness>().clone();
    let Ok(p) = plan(world, &lvl, &st, brake, toward) else {
        return;
    };
    let camp = guide(world);
    tracks::add(world, GEMS, Holder::Camp(camp), p.gems);
    tell(
        world,
        Told::Walked {
            path: p.path.iter().map(|h| at_of(*h)).collect(),
            braked: brake,
        },
    );
    {
        let mut s = world.resource_mut::<Dragoness>();
        s.moved = true;
        match p.end {
            Some(Pos::Route(i)) => s.at = i,
            Some(Pos::Deep(h)) => {
                s.at = lvl.route.len().saturating_sub(1);
                s.deep = Some(at_of(h));
            }
            None => {}
        }
    }
    // D4: the teams crossed.
    for id in &p.crossed {
        if p.lost.contains(id) {
            lose(world, *id, "D4");
        } else if let Some(why) = spared(world, &lvl, &st, *id) {
            tell(world, Told::TeamSpared { army: *id, why });
        }
    }
    if p.seals {
        seal(world, &lvl);
    }
    let Some(end) = p.end else {
        return;
    };
    match end {
        Pos::Route(i) => stop_on_route(world, &lvl, i, camp),
        Pos::Deep(h) => {
            if let Some(id) = p.reveals {
                reveal_by_her(world, &lvl, &id, camp);
            } else if lvl.room_at(h).is_some_and(|r| r.kind == RoomKind::Tomb) {
                entomb(world);
            }
        }
    }
}

/// D3: her stop on a route cell with a token not taken yet.
fn stop_on_route(world: &mut World, lvl: &DragonessLevel, i: usize, camp: Camp) {
    let Some(cell) = lvl.route.get(i) else {
        return;
    };
    if world.resource::<Dragoness>().taken.contains(&i) {
        return;
    }
    let (name, gain) = match cell.kind {
        CellKind::Mystery => {
            let Some(f) = draw(world, &lvl.mysteries) else {
                return;
            };
            (f.name.clone(), f.gems)
        }
        CellKind::Hazard => {
            let Some(h) = draw(world, &lvl.hazards) else {
                return;
            };
            (h.find.name.clone(), h.find.gems.saturating_sub(h.cost))
        }
        _ => return,
    };
    world.resource_mut::<Dragoness>().taken.push(i);
    tracks::add(world, GEMS, Holder::Camp(camp), gain);
    tell(world, Told::Token { name, by_her: true });
}

/// A card drawn at random from a level's list (mystery tokens, hazards): the same seed draws
/// the same card.
pub fn draw<T: Clone>(world: &mut World, from: &[T]) -> Option<T> {
    if from.is_empty() {
        return None;
    }
    let i = world.resource_mut::<GameRng>().below(from.len());
    from.get(i).cloned()
}

/// A room revealed (D8), by her or a team: marked and told.
pub fn reveal(
    world: &mut World,
    lvl: &DragonessLevel,
    id: &str,
    by_her: bool,
) -> Option<super::data::Room> {
    let room = lvl.rooms.iter().find(|r| r.id == id).cloned()?;
    world
        .resource_mut::<Dragoness>()
        .revealed
        .push(room.id.clone());
    tell(
        world,
        Told::Revealed {
            room: room.id.clone(),
            name: room.name.clone(),
            by_her,
        },
    );
    Some(room)
}

/// D8, D9, D10: she reveals a room, the Guide pays its reveal, she stays there.
fn reveal_by_her(world: &mut World, lvl: &DragonessLevel, id: &str, camp: Camp) {
    let Some(room) = reveal(world, lvl, id, true) else {
        return;
    };
    tracks::add(
        world,
        GEMS,
        Holder::Camp(camp),
        room.reveal.saturating_neg(),
    );
    match room.kind {
        // D9: she kills the guardian; the portal token is placed.
        RoomKind::Octuple => world.resource_mut::<Dragoness>().portal = true,
        // Another room's guardian wakes, her or not (D9 names the Octuple's only).
        RoomKind::Tomb => {
            wake_guardian(world, &room);
            entomb(world);
        }
        RoomKind::Plain => wake_guardian(world, &room),
    }
}

/// A revealed room's guardian (Chaos units) stands in it and holds it (D9): it never marches
/// off (`teams::veto`), so a team must beat it to take what the room holds.
pub fn wake_guardian(world: &mut World, room: &super::data::Room) {
    if room.guardian.is_empty() {
        return;
    }
    let at = hex(room.at);
    for kind in &room.guardian {
        units::spawn(world, Camp::Chaos, at, kind, 1);
    }
    let g = world
        .armies_where(|x| x.camp == Camp::Chaos && x.hex == at)
        .first()
        .and_then(|e| world.get::<Army>(*e))
        .map(|a| a.id);
    if let Some(g) = g {
        let mut s = world.resource_mut::<Dragoness>();
        if !s.guardians.contains(&g) {
            s.guardians.push(g);
        }
    }
}

/// D10: she stays in the White Tomb for good.
fn entomb(world: &mut World) {
    let lvl = level(world);
    let mut s = world.resource_mut::<Dragoness>();
    if s.entombed {
        return;
    }
    s.entombed = true;
    s.slots = vec![false; lvl.colours.len().min(MAX_COLOURS)];
    tell(world, Told::Entombed);
}

/// D6: the Gate sealed for good; the teams outside leave the board, their seats become
/// Ghost-Guides.
pub fn seal(world: &mut World, lvl: &DragonessLevel) {
    world.resource_mut::<Dragoness>().sealed = true;
    tell(world, Told::Sealed);
    let mut removed_seats = Vec::new();
    for id in world.resource::<Dragoness>().team_ids() {
        let Some(a) = world
            .army_by_id(id)
            .and_then(|e| world.get::<Army>(e).cloned())
        else {
            continue;
        };
        if lvl.inside(a.hex) {
            continue;
        }
        // Its heroes live: the army goes home, no longer a team.
        send_home(world, id, Gone::Removed);
        removed_seats.push(a.seat.unwrap_or(0));
        tell(world, Told::TeamRemoved { army: id });
    }
    // A seat left with no team in play guides as a ghost.
    let seats_in_play: Vec<u8> = world
        .resource::<Dragoness>()
        .team_ids()
        .into_iter()
        .filter_map(|t| {
            let e = world.army_by_id(t)?;
            world.get::<Army>(e).map(|a| a.seat.unwrap_or(0))
        })
        .collect();
    let mut s = world.resource_mut::<Dragoness>();
    for seat in removed_seats {
        if !seats_in_play.contains(&seat) && !s.ghosts.contains(&seat) {
            s.ghosts.push(seat);
        }
    }
    s.ghosts.sort();
}

/// A team leaves the board alive (D6 removed, D9 escaped): its army goes to the first Eladrin
/// outpost (by id) and is no longer a team.
pub fn send_home(world: &mut World, id: u32, how: Gone) {
    let home = world
        .outposts()
        .into_iter()
        .find_map(|o| world.get::<Outpost>(o).map(|x| x.hex));
    let Some(e) = world.army_by_id(id) else {
        return;
    };
    let Some(a) = world.get::<Army>(e).cloned() else {
        return;
    };
    if let (Some(h), Some(mut am)) = (home, world.get_mut::<Army>(e)) {
        am.hex = h;
    }
    let mut s = world.resource_mut::<Dragoness>();
    s.teams.remove(&id);
    s.gone.push((id, a.seat, at_of(a.hex), how));
}

/// A team is lost (D4, D12): a RIP token on its hex, its units dead (its heroes discarded).
pub fn lose(world: &mut World, id: u32, rule: &str) {
    let Some(e) = world.army_by_id(id) else {
        world.resource_mut::<Dragoness>().teams.remove(&id);
        return;
    };
    let Some(a) = world.get::<Army>(e).cloned() else {
        return;
    };
    {
        let mut s = world.resource_mut::<Dragoness>();
        s.teams.remove(&id);
        s.gone.push((id, a.seat, at_of(a.hex), Gone::Lost));
    }
    if let Some(mut am) = world.get_mut::<Army>(e) {
        for u in am.units.iter_mut() {
            u.wounds = u8::MAX;
        }
    }
    units::cull(world, e, Cause::Rule(rule.to_string()));
    tell(
        world,
        Told::TeamLost {
            army: id,
            at: at_of(a.hex),
            rule: rule.to_string(),
        },
    );
}

/// The Guide's turn begins (D11, D12): a new move, and in the Tomb a gem drawn.
pub fn begin_turn(world: &mut World) {
    prune(world);
    world.resource_mut::<Dragoness>().moved = false;
    // The Eladrins guide in turn: this cycle's Guide seat takes the step (and the hot-seat
    // hand-off screen shows the board to that player).
    let seat = guide_seat(world, &world.resource::<Dragoness>().clone());
    world.resource_mut::<Dragoness>().guide_seat = seat;
    if seat.is_some() {
        world.resource_mut::<crate::rules::Cycle>().seat = seat;
    }
    let st = world.resource::<Dragoness>().clone();
    if !st.entombed || st.relic.is_some() {
        return;
    }
    let lvl = level(world);
    let n = lvl.colours.len().clamp(1, MAX_COLOURS);
    // A d6, rerolled above the colours (bounded), so tests script the draw.
    let mut colour = 0;
    for _ in 0..100 {
        let f = world.resource_mut::<GameRng>().d6() as usize;
        if (1..=n).contains(&f) {
            colour = f - 1;
            break;
        }
    }
    let placed = {
        let mut s = world.resource_mut::<Dragoness>();
        if s.slots.len() < n {
            s.slots.resize(n, false);
        }
        let free = !s.slots[colour];
        s.slots[colour] = true;
        free
    };
    if !placed {
        let camp = guide(world);
        tracks::add(world, GEMS, Holder::Camp(camp), 1);
    }
    let name = lvl.colours.get(colour).cloned().unwrap_or_default();
    tell(
        world,
        Told::Gem {
            colour,
            name,
            placed,
        },
    );
    if world.resource::<Dragoness>().slots.iter().all(|s| *s) {
        // D12: every team in the chasm is lost.
        let inside: Vec<u32> = team_pawns(world, &st)
            .into_iter()
            .filter(|(h, _)| lvl.inside(hex(*h)))
            .flat_map(|(_, ids)| ids)
            .collect();
        for id in inside {
            lose(world, id, "D12");
        }
    }
}

/// Teams whose army is gone (a battle) leave the game: they leave no RIP token
/// (D4 lays those).
pub fn prune(world: &mut World) {
    let ids: Vec<u32> = world.resource::<Dragoness>().team_ids();
    for id in ids {
        if world.army_by_id(id).is_none() {
            world.resource_mut::<Dragoness>().teams.remove(&id);
        }
    }
}

/// The Guide's step stays open until she moved (or cannot move: in the Tomb).
pub fn open(world: &mut World) -> bool {
    let s = world.resource::<Dragoness>();
    !s.moved && !s.entombed
}
