//! The chapters the game ships: each is a folder `src/chapters/NAME/` with its plugin (its
//! rules through the seams of `rules::chapter`, its AI scorers, its words, its panel) and its
//! level in `levels/`. `install_all` is the one list that names them; the program calls it at
//! start, and every app the rules build from then on has them (`rules::chapter::install`). A
//! level plays only the chapters it names, so installing one changes no other level.
//!
//! The worked example of a chapter is the test chapter `tests/rules/trial.rs`; the rules of the
//! chapters are `docs/chapters/mercenaries.md` (M), `docs/chapters/clans.md` (C) and
//! `docs/chapters/dragoness.md` (D).

pub mod clans;
pub mod dragoness;
pub mod mercenaries;

/// Installs every chapter the game ships.
pub fn install_all() {
    dragoness::install();
    mercenaries::install();
    clans::install();
}
