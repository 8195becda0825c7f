//! Outposts: their stock, size, buildings, and the zones they influence and control.

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::board::Works;
use crate::content::{BuildingEffect, ContentDb, Stock};

/// An Eladrin outpost.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outpost {
    /// Stable id.
    pub id: u32,
    /// Name on the map.
    pub name: String,
    /// Where.
    pub hex: Hex,
    /// Outpost size id.
    pub size: String,
    /// Its stock (R3.3).
    pub stock: Stock,
    /// Buildings standing or under construction (R9.2).
    pub buildings: Vec<Works>,
    /// The portal stands here.
    pub portal: bool,
    /// The Eladrin seat it belongs to (only that seat builds and recruits there); none: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
}

impl Outpost {
    fn passive_sum(&self, db: &ContentDb, f: impl Fn(&BuildingEffect) -> u32) -> u32 {
        self.buildings
            .iter()
            .filter(|b| b.working())
            .filter_map(|b| db.building(&b.id))
            .flat_map(|b| b.effects.iter())
            .map(f)
            .sum()
    }
    /// Radius of the influence zone (R3.3, R5.1, R9.2).
    pub fn influence(&self, db: &ContentDb) -> u32 {
        let base = db.size(&self.size).map(|s| s.influence).unwrap_or(1);
        base + self.passive_sum(db, |e| match e {
            BuildingEffect::Influence(n) => *n,
            _ => 0,
        })
    }
    /// Radius of the control zone (R9.1).
    pub fn control(&self, db: &ContentDb) -> u32 {
        db.size(&self.size).map(|s| s.control).unwrap_or(0)
    }
    /// Storage capacity (R3.3): the size's, plus storage buildings, plus technology.
    pub fn storage(&self, db: &ContentDb, tech_bonus: u32) -> u32 {
        let base = db.size(&self.size).map(|s| s.storage).unwrap_or(0);
        base + tech_bonus
            + self.passive_sum(db, |e| match e {
                BuildingEffect::Storage(n) => *n,
                _ => 0,
            })
    }
    /// Indices of working laboratories.
    pub fn labs(&self, db: &ContentDb) -> Vec<usize> {
        self.buildings
            .iter()
            .enumerate()
            .filter(|(_, b)| b.working())
            .filter(|(_, b)| {
                db.building(&b.id)
                    .is_some_and(|d| d.effects.contains(&BuildingEffect::Lab))
            })
            .map(|(i, _)| i)
            .collect()
    }
}

/// The Eladrins' home: the portal's outpost, else the first outpost (by id), else the portal's
/// hex (where a campaign's veterans muster and a chapter's freed creatures land).
pub fn home_hex(world: &World) -> Hex {
    let portal = world.resource::<super::Portal>().hex;
    let mut outposts: Vec<(u32, Hex)> = world
        .try_query::<&Outpost>()
        .map(|mut q| q.iter(world).map(|o| (o.id, o.hex)).collect())
        .unwrap_or_default();
    outposts.sort_by_key(|(id, _)| *id);
    if outposts.iter().any(|(_, h)| *h == portal) {
        return portal;
    }
    outposts.first().map(|(_, h)| *h).unwrap_or(portal)
}
