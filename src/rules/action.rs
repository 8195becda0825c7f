//! `Action`: the only way into the game. Every decision — a click, a hot-seat partner, the AI,
//! a replay — is one `Action`, validated (`validate` only reads; an illegal action gets a typed
//! `Refusal` and nothing changes) and then applied (`apply`), emitting `GameEvent`s.

use super::chapter::ChapterValue;
use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::economy::{available, outpost_purse, take_up_to};
use super::upkeep::{portal, research};
use super::{
    ActionLog, Army, CycleOrder, Decks, GameEvent, GameRng, GameWorld, Outcome, Outpost, Portal,
    Research, StepDone, StepKind, advance, outcome,
};
use crate::content::{At, Camp, Res};

/// A decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Close the decisions of the current upkeep step (R5, R7, R8).
    Done,
    /// R5.5: spend extra food to remove famine tokens from an army.
    Feed {
        /// Army id.
        army: u32,
        /// Tokens to remove.
        tokens: u32,
    },
    /// R7.4: choose one of the offered technologies.
    ChooseResearch {
        /// Card id.
        tech: String,
    },
    /// R7.2: place resources from an outpost's purse on the research card.
    FundResearch {
        /// Outpost id.
        outpost: u32,
        /// Resource.
        res: Res,
        /// Amount.
        amount: u32,
    },
    /// R7.3: set a lab to analyse an artifact in its outpost's influence zone (or back to
    /// research with `None`); it takes effect at the next R7 step.
    AssignLab {
        /// Outpost id.
        outpost: u32,
        /// Building slot of the lab.
        slot: usize,
        /// The artifact's tile.
        artifact: Option<At>,
    },
    /// R8.1: build the next cell of an arch.
    BuildPortalCell {
        /// Arch index (0 or 1).
        arch: usize,
    },
    /// R8.2: put crystals into the portal.
    PowerPortal {
        /// How many.
        crystals: u32,
    },
    /// R9: pass the turn.
    Pass,
    /// R9.1: build an improvement on a tile.
    BuildImprovement {
        /// The tile.
        at: At,
        /// Improvement id.
        improvement: String,
    },
    /// R9.2: build a building in an outpost.
    BuildBuilding {
        /// Outpost id.
        outpost: u32,
        /// Building id.
        building: String,
    },
    /// R9.2 reading: recruit a unit in an outpost; it joins the Eladrin army there (or a new one).
    Recruit {
        /// Outpost id.
        outpost: u32,
        /// Unit type id.
        unit: String,
    },
    /// R9.4: activate an army (its orders follow, then `EndActivation`).
    Activate {
        /// Army id.
        army: u32,
    },
    /// R9.4: the active army moves (cheapest path; each unit pays the points).
    Move {
        /// Destination.
        to: At,
    },
    /// R9.4: a unit of the active army uses an action printed on its card.
    UseCard {
        /// Unit id.
        unit: u32,
        /// Card action id.
        action: String,
    },
    /// R9.3: an Explorer of the active army explores its tile (all its remaining points).
    Explore {
        /// Unit id.
        unit: u32,
    },
    /// R9.4: the active army takes in another friendly army on its tile (1 point each).
    Merge {
        /// The army joining.
        from: u32,
    },
    /// R9.4: units leave the active army as a new army (1 point each; never under famine, R5.4).
    Detach {
        /// Unit ids.
        units: Vec<u32>,
    },
    /// R9.5: the active army attacks an enemy army on its tile.
    Engage {
        /// Enemy army id.
        target: u32,
        /// Retreat when fewer units than this remain (0: fight to the end).
        retreat_below: u32,
    },
    /// R8.3: the active army's ritualists perform a ritual.
    Ritual {
        /// Ritual id.
        ritual: String,
    },
    /// R9.2 reading: a Founder of the active army founds an outpost on its tile.
    FoundOutpost {
        /// Unit id.
        unit: u32,
        /// The new outpost's name.
        name: String,
    },
    /// R9.4: end the activation (unused points are lost); the turn passes.
    EndActivation,
    /// Chaos summons a unit at an open rift (once per rift per main phase).
    Summon {
        /// The rift.
        rift: At,
    },
    /// R9.4: the active army boards its boats (1 point each unit, once per cycle).
    Embark,
    /// R9.4: the active army, afloat, lands on a neighbouring land tile.
    Land {
        /// The land tile.
        to: At,
    },
    /// R9.4: the active army's boats load resources from the tile or the outposts around.
    Load {
        /// Resource.
        res: Res,
        /// Amount.
        amount: u32,
    },
    /// R9.4: the boats unload resources on the army's tile (into an outpost standing there).
    Unload {
        /// Resource.
        res: Res,
        /// Amount.
        amount: u32,
    },
    /// A chapter's own action: its typed enum (`chapter::ChapterAction`), made by
    /// `chapter::encode` and read back by the chapter (`chapter::decode`). A file writes it as
    /// a string holding the action in RON: `Chapter(chapter: "trial", act: "Play(card: 3)")`.
    Chapter {
        /// The chapter's id.
        chapter: String,
        /// The chapter's action.
        act: ChapterValue,
    },
}

