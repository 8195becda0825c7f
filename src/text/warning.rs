//! The words of an upkeep forecast warning (famine, idle works, Chaos' first corruption target
//! with its odds, a blocked power track), each citing the rule it foresees.

use super::Translations;
use crate::content::{ContentDb, Stock};
use crate::rules::forecast::Warning;

impl Warning {
    /// The warning in words, in the language of `tr` (English with an empty table), with
    /// building and improvement ids shown as their names when `db` knows them.
    pub fn words(&self, tr: &Translations, db: Option<&ContentDb>) -> String {
        let stock = |s: &Stock| tr.stock(s);
        let name = |id: &str| tr.name(db, id);
        match self {
            Warning::Famine {
                army,
                at,
                needs,
                within_reach,
                tokens,
            } => tr.p("Army {} at ({}, {}) eats {} at upkeep; {} within reach now: {} famine token unless more arrives (R5.3–R5.4)|Army {} at ({}, {}) eats {} at upkeep; {} within reach now: {} famine tokens unless more arrives (R5.3–R5.4)", *tokens as u64,
                &[army, &at.0, &at.1, &stock(needs), &stock(within_reach), tokens],
            ),
            Warning::BuildingInactive {
                outpost,
                building,
                upkeep,
            } => tr.f(
                "{} in {} can't pay its upkeep ({}) now: it will stand idle (R5.2)",
                &[&name(building), outpost, &stock(upkeep)],
            ),
            Warning::ImprovementInactive {
                at,
                improvement,
                upkeep,
            } => tr.f(
                "{} at ({}, {}) can't pay its upkeep ({}) now: it will stand idle (R5.2)",
                &[&name(improvement), &at.0, &at.1, &stock(upkeep)],
            ),
            Warning::Corruption {
                at,
                target,
                chance,
                attempts,
                outpost,
            } => {
                let template = if *outpost {
                    "Chaos tries ({}, {}) first, an outpost: 2d6 ≥ {}, {} % ({} attempt, R6.2)|Chaos tries ({}, {}) first, an outpost: 2d6 ≥ {}, {} % ({} attempts, R6.2)"
                } else {
                    "Chaos tries ({}, {}) first: 2d6 ≥ {}, {} % ({} attempt, R6.2)|Chaos tries ({}, {}) first: 2d6 ≥ {}, {} % ({} attempts, R6.2)"
                };
                tr.p(
                    template,
                    *attempts as u64,
                    &[&at.0, &at.1, target, &format!("{:.0}", chance * 100.0), attempts],
                )
            }
            Warning::PowerBlocked {
                markers,
                cells_left,
            } => tr.p(
                "{} corruption marker blocks the portal's power track: no crystal goes in until a rift is closed or a ritual pushes it back (free cells before Chaos takes the portal: {}, R8.3–R8.4)|{} corruption markers block the portal's power track: no crystal goes in until rifts are closed or rituals push them back (free cells before Chaos takes the portal: {}, R8.3–R8.4)",
                *markers as u64,
                &[markers, cells_left],
            ),
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&Translations::default(), None))
    }
}

/// A tile's corruption at the next upkeep (R6.1–R6.2), as the tile box says it.
pub fn corruption_chance(
    tr: &Translations,
    c: crate::rules::upkeep::corruption::CorruptionChance,
) -> String {
    use crate::rules::upkeep::corruption::CorruptionChance as C;
    match c {
        C::Corrupted => tr.t("Corrupted").into_owned(),
        C::Safe => tr.t("Safe from corruption this upkeep").into_owned(),
        C::Roll { at_least, chance } => tr.f(
            "Chaos may corrupt it: 2d6 ≥ {} (R6.2), {} % per attempt",
            &[&at_least, &format!("{:.0}", chance * 100.0)],
        ),
    }
}
