//! Chaos plays itself in the window: when the game waits for Chaos, its AI thinks in a task on
//! Bevy's async compute pool, over a copy of the state (a `Snapshot` restored in a headless
//! world), so the frame never stalls while it thinks; its choice comes back as an ordinary
//! `ActionRequest`, one action at a time with a short pause so the player sees it happen. A
//! choice made on a state that changed meanwhile is dropped. The Eladrin AI answers the "Let the
//! AI play this turn" button the same way.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

use crate::ai::search::SearchScratch;
use crate::content::{Camp, Content, Who};
use crate::rules::chapter::Viewer;
use crate::rules::snapshot::{capture_seen_by, restore_trusted};
use crate::rules::{Action, ActionLog, ActionRequest, Cycle, GameWorld, Outcome, StepKind, setup};

/// The AI's answer to come: who acts, and what (none if the snapshot could not be restored),
/// with the search's copy of the game handed back for the next thought.
type Thought = Task<(Option<(Camp, Action)>, Option<SearchScratch>)>;

/// Pacing, the player's request for autoplay, and the AI thinking in the background.
#[derive(Resource)]
pub struct Driver {
    /// Seconds between two AI actions.
    pub pause: f32,
    since: f32,
    /// The Eladrin AI finishes the Eladrins' current turn.
    pub autoplay_eladrins: bool,
    /// The player asked to see the end of the Chaos turn at once.
    pub skip_chaos: bool,
    /// The AI at work: the action count it started from, and its answer to come.
    thinking: Option<(usize, Thought)>,
    /// The search's copy of the game between two thoughts (a thought builds it once).
    scratch: Option<SearchScratch>,
}

impl Default for Driver {
    fn default() -> Self {
        Driver {
            pause: 0.12,
            since: 0.0,
            autoplay_eladrins: false,
            skip_chaos: false,
            thinking: None,
            scratch: None,
        }
    }
}

