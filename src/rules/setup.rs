//! Starting a game: the headless app, the map made from a level (generated or drawn), the
//! outposts, armies, decks and portal put in place, then the first cycle begins.

use std::sync::Arc;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use hexx::Hex;

use super::version::Rules;
use super::{
    Army, Board, Chronicle, Cycle, Decks, GameRng, GameSetup, Ids, Outpost, Portal, Rift,
    RulesPlugin, StepDone, Tile, Unit, Works, advance,
};
use crate::content::{Content, ContentDb, Level, Stock};
// The map is made by content (the level checker needs it too); re-exported for callers here.
pub use crate::content::map::make_map;

/// A headless app with the rules: `MinimalPlugins` + `StatesPlugin` + `RulesPlugin`.
pub fn headless_app(content: Arc<ContentDb>) -> App {
    let mut app = App::new();
    let chapters = content.chapters.clone();
    app.add_plugins((MinimalPlugins, StatesPlugin, RulesPlugin { chapters }))
        .insert_resource(Content(content));
    app
}

/// A headless app with a game of `level` already started.
pub fn new_game(
    content: Arc<ContentDb>,
    level: &str,
    difficulty: Option<&str>,
    seed: u64,
) -> Result<App, String> {
    let mut app = headless_app(content);
    start_game(app.world_mut(), level, difficulty, seed)?;
    Ok(app)
}

fn deck_of<'a>(cards: impl Iterator<Item = (&'a str, u32)>) -> Vec<String> {
    let mut v = Vec::new();
    for (id, copies) in cards {
        for _ in 0..copies {
            v.push(id.to_string());
        }
    }
    v
}

/// Sets the hot-seat Eladrin players (in turn order); at least one, names bounded.
pub fn set_players(world: &mut World, names: &[String]) {
    let mut v: Vec<String> = names
        .iter()
        .take(8)
        .map(|n| n.chars().take(32).collect::<String>())
        .filter(|n: &String| !n.trim().is_empty())
        .collect();
    if v.is_empty() {
        v.push("Eladrins".into());
    }
    world.resource_mut::<GameSetup>().players = v;
}

/// Whether a seat's name gives it to the Eladrin AI: `AI`, or a name ending in `(AI)` (the
/// window's driver plays such a seat; a level's filled seats are named so).
pub fn is_ai_name(name: &str) -> bool {
    let n = name.trim();
    n.eq_ignore_ascii_case("ai") || n.to_ascii_lowercase().ends_with("(ai)")
}

/// A level played by at least `seats.min` seats: the players missing (solo play, or fewer
/// partners than the level needs) become AI seats, named from the level, after the players.
fn fill_seats(world: &mut World, seats: &crate::content::LevelSeats) {
    let mut setup = world.resource_mut::<GameSetup>();
    if setup.players.is_empty() && seats.min > 1 {
        setup.players.push("Eladrins".into());
    }
    let want = seats.min.min(8) as usize;
    let mut n = 0;
    while setup.players.len() < want {
        let i = setup.players.len();
        let name = loop {
            let base = seats
                .names
                .get(n)
                .map(|s| s.chars().take(24).collect::<String>())
                .unwrap_or_else(|| format!("Seat {}", i + 1));
            n += 1;
            let name = format!("{} (AI)", base.trim());
            // A name a player already took is skipped.
            if !setup.players.contains(&name) || n > 16 {
                break name;
            }
        };
        setup.players.push(name);
    }
}

/// Clears any game in the world and starts `level` with `difficulty` (the level's default when
/// `None`) and `seed`, then runs the cycle to its first decision.
pub fn start_game(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
) -> Result<(), String> {
    start_game_under(world, level_id, difficulty, seed, Rules::CURRENT, &[], None)
}

