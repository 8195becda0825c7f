//! The words of a refusal: one template per reason, with `{}` for its values, so a translation
//! table carries each reason whole. The reason cites its rule (R5.4, R9.4…) in both languages.

use std::fmt;

use super::Translations;
use crate::rules::Refusal;

impl Refusal {
    /// The reason in words, in the language of `tr` (English with an empty table). Each reason
    /// is one template with `{}` for its values, so a translation table can carry it whole.
    pub fn words(&self, tr: &Translations) -> String {
        use Refusal::*;
        let t = |s: &str| tr.t(s).into_owned();
        match self {
            GameOver => t("the game is over"),
            WrongStep { needs, now } => tr.f(
                "this is done in step {}, and the game is in step {}",
                &[&one_of(tr, needs), now],
            ),
            NotYourTurn { expected } => {
                tr.f("R9: it is the {}' turn", &[&t(&format!("{expected:?}"))])
            }
            UnknownArmy(id) => tr.f("there is no army {}", &[id]),
            NotYourArmy(id) => tr.f("army {} is not yours", &[id]),
            UnknownOutpost(id) => tr.f("there is no outpost {}", &[id]),
            NothingToDo => t("the amount must be at least 1"),
            NotThatMuchFamine { tokens } => {
                tr.p("R5.5: the army has only {} famine token|R5.5: the army has only {} famine tokens", *tokens as u64, &[tokens])
            }
            NotEnough { res, need, have } => tr.f(
                "not enough {}: {} needed, {} within reach",
                &[&t(res.name()), need, have],
            ),
            ChooseFirst => t("R7.4: choose one of the offered technologies first"),
            NotOffered(x) => tr.f(
                "R7.4: `{}` is not among the offered technologies",
                &[x],
            ),
            NoResearch => t("R7.2: no research is under way"),
            NotNeeded(r) => tr.f("R7.2: the research needs no more {}", &[&t(r.name())]),
            NotALab => t("R7.3: there is no working laboratory in that slot"),
            NoArtifact((q, r)) => tr.f(
                "R7.3: no artifact token at ({}, {}) in the outpost's influence zone",
                &[q, r],
            ),
            UnknownArch(a) => tr.f("R8.1: the portal has no arch {}", &[a]),
            ArchComplete(a) => tr.f("R8.1: arch {} is complete", &[&(a + 1)]),
            PortalNotBuilt => {
                t("R8.2: both arches must be built before the portal can be powered")
            }
            CrystalLimit { max, used } => tr.f(
                "R8.2: at most {} crystals per phase ({} already)",
                &[max, used],
            ),
            PowerBlocked => {
                t("R8.3: a corruption marker blocks the power track: close a rift or perform a ritual to push it back")
            }
            UnknownKind(k) => tr.f("no action kind `{}` is known", &[k]),
            UnknownContent(id) => tr.f("`{}` is not in the game's content", &[id]),
            OffMap((q, r)) => tr.f("({}, {}) is not on the map", &[q, r]),
            ImprovementThere((q, r)) => tr.f(
                "R9.1: ({}, {}) already has an improvement (one per tile)",
                &[q, r],
            ),
            WrongTerrain { what, terrain } => {
                tr.f("{} can't be built on {}", &[&t(what), &t(terrain)])
            }
            Locked(x) => tr.f("research {} first", &[&t(x)]),
            EnemyThere((q, r)) => tr.f("R9.1: an enemy unit is on ({}, {})", &[q, r]),
            NotControlled((q, r)) => tr.f(
                "R9.1: ({}, {}) is in no outpost's control zone and no friendly military unit holds it",
                &[q, r],
            ),
            NoSlot { slots } => tr.f("R9.2: the outpost's size allows {} buildings", &[slots]),
            NotRecruitable(u) => tr.f("{} can't be recruited", &[&t(u)]),
            EladrinsOnly => t("only the Eladrins do this"),
            NoActivation => t("R9.4: activate an army first"),
            ActivationOpen(a) => tr.f(
                "R9.4: army {} is being activated: end its activation first",
                &[a],
            ),
            AlreadyActivated(a) => {
                tr.f("R9.4: army {} was already activated this turn", &[a])
            }
            NothingCanAct(a) => tr.f("no unit of army {} can act", &[a]),
            UnknownUnit(u) => tr.f("no unit {} in the active army", &[u]),
            NoActionPoints { unit, need, have } => tr.p("R9.4: unit {} needs {} action point and has {}|R9.4: unit {} needs {} action points and has {}", *need as u64,
                &[unit, need, have],
            ),
            Unreachable((q, r)) => tr.f(
                "R9.4: ({}, {}) can't be reached with the action points left",
                &[q, r],
            ),
            InactiveUnits => {
                t("R5.2: an inactive unit (upkeep unpaid) holds its army in place this phase")
            }
            MissingSkill(s) => tr.f("that needs the {} skill", &[&t(s)]),
            AlreadyExplored((q, r)) => tr.f("R9.3: ({}, {}) was explored already", &[q, r]),
            NotHere(a) => tr.f("army {} is not on this tile", &[a]),
            Famished(a) => tr.f(
                "R5.4: army {} has famine tokens and can't detach units",
                &[a],
            ),
            RecruitWouldStarve { army, famine } => tr.p("R5.4: army {} on the outpost carries {} famine token; a recruit would join it and die at once. Feed it first (R5.5)|R5.4: army {} on the outpost carries {} famine tokens; a recruit would join it and die at once. Feed it first (R5.5)", *famine as u64,
                &[army, famine],
            ),
            NotAnEnemy(a) => tr.f("army {} is not an enemy", &[a]),
            NoFighter(a) => tr.f("R9.5: army {} has no unit able to fight", &[a]),
            RitualistsNeeded { need, have } => tr.p("{} ritualist with action points needed, {} there|{} ritualists with action points needed, {} there", *need as u64,
                &[need, have],
            ),
            NotOnRift((q, r)) => tr.f("({}, {}) is not an open rift", &[q, r]),
            AlreadySummoned((q, r)) => {
                tr.f("Chaos already summoned at ({}, {}) this turn", &[q, r])
            }
            TooCloseToOutpost => {
                t("a new outpost must stand outside every outpost's control zone")
            }
            Corrupted((q, r)) => tr.f("({}, {}) is corrupted", &[q, r]),
            AlreadyEmbarked(u) => tr.f(
                "R9.4: unit {} already embarked or landed this cycle",
                &[u],
            ),
            Afloat(true) => t("the army is afloat: land first"),
            Afloat(false) => t("the army is ashore: embark first"),
            NoBoat { seats, passengers } => tr.p("R9.4: boats for {} unit, {} to carry|R9.4: boats for {} units, {} to carry", *seats as u64,
                &[seats, passengers],
            ),
            NoWater((q, r)) => tr.f("no water next to ({}, {}) to embark on", &[q, r]),
            RiftCrowded((q, r)) => tr.f(
                "too many Chaos units stand on the rift at ({}, {}) to summon more",
                &[q, r],
            ),
            HoldFull { hold, carried } => tr.f(
                "the boats hold {} resources and carry {}",
                &[hold, carried],
            ),
            NoOutpostSize => t("the content has no outpost size to found an outpost with"),
            NotAMainAction => t("R9: this is not an action of the main phase"),
            ExplorationDeckEmpty => t("R9.3: the exploration deck is empty"),
            DetachSome => t("R9.4: detach at least one unit and leave at least one"),
            Other(s) => t(s),
            Chapter {
                chapter,
                rule,
                reason,
            } => super::chapter::refusal(tr, chapter, rule, reason),
            NotInPlay(c) => tr.f("the chapter `{}` is not played in this level", &[c]),
            Malformed { chapter, why } => {
                tr.f("not an action of the chapter `{}`: {}", &[chapter, why])
            }
            NotYourSeat { owner } => tr.f(
                "this belongs to seat {}: only its player commands it",
                &[&(*owner as u32 + 1)],
            ),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(&Translations::default()))
    }
}

/// Steps as a list a player reads: "R5", "R5 or R7", "R5, R7 or R8".
fn one_of(tr: &Translations, ids: &[String]) -> String {
    match ids.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => tr.f("{} or {}", &[&rest.join(", "), last]),
    }
}
