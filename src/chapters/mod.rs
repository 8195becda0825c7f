//! The chapters the game ships: each is a folder `src/chapters/NAME/` with its plugin (its
//! rules through the seams of `rules::chapter`, its AI scorers, its words) and a content folder
//! laid out like a mod. `install_all` is the one list that names them; the program calls it at
//! start, and every app the rules build from then on has them (`rules::chapter::install`). A
//! level plays only the chapters it names, so installing one changes no other level.
//!
//! The worked example of a chapter is the test chapter `tests/rules/trial.rs`; the rules of the
//! chapters to come are sections M, C and D of `shared/RULES.md`.

/// Installs every chapter the game ships. None is shipped yet: each chapter's issue adds its
/// `NAME::install()` line here.
pub fn install_all() {}
