//! The Eladrin side of the chapter: the expedition's teams (Eladrin armies marked as such at
//! the start), what they find on her route and in the chasm, the relic quests, the portal
//! token, and the Gate they may no longer cross once it is sealed.
//!
//! - Setup: the Eladrin armies standing on the level's `teams` hexes are the teams, each with
//!   the level's `rations`.
//! - Rations (step `DRATIONS`, before the upkeep R5): each team lays on its tile the food it
//!   eats this upkeep (R5.3), from its rations while they last, so it eats far from any outpost
//!   (R5.1) until they run out; then famine (R5.4).
//! - D3 (a team's stop): a team that ends a move on a token of the route resolves it.
//! - D6: once sealed, no team crosses the Gate (`veto`); only teams ever enter the chasm.
//! - D8 (a team's reveal): a team that walks into a hidden room reveals it: it finds what the
//!   room holds and meets its guardian (the dragoness kills it instead, D9).
//! - The teams' orders (a quest, the relic, the portal) are a turn of the main phase, like an
//!   activation, given by the seat the team belongs to.
//! - Quests: a team on a quest's site reveals its step I, once for the game (one team holds
//!   it); D4 spares the team whose quest says so.
//! - Rooms: a team in a room no guardian holds takes what it holds, once (a quest's relic
//!   token among them).
//! - D13: a team that revealed a quest and carries its relic token places it in the White
//!   Tomb (step II), once she
//!   lies there (D10) and no guardian holds it: the countdown stops for good, its gems go to
//!   the team's camp, the Eladrins win.
//! - D9: a team in the Chamber of the Octuple, its guardian beaten, leaves by the portal token.
//!   A room's guardian holds its room: it never marches off (`veto`).

use bevy::prelude::*;

use crate::content::{Camp, Effect, Res};
use crate::rules::chapter;
use crate::rules::event::Cause;
use crate::rules::tracks::{self, Holder};
use crate::rules::units::{self, Army};
use crate::rules::{Action, Cycle, GameEvent, GameWorld};

use super::data::{CellKind, DragonessLevel, Find, RoomKind, hex, level};
use super::guide::{Told, draw, prune, tell};
use super::state::{Dragoness, Gone, Team};
use super::{DragonRefusal, GEMS, GUIDE_STEP, ID};

/// Marks the level's expedition teams and checks the level's fields (a broken level does not
/// start: the error names the field).
pub fn setup(world: &mut World) -> Result<(), String> {
    let lvl = chapter::level_ext::<DragonessLevel>(world, ID)?;
    let board = world.resource::<crate::rules::Board>().clone();
    let problems = lvl.check(|h| board.contains(h));
    if !problems.is_empty() {
        let level = world.resource::<crate::rules::GameSetup>().level.clone();
        return Err(format!(
            "level `{level}`: ext.{ID}: {}",
            problems.join("; ")
        ));
    }
    let mut s = Dragoness {
        at: lvl.start,
        ..Dragoness::default()
    };
    // The Eladrin armies on a team's hex (a difficulty's extra warden, a campaign's veterans)
    // form that one team: a team is one pawn.
    for t in &lvl.teams {
        let on: Vec<Entity> = world.armies_where(|a| a.camp == Camp::Eladrins && a.hex == hex(*t));
        let Some((first, rest)) = on.split_first() else {
            continue;
        };
        for e in rest {
            let units = world
                .get::<Army>(*e)
                .map(|a| a.units.clone())
                .unwrap_or_default();
            if let Some(mut a) = world.get_mut::<Army>(*first) {
                a.units.extend(units);
            }
            world.despawn(*e);
        }
    }
    for e in world.armies() {
        let Some(a) = world.get::<Army>(e) else {
            continue;
        };
        if a.camp == Camp::Eladrins && lvl.teams.iter().any(|t| hex(*t) == a.hex) {
            s.teams.insert(
                a.id,
                Team {
                    rations: lvl.rations,
                    ..Team::default()
                },
            );
        }
    }
    world.insert_resource(s);
    Ok(())
}

