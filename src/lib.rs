//! Chaos Outpost: the Eladrins race Chaos to build and power a portal on a hex map.
//!
//! - `rules`: the game itself, headless (`RulesPlugin`), driven only by `Action`s.
//! - `content`: the RON content (terrains, units, decks, portal, levels) and its checks.
//! - `ai`: the Chaos and Eladrin AIs (scored candidate actions, weights in `ai.ron`).
//! - `sim`: headless AI-vs-AI games, balance runs and benchmarks.
//! - `keys`: the keyboard commands and their (rebindable) keys.
//! - `view`: the window (`GamePlugin`): it reads the game state and sends `Action`s.

pub mod ai;
pub mod colour;
pub mod content;
pub mod i18n;
pub mod keys;
pub mod rules;
pub mod settings;
pub mod sim;
pub mod view;

pub use rules::RulesPlugin;
pub use view::GamePlugin;
