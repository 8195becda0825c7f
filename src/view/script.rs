//! Scripted input for checks of the real window (`play --script FILE --out DIR`): a RON list of
//! steps played one after another. Clicks on the map move the real cursor over a hex and press
//! the real mouse button (the input systems, egui included, see them as a player's); `Act` sends
//! an action the way the panels' buttons do; waits follow the game (the Chaos AI plays its turns
//! in the background as usual). Screenshots and a save go to the output folder, then the app
//! quits; a step that times out quits with an error code and says which.

use std::path::PathBuf;

use bevy::input::ButtonState;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use serde::{Deserialize, Serialize};

use super::layout;
use crate::content::{At, Camp};
use crate::rules::{Action, ActionRequest, Cycle, GameWorld, Outcome, snapshot};

/// A mouse button in a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Button {
    /// Select.
    Left,
    /// Order the selected army to move.
    Right,
}

/// One scripted step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum UiStep {
    /// Let frames pass.
    Wait(u32),
    /// Until the game waits in this step (`R7`, `R9`…).
    WaitStep(String),
    /// Until the main phase waits for this camp.
    WaitTurn(Camp),
    /// Until this Eladrin seat has the turn (in any step: a round, a call to battle, the main
    /// phase) with an action of a chapter to take: a seat's say in a chapter's step.
    WaitSeat(u8),
    /// Send a chapter's action as this Eladrin seat, once that seat has the turn and the rules
    /// would accept it (waits until then), as its panel's button does.
    ActAsSeat {
        /// The seat.
        seat: u8,
        /// The action.
        action: Action,
    },
    /// Until this cycle has begun.
    WaitCycle(u32),
    /// Send an action, as a panel button does.
    Act(Action),
    /// Send the first legal Eladrin action of this chapter (its values depend on the dice: a
    /// card dealt, a stake), as its panel's first button does; waits until there is one.
    ActChapter(String),
    /// Until the hot-seat hand-off screen waits, then take the keyboard, as its button does.
    HandOver,
    /// Pass each Eladrin turn of this main phase (Chaos plays its own) until the upkeep begins.
    PassMainPhase,
    /// Move the cursor over a hex and click there.
    ClickHex {
        /// The hex.
        at: At,
        /// The button.
        button: Button,
    },
    /// Undo the last action (as Ctrl+Z does).
    Undo,
    /// Press and release a key with its modifiers, as the keyboard does (`"Tab"`, `"Ctrl+Z"`,
    /// `"J"`; the names of the settings' key bindings).
    Key(String),
    /// Open the rules at this rule, as a refusal's rule button does.
    OpenRule(String),
    /// Set the language (`en`, `fr`), as the settings do.
    Language(String),
    /// Set the Chaos turn's speed (0.25 to 4), as the settings do.
    ChaosSpeed(f32),
    /// Turn the first level's hints on or off, as the settings do.
    Hints(bool),
    /// Set the interface scale (0.75 to 2), as the settings do.
    UiScale(f32),
    /// Set the colour palette, as the settings do.
    Palette(crate::app::settings::Palette),
    /// Scroll the side panel to this offset (points from its top), as the wheel does.
    ScrollSide(f32),
    /// Wait for a key to bind to this shortcut, as the settings' Change button does.
    Rebind(crate::app::keys::Shortcut),
    /// Open this overlay (`Settings`, `Mods`, `Credits`, `Help`) as the menu's buttons do, or
    /// close the one shown (`None`).
    Overlay(super::screens::Overlay),
    /// Close the level's intro, as its Begin button does (waits for it to open).
    Begin,
    /// Until this hint (an id of `assets/help/hints.ron`) is on screen.
    WaitHint(String),
    /// Until a chapter's show plays a card under this title, in the language shown (`"The
    /// raid"`).
    WaitShowTitle(String),
    /// Wait until no chapter's show plays (its beats all shown).
    WaitShowDone,
    /// Wait until the show's card on screen has come to this many lines (or no card shows).
    WaitShowLines(usize),
    /// Close every card waiting on screen, as their OK buttons do (a card also closes by
    /// itself after 8 s, which a slow machine may reach between two screenshots).
    CloseCards,
    /// Close every battle window waiting on screen, as their OK buttons do.
    CloseBattles,
    /// Draw the map afresh around the view, changed or not (a check that the cached picture is
    /// what a fresh draw gives).
    RedrawMap,
    /// Pan the map view by this many world units (x right, y up), as a drag does.
    PanMap((f32, f32)),
    /// Load a save, as the menu does (a relative path is in the output folder, where the
    /// script's own saves go: a check writes the game it starts from there).
    Load(String),
    /// Let the AIs play until this cycle's main phase (the "Let the AI play" button, each turn).
    AiUntilCycle(u32),
    /// Let the AIs play until the game stands at this step (`CACTION`): a chapter's step
    /// played by hand from its start.
    AiUntilStep(String),
    /// Let the AIs play until a battle is shown.
    AiUntilBattle,
    /// Let the AIs play until a chapter's show puts a card on screen whose title begins with
    /// this (`Battle for`).
    AiUntilShow(String),
    /// Press a button of the campaign screen or of a chapter's end window, as a click does;
    /// waits until it is offered (`campaign_ui::offered`).
    Campaign(super::campaign_ui::Click),
    /// Save a screenshot under the output folder.
    Screenshot(String),
    /// Save the game under the output folder.
    Save(String),
    /// Write what the window shows under the output folder (`WindowReport`, RON): the screen
    /// and overlay, the map's zoom and area, and the egui windows on screen with their places.
    Report(String),
    /// Write an empty file of this name under the output folder (a check driving the real
    /// mouse outside the game waits for it).
    Mark(String),
    /// Until a file of this name is in the output folder (written by a check outside the game).
    WaitFile(String),
    /// Answer a check outside the game that drives the real mouse: each time it writes
    /// `NAME.ask.K` (K from 0), once 20 frames have passed, write the window report
    /// `NAME.K.ron` (the board's targets in it) and the game `NAME.K.save.ron`; done when it
    /// writes `NAME.stop`.
    Serve(String),
    /// Quit.
    Quit,
}

