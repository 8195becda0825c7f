//! The chapter *The Dragoness* (seed 003, rules D1–D13 of `docs/chapters/dragoness.md`): a great
//! dragoness walks a route that ends in a chasm; the Guide (Chaos by default, a level may give
//! the step to the Eladrins) moves her; the expedition's teams she crosses are lost; once she
//! reaches the White Tomb a countdown of gems begins that only a relic can stop.
//!
//! Built through the chapter seams only (`rules::chapter`): its state (`state`), its level
//! fields (`data`, the level `levels/dragoness.ron`), the Guide's step `DGUIDE` and its rules
//! (`guide`), the teams' orders in the main phase, the Gate's veto and the reveals after a move
//! (`teams`), its AI scorers (`ai`), its words (`words`), its panel (`panel`), and its marks on
//! the map, sounds and help (`map`).

pub mod ai;
pub mod data;
pub mod guide;
pub mod map;
pub mod panel;
pub mod state;
pub mod teams;
pub mod words;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::ScorerAppExt;
use crate::content::Chapter;
use crate::content::ChapterContent;
use crate::content::{At, Camp, Who};
use crate::rules::chapter::{ChapterAction, ChapterAppExt, ChapterRefusal, Place, TurnUse};
use crate::rules::outcome::EndReason;
use crate::rules::{GameWorld, StepDef, StepKind, StepSchedule};
use crate::text::chapter::ChapterWordsExt;
use crate::view::chapter_view::ChapterViewExt;

use data::level;
use guide::Pos;
use state::Dragoness;

/// The chapter's id (a level plays it with `chapters: ["dragoness"]`).
pub const ID: &str = "dragoness";
/// The Guide's step (D1, D2, D11): a decision by the Guide's camp.
pub const GUIDE_STEP: &str = "DGUIDE";
/// The teams' rations step: before the upkeep, each team lays the food it eats.
pub const RATIONS_STEP: &str = "DRATIONS";
/// The gems track (`assets/content/tracks.ron`): the Guide's currency (D1–D3, D8, D11).
pub const GEMS: &str = "gems";

/// The chapter's actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DragonAction {
    /// D1, D2: the Guide advances her (towards this room, among rooms as near, D7).
    Advance {
        /// The room she heads for when several hidden rooms are as near (D7).
        toward: Option<At>,
    },
    /// D2: the Guide brakes her: one cell, for a gem.
    Brake {
        /// As for `Advance`.
        toward: Option<At>,
    },
    /// A team reveals step I of a quest on its site.
    RevealQuest {
        /// The team's army.
        army: u32,
        /// The quest's id.
        quest: String,
    },
    /// D13: a team places the quest's relic in the White Tomb.
    PlaceRelic {
        /// The team's army.
        army: u32,
        /// The quest's id.
        quest: String,
    },
    /// D9: a team leaves by the portal token.
    Escape {
        /// The team's army.
        army: u32,
    },
}

/// The chapter's refusals, each citing its rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DragonRefusal {
    /// D1: on a red cell the Guide may only advance her one cell.
    RedCell,
    /// D2: braking costs gems the Guide lacks.
    NoGems {
        /// Gems a brake costs.
        need: i32,
        /// Gems the Guide has.
        have: i32,
    },
    /// D2: the Guide must move her (advance or brake) before its turn ends.
    MustMove,
    /// D7: that room is not among the nearest hidden rooms.
    NotNearest(At),
    /// D10: she stays in the White Tomb for good.
    Entombed,
    /// D6: the Gate is sealed: no team leaves or enters the chasm.
    GateSealed,
    /// D6 (reading): only the expedition's teams enter the chasm.
    NotATeam(u32),
    /// D4 (reading): a team is one pawn; it does not join another army.
    TeamStaysWhole(u32),
    /// That army is not one of the expedition's teams.
    NotATeamArmy(u32),
    /// That team belongs to another seat.
    NotYourTeam(u32),
    /// No quest with that id.
    UnknownQuest(String),
    /// The team is not on the quest's site.
    NotOnSite(At),
    /// That quest was revealed already (once for the game).
    QuestKnown(String),
    /// D13: the team has not revealed step I of that quest.
    NoStepOne(String),
    /// D13: the team does not carry the quest's relic token.
    NoRelic(String),
    /// D13: the White Tomb is still hidden.
    TombHidden,
    /// D13: the team is not in the White Tomb.
    NotInTomb,
    /// D13: the relic is placed already.
    RelicPlaced,
    /// D13: no countdown to stop yet: she does not lie in the White Tomb (D10).
    NoCountdown,
    /// D9: no portal token where the team stands.
    NoPortal,
    /// D9: a guardian (a Chaos army) still holds the room.
    Guarded,
    /// D9: a room's guardian holds its room; it does not march off.
    GuardianHolds(u32),
    /// Only the Eladrins' teams do this.
    EladrinsOnly,
}

