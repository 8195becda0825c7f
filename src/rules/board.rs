//! The map: tiles as entities (`Tile`), the `Board` index from hex to entity, and hex helpers
//! built on `hexx` (distances, rings, offset rows). Iteration over tiles always follows
//! `Board::order` (sorted by axial coordinates) so that results never depend on hash order.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::Stock;

// Hex helpers live in the ground layer, shared with content and view.
pub use crate::ground::hex::{from_offset, key, to_offset};

/// Whether a tile hosts a rift (R6.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rift {
    /// No rift.
    #[default]
    None,
    /// An open rift: counts as corrupted, gives one corruption attempt per upkeep (R6.1).
    Open,
    /// A closed rift (sealed by a ritual): no longer counts.
    Closed,
}

/// Something under construction or standing: an improvement on a tile, a building in an outpost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Works {
    /// Content id.
    pub id: String,
    /// Time markers left (R4); ready at 0.
    pub timer: u8,
    /// Upkeep unpaid this phase (R5.2).
    pub inactive: bool,
}

impl Works {
    /// Ready and paid: its effects apply.
    pub fn working(&self) -> bool {
        self.timer == 0 && !self.inactive
    }
}

/// One hex of the map.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// Where.
    pub hex: Hex,
    /// Terrain id.
    pub terrain: String,
    /// Corrupted by Chaos (R6).
    pub corrupted: bool,
    /// A rift here.
    pub rift: Rift,
    /// Resources lying on the tile (R3).
    pub lying: Stock,
    /// Its improvement, one per tile (R9.1).
    pub improvement: Option<Works>,
    /// An artifact token (R7.3).
    pub artifact: bool,
    /// Exploration card setting this tile's modifier (R9.3).
    pub modifier: Option<String>,
}

impl Tile {
    /// Counts as corrupted for R6 (an open rift always does).
    pub fn is_corrupted(&self) -> bool {
        self.corrupted || self.rift == Rift::Open
    }
}

/// Index of the map: hex → tile entity, and the stable order of hexes. Built once per game
/// by `Board::new`; the map's shape never changes during a game.
#[derive(Resource, Debug, Clone, Default)]
pub struct Board {
    /// Hex → entity. Bevy's fixed hasher, not std's SipHash: every rule looks tiles up here
    /// (a third of a search's time on the 10,000-hex stress map went to SipHash), and nothing
    /// iterates the index, so its hash order never reaches the game.
    pub index: HashMap<Hex, Entity>,
    /// All hexes, sorted by `key`.
    pub order: Vec<Hex>,
    /// The tile entity of each hex of `order`, at the same position: a restore walks the map
    /// without a lookup per hex.
    pub entities: Vec<Entity>,
}

impl Board {
    /// The board of these tiles (hex, entity), in any order.
    pub fn new(tiles: impl IntoIterator<Item = (Hex, Entity)>) -> Board {
        let mut pairs: Vec<(Hex, Entity)> = tiles.into_iter().collect();
        pairs.sort_by_key(|(h, _)| key(*h));
        Board {
            index: pairs.iter().copied().collect(),
            order: pairs.iter().map(|(h, _)| *h).collect(),
            entities: pairs.iter().map(|(_, e)| *e).collect(),
        }
    }
    /// The entity of a hex on the map.
    pub fn get(&self, h: Hex) -> Option<Entity> {
        self.index.get(&h).copied()
    }
    /// True when the hex is on the map.
    pub fn contains(&self, h: Hex) -> bool {
        self.index.contains_key(&h)
    }
    /// Hexes within `radius` of `center` that are on the map, by distance, then `key`.
    pub fn within(&self, center: Hex, radius: u32) -> Vec<Hex> {
        crate::ground::hex::disc(radius)
            .iter()
            .map(|o| center + *o)
            .filter(|h| self.contains(*h))
            .collect()
    }
    /// Every tile of the map in board order, read through `entities` (no lookup per hex): for
    /// the steps and copies that walk the whole map.
    pub fn tiles<'w>(world: &'w World) -> impl Iterator<Item = &'w Tile> + 'w {
        world
            .resource::<Board>()
            .entities
            .iter()
            .filter_map(|e| world.get::<Tile>(*e))
    }
    /// Neighbours on the map, in hexx's fixed direction order.
    pub fn neighbors(&self, h: Hex) -> impl Iterator<Item = Hex> + '_ {
        h.all_neighbors().into_iter().filter(|n| self.contains(*n))
    }
}