/// A script file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiScript {
    /// The steps.
    pub steps: Vec<UiStep>,
    /// Frames any one wait may take before the script gives up.
    #[serde(default = "default_timeout")]
    pub timeout_frames: u32,
}

fn default_timeout() -> u32 {
    6000
}

/// The script running, and where it writes.
#[derive(Resource)]
pub struct ScriptRun {
    script: UiScript,
    out: PathBuf,
    at: usize,
    frames_in_step: u32,
    /// A click under way: the frame it is at (cursor moved, pressed, released).
    click: Option<(MouseButton, u8)>,
    /// A key press under way: the frame it is at (pressed, released).
    key: u8,
    /// The action count when the script last passed.
    passed_at: Option<usize>,
    /// `Serve`: the next ask it answers, and the frames since it came.
    serve: (u32, Option<u32>),
}

impl ScriptRun {
    /// A run of `script` writing into `out`.
    pub fn new(script: UiScript, out: PathBuf) -> ScriptRun {
        ScriptRun {
            script,
            out,
            at: 0,
            frames_in_step: 0,
            click: None,
            key: 0,
            passed_at: None,
            serve: (0, None),
        }
    }
}

/// Reads a script file (bounded, checked).
pub fn read(path: &std::path::Path) -> Result<UiScript, String> {
    let text = crate::content::read_bounded(path).map_err(|p| p.to_string())?;
    crate::content::parse_ron(&crate::content::SourceFile {
        path: path.display().to_string(),
        text,
    })
    .map_err(|p| p.to_string())
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        run_script
            .run_if(resource_exists::<ScriptRun>)
            .in_set(super::screens::ViewSet::Input),
    );
}

