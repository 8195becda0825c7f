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
    super::chapter::check(world, level, &s.chapters)?;
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
        restore(world, s)?;
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
