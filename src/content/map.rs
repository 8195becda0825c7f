//! The map of a level as hex → terrain: drawn as rows of text ("odd-r" offset rows, a legend
//! per character) or generated (a seeded Voronoi split of a hexagon into terrain regions),
//! then the level's single-tile overrides. Content makes it, so the level checker and the rules
//! see the same map; the generator is seeded by the level, never by the game.

use hexx::Hex;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{ContentDb, Level, MapDef};
use crate::ground::hex::{from_offset, key};

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
    // The overrides find their tile through an index: a level may list 100,000 of them on a
    // map of 120,000 tiles, and a search of the map for each would take minutes.
    let at: std::collections::HashMap<Hex, usize> = tiles
        .iter()
        .enumerate()
        .map(|(i, (h, _))| (*h, i))
        .collect();
    for (o, t) in &level.terrain {
        if let Some(&i) = at.get(&Hex::new(o.0, o.1)) {
            tiles[i].1 = t.clone();
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
