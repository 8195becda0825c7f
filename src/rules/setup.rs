//! Starting a game: the headless app, the map made from a level (generated or drawn), the
//! outposts, armies, decks and portal put in place, then the first cycle begins.

use std::sync::Arc;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use hexx::Hex;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{from_offset, key};
use super::{
    ActionLog, Army, Board, Chronicle, Cycle, Decks, GameRng, GameSetup, Ids, Modifiers, Outcome,
    Outpost, Portal, Research, Rift, RulesPlugin, StepDone, Tile, Unit, Works, advance,
};
use crate::content::{Content, ContentDb, Level, MapDef, Stock};

/// A headless app with the rules: `MinimalPlugins` + `StatesPlugin` + `RulesPlugin`.
pub fn headless_app(content: Arc<ContentDb>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, RulesPlugin))
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

/// The map of a level: hex → terrain id, in stable order.
pub fn make_map(db: &ContentDb, level: &Level) -> Vec<(Hex, String)> {
    let mut tiles: Vec<(Hex, String)> = match &level.map {
        MapDef::Generated { radius, seed } => generate(db, *radius, *seed),
        MapDef::Rows { legend, rows } => {
            let mut v = Vec::new();
            for (row, line) in rows.iter().enumerate() {
                for (col, c) in line.chars().enumerate() {
                    if let Some(t) = legend.get(&c) {
                        v.push((from_offset(col as i32, row as i32), t.clone()));
                    }
                }
            }
            v
        }
    };
    for (at, t) in &level.terrain {
        let h = Hex::new(at.0, at.1);
        if let Some(slot) = tiles.iter_mut().find(|(x, _)| *x == h) {
            slot.1 = t.clone();
        }
    }
    tiles.sort_by_key(|(h, _)| key(*h));
    tiles
}

/// A hexagon of `radius` split into regions around random centres (a Voronoi map), each region
/// one terrain drawn by weight. Seeded by the level, so a level's map never changes.
fn generate(db: &ContentDb, radius: u32, seed: u64) -> Vec<(Hex, String)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let weighted: Vec<(&str, u32)> = db
        .set
        .terrains
        .iter()
        .filter(|t| t.weight > 0)
        .map(|t| (t.id.as_str(), t.weight))
        .collect();
    let total: u32 = weighted.iter().map(|(_, w)| *w).sum();
    let pick = |rng: &mut ChaCha8Rng| -> String {
        if total == 0 {
            return db
                .set
                .terrains
                .first()
                .map(|t| t.id.clone())
                .unwrap_or_default();
        }
        let mut x = rng.random_range(0..total);
        for (id, w) in &weighted {
            if x < *w {
                return (*id).to_string();
            }
            x -= w;
        }
        weighted[0].0.to_string()
    };
    let all: Vec<Hex> = Hex::ZERO.range(radius).collect();
    let n_regions = ((radius * radius) / 3).max(4) as usize;
    let mut centres: Vec<(Hex, String)> = Vec::with_capacity(n_regions);
    for _ in 0..n_regions {
        let h = all[rng.random_range(0..all.len())];
        let t = pick(&mut rng);
        centres.push((h, t));
    }
    // Bucket centres on a coarse grid so each hex only looks at nearby centres.
    let cell = 6i32;
    let mut grid: std::collections::HashMap<(i32, i32), Vec<usize>> = Default::default();
    for (i, (h, _)) in centres.iter().enumerate() {
        grid.entry((h.x.div_euclid(cell), h.y.div_euclid(cell)))
            .or_default()
            .push(i);
    }
    all.into_iter()
        .map(|h| {
            let (cx, cy) = (h.x.div_euclid(cell), h.y.div_euclid(cell));
            let mut best: Option<(u32, usize)> = None;
            for r in 1..=4 {
                for dx in -r..=r {
                    for dy in -r..=r {
                        if let Some(list) = grid.get(&(cx + dx, cy + dy)) {
                            for &i in list {
                                let d = centres[i].0.unsigned_distance_to(h);
                                if best.is_none_or(|b| (d, i) < b) {
                                    best = Some((d, i));
                                }
                            }
                        }
                    }
                }
                if best.is_some_and(|(d, _)| d <= (r as u32 - 1) * cell as u32) {
                    break;
                }
            }
            let t = best
                .map(|(_, i)| centres[i].1.clone())
                .unwrap_or_else(|| centres[0].1.clone());
            (h, t)
        })
        .collect()
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

