//! Mouse and keyboard on the map: hovering and selecting hexes, ordering the selected army to
//! move (right click), panning (drag, arrows/WASD, screen edges) and zooming (wheel, +/-), with
//! limits. The keyboard reaches all of it through the keymap (`app::keys`): a map cursor
//! moved hex by hex stands in for the pointer, and selecting and ordering work from it. Orders
//! become `ActionRequest`s; the rules decide.

use bevy::ecs::system::SystemParam;
use bevy::input::mouse::{MouseMotion, MouseWheel};
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use super::screens::{Overlay, Screen, ViewSet};
use super::{Shortcuts, ViewState, layout};
use crate::app::keys::{Keymap, Shortcut};
use crate::content::Camp;
use crate::rules::{Action, ActionRequest, Army, Cycle, Outpost};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            (
                pick_hexes,
                move_the_map_cursor.after(pick_hexes),
                pan_and_zoom_camera,
                enter_closes_the_step,
                hand_turns_to_the_ai,
            )
                .run_if(the_map_has_input),
            take_screenshots,
        )
            .in_set(ViewSet::Input),
    );
}

/// The map takes input in the game, except while the hand-off hides the board or the level's
/// intro waits to be read (the menus and the campaign screen have their own).
fn the_map_has_input(screen: Res<State<Screen>>, overlay: Res<State<Overlay>>) -> bool {
    *screen.get() == Screen::Playing && !matches!(overlay.get(), Overlay::HandOff | Overlay::Intro)
}

/// Whether the pointer at `p` (logical pixels) is the map's: inside the area the panels leave
/// to it, and over no egui panel or window, nor in a drag egui began. Wheel turns, clicks and
/// drags elsewhere are egui's (a panel scrolls, a window moves), never the camera's.
pub fn pointer_on_map(view: &ViewState, egui: &EguiWantsInput, p: Vec2) -> bool {
    let inside = view
        .map_rect
        .is_none_or(|[x, y, w, h]| p.x >= x && p.y >= y && p.x < x + w && p.y < y + h);
    inside && !egui.is_pointer_over_area() && !egui.wants_pointer_input()
}

/// The AI shortcuts: the Eladrin AI finishes this turn; the Chaos turn plays out at once.
fn hand_turns_to_the_ai(keys: Shortcuts, mut driver: ResMut<super::driver::Driver>) {
    if keys.fired(Shortcut::AiTurn) {
        driver.autoplay_eladrins = true;
    }
    if keys.fired(Shortcut::SkipChaos) {
        driver.skip_chaos = true;
    }
}

/// The pieces on the map an order needs: the board, the armies, the outposts, the cycle.
#[derive(SystemParam)]
struct Pieces<'w, 's> {
    board: Res<'w, crate::rules::Board>,
    armies: Query<'w, 's, &'static Army>,
    outposts: Query<'w, 's, &'static Outpost>,
    cycle: Res<'w, Cycle>,
}

/// The map cursor: the six neighbour keys move the hovered hex like the pointer would, the
/// select key selects it, the move key orders the selected army there, and the next-unit key
/// walks through the Eladrin armies and outposts.
fn move_the_map_cursor(
    keys: Shortcuts,
    pieces: Pieces,
    mut view: ResMut<ViewState>,
    mut send: MessageWriter<ActionRequest>,
) {
    let Pieces {
        board,
        armies,
        outposts,
        cycle,
    } = pieces;
    // Each key goes to the neighbour that lies in its direction on screen (degrees,
    // counter-clockwise from east), whatever the layout's axes.
    let moves = [
        (Shortcut::CursorE, 0.0f32),
        (Shortcut::CursorNE, 60.0),
        (Shortcut::CursorNW, 120.0),
        (Shortcut::CursorW, 180.0),
        (Shortcut::CursorSW, 240.0),
        (Shortcut::CursorSE, 300.0),
    ];
    for (s, angle) in moves {
        if keys.fired(s) {
            let from = view.hover.or(view.selected).unwrap_or(hexx::Hex::ZERO);
            let to = neighbour_towards(from, angle);
            if board.contains(to) {
                view.hover = Some(to);
                view.keyboard_cursor = true;
            }
        }
    }
    if keys.fired(Shortcut::SelectCursor)
        && let Some(h) = view.hover
    {
        view.selected = Some(h);
    }
    if keys.fired(Shortcut::MoveToCursor)
        && let (Some(sel), Some(to)) = (view.selected, view.hover)
    {
        order_move(&armies, &cycle, sel, to, &mut send);
        view.selected = Some(to);
    }
    if keys.fired(Shortcut::NextUnit) {
        // Armies then outposts, each by id: a stable walk.
        let mut stops: Vec<hexx::Hex> = {
            let mut a: Vec<&Army> = armies.iter().filter(|a| a.camp == Camp::Eladrins).collect();
            a.sort_by_key(|a| a.id);
            a.into_iter().map(|a| a.hex).collect()
        };
        let mut o: Vec<&Outpost> = outposts.iter().collect();
        o.sort_by_key(|o| o.id);
        stops.extend(o.into_iter().map(|o| o.hex));
        stops.dedup();
        if !stops.is_empty() {
            let next = view
                .selected
                .and_then(|s| stops.iter().position(|h| *h == s))
                .map_or(0, |i| (i + 1) % stops.len());
            view.selected = Some(stops[next]);
            view.hover = Some(stops[next]);
            view.keyboard_cursor = true;
            view.centre_on_selection = true;
        }
    }
}

