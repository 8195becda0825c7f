//! The level intro and the contextual hints. When a game starts (no action yet), the level's
//! intro text opens in a window. Then a short hint shows the first time its moment comes: a
//! step of the cycle (or one the game just went through on its own), an army or outpost
//! selected, an activation, a refusal, a forecast warning, the Chaos turn, a battle. The core's
//! hints (`assets/help/hints.ron`) show on a level that teaches (`hints: true`); a chapter's
//! (`add_chapter_hints`, `assets/help/chapters/<id>.hints.ron`) on any level that plays it, and
//! before the core's, since on a chapter's level the chapter is what the player has not met.
//! Each is shown once (remembered in the settings); the settings turn them off.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde::Deserialize;

use super::ViewState;
use super::cache::GameDigest;
use super::screens::{Overlay, Screen, Screens, ViewSet, playing_free};
use crate::app::settings::Settings;
use crate::content::{Camp, Content, Problem, SourceFile, parse_ron};
use crate::rules::{
    ActionLog, Army, Cycle, CycleOrder, GameEvent, GameSetup, InPlay, Outcome, Outpost,
};
use crate::text::Translations;

/// The hints file, embedded.
pub const HINTS: &str = include_str!("../../assets/help/hints.ron");

/// When a hint shows.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum When {
    /// The game is in this step (`R2`…`R9`, or a chapter's), waiting for someone; in the main
    /// phase, for the Eladrins.
    Step(String),
    /// The game went through this step since it last waited for the Eladrins (`StepsRun`): for
    /// a step it never waits in for the player (an automatic step, a decision of Chaos), whose
    /// hint can only be read once it is over.
    Ran(String),
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
    /// Unique id among every hints file (remembered once seen); a chapter's start with its id.
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

/// The chapters' hints files in this app: (chapter, RON text), as each chapter's window half
/// added them (`add_chapter_hints`). The window reads them when it starts.
#[derive(Resource, Default, Clone, Debug)]
pub struct ChapterHints(Vec<(&'static str, &'static str)>);

impl ChapterHints {
    /// Adds a chapter's file (adding again replaces it).
    pub fn add(&mut self, chapter: &'static str, ron: &'static str) {
        self.0.retain(|(c, _)| *c != chapter);
        self.0.push((chapter, ron));
    }
    /// The files, in the order the chapters added them.
    pub fn files(&self) -> &[(&'static str, &'static str)] {
        &self.0
    }
}

/// Adds a chapter's hints to the window (`ChapterViewExt::add_chapter_hints`).
pub(super) fn add(app: &mut App, chapter: &'static str, ron: &'static str) {
    app.world_mut()
        .get_resource_or_init::<ChapterHints>()
        .add(chapter, ron);
}

/// Where a chapter's hints file lies, as its problems name it.
pub fn chapter_hints_path(chapter: &str) -> String {
    format!("assets/help/chapters/{chapter}.hints.ron")
}

/// A chapter's hints, read from the text of its file.
pub fn read_chapter_hints(chapter: &str, ron: &str) -> Result<Vec<Hint>, Problem> {
    parse_ron(&SourceFile {
        path: chapter_hints_path(chapter),
        text: ron.into(),
    })
}

/// Every hint the window knows: the core's and each chapter's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HintBook {
    /// The core's (`assets/help/hints.ron`), for the levels that teach.
    pub core: Vec<Hint>,
    /// Each chapter's, by chapter id, for the levels that play it.
    pub chapters: Vec<(String, Vec<Hint>)>,
}

impl HintBook {
    /// The core's hints and those of the chapters' files. A file that does not read is said in
    /// the log and gives no hints: the game plays on without them.
    pub fn read(files: &ChapterHints) -> HintBook {
        let chapters = files
            .0
            .iter()
            .map(|(chapter, ron)| {
                let hints = read_chapter_hints(chapter, ron).unwrap_or_else(|problem| {
                    error!("{problem}: the chapter `{chapter}` shows no hints");
                    Vec::new()
                });
                (chapter.to_string(), hints)
            })
            .collect();
        HintBook {
            core: hints(),
            chapters,
        }
    }

    /// The hints a game offers, in the order they come: those of the chapters it plays (in the
    /// level's order), then the core's, only where the level teaches. A chapter's level that is
    /// not the first one is played by someone who knows the core: what is new is the chapter.
    pub fn offered<'a>(
        &'a self,
        teaches: bool,
        in_play: &'a InPlay,
    ) -> impl Iterator<Item = &'a Hint> + 'a {
        let chapters = in_play
            .0
            .iter()
            .filter_map(move |c| self.chapters.iter().find(|(id, _)| id == c))
            .flat_map(|(_, hs)| hs.iter());
        let core = self.core.iter().filter(move |_| teaches);
        chapters.chain(core)
    }

    /// The hint due: the first one offered, not seen yet, whose moment `now` says has come.
    /// This is the one rule that picks a hint.
    pub fn due<'a>(
        &'a self,
        teaches: bool,
        in_play: &'a InPlay,
        seen: &[String],
        now: impl Fn(&When) -> bool,
    ) -> Option<&'a Hint> {
        self.offered(teaches, in_play)
            .find(|h| !seen.contains(&h.id) && now(&h.when))
    }
}

