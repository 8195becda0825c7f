//! The words of a game event for the log: content ids shown as their names, free-form texts
//! the rules wrote (a note, a die's purpose) matched against the table's templates.

use std::fmt;

use hexx::Hex;

use super::Translations;
use crate::content::{Camp, ContentDb, Stock};
use crate::rules::GameEvent;
use crate::rules::event::{BattleEnd, Cause, Notice, Roll, Upkeeper};

impl GameEvent {
    /// The event in words, in the language of `tr` (English with an empty table), with content
    /// ids shown as their names when `db` knows them. Free-form texts the rules wrote (a note,
    /// a die's purpose) go through the table's templates (`Translations::dynamic`).
    pub fn words(&self, tr: &Translations, db: Option<&ContentDb>) -> String {
        use GameEvent::*;
        let t = |s: &str| tr.t(s).into_owned();
        let name = |id: &str| tr.name(db, id);
        let camp = |c: &Camp| t(&format!("{c:?}"));
        let h = |h: &Hex| format!("({}, {})", h.x, h.y);
        let stock = |s: &Stock| tr.stock(s);
        match self {
            StepStarted { cycle, step } => tr.f("Cycle {}: step {}", &[cycle, step]),
            TrackMoved {
                track,
                holder,
                change,
                value,
            } => tr.f(
                "{} of {}: {} (now {})",
                &[
                    &name(track),
                    &holder_words(tr, holder),
                    &format!("{change:+}"),
                    value,
                ],
            ),
            CardDrawn {
                camp: c,
                deck,
                card,
            } => tr.f(
                "{} drew “{}” from the {} deck",
                &[&camp(c), &name(card), &t(deck)],
            ),
            Dice {
                what,
                dice,
                target,
                malus,
                success,
                at,
            } => {
                let total: i32 = dice.iter().map(|d| *d as i32).sum();
                let rolled: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
                let mut s = tr.f(
                    "{}: rolled {} = {} vs {}+ -> {}",
                    &[
                        &what.words(tr),
                        &rolled.join("+"),
                        &total,
                        target,
                        &t(if *success { "success" } else { "failure" }),
                    ],
                );
                if *malus > 0 {
                    s.push_str(&tr.f(" (famine: −{} on each die)", &[malus]));
                }
                if let Some(a) = at {
                    s.push_str(&tr.f(" at {}", &[&h(a)]));
                }
                s
            }
            Produced { at, stock: s } => tr.f("{} produced at {}", &[&stock(s), &h(at)]),
            Collected { outpost, stock: s } => {
                tr.f("Outpost {} collected {}", &[outpost, &stock(s)])
            }
            Ready { id, at } => tr.f("{} is ready at {}", &[&name(id), &h(at)]),
            UpkeepPaid { what, stock: s } => {
                tr.f("{} paid upkeep: {}", &[&what.words(tr, db), &stock(s)])
            }
            Inactive { what } => tr.f(
                "{} is inactive this phase (upkeep unpaid, R5.2)",
                &[&what.words(tr, db)],
            ),
            Famine {
                army,
                change,
                tokens,
            } => tr.p("Army {}: famine {} -> {} token|Army {}: famine {} -> {} tokens", *tokens as u64,
                &[army, &format!("{change:+}"), tokens],
            ),
            UnitDied { army, unit, cause } => {
                tr.f("Unit {} of army {} died ({})", &[unit, army, &cause.words(tr)])
            }
            TileCorrupted { at } => tr.f("Tile {} is corrupted", &[&h(at)]),
            TileCleansed { at } => tr.f("Tile {} is cleansed", &[&h(at)]),
            UnitWounded { army, unit, amount } => {
                tr.f("Unit {} of army {} loses {} HP", &[unit, army, amount])
            }
            UnitTurned { unit, into, at } => tr.f(
                "Unit {} turns to Chaos as {} at {}",
                &[unit, &name(into), &h(at)],
            ),
            Spawned { unit, count, at } => {
                tr.f("{} {} emerge at {}", &[count, &name(unit), &h(at)])
            }
            RiftOpened { at } => tr.f("A rift opens at {}", &[&h(at)]),
            RiftClosed { at } => tr.f("The rift at {} is sealed", &[&h(at)]),
            StockChanged {
                outpost,
                gained,
                lost,
            } => tr.f(
                "Outpost {}: +{} −{}",
                &[outpost, &stock(gained), &stock(lost)],
            ),
            ResearchPoints { added, total } => tr.f("Research +{} -> {}", &[added, total]),
            ResearchOffered { cards } => {
                let names: Vec<String> = cards.iter().map(|c| name(c)).collect();
                tr.f("Research offered: {}", &[&names.join(", ")])
            }
            ResearchChosen { tech } => tr.f("Research chosen: {}", &[&name(tech)]),
            ResearchFunded { res, amount } => {
                tr.f("{} {} placed on the research", &[amount, &t(res.name())])
            }
            ResearchDone { tech, lost_points } => tr.p("Research done: {} ({} point over, lost)|Research done: {} ({} points over, lost)", *lost_points as u64,
                &[&name(tech), lost_points],
            ),
            LabAssigned {
                outpost,
                slot,
                artifact,
            } => match artifact {
                Some(a) => tr.f(
                    "Lab {} of outpost {} analyses the artifact at {}",
                    &[slot, outpost, &h(a)],
                ),
                None => tr.f("Lab {} of outpost {} returns to research", &[slot, outpost]),
            },
            ArtifactFound { card, at } => tr.f("Artifact from {}: {}", &[&h(at), &name(card)]),
            ArtifactToken { at } => tr.f("An artifact lies at {}", &[&h(at)]),
            PortalCellBuilt { arch, cell } => {
                tr.f("Portal arch {} cell {} built", &[&(arch + 1), &(cell + 1)])
            }
            PortalPowered { crystals, power } => tr.p("{} crystal into the portal -> power {}|{} crystals into the portal -> power {}", *crystals as u64,
                &[crystals, power],
            ),
            PortalCorrupted { added, markers } => tr.p("Chaos corrupts the power track: +{} -> {} marker|Chaos corrupts the power track: +{} -> {} markers", *markers as u64,
                &[added, markers],
            ),
            CorruptionPushedBack { removed, markers } => tr.p("Corruption pushed back: −{} -> {} marker|Corruption pushed back: −{} -> {} markers", *markers as u64,
                &[removed, markers],
            ),
            Passed { camp: c } => tr.f("{}: turn passed", &[&camp(c)]),
            GameOver { winner, reason } => {
                tr.f("Game over: {} win — {}", &[&camp(winner), &reason.words(tr)])
            }
            Built { id, at, timer } => tr.p("{} started at {} ({} time marker)|{} started at {} ({} time markers)", *timer as u64,
                &[&name(id), &h(at), timer],
            ),
            Recruited { unit, at } => tr.f("{} recruited at {}", &[&name(unit), &h(at)]),
            OutpostFounded { name: n, at } => tr.f("{} founded at {}", &[n, &h(at)]),
            OutpostLost { name: n, at } => tr.f("{} at {} falls to Chaos", &[n, &h(at)]),
            Activated { army } => tr.f("Army {} activated", &[army]),
            ActivationEnded { army } => tr.f("Army {} ends its activation", &[army]),
            Moved { army, path, cost } => tr.f(
                "Army {} moves to {} ({} AP)",
                &[army, &path.last().map(h).unwrap_or_default(), cost],
            ),
            CardAction { unit, action } => tr.f("Unit {} uses {}", &[unit, &t(action)]),
            Explored { at, card } => tr.f("Explored {}: {}", &[&h(at), &name(card)]),
            Merged { into, from } => tr.f("Army {} joins army {}", &[from, into]),
            Detached { from, army } => tr.f("Army {} splits from army {}", &[army, from]),
            BattleStarted {
                attacker,
                defender,
                at,
            } => tr.f(
                "Army {} attacks army {} at {}",
                &[attacker, defender, &h(at)],
            ),
            RoundFought { round, hits } => tr.p("Round {}: {} hit dealt, {} taken|Round {}: {} hits dealt, {} taken", hits.0 as u64,
                &[round, &hits.0, &hits.1],
            ),
            Retreated { army, to } => tr.f("Army {} retreats to {}", &[army, &h(to)]),
            BattleEnded {
                attacker,
                defender,
                rounds,
                end,
            } => tr.p("Battle of {} against {} ends after {} round: {}|Battle of {} against {} ends after {} rounds: {}", *rounds as u64,
                &[attacker, defender, rounds, &t(end.words())],
            ),
            RitualPerformed { ritual, at } => {
                tr.f("Ritual {} performed at {}", &[&name(ritual), &h(at)])
            }
            Embarked { army, at } => tr.f("Army {} embarks at {}", &[army, &h(at)]),
            Landed { army, at } => tr.f("Army {} lands at {}", &[army, &h(at)]),
            Loaded { army, stock: s } => tr.f("Army {} loads {}", &[army, &stock(s)]),
            Unloaded { army, stock: s, at } => {
                tr.f("Army {} unloads {} at {}", &[army, &stock(s), &h(at)])
            }
            Note(n) => n.words(tr),
            Chapter { chapter, what } => super::chapter::event(tr, chapter, what),
        }
    }
}

