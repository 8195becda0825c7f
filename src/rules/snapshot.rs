//! `Snapshot`: the whole game state as one serde value. Saves (RON, written atomically: temp
//! file, fsync, rename), loads (untrusted: bounded and checked before anything is replaced),
//! the state hash used by replays and tests, and replay files (level, seed, action list).

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::rng::RngState;
use super::{
    ActionLog, Army, Board, Cycle, CycleOrder, Decks, GameRng, GameSetup, Ids, Modifiers, Outcome,
    Outpost, Portal, Research, StepDone, Tile,
};
use crate::content::{Camp, Content, MAX_MAP_RADIUS};
use crate::ground::files::{self, write_atomic};
use crate::ground::hash::Fnv;

/// Save and replay format version. Version 1 (no header, no census) still loads; newer
/// versions are refused with a reason.
pub const SAVE_VERSION: u32 = 2;

/// Wraps `body` in the header line of a save or replay at this game's format version.
pub fn envelope(kind: &str, body: &str) -> String {
    files::envelope(kind, SAVE_VERSION, body)
}

/// Checks and removes the header line of a save or replay (see `ground::files::open_envelope`).
pub fn open_envelope<'a>(kind: &str, text: &'a str) -> Result<(u32, &'a str), String> {
    files::open_envelope(kind, SAVE_VERSION, text)
}

/// The whole game state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Format version.
    pub version: u32,
    /// Level, difficulty, seed.
    pub setup: GameSetup,
    /// Where the cycle stands.
    pub cycle: Cycle,
    /// The current step's id (indexes differ when plugins change).
    pub step_id: String,
    /// The current step's decisions were closed.
    pub step_done: bool,
    /// Tiles in board order.
    pub tiles: Vec<Tile>,
    /// Outposts by id.
    pub outposts: Vec<Outpost>,
    /// Armies by id.
    pub armies: Vec<Army>,
    /// Decks.
    pub decks: Decks,
    /// Research.
    pub research: Research,
    /// The portal.
    pub portal: Portal,
    /// Lasting modifiers.
    pub modifiers: Modifiers,
    /// Id counter.
    pub ids: Ids,
    /// The end, if reached.
    pub outcome: Outcome,
    /// The RNG (no rerolls by reloading).
    pub rng: RngState,
    /// Actions so far.
    pub actions: ActionLog,
    /// Rifts Chaos summoned at this main phase.
    #[serde(default)]
    pub summoned: super::main_phase::Summoned,
    /// The state hash at the start of each cycle from cycle 2 (replays compare them).
    #[serde(default)]
    pub cycle_hashes: super::CycleHashes,
    /// Units created, dead, turned and settled (the conservation invariant).
    #[serde(default)]
    pub census: super::units::Census,
    /// The chapters' tracks moved so far (`tracks`); none in a level without chapters.
    #[serde(default, skip_serializing_if = "super::tracks::Tracks::is_empty")]
    pub tracks: super::tracks::Tracks,
    /// The state of each chapter the level plays, by chapter id, in that chapter's RON
    /// (`chapter::ChapterState`); none in a level without chapters, or a save made before.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub chapters: std::collections::BTreeMap<String, String>,
    /// The campaign this chapter game belongs to (K4); none outside a campaign. Not part of
    /// the state hash: a replay of the chapter plays without it.
    #[serde(default, skip_serializing_if = "super::campaign::CampaignRun::is_none")]
    pub campaign: super::campaign::CampaignRun,
}

/// Takes a snapshot of the world.
pub fn capture(world: &mut World) -> Snapshot {
    capture_seen_by(world, super::chapter::Viewer::All)
}

/// A snapshot with only what `viewer` may know: the chapters' hidden things of others removed
/// (the state the Chaos AI, or one seat's AI, thinks on).
pub fn capture_seen_by(world: &mut World, viewer: super::chapter::Viewer) -> Snapshot {
    let tiles = Board::tiles(world).cloned().collect();
    let mut outposts: Vec<Outpost> = world.query::<&Outpost>().iter(world).cloned().collect();
    outposts.sort_by_key(|o| o.id);
    let mut armies: Vec<Army> = world.query::<&Army>().iter(world).cloned().collect();
    armies.sort_by_key(|a| a.id);
    let step_id = super::GameWorld::step_id(world).to_string();
    macro_rules! capture {
        ($($f:ident: $t:ty),* $(,)?) => {
            Snapshot {
                version: SAVE_VERSION,
                cycle: world.resource::<Cycle>().clone(),
                step_id,
                step_done: world.resource::<StepDone>().0,
                tiles,
                outposts,
                armies,
                rng: world.resource::<GameRng>().state(),
                chapters: super::chapter::capture(world, viewer),
                $($f: world.resource::<$t>().clone(),)*
            }
        };
    }
    super::state::plain_state!(capture)
}

/// A snapshot without the action log, for the AI's copies of the game: a playout never reads
/// the log, and cloning it (thousands of actions late in a stress game) into every copy cost
/// more than the copy of the map. The world is left as it was, not even marked changed.
pub fn capture_without_log(world: &mut World) -> Snapshot {
    let log = std::mem::take(
        &mut world
            .resource_mut::<ActionLog>()
            .bypass_change_detection()
            .0,
    );
    let s = capture(world);
    world
        .resource_mut::<ActionLog>()
        .bypass_change_detection()
        .0 = log;
    s
}

