//! The chapter *Wyvern Wardens* (seed 000, rules M1–M15 of `docs/chapters/mercenaries.md`):
//! Chaos' poachers hold the valley's dragons; each round the Eladrin seats send groups of
//! mercenaries to the places that can free them, take assistants, and suffer the poachers'
//! raids, whose Flame feeds Chaos' corruption.
//!
//! Built through the chapter seams only (`rules::chapter`): its state (`state`), its level
//! fields (`data`, the level `levels/mercenaries.ron`), the action phase `MACTION` in rounds
//! among the seats then the poachers (`round`), the automatic reward, raid and reset phases
//! `MREWARD`, `MRAID`, `MRESET` (`phases`), its AI scorers (`ai`), its words (`words`) and its
//! panel (`panel`). A level places the four steps in its cycle (before the main phase here,
//! so freed dragons fight in it and the raid's Flame feeds the next R6).

pub mod ai;
pub mod board;
pub mod data;
pub mod map;
pub mod panel;
pub mod phases;
pub mod round;
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

use data::{Assistant, Group, Merc};
use state::Mercs;

/// The chapter's id (a level plays it with `chapters: ["mercenaries"]`).
pub const ID: &str = "mercenaries";
/// The action phase (M1–M12): rounds among the seats, then the poachers.
pub const ACTION_STEP: &str = "MACTION";
/// The reward phase (M13).
pub const REWARD_STEP: &str = "MREWARD";
/// The raid phase (M14).
pub const RAID_STEP: &str = "MRAID";
/// The reset phase (M15).
pub const RESET_STEP: &str = "MRESET";

/// The Chief's recall (M11): one of the seat's groups back to its reserve, then a group sent
/// again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recall {
    /// The place and slot the group leaves.
    pub from: (String, usize),
    /// The place and slot the new group goes to.
    pub to: (String, usize),
    /// The new group.
    pub group: Group,
}

/// The chapter's actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MercAction {
    /// M1, M2, M4: send a group to a slot of an ordinary place.
    Send {
        /// The place.
        place: String,
        /// The slot, from the left.
        slot: usize,
        /// The group, by kind.
        group: Group,
    },
    /// M10: use a special place.
    Special {
        /// The place.
        place: String,
    },
    /// M11: take an assistant (the Chief may recall; the Defender discards a raid card).
    Assist {
        /// Which.
        who: Assistant,
        /// The Chief's recall.
        recall: Option<Recall>,
        /// The raid card the Defender discards (0: the older).
        raid: Option<usize>,
    },
    /// M9: one equipment token: one mercenary of the reserve for one of another kind.
    Swap {
        /// The kind given up.
        from: Merc,
        /// The kind taken.
        to: Merc,
    },
}

/// The chapter's refusals, each citing its rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MercRefusal {
    /// No place with that id.
    NoPlace(String),
    /// M2: a special place takes no group.
    NotOrdinary(String),
    /// M10: not a special place.
    NotSpecial(String),
    /// M10 (reading): that special place was used by this seat this round.
    SpecialUsed(String),
    /// M2: no such slot.
    NoSlot(usize),
    /// M2: a group stands there already.
    SlotTaken(usize),
    /// M4: a group of nobody.
    EmptyGroup,
    /// M4: the slot's number and the group's size differ.
    WrongSize {
        /// The slot's number.
        slot: u32,
        /// The group's size.
        group: u32,
    },
    /// M7: that kind of veteran may not go there.
    VeteranBarred {
        /// The kind.
        kind: Merc,
        /// The place.
        place: String,
    },
    /// M1: the reserve lacks that kind.
    Lacks(Merc),
    /// M1 (reading): the poachers send recruits only.
    PoachersRecruitsOnly,
    /// M11: that assistant is taken this round.
    AssistantTaken(Assistant),
    /// M11: one assistant per seat a round.
    OneAssistant,
    /// M11: the Defender discards one of two face-up raid cards.
    NoRaidCard(usize),
    /// M11: the Chief recalls one of its own groups.
    RecallNotYours,
    /// M9: no equipment token.
    NoEquipment,
    /// M9: an exchange is for another kind.
    SameKind,
    /// Only an Eladrin seat does this.
    EladrinsOnly,
    /// No sheet for this seat.
    NoSheet,
    /// M1: a seat's turn is one of the three actions; it passes only when it can take none.
    MustAct,
}

