//! The level intro and the first level's contextual hints. When a game starts (no action yet),
//! the level's intro text opens in a window. On a level that teaches (`hints: true`), a short
//! hint (`assets/help/hints.ron`) shows the first time its moment comes: a step of the cycle,
//! an army or outpost selected, an activation, a refusal, a forecast warning, the Chaos turn, a
//! battle. Each is shown once (remembered in the settings); the settings turn them off.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde::Deserialize;

use super::ViewState;
use super::cache::GameDigest;
use super::screens::{Overlay, Screen, Screens, ViewSet, playing_free};
use crate::app::settings::Settings;
use crate::content::{Camp, Content, SourceFile, parse_ron};
use crate::rules::{ActionLog, Army, Cycle, CycleOrder, GameSetup, Outcome, Outpost};
use crate::text::Translations;

/// The hints file, embedded.
pub const HINTS: &str = include_str!("../../assets/help/hints.ron");

/// When a hint shows.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum When {
    /// The game is in this step (`R2`…`R9`).
    Step(String),
    /// An Eladrin army stands on the selected tile.
    ArmySelected,
    /// An outpost stands on the selected tile.
    OutpostSelected,
    /// An Eladrin army is activated.
    ActivationOpen,
    /// The rules refused an order.
    Refused,
    /// The forecast warns of something.
    Warning,
    /// Chaos plays its main-phase turn.
    ChaosTurn,
    /// A battle is shown.
    Battle,
}

/// One hint.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hint {
    /// Unique id (remembered once seen).
    pub id: String,
    /// Its moment.
    pub when: When,
    /// The text (English; the translation tables carry it).
    pub text: String,
}

/// The hints, read from the embedded file (checked by the tests).
pub fn hints() -> Vec<Hint> {
    parse_ron(&SourceFile {
        path: "assets/help/hints.ron".into(),
        text: HINTS.into(),
    })
    .unwrap_or_default()
}

/// What the window shows: the intro of the game that just began, the hint now up.
#[derive(Resource, Default)]
pub struct Guide {
    hints: Vec<Hint>,
    /// The intro is open for this game (level, seed).
    intro_for: Option<(String, u64)>,
    /// The intro was closed for this game.
    intro_done: Option<(String, u64)>,
    /// The hint on screen.
    pub showing: Option<Hint>,
}