fn run_script(world: &mut World) {
    let (step, out, timeout) = {
        let mut run = world.resource_mut::<ScriptRun>();
        run.frames_in_step += 1;
        match run.script.steps.get(run.at).cloned() {
            Some(s) => (s, run.out.clone(), run.script.timeout_frames),
            None => {
                world.write_message(AppExit::Success);
                return;
            }
        }
    };
    let frames = world.resource::<ScriptRun>().frames_in_step;
    // Each group answers the steps it knows (`None` for the others): whether the step is done.
    let done = match waited(world, &step, frames, &out) {
        Some(d) => d,
        None => match played(world, &step) {
            Some(d) => d,
            None => match pressed(world, &step) {
                Some(d) => d,
                None => match set(world, &step) {
                    Some(d) => d,
                    None => written(world, &step, frames, &out).unwrap_or(false),
                },
            },
        },
    };
    let mut run = world.resource_mut::<ScriptRun>();
    if done {
        info!("script: step {} done: {step:?}", run.at + 1);
        run.at += 1;
        run.frames_in_step = 0;
    } else if frames > timeout && !matches!(step, UiStep::Quit) {
        let at = run.at + 1;
        let winner = world.resource::<Outcome>().winner;
        error!(
            "script: step {at} {step:?} not done after {timeout} frames (game in step {}, \
             winner {winner:?})",
            world.step_id()
        );
        world.write_message(AppExit::from_code(2));
    }
}

/// The waits: until the game, the window or a check outside it is ready.
fn waited(world: &mut World, step: &UiStep, frames: u32, out: &std::path::Path) -> Option<bool> {
    Some(match step {
        UiStep::Wait(n) => frames >= *n,
        UiStep::WaitStep(s) => world.step_id() == s,
        UiStep::WaitTurn(c) => world.in_turns() && world.resource::<Cycle>().turn == *c,
        UiStep::WaitCycle(n) => world.resource::<Cycle>().number >= *n,
        UiStep::WaitSeat(seat) => seat_asked(world, *seat),
        UiStep::WaitHint(id) => world
            .resource::<super::hints::Guide>()
            .showing
            .as_ref()
            .is_some_and(|h| h.id == *id),
        UiStep::WaitShowTitle(t) => {
            world.resource::<super::chapter_show::Show>().title() == Some(t)
        }
        UiStep::WaitShowDone => !world.resource::<super::chapter_show::Show>().busy(),
        UiStep::WaitShowLines(n) => world
            .resource::<super::chapter_show::Show>()
            .showing()
            .is_none_or(|(_, l)| l.len() >= *n),
        UiStep::WaitFile(name) => out.join(name).is_file(),
        UiStep::Serve(name) => serve(world, name, out),
        _ => return None,
    })
}

/// The game: actions sent as the panels send them, the AI asked to play, undo, loads and the campaign screen's buttons.
fn played(world: &mut World, step: &UiStep) -> Option<bool> {
    Some(match step {
        UiStep::ActAsSeat { seat, action } => {
            let ready = seat_asked(world, *seat)
                && crate::rules::legal::legal_actions(world, Camp::Eladrins).contains(action);
            if ready {
                world.write_message(ActionRequest {
                    by: Camp::Eladrins,
                    action: action.clone(),
                });
            }
            ready
        }
        UiStep::Act(a) => {
            world.write_message(ActionRequest {
                by: Camp::Eladrins,
                action: a.clone(),
            });
            true
        }
        UiStep::ActChapter(c) => {
            let first = crate::rules::legal::legal_actions(world, Camp::Eladrins)
                .into_iter()
                .find(|a| matches!(a, Action::Chapter { chapter, .. } if chapter == c));
            // Waits (up to the timeout) until one is legal.
            first
                .map(|action| {
                    world.write_message(ActionRequest {
                        by: Camp::Eladrins,
                        action,
                    })
                })
                .is_some()
        }
        UiStep::HandOver => world.resource_mut::<super::handoff::HandOff>().hand_over(),
        UiStep::AiUntilShow(t) => {
            let shown = world
                .resource::<super::chapter_show::Show>()
                .title()
                .is_some_and(|x| x.starts_with(t.as_str()));
            ai_until(world, shown)
        }
        UiStep::AiUntilBattle => {
            let shown = world.resource::<super::battle::Battles>().showing();
            ai_until(world, shown)
        }
        UiStep::AiUntilCycle(n) => {
            let c = world.resource::<Cycle>().number;
            let reached = c > *n || (c == *n && world.in_turns());
            ai_until(world, reached)
        }
        UiStep::AiUntilStep(id) => {
            let reached = world.step_id() == id;
            ai_until(world, reached)
        }
        UiStep::Undo => {
            world.resource_mut::<super::undo::UndoStack>().requested = true;
            true
        }
        UiStep::PassMainPhase => {
            if !world.in_turns() {
                true
            } else {
                let moves = world.resource::<crate::rules::ActionLog>().0.len();
                let passed_at = world.resource::<ScriptRun>().passed_at;
                // The script plays the human seats: a seat given to the AI plays itself.
                let ai_seat = super::driver::seat_is_ai(world);
                // One pass per Eladrin turn: wait for the log to move before passing again.
                if passed_at != Some(moves)
                    && world.resource::<Cycle>().turn == Camp::Eladrins
                    && !ai_seat
                {
                    world.resource_mut::<ScriptRun>().passed_at = Some(moves);
                    world.write_message(ActionRequest {
                        by: Camp::Eladrins,
                        action: Action::Pass,
                    });
                }
                false
            }
        }
        UiStep::Campaign(c) => super::campaign_ui::press(world, c.clone()),
        _ => return None,
    })
}