/// The hash of the game state (everything but the action log).
pub fn state_hash(world: &mut World) -> u64 {
    let mut s = capture(world);
    s.actions = ActionLog::default();
    s.campaign = super::campaign::CampaignRun::default();
    // Stream the RON text into the hash: the same bytes as `ron::to_string`, without building
    // a string of the whole map (megabytes on the stress level, once per cycle).
    let mut h = Fnv::default();
    let _ = ron::ser::to_writer(&mut h, &s);
    h.0
}

/// Checks an untrusted snapshot against the content before it replaces anything.
pub fn check(world: &World, s: &Snapshot) -> Result<(), String> {
    if s.version == 0 || s.version > SAVE_VERSION {
        return Err(format!(
            "save format version {} is not supported (this game reads 1 to {SAVE_VERSION})",
            s.version
        ));
    }
    super::version::check(s.setup.rules, "save")?;
    let db = world.resource::<Content>().0.clone();
    let max_tiles = 3 * MAX_MAP_RADIUS as usize * (MAX_MAP_RADIUS as usize + 1) + 1;
    if s.tiles.len() > max_tiles || s.tiles.is_empty() {
        return Err(format!(
            "the map has {} tiles (1 to {max_tiles} allowed)",
            s.tiles.len()
        ));
    }
    if s.armies.len() > 100_000 || s.outposts.len() > 10_000 {
        return Err("too many armies or outposts".into());
    }
    for (i, t) in s.tiles.iter().enumerate() {
        if db.terrain(&t.terrain).is_none() {
            return Err(format!(
                "tiles[{i}].terrain: unknown terrain `{}`",
                t.terrain
            ));
        }
    }
    for a in &s.armies {
        for u in &a.units {
            if db.unit(&u.kind).is_none() {
                return Err(format!("army {}: unknown unit type `{}`", a.id, u.kind));
            }
        }
    }
    for o in &s.outposts {
        if db.size(&o.size).is_none() {
            return Err(format!("outpost {}: unknown size `{}`", o.id, o.size));
        }
        if let Some(b) = o.buildings.iter().find(|b| db.building(&b.id).is_none()) {
            return Err(format!("outpost {}: unknown building `{}`", o.id, b.id));
        }
    }
    let level = db.levels.get(&s.setup.level).ok_or_else(|| {
        format!(
            "the level `{}` is not in this game's content (a mod missing?)",
            s.setup.level
        )
    })?;
    let order = super::chapter::order_for(world, level)?;
    if !order.iter().any(|d| d.id == s.step_id) {
        return Err(format!(
            "unknown step `{}` for the level `{}` (a plugin missing?)",
            s.step_id, s.setup.level
        ));
    }
    super::chapter::check(world, level, s.setup.seats(), &s.chapters)?;
    check_numbers(&db, s)?;
    check_tracks(&db, s, level)?;
    check_setup(&db, &s.setup.players, s.setup.carry.as_ref())
        .map_err(|(f, m)| format!("setup.{f}: {m}"))?;
    if let Some(c) = &s.campaign.0 {
        c.check(&db)
            .map_err(|(f, m)| format!("campaign.{f}: {m}"))?;
    }
    Ok(())
}

/// Most cycles a saved game may have played: a long game plays a hundred; a count this far
/// above it still leaves every sum and `+ 1` on it far inside `u32`.
pub const MAX_CYCLE: u32 = 1_000_000;
/// Largest id counter, unit count or census figure a save may carry: the game's own counters
/// add one at a time, so a quarter of `u32` can never be reached in play and never overflows.
pub const MAX_COUNTER: u32 = 1 << 30;
/// Largest pile of one resource, point total or power a save may carry (as a campaign's).
pub const MAX_AMOUNT: u32 = super::campaign::MAX_STOCK;
/// Highest seat an army, an outpost or a turn may name: a level gives armies and outposts to
/// seats of its own (a Ghost-Guide's seat becomes the turn's), up to the eight a game has, not
/// only to the players of the save.
pub const MAX_SEAT: u64 = 7;
/// Most units in one army (the stress level's largest is a few hundred).
pub const MAX_ARMY_UNITS: usize = 10_000;

