//! `GameEvent`: what happened, as messages the view, the log and the sound read. Each roll says
//! its dice, its target and the rule it served, so a player can check every result.

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use crate::content::{Camp, Res, Stock};

/// Something that happened in the game.
#[derive(Message, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameEvent {
    /// A chapter's track moved (`rules::tracks`).
    TrackMoved {
        /// The track's id.
        track: String,
        /// Whose value.
        holder: super::tracks::Holder,
        /// By how much.
        change: i32,
        /// Its value now.
        value: i32,
    },
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
        /// The rule it served and for whom.
        what: Roll,
        /// The faces.
        dice: Vec<u8>,
        /// Success on total ≥ target.
        target: i32,
        /// Taken off each die before it is compared (famine, R5.4).
        #[serde(default)]
        malus: u8,
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
        /// Who paid: a building, improvement, unit or army.
        what: Upkeeper,
        /// What it cost.
        stock: Stock,
    },
    /// Upkeep unpaid: inactive this phase (R5.2).
    Inactive {
        /// What.
        what: Upkeeper,
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
        cause: Cause,
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
        reason: super::outcome::EndReason,
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
        end: BattleEnd,
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
    /// Something worth telling that changed nothing (or a plugin's note).
    Note(Notice),
    /// Something a chapter's rule did: its own event enum (told with `chapter::tell`), worded
    /// by the chapter (`text::chapter`).
    Chapter {
        /// The chapter's id.
        chapter: String,
        /// The chapter's event.
        what: super::chapter::value::ChapterValue,
    },
}

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BattleEnd {
    /// The defender is destroyed.
    AttackerWins,
    /// The attacker is destroyed.
    DefenderWins,
    /// Both destroyed in the same round.
    BothDestroyed,
    /// The attacker stepped back.
    Retreat,
    /// Both still stand after the last round.
    Undecided,
}

/// What a roll decided, and the rule it served.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Roll {
    /// R3.1: food spoilage.
    Spoilage,
    /// R6.2: a corruption attempt.
    Corruption,
    /// R6.3: a unit's resistance to corruption.
    Resistance {
        /// Unit id.
        unit: u32,
    },
    /// R7.3: a lab's analysis of an artifact.
    Analysis,
    /// R9.5: a unit's attack die in a battle round.
    Attack {
        /// Round (from 1).
        round: u8,
        /// Unit id.
        unit: u32,
    },
    /// A plugin's roll: its rule number and purpose.
    Other(String),
}

impl Roll {
    /// The rule the roll served, as cited (`R6.2`).
    pub fn rule(&self) -> &str {
        match self {
            Roll::Spoilage => "R3.1",
            Roll::Corruption => "R6.2",
            Roll::Resistance { .. } => "R6.3",
            Roll::Analysis => "R7.3",
            Roll::Attack { .. } => "R9.5",
            Roll::Other(s) => s.split_whitespace().next().unwrap_or(""),
        }
    }
}

/// What pays an upkeep, or stands idle for want of it (R5.2), or eats (R5.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Upkeeper {
    /// A building of an outpost.
    Building {
        /// Building id.
        id: String,
        /// The outpost's name.
        outpost: String,
    },
    /// An improvement on a tile.
    Improvement {
        /// Improvement id.
        id: String,
        /// Where.
        at: Hex,
    },
    /// A unit of an army (its upkeep other than food).
    Unit {
        /// Unit id.
        unit: u32,
        /// Unit type id.
        kind: String,
        /// Army id.
        army: u32,
    },
    /// An army, eating (R5.3).
    Army(u32),
}

/// Why a unit died.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// R5.4: famine tokens took its last hit point.
    Famine,
    /// R9.5: wounds in battle.
    Battle,
    /// Wounds from a card's effect.
    Card,
    /// A chapter's rule (its number: `"D4"`), such as a team the dragoness crosses.
    Rule(String),
}

/// Something worth telling that changed nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Notice {
    /// R7.1: no laboratory, so no research.
    NoLaboratory,
    /// The research deck is exhausted.
    ResearchDeckEmpty,
    /// A rift was to open but no corrupted tile lies free for it.
    NoTileForRift,
    /// A plugin's note, in words its translation table carries.
    Other(String),
}