/// The player's hands: clicks, keys, the windows opened and closed, the map moved.
fn pressed(world: &mut World, step: &UiStep) -> Option<bool> {
    Some(match step {
        UiStep::ClickHex { at, button } => click_hex(world, *at, *button),
        UiStep::Key(k) => press_key(world, k),
        UiStep::Overlay(o) => {
            let now = super::screens::now(world).1;
            match o {
                super::screens::Overlay::None => super::screens::close(world, now),
                o => {
                    super::screens::open(world, *o);
                }
            }
            true
        }
        UiStep::OpenRule(r) => {
            world.resource_mut::<super::help::Help>().show_rule(r);
            super::screens::open(world, super::screens::Overlay::Help)
        }
        UiStep::Begin => world.resource_mut::<super::hints::Guide>().begin(),
        UiStep::PanMap((x, y)) => {
            let mut q = world.query_filtered::<&mut Transform, With<super::MapCamera>>();
            for mut t in q.iter_mut(world) {
                t.translation += Vec3::new(*x, *y, 0.0);
            }
            true
        }
        UiStep::CloseBattles => {
            world.resource_mut::<super::battle::Battles>().close_all();
            true
        }
        UiStep::CloseCards => {
            world.resource_mut::<super::cards::CardQueue>().close_all();
            true
        }
        UiStep::RedrawMap => {
            world
                .resource_mut::<super::map_cache::MapRedraw>()
                .redraw_now();
            true
        }
        UiStep::ScrollSide(y) => {
            world.resource_mut::<super::ViewState>().side_scroll = Some(*y);
            true
        }
        UiStep::Rebind(s) => {
            world.resource_mut::<crate::app::keys::Keymap>().capturing = Some(*s);
            true
        }
        _ => return None,
    })
}

/// The settings, as the settings window sets them.
fn set(world: &mut World, step: &UiStep) -> Option<bool> {
    Some(match step {
        UiStep::Language(l) => {
            world
                .resource_mut::<crate::app::settings::Settings>()
                .language = l.clone();
            true
        }
        UiStep::UiScale(s) => {
            world
                .resource_mut::<crate::app::settings::Settings>()
                .ui_scale = s.clamp(0.75, 2.0);
            true
        }
        UiStep::Palette(p) => {
            world
                .resource_mut::<crate::app::settings::Settings>()
                .palette = *p;
            true
        }
        UiStep::Hints(on) => {
            world.resource_mut::<crate::app::settings::Settings>().hints = *on;
            true
        }
        UiStep::ChaosSpeed(s) => {
            world
                .resource_mut::<crate::app::settings::Settings>()
                .animation_speed = s.clamp(0.25, 4.0);
            true
        }
        _ => return None,
    })
}

