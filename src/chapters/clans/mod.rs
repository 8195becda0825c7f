//! The chapter *Clans of the Rift* (seed 001, rules C1–C17 of `docs/chapters/clans.md`): each
//! Eladrin seat leads a clan with a sheet of eight upgrade slots paid in Rage, brings monsters
//! to its side, commits to quests face down, and pillages the valley's provinces after a call
//! to battle. Chaos is a clan too: its pillages feed its corruption.
//!
//! Built through the chapter seams only (`rules::chapter`): its state (`state`), its level
//! fields (`data`, the level `levels/clans.ron`), its tracks Rage and Glory
//! (`assets/content/tracks.ron`), the action phase `CACTION` in rounds among the seats then
//! Chaos (`round`), the call to battle and the battle (`battle`), the numbers both read
//! (`reckon`), the automatic phases `CDRAW`, `CQUEST`, `CRELEASE` (`phases`), its AI terms
//! (`ai`), its words (`words`), its panel (`panel`) and its map marks (`map`).
//!
//! Readings of this game (`docs/chapters/clans.md`): a figure enters the board by an
//! **invasion** paying Rage equal to its STR, or for free with its upgrade (C5, C6); a **march**
//! moves one figure to an adjacent province for `march` Rage; the cards of a battle may be any
//! card of the hand (only battle cards add their STR), the winners' are discarded and the
//! losers' go back to their hand; a clan at 0 Rage still answers a call to battle and plays its
//! card (C11 forbids it actions, and these are answers); the pillage tokens turn back to their
//! reward side at each cycle's start.

pub mod ai;
pub mod battle;
pub mod data;
pub mod map;
pub mod panel;
pub mod phases;
pub mod reckon;
pub mod round;
pub mod sheet;
pub mod state;
pub mod words;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::ScorerAppExt;
use crate::content::Chapter;
use crate::content::ChapterContent;
use crate::content::{Among, Camp};
use crate::rules::chapter::{self, ChapterAction, ChapterAppExt, ChapterRefusal, Place, TurnUse};
use crate::rules::{StepDef, StepKind, StepSchedule};
use crate::text::chapter::ChapterWordsExt;
use crate::view::chapter_view::ChapterViewExt;

use data::{Fig, Slot};
use state::{Clans, Spot};

/// The chapter's id (a level plays it with `chapters: ["clans"]`).
pub const ID: &str = "clans";
/// The cycle's start: Rage refilled, cards drawn, pillage tokens turned back.
pub const DRAW_STEP: &str = "CDRAW";
/// The action phase: rounds among the seats, then Chaos.
pub const ACTION_STEP: &str = "CACTION";
/// The quest phase (C10).
pub const QUEST_STEP: &str = "CQUEST";
/// Valhalla's release (C7).
pub const RELEASE_STEP: &str = "CRELEASE";
/// The Rage track (per seat, and Chaos').
pub const RAGE: &str = "rage";
/// The Glory track (per seat, and Chaos').
pub const GLORY: &str = "glory";

/// The chapter's actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClanAction {
    /// Reading: a figure of the reserve onto the board, for Rage equal to its STR.
    Invade {
        /// Which figure.
        fig: Fig,
        /// Where: a province (a free village) or, for a ship, a fjord.
        to: Spot,
    },
    /// Reading: one figure (not a ship) to an adjacent province with a free village.
    March {
        /// Which figure.
        fig: Fig,
        /// The province it leaves.
        from: String,
        /// The province it enters.
        to: String,
    },
    /// C2–C6, C8: an upgrade card from the hand onto a slot, for Rage equal to its STR; with
    /// `invade`, its figure from the reserve onto the board at once for free (C5, C6).
    Upgrade {
        /// The card.
        card: String,
        /// The slot, 0 to 7 (`data::SHEET`).
        slot: usize,
        /// Where its figure invades, if it does.
        invade: Option<Spot>,
    },
    /// C9: a quest card from the hand, face down, at no cost.
    Quest {
        /// The card.
        card: String,
    },
    /// C13: pillage a province; the call to battle follows (C14).
    Pillage {
        /// The province.
        province: String,
    },
    /// C14: bring one figure from an adjacent province into the province pillaged.
    Join {
        /// Which figure.
        fig: Fig,
        /// The province it comes from.
        from: String,
    },
    /// C14: bring no one (now).
    Decline,
    /// C17: the card (or none) played face down in the battle.
    Play {
        /// A card of the hand.
        card: Option<String>,
    },
}

/// The chapter's refusals, each citing its rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClanRefusal {
    /// C11: a clan at 0 Rage takes no action at all.
    NoRage,
    /// C2: not enough Rage for its cost.
    TooLittleRage {
        /// What it costs.
        needs: u32,
        /// What the clan has.
        has: u32,
    },
    /// C2, C9: that card is not in the hand.
    NotInHand(String),
    /// C2: not an upgrade card.
    NotAnUpgrade(String),
    /// C1: no such slot.
    NoSlot(usize),
    /// C1: the card goes on another kind of slot.
    WrongSlot {
        /// The slot chosen.
        slot: Slot,
        /// The card's.
        needs: Slot,
    },
    /// C8: that monster is another clan's.
    MonsterTaken(String),
    /// C5: that figure is not in the reserve.
    NotInReserve(Fig),
    /// C5: an invasion with an upgrade places that upgrade's figure.
    NotItsFigure(Fig),
    /// No province or fjord with that id.
    NoSpot(String),
    /// Ships stand on fjords, every other figure in provinces.
    WrongWater,
    /// C14: every village of the province is taken.
    VillagesFull(String),
    /// Reading (Horns): the clan has as many figures on the board as its Horns allow.
    HornsFull(u32),
    /// C9: not a quest card.
    NotAQuest(String),
    /// C13: the province's token is on its pillaged side.
    AlreadyPillaged(String),
    /// C13: none of the clan's figures in the province or on an adjacent fjord.
    NotThere(String),
    /// C14: a call to battle is open: it is answered first.
    CallOpen,
    /// C14: no call to battle is open, or it is not at this stage.
    NoCall,
    /// C14: the figure is not in that province, or it is not adjacent to the one pillaged.
    NotAdjacent(String),
    /// C14: ships do not move.
    ShipsStay,
    /// C17: this clan has no figure in the battle.
    NotInBattle,
    /// No sheet for this clan.
    NoSheet,
}

