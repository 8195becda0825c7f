//! `GameEvent`: what happened, as messages the view, the log and the sound read. Each roll says
//! its dice, its target and the rule it served, so a player can check every result.

use std::fmt;

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::{Camp, ContentDb, Res, Stock};
use crate::i18n::Translations;

/// Something that happened in the game.
#[derive(Message, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameEvent {
    /// A step of the cycle began.
    StepStarted {
        /// Cycle number (from 1).
        cycle: u32,
        /// Step id (`R2`, `R3`, …, `R9`, or a plugin's).
        step: String,
    },
    /// A card was drawn.
    CardDrawn {
        /// Who drew it.
        camp: Camp,
        /// The deck.
        deck: String,
        /// Card id.
        card: String,
    },
    /// Dice were rolled.
    Dice {
        /// The rule and purpose, e.g. "R3.1 food spoilage".
        what: String,
        /// The faces.
        dice: Vec<u8>,
        /// Success on total ≥ target.
        target: i32,
        /// Did it succeed.
        success: bool,
        /// Where, if on the map.
        at: Option<Hex>,
    },
    /// Resources were placed on a tile (R3).
    Produced {
        /// Where.
        at: Hex,
        /// What.
        stock: Stock,
    },
    /// An outpost collected resources into its stock (R3.3).
    Collected {
        /// Outpost id.
        outpost: u32,
        /// What.
        stock: Stock,
    },
    /// A building or improvement became ready (R4).
    Ready {
        /// Content id.
        id: String,
        /// Where.
        at: Hex,
    },
    /// Upkeep was paid (R5).
    UpkeepPaid {
        /// Who paid: a building, improvement or army.
        what: String,
        /// What it cost.
        stock: Stock,
    },
    /// Upkeep unpaid: inactive this phase (R5.2).
    Inactive {
        /// What.
        what: String,
    },
    /// Famine tokens placed (R5.4) or removed (R5.5; negative).
    Famine {
        /// Army id.
        army: u32,
        /// Change in tokens.
        change: i32,
        /// Tokens now.
        tokens: u32,
    },
    /// A unit died (famine, wounds).
    UnitDied {
        /// Army id.
        army: u32,
        /// Unit id.
        unit: u32,
        /// Why.
        cause: String,
    },
    /// A tile was corrupted (R6).
    TileCorrupted {
        /// Where.
        at: Hex,
    },
    /// A tile was cleansed.
    TileCleansed {
        /// Where.
        at: Hex,
    },
    /// A unit lost hit points.
    UnitWounded {
        /// Army id.
        army: u32,
        /// Unit id.
        unit: u32,
        /// Hit points lost.
        amount: u8,
    },
    /// A unit turned to Chaos (R6.3).
    UnitTurned {
        /// Unit id.
        unit: u32,
        /// What it became.
        into: String,
        /// Where.
        at: Hex,
    },
    /// Chaos units appeared.
    Spawned {
        /// Unit type.
        unit: String,
        /// How many.
        count: u32,
        /// Where.
        at: Hex,
    },
    /// A rift opened.
    RiftOpened {
        /// Where.
        at: Hex,
    },
    /// A rift closed.
    RiftClosed {
        /// Where.
        at: Hex,
    },
    /// Outpost stocks changed by a card.
    StockChanged {
        /// Outpost id.
        outpost: u32,
        /// Gained.
        gained: Stock,
        /// Lost.
        lost: Stock,
    },
    /// Research points added (R7.2).
    ResearchPoints {
        /// Added.
        added: u32,
        /// Now.
        total: u32,
    },
    /// Research cards offered (R7.4).
    ResearchOffered {
        /// Card ids.
        cards: Vec<String>,
    },
    /// A technology was chosen.
    ResearchChosen {
        /// Card id.
        tech: String,
    },
    /// Resources placed on the research card (R7.2).
    ResearchFunded {
        /// Resource.
        res: Res,
        /// Amount.
        amount: u32,
    },
    /// A technology was completed (R7.2).
    ResearchDone {
        /// Card id.
        tech: String,
        /// Points over the need, lost.
        lost_points: u32,
    },
    /// A lab was set to analyse an artifact, or back to research.
    LabAssigned {
        /// Outpost id.
        outpost: u32,
        /// Building slot.
        slot: usize,
        /// The artifact's tile, or none for research.
        artifact: Option<Hex>,
    },
    /// An artifact card was drawn (R7.3).
    ArtifactFound {
        /// Card id.
        card: String,
        /// Where the token was.
        at: Hex,
    },
    /// An artifact token appeared.
    ArtifactToken {
        /// Where.
        at: Hex,
    },
    /// A portal cell was built (R8.1).
    PortalCellBuilt {
        /// Arch index.
        arch: usize,
        /// Cell index from the base.
        cell: u32,
    },
    /// Crystals went into the portal (R8.2).
    PortalPowered {
        /// Crystals added.
        crystals: u32,
        /// Power now.
        power: u32,
    },
    /// Corruption markers on the power track (R8.3).
    PortalCorrupted {
        /// Added.
        added: u32,
        /// Markers now.
        markers: u32,
    },
    /// Corruption pushed back from the power track (R8.3).
    CorruptionPushedBack {
        /// Removed.
        removed: u32,
        /// Markers now.
        markers: u32,
    },
    /// A camp passed (R9).
    Passed {
        /// Who.
        camp: Camp,
    },
    /// The game ended.
    GameOver {
        /// Winner.
        winner: Camp,
        /// How.
        reason: String,
    },
    /// Something was built or put under construction (R9.1, R9.2).
    Built {
        /// Content id.
        id: String,
        /// Where.
        at: Hex,
        /// Time markers.
        timer: u8,
    },
    /// A unit was recruited.
    Recruited {
        /// Unit type.
        unit: String,
        /// Where.
        at: Hex,
    },
    /// An outpost was founded.
    OutpostFounded {
        /// Its name.
        name: String,
        /// Where.
        at: Hex,
    },
    /// An outpost fell to Chaos.
    OutpostLost {
        /// Its name.
        name: String,
        /// Where.
        at: Hex,
    },
    /// An army was activated (R9.4).
    Activated {
        /// Army id.
        army: u32,
    },
    /// An activation ended.
    ActivationEnded {
        /// Army id.
        army: u32,
    },
    /// An army moved.
    Moved {
        /// Army id.
        army: u32,
        /// The hexes entered.
        path: Vec<Hex>,
        /// Action points each unit paid.
        cost: u8,
    },
    /// A card action was used.
    CardAction {
        /// Unit id.
        unit: u32,
        /// Action id.
        action: String,
    },
    /// A tile was explored (R9.3).
    Explored {
        /// Where.
        at: Hex,
        /// Exploration card.
        card: String,
    },
    /// Two armies merged.
    Merged {
        /// Receiving army.
        into: u32,
        /// Army that joined.
        from: u32,
    },
    /// Units left an army.
    Detached {
        /// The army left.
        from: u32,
        /// The new army.
        army: u32,
    },
    /// A battle began (R9.5).
    BattleStarted {
        /// Attacker.
        attacker: u32,
        /// Defender.
        defender: u32,
        /// Where.
        at: Hex,
    },
    /// A round was fought.
    RoundFought {
        /// Round number.
        round: u8,
        /// Hits by (attacker, defender).
        hits: (u32, u32),
    },
    /// An army retreated.
    Retreated {
        /// Army id.
        army: u32,
        /// Where to.
        to: Hex,
    },
    /// A battle ended.
    BattleEnded {
        /// Attacker.
        attacker: u32,
        /// Defender.
        defender: u32,
        /// Rounds fought.
        rounds: u8,
        /// How.
        end: super::main_phase::combat::BattleEnd,
    },
    /// A ritual was performed.
    RitualPerformed {
        /// Ritual id.
        ritual: String,
        /// Where.
        at: Hex,
    },
    /// An army embarked.
    Embarked {
        /// Army id.
        army: u32,
        /// Where.
        at: Hex,
    },
    /// An army landed.
    Landed {
        /// Army id.
        army: u32,
        /// Where.
        at: Hex,
    },
    /// Boats loaded resources.
    Loaded {
        /// Army id.
        army: u32,
        /// What.
        stock: Stock,
    },
    /// Boats unloaded resources.
    Unloaded {
        /// Army id.
        army: u32,
        /// What.
        stock: Stock,
        /// Where.
        at: Hex,
    },
    /// A free-form note from a plugin.
    Note(String),
}

