//! Mouse and keyboard on the map: hovering and selecting hexes, ordering the selected army to
//! move (right click), panning (drag, arrows/WASD, screen edges) and zooming (wheel, +/-), with
//! limits. Orders become `ActionRequest`s; the rules decide.

use bevy::input::mouse::{MouseMotion, MouseWheel};
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use super::{ViewState, layout};
use crate::content::Camp;
use crate::rules::{Action, ActionRequest, Army, Cycle};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            pick_hexes,
            pan_and_zoom_camera,
            screenshot_on_f12,
            enter_closes_the_step,
        ),
    );
}

/// Enter does what the phase bar's main button does: close the upkeep step, end the army's
/// activation, or end the turn.
fn enter_closes_the_step(
    keys: Res<ButtonInput<KeyCode>>,
    egui: Res<EguiWantsInput>,
    cycle: Res<Cycle>,
    order: Res<crate::rules::CycleOrder>,
    mut send: MessageWriter<ActionRequest>,
) {
    if !keys.just_pressed(KeyCode::Enter) || egui.wants_keyboard_input() {
        return;
    }
    let main = order.0.get(cycle.step).is_some_and(|s| s.main);
    let action = if !main {
        Action::Done
    } else if cycle.turn != Camp::Eladrins {
        return;
    } else if cycle.activation.is_some() {
        Action::EndActivation
    } else {
        Action::Pass
    };
    send.write(ActionRequest {
        by: Camp::Eladrins,
        action,
    });
}

/// F12 saves a screenshot (in `CHAOS_OUTPOST_SCREENSHOTS`, else the current folder).
fn screenshot_on_f12(keys: Res<ButtonInput<KeyCode>>, mut commands: Commands, mut n: Local<u32>) {
    if !keys.just_pressed(KeyCode::F12) {
        return;
    }
    *n += 1;
    let dir = std::env::var("CHAOS_OUTPOST_SCREENSHOTS").unwrap_or_else(|_| ".".into());
    let path = std::path::Path::new(&dir).join(format!("chaos-outpost-{}.png", *n));
    commands
        .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
        .observe(bevy::render::view::screenshot::save_to_disk(path));
}

/// Hover and selection; right click orders the selected Eladrin army to move there.
#[allow(clippy::too_many_arguments)]
pub fn pick_hexes(
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform)>,
    buttons: Res<ButtonInput<MouseButton>>,
    egui: Res<EguiWantsInput>,
    armies: Query<&Army>,
    cycle: Res<Cycle>,
    board: Res<crate::rules::Board>,
    mut view: ResMut<ViewState>,
    mut send: MessageWriter<ActionRequest>,
) {
    let (Ok(w), Ok((cam, gt))) = (windows.single(), cams.single()) else {
        return;
    };
    if egui.is_pointer_over_area() || egui.wants_pointer_input() {
        return;
    }
    let Some(p) = w.cursor_position() else {
        view.hover = None;
        return;
    };
    let Ok(world_pos) = cam.viewport_to_world_2d(gt, p) else {
        return;
    };
    let h = layout().world_pos_to_hex(world_pos);
    if !board.contains(h) {
        view.hover = None;
        return;
    }
    view.hover = Some(h);
    if buttons.just_pressed(MouseButton::Left) {
        view.selected = Some(h);
    }
    if buttons.just_pressed(MouseButton::Right)
        && let Some(sel) = view.selected
    {
        let mine = armies
            .iter()
            .filter(|a| a.hex == sel && a.camp == Camp::Eladrins)
            .min_by_key(|a| a.id);
        if let Some(a) = mine {
            if cycle.activation != Some(a.id) {
                send.write(ActionRequest {
                    by: Camp::Eladrins,
                    action: Action::Activate { army: a.id },
                });
            }
            send.write(ActionRequest {
                by: Camp::Eladrins,
                action: Action::Move { to: (h.x, h.y) },
            });
            view.selected = Some(h);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn pan_and_zoom_camera(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut motion: MessageReader<MouseMotion>,
    mut wheel: MessageReader<MouseWheel>,
    egui: Res<EguiWantsInput>,
    windows: Query<&Window>,
    time: Res<Time>,
    mut cam: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
    view: Res<ViewState>,
) {
    let Ok((mut t, mut proj)) = cam.single_mut() else {
        return;
    };
    let Projection::Orthographic(ortho) = proj.bypass_change_detection() else {
        return;
    };
    let scale_before = ortho.scale;
    let mut d = Vec2::ZERO;
    if !egui.wants_keyboard_input() {
        if keys.pressed(KeyCode::ArrowLeft) || keys.pressed(KeyCode::KeyA) {
            d.x -= 1.0;
        }
        if keys.pressed(KeyCode::ArrowRight) || keys.pressed(KeyCode::KeyD) {
            d.x += 1.0;
        }
        if keys.pressed(KeyCode::ArrowUp) || keys.pressed(KeyCode::KeyW) {
            d.y += 1.0;
        }
        if keys.pressed(KeyCode::ArrowDown) || keys.pressed(KeyCode::KeyS) {
            d.y -= 1.0;
        }
        if keys.pressed(KeyCode::Equal) {
            ortho.scale *= 0.98;
        }
        if keys.pressed(KeyCode::Minus) {
            ortho.scale *= 1.02;
        }
    }
    // Screen edges pan too.
    if let Ok(w) = windows.single()
        && let Some(p) = w.cursor_position()
        && !egui.is_pointer_over_area()
    {
        let m = 8.0;
        if p.x < m {
            d.x -= 1.0;
        }
        if p.y < m {
            d.y += 1.0;
        }
        if p.y > w.height() - m {
            d.y -= 1.0;
        }
    }
    let speed = 500.0 * ortho.scale * time.delta_secs();
    // Work on a copy and write back only a real change: a camera that "moved" by zero every
    // frame would make Bevy redo its view work each frame.
    let mut at = t.translation;
    at += (d * speed).extend(0.0);
    if !egui.is_pointer_over_area() {
        for e in wheel.read() {
            ortho.scale *= if e.y > 0.0 { 0.9 } else { 1.1 };
        }
        if buttons.pressed(MouseButton::Middle) {
            for m in motion.read() {
                at += Vec3::new(-m.delta.x, m.delta.y, 0.0) * ortho.scale;
            }
        }
    }
    motion.clear();
    wheel.clear();
    // C centres the view on the selected army or outpost.
    if keys.just_pressed(KeyCode::KeyC)
        && !egui.wants_keyboard_input()
        && let Some(h) = view.selected
    {
        let p = layout().hex_to_world_pos(h);
        at.x = p.x;
        at.y = p.y;
    }
    ortho.scale = ortho.scale.clamp(0.3, 8.0);
    if ortho.scale != scale_before {
        proj.set_changed();
    }
    // Keep the camera over the map.
    at.x = at.x.clamp(-4000.0, 4000.0);
    at.y = at.y.clamp(-4000.0, 4000.0);
    if at != t.translation {
        t.translation = at;
    }
}