/// The numbers of an untrusted save that the rules count on, bounded so that nothing the
/// rules do with them overflows or loops long; each error names the field.
fn check_numbers(db: &crate::content::ContentDb, s: &Snapshot) -> Result<(), String> {
    let seats = s.setup.seats();
    let c = &s.cycle;
    let over = |field: &str, n: u64, max: u64| -> Result<(), String> {
        if n > max {
            Err(format!("{field}: {n}, at most {max}"))
        } else {
            Ok(())
        }
    };
    over("cycle.number", c.number.into(), MAX_CYCLE.into())?;
    over("cycle.passes", c.passes.into(), 1000)?;
    over("cycle.player", c.player as u64, u64::from(seats) - 1)?;
    if let Some(seat) = c.seat {
        over("cycle.seat", seat.into(), MAX_SEAT)?;
    }
    if let Some(a) = c.activation
        && !s.armies.iter().any(|x| x.id == a)
    {
        return Err(format!("cycle.activation: no army {a}"));
    }
    over("outcome.cycle", s.outcome.cycle.into(), MAX_CYCLE.into())?;
    over(
        "cycle_hashes",
        s.cycle_hashes.0.len() as u64,
        MAX_CYCLE.into(),
    )?;
    over("ids.next", s.ids.next.into(), MAX_COUNTER.into())?;
    let census = &s.census;
    for (field, n) in [
        ("census.created", census.created),
        ("census.died", census.died),
        ("census.turned", census.turned),
        ("census.settled", census.settled),
    ] {
        over(field, n.into(), MAX_COUNTER.into())?;
    }
    let stock = |field: &str, st: &crate::content::Stock| -> Result<(), String> {
        for (r, n) in crate::content::Res::ALL.iter().zip(st.0) {
            over(&format!("{field}.{r:?}"), n.into(), MAX_AMOUNT.into())?;
        }
        Ok(())
    };
    for (i, t) in s.tiles.iter().enumerate() {
        stock(&format!("tiles[{i}].lying"), &t.lying)?;
    }
    for o in &s.outposts {
        stock(&format!("outposts[{}].stock", o.id), &o.stock)?;
        if let Some(seat) = o.seat {
            over(&format!("outposts[{}].seat", o.id), seat.into(), MAX_SEAT)?;
        }
        over(
            &format!("outposts[{}].buildings", o.id),
            o.buildings.len() as u64,
            1000,
        )?;
    }
    for a in &s.armies {
        let f = format!("armies[{}]", a.id);
        over(
            &format!("{f}.units"),
            a.units.len() as u64,
            MAX_ARMY_UNITS as u64,
        )?;
        over(&format!("{f}.famine"), a.famine.into(), MAX_CYCLE.into())?;
        stock(&format!("{f}.cargo"), &a.cargo)?;
        if let Some(seat) = a.seat {
            over(&format!("{f}.seat"), seat.into(), MAX_SEAT)?;
        }
        if let Some(u) = a
            .units
            .iter()
            .find(|u| u.name.as_ref().is_some_and(|n| n.len() > 128))
        {
            return Err(format!("{f}.units[{}].name: longer than 128 bytes", u.id));
        }
    }
    check_ids_and_places(s)?;
    let r = &s.research;
    over("research.points", r.points.into(), MAX_AMOUNT.into())?;
    stock("research.placed", &r.placed)?;
    for (field, list) in [("research.offer", &r.offer), ("research.done", &r.done)] {
        over(field, list.len() as u64, crate::content::MAX_DECK.into())?;
        if let Some(t) = list.iter().find(|t| db.tech(t).is_none()) {
            return Err(format!(
                "{field}: no technology `{}`",
                files::clipped(t, 64)
            ));
        }
    }
    if let Some(t) = r.current.as_ref().filter(|t| db.tech(t).is_none()) {
        return Err(format!(
            "research.current: no technology `{}`",
            files::clipped(t, 64)
        ));
    }
    over("research.analysing", r.analysing.len() as u64, 10_000)?;
    let p = &s.portal;
    over("portal.power", p.power.into(), MAX_AMOUNT.into())?;
    over("portal.corruption", p.corruption.into(), MAX_AMOUNT.into())?;
    over(
        "portal.crystals_this_phase",
        p.crystals_this_phase.into(),
        MAX_AMOUNT.into(),
    )?;
    let arches = &db.portal().arches;
    over("portal.built", p.built.len() as u64, arches.len() as u64)?;
    for (i, (n, arch)) in p.built.iter().zip(arches).enumerate() {
        over(
            &format!("portal.built[{i}]"),
            (*n).into(),
            arch.len() as u64,
        )?;
    }
    let m = &s.modifiers;
    over("modifiers.storage", m.storage.into(), MAX_AMOUNT.into())?;
    over(
        "modifiers.lab_points",
        m.lab_points.into(),
        MAX_AMOUNT.into(),
    )?;
    over(
        "modifiers.portal_crystals",
        m.portal_crystals.into(),
        MAX_AMOUNT.into(),
    )?;
    // The roll bonuses are `u8`s that play saturates: any value is one play can reach.
    over(
        "modifiers.pending_attempts",
        m.pending_attempts.into(),
        MAX_AMOUNT.into(),
    )?;
    for (id, extra) in &m.improvement_yield {
        if db.improvement(id).is_none() {
            return Err(format!(
                "modifiers.improvement_yield: no improvement `{}`",
                files::clipped(id, 64)
            ));
        }
        stock(&format!("modifiers.improvement_yield.{id}"), extra)?;
    }
    if let Some(id) = m
        .unlocked
        .iter()
        .find(|id| db.building(id).is_none() && db.improvement(id).is_none())
    {
        return Err(format!(
            "modifiers.unlocked: no building or improvement `{}`",
            files::clipped(id, 64)
        ));
    }
    let d = &s.decks;
    for (field, deck) in [
        ("decks.events", &d.events),
        ("decks.chaos", &d.chaos),
        ("decks.research", &d.research),
        ("decks.artifacts", &d.artifacts),
        ("decks.exploration", &d.exploration),
    ] {
        over(
            field,
            (deck.draw.len() + deck.discard.len()) as u64,
            crate::content::MAX_DECK.into(),
        )?;
    }
    over("summoned", s.summoned.0.len() as u64, 100_000)?;
    Ok(())
}

