//! The ground layer: what every other layer stands on and that knows nothing of the game —
//! stable hashing, atomic writes and bounded reads, the header line of saves and settings,
//! the user's data and config folders, and hex ↔ offset coordinates. It imports no other
//! module of the crate (`tests/rules/layers.rs` holds it to that).

pub mod files;
pub mod hash;
pub mod hex;
pub mod paths;
