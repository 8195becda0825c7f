//! `Action`: the only way into the game. Every decision — a click, a hot-seat partner, the AI,
//! a replay — is one `Action`, validated (`validate` only reads; an illegal action gets a typed
//! `Refusal` and nothing changes) and then applied (`apply`), emitting `GameEvent`s.

use std::collections::HashMap;
use std::fmt;

use bevy::prelude::*;
use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::economy::{available, outpost_purse, take_up_to};
use super::upkeep::{portal, research};
use super::{
    ActionLog, Army, Cycle, CycleOrder, Decks, GameEvent, GameRng, GameWorld, Outcome, Outpost,
    Portal, Research, StepDone, advance, outcome,
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
    /// An action kind added by a plugin (a later chapter): routed to its `ExtActions` handler.
    Ext {
        /// The kind, as registered.
        kind: String,
        /// Its arguments, in RON.
        args: String,
    },
}

/// Why an action was refused. Each names the rule it enforces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// Not the step for this action.
    WrongStep {
        /// Where the action belongs.
        needs: String,
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
    /// A plugin's own reason.
    Other(String),
}

impl Refusal {
    /// The reason in words, in the language of `tr` (English with an empty table). Each reason
    /// is one template with `{}` for its values, so a translation table can carry it whole.
    pub fn words(&self, tr: &crate::i18n::Translations) -> String {
        use Refusal::*;
        let t = |s: &str| tr.t(s).into_owned();
        match self {
            GameOver => t("the game is over"),
            WrongStep { needs, now } => tr.f(
                "this is done in step {}, and the game is in step {}",
                &[needs, now],
            ),
            NotYourTurn { expected } => {
                tr.f("R9: it is the {}' turn", &[&t(&format!("{expected:?}"))])
            }
            UnknownArmy(id) => tr.f("there is no army {}", &[id]),
            NotYourArmy(id) => tr.f("army {} is not yours", &[id]),
            UnknownOutpost(id) => tr.f("there is no outpost {}", &[id]),
            NothingToDo => t("the amount must be at least 1"),
            NotThatMuchFamine { tokens } => {
                tr.f("R5.5: the army has only {} famine token(s)", &[tokens])
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
                t("R8.3: a corruption marker blocks the power track; push it back first")
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
            NoActionPoints { unit, need, have } => tr.f(
                "R9.4: unit {} needs {} action point(s) and has {}",
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
            RecruitWouldStarve { army, famine } => tr.f(
                "R5.4: army {} on the outpost carries {} famine token(s); a recruit would join it and die at once. Feed it first (R5.5)",
                &[army, famine],
            ),
            NotAnEnemy(a) => tr.f("army {} is not an enemy", &[a]),
            NoFighter(a) => tr.f("R9.5: army {} has no unit able to fight", &[a]),
            RitualistsNeeded { need, have } => tr.f(
                "{} ritualist(s) with action points needed, {} there",
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
            NoBoat { seats, passengers } => tr.f(
                "R9.4: boats for {} unit(s), {} to carry",
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
            Other(s) => t(s),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(&crate::i18n::Translations::default()))
    }
}

/// A plugin's action kind: read-only validation, then application.
#[derive(Clone, Copy)]
pub struct ExtHandler {
    /// Validates (must not change the world).
    pub validate: fn(&mut World, Camp, &str) -> Result<(), Refusal>,
    /// Applies.
    pub apply: fn(&mut World, Camp, &str),
}

/// Action kinds added by plugins, by name.
#[derive(Resource, Default, Clone)]
pub struct ExtActions(pub HashMap<String, ExtHandler>);

fn hex(at: At) -> Hex {
    Hex::new(at.0, at.1)
}

fn require_step(world: &World, id: &str) -> Result<(), Refusal> {
    let now = world.step_id();
    if now == id {
        Ok(())
    } else {
        Err(Refusal::WrongStep {
            needs: id.into(),
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

/// Checks an action against the rules; never changes the game.
pub fn validate(world: &mut World, by: Camp, action: &Action) -> Result<(), Refusal> {
    if world.resource::<Outcome>().winner.is_some() {
        return Err(Refusal::GameOver);
    }
    match action {
        Action::Done => {
            let order = world.resource::<CycleOrder>();
            let c = world.resource::<Cycle>();
            let step = order.0.get(c.step).copied();
            match step {
                Some(s) if s.decision.is_some() => {}
                _ => {
                    return Err(Refusal::WrongStep {
                        needs: "R5, R7 or R8".into(),
                        now: world.step_id().into(),
                    });
                }
            }
            require_eladrins(by)?;
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
            let max = portal::crystals_allowed(world);
            if p.crystals_this_phase + crystals > max {
                return Err(Refusal::CrystalLimit {
                    max,
                    used: p.crystals_this_phase,
                });
            }
            if p.corruption > 0 {
                return Err(Refusal::PowerBlocked);
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
        Action::Ext { kind, args } => {
            let h = world
                .get_resource::<ExtActions>()
                .and_then(|x| x.0.get(kind).copied())
                .ok_or_else(|| Refusal::UnknownKind(kind.clone()))?;
            (h.validate)(world, by, args)
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
            research::check_completion(world);
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
            research::check_completion(world);
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
        Action::Ext { kind, args } => {
            if let Some(h) = world
                .get_resource::<ExtActions>()
                .and_then(|x| x.0.get(kind).copied())
            {
                (h.apply)(world, by, args);
            }
        }
        a => super::main_phase::apply(world, by, a),
    }
}

/// Validates, records and applies an action, then lets the cycle run on to the next decision.
pub fn submit(world: &mut World, by: Camp, action: Action) -> Result<(), Refusal> {
    validate(world, by, &action)?;
    world
        .resource_mut::<ActionLog>()
        .0
        .push((by, action.clone()));
    apply(world, by, &action);
    outcome::check(world);
    advance(world);
    Ok(())
}