impl Guide {
    /// Closes the intro if it is open (the Begin button); false while none is.
    pub fn begin(&mut self) -> bool {
        match self.intro_for.take() {
            Some(g) => {
                self.intro_done = Some(g);
                true
            }
            None => false,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(Guide {
        hints: hints(),
        ..Default::default()
    })
    .add_systems(
        Update,
        (open_the_intro, pick_a_hint).in_set(ViewSet::Commands),
    )
    .add_systems(
        EguiPrimaryContextPass,
        (
            draw_intro.run_if(in_state(Overlay::Intro)),
            draw_hint.run_if(playing_free),
        ),
    );
}

/// A game with no action yet just began: its intro is owed (once per level and seed; a level
/// without one owes none). An owed intro opens over the game when nothing else is over it,
/// and closes once read.
fn open_the_intro(
    setup: Res<GameSetup>,
    log: Res<ActionLog>,
    content: Res<Content>,
    mut guide: ResMut<Guide>,
    mut screens: Screens,
) {
    let game = (setup.level.clone(), setup.seed);
    if log.0.is_empty()
        && guide.intro_done.as_ref() != Some(&game)
        && guide.intro_for.as_ref() != Some(&game)
    {
        let has_one = content
            .0
            .levels
            .get(&game.0)
            .is_some_and(|l| !l.intro.trim().is_empty());
        if has_one {
            guide.intro_for = Some(game);
        } else {
            guide.intro_done = Some(game);
            guide.intro_for = None;
        }
    }
    // An intro owed for an earlier game (another was started or loaded) is not.
    if guide
        .intro_for
        .as_ref()
        .is_some_and(|(level, _)| *level != setup.level)
    {
        guide.intro_done = guide.intro_for.take();
    }
    match (guide.intro_for.is_some(), screens.overlay()) {
        (true, Overlay::None) if screens.screen() == Screen::Playing => {
            screens.open(Overlay::Intro);
        }
        (false, Overlay::Intro) => screens.close(Overlay::Intro),
        _ => {}
    }
}

/// What tells a hint's moment: the game, the selection and what the view shows.
#[derive(SystemParam)]
struct Moment<'w, 's> {
    setup: Res<'w, GameSetup>,
    content: Res<'w, Content>,
    cycle: Res<'w, Cycle>,
    order: Res<'w, CycleOrder>,
    outcome: Res<'w, Outcome>,
    view: Res<'w, ViewState>,
    digest: Res<'w, GameDigest>,
    battles: Res<'w, super::battle::Battles>,
    armies: Query<'w, 's, &'static Army>,
    outposts: Query<'w, 's, &'static Outpost>,
}

/// The first unseen hint whose moment has come, if the level teaches and hints are on.
fn pick_a_hint(mut guide: ResMut<Guide>, mut settings: ResMut<Settings>, moment: Moment) {
    let Moment {
        setup,
        content,
        cycle,
        order,
        outcome,
        view,
        digest,
        battles,
        armies,
        outposts,
    } = moment;
    if guide.intro_for.is_some() {
        return;
    }
    if !settings.hints {
        guide.showing = None;
        return;
    }
    let teaches = content.0.levels.get(&setup.level).is_some_and(|l| l.hints);
    if !teaches || outcome.winner.is_some() {
        return;
    }
    let step = order.0.get(cycle.step).map(|s| s.id).unwrap_or("");
    // The main phase is known by its kind (turns), not by its id.
    let turns = order.in_turns(cycle.step);
    let sel = view.selected;
    let now = |w: &When| match w {
        When::Step(s) => step == s && !(turns && cycle.turn == Camp::Chaos),
        When::ArmySelected => armies
            .iter()
            .any(|a| Some(a.hex) == sel && a.camp == Camp::Eladrins),
        When::OutpostSelected => outposts.iter().any(|o| Some(o.hex) == sel),
        When::ActivationOpen => cycle.activation.is_some() && cycle.turn == Camp::Eladrins,
        When::Refused => view.last_refusal.is_some(),
        When::Warning => !digest.forecast.is_empty(),
        When::ChaosTurn => turns && cycle.turn == Camp::Chaos,
        When::Battle => battles.showing(),
    };
    // A hint whose moment has passed closes, counted as read: a step's hint must not linger
    // into the next step.
    if let Some(h) = &guide.showing {
        if now(&h.when) {
            return;
        }
        let id = h.id.clone();
        guide.showing = None;
        if !settings.hints_seen.contains(&id) {
            settings.hints_seen.push(id);
        }
    }
    let next = guide
        .hints
        .iter()
        .find(|h| !settings.hints_seen.contains(&h.id) && now(&h.when))
        .cloned();
    guide.showing = next;
}

/// The level's intro, with its Begin button.
fn draw_intro(
    mut contexts: EguiContexts,
    mut guide: ResMut<Guide>,
    content: Res<Content>,
    tr: Res<Translations>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(game) = guide.intro_for.clone() {
        let level = content.0.levels.get(&game.0);
        let intro = level.map(|l| l.intro.as_str()).unwrap_or("");
        let mut close = false;
        egui::Window::new(tr.t(level.map(|l| l.name.as_str()).unwrap_or("")))
            .id(egui::Id::new("intro"))
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(-160.0, 0.0))
            .collapsible(false)
            .resizable(false)
            .default_width(520.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(420.0)
                    .show(ui, |ui| {
                        for para in tr.t(intro).split("\n\n") {
                            ui.label(para);
                            ui.add_space(6.0);
                        }
                    });
                if ui.button(tr.t("Begin")).clicked() {
                    close = true;
                }
            });
        if close {
            guide.begin();
        }
    }
    Ok(())
}

/// The hint now up, with Got it and No more hints.
fn draw_hint(
    mut contexts: EguiContexts,
    mut guide: ResMut<Guide>,
    mut settings: ResMut<Settings>,
    tr: Res<Translations>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(h) = guide.showing.clone() else {
        return Ok(());
    };
    let mut done = false;
    egui::Window::new(format!("💡 {}", tr.t("Hint")))
        .id(egui::Id::new("hint"))
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(12.0, -160.0))
        .collapsible(false)
        .resizable(false)
        .default_width(340.0)
        .show(ctx, |ui| {
            ui.label(tr.t(&h.text));
            ui.horizontal(|ui| {
                if ui.button(tr.t("Got it")).clicked() {
                    done = true;
                }
                if ui.button(tr.t("No more hints")).clicked() {
                    settings.hints = false;
                    done = true;
                }
            });
        });
    if done {
        if !settings.hints_seen.contains(&h.id) {
            settings.hints_seen.push(h.id.clone());
        }
        guide.showing = None;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hints_file_reads_with_unique_ids() {
        let hs: Vec<Hint> = parse_ron(&SourceFile {
            path: "assets/help/hints.ron".into(),
            text: HINTS.into(),
        })
        .unwrap_or_else(|p| panic!("{p}"));
        assert!(hs.len() >= 10, "{}", hs.len());
        let mut ids: Vec<&str> = hs.iter().map(|h| h.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), hs.len(), "repeated hint ids");
        // Every step of R2–R9 that a player meets has its hint.
        for s in ["R2", "R3", "R5", "R6", "R7", "R8", "R9"] {
            assert!(
                hs.iter().any(|h| h.when == When::Step(s.into())),
                "no hint for {s}"
            );
        }
    }
}
