//! Hot-seat hand-off: when the main phase (or a chapter's step of seats) passes to another
//! Eladrin player, a screen hides the board until that player says they are at the keyboard,
//! so no one plans on a partner's view, nor sees a partner's hidden cards.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::screens::{Overlay, ViewSet};
use crate::content::{Camp, Who};
use crate::rules::{Cycle, GameSetup, GameWorld, Outcome, StepKind};

/// Which turn was last handed over: (cycle, step, seat).
#[derive(Resource, Default)]
pub struct HandOff {
    /// The turn the players acknowledged last.
    pub acknowledged: Option<(u32, usize, usize)>,
    /// The turn waiting to be acknowledged.
    pending: Option<(u32, usize, usize)>,
    /// The board is hidden, waiting for this player.
    pub waiting_for: Option<String>,
    /// Where the screen's button is, in pixels, while it waits (checks of the real window
    /// click it).
    pub button: Option<[f32; 4]>,
}

impl HandOff {
    /// The next player took the keyboard (the hand-off screen's button): the board shows
    /// again. False when nothing was waiting.
    pub fn hand_over(&mut self) -> bool {
        if self.waiting_for.is_none() {
            return false;
        }
        self.acknowledged = self.pending.take();
        self.waiting_for = None;
        self.button = None;
        true
    }
}

/// The seat at the screen, whose hidden cards the panels may show (`chapter_panel`): with one
/// person playing, their seat (beside AI seats, whose cards stay hidden); in hot-seat, the seat that
/// last took the keyboard at the hand-off screen. `None` while the hand-off screen waits or
/// before anyone took the keyboard: then nothing hidden is shown.
pub fn at_screen(world: &World) -> Option<u8> {
    if super::driver::human_seats(world) < 2 {
        // One person plays, beside AI seats: their seat (an AI seat's cards stay hidden).
        let players = &world.resource::<GameSetup>().players;
        return Some(
            players
                .iter()
                .position(|p| !super::driver::is_ai_seat(p))
                .map(|i| i as u8)
                .unwrap_or_else(|| crate::rules::chapter::current_seat(world)),
        );
    }
    let h = world.get_resource::<HandOff>()?;
    if h.waiting_for.is_some() {
        return None;
    }
    h.acknowledged.map(|(_, _, seat)| seat as u8)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HandOff>()
        .add_systems(Update, watch_turns.in_set(ViewSet::Commands))
        .add_systems(
            EguiPrimaryContextPass,
            draw_handoff.run_if(in_state(Overlay::HandOff)),
        );
}

/// Hides the board when an Eladrin turn of another hot-seat player begins: the hand-off is
/// shown over anything else while it waits, and closes once the player took the keyboard.
fn watch_turns(world: &mut World) {
    decide_turns(world);
    let waiting = world.resource::<HandOff>().waiting_for.is_some();
    match (waiting, super::screens::now(world).1) {
        (true, o) if o != Overlay::HandOff => {
            super::screens::open(world, Overlay::HandOff);
        }
        (false, Overlay::HandOff) => super::screens::close(world, Overlay::HandOff),
        _ => {}
    }
}

/// Whether a hot-seat player's turn waits for them (`HandOff::waiting_for`).
fn decide_turns(world: &mut World) {
    let players = world.resource::<GameSetup>().players.clone();
    if super::driver::human_seats(world) < 2 || world.resource::<Outcome>().winner.is_some() {
        world.resource_mut::<HandOff>().waiting_for = None;
        return;
    }
    let c = world.resource::<Cycle>().clone();
    let by_seat = match world.step_kind() {
        StepKind::Turns | StepKind::Round { .. } => true,
        StepKind::Decision { by, .. } => matches!(by, Who::Seat(_)),
        StepKind::Automatic => false,
    };
    if !by_seat || world.deciding() != Camp::Eladrins {
        return;
    }
    let seat = crate::rules::chapter::current_seat(world) as usize;
    let turn = (c.number, c.step, seat);
    // An AI seat plays on its own: nothing to hide from it.
    if super::driver::seat_is_ai(world) {
        world.resource_mut::<HandOff>().waiting_for = None;
        return;
    }
    let mut h = world.resource_mut::<HandOff>();
    if h.acknowledged != Some(turn) && h.waiting_for.is_none() {
        h.waiting_for = Some(players.get(seat).cloned().unwrap_or_default());
        h.pending = Some(turn);
    }
}

fn draw_handoff(
    mut contexts: EguiContexts,
    mut h: ResMut<HandOff>,
    cycle: Res<Cycle>,
    tr: Res<crate::text::Translations>,
) -> Result {
    let Some(name) = h.waiting_for.clone() else {
        // Shown for a frame after the player took the keyboard: nothing more to hide.
        if h.button.is_some() {
            h.button = None;
        }
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let z = ctx.pixels_per_point();
    let mut button = None;
    let screen = ctx.viewport_rect();
    egui::Area::new("handoff".into())
        .order(egui::Order::Foreground)
        .fixed_pos(screen.min)
        .show(ctx, |ui| {
            ui.painter()
                .rect_filled(screen, 0.0, egui::Color32::from_rgb(18, 20, 28));
            let inner = screen.shrink2(egui::vec2(screen.width() * 0.25, 0.0));
            ui.scope_builder(egui::UiBuilder::new().max_rect(inner), |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(screen.height() * 0.15);
                    ui.label(
                        egui::RichText::new(tr.f("Cycle {} — {}'s turn", &[&cycle.number, &name]))
                            .size(30.0)
                            .strong(),
                    );
                    ui.add_space(8.0);
                    ui.label(
                        egui::RichText::new(tr.t(
                            "Pass the keyboard and mouse. The board stays hidden until you are ready.",
                        ))
                        .size(16.0),
                    );
                    ui.add_space(12.0);
                    let r = ui.button(
                        egui::RichText::new(tr.f("I am {}: show the board", &[&name])).size(18.0),
                    );
                    let b = r.rect;
                    button = Some([b.min.x * z, b.min.y * z, b.width() * z, b.height() * z]);
                    if r.clicked() {
                        h.hand_over();
                    }
                });
            });
        });
    if h.waiting_for.is_some() && h.button != button {
        h.button = button;
    }
    Ok(())
}
