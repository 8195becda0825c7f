//! The map: tiles as entities (`Tile`), the `Board` index from hex to entity, and hex helpers
//! built on `hexx` (distances, rings, offset rows). Iteration over tiles always follows
//! `Board::order` (sorted by axial coordinates) so that results never depend on hash order.

use std::collections::HashMap;

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

/// Index of the map: hex → tile entity, and the stable order of hexes.
#[derive(Resource, Debug, Clone, Default)]
pub struct Board {
    /// Hex → entity.
    pub index: HashMap<Hex, Entity>,
    /// All hexes, sorted by `key`.
    pub order: Vec<Hex>,
}

impl Board {
    /// The entity of a hex on the map.
    pub fn get(&self, h: Hex) -> Option<Entity> {
        self.index.get(&h).copied()
    }
    /// True when the hex is on the map.
    pub fn contains(&self, h: Hex) -> bool {
        self.index.contains_key(&h)
    }
    /// Hexes within `radius` of `center` that are on the map, in stable order.
    pub fn within(&self, center: Hex, radius: u32) -> Vec<Hex> {
        let mut v: Vec<Hex> = center.range(radius).filter(|h| self.contains(*h)).collect();
        v.sort_by_key(|h| (h.unsigned_distance_to(center), key(*h)));
        v
    }
    /// Neighbours on the map, in hexx's fixed direction order.
    pub fn neighbors(&self, h: Hex) -> impl Iterator<Item = Hex> + '_ {
        h.all_neighbors().into_iter().filter(|n| self.contains(*n))
    }
}