impl fmt::Display for GameEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(&Translations::default(), None))
    }
}

impl Roll {
    /// What the roll was for, citing its rule.
    pub fn words(&self, tr: &Translations) -> String {
        match self {
            Roll::Spoilage => tr.t("R3.1 food spoilage").into_owned(),
            Roll::Corruption => tr.t("R6.2 corruption").into_owned(),
            Roll::Resistance { unit } => tr.f("R6.3 chaos resistance of unit {}", &[unit]),
            Roll::Analysis => tr.t("R7.3 artifact analysis").into_owned(),
            Roll::Attack { round, unit } => tr.f("R9.5 round {} attack of unit {}", &[round, unit]),
            // A plugin's: its table's entry, or its templates.
            Roll::Other(s) => tr.dynamic(s),
        }
    }
}

impl Upkeeper {
    /// What pays or stands idle, named as the player reads it.
    pub fn words(&self, tr: &Translations, db: Option<&ContentDb>) -> String {
        match self {
            Upkeeper::Building { id, outpost } => tr.f("{} ({})", &[&tr.name(db, id), outpost]),
            Upkeeper::Improvement { id, at } => {
                tr.f("{} at ({}, {})", &[&tr.name(db, id), &at.x, &at.y])
            }
            Upkeeper::Unit { unit, kind, army } => {
                tr.f("unit {} ({}) of army {}", &[unit, &tr.name(db, kind), army])
            }
            Upkeeper::Army(a) => tr.f("army {}", &[a]),
        }
    }
}

