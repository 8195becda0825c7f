//! Chaos Outpost: the Eladrins race Chaos to build and power a portal on a hex map.
//!
//! - `rules`: the game itself, headless (`RulesPlugin`), driven only by `Action`s.
//! - `content`: the RON content (terrains, units, decks, portal, levels) and its checks.
//! - `sim`: headless games with a simple policy, for the `sim` command and tests.
//! - `view`: the window (`GamePlugin`): it reads the game state and sends `Action`s.

pub mod content;
pub mod rules;
pub mod sim;
pub mod view;

pub use rules::RulesPlugin;
pub use view::GamePlugin;