/// A save's pieces: each army, unit and outpost id given once and below the id counter (the
/// rules tell pieces apart by id), each tile once, each army and outpost on a tile.
fn check_ids_and_places(s: &Snapshot) -> Result<(), String> {
    let mut hexes = std::collections::HashSet::with_capacity(s.tiles.len());
    let r = i64::from(MAX_MAP_RADIUS);
    for (i, t) in s.tiles.iter().enumerate() {
        let h = t.hex;
        let (x, y) = (i64::from(h.x), i64::from(h.y));
        // On a map of the largest radius: no distance or neighbour of it overflows.
        if x.abs() > r || y.abs() > r || (x + y).abs() > r {
            return Err(format!("tiles[{i}].hex: ({}, {}) is off any map", h.x, h.y));
        }
        if !hexes.insert(t.hex) {
            return Err(format!(
                "tiles[{i}].hex: ({}, {}) is given twice",
                t.hex.x, t.hex.y
            ));
        }
    }
    let mut ids = std::collections::HashSet::new();
    let mut fresh = |field: String, id: u32| -> Result<(), String> {
        if id > s.ids.next {
            return Err(format!(
                "{field}: id {id} is above the id counter ({})",
                s.ids.next
            ));
        }
        if !ids.insert(id) {
            return Err(format!("{field}: id {id} is given twice"));
        }
        Ok(())
    };
    for a in &s.armies {
        fresh(format!("armies[{}].id", a.id), a.id)?;
        for u in &a.units {
            fresh(format!("armies[{}].units", a.id), u.id)?;
        }
        if !hexes.contains(&a.hex) {
            return Err(format!("armies[{}].hex: not on the map", a.id));
        }
    }
    if !hexes.contains(&s.portal.hex) {
        return Err("portal.hex: not on the map".into());
    }
    if s.summoned
        .0
        .iter()
        .any(|at| !hexes.contains(&hexx::Hex::new(at.0, at.1)))
    {
        return Err("summoned: a rift not on the map".into());
    }
    if s.research.analysing.values().any(|h| !hexes.contains(h)) {
        return Err("research.analysing: a tile not on the map".into());
    }
    let mut outposts = std::collections::HashSet::new();
    for o in &s.outposts {
        if !outposts.insert(o.id) {
            return Err(format!("outposts[{}].id: given twice", o.id));
        }
        if !hexes.contains(&o.hex) {
            return Err(format!("outposts[{}].hex: not on the map", o.id));
        }
    }
    Ok(())
}

/// A save's track values: each of a track its level plays, held by a holder the track has in
/// a game of the save's seats, once, within the track's bounds.
fn check_tracks(
    db: &crate::content::ContentDb,
    s: &Snapshot,
    level: &crate::content::Level,
) -> Result<(), String> {
    let seats = s.setup.seats();
    let mut seen = std::collections::BTreeSet::new();
    for (i, (id, holder, value)) in s.tracks.0.iter().enumerate() {
        let f = format!("tracks[{i}]");
        let Some(def) = db
            .set
            .tracks
            .iter()
            .find(|t| &t.id == id && level.chapters.contains(&t.chapter))
        else {
            return Err(format!(
                "{f}: no track `{}` in the level `{}`",
                files::clipped(id, 64),
                level.id
            ));
        };
        if !super::tracks::holders(def, seats).contains(holder) {
            return Err(format!(
                "{f}: {holder:?} holds no `{id}` in a game of {seats} seat(s)"
            ));
        }
        if !(def.min..=def.max).contains(value) {
            return Err(format!(
                "{f}: {value} is outside `{id}`'s bounds ({} to {})",
                def.min, def.max
            ));
        }
        if !seen.insert((id, *holder)) {
            return Err(format!("{f}: `{id}` of {holder:?} is given twice"));
        }
    }
    Ok(())
}

/// The seats and carry-over of an untrusted save or replay: at most 8 named seats, the
/// carry-over checked against the content (`CarryIn::check`). `(field, message)`.
pub fn check_setup(
    db: &crate::content::ContentDb,
    players: &[String],
    carry: Option<&super::campaign::CarryIn>,
) -> Result<(), (String, String)> {
    if players.len() > 8 {
        return Err((
            "players".into(),
            format!("{} seats, at most 8", players.len()),
        ));
    }
    if let Some(i) = players
        .iter()
        .position(|p| p.chars().count() > super::campaign::MAX_NAME)
    {
        return Err((
            format!("players[{i}]"),
            format!(
                "a name of {} characters, at most {}",
                players[i].chars().count(),
                super::campaign::MAX_NAME
            ),
        ));
    }
    if let Some(c) = carry {
        c.check(db)?;
    }
    Ok(())
}

