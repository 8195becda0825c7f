//! A turn-based game at rest costs nothing. The window runs in Bevy's reactive mode
//! (`frames::update_mode`): it updates and draws when woken by input (a mouse move, a key, a
//! click, the window shown or resized), by a redraw someone asked for, or by a slow tick
//! (`frames::WAKE`, so a file a check waits on is still seen). This asks for
//! the next frame while something on screen is still moving or the game goes on by itself:
//! the AI thinking or pausing between its moves, an automatic step, a chapter's show or a
//! battle playing, a key or a mouse button held (the map panned or dragged), an input script
//! that counts frames, or a frame that drew something new (`frame_cache`: it draws until what
//! it shows settles, then shows its last frame again, and the window rests).
//!
//! A timer that ends while nothing moves asks for a wake at its end (`wake::Wake`).

use bevy::prelude::*;
use bevy::window::RequestRedraw;

use crate::rules::{GameWorld, Outcome, StepKind};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<super::wake::Wake>()
        .add_systems(Last, keep_awake)
        .add_systems(
            PreUpdate,
            quiet_modifiers
                .after(bevy_egui::EguiInputSet::WriteEguiEvents)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
}

/// bevy_egui tells egui the modifier keys' state each frame as an event, and egui asks a
/// repaint for any event: a still window would never rest. The event is kept only when the
/// modifiers changed.
fn quiet_modifiers(
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    mut last: Local<Option<bevy_egui::egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        let before = *last;
        input.0.events.retain(|e| match e {
            bevy_egui::egui::Event::ModifiersChanged(m) => {
                let changed = before != Some(*m);
                *last = Some(*m);
                changed
            }
            _ => true,
        });
    }
}

/// Why the window needs the next frame now, if it does (for the log and the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awake {
    /// The last frame drew something new: draw until it settles.
    Drawing,
    /// The game goes on without a person: an AI's turn, its pause, an automatic step.
    Playing,
    /// A chapter's show or a battle window plays.
    Showing,
    /// A key or a mouse button is held.
    Held,
    /// An input script runs and counts frames.
    Script,
}

/// Whether the window needs another frame now, and why.
pub fn awake(world: &World) -> Option<Awake> {
    if world
        .get_resource::<super::frame_cache::FrameCache>()
        .is_some_and(|c| !c.resting)
    {
        return Some(Awake::Drawing);
    }
    if world
        .get_resource::<super::chapter_show::Show>()
        .is_some_and(|s| s.busy())
        || world
            .get_resource::<super::battle::Battles>()
            .is_some_and(|b| b.showing())
    {
        return Some(Awake::Showing);
    }
    let held = world
        .get_resource::<ButtonInput<KeyCode>>()
        .is_some_and(|k| k.get_pressed().next().is_some())
        || world
            .get_resource::<ButtonInput<MouseButton>>()
            .is_some_and(|m| m.get_pressed().next().is_some());
    if held {
        return Some(Awake::Held);
    }
    if super::script::needs_frames(world) {
        return Some(Awake::Script);
    }
    if plays_by_itself(world) {
        return Some(Awake::Playing);
    }
    None
}

/// The game is going on without a person: not over, on the playing screen, and not waiting
/// for a person's decision (Chaos' turn, an AI seat's, the Eladrin AI playing a turn, an
/// automatic step), or the AI is thinking.
fn plays_by_itself(world: &World) -> bool {
    let playing = world
        .get_resource::<State<super::screens::Screen>>()
        .is_some_and(|s| *s.get() == super::screens::Screen::Playing);
    if !playing
        || world
            .get_resource::<Outcome>()
            .is_none_or(|o| o.winner.is_some())
    {
        return false;
    }
    if world
        .get_resource::<super::driver::Driver>()
        .is_some_and(|d| d.thinking())
    {
        return true;
    }
    // The hot-seat hand-off screen waits for a person.
    if world
        .get_resource::<super::handoff::HandOff>()
        .is_some_and(|h| h.waiting_for.is_some())
    {
        return false;
    }
    matches!(world.step_kind(), StepKind::Automatic) || super::driver::ai_decides(world)
}