impl ChapterRefusal for DragonRefusal {
    fn rule(&self) -> &'static str {
        use DragonRefusal::*;
        match self {
            RedCell => "D1",
            NoGems { .. } | MustMove => "D2",
            NotNearest(_) => "D7",
            Entombed => "D10",
            GateSealed | NotATeam(_) => "D6",
            TeamStaysWhole(_) => "D4",
            NotATeamArmy(_) | NotYourTeam(_) | UnknownQuest(_) | NotOnSite(_) | QuestKnown(_)
            | EladrinsOnly => "D13",
            NoStepOne(_) | NoRelic(_) | TombHidden | NotInTomb | RelicPlaced | NoCountdown => "D13",
            NoPortal | Guarded | GuardianHolds(_) => "D9",
        }
    }
}

impl ChapterAction for DragonAction {
    type Refusal = DragonRefusal;
    type Event = guide::Told;
    const CHAPTER: &'static str = ID;
    fn place(&self) -> Place {
        match self {
            // The Guide's decision: it passes no turn; the step closes once she moved.
            DragonAction::Advance { .. } | DragonAction::Brake { .. } => Place {
                steps: &[GUIDE_STEP],
                turn: TurnUse::Free,
                in_activation: false,
            },
            // A team's order: the seat's turn, like an activation.
            _ => Place::acts(&["R9"]),
        }
    }
    fn validate(&self, world: &mut World, by: Camp) -> Result<(), DragonRefusal> {
        match self {
            DragonAction::Advance { toward } | DragonAction::Brake { toward } => {
                let lvl = level(world);
                let st = world.resource::<Dragoness>().clone();
                let brake = matches!(self, DragonAction::Brake { .. });
                guide::plan(world, &lvl, &st, brake, *toward).map(|_| ())
            }
            _ if by != Camp::Eladrins => Err(DragonRefusal::EladrinsOnly),
            DragonAction::RevealQuest { army, quest } => teams::check_quest(world, *army, quest),
            DragonAction::PlaceRelic { army, quest } => teams::check_relic(world, *army, quest),
            DragonAction::Escape { army } => teams::check_escape(world, *army),
        }
    }
    fn apply(&self, world: &mut World, _by: Camp) {
        match self {
            DragonAction::Advance { toward } => guide::walk(world, false, *toward),
            DragonAction::Brake { toward } => guide::walk(world, true, *toward),
            DragonAction::RevealQuest { army, quest } => teams::reveal_quest(world, *army, quest),
            DragonAction::PlaceRelic { army, quest } => teams::place_relic(world, *army, quest),
            DragonAction::Escape { army } => teams::escape(world, *army),
        }
    }
    fn candidates(world: &mut World, by: Camp) -> Vec<Self> {
        let mut v = Vec::new();
        match world.step_id() {
            GUIDE_STEP if by == guide::guide(world) => v = guide_moves(world),
            "R9" if by == Camp::Eladrins => {
                let lvl = level(world);
                let ids: Vec<u32> = world.resource::<Dragoness>().team_ids();
                for army in ids {
                    for q in &lvl.quests {
                        v.push(DragonAction::RevealQuest {
                            army,
                            quest: q.id.clone(),
                        });
                        v.push(DragonAction::PlaceRelic {
                            army,
                            quest: q.id.clone(),
                        });
                    }
                    v.push(DragonAction::Escape { army });
                }
            }
            _ => {}
        }
        v
    }
}