/// Replaces the world's game with a snapshot (checked first: on error nothing changes).
pub fn restore(world: &mut World, s: &Snapshot) -> Result<(), String> {
    let s = &without_missing_campaign(world, s);
    check(world, s)?;
    // The checks above bound each value; the invariants judge them together (units counted
    // by the census, stock within storage…), on a scratch copy, so a save that breaks one
    // leaves the game on screen as it was, log and all.
    let db = world.resource::<Content>().0.clone();
    let mut scratch = super::setup::headless_app(db);
    replace(scratch.world_mut(), s)?;
    super::invariants::check(scratch.world_mut())
        .map_err(|e| format!("the saved game breaks a rule that always holds: {e}"))?;
    replace(world, s)
}

/// A chapter's save whose campaign this game no longer has (its mod switched off, or left out
/// for a problem) still loads, as the chapter it is, without the campaign; a campaign id that
/// could not be one (`../x`) is left for `check` to refuse.
fn without_missing_campaign<'a>(world: &World, s: &'a Snapshot) -> std::borrow::Cow<'a, Snapshot> {
    let db = &world.resource::<Content>().0;
    match &s.campaign.0 {
        Some(c)
            if super::campaign::safe_name(&c.campaign)
                && !db.set.campaigns.iter().any(|x| x.id == c.campaign) =>
        {
            bevy::log::warn!(
                "the save belongs to campaign `{}`, which this game does not have: it loads \
                 as a chapter alone",
                c.campaign
            );
            let mut alone = s.clone();
            alone.campaign = super::campaign::CampaignRun::default();
            std::borrow::Cow::Owned(alone)
        }
        _ => std::borrow::Cow::Borrowed(s),
    }
}

/// Puts a checked snapshot in place of the world's game.
fn replace(world: &mut World, s: &Snapshot) -> Result<(), String> {
    let mut old: Vec<Entity> = Vec::new();
    old.extend(world.query_filtered::<Entity, With<Tile>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Army>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Outpost>>().iter(world));
    for e in old {
        world.despawn(e);
    }
    let board = Board::new(
        s.tiles
            .iter()
            .map(|t| (t.hex, world.spawn(t.clone()).id()))
            .collect::<Vec<_>>(),
    );
    world.insert_resource(board);
    for o in &s.outposts {
        world.spawn(o.clone());
    }
    for a in &s.armies {
        world.spawn(a.clone());
    }
    if let Some(level) = db_level(world, &s.setup.level) {
        super::chapter::set_level(world, &level)?;
    }
    restore_resources(world, s)?;
    if s.version < 2 {
        // Version 1 had no census: count the living as the units created so far.
        world.resource_mut::<super::units::Census>().created =
            s.armies.iter().map(|a| a.units.len() as u32).sum();
    }
    world.insert_resource(super::Chronicle::default());
    // The chapters' actions of the log, as the file wrote them, typed by their chapters.
    super::chapter::resolve_restored(world);
    Ok(())
}

/// Where a world stood right after a trusted restore: restoring the same snapshot into it
/// again (`restore_again`) need only look at the tiles changed since (a playout changes a few
/// of the stress map's 10,000).
#[derive(Debug, Clone, Copy)]
pub struct Restored {
    world: bevy::ecs::world::WorldId,
    tick: bevy::ecs::change_detection::Tick,
}

/// `restore` for a snapshot this program captured itself (the AI's copies of the game): no
/// checks, and where the world already holds the same level's board, its tiles are rewritten
/// in place, only those that differ, instead of despawned and spawned again (on the 10,000-hex
/// stress map the copy is what a search pays most). Gives the same state as `restore`.
pub fn restore_trusted(world: &mut World, s: &Snapshot) -> Result<Restored, String> {
    // A snapshot is captured in board order, so the same map is the same hexes in the same
    // order: compared pairwise, without a lookup per hex.
    let same_board = world
        .get_resource::<GameSetup>()
        .is_some_and(|g| g.level == s.setup.level)
        && world.get_resource::<Board>().is_some_and(|b| {
            b.entities.len() == b.order.len()
                && b.order.len() == s.tiles.len()
                && b.order.iter().zip(&s.tiles).all(|(h, t)| *h == t.hex)
        });
    if !same_board {
        check(world, s)?;
        replace(world, s)?;
        return Ok(restored_now(world));
    }
    // Copied out (80 kB on the stress map), so the board is never marked changed.
    let entities = world.resource::<Board>().entities.clone();
    for (e, t) in entities.iter().zip(&s.tiles) {
        if let Some(mut here) = world.get_mut::<Tile>(*e)
            && *here != *t
        {
            *here = t.clone();
        }
    }
    restore_pieces(world, s)
}