/// What the script writes and reads in its folder: screenshots, reports, marks, saves, a
/// load; and the end.
fn written(world: &mut World, step: &UiStep, frames: u32, out: &std::path::Path) -> Option<bool> {
    Some(match step {
        UiStep::Load(path) => {
            if let Err(e) = snapshot::load(world, &out.join(path)) {
                error!("script: load failed: {e}");
                world.write_message(AppExit::from_code(3));
            }
            true
        }
        UiStep::Screenshot(name) => {
            let path = out.join(name);
            world
                .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
                .observe(bevy::render::view::screenshot::save_to_disk(path));
            true
        }
        UiStep::Report(name) => {
            let report = report(world);
            let text = ron::ser::to_string_pretty(&report, Default::default())
                .unwrap_or_else(|e| format!("// {e}"));
            if let Err(e) = crate::ground::files::write_atomic(&out.join(name), &text) {
                error!("script: report failed: {e}");
                world.write_message(AppExit::from_code(3));
            }
            true
        }
        UiStep::Mark(name) => {
            if let Err(e) = std::fs::write(out.join(name), "") {
                error!("script: mark failed: {e}");
                world.write_message(AppExit::from_code(3));
            }
            true
        }
        UiStep::Save(name) => {
            if let Err(e) = snapshot::save(world, &out.join(name)) {
                error!("script: save failed: {e}");
                world.write_message(AppExit::from_code(3));
            }
            true
        }
        UiStep::Quit => {
            // Give a screenshot taken just before time to reach the disk.
            if frames >= 20 {
                world.write_message(AppExit::Success);
            }
            false
        }
        _ => return None,
    })
}

/// What the window shows, for checks of the real window (`UiStep::Report`). Places are in
/// logical pixels: x, y, width, height from the window's top left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WindowReport {
    /// The screen (`Playing`, `Menu`, `Campaign`).
    pub screen: String,
    /// The overlay (`None`, `Help`, `Intro`…).
    pub overlay: String,
    /// The map camera's zoom (its orthographic scale: more is farther).
    pub zoom: f32,
    /// The area the panels leave to the map.
    pub map_rect: Option<[f32; 4]>,
    /// The egui windows and areas over the panels, by name where the view names them (`menu`,
    /// `intro`, `help`, `refusal_toast`…; else `?`), with their places.
    pub shown: Vec<(String, [f32; 4])>,
    /// The step the game stands at (`R7`, `MACTION`).
    #[serde(default)]
    pub step: String,
    /// The Eladrin seat asked for a chapter's action now, if any.
    #[serde(default)]
    pub seat_asked: Option<u8>,
    /// The Eladrin seat whose turn it is, if the Eladrins have it (asked or only able to pass).
    #[serde(default)]
    pub seat_to_play: Option<u8>,
    /// The pieces of a chapter's board a click is taken on (`slot:guild:0`, `confirm`), with
    /// their places (`table::TableView`), and the hexes of the map a click decides on
    /// (`map:advance:4,-2`: `chapter_map::Mark::Choice`).
    #[serde(default)]
    pub targets: Vec<(String, [f32; 4])>,
    /// The pieces a chapter's board names as it draws them (`hand:0:spear_wall`, a card face
    /// up; `back:1`, a hand face down), with their places.
    #[serde(default)]
    pub pieces: Vec<(String, [f32; 4])>,
    /// The hex a chapter's show rings now (a place whose rewards are being claimed), if any.
    #[serde(default)]
    pub showing: Option<(i32, i32)>,
    /// The lines of the show's card on screen.
    #[serde(default)]
    pub showing_lines: Vec<String>,
    /// Frames in which the interface was drawn, and frames in all, since the window opened
    /// (`frame_cache`: a frame where nothing changed is the last one shown again).
    #[serde(default)]
    pub ui_frames: (u64, u64),
    /// The map's labels as drawn (place and outpost names, counts), by their text, with their
    /// text's box on screen (`chapter_map::drawn_labels`).
    #[serde(default)]
    pub labels: Vec<(String, [f32; 4])>,
    /// The drawn cards waiting to be read, by name (their content id's name), the one shown
    /// first.
    #[serde(default)]
    pub cards: Vec<String>,
}

/// The egui ids the view gives its windows and areas, by name.
const NAMED_AREAS: [&str; 17] = [
    "table",
    "table_button",
    "menu",
    "hover",
    "intro",
    "help",
    "settings",
    "mods",
    "credits",
    "campaign_screen",
    "the_end",
    "chapter_end",
    "hint",
    "handoff",
    "battle",
    "card",
    super::panels::refusal::TOAST_ID,
];