/// Rations: each tile with teams gets what they eat this upkeep (R5.3), less what lies there
/// already, from their rations in the order of their ids.
pub fn lay_rations(world: &mut World) {
    prune(world);
    let st = world.resource::<Dragoness>().clone();
    for (at, ids) in super::guide::team_pawns(world, &st) {
        let h = hex(at);
        let mut need: u32 = 0;
        for id in &ids {
            if let Some(a) = world
                .army_by_id(*id)
                .and_then(|e| world.get::<Army>(e).cloned())
            {
                let (food, _) = crate::rules::upkeep::maintenance::army_needs(world, &a);
                need = need.saturating_add(food);
            }
        }
        let lying = world.tile(h).map_or(0, |t| t.lying.get(Res::Food));
        let mut lay = need.saturating_sub(lying);
        for id in ids {
            let Some(t) = world
                .resource_mut::<Dragoness>()
                .teams
                .get_mut(&id)
                .map(|t| {
                    let n = lay.min(t.rations);
                    t.rations -= n;
                    n
                })
            else {
                continue;
            };
            lay -= t;
            if let Some(mut tile) = world.tile_mut(h) {
                tile.lying.add(Res::Food, t);
            }
        }
    }
}

/// The team `army` that the seat acting now may command (a team of another seat is not
/// its to order).
pub fn team(world: &mut World, army: u32) -> Result<Army, DragonRefusal> {
    if !world.resource::<Dragoness>().teams.contains_key(&army) {
        return Err(DragonRefusal::NotATeamArmy(army));
    }
    let a = world
        .army_by_id(army)
        .and_then(|e| world.get::<Army>(e).cloned())
        .ok_or(DragonRefusal::NotATeamArmy(army))?;
    if let Some(seat) = a.seat
        && seat != chapter::current_seat(world)
    {
        return Err(DragonRefusal::NotYourTeam(army));
    }
    Ok(a)
}

/// The army in the open activation, if it is a team.
pub fn active_team(world: &mut World) -> Option<(u32, Army)> {
    let id = world.resource::<Cycle>().activation?;
    if !world.resource::<Dragoness>().teams.contains_key(&id) {
        return None;
    }
    let e = world.army_by_id(id)?;
    world.get::<Army>(e).cloned().map(|a| (id, a))
}

/// D6 and the team's wholeness: the core actions the chapter forbids.
pub fn veto(world: &mut World, by: Camp, action: &Action) -> Option<crate::rules::Refusal> {
    let refuse = |r: DragonRefusal| Some(chapter::refusal(ID, &r));
    match action {
        // D2: the Guide moves her; it may not pass its turn while she can move.
        Action::Done if world.step_id() == GUIDE_STEP && super::guide::open(world) => {
            refuse(DragonRefusal::MustMove)
        }
        // A room's guardian holds it (D9).
        Action::Move { .. } | Action::Embark if by == Camp::Chaos => {
            let id = world.resource::<Cycle>().activation?;
            world
                .resource::<Dragoness>()
                .guardians
                .contains(&id)
                .then(|| chapter::refusal(ID, &DragonRefusal::GuardianHolds(id)))
        }
        Action::Move { to } if by == Camp::Eladrins => {
            let id = world.resource::<Cycle>().activation?;
            let e = world.army_by_id(id)?;
            let from = world.get::<Army>(e)?.hex;
            let lvl = level(world);
            let to = hex(*to);
            let s = world.resource::<Dragoness>();
            let team = s.teams.contains_key(&id);
            if team && s.sealed && lvl.inside(from) != lvl.inside(to) {
                return refuse(DragonRefusal::GateSealed);
            }
            if !team && !lvl.inside(from) && lvl.inside(to) {
                return refuse(DragonRefusal::NotATeam(id));
            }
            None
        }
        // A team is one pawn: it takes others in, it never joins another army.
        Action::Merge { from } => {
            let into = world.resource::<Cycle>().activation?;
            let s = world.resource::<Dragoness>();
            (s.teams.contains_key(from) && !s.teams.contains_key(&into))
                .then(|| chapter::refusal(ID, &DragonRefusal::TeamStaysWhole(*from)))
        }
        _ => None,
    }
}