/// Clears any game in the world and starts `level` with `difficulty` (the level's default when
/// `None`) and `seed`, then runs the cycle to its first decision.
pub fn start_game(
    world: &mut World,
    level_id: &str,
    difficulty: Option<&str>,
    seed: u64,
) -> Result<(), String> {
    spawn_game(world, level_id, difficulty, seed)?;
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

    // Clear any previous game.
    let mut old: Vec<Entity> = Vec::new();
    old.extend(world.query_filtered::<Entity, With<Tile>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Army>>().iter(world));
    old.extend(world.query_filtered::<Entity, With<Outpost>>().iter(world));
    for e in old {
        world.despawn(e);
    }
    world.insert_resource(GameRng::seeded(seed));
    world.insert_resource(Cycle::default());
    world.insert_resource(Outcome::default());
    world.insert_resource(Chronicle::default());
    world.insert_resource(Ids::default());
    world.insert_resource(super::CycleHashes::default());
    world.insert_resource(super::units::Census::default());
    world.insert_resource(ActionLog::default());
    world.insert_resource(Research::default());
    world.insert_resource(Modifiers::default());
    world.insert_resource(StepDone::default());
    world.insert_resource(super::main_phase::Summoned::default());
    world.insert_resource(GameSetup {
        level: level.id.clone(),
        difficulty: difficulty.clone(),
        seed,
        players: vec!["Eladrins".into()],
    });

    let map = make_map(&db, &level);
    let mut board = Board::default();
    for (h, terrain) in &map {
        let e = world
            .spawn(Tile {
                hex: *h,
                terrain: terrain.clone(),
                corrupted: false,
                rift: Rift::None,
                lying: Stock::default(),
                improvement: None,
                artifact: false,
                modifier: None,
            })
            .id();
        board.index.insert(*h, e);
        board.order.push(*h);
    }
    world.insert_resource(board);
    let h = |at: (i32, i32)| Hex::new(at.0, at.1);
    let land = |world: &World, at: (i32, i32), what: &str| -> Result<(), String> {
        let hex = h(at);
        let e = world
            .resource::<super::Board>()
            .get(hex)
            .ok_or_else(|| format!("level `{}`: {what} at {at:?} is off the map", level.id))?;
        let t = world
            .get::<Tile>(e)
            .ok_or_else(|| format!("level `{}`: no tile at {at:?}", level.id))?;
        let terrain = db.terrain(&t.terrain);
        if terrain.is_some_and(|t| t.water || t.impassable) {
            return Err(format!(
                "level `{}`: {what} at {at:?} stands on {} — it needs passable land",
                level.id, t.terrain
            ));
        }
        Ok(())
    };
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
    let arches = db.portal().arches.len();
    let mut portal = Portal {
        built: vec![0; arches],
        corruption: diff
            .portal_corruption_start
            .min(db.portal().track.saturating_sub(1)),
        ..Default::default()
    };
    for o in &level.outposts {
        land(world, o.at, &format!("outpost {}", o.name))?;
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
        };
        // R3.3: a stock never holds more than the storage; what does not fit lies on the tile.
        let mut room = outpost.storage(&db, 0);
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
    for a in level.armies.iter().chain(&tweak_armies) {
        if a.camp == crate::content::Camp::Eladrins {
            land(world, a.at, "an army")?;
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
        });
    }

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
    Ok(())
}

fn world_tile(world: &mut World, h: Hex) -> Option<Mut<'_, Tile>> {
    let e = world.resource::<Board>().get(h)?;
    world.get_mut::<Tile>(e)
}