/// The Guide's moves from where she stands (D1, D2, D7), whether or not it is the Guide's turn
/// (the map shows them beforehand): an advance and a brake, one of each per room as near where
/// she may head for either from the chasm or the Gate. The rules check each (`guide::plan`).
pub fn guide_moves(world: &mut World) -> Vec<DragonAction> {
    let lvl = level(world);
    let st = world.resource::<Dragoness>().clone();
    let from = match Pos::of(&st) {
        Pos::Deep(h) => Some(h),
        Pos::Route(i) if i + 1 == lvl.route.len() => lvl.gate(),
        Pos::Route(_) => None,
    };
    let near = from
        .map(|f| guide::targets(&lvl, &st, f))
        .unwrap_or_default();
    let towards: Vec<Option<At>> = if near.len() > 1 {
        near.iter().map(|(a, _)| Some(*a)).collect()
    } else {
        vec![None]
    };
    let mut v: Vec<DragonAction> = towards
        .iter()
        .map(|t| DragonAction::Advance { toward: *t })
        .collect();
    v.extend(
        towards
            .into_iter()
            .map(|t| DragonAction::Brake { toward: t }),
    );
    v
}

/// D12, D13: the countdown complete wins for Chaos; the relic placed wins for the Eladrins.
fn victory(world: &mut World) -> Option<(Camp, EndReason)> {
    let s = world.resource::<Dragoness>();
    let end = |camp, code: &str| {
        Some((
            camp,
            EndReason::Chapter {
                chapter: ID.into(),
                code: code.into(),
            },
        ))
    };
    if s.relic.is_some() {
        return end(Camp::Eladrins, "relic");
    }
    if s.entombed && !s.slots.is_empty() && s.slots.iter().all(|x| *x) {
        return end(guide::guide(world), "countdown");
    }
    None
}

/// The chapter's rules and AI: every seam of `rules::chapter` it uses, in one place.
pub fn build(app: &mut App) {
    app.add_chapter_state::<Dragoness>()
        .add_chapter_actions::<DragonAction>()
        .add_chapter_step(StepDef {
            id: GUIDE_STEP,
            title: "The Guide",
            kind: StepKind::Decision {
                by: Who::Chaos,
                open: guide::open,
            },
        })
        .add_chapter_step(StepDef {
            id: RATIONS_STEP,
            title: "Rations",
            kind: StepKind::Automatic,
        })
        .add_systems(StepSchedule(GUIDE_STEP), guide::begin_turn)
        .add_systems(StepSchedule(RATIONS_STEP), teams::lay_rations)
        .add_chapter_setup(ID, teams::setup)
        .add_chapter_veto(ID, teams::veto)
        .add_chapter_after(ID, teams::after)
        .add_chapter_victory(ID, victory)
        .add_chapter_scorer(ID, Camp::Chaos, ai::guide)
        .add_chapter_scorer(ID, Camp::Eladrins, ai::guide)
        .add_chapter_scorer(ID, Camp::Eladrins, ai::orders)
        .add_chapter_scorer(ID, Camp::Eladrins, ai::expedition);
}

/// The chapter *the White Tomb*, as the program passes it to the app (`chapters::shipped`).
pub struct WhiteTomb;

impl Chapter for WhiteTomb {
    fn id(&self) -> &'static str {
        ID
    }
    fn content(&self, content: &mut ChapterContent) {
        content.tracks(ID, &[GEMS]);
        content.level_fields::<data::DragonessLevel>();
    }
    fn build(&self, app: &mut App) {
        build(app);
        app.add_chapter_words(ID, words::WORDS);
    }
    fn build_view(&self, app: &mut App) {
        app.add_chapter_panel_seen(ID, panel::seen, panel::draw)
            .add_chapter_marks(ID, map::marks)
            .add_chapter_sounds(ID, map::sounds)
            .add_chapter_help(
                ID,
                include_str!("../../../assets/help/chapters/dragoness.en.md"),
                include_str!("../../../assets/help/chapters/dragoness.fr.md"),
            )
            .add_chapter_hints(
                ID,
                include_str!("../../../assets/help/chapters/dragoness.hints.ron"),
            );
    }
}
