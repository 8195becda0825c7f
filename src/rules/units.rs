//! Armies and their units (R5, R6.3, R9.4). An army is an entity; its units are plain data in
//! it, each with a stable id so that logs, saves and the view can name them.

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::Camp;

/// One unit of an army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Stable id.
    pub id: u32,
    /// Unit type id.
    pub kind: String,
    /// Hit points lost to wounds (healable; famine losses are the army's tokens, R5.4).
    pub wounds: u8,
    /// Action points left this activation (R9.4).
    pub ap: u8,
    /// Non-food upkeep unpaid this phase (R5.2).
    pub inactive: bool,
    /// Embarked or landed this cycle (R9.4: once per cycle).
    pub embarked: bool,
}

/// An army: one or more units on one hex, of one camp.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    /// Stable id.
    pub id: u32,
    /// Owner.
    pub camp: Camp,
    /// Where.
    pub hex: Hex,
    /// Famine tokens (R5.4): −1 attack and −1 hit point each to every unit.
    pub famine: u32,
    /// Units.
    pub units: Vec<Unit>,
    /// Activated this main phase (R9.4: once per turn).
    pub activated: bool,
    /// Aboard its boats (R9.4 embark): moves over water, lands to go ashore.
    #[serde(default)]
    pub afloat: bool,
    /// Resources carried by its boats.
    #[serde(default)]
    pub cargo: crate::content::Stock,
}

/// Unit bookkeeping behind the invariant "units are conserved": every unit ever created is
/// alive, dead, turned to Chaos (R6.3) or spent founding an outpost. Fuzzing checks it after
/// every action, so a rule that drops a unit without saying so is caught.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Census {
    /// Units created (at setup, recruited, spawned, summoned, turned into).
    pub created: u32,
    /// Units dead (wounds, famine).
    pub died: u32,
    /// Eladrin units turned to Chaos (the Chaos unit they become counts as created).
    pub turned: u32,
    /// Settlers spent founding an outpost.
    pub settled: u32,
}