impl GameEvent {
    /// The event in words, in the language of `tr` (English with an empty table), with content
    /// ids shown as their names when `db` knows them. Free-form texts the rules wrote (a note,
    /// a die's purpose) go through the table's templates (`Translations::dynamic`).
    pub fn words(&self, tr: &Translations, db: Option<&ContentDb>) -> String {
        use GameEvent::*;
        let t = |s: &str| tr.t(s).into_owned();
        let d = |s: &str| tr.dynamic(s);
        let name = |id: &str| tr.name(db, id);
        let camp = |c: &Camp| t(&format!("{c:?}"));
        let h = |h: &Hex| format!("({}, {})", h.x, h.y);
        let stock = |s: &Stock| tr.stock(s);
        match self {
            StepStarted { cycle, step } => tr.f("Cycle {}: step {}", &[cycle, step]),
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
                success,
                at,
            } => {
                let total: i32 = dice.iter().map(|d| *d as i32).sum();
                let rolled: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
                let mut s = tr.f(
                    "{}: rolled {} = {} vs {}+ -> {}",
                    &[
                        &d(what),
                        &rolled.join("+"),
                        &total,
                        target,
                        &t(if *success { "success" } else { "failure" }),
                    ],
                );
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
            UpkeepPaid { what, stock: s } => tr.f("{} paid upkeep: {}", &[&d(what), &stock(s)]),
            Inactive { what } => tr.f(
                "{} is inactive this phase (upkeep unpaid, R5.2)",
                &[&d(what)],
            ),
            Famine {
                army,
                change,
                tokens,
            } => tr.f(
                "Army {}: famine {} -> {} token(s)",
                &[army, &format!("{change:+}"), tokens],
            ),
            UnitDied { army, unit, cause } => {
                tr.f("Unit {} of army {} died ({})", &[unit, army, &d(cause)])
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
            ResearchDone { tech, lost_points } => tr.f(
                "Research done: {} ({} point(s) over, lost)",
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
            PortalPowered { crystals, power } => tr.f(
                "{} crystal(s) into the portal -> power {}",
                &[crystals, power],
            ),
            PortalCorrupted { added, markers } => tr.f(
                "Chaos corrupts the power track: +{} -> {} marker(s)",
                &[added, markers],
            ),
            CorruptionPushedBack { removed, markers } => tr.f(
                "Corruption pushed back: −{} -> {} marker(s)",
                &[removed, markers],
            ),
            Passed { camp: c } => tr.f("{}: turn passed", &[&camp(c)]),
            GameOver { winner, reason } => {
                tr.f("Game over: {} win — {}", &[&camp(winner), &d(reason)])
            }
            Built { id, at, timer } => tr.f(
                "{} started at {} ({} time marker(s))",
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
            RoundFought { round, hits } => tr.f(
                "Round {}: {} hit(s) dealt, {} taken",
                &[round, &hits.0, &hits.1],
            ),
            Retreated { army, to } => tr.f("Army {} retreats to {}", &[army, &h(to)]),
            BattleEnded {
                attacker,
                defender,
                rounds,
                end,
            } => tr.f(
                "Battle of {} against {} ends after {} round(s): {}",
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
            Note(s) => d(s),
        }
    }
}

impl fmt::Display for GameEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(&Translations::default(), None))
    }
}
