//! Rules versions. A game keeps the rules it was started under: the version is part of
//! `GameSetup`, so saves carry it, replays record it and the state hash covers it. When a fix
//! changes how a game plays, the version goes up and the old behaviour stays behind one named
//! question below, so a replay or save made before the fix plays on exactly as it was recorded
//! (never a silent drift, never a false "drifted" error). A file from a newer build is refused
//! with both versions named (`check`).
//!
//! | version | what changed |
//! |---|---|
//! | 1 | the game as first built |
//! | 2 | R9.4 a joining unit keeps its points less one; R5.4 famine lowers the roll, not a hit number clamped at 6; R8.3 the portal step waits while a marker blocks power, so its reason is seen |
//! | 3 | chapter rules: M1 a seat of Wyvern Wardens passes only when it can do nothing else; C14 a call to battle goes once round the table, one figure per clan; C17 the side that wins a battle takes the province's reward, whoever pillaged (each chapter asks `Rules::at_least(3)` in its own folder) |

use serde::{Deserialize, Serialize};

/// The rules this build starts new games under.
pub const RULES_VERSION: u32 = 3;
/// The oldest rules this build still plays.
pub const OLDEST_RULES: u32 = 1;

/// A rules version, with one question per change since version 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rules(pub u32);

impl Rules {
    /// The rules new games start under.
    pub const CURRENT: Rules = Rules(RULES_VERSION);

    /// R9.4 (v2): "a unit joining another unit costs 1 point to both": the joiner keeps its
    /// points less one. Version 1 left every newcomer with 0.
    pub fn joiner_keeps_points(self) -> bool {
        self.0 >= 2
    }

    /// R5.4 (v2): famine is −1 to each attack roll, so a famished unit that hits on 6 misses.
    /// Version 1 added the tokens to the hit number and clamped it at 6.
    pub fn famine_lowers_the_roll(self) -> bool {
        self.0 >= 2
    }

    /// R8.3 (v2): the portal step stays open while a corruption marker blocks power and
    /// crystals could go in, so a try is refused with the rule's reason. Version 1 closed it.
    pub fn blocked_portal_waits(self) -> bool {
        self.0 >= 2
    }

    /// Whether these rules are version `v` or later. A chapter asks it for its own changes,
    /// behind a question named in its own folder, since the core names no chapter.
    pub fn at_least(self, v: u32) -> bool {
        self.0 >= v
    }
}

impl Default for Rules {
    /// Files written before versions existed (no field) are version 1.
    fn default() -> Self {
        Rules(OLDEST_RULES)
    }
}

/// Version 1 is written as no field at all, so the state hash of a version-1 game is the one
/// recorded before versions existed.
pub fn is_first(r: &Rules) -> bool {
    r.0 == OLDEST_RULES
}

/// Whether this build plays `r`; the refusal names both versions.
pub fn check(r: Rules, what: &str) -> Result<(), String> {
    if (OLDEST_RULES..=RULES_VERSION).contains(&r.0) {
        Ok(())
    } else {
        Err(format!(
            "this {what} was made under rules version {}, and this game plays rules versions \
             {OLDEST_RULES} to {RULES_VERSION}: it would not play the same way, so it is refused",
            r.0
        ))
    }
}