/// Why an action was refused. Each names the rule it enforces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// Not the step for this action.
    WrongStep {
        /// The steps the action belongs to (any one of them).
        needs: Vec<String>,
        /// Where the game is.
        now: String,
    },
    /// Not this camp's decision.
    NotYourTurn {
        /// Whose it is.
        expected: Camp,
    },
    /// No army with that id.
    UnknownArmy(u32),
    /// The army is not the Eladrins'.
    NotYourArmy(u32),
    /// No outpost with that id.
    UnknownOutpost(u32),
    /// An amount of zero.
    NothingToDo,
    /// Fewer famine tokens than asked.
    NotThatMuchFamine {
        /// Tokens on the army.
        tokens: u32,
    },
    /// Not enough of a resource within reach.
    NotEnough {
        /// Which.
        res: Res,
        /// Needed.
        need: u32,
        /// Within reach.
        have: u32,
    },
    /// A technology must be chosen first (R7.4).
    ChooseFirst,
    /// That technology is not among those offered.
    NotOffered(String),
    /// No research under way.
    NoResearch,
    /// The research needs no more of that.
    NotNeeded(Res),
    /// No working lab in that slot.
    NotALab,
    /// No artifact token there, or out of the outpost's influence zone.
    NoArtifact(At),
    /// No such arch.
    UnknownArch(usize),
    /// That arch is complete.
    ArchComplete(usize),
    /// The portal is not built yet (R8.2).
    PortalNotBuilt,
    /// Over the crystals allowed this phase (R8.2).
    CrystalLimit {
        /// Allowed per phase.
        max: u32,
        /// Already put in.
        used: u32,
    },
    /// A corruption marker blocks the power track (R8.3).
    PowerBlocked,
    /// No action kind registered under that name.
    UnknownKind(String),
    /// An id the content does not know.
    UnknownContent(String),
    /// Not on the map.
    OffMap(At),
    /// R9.1: one improvement per tile.
    ImprovementThere(At),
    /// Not on this terrain.
    WrongTerrain {
        /// What.
        what: String,
        /// The tile's terrain.
        terrain: String,
    },
    /// A technology must be researched first.
    Locked(String),
    /// R9.1: an enemy unit is on the tile.
    EnemyThere(At),
    /// R9.1: neither in a control zone nor held by a military unit.
    NotControlled(At),
    /// R9.2: the outpost's size caps its buildings.
    NoSlot {
        /// Slots of its size.
        slots: u32,
    },
    /// Not a recruitable unit.
    NotRecruitable(String),
    /// Only the Eladrins do this.
    EladrinsOnly,
    /// R9.4: an activation must be opened first.
    NoActivation,
    /// R9.4: finish the open activation first.
    ActivationOpen(u32),
    /// R9.4: an army is activated once per turn.
    AlreadyActivated(u32),
    /// No unit of the army can act.
    NothingCanAct(u32),
    /// No unit with that id in the active army.
    UnknownUnit(u32),
    /// Not enough action points.
    NoActionPoints {
        /// Unit id.
        unit: u32,
        /// Points needed.
        need: u8,
        /// Points left.
        have: u8,
    },
    /// No path within the action points.
    Unreachable(At),
    /// Inactive units (unpaid upkeep, R5.2) hold the army.
    InactiveUnits,
    /// A skill is needed.
    MissingSkill(String),
    /// R9.3: the tile was explored already.
    AlreadyExplored(At),
    /// The other army is not on this tile.
    NotHere(u32),
    /// R5.4: a recruit would join a starving army and die at once.
    RecruitWouldStarve {
        /// The army on the outpost.
        army: u32,
        /// Its famine tokens.
        famine: u32,
    },
    /// R5.4: an army with famine tokens can't detach units.
    Famished(u32),
    /// That army is not an enemy.
    NotAnEnemy(u32),
    /// R9.5: no unit able to fight.
    NoFighter(u32),
    /// Ritualists with points are missing.
    RitualistsNeeded {
        /// Needed.
        need: u32,
        /// There.
        have: u32,
    },
    /// Not on an open rift.
    NotOnRift(At),
    /// Chaos summoned at this rift already this phase.
    AlreadySummoned(At),
    /// Too close to an outpost to found one.
    TooCloseToOutpost,
    /// The tile is corrupted.
    Corrupted(At),
    /// R9.4: a unit embarks or lands once per cycle.
    AlreadyEmbarked(u32),
    /// Afloat (true) or ashore (false) already.
    Afloat(bool),
    /// Not enough boat seats.
    NoBoat {
        /// Seats.
        seats: u32,
        /// Units to carry.
        passengers: u32,
    },
    /// No water next to the army.
    NoWater(At),
    /// Too many Chaos units stand on the rift to summon more.
    RiftCrowded(At),
    /// The boats' hold is full.
    HoldFull {
        /// Capacity.
        hold: u32,
        /// Carried.
        carried: u32,
    },
    /// The content has no outpost size to found one with.
    NoOutpostSize,
    /// Not an action of the main phase (R9).
    NotAMainAction,
    /// R9.3: the exploration deck is empty.
    ExplorationDeckEmpty,
    /// R9.4: a detachment takes at least one unit and leaves at least one.
    DetachSome,
    /// A plugin's own reason.
    Other(String),
    /// A chapter's rule refused it: its own typed refusal (`chapter::ChapterRefusal`).
    Chapter {
        /// The chapter's id.
        chapter: String,
        /// The rule it cites.
        rule: String,
        /// The chapter's refusal (`chapter::refusal_of` reads it back).
        reason: ChapterValue,
    },
    /// The chapter is not played in this level.
    NotInPlay(String),
    /// A chapter action that does not read as one of that chapter's actions.
    Malformed {
        /// The chapter's id.
        chapter: String,
        /// What is wrong with it.
        why: String,
    },
    /// The army or outpost belongs to another Eladrin seat.
    NotYourSeat {
        /// The seat it belongs to.
        owner: u8,
    },
}

