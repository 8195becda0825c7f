//! Undo within a turn, back to the last revealed information: the window keeps the state from
//! before each Eladrin action; Ctrl+Z (or the phase bar's *Undo*) puts it back, like loading a
//! save taken a moment ago — the undone action leaves the action log, so replays stay true. As
//! soon as something is revealed (a die rolled, a card drawn or explored) or Chaos moves or the
//! step changes, the earlier states are dropped: no rerolling by undoing.

use bevy::prelude::*;

use super::screens::{Screen, ViewSet};
use crate::content::Camp;
use crate::rules::snapshot::{Snapshot, capture, restore_trusted};
use crate::rules::{ActionLog, Chronicle, GameEvent, GameWorld};

/// Most undo steps kept.
const MAX_UNDO: usize = 30;

/// The states the player can go back to, newest last.
#[derive(Resource, Default)]
pub struct UndoStack {
    /// States before each undoable action of this turn.
    pub states: Vec<Snapshot>,
    /// The state at the last look, and the action count it had.
    last: Option<(usize, Snapshot)>,
    /// The chronicle's length at the last look.
    chronicle_at: usize,
    /// Asked for by a button.
    pub requested: bool,
    /// What the last undo did or why it couldn't.
    pub message: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<UndoStack>()
        .add_systems(Update, undo_keys.in_set(ViewSet::Input))
        .add_systems(Update, track_and_undo.in_set(ViewSet::Commands));
}

fn undo_keys(
    keys: Res<ButtonInput<KeyCode>>,
    map: Res<crate::app::keys::Keymap>,
    egui: Res<bevy_egui::input::EguiWantsInput>,
    mut undo: ResMut<UndoStack>,
    screen: Res<State<Screen>>,
) {
    // Backspace in a text field (a save's name) edits the text, not the game; nor does the
    // key reach the game behind the campaign screen.
    if !egui.wants_keyboard_input()
        && *screen.get() != Screen::Campaign
        && map.just_pressed(crate::app::keys::Shortcut::Undo, &keys)
    {
        undo.requested = true;
    }
}

/// Whether going from `before` to `after`, with the events `happened` in between, revealed
/// nothing (no die rolled, no card drawn, explored or found) and was the Eladrins' own doing in
/// the same step. A shuffle reveals nothing: the same choice after an undo shuffles the same.
pub fn undoable(before: &Snapshot, after: &Snapshot, happened: &[GameEvent]) -> bool {
    let new_actions = &after.actions.0[before.actions.0.len().min(after.actions.0.len())..];
    let revealed = happened.iter().any(|e| {
        matches!(
            e,
            GameEvent::Dice { .. }
                | GameEvent::CardDrawn { .. }
                | GameEvent::Explored { .. }
                | GameEvent::ArtifactFound { .. }
                | GameEvent::ResearchOffered { .. }
                | GameEvent::BattleStarted { .. }
        )
    });
    !revealed
        && before.step_id == after.step_id
        && before.cycle.number == after.cycle.number
        && after.actions.0.len() > before.actions.0.len()
        && new_actions.iter().all(|(by, _)| *by == Camp::Eladrins)
}

fn track_and_undo(world: &mut World) {
    let moves = world.resource::<ActionLog>().0.len();
    let seen = world.resource::<UndoStack>().last.as_ref().map(|(n, _)| *n);
    if seen != Some(moves) {
        let now = capture(world);
        let chronicle = world.resource::<Chronicle>().0.len();
        let from = world.resource::<UndoStack>().chronicle_at.min(chronicle);
        let happened: Vec<GameEvent> = world.resource::<Chronicle>().0[from..].to_vec();
        let mut u = world.resource_mut::<UndoStack>();
        u.chronicle_at = chronicle;
        match u.last.take() {
            Some((n, before)) if moves > n && undoable(&before, &now, &happened) => {
                u.states.push(before);
                let excess = u.states.len().saturating_sub(MAX_UNDO);
                u.states.drain(..excess);
            }
            // Something was revealed, Chaos moved, or a game was loaded: no way back past it.
            _ => u.states.clear(),
        }
        u.last = Some((moves, now));
    }
    if !world.resource::<UndoStack>().requested {
        return;
    }
    world.resource_mut::<UndoStack>().requested = false;
    let waiting_for_eladrins = world.deciding() == Camp::Eladrins;
    let target = world.resource_mut::<UndoStack>().states.pop();
    let tr = world.resource::<crate::text::Translations>().clone();
    let message = match target {
        Some(s) if waiting_for_eladrins => match restore_trusted(world, &s).map(|_| ()) {
            Ok(()) => {
                let n = s.actions.0.len();
                let c = world.resource::<Chronicle>().0.len();
                let mut u = world.resource_mut::<UndoStack>();
                u.last = Some((n, s));
                u.chronicle_at = c;
                tr.t("Undone").into_owned()
            }
            Err(e) => tr.f("Can't undo: {}", &[&e]),
        },
        Some(s) => {
            world.resource_mut::<UndoStack>().states.push(s);
            tr.t("Can't undo while Chaos plays").into_owned()
        }
        None => tr
            .t("Nothing to undo since the last roll, card or Chaos move")
            .into_owned(),
    };
    info!("{message}");
    world.resource_mut::<UndoStack>().message = Some(message);
}

/// Whether there is something to undo now.
pub fn can_undo(world: &World) -> bool {
    !world.resource::<UndoStack>().states.is_empty()
}