/// `restore_trusted` of the snapshot `mark` was made by, into the same world: only the tiles
/// changed since `mark` (Bevy's change ticks) are compared and rewritten. Given another world,
/// it restores in full. The caller vouches that `s` is the snapshot restored at `mark`.
pub fn restore_again(world: &mut World, s: &Snapshot, mark: Restored) -> Result<Restored, String> {
    let same = world.id() == mark.world
        && world
            .get_resource::<Board>()
            .is_some_and(|b| b.entities.len() == s.tiles.len());
    if !same {
        return restore_trusted(world, s);
    }
    let now = world.change_tick();
    let changed: Vec<(Entity, hexx::Hex)> = world
        .query::<(Entity, Ref<Tile>)>()
        .iter(world)
        .filter(|(_, t)| t.last_changed().is_newer_than(mark.tick, now))
        .map(|(e, t)| (e, t.hex))
        .collect();
    for (e, hex) in changed {
        let at = world
            .resource::<Board>()
            .order
            .binary_search_by_key(&super::board::key(hex), |h| super::board::key(*h));
        // A tile not where the board has it would mean the map itself changed: restore it all.
        let Some(i) = at
            .ok()
            .filter(|i| world.resource::<Board>().entities[*i] == e)
        else {
            return restore_trusted(world, s);
        };
        if let Some(mut here) = world.get_mut::<Tile>(e)
            && *here != s.tiles[i]
        {
            *here = s.tiles[i].clone();
        }
    }
    restore_pieces(world, s)
}

/// The armies, outposts and resources of `s`, after the tiles: the rest of a trusted restore.
fn restore_pieces(world: &mut World, s: &Snapshot) -> Result<Restored, String> {
    let mut old: Vec<Entity> = Vec::new();
    old.extend(world.query_filtered::<Entity, With<Army>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Outpost>>().iter(world));
    for e in old {
        world.despawn(e);
    }
    for o in &s.outposts {
        world.spawn(o.clone());
    }
    for a in &s.armies {
        world.spawn(a.clone());
    }
    // The same level: its cycle order and chapters in play stand as they are.
    restore_resources(world, s)?;
    world.insert_resource(super::Chronicle::default());
    Ok(restored_now(world))
}

/// The mark of the world as it stands: what is changed after this is newer than its tick.
fn restored_now(world: &mut World) -> Restored {
    let tick = world.change_tick();
    world.increment_change_tick();
    Restored {
        world: world.id(),
        tick,
    }
}

/// The cycle (its step found by id in the cycle order in place), the dice, the plain state
/// and the chapters' states of `s`: what both restores put back after the map.
fn restore_resources(world: &mut World, s: &Snapshot) -> Result<(), String> {
    let step = world
        .resource::<CycleOrder>()
        .position(&s.step_id)
        .unwrap_or(0);
    let mut cycle = s.cycle.clone();
    cycle.step = step;
    world.insert_resource(cycle);
    world.insert_resource(StepDone(s.step_done));
    world.insert_resource(GameRng::from_state(s.rng));
    macro_rules! restore {
        ($($f:ident: $t:ty),* $(,)?) => {
            $(world.insert_resource(s.$f.clone());)*
        };
    }
    super::state::plain_state!(restore);
    super::chapter::restore(world, &s.chapters)?;
    Ok(())
}

fn db_level(world: &World, id: &str) -> Option<crate::content::Level> {
    world.resource::<Content>().0.levels.get(id).cloned()
}

/// Saves the game to a RON file.
pub fn save(world: &mut World, path: &Path) -> Result<(), String> {
    let s = capture(world);
    let text = ron::ser::to_string_pretty(&s, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("can't serialise the game: {e}"))?;
    write_atomic(path, envelope("save", &text))
        .map_err(|e| format!("{}: can't write: {e}", path.display()))
}

/// Reads a snapshot from a file (bounded; errors name the file, line and column).
pub fn read(path: &Path) -> Result<Snapshot, String> {
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    parse_save(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// Parses a save's text (header checked); errors start with `line:col:` where they can.
pub fn parse_save(text: &str) -> Result<Snapshot, String> {
    let (version, body) = open_envelope("save", text).map_err(|e| format!("1:1: {e}"))?;
    // The header is one line: body lines are one further down.
    let shift = usize::from(version > 1);
    let s = ron::Options::default()
        .from_str::<Snapshot>(body)
        .map_err(|e| {
            format!(
                "{}:{}: not a valid save: {}",
                e.span.start.line + shift,
                e.span.start.col,
                e.code
            )
        })?;
    if s.version != version && version > 1 {
        return Err(format!(
            "1:1: the header says format {version} but the save says {}",
            s.version
        ));
    }
    Ok(s)
}

/// Loads a save into the world (nothing changes when it is refused; the error names the
/// file, the line and the field).
pub fn load(world: &mut World, path: &Path) -> Result<(), String> {
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    let s = parse_save(&text).map_err(|e| format!("{}:{e}", path.display()))?;
    restore(world, &s).map_err(|e| format!("{}:{}", path.display(), at_field(&text, &e)))
}

/// `error`, which names a field path (`tracks[2]: …`, `campaign.roster: …`), prefixed with
/// the line and column of that field in the file's `text` (as near as its names lead): the
/// checks work on the parsed value, the player needs the place in the file.
pub fn at_field(text: &str, error: &str) -> String {
    let path = error.split(": ").next().unwrap_or("");
    let is_path = !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]()".contains(c));
    if !is_path {
        return format!("1:1: {error}");
    }
    let anchors: Vec<String> = path
        .split('.')
        .map(|seg| format!("{}:", seg.split('[').next().unwrap_or(seg)))
        .filter(|a| a.len() > 1)
        .collect();
    let anchors: Vec<&str> = anchors.iter().map(String::as_str).collect();
    let (line, col) = crate::content::locate(text, &anchors);
    format!("{line}:{col}: {error}")
}

/// A replay: enough to play a game again, action by action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Format version.
    pub version: u32,
    /// Level id.
    pub level: String,
    /// Difficulty id.
    pub difficulty: String,
    /// Game seed.
    pub seed: u64,
    /// Hot-seat Eladrin players, in turn order.
    #[serde(default)]
    pub players: Vec<String>,
    /// Every action, with who sent it.
    pub actions: Vec<(Camp, crate::rules::Action)>,
    /// The state hash at the end, when recorded.
    #[serde(default)]
    pub final_hash: Option<u64>,
    /// The content's hash (`ContentDb::hash`) when recorded: other content would drift.
    #[serde(default)]
    pub content_hash: Option<u64>,
    /// The state hash at the start of each cycle from the second (`CycleHashes`).
    #[serde(default)]
    pub cycle_hashes: Vec<u64>,
    /// The rules version it was recorded under (none: version 1, before versions existed).
    #[serde(default)]
    pub rules: super::version::Rules,
    /// What a campaign chapter was given at its start (none outside a campaign).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry: Option<super::campaign::CarryIn>,
}