/// The steps the game went through since it last waited for the Eladrins, as `Ran` reads them.
/// The game never stops in an automatic step (a chapter's rewards, its raid), and a decision of
/// Chaos (the Guide's turn) is over in a moment: such a step is read about while the game waits
/// after it, until the next steps begin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepsRun {
    steps: Vec<String>,
    /// The game waited for the Eladrins since the last step began: the next one starts afresh.
    waited: bool,
}

/// Most steps `StepsRun` keeps: a cycle is a handful, so only a level that never waits for the
/// Eladrins comes near it.
const STEPS_RUN_MAX: usize = 64;

impl StepsRun {
    /// A step began (`GameEvent::StepStarted`).
    pub fn started(&mut self, step: &str) {
        if self.waited {
            self.steps.clear();
            self.waited = false;
        }
        if self.steps.len() >= STEPS_RUN_MAX {
            self.steps.remove(0);
        }
        self.steps.push(step.to_string());
    }

    /// The game stands where `cycle` says in `order`: whether it waits there for the Eladrins
    /// (one of their turns or decisions, `CycleOrder::waits_for`).
    pub fn observe(&mut self, order: &CycleOrder, cycle: &Cycle) {
        if order.waits_for(cycle) == Some(Camp::Eladrins) && cycle.entered {
            self.waited = true;
        }
    }

    /// The step is among them.
    pub fn has(&self, step: &str) -> bool {
        self.steps.iter().any(|s| s == step)
    }
}

/// Where the cycle stands, as the step moments (`Step`, `Ran`) read it.
#[derive(Debug, Clone, Copy)]
pub struct AtStep<'a> {
    step: &'static str,
    chaos_turn: bool,
    run: &'a StepsRun,
}

