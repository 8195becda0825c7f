//! Chaos plays itself in the window: when the game waits for Chaos, its AI chooses and sends an
//! `ActionRequest`, one action at a time with a short pause so the player sees it happen. The
//! Eladrin AI answers the "Let the AI play this turn" button the same way.

use bevy::prelude::*;

use crate::content::Camp;
use crate::rules::{ActionRequest, Cycle, GameWorld, Outcome};

/// Pacing and the player's request for autoplay.
#[derive(Resource)]
pub struct Driver {
    /// Seconds between two AI actions.
    pub pause: f32,
    since: f32,
    /// The Eladrin AI finishes the Eladrins' current turn.
    pub autoplay_eladrins: bool,
}

impl Default for Driver {
    fn default() -> Self {
        Driver {
            pause: 0.12,
            since: 0.0,
            autoplay_eladrins: false,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Driver>()
        .add_systems(Update, play_ai_turns);
}

/// Sends the AI's next action when the game waits for a camp the AI plays.
fn play_ai_turns(world: &mut World) {
    if world.resource::<Outcome>().winner.is_some() {
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
    let waiting = if world.step_id() == "R9" {
        world.resource::<Cycle>().turn
    } else {
        Camp::Eladrins
    };
    let auto = world.resource::<Driver>().autoplay_eladrins;
    if waiting == Camp::Eladrins && !auto {
        return;
    }
    let (by, choice) = crate::ai::decide(world);
    if by == Camp::Eladrins
        && world.step_id() == "R9"
        && choice.action == crate::rules::Action::Pass
    {
        // The Eladrin AI finished the turn it was asked to play.
        world.resource_mut::<Driver>().autoplay_eladrins = false;
    }
    world.write_message(ActionRequest {
        by,
        action: choice.action,
    });
}