fn hex(at: At) -> Hex {
    Hex::new(at.0, at.1)
}

fn require_step(world: &World, id: &str) -> Result<(), Refusal> {
    let now = world.step_id();
    if now == id {
        Ok(())
    } else {
        Err(Refusal::WrongStep {
            needs: vec![id.into()],
            now: now.into(),
        })
    }
}

fn require_eladrins(by: Camp) -> Result<(), Refusal> {
    if by == Camp::Eladrins {
        Ok(())
    } else {
        Err(Refusal::NotYourTurn {
            expected: Camp::Eladrins,
        })
    }
}

/// The steps that take `Action::Done`, in cycle order (R5, R7, R8 for the core).
fn decision_steps(world: &World) -> Vec<String> {
    world
        .resource::<CycleOrder>()
        .0
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Decision { .. }))
        .map(|s| s.id.to_string())
        .collect()
}

/// Checks an action against the rules; never changes the game.
pub fn validate(world: &mut World, by: Camp, action: &Action) -> Result<(), Refusal> {
    validate_core(world, by, action)?;
    // A chapter in play may forbid a core action (its own actions check themselves).
    if !matches!(action, Action::Chapter { .. }) {
        super::chapter::veto(world, by, action)?;
    }
    Ok(())
}

/// The core's checks of an action, before any chapter's veto.
pub(super) fn validate_core(world: &mut World, by: Camp, action: &Action) -> Result<(), Refusal> {
    if world.resource::<Outcome>().winner.is_some() {
        return Err(Refusal::GameOver);
    }
    match action {
        Action::Done => {
            let StepKind::Decision { by: decides, .. } = world.step_kind() else {
                return Err(Refusal::WrongStep {
                    needs: decision_steps(world),
                    now: world.step_id().into(),
                });
            };
            if by != decides.camp() {
                return Err(Refusal::NotYourTurn {
                    expected: decides.camp(),
                });
            }
            if world.step_id() == "R7" && !world.resource::<Research>().offer.is_empty() {
                return Err(Refusal::ChooseFirst);
            }
            Ok(())
        }
        Action::Feed { army, tokens } => {
            require_step(world, "R5")?;
            require_eladrins(by)?;
            if *tokens == 0 {
                return Err(Refusal::NothingToDo);
            }
            let e = world.army_by_id(*army).ok_or(Refusal::UnknownArmy(*army))?;
            let a = world
                .get::<Army>(e)
                .cloned()
                .ok_or(Refusal::UnknownArmy(*army))?;
            if a.camp != Camp::Eladrins {
                return Err(Refusal::NotYourArmy(*army));
            }
            if a.famine < *tokens {
                return Err(Refusal::NotThatMuchFamine { tokens: a.famine });
            }
            let per = world.content().rules().famine_food_per_token.max(1);
            let purse = super::economy::purse_at(world, a.hex);
            let have = available(world, &purse).get(Res::Food);
            let need = per * tokens;
            if have < need {
                return Err(Refusal::NotEnough {
                    res: Res::Food,
                    need,
                    have,
                });
            }
            Ok(())
        }
        Action::ChooseResearch { tech } => {
            require_step(world, "R7")?;
            require_eladrins(by)?;
            if !world.resource::<Research>().offer.contains(tech) {
                return Err(Refusal::NotOffered(tech.clone()));
            }
            Ok(())
        }
        Action::FundResearch {
            outpost,
            res,
            amount,
        } => {
            require_step(world, "R7")?;
            require_eladrins(by)?;
            if *amount == 0 {
                return Err(Refusal::NothingToDo);
            }
            if world.resource::<Research>().current.is_none() {
                return Err(Refusal::NoResearch);
            }
            let missing = research::resources_missing(world).get(*res);
            if missing < *amount {
                return Err(Refusal::NotNeeded(*res));
            }
            let o = world
                .outpost_by_id(*outpost)
                .ok_or(Refusal::UnknownOutpost(*outpost))?;
            let have = available(world, &outpost_purse(world, o)).get(*res);
            if have < *amount {
                return Err(Refusal::NotEnough {
                    res: *res,
                    need: *amount,
                    have,
                });
            }
            Ok(())
        }
        Action::AssignLab {
            outpost,
            slot,
            artifact,
        } => {
            require_step(world, "R7")?;
            require_eladrins(by)?;
            let o = world
                .outpost_by_id(*outpost)
                .ok_or(Refusal::UnknownOutpost(*outpost))?;
            let db = world.content();
            let op = world
                .get::<Outpost>(o)
                .ok_or(Refusal::UnknownOutpost(*outpost))?;
            if !op.labs(&db).contains(slot) {
                return Err(Refusal::NotALab);
            }
            if let Some(at) = artifact {
                let h = hex(*at);
                let in_zone = h.unsigned_distance_to(op.hex) <= op.influence(&db);
                if !in_zone || !world.tile(h).is_some_and(|t| t.artifact) {
                    return Err(Refusal::NoArtifact(*at));
                }
            }
            Ok(())
        }
        Action::BuildPortalCell { arch } => {
            require_step(world, "R8")?;
            require_eladrins(by)?;
            let cost = portal::next_cell(world, *arch)?;
            let o = world
                .outpost_by_id(world.resource::<Portal>().outpost)
                .ok_or(Refusal::UnknownOutpost(world.resource::<Portal>().outpost))?;
            let have = available(world, &outpost_purse(world, o));
            crate::rules::economy::can_pay(&cost, &have)?;
            Ok(())
        }
        Action::PowerPortal { crystals } => {
            require_step(world, "R8")?;
            require_eladrins(by)?;
            if *crystals == 0 {
                return Err(Refusal::NothingToDo);
            }
            if !portal::is_built(world) {
                return Err(Refusal::PortalNotBuilt);
            }
            let p = world.resource::<Portal>().clone();
            // R8.3 first: while a marker blocks the track no crystal goes in, whatever the count.
            if p.corruption > 0 {
                return Err(Refusal::PowerBlocked);
            }
            let max = portal::crystals_allowed(world);
            if p.crystals_this_phase + crystals > max {
                return Err(Refusal::CrystalLimit {
                    max,
                    used: p.crystals_this_phase,
                });
            }
            let o = world
                .outpost_by_id(p.outpost)
                .ok_or(Refusal::UnknownOutpost(p.outpost))?;
            let have = available(world, &outpost_purse(world, o)).get(Res::Crystal);
            if have < *crystals {
                return Err(Refusal::NotEnough {
                    res: Res::Crystal,
                    need: *crystals,
                    have,
                });
            }
            Ok(())
        }
        Action::Chapter { chapter, act } => super::chapter::validate(world, by, chapter, act),
        Action::Pass if matches!(world.step_kind(), StepKind::Round { .. }) => {
            super::chapter::validate_pass(world, by)
        }
        // Pass and every other main-phase action (R9).
        a => super::main_phase::validate(world, by, a),
    }
}

