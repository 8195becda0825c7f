//! The chapters the game ships: each is a folder `src/chapters/NAME/` with its plugin (its
//! rules through the seams of `rules::chapter`, its AI scorers, its words, its panel) and its
//! level in `levels/`, and one value (`content::Chapter`) that bundles them. `shipped` is the
//! one list that names them: the program loads its content with it (`ContentDb::chapters`),
//! and every app made for that content builds them. A level plays only the chapters it
//! names, so adding one changes no other level.
//!
//! The worked example of a chapter is the test chapter `tests/rules/trial.rs`; the rules of the
//! chapters are `docs/chapters/mercenaries.md` (M), `docs/chapters/clans.md` (C) and
//! `docs/chapters/dragoness.md` (D).

use crate::content::ChapterSet;

pub mod clans;
pub mod dragoness;
pub mod mercenaries;

/// The chapters the game ships, as the program passes them to the content it loads and to
/// every app it makes.
pub fn shipped() -> ChapterSet {
    ChapterSet::new()
        .with(dragoness::WhiteTomb)
        .with(mercenaries::WyvernWardens)
        .with(clans::ClansOfTheRift)
}