fn report(world: &mut World) -> WindowReport {
    let (screen, overlay) = super::screens::now(world);
    let zoom = world
        .query_filtered::<&Projection, With<super::MapCamera>>()
        .iter(world)
        .find_map(|p| match p {
            Projection::Orthographic(o) => Some(o.scale),
            _ => None,
        })
        .unwrap_or(0.0);
    let map_rect = world.resource::<super::ViewState>().map_rect;
    let ctx = world
        .query_filtered::<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>()
        .iter_mut(world)
        .next()
        .map(|mut c| c.get_mut().clone());
    let mut shown = Vec::new();
    if let Some(ctx) = ctx {
        let z = ctx.zoom_factor();
        let name_of = |id: bevy_egui::egui::Id| {
            NAMED_AREAS
                .iter()
                .find(|n| bevy_egui::egui::Id::new(**n) == id)
                .map_or("?".to_string(), |n| n.to_string())
        };
        ctx.memory(|m| {
            for layer in m.areas().visible_layer_ids() {
                if layer.order == bevy_egui::egui::Order::Background {
                    continue;
                }
                if let Some(r) = m.area_rect(layer.id) {
                    shown.push((
                        name_of(layer.id),
                        [r.min.x * z, r.min.y * z, r.width() * z, r.height() * z],
                    ));
                }
            }
        });
        shown.sort_by(|a, b| a.0.cmp(&b.0));
    }
    WindowReport {
        screen: format!("{screen:?}"),
        overlay: format!("{overlay:?}"),
        zoom,
        map_rect,
        shown,
        step: world.step_id().to_string(),
        seat_asked: {
            let seat = crate::rules::chapter::current_seat(world);
            seat_asked(world, seat).then_some(seat)
        },
        seat_to_play: (world.resource::<Cycle>().turn == Camp::Eladrins)
            .then(|| crate::rules::chapter::current_seat(world)),
        targets: {
            let mut t = world.resource::<super::table::TableView>().targets.clone();
            t.extend(super::chapter_map::choice_targets(world));
            // The hot-seat hand-off screen's button, while it waits.
            t.extend(
                world
                    .resource::<super::handoff::HandOff>()
                    .button
                    .map(|r| ("handoff".to_string(), r)),
            );
            t
        },
        pieces: world.resource::<super::table::TableView>().pieces.clone(),
        showing: world
            .resource::<super::chapter_show::Show>()
            .showing()
            .map(|(h, _)| (h.x, h.y)),
        ui_frames: {
            let c = world.resource::<super::frame_cache::FrameCache>();
            (c.drawn, c.frames)
        },
        showing_lines: world
            .resource::<super::chapter_show::Show>()
            .showing()
            .map(|(_, l)| l.to_vec())
            .unwrap_or_default(),
        labels: super::chapter_map::drawn_labels(world),
        cards: world.resource::<super::cards::CardQueue>().names(),
    }
}

/// The `AiUntil…` steps: the Eladrin AI plays until `reached` (or the game is over), then
/// hands back; whether the step is done.
fn ai_until(world: &mut World, reached: bool) -> bool {
    let done = reached || world.resource::<Outcome>().winner.is_some();
    world
        .resource_mut::<super::driver::Driver>()
        .autoplay_eladrins = !done;
    done
}

/// Whether the input script running (if any) needs frames now: every step counts frames,
/// except waiting for a file a check writes (`WaitFile`), which the window's slow tick polls.
pub fn needs_frames(world: &World) -> bool {
    world
        .get_resource::<ScriptRun>()
        .is_some_and(|r| match r.script.steps.get(r.at) {
            Some(UiStep::WaitFile(_)) => false,
            Some(_) => true,
            None => false,
        })
}