/// After any action: a team that walked reveals the hidden rooms it entered (D8) and resolves
/// the token where it stopped (D3).
pub fn after(world: &mut World, _by: Camp, _action: &Action, events: &[GameEvent]) {
    prune(world);
    for ev in events {
        let GameEvent::Moved { army, path, .. } = ev else {
            continue;
        };
        if !world.resource::<Dragoness>().teams.contains_key(army) {
            continue;
        }
        let lvl = level(world);
        for h in path {
            if let Some(room) = lvl.room_at(*h)
                && !world.resource::<Dragoness>().is_revealed(&room.id)
            {
                reveal_by_team(world, &lvl, &room.id);
            }
        }
        if let Some(last) = path.last() {
            stop_on_token(world, &lvl, *army, *last);
        }
    }
    loot(world);
}

/// A team in a room no guardian holds takes what the room holds, once (a relic token among
/// them): after it walked in, or after it beat the guardian.
fn loot(world: &mut World) {
    let lvl = level(world);
    let st = world.resource::<Dragoness>().clone();
    for (at, ids) in super::guide::team_pawns(world, &st) {
        let h = hex(at);
        let Some(room) = lvl.room_at(h) else {
            continue;
        };
        if world.resource::<Dragoness>().looted.contains(&room.id) {
            continue;
        }
        let guarded = !world
            .armies_where(|x| x.camp == Camp::Chaos && x.hex == h)
            .is_empty();
        let (Some(army), false) = (ids.first().copied(), guarded) else {
            continue;
        };
        world
            .resource_mut::<Dragoness>()
            .looted
            .push(room.id.clone());
        if room.find != Find::default() {
            tell(
                world,
                Told::Token {
                    name: room.find.name.clone(),
                    by_her: false,
                },
            );
        }
        resolve(world, army, &room.find);
    }
}

/// D8 for a team: the room is revealed and the team meets its guardian (what the room holds is
/// taken once no guardian holds it, `loot`).
fn reveal_by_team(world: &mut World, lvl: &DragonessLevel, id: &str) {
    let Some(room) = super::guide::reveal(world, lvl, id, false) else {
        return;
    };
    if room.kind == RoomKind::Octuple {
        world.resource_mut::<Dragoness>().portal = true;
    }
    super::guide::wake_guardian(world, &room);
}

/// D3 for a team: the token of the route cell it stopped on.
fn stop_on_token(world: &mut World, lvl: &DragonessLevel, army: u32, h: hexx::Hex) {
    let Some(i) = lvl.route.iter().position(|c| hex(c.at) == h) else {
        return;
    };
    if world.resource::<Dragoness>().taken.contains(&i) {
        return;
    }
    let find = match lvl.route[i].kind {
        CellKind::Mystery => draw(world, &lvl.mysteries),
        CellKind::Hazard => draw(world, &lvl.hazards).map(|h| h.find),
        _ => None,
    };
    let Some(find) = find else {
        return;
    };
    world.resource_mut::<Dragoness>().taken.push(i);
    tell(
        world,
        Told::Token {
            name: find.name.clone(),
            by_her: false,
        },
    );
    resolve(world, army, &find);
}

/// What a team finds: gems for the Eladrins, resources for the outposts, the ring,
/// invincibility, wounds.
fn resolve(world: &mut World, army: u32, f: &Find) {
    if f.gems != 0 {
        tracks::add(world, GEMS, Holder::Camp(Camp::Eladrins), f.gems);
    }
    if !f.stock.is_empty() {
        crate::rules::effects::apply(world, &[Effect::Gain(f.stock)], None);
    }
    let cycle = world.resource::<Cycle>().number;
    if let Some(t) = world.resource_mut::<Dragoness>().teams.get_mut(&army) {
        t.ring |= f.ring;
        if let Some(q) = &f.relic
            && !t.relics.contains(q)
        {
            t.relics.push(q.clone());
        }
        if f.invincible > 0 {
            let until = cycle.saturating_add(f.invincible - 1);
            t.invincible_until = t.invincible_until.max(until);
        }
    }
    if f.wounds > 0
        && let Some(e) = world.army_by_id(army)
    {
        units::wound_all(world, e, f.wounds, Cause::Rule("D3".into()));
        prune(world);
    }
}