/// `start_game` for these hot-seat players (`set_players`; none: one player), seated before
/// the cycle runs: a chapter's first automatic step (a draw per seat) sees every seat.
pub fn start_game_for(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
    players: &[String],
) -> Result<(), String> {
    start_game_under(
        world,
        level_id,
        difficulty,
        seed,
        Rules::CURRENT,
        players,
        None,
    )
}

/// Starts a campaign chapter: `start_game_for` with what the chapter is given (`carry`, K2,
/// K3), kept in the game's setup so its saves and replays hold it.
pub fn start_chapter(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
    players: &[String],
    carry: &super::campaign::CarryIn,
) -> Result<(), String> {
    start_game_under(
        world,
        level_id,
        difficulty,
        seed,
        Rules::CURRENT,
        players,
        Some(carry),
    )
}

/// `start_game_for` under the given rules version (a replay plays under the rules it was made
/// with, `version`; `play_replay` checks an untrusted file's version before it gets here).
pub fn start_game_under(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
    rules: Rules,
    players: &[String],
    carry: Option<&super::campaign::CarryIn>,
) -> Result<(), String> {
    spawn_game_with(world, level_id, difficulty, seed, rules, players, carry)?;
    advance(world);
    Ok(())
}

/// Puts `level` in place (map, outposts, armies, decks, portal) at the start of cycle 1,
/// before any step has run. Tests use it to run one step's schedule at a time.
pub fn spawn_game(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
) -> Result<(), String> {
    spawn_game_under(world, level_id, difficulty, seed, Rules::CURRENT)
}

/// `spawn_game` under the given rules version.
pub fn spawn_game_under(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
    rules: Rules,
) -> Result<(), String> {
    spawn_game_with(world, level_id, difficulty, seed, rules, &[], None)
}