impl ChapterRefusal for MercRefusal {
    fn rule(&self) -> &'static str {
        use MercRefusal::*;
        match self {
            NoPlace(_) | NotOrdinary(_) | NoSlot(_) | SlotTaken(_) => "M2",
            EmptyGroup | WrongSize { .. } => "M4",
            VeteranBarred { .. } => "M7",
            Lacks(_) | PoachersRecruitsOnly | EladrinsOnly | NoSheet | MustAct => "M1",
            NotSpecial(_) | SpecialUsed(_) => "M10",
            AssistantTaken(_) | OneAssistant | NoRaidCard(_) | RecallNotYours => "M11",
            NoEquipment | SameKind => "M9",
        }
    }
}

impl MercAction {
    /// The Chief's recall this action carries, if it is one (M11).
    pub fn recall(&self) -> Option<&Recall> {
        match self {
            MercAction::Assist {
                who: Assistant::Chief,
                recall: Some(r),
                ..
            } => Some(r),
            _ => None,
        }
    }
}

impl ChapterAction for MercAction {
    type Refusal = MercRefusal;
    type Event = phases::Told;
    const CHAPTER: &'static str = ID;
    fn place(&self) -> Place {
        match self {
            // M9: on its turn, on top of its action.
            MercAction::Swap { .. } => Place {
                steps: &[ACTION_STEP],
                turn: TurnUse::Free,
                in_activation: false,
            },
            _ => Place::acts(&[ACTION_STEP]),
        }
    }
    fn validate(&self, world: &mut World, by: Camp) -> Result<(), MercRefusal> {
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
    app.add_chapter_state::<Mercs>()
        .add_chapter_actions::<MercAction>()
        .add_chapter_step(StepDef {
            id: ACTION_STEP,
            title: "Mercenaries",
            kind: StepKind::Round {
                among: Among::SeatsThenChaos,
                ends: Some(round::phase_over),
            },
        })
        .add_chapter_step(StepDef {
            id: REWARD_STEP,
            title: "Rewards",
            kind: StepKind::Automatic,
        })
        .add_chapter_step(StepDef {
            id: RAID_STEP,
            title: "Raid",
            kind: StepKind::Automatic,
        })
        .add_chapter_step(StepDef {
            id: RESET_STEP,
            title: "Reset",
            kind: StepKind::Automatic,
        })
        .add_systems(StepSchedule(REWARD_STEP), phases::rewards)
        .add_systems(StepSchedule(RAID_STEP), phases::raid)
        .add_systems(StepSchedule(RESET_STEP), phases::reset)
        .add_chapter_veto(ID, round::veto)
        .add_chapter_setup(ID, phases::setup)
        .add_chapter_glory(ID, phases::glory_by_seat)
        .add_chapter_scorer(ID, Camp::Eladrins, ai::act)
        .add_chapter_scorer(ID, Camp::Chaos, ai::act);
}

/// The chapter *Wyvern Wardens*, as the program passes it to the app (`chapters::shipped`).
pub struct WyvernWardens;

impl Chapter for WyvernWardens {
    fn id(&self) -> &'static str {
        ID
    }
    fn content(&self, content: &mut ChapterContent) {
        content.level_fields::<data::MercLevel>();
    }
    fn build(&self, app: &mut App) {
        build(app);
        app.add_chapter_words(ID, words::WORDS);
    }
    fn build_view(&self, app: &mut App) {
        app.add_chapter_panel::<Mercs>(ID, panel::draw)
            .add_chapter_table::<Mercs>(ID, "Wyvern Wardens", board::draw)
            .add_chapter_marks(ID, map::marks)
            .add_chapter_show(ID, map::beat)
            .add_chapter_help(
                ID,
                include_str!("../../../assets/help/chapters/mercenaries.en.md"),
                include_str!("../../../assets/help/chapters/mercenaries.fr.md"),
            )
            .add_chapter_hints(
                ID,
                include_str!("../../../assets/help/chapters/mercenaries.hints.ron"),
            );
    }
}