impl<'a> AtStep<'a> {
    /// The game at `cycle` in `order`, having gone through `run`.
    pub fn new(order: &CycleOrder, cycle: &Cycle, run: &'a StepsRun) -> AtStep<'a> {
        AtStep {
            step: order.0.get(cycle.step).map(|s| s.id).unwrap_or(""),
            // The main phase is known by its kind (turns), not by its id.
            chaos_turn: order.in_turns(cycle.step) && cycle.turn == Camp::Chaos,
            run,
        }
    }

    /// Whether a step moment has come; `None` for the other moments, which the window tells
    /// (its selection, its shows).
    pub fn now(&self, when: &When) -> Option<bool> {
        match when {
            When::Step(s) => Some(self.step == s.as_str() && !self.chaos_turn),
            When::Ran(s) => Some(self.run.has(s)),
            _ => None,
        }
    }
}

/// What the window shows: the intro of the game that just began, the hint now up.
#[derive(Resource, Default)]
pub struct Guide {
    book: HintBook,
    /// The steps the game in play went through lately.
    run: StepsRun,
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
    app.init_resource::<Guide>()
        .init_resource::<ChapterHints>()
        // The chapters add their files while the app is built: read them once it is.
        .add_systems(Startup, read_the_hints)
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

/// The core's hints and the chapters', into the guide.
fn read_the_hints(files: Res<ChapterHints>, mut guide: ResMut<Guide>) {
    guide.book = HintBook::read(&files);
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
    in_play: Res<'w, InPlay>,
    cycle: Res<'w, Cycle>,
    order: Res<'w, CycleOrder>,
    outcome: Res<'w, Outcome>,
    view: Res<'w, ViewState>,
    digest: Res<'w, GameDigest>,
    battles: Res<'w, super::battle::Battles>,
    armies: Query<'w, 's, &'static Army>,
    outposts: Query<'w, 's, &'static Outpost>,
}

/// The first unseen hint offered whose moment has come (`HintBook::due`), if hints are on.
fn pick_a_hint(
    mut guide: ResMut<Guide>,
    mut settings: ResMut<Settings>,
    mut events: MessageReader<GameEvent>,
    moment: Moment,
) {
    let Moment {
        setup,
        content,
        in_play,
        cycle,
        order,
        outcome,
        view,
        digest,
        battles,
        armies,
        outposts,
    } = moment;
    let g = &mut *guide;
    // The steps gone through are followed even while no hint may show: hints turned on again
    // mid-game know where the game has been. A new game (a load, the next chapter) starts
    // with none.
    if setup.is_changed() {
        g.run = StepsRun::default();
    }
    for e in events.read() {
        if let GameEvent::StepStarted { step, .. } = e {
            g.run.started(step);
        }
    }
    g.run.observe(&order, &cycle);
    if g.intro_for.is_some() {
        return;
    }
    if !settings.hints {
        g.showing = None;
        return;
    }
    if outcome.winner.is_some() {
        return;
    }
    let teaches = content.0.levels.get(&setup.level).is_some_and(|l| l.hints);
    let at = AtStep::new(&order, &cycle, &g.run);
    let turns = order.in_turns(cycle.step);
    let sel = view.selected;
    let now = |w: &When| {
        at.now(w).unwrap_or_else(|| match w {
            When::ArmySelected => armies
                .iter()
                .any(|a| Some(a.hex) == sel && a.camp == Camp::Eladrins),
            When::OutpostSelected => outposts.iter().any(|o| Some(o.hex) == sel),
            When::ActivationOpen => cycle.activation.is_some() && cycle.turn == Camp::Eladrins,
            When::Refused => view.last_refusal.is_some(),
            When::Warning => !digest.forecast.is_empty(),
            When::ChaosTurn => turns && cycle.turn == Camp::Chaos,
            When::Battle => battles.showing(),
            When::Step(_) | When::Ran(_) => false,
        })
    };
    if let Some(h) = &g.showing {
        let offered = g.book.offered(teaches, &in_play).any(|o| o.id == h.id);
        if offered && now(&h.when) {
            return;
        }
        // A hint whose moment has passed closes, counted as read: a step's hint must not
        // linger into the next step. One this game does not offer (another level's) just
        // closes.
        let id = h.id.clone();
        g.showing = None;
        if offered && !settings.hints_seen.contains(&id) {
            settings.hints_seen.push(id);
        }
    }
    g.showing = g
        .book
        .due(teaches, &in_play, &settings.hints_seen, now)
        .cloned();
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
    use crate::rules::StepKind;

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

    /// A cycle like Wyvern Wardens': a round, two automatic steps, a decision of Chaos, then
    /// the main phase.
    fn order() -> CycleOrder {
        let step = |id, kind| crate::rules::StepDef {
            id,
            title: "",
            kind,
        };
        fn never(_: &mut World) -> bool {
            false
        }
        CycleOrder(vec![
            step(
                "MACTION",
                StepKind::Round {
                    among: crate::content::Among::SeatsThenChaos,
                    ends: None,
                },
            ),
            step("MREWARD", StepKind::Automatic),
            step("MRAID", StepKind::Automatic),
            step(
                "DGUIDE",
                StepKind::Decision {
                    by: crate::content::Who::Chaos,
                    open: never,
                },
            ),
            step("R9", StepKind::Turns),
        ])
    }

    fn at(step: usize, turn: Camp) -> Cycle {
        Cycle {
            step,
            turn,
            entered: true,
            ..Default::default()
        }
    }

    #[test]
    fn a_step_gone_through_stays_run_until_the_steps_after_the_eladrins_next_wait() {
        let order = order();
        let mut run = StepsRun::default();
        let ran = |run: &StepsRun, c: &Cycle, s: &str| {
            AtStep::new(&order, c, run).now(&When::Ran(s.into())) == Some(true)
        };
        // A seat's turn in the round.
        run.started("MACTION");
        run.observe(&order, &at(0, Camp::Eladrins));
        assert!(ran(&run, &at(0, Camp::Eladrins), "MACTION"));
        assert!(!ran(&run, &at(0, Camp::Eladrins), "MREWARD"));
        // The round over, the automatic steps run and Chaos decides: nobody waited for the
        // Eladrins since, so all of them count, then the main phase too.
        for s in ["MREWARD", "MRAID", "DGUIDE"] {
            run.started(s);
        }
        run.observe(&order, &at(3, Camp::Chaos));
        run.started("R9");
        run.observe(&order, &at(4, Camp::Eladrins));
        for s in ["MREWARD", "MRAID", "DGUIDE", "R9"] {
            assert!(ran(&run, &at(4, Camp::Eladrins), s), "{s}");
        }
        assert!(!ran(&run, &at(4, Camp::Eladrins), "MACTION"));
        // Chaos' turns in the main phase change nothing; the next cycle's steps start afresh.
        run.observe(&order, &at(4, Camp::Chaos));
        assert!(ran(&run, &at(4, Camp::Chaos), "MRAID"));
        run.started("MACTION");
        assert!(!run.has("MRAID") && run.has("MACTION"));
    }

    #[test]
    fn a_step_hint_waits_for_the_eladrins_turn_of_the_main_phase() {
        let order = order();
        let run = StepsRun::default();
        let r9 = When::Step("R9".into());
        assert_eq!(
            AtStep::new(&order, &at(4, Camp::Eladrins), &run).now(&r9),
            Some(true)
        );
        assert_eq!(
            AtStep::new(&order, &at(4, Camp::Chaos), &run).now(&r9),
            Some(false)
        );
        // The poachers' turn in a round is still the round's.
        let round = When::Step("MACTION".into());
        assert_eq!(
            AtStep::new(&order, &at(0, Camp::Chaos), &run).now(&round),
            Some(true)
        );
        assert_eq!(
            AtStep::new(&order, &at(0, Camp::Chaos), &run).now(&When::Battle),
            None
        );
    }
}