/// The replay of the game in the world.
pub fn replay_of(world: &mut World) -> Replay {
    let setup = world.resource::<GameSetup>().clone();
    Replay {
        version: SAVE_VERSION,
        level: setup.level,
        difficulty: setup.difficulty,
        seed: setup.seed,
        players: setup.players.clone(),
        actions: world.resource::<ActionLog>().0.clone(),
        final_hash: Some(state_hash(world)),
        content_hash: Some(world.resource::<Content>().hash()),
        cycle_hashes: world.resource::<super::CycleHashes>().0.clone(),
        rules: setup.rules,
        carry: setup.carry,
    }
}

/// Writes a replay file (atomically, with the header line).
pub fn write_replay(r: &Replay, path: &Path) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(r, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("can't serialise the replay: {e}"))?;
    write_atomic(path, envelope("replay", &text))
        .map_err(|e| format!("{}: can't write: {e}", path.display()))
}

/// Parses a replay's text (header checked); errors start with `line:col:` where they can.
pub fn parse_replay(text: &str) -> Result<Replay, String> {
    let (version, body) = open_envelope("replay", text).map_err(|e| format!("1:1: {e}"))?;
    let shift = usize::from(version > 1);
    let r: Replay = ron::Options::default().from_str(body).map_err(|e| {
        format!(
            "{}:{}: not a valid replay: {}",
            e.span.start.line + shift,
            e.span.start.col,
            e.code
        )
    })?;
    if r.version == 0 || r.version > SAVE_VERSION {
        return Err(format!(
            "1:1: replay version {} is not supported (this game reads 1 to {SAVE_VERSION})",
            r.version
        ));
    }
    if r.actions.len() > MAX_REPLAY_ACTIONS {
        return Err(format!(
            "1:1: {} actions, more than the {MAX_REPLAY_ACTIONS} a replay may hold",
            r.actions.len()
        ));
    }
    Ok(r)
}

/// Most actions a replay may hold (a long game is a few thousand).
pub const MAX_REPLAY_ACTIONS: usize = 2_000_000;

/// Reads a replay file and plays it in the world (`play_replay`); an error names the file and,
/// where it is about a field, its line.
pub fn replay_file(world: &mut World, path: &Path) -> Result<u64, String> {
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    let r = parse_replay(&text).map_err(|e| format!("{}:{e}", path.display()))?;
    play_replay(world, &r).map_err(|e| format!("{}:{}", path.display(), at_field(&text, &e)))
}