/// The neighbour of `h` whose centre lies closest to `degrees` on screen.
pub fn neighbour_towards(h: hexx::Hex, degrees: f32) -> hexx::Hex {
    let l = layout();
    let o = l.hex_to_world_pos(h);
    let want = Vec2::from_angle(degrees.to_radians());
    h.all_neighbors()
        .into_iter()
        .max_by(|a, b| {
            let da = (l.hex_to_world_pos(*a) - o).normalize().dot(want);
            let db = (l.hex_to_world_pos(*b) - o).normalize().dot(want);
            da.total_cmp(&db)
        })
        .unwrap_or(h)
}

/// The selected tile's Eladrin army (the lowest id) activates if needed and moves to `to`.
fn order_move(
    armies: &Query<&Army>,
    cycle: &Cycle,
    sel: hexx::Hex,
    to: hexx::Hex,
    send: &mut MessageWriter<ActionRequest>,
) {
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
            action: Action::Move { to: (to.x, to.y) },
        });
    }
}

/// Enter does what the phase bar's main button does: close the upkeep step, end the army's
/// activation, or end the turn; nothing once the game is over.
fn enter_closes_the_step(
    keys: Shortcuts,
    cycle: Res<Cycle>,
    order: Res<crate::rules::CycleOrder>,
    outcome: Res<crate::rules::Outcome>,
    mut send: MessageWriter<ActionRequest>,
) {
    if !keys.fired(Shortcut::EndStep) {
        return;
    }
    // The bar's main button, from the bar's own list: nothing once the game is over.
    use super::panels::phase_bar::{Offer, offers};
    let action = match offers(&cycle, &order, &outcome).first() {
        Some(Offer::Done) => Action::Done,
        Some(Offer::EndActivation) => Action::EndActivation,
        Some(Offer::Pass) => Action::Pass,
        _ => return,
    };
    send.write(ActionRequest {
        by: Camp::Eladrins,
        action,
    });
}

/// F12 saves a screenshot (in `CHAOS_OUTPOST_SCREENSHOTS`, else the current folder).
fn take_screenshots(
    keys: Res<ButtonInput<KeyCode>>,
    map: Res<Keymap>,
    mut commands: Commands,
    mut n: Local<u32>,
) {
    if !map.just_pressed(Shortcut::Screenshot, &keys) {
        return;
    }
    *n += 1;
    let dir = std::env::var("CHAOS_OUTPOST_SCREENSHOTS").unwrap_or_else(|_| ".".into());
    let path = std::path::Path::new(&dir).join(format!("chaos-outpost-{}.png", *n));
    commands
        .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
        .observe(bevy::render::view::screenshot::save_to_disk(path));
}

/// The pointer as the map reads it: the window, the map's camera, the buttons and what egui
/// takes.
#[derive(SystemParam)]
struct Pointer<'w, 's> {
    windows: Query<'w, 's, &'static Window>,
    cams: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<super::MapCamera>>,
    buttons: Res<'w, ButtonInput<MouseButton>>,
    egui: Res<'w, EguiWantsInput>,
}