/// `UiStep::Serve`: answers the asks of a check outside the game; whether it said stop.
fn serve(world: &mut World, name: &str, out: &std::path::Path) -> bool {
    if out.join(format!("{name}.stop")).is_file() {
        return true;
    }
    let (k, since) = world.resource::<ScriptRun>().serve;
    let next = match since {
        None if out.join(format!("{name}.ask.{k}")).is_file() => Some(0),
        None => None,
        Some(n) if n < 20 => Some(n + 1),
        Some(_) => {
            let report = report(world);
            let text = ron::ser::to_string_pretty(&report, Default::default())
                .unwrap_or_else(|e| format!("// {e}"));
            let save = snapshot::save(world, &out.join(format!("{name}.{k}.save.ron")));
            // The report last: a check reads the save once the report is there.
            let wrote = save.and_then(|_| {
                crate::ground::files::write_atomic(&out.join(format!("{name}.{k}.ron")), &text)
                    .map_err(|e| e.to_string())
            });
            if let Err(e) = wrote {
                error!("script: serve failed: {e}");
                world.write_message(AppExit::from_code(3));
            }
            world.resource_mut::<ScriptRun>().serve = (k + 1, None);
            return false;
        }
    };
    world.resource_mut::<ScriptRun>().serve.1 = next;
    false
}

/// The game's window (input messages name it).
fn primary_window(world: &mut World) -> Option<Entity> {
    world
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .iter(world)
        .next()
}

/// One frame of a key press: the modifiers and the key down, then all up a frame later.
fn press_key(world: &mut World, text: &str) -> bool {
    use bevy::input::keyboard::{Key, KeyboardInput};
    let b = match crate::app::keys::Binding::parse(text) {
        Ok(b) => b,
        Err(e) => {
            error!("script: key `{text}`: {e}");
            world.write_message(AppExit::from_code(3));
            return true;
        }
    };
    let Some(window) = primary_window(world) else {
        return false;
    };
    let phase = world.resource::<ScriptRun>().key;
    let mut codes = Vec::new();
    if b.ctrl {
        codes.push(KeyCode::ControlLeft);
    }
    if b.shift {
        codes.push(KeyCode::ShiftLeft);
    }
    if b.alt {
        codes.push(KeyCode::AltLeft);
    }
    codes.push(b.key);
    let state = if phase == 0 {
        ButtonState::Pressed
    } else {
        ButtonState::Released
    };
    for key_code in codes {
        world.write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window,
        });
    }
    world.resource_mut::<ScriptRun>().key = if phase == 0 { 1 } else { 0 };
    phase == 1
}

/// One frame of a click: cursor over the hex, then press, then release.
fn click_hex(world: &mut World, at: At, button: Button) -> bool {
    let button = match button {
        Button::Left => MouseButton::Left,
        Button::Right => MouseButton::Right,
    };
    let phase = world
        .resource::<ScriptRun>()
        .click
        .map(|(_, p)| p)
        .unwrap_or(0);
    let Some(window) = primary_window(world) else {
        return false;
    };
    match phase {
        0 => {
            let pos = {
                let mut q =
                    world.query_filtered::<(&Camera, &GlobalTransform), With<super::MapCamera>>();
                q.iter(world).next().and_then(|(cam, gt)| {
                    let p = layout().hex_to_world_pos(hexx::Hex::new(at.0, at.1));
                    cam.world_to_viewport(gt, p.extend(0.0)).ok()
                })
            };
            let Some(pos) = pos else {
                return false;
            };
            if let Some(mut w) = world.get_mut::<Window>(window) {
                w.set_cursor_position(Some(pos));
            }
            world.resource_mut::<ScriptRun>().click = Some((button, 1));
            false
        }
        1 | 2 => {
            world.write_message(MouseButtonInput {
                button,
                state: if phase == 1 {
                    ButtonState::Pressed
                } else {
                    ButtonState::Released
                },
                window,
            });
            world.resource_mut::<ScriptRun>().click = Some((button, phase + 1));
            false
        }
        _ => {
            world.resource_mut::<ScriptRun>().click = None;
            true
        }
    }
}

/// Whether `seat` has the Eladrins' turn now with a chapter action to take (it is asked).
fn seat_asked(world: &mut World, seat: u8) -> bool {
    world.resource::<Cycle>().turn == Camp::Eladrins
        && crate::rules::chapter::current_seat(world) == seat
        && crate::rules::legal::legal_actions(world, Camp::Eladrins)
            .iter()
            .any(|a| matches!(a, Action::Chapter { .. }))
}