/// Reads a replay file (bounded; errors name the file, line and column).
pub fn read_replay(path: &Path) -> Result<Replay, String> {
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    parse_replay(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// Plays a replay in the world, under the rules version it was recorded with; returns the
/// final state hash. Refuses a replay recorded with other content or under rules this build
/// does not play (naming both versions), and stops at the first refused action or the first cycle whose hash differs
/// from the recorded one, naming it: a replay never silently drifts.
pub fn play_replay(world: &mut World, r: &Replay) -> Result<u64, String> {
    let here = world.resource::<Content>().hash();
    if let Some(want) = r.content_hash
        && want != here
    {
        return Err(format!(
            "recorded with other content (content hash {want:016x}, this game has {here:016x}): \
             it would not play the same way, so it is refused"
        ));
    }
    super::version::check(r.rules, "replay")?;
    check_setup(&world.resource::<Content>().0, &r.players, r.carry.as_ref())
        .map_err(|(f, m)| format!("{f}: {m}"))?;
    super::setup::start_game_under(
        world,
        &r.level,
        Some(&r.difficulty),
        r.seed,
        r.rules,
        &r.players,
        r.carry.as_ref(),
    )?;
    let mut checked = 0;
    for (i, (by, a)) in r.actions.iter().enumerate() {
        super::submit(world, *by, a.clone())
            .map_err(|e| format!("action {i} ({a:?} by {by:?}) was refused: {e}"))?;
        let hashes = &world.resource::<super::CycleHashes>().0;
        while checked < hashes.len() && checked < r.cycle_hashes.len() {
            if hashes[checked] != r.cycle_hashes[checked] {
                return Err(format!(
                    "the replay drifted at the start of cycle {} (action {i}): hash {:016x}, \
                     recorded {:016x}",
                    checked + 2,
                    hashes[checked],
                    r.cycle_hashes[checked]
                ));
            }
            checked += 1;
        }
    }
    let h = state_hash(world);
    if let Some(want) = r.final_hash
        && want != h
    {
        return Err(format!(
            "the replay drifted after its last action: final hash {h:016x}, recorded {want:016x}"
        ));
    }
    Ok(h)
}

/// Autosaves into `dir` as `autosave-cNNNN.ron` (atomically), then keeps only the newest `keep`
/// autosaves and removes temp files a crash left behind. Returns the file written.
pub fn autosave(world: &mut World, dir: &Path, keep: usize) -> Result<std::path::PathBuf, String> {
    let cycle = world.resource::<Cycle>().number;
    let path = dir.join(format!("autosave-c{cycle:04}.ron"));
    save(world, &path)?;
    let mut saves = autosaves(dir);
    let old = saves.len().saturating_sub(keep.max(1));
    for (_, p) in saves.drain(..old) {
        let _ = std::fs::remove_file(p);
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with(".autosave-") && name.contains(".tmp") {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    Ok(path)
}

/// The autosaves in `dir` with their cycles, oldest written first (by modification time,
/// then cycle: a new game's cycle 1 is newer than an old game's cycle 20).
pub fn autosaves(dir: &Path) -> Vec<(u32, std::path::PathBuf)> {
    let mut v: Vec<(std::time::SystemTime, u32, std::path::PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let n = name.strip_prefix("autosave-c")?.strip_suffix(".ron")?;
            let when = e.metadata().and_then(|m| m.modified()).ok()?;
            Some((when, n.parse().ok()?, e.path()))
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, c, p)| (c, p)).collect()
}

/// The newest autosave in `dir` that reads cleanly, with the problems of any newer ones that
/// did not (a damaged file is skipped, never fatal).
pub fn latest_autosave(dir: &Path) -> (Option<(std::path::PathBuf, Snapshot)>, Vec<String>) {
    let mut problems = Vec::new();
    for (_, p) in autosaves(dir).into_iter().rev() {
        match read(&p) {
            Ok(s) => return (Some((p, s)), problems),
            Err(e) => problems.push(e),
        }
    }
    (None, problems)
}

/// Longest save name.
pub const MAX_SLOT_NAME: usize = 40;
/// Most named saves listed.
pub const MAX_SLOTS: usize = 500;

/// The file of the named save `name` in `dir`: letters, digits, spaces, `-` and `_` only (so a
/// name can't reach outside the folder), 1 to 40 characters.
pub fn slot_path(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_SLOT_NAME {
        return Err(format!("a save name has 1 to {MAX_SLOT_NAME} characters"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_')))
    {
        return Err(format!(
            "`{c}` can't be in a save name: use letters, digits, spaces, - and _"
        ));
    }
    Ok(dir.join(format!("{name}.ron")))
}

/// A named save as the menu lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotInfo {
    /// Its name.
    pub name: String,
    /// Its file.
    pub path: PathBuf,
    /// Level, cycle and difficulty, or why it can't be read.
    pub summary: Result<String, String>,
    /// When it was written (milliseconds since the epoch).
    pub modified: u64,
}

/// The named saves in `dir`, newest first. A damaged file is listed with its problem.
pub fn slots(dir: &Path) -> Vec<SlotInfo> {
    slots_since(dir, &[])
}

/// `slots`, reading again only the files that changed since `before` (same path and time:
/// the summary is kept), so a menu can look often without parsing every save each time.
pub fn slots_since(dir: &Path, before: &[SlotInfo]) -> Vec<SlotInfo> {
    let mut v: Vec<SlotInfo> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_SLOTS * 2)
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().to_string();
            let name = file.strip_suffix(".ron")?.to_string();
            // Only names a player could have given (no temp files).
            slot_path(dir, &name).ok()?;
            let modified = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_millis() as u64);
            let path = e.path();
            let known = before
                .iter()
                .find(|b| b.path == path && b.modified == modified && modified != 0);
            let summary = match known {
                Some(b) => b.summary.clone(),
                None => read(&path).map(|s| {
                    format!(
                        "{}, {}, cycle {}",
                        s.setup.level, s.setup.difficulty, s.cycle.number
                    )
                }),
            };
            Some(SlotInfo {
                name,
                path,
                summary,
                modified,
            })
        })
        .collect();
    v.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    v.truncate(MAX_SLOTS);
    v
}