impl Driver {
    /// The AI is thinking in the background.
    pub fn thinking(&self) -> bool {
        self.thinking.is_some()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Driver>().add_systems(
        Update,
        play_ai_turns.in_set(super::screens::ViewSet::Commands),
    );
}

/// Whether a hot-seat player's name gives the seat to the Eladrin AI: `AI`, or a name ending
/// in `(AI)`.
pub fn is_ai_seat(name: &str) -> bool {
    crate::rules::setup::is_ai_name(name)
}

/// How many seats people play (not the AI): the hand-off screen is for two or more.
pub fn human_seats(world: &World) -> usize {
    let players = &world.resource::<crate::rules::GameSetup>().players;
    players.iter().filter(|p| !is_ai_seat(p)).count().max(1)
}

/// Whether the hot-seat player whose turn it is has given the seat to the AI.
pub fn seat_is_ai(world: &World) -> bool {
    let seat = crate::rules::chapter::current_seat(world) as usize;
    world
        .resource::<crate::rules::GameSetup>()
        .players
        .get(seat)
        .is_some_and(|p| is_ai_seat(p))
}

/// Whether an AI decides what the game waits for now: Chaos, an Eladrin seat given to the AI
/// (`--players Ana,AI`, or a level's filled seat: the main phase's turns, a chapter's rounds
/// and the decisions given to it), or the Eladrins while the player asked the AI to play
/// their turn. Otherwise a person decides.
pub fn ai_decides(world: &World) -> bool {
    let by_seat = match world.step_kind() {
        StepKind::Turns | StepKind::Round { .. } => true,
        StepKind::Decision { by, .. } => matches!(by, Who::Seat(_)),
        StepKind::Automatic => false,
    };
    world.deciding() != Camp::Eladrins
        || world.resource::<Driver>().autoplay_eladrins
        || (by_seat && seat_is_ai(world))
}

/// Starts the AI when the game waits for a camp it plays, and sends its answer when ready.
fn play_ai_turns(world: &mut World) {
    if world.resource::<Outcome>().winner.is_some() {
        world.resource_mut::<Driver>().thinking = None;
        return;
    }
    if world.resource::<Driver>().skip_chaos {
        world.resource_mut::<Driver>().skip_chaos = false;
        world.resource_mut::<Driver>().thinking = None;
        let n = skip_chaos_turn(world);
        info!("the Chaos turn played out at once: {n} action(s)");
        return;
    }
    let moves = world.resource::<ActionLog>().0.len();
    // An answer ready?
    let ready = {
        let mut d = world.resource_mut::<Driver>();
        match d.thinking.as_mut() {
            Some((_, task)) => check_ready(task).map(|r| (d.thinking.take().map(|t| t.0), r)),
            None => None,
        }
    };
    if let Some((started, (answer, scratch))) = ready {
        world.resource_mut::<Driver>().scratch = scratch;
        // Only if nothing happened while it thought.
        if started == Some(moves)
            && let Some((by, action)) = answer
        {
            if by == Camp::Eladrins && world.in_turns() && action == Action::Pass {
                // The Eladrin AI finished the turn it was asked to play.
                world.resource_mut::<Driver>().autoplay_eladrins = false;
            }
            world.write_message(ActionRequest { by, action });
        }
        return;
    }
    if world.resource::<Driver>().thinking.is_some() {
        return;
    }
    let dt = world.resource::<Time>().delta_secs();
    {
        let mut d = world.resource_mut::<Driver>();
        d.since += dt;
        if d.since < d.pause {
            return;
        }
        d.since = 0.0;
    }
    if !ai_decides(world) {
        return;
    }
    let waiting = world.deciding();
    // The AI thinks on what its camp (or seat) may know: a chapter's hidden cards stay hidden.
    let viewer = match waiting {
        Camp::Chaos => Viewer::Chaos,
        Camp::Eladrins => Viewer::Seat(crate::rules::chapter::current_seat(world)),
    };
    let snap = capture_seen_by(world, viewer);
    let content = world.resource::<Content>().0.clone();
    let scratch = world.resource_mut::<Driver>().scratch.take();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let mut app = setup::headless_app(content);
        if let Some(s) = scratch {
            app.insert_resource(s);
        }
        // The game's own snapshot: restored as it is (`restore_trusted`); a failure is a bug,
        // said in the log rather than leaving the AI silently idle.
        if let Err(e) = restore_trusted(app.world_mut(), &snap) {
            bevy::log::error!("the AI's copy of the game did not restore: {e}");
            return (None, app.world_mut().remove_resource::<SearchScratch>());
        }
        let (by, choice) = crate::ai::decide(app.world_mut());
        let scratch = app.world_mut().remove_resource::<SearchScratch>();
        (Some((by, choice.action)), scratch)
    });
    world.resource_mut::<Driver>().thinking = Some((moves, task));
}

/// Plays the rest of the Chaos turn now, on this frame: the AI decides on the live state and
/// each choice goes through the rules' `submit` like any action (validated, logged, applied).
/// Only the pause between moves is gone. Stops at the Eladrins' turn, at the end of the game,
/// or after a bound on actions.
pub fn skip_chaos_turn(world: &mut World) -> usize {
    let mut n = 0;
    while n < 2_000
        && world.resource::<Outcome>().winner.is_none()
        && world.in_turns()
        && world.resource::<Cycle>().turn == Camp::Chaos
    {
        let (by, choice) = crate::ai::decide(world);
        if by != Camp::Chaos {
            break;
        }
        if let Err(e) = crate::rules::submit(world, by, choice.action.clone()) {
            warn!("the Chaos AI proposed {:?}, refused: {e}", choice.action);
            break;
        }
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::is_ai_seat;

    #[test]
    fn a_seat_is_the_ais_by_its_name() {
        assert!(is_ai_seat("AI"));
        assert!(is_ai_seat(" ai "));
        assert!(is_ai_seat("Bo (AI)"));
        assert!(!is_ai_seat("Aida"));
        assert!(!is_ai_seat("Ana"));
    }
}