/// Asks for the next frame while `awake` says so; at rest asks nothing, and the window waits
/// for input or the slow tick. At debug level (`RUST_LOG=chaos_outpost::view::rest=debug`) it
/// says why the window stays awake when that changes, and at rest what egui asked a repaint
/// for: the way to find what keeps a still window busy.
fn keep_awake(world: &mut World, mut last: Local<Option<Awake>>) {
    let now = awake(world);
    if now.is_some() {
        world.write_message(RequestRedraw);
    }
    super::wake::hand_to_timer(world, now.is_none());
    if now != *last {
        debug!("rest: {now:?}");
        *last = now;
    }
    if now.is_some() || !bevy::log::tracing::enabled!(bevy::log::Level::DEBUG) {
        return;
    }
    let mut q =
        world.query_filtered::<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>();
    if let Ok(mut ctx) = q.single_mut(world) {
        let ctx = ctx.get_mut();
        if ctx.has_requested_repaint() {
            debug!(
                "rest: egui asks a repaint: {:?}, its input's events {:?}",
                ctx.repaint_causes(),
                ctx.input(|i| i.events.clone())
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy_egui::egui::{Event, Modifiers};

    use super::*;

    /// Each thing that keeps the window awake, alone; with none, it rests.
    #[test]
    fn the_window_rests_only_while_nothing_moves() {
        let mut world = World::new();
        let mut cache = super::super::frame_cache::FrameCache::default();
        cache.resting = true;
        world.insert_resource(cache);
        world.init_resource::<super::super::chapter_show::Show>();
        world.init_resource::<super::super::battle::Battles>();
        world.init_resource::<ButtonInput<KeyCode>>();
        world.init_resource::<ButtonInput<MouseButton>>();
        assert_eq!(awake(&world), None, "nothing moves");
        world
            .resource_mut::<super::super::frame_cache::FrameCache>()
            .resting = false;
        assert_eq!(
            awake(&world),
            Some(Awake::Drawing),
            "a frame drew something new"
        );
        world
            .resource_mut::<super::super::frame_cache::FrameCache>()
            .resting = true;
        world
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(KeyCode::ArrowLeft);
        assert_eq!(awake(&world), Some(Awake::Held), "a key held pans the map");
        world
            .resource_mut::<ButtonInput<KeyCode>>()
            .release(KeyCode::ArrowLeft);
        world.resource_mut::<ButtonInput<KeyCode>>().clear();
        assert_eq!(awake(&world), None);
    }

    /// The modifiers' event bevy_egui sends every frame reaches egui only when they change.
    #[test]
    fn the_modifiers_reach_egui_only_when_they_change() {
        let mut world = World::new();
        let input = world.spawn(bevy_egui::EguiInput::default()).id();
        // One system for every frame, as in the app: it remembers the last modifiers.
        let quiet = world.register_system(quiet_modifiers);
        let send = |world: &mut World, m: Modifiers| -> usize {
            {
                let mut e = world.entity_mut(input);
                let mut i = e.get_mut::<bevy_egui::EguiInput>().expect("input");
                i.0.events = vec![Event::ModifiersChanged(m), Event::PointerGone];
            }
            world.run_system(quiet).expect("runs");
            let i = world
                .entity(input)
                .get::<bevy_egui::EguiInput>()
                .expect("input");
            i.0.events
                .iter()
                .filter(|e| matches!(e, Event::ModifiersChanged(_)))
                .count()
        };
        assert_eq!(send(&mut world, Modifiers::NONE), 1, "the first one");
        assert_eq!(send(&mut world, Modifiers::NONE), 0, "the same again");
        assert_eq!(send(&mut world, Modifiers::CTRL), 1, "Ctrl pressed");
        assert_eq!(send(&mut world, Modifiers::CTRL), 0);
        assert_eq!(send(&mut world, Modifiers::NONE), 1, "Ctrl released");
    }
}