/// Hover and selection; right click orders the selected Eladrin army to move there.
fn pick_hexes(
    pointer: Pointer,
    pieces: Pieces,
    mut view: ResMut<ViewState>,
    mut send: MessageWriter<ActionRequest>,
    mut last_pointer: Local<Option<Vec2>>,
    choices: Res<super::chapter_map::ChapterMarks>,
) {
    let Pointer {
        windows,
        cams,
        buttons,
        egui,
    } = pointer;
    let Pieces {
        board,
        armies,
        cycle,
        ..
    } = pieces;
    let (Ok(w), Ok((cam, gt))) = (windows.single(), cams.single()) else {
        return;
    };
    let Some(p) = w.cursor_position() else {
        if !view.keyboard_cursor {
            view.hover = None;
        }
        return;
    };
    if !pointer_on_map(&view, &egui, p) {
        return;
    }
    // The keyboard's map cursor holds the hover until the pointer moves again.
    let moved = *last_pointer != Some(p);
    *last_pointer = Some(p);
    if view.keyboard_cursor && !moved && !buttons.get_just_pressed().any(|_| true) {
        return;
    }
    view.keyboard_cursor = false;
    let Ok(world_pos) = cam.viewport_to_world_2d(gt, p) else {
        return;
    };
    let h = layout().world_pos_to_hex(world_pos);
    if !board.contains(h) {
        // Off the map the last tile stays described: the pointer can cross the background
        // to the tile box and click its rule links.
        return;
    }
    view.hover = Some(h);
    if buttons.just_pressed(MouseButton::Left) {
        view.selected = Some(h);
        // A chapter's decision on this hex (the Guide's stop where the Eladrins guide).
        if let Some(action) = choices.choice_at(h) {
            send.write(ActionRequest {
                by: Camp::Eladrins,
                action: action.clone(),
            });
        }
    }
    if buttons.just_pressed(MouseButton::Right)
        && let Some(sel) = view.selected
    {
        order_move(&armies, &cycle, sel, h, &mut send);
        if armies
            .iter()
            .any(|a| a.hex == sel && a.camp == Camp::Eladrins)
        {
            view.selected = Some(h);
        }
    }
}

/// The mouse's motion and wheel since the last frame.
#[derive(SystemParam)]
struct Moves<'w, 's> {
    motion: MessageReader<'w, 's, MouseMotion>,
    wheel: MessageReader<'w, 's, MouseWheel>,
}

/// Pans and zooms the map's camera: keys, screen edges, the wheel and the middle button over
/// the map (`pointer_on_map`), and centres it on the selection when asked.
fn pan_and_zoom_camera(
    keys: Shortcuts,
    pointer: Pointer,
    moves: Moves,
    time: Res<Time>,
    mut cam: Query<(&mut Transform, &mut Projection), With<super::MapCamera>>,
    mut view: ResMut<ViewState>,
) {
    let Pointer {
        windows,
        buttons,
        egui,
        ..
    } = pointer;
    let Moves {
        mut motion,
        mut wheel,
    } = moves;
    let Ok((mut t, mut proj)) = cam.single_mut() else {
        return;
    };
    let Projection::Orthographic(ortho) = proj.bypass_change_detection() else {
        return;
    };
    let scale_before = ortho.scale;
    let mut d = Vec2::ZERO;
    {
        let held = |s| keys.held(s);
        if held(Shortcut::PanLeft) {
            d.x -= 1.0;
        }
        if held(Shortcut::PanRight) {
            d.x += 1.0;
        }
        if held(Shortcut::PanUp) {
            d.y += 1.0;
        }
        if held(Shortcut::PanDown) {
            d.y -= 1.0;
        }
        if held(Shortcut::ZoomIn) {
            ortho.scale *= 0.98;
        }
        if held(Shortcut::ZoomOut) {
            ortho.scale *= 1.02;
        }
    }
    // Screen edges pan too; the wheel and the middle button work over the map only.
    let pointer = windows
        .single()
        .ok()
        .and_then(|w| Some((w, w.cursor_position()?)));
    let on_map = pointer.is_some_and(|(_, p)| pointer_on_map(&view, &egui, p));
    if let Some((w, p)) = pointer
        && on_map
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
    if on_map {
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
    // C centres the view on the selected army or outpost (and the next-unit key asks for it).
    let centre = std::mem::take(&mut view.centre_on_selection) || keys.fired(Shortcut::CentreView);
    if centre && let Some(h) = view.selected {
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