impl Cause {
    /// Why a unit died, citing the rule.
    pub fn words(&self, tr: &Translations) -> String {
        match self {
            Cause::Famine => tr.t("famine (R5.4)").into_owned(),
            Cause::Battle => tr.t("battle (R9.5)").into_owned(),
            Cause::Card => tr.t("a card").into_owned(),
            Cause::Rule(rule) => tr.f("the chapter's rule {}", &[rule]),
        }
    }
}

impl Notice {
    /// The notice in words.
    pub fn words(&self, tr: &Translations) -> String {
        match self {
            Notice::NoLaboratory => tr
                .t("R7.1: no laboratory — research is skipped")
                .into_owned(),
            Notice::ResearchDeckEmpty => tr.t("The research deck is exhausted").into_owned(),
            Notice::NoTileForRift => tr
                .t("No corrupted tile to open a rift on: the rift fails to open")
                .into_owned(),
            Notice::Other(s) => tr.dynamic(s),
        }
    }
}

impl BattleEnd {
    /// The outcome in words: the English text a translation table carries (`tr.t` it).
    pub fn words(self) -> &'static str {
        match self {
            BattleEnd::AttackerWins => "The attacker wins",
            BattleEnd::DefenderWins => "The defender wins",
            BattleEnd::BothDestroyed => "Both armies are destroyed",
            BattleEnd::Retreat => "The attacker steps back",
            BattleEnd::Undecided => "Both still stand after the last round",
        }
    }
}

/// Who holds a track's value, in words: a camp, or a seat (counted from 1 for players).
pub fn holder_words(tr: &Translations, h: &crate::rules::tracks::Holder) -> String {
    match h {
        crate::rules::tracks::Holder::Camp(c) => tr.t(&format!("{c:?}")).into_owned(),
        crate::rules::tracks::Holder::Seat(s) => tr.f("seat {}", &[&(*s as u32 + 1)]),
    }
}
