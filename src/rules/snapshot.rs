//! `Snapshot`: the whole game state as one serde value. Saves (RON, written atomically: temp
//! file, fsync, rename), loads (untrusted: bounded and checked before anything is replaced),
//! the state hash used by replays and tests, and replay files (level, seed, action list).

use std::io::Write;
use std::path::Path;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::rng::RngState;
use super::{
    ActionLog, Army, Board, Cycle, CycleOrder, Decks, GameRng, GameSetup, Ids, Modifiers, Outcome,
    Outpost, Portal, Research, StepDone, Tile,
};
use crate::content::{Camp, Content, MAX_FILE_BYTES, MAX_MAP_RADIUS};

/// Save format version; older versions are refused with a reason.
pub const SAVE_VERSION: u32 = 1;

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
}

/// Takes a snapshot of the world.
pub fn capture(world: &mut World) -> Snapshot {
    let order = world.resource::<Board>().order.clone();
    let tiles = order
        .iter()
        .filter_map(|h| world.resource::<Board>().get(*h))
        .filter_map(|e| world.get::<Tile>(e).cloned())
        .collect();
    let mut outposts: Vec<Outpost> = world.query::<&Outpost>().iter(world).cloned().collect();
    outposts.sort_by_key(|o| o.id);
    let mut armies: Vec<Army> = world.query::<&Army>().iter(world).cloned().collect();
    armies.sort_by_key(|a| a.id);
    Snapshot {
        version: SAVE_VERSION,
        setup: world.resource::<GameSetup>().clone(),
        cycle: world.resource::<Cycle>().clone(),
        step_id: super::GameWorld::step_id(world).to_string(),
        step_done: world.resource::<StepDone>().0,
        tiles,
        outposts,
        armies,
        decks: world.resource::<Decks>().clone(),
        research: world.resource::<Research>().clone(),
        portal: world.resource::<Portal>().clone(),
        modifiers: world.resource::<Modifiers>().clone(),
        ids: world.resource::<Ids>().clone(),
        outcome: world.resource::<Outcome>().clone(),
        rng: world.resource::<GameRng>().state(),
        actions: world.resource::<ActionLog>().clone(),
        summoned: world.resource::<super::main_phase::Summoned>().clone(),
    }
}

/// FNV-1a 64 over bytes: a stable hash (std's hasher is not stable across releases).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The hash of the game state (everything but the action log).
pub fn state_hash(world: &mut World) -> u64 {
    let mut s = capture(world);
    s.actions = ActionLog::default();
    let text = ron::to_string(&s).unwrap_or_default();
    fnv1a(text.as_bytes())
}

/// Checks an untrusted snapshot against the content before it replaces anything.
pub fn check(world: &World, s: &Snapshot) -> Result<(), String> {
    if s.version != SAVE_VERSION {
        return Err(format!(
            "save format version {} is not supported (this game reads version {SAVE_VERSION})",
            s.version
        ));
    }
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
    if world
        .resource::<CycleOrder>()
        .position(&s.step_id)
        .is_none()
    {
        return Err(format!("unknown step `{}` (a plugin missing?)", s.step_id));
    }
    Ok(())
}

/// Replaces the world's game with a snapshot (checked first: on error nothing changes).
pub fn restore(world: &mut World, s: &Snapshot) -> Result<(), String> {
    check(world, s)?;
    let mut old: Vec<Entity> = Vec::new();
    old.extend(world.query_filtered::<Entity, With<Tile>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Army>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Outpost>>().iter(world));
    for e in old {
        world.despawn(e);
    }
    let mut board = Board::default();
    for t in &s.tiles {
        let e = world.spawn(t.clone()).id();
        board.index.insert(t.hex, e);
        board.order.push(t.hex);
    }
    board.order.sort_by_key(|h| super::board::key(*h));
    world.insert_resource(board);
    for o in &s.outposts {
        world.spawn(o.clone());
    }
    for a in &s.armies {
        world.spawn(a.clone());
    }
    let step = world
        .resource::<CycleOrder>()
        .position(&s.step_id)
        .unwrap_or(0);
    let mut cycle = s.cycle.clone();
    cycle.step = step;
    world.insert_resource(cycle);
    world.insert_resource(StepDone(s.step_done));
    world.insert_resource(s.setup.clone());
    world.insert_resource(s.decks.clone());
    world.insert_resource(s.research.clone());
    world.insert_resource(s.portal.clone());
    world.insert_resource(s.modifiers.clone());
    world.insert_resource(s.ids.clone());
    world.insert_resource(s.outcome.clone());
    world.insert_resource(GameRng::from_state(s.rng));
    world.insert_resource(s.actions.clone());
    world.insert_resource(s.summoned.clone());
    world.insert_resource(super::Chronicle::default());
    Ok(())
}

/// Writes `text` to `path` atomically: a temp file beside it, flushed and synced, then renamed
/// over the target, so a crash leaves either the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(d) = dir {
        std::fs::create_dir_all(d)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "save".into());
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    if let Some(d) = dir
        && let Ok(f) = std::fs::File::open(d)
    {
        let _ = f.sync_all();
    }
    Ok(())
}

/// Saves the game to a RON file.
pub fn save(world: &mut World, path: &Path) -> Result<(), String> {
    let s = capture(world);
    let text = ron::ser::to_string_pretty(&s, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("can't serialise the game: {e}"))?;
    write_atomic(path, &text).map_err(|e| format!("{}: can't write: {e}", path.display()))
}

/// Reads a snapshot from a file (bounded; errors name the file, line and column).
pub fn read(path: &Path) -> Result<Snapshot, String> {
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    ron::Options::default()
        .from_str::<Snapshot>(&text)
        .map_err(|e| {
            format!(
                "{}:{}:{}: not a valid save: {}",
                path.display(),
                e.span.start.line,
                e.span.start.col,
                e.code
            )
        })
}

/// Loads a save into the world.
pub fn load(world: &mut World, path: &Path) -> Result<(), String> {
    let s = read(path)?;
    restore(world, &s).map_err(|e| format!("{}: {e}", path.display()))
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
    }
}

/// Reads a replay file.
pub fn read_replay(path: &Path) -> Result<Replay, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{}: larger than {MAX_FILE_BYTES} bytes",
            path.display()
        ));
    }
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    let r: Replay = ron::Options::default().from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: not a valid replay: {}",
            path.display(),
            e.span.start.line,
            e.span.start.col,
            e.code
        )
    })?;
    if r.version != SAVE_VERSION {
        return Err(format!(
            "{}: replay version {} is not supported (this game reads {SAVE_VERSION})",
            path.display(),
            r.version
        ));
    }
    Ok(r)
}

/// Plays a replay in the world; returns the final state hash. A refused action is an error
/// naming its index, so a replay never silently drifts.
pub fn play_replay(world: &mut World, r: &Replay) -> Result<u64, String> {
    super::setup::start_game(world, &r.level, Some(&r.difficulty), r.seed)?;
    if !r.players.is_empty() {
        super::setup::set_players(world, &r.players);
    }
    for (i, (by, a)) in r.actions.iter().enumerate() {
        super::submit(world, *by, a.clone())
            .map_err(|e| format!("action {i} ({a:?} by {by:?}) was refused: {e}"))?;
    }
    let h = state_hash(world);
    if let Some(want) = r.final_hash
        && want != h
    {
        return Err(format!(
            "the replay drifted: final hash {h:016x}, recorded {want:016x}"
        ));
    }
    Ok(h)
}