/// Applies a validated action.
fn apply(world: &mut World, by: Camp, action: &Action) {
    match action {
        Action::Done => world.resource_mut::<StepDone>().0 = true,
        Action::Feed { army, tokens } => {
            let Some(e) = world.army_by_id(*army) else {
                return;
            };
            let Some(hex) = world.get::<Army>(e).map(|a| a.hex) else {
                return;
            };
            let per = world.content().rules().famine_food_per_token.max(1);
            let purse = super::economy::purse_at(world, hex);
            take_up_to(world, &purse, Res::Food, per * tokens);
            if let Some(mut a) = world.get_mut::<Army>(e) {
                a.famine -= tokens;
                let left = a.famine;
                world.emit(GameEvent::Famine {
                    army: *army,
                    change: -(*tokens as i32),
                    tokens: left,
                });
            }
        }
        Action::ChooseResearch { tech } => {
            let offer = std::mem::take(&mut world.resource_mut::<Research>().offer);
            world.resource_scope(|world, mut decks: Mut<Decks>| {
                let mut rng = world.resource_mut::<GameRng>();
                for c in offer.iter().filter(|c| *c != tech) {
                    decks.research.put_back_and_shuffle(c.clone(), &mut rng);
                }
            });
            {
                let mut r = world.resource_mut::<Research>();
                r.current = Some(tech.clone());
                r.points = 0;
                r.placed = Default::default();
            }
            world.emit(GameEvent::ResearchChosen { tech: tech.clone() });
            super::effects::check_completion(world);
        }
        Action::FundResearch {
            outpost,
            res,
            amount,
        } => {
            let Some(o) = world.outpost_by_id(*outpost) else {
                return;
            };
            let purse = outpost_purse(world, o);
            let took = take_up_to(world, &purse, *res, *amount);
            world.resource_mut::<Research>().placed.add(*res, took);
            world.emit(GameEvent::ResearchFunded {
                res: *res,
                amount: took,
            });
            super::effects::check_completion(world);
        }
        Action::AssignLab {
            outpost,
            slot,
            artifact,
        } => {
            let mut r = world.resource_mut::<Research>();
            match artifact {
                Some(at) => r.analysing.insert((*outpost, *slot), hex(*at)),
                None => r.analysing.remove(&(*outpost, *slot)),
            };
            world.emit(GameEvent::LabAssigned {
                outpost: *outpost,
                slot: *slot,
                artifact: artifact.map(hex),
            });
        }
        Action::BuildPortalCell { arch } => {
            let Ok(cost) = portal::next_cell(world, *arch) else {
                return;
            };
            let built = world
                .resource::<Portal>()
                .built
                .get(*arch)
                .copied()
                .unwrap_or(0);
            let Some(o) = world.outpost_by_id(world.resource::<Portal>().outpost) else {
                return;
            };
            let purse = outpost_purse(world, o);
            if !super::economy::pay(world, &purse, &cost) {
                return;
            }
            let mut p = world.resource_mut::<Portal>();
            if p.built.len() <= *arch {
                p.built.resize(arch + 1, 0);
            }
            p.built[*arch] += 1;
            world.emit(GameEvent::PortalCellBuilt {
                arch: *arch,
                cell: built,
            });
        }
        Action::PowerPortal { crystals } => {
            let db = world.content();
            let def = db.portal();
            let outpost = world.resource::<Portal>().outpost;
            let Some(o) = world.outpost_by_id(outpost) else {
                return;
            };
            let purse = outpost_purse(world, o);
            let took = take_up_to(world, &purse, Res::Crystal, *crystals);
            let mut p = world.resource_mut::<Portal>();
            p.power = (p.power + took).min(def.track);
            p.crystals_this_phase += took;
            if p.power >= def.star {
                p.operational = true;
            }
            let power = p.power;
            world.emit(GameEvent::PortalPowered {
                crystals: took,
                power,
            });
        }
        Action::Chapter { chapter, act } => super::chapter::apply(world, by, chapter, act),
        Action::Pass if matches!(world.step_kind(), StepKind::Round { .. }) => {
            super::chapter::pass(world, by)
        }
        a => super::main_phase::apply(world, by, a),
    }
}

/// Validates, records and applies an action, then lets the cycle run on to the next decision.
pub fn submit(world: &mut World, by: Camp, action: Action) -> Result<(), Refusal> {
    // A chapter's action as a file wrote it (a replay, a scenario) is typed here, once.
    let action = super::chapter::resolve_action(world, action)?;
    validate(world, by, &action)?;
    world
        .resource_mut::<ActionLog>()
        .0
        .push((by, action.clone()));
    let told = world.resource::<super::Chronicle>().0.len();
    apply(world, by, &action);
    super::chapter::after(world, by, &action, told);
    super::main_phase::settle_after_chapters(world, by);
    outcome::check(world);
    advance(world);
    Ok(())
}
