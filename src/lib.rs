//! Chaos Outpost: the Eladrins race Chaos to build and power a portal on a hex map.
//!
//! The crate is built in layers, each importing only those below it (`tests/rules/layers.rs`
//! holds the order; `docs/architecture.md` draws it):
//!
//! `ground ← content ← rules ← {text, ai} ← sim ← app ← view ← chapters ← cli`
//!
//! - `ground`: hashing, atomic writes, bounded reads, save headers, folders, hex coordinates.
//! - `content`: the RON content (terrains, units, decks, portal, levels, mods) and its checks.
//! - `rules`: the game itself, headless (`RulesPlugin`), driven only by `Action`s.
//! - `text`: translations and the words of refusals, events, warnings and actions.
//! - `ai`: the Chaos and Eladrin AIs (scored candidate actions, weights in `ai.ron`).
//! - `sim`: headless AI-vs-AI games, scenarios, fuzzing, balance runs and benchmarks.
//! - `app`: settings, key bindings, palettes, the content hot reload.
//! - `view`: the window (`GamePlugin`): it reads the game state and sends `Action`s.
//! - `chapters`: the chapters the game ships, each a plugin through `rules::chapter`'s seams.
//! - `cli`: the `chaos-outpost` command, one file per subcommand.

pub mod ai;
pub mod app;
pub mod chapters;
pub mod cli;
pub mod content;
pub mod ground;
pub mod rules;
pub mod sim;
pub mod text;
pub mod view;

pub use rules::RulesPlugin;
pub use view::GamePlugin;