/// Step I of a quest: the active team stands on its site.
pub fn check_quest(world: &mut World, id: u32, quest: &str) -> Result<(), DragonRefusal> {
    let a = team(world, id)?;
    let lvl = level(world);
    let q = lvl
        .quests
        .iter()
        .find(|q| q.id == quest)
        .ok_or_else(|| DragonRefusal::UnknownQuest(quest.to_string()))?;
    if hex(q.site) != a.hex {
        return Err(DragonRefusal::NotOnSite(q.site));
    }
    // A quest is revealed once, by one team.
    if world.resource::<Dragoness>().quests.contains(&q.id) {
        return Err(DragonRefusal::QuestKnown(q.id.clone()));
    }
    Ok(())
}

/// Step I of a quest revealed by the team `id`.
pub fn reveal_quest(world: &mut World, id: u32, quest: &str) {
    let mut s = world.resource_mut::<Dragoness>();
    s.quests.push(quest.to_string());
    if let Some(t) = s.teams.get_mut(&id) {
        t.quests.push(quest.to_string());
    }
    let quest = quest_name(world, quest);
    tell(world, Told::Quest { army: id, quest });
}

/// D13: the team `id` may place the relic of `quest` in the White Tomb.
pub fn check_relic(world: &mut World, id: u32, quest: &str) -> Result<(), DragonRefusal> {
    let a = team(world, id)?;
    let lvl = level(world);
    let s = world.resource::<Dragoness>();
    if s.relic.is_some() {
        return Err(DragonRefusal::RelicPlaced);
    }
    if !s
        .teams
        .get(&id)
        .is_some_and(|t| t.quests.iter().any(|q| q == quest))
    {
        return Err(DragonRefusal::NoStepOne(quest.to_string()));
    }
    if !s
        .teams
        .get(&id)
        .is_some_and(|t| t.relics.iter().any(|q| q == quest))
    {
        return Err(DragonRefusal::NoRelic(quest.to_string()));
    }
    let tomb = lvl.tomb().ok_or(DragonRefusal::NotInTomb)?;
    if !s.is_revealed(&tomb.id) {
        return Err(DragonRefusal::TombHidden);
    }
    if hex(tomb.at) != a.hex {
        return Err(DragonRefusal::NotInTomb);
    }
    // The relic stops a countdown: she must lie in the Tomb (D10).
    if !s.entombed {
        return Err(DragonRefusal::NoCountdown);
    }
    if !world
        .armies_where(|x| x.camp == Camp::Chaos && x.hex == a.hex)
        .is_empty()
    {
        return Err(DragonRefusal::Guarded);
    }
    Ok(())
}

/// D13: the relic placed stops the countdown; the gems on its slots go to the team's camp.
pub fn place_relic(world: &mut World, id: u32, quest: &str) {
    let gems = {
        let mut s = world.resource_mut::<Dragoness>();
        s.relic = Some(quest.to_string());
        let n = s.placed();
        s.slots.iter_mut().for_each(|x| *x = false);
        n
    };
    tracks::add(
        world,
        GEMS,
        Holder::Camp(Camp::Eladrins),
        i32::try_from(gems).unwrap_or(i32::MAX),
    );
    let quest = quest_name(world, quest);
    tell(
        world,
        Told::Relic {
            army: id,
            quest,
            gems,
        },
    );
}

/// A quest's name (its id when the level does not know it).
pub fn quest_name(world: &World, id: &str) -> String {
    level(world)
        .quests
        .iter()
        .find(|q| q.id == id)
        .map_or_else(|| id.to_string(), |q| q.name.clone())
}

/// D9: the team `id` may leave by the portal token.
pub fn check_escape(world: &mut World, id: u32) -> Result<(), DragonRefusal> {
    let a = team(world, id)?;
    let lvl = level(world);
    let octuple = lvl
        .rooms
        .iter()
        .find(|r| r.kind == RoomKind::Octuple)
        .ok_or(DragonRefusal::NoPortal)?;
    if !world.resource::<Dragoness>().portal || hex(octuple.at) != a.hex {
        return Err(DragonRefusal::NoPortal);
    }
    let guarded = !world
        .armies_where(|x| x.camp == Camp::Chaos && x.hex == a.hex)
        .is_empty();
    if guarded {
        return Err(DragonRefusal::Guarded);
    }
    Ok(())
}

/// D9: the team `id` leaves by the portal token: home, safe, no longer a team.
pub fn escape(world: &mut World, id: u32) {
    super::guide::send_home(world, id, Gone::Escaped);
    tell(world, Told::Escaped { army: id });
}