/// `spawn_game_under` with what a campaign chapter is given (`campaign::CarryIn`): its
/// veterans and stock put in place with the level's, the cards it keeps left out of the decks
/// and played.
fn spawn_game_with(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
    rules: Rules,
    players: &[String],
    carry: Option<&super::campaign::CarryIn>,
) -> Result<(), String> {
    let db = world.resource::<Content>().0.clone();
    let level = db
        .levels
        .get(level_id)
        .ok_or_else(|| {
            format!(
                "no level named `{level_id}`; known levels: {}",
                db.levels.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        })?
        .clone();
    let difficulty = difficulty.unwrap_or(&level.difficulty).to_string();
    if db.difficulty(&difficulty).is_none() {
        return Err(format!(
            "no difficulty named `{difficulty}`; known: {}",
            db.set
                .difficulties
                .iter()
                .map(|d| d.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    // The difficulty as this level plays it, with its extra armies (Wesnoth-style).
    let diff = db.difficulty_for(level_id, &difficulty);
    let tweak_armies = level
        .difficulty_tweaks
        .get(&difficulty)
        .map(|t| t.armies.clone())
        .unwrap_or_default();

    // The level's steps and chapters first: a level naming a step or chapter this game lacks
    // is refused before anything changes.
    let order = super::chapter::order_for(world, &level)?;
    clear_game(world, &level.id, &difficulty, seed, rules);
    // The seats before anything is set up: a chapter deals each seat its sheet.
    if !players.is_empty() {
        set_players(world, players);
    }
    fill_seats(world, &level.seats);
    world.insert_resource(super::CycleOrder(order));
    world.insert_resource(super::chapter::InPlay(level.chapters.clone()));
    super::chapter::reset(world);
    spawn_map(world, &db, &level);
    place_markers(world, &level);
    spawn_outposts(world, &db, &level, &diff)?;
    spawn_armies(world, &db, &level, &tweak_armies)?;
    if let Some(c) = carry {
        world.resource_mut::<GameSetup>().carry = Some(c.clone());
        super::campaign::apply_units_and_stock(world, c)?;
    }
    shuffle_decks(world, &db, &level);
    if let Some(c) = carry {
        super::campaign::apply_research_and_artifacts(world, c);
    }
    super::chapter::setup(world)
}

/// Removes any game in the world and resets its state for a new one.
fn clear_game(world: &mut World, level: &str, difficulty: &str, seed: u64, rules: Rules) {
    let mut old: Vec<Entity> = Vec::new();
    old.extend(world.query_filtered::<Entity, With<Tile>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Army>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Outpost>>().iter(world));
    for e in old {
        world.despawn(e);
    }
    super::state::reset(world);
    world.insert_resource(GameRng::seeded(seed));
    world.insert_resource(Cycle::default());
    world.insert_resource(Chronicle::default());
    world.insert_resource(StepDone::default());
    world.insert_resource(GameSetup {
        level: level.to_string(),
        difficulty: difficulty.to_string(),
        seed,
        players: vec!["Eladrins".into()],
        rules,
        carry: None,
    });
}

/// The level's tiles, in board order.
fn spawn_map(world: &mut World, db: &ContentDb, level: &Level) {
    let map = make_map(db, level);
    let tiles: Vec<(Hex, Entity)> = map
        .iter()
        .map(|(h, terrain)| {
            let tile = Tile {
                hex: *h,
                terrain: terrain.clone(),
                corrupted: false,
                rift: Rift::None,
                lying: Stock::default(),
                improvement: None,
                artifact: false,
                modifier: None,
            };
            (*h, world.spawn(tile).id())
        })
        .collect();
    let board = Board::new(tiles);
    world.insert_resource(board);
}

fn hex(at: (i32, i32)) -> Hex {
    Hex::new(at.0, at.1)
}

/// An error unless `at` is on the map and on passable land (outposts, Eladrin armies).
fn check_land(
    world: &World,
    db: &ContentDb,
    level: &str,
    at: (i32, i32),
    what: &str,
) -> Result<(), String> {
    let e = world
        .resource::<super::Board>()
        .get(hex(at))
        .ok_or_else(|| format!("level `{level}`: {what} at {at:?} is off the map"))?;
    let t = world
        .get::<Tile>(e)
        .ok_or_else(|| format!("level `{level}`: no tile at {at:?}"))?;
    let terrain = db.terrain(&t.terrain);
    if terrain.is_some_and(|t| t.water || t.impassable) {
        return Err(format!(
            "level `{level}`: {what} at {at:?} stands on {} — it needs passable land",
            t.terrain
        ));
    }
    Ok(())
}

/// What lies on the level's tiles at the start: rifts (R6.1), corruption, improvements,
/// artifact tokens, resources.
fn place_markers(world: &mut World, level: &Level) {
    let h = hex;
    for at in &level.rifts {
        if let Some(mut t) = world_tile(world, h(*at)) {
            t.rift = Rift::Open;
            t.corrupted = true;
        }
    }
    for at in &level.corrupted {
        if let Some(mut t) = world_tile(world, h(*at)) {
            t.corrupted = true;
        }
    }
    for (at, id) in &level.improvements {
        if let Some(mut t) = world_tile(world, h(*at)) {
            t.improvement = Some(Works {
                id: id.clone(),
                timer: 0,
                inactive: false,
            });
        }
    }
    for at in &level.artifacts {
        if let Some(mut t) = world_tile(world, h(*at)) {
            t.artifact = true;
        }
    }
    for (at, s) in &level.lying {
        if let Some(mut t) = world_tile(world, h(*at)) {
            t.lying.add_all(s);
        }
    }
}

/// The outposts, their stock within storage (R3.3), and the portal at the one that holds it.
fn spawn_outposts(
    world: &mut World,
    db: &ContentDb,
    level: &Level,
    diff: &crate::content::Difficulty,
) -> Result<(), String> {
    let h = hex;
    let arches = db.portal().arches.len();
    let mut portal = Portal {
        built: vec![0; arches],
        corruption: diff
            .portal_corruption_start
            .min(db.portal().track.saturating_sub(1)),
        ..Default::default()
    };
    for o in &level.outposts {
        check_land(world, db, &level.id, o.at, &format!("outpost {}", o.name))?;
        let id = world.resource_mut::<Ids>().fresh();
        let mut stock = o.stock;
        stock.add_all(&diff.eladrin_stock);
        if o.portal {
            portal.outpost = id;
            portal.hex = h(o.at);
        }
        let mut outpost = Outpost {
            id,
            name: o.name.clone(),
            hex: h(o.at),
            size: o.size.clone(),
            stock: Default::default(),
            buildings: o
                .buildings
                .iter()
                .map(|b| Works {
                    id: b.clone(),
                    timer: 0,
                    inactive: false,
                })
                .collect(),
            portal: o.portal,
            seat: o.seat,
        };
        // R3.3: a stock never holds more than the storage; what does not fit lies on the tile.
        let mut room = outpost.storage(db, 0);
        for r in crate::content::Res::ALL {
            let keep = stock.get(r).min(room);
            room -= keep;
            outpost.stock.add(r, keep);
            if stock.get(r) > keep
                && let Some(mut t) = world_tile(world, h(o.at))
            {
                t.lying.add(r, stock.get(r) - keep);
            }
        }
        world.spawn(outpost);
    }
    world.insert_resource(portal);
    Ok(())
}

/// The level's armies and the difficulty's extra ones, their units counted in the census.
fn spawn_armies(
    world: &mut World,
    db: &ContentDb,
    level: &Level,
    tweak_armies: &[crate::content::ArmyStart],
) -> Result<(), String> {
    let h = hex;
    for a in level.armies.iter().chain(tweak_armies) {
        if a.camp == crate::content::Camp::Eladrins {
            check_land(world, db, &level.id, a.at, "an army")?;
        }
        let id = world.resource_mut::<Ids>().fresh();
        world.resource_mut::<super::units::Census>().created += a.units.len() as u32;
        let units = a
            .units
            .iter()
            .map(|k| Unit {
                id: world.resource_mut::<Ids>().fresh(),
                kind: k.clone(),
                wounds: 0,
                ap: 0,
                inactive: false,
                embarked: false,
                name: None,
            })
            .collect();
        world.spawn(Army {
            id,
            camp: a.camp,
            hex: h(a.at),
            famine: 0,
            units,
            activated: false,
            afloat: false,
            cargo: Default::default(),
            seat: a.seat,
        });
    }
    Ok(())
}

/// The decks, shuffled with the game's RNG in a fixed order (events, Chaos, research less the
/// level's exclusions, artifacts, exploration).
fn shuffle_decks(world: &mut World, db: &ContentDb, level: &Level) {
    let s = &db.set;
    let decks = {
        let mut rng = world.resource_mut::<GameRng>();
        Decks {
            events: super::decks::Deck::new(
                deck_of(s.events.iter().map(|c| (c.id.as_str(), c.copies))),
                &mut rng,
            ),
            chaos: super::decks::Deck::new(
                deck_of(s.chaos.iter().map(|c| (c.id.as_str(), c.copies))),
                &mut rng,
            ),
            research: super::decks::Deck::new(
                s.research
                    .iter()
                    .filter(|t| !level.exclude_research.contains(&t.id))
                    .map(|t| t.id.clone())
                    .collect(),
                &mut rng,
            ),
            artifacts: super::decks::Deck::new(
                deck_of(s.artifacts.iter().map(|c| (c.id.as_str(), c.copies))),
                &mut rng,
            ),
            exploration: super::decks::Deck::new(
                deck_of(s.exploration.iter().map(|c| (c.id.as_str(), c.copies))),
                &mut rng,
            ),
        }
    };
    world.insert_resource(decks);
}

fn world_tile(world: &mut World, h: Hex) -> Option<Mut<'_, Tile>> {
    let e = world.resource::<Board>().get(h)?;
    world.get_mut::<Tile>(e)
}