impl ChapterRefusal for ClanRefusal {
    fn rule(&self) -> &'static str {
        use ClanRefusal::*;
        match self {
            NoRage => "C11",
            TooLittleRage { .. } | NotInHand(_) | NotAnUpgrade(_) => "C2",
            NoSlot(_) | WrongSlot { .. } | NoSheet => "C1",
            MonsterTaken(_) => "C8",
            NotInReserve(_) | NotItsFigure(_) | HornsFull(_) => "C5",
            NoSpot(_) | WrongWater => "C13",
            VillagesFull(_) | CallOpen | NoCall | NotAdjacent(_) | ShipsStay => "C14",
            NotAQuest(_) => "C9",
            AlreadyPillaged(_) | NotThere(_) => "C13",
            NotInBattle => "C17",
        }
    }
}

impl ChapterAction for ClanAction {
    type Refusal = ClanRefusal;
    type Event = battle::Told;
    const CHAPTER: &'static str = ID;
    fn place(&self) -> Place {
        match self {
            // A pillage and its answers don't move the turn by the core: the call to battle
            // lends it to each clan asked, then gives it back after the pillager (`battle`).
            ClanAction::Pillage { .. }
            | ClanAction::Join { .. }
            | ClanAction::Decline
            | ClanAction::Play { .. } => Place {
                steps: &[ACTION_STEP],
                turn: TurnUse::Free,
                in_activation: false,
            },
            _ => Place::acts(&[ACTION_STEP]),
        }
    }
    fn validate(&self, world: &mut World, by: Camp) -> Result<(), ClanRefusal> {
        round::check(world, by, self)
    }
    fn apply(&self, world: &mut World, by: Camp) {
        round::apply(world, by, self)
    }
    fn candidates(world: &mut World, by: Camp) -> Vec<Self> {
        if !chapter::in_step(world, ACTION_STEP) {
            return Vec::new();
        }
        round::candidates(world, by)
    }
}

/// The chapter's rules and AI: every seam of `rules::chapter` it uses, in one place.
pub fn build(app: &mut App) {
    app.add_chapter_state::<Clans>()
        .add_chapter_actions::<ClanAction>()
        .add_chapter_step(StepDef {
            id: DRAW_STEP,
            title: "Rage and cards",
            kind: StepKind::Automatic,
        })
        .add_chapter_step(StepDef {
            id: ACTION_STEP,
            title: "Clans",
            kind: StepKind::Round {
                among: Among::SeatsThenChaos,
                ends: None,
            },
        })
        .add_chapter_step(StepDef {
            id: QUEST_STEP,
            title: "Quests",
            kind: StepKind::Automatic,
        })
        .add_chapter_step(StepDef {
            id: RELEASE_STEP,
            title: "Valhalla",
            kind: StepKind::Automatic,
        })
        .add_systems(StepSchedule(DRAW_STEP), phases::draw)
        .add_systems(StepSchedule(QUEST_STEP), phases::quests)
        .add_systems(StepSchedule(RELEASE_STEP), phases::release)
        .add_chapter_setup(ID, phases::setup)
        .add_chapter_veto(ID, battle::veto)
        .add_chapter_glory(ID, phases::glory_by_seat)
        .add_chapter_eval(ID, ai::eval);
    for ca in ai::CANDIDATES {
        app.add_chapter_scorer(ID, Camp::Eladrins, ca)
            .add_chapter_scorer(ID, Camp::Chaos, ca);
    }
}

/// The chapter *Clans of the Rift*, as the program passes it to the app (`chapters::shipped`).
pub struct ClansOfTheRift;

impl Chapter for ClansOfTheRift {
    fn id(&self) -> &'static str {
        ID
    }
    fn content(&self, content: &mut ChapterContent) {
        content.tracks(ID, &[RAGE, GLORY]);
        content.level_fields::<data::ClanLevel>();
    }
    fn build(&self, app: &mut App) {
        build(app);
        app.add_chapter_words(ID, words::WORDS);
    }
    fn build_view(&self, app: &mut App) {
        app.add_chapter_panel::<Clans>(ID, panel::draw)
            .add_chapter_table::<Clans>(ID, "Clan sheet", sheet::draw)
            .add_chapter_marks(ID, map::marks)
            .add_chapter_show(ID, map::beat)
            .add_chapter_help(
                ID,
                include_str!("../../../assets/help/chapters/clans.en.md"),
                include_str!("../../../assets/help/chapters/clans.fr.md"),
            )
            .add_chapter_hints(
                ID,
                include_str!("../../../assets/help/chapters/clans.hints.ron"),
            );
    }
}
