//! The app layer: what the player's program keeps between games and around the rules — the
//! settings file, the key bindings, the colour palettes, the window-only hot reload of the
//! content, and the systems that follow a language or a key change. It stands on the rules,
//! the text and the sim, and knows nothing of egui or rendering; the view stands on it.

pub mod colour;
pub mod follow;
pub mod hot_reload;
pub mod keys;
pub mod settings;
