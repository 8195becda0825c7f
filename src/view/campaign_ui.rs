//! The campaign screen (K1–K4), opened from the main menu's Campaign button. Its pages:
//! - **choose**: a campaign, its difficulty, seed, seats (names; a seat may be the AI's) and
//!   the chapter to start at (a later one cold, K3), with the saved campaign to continue;
//! - **chapters**: done (result and score), next, locked; Continue the chapter from its last
//!   autosave, Restart it, or Replay a done chapter from where it began;
//! - **briefing**: the story, what is new (with links into the help), the muster (which
//!   veterans come, within the chapter's limit), what the chapter is given and what carries on
//!   after it, all written from the same values the rules apply (`text::campaign`);
//! - **result**: after a chapter, what was kept, who fell and where it leads.
//!
//! The campaign is saved (`rules::campaign::save`, atomic, the previous kept) as each chapter
//! begins and as it ends; the game carries it in its saves and autosaves (`CampaignRun`). A
//! chapter's end is recorded once: the same game ended again (an undo, a save loaded) shows the
//! same result, and a game begun from an older point of the campaign than its save is recorded
//! only when asked twice. Every button is a `Click`, which the input scripts press too.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde::{Deserialize, Serialize};

use super::screens::{Overlay, Screen, Screens, ViewSet, playing_free};
use crate::content::campaign::{Campaign, ChapterDef, Goto};
use crate::content::{Content, ContentDb};
use crate::rules::campaign::{self as camp, CampaignRun, CampaignState, ChapterRecord};
use crate::rules::outcome::EndReason;
use crate::rules::{GameSetup, Outcome, snapshot};
use crate::text::Translations;
use crate::text::campaign as words;

/// Longest seat name typed: room is left for ` (AI)` within `rules::campaign::MAX_NAME`.
const SEAT_NAME: usize = camp::MAX_NAME - 5;

/// Where campaign saves go: `campaigns/ID/` in the data folder.
pub fn campaigns_dir() -> PathBuf {
    crate::ground::paths::data_dir().join("campaigns")
}

/// The screen's pages.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// Choose a campaign, its difficulty and seats.
    #[default]
    Choose,
    /// The chapter list.
    Chapters,
    /// Before a chapter.
    Briefing,
    /// After a chapter.
    Result,
}

/// A button of the campaign screen (or of the chapter's end window). Input scripts press them
/// as a player does (`UiStep::Campaign`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Click {
    /// The main menu's Campaign button.
    Open,
    /// Choose this campaign in the list.
    Choose(String),
    /// Set the difficulty, seed and seats (a name ending in `(AI)` is the AI's), as typing
    /// into the choose page does.
    Setup {
        /// Difficulty id.
        difficulty: String,
        /// Seed.
        seed: u64,
        /// The seats' names.
        players: Vec<String>,
    },
    /// Start a new campaign at this chapter instead of the first: it starts cold, from its
    /// fallback (K3: a chapter skipped to).
    StartAt(String),
    /// Start the chosen campaign afresh (asked twice when one is saved).
    New,
    /// Continue the saved campaign: its chapter list.
    Saved,
    /// Play (or restart) the next chapter: its briefing.
    Play,
    /// Continue the next chapter from its last autosave.
    Continue,
    /// Replay a done chapter from where it began (asked twice): the chapters after it are
    /// played again.
    Replay(String),
    /// Bring or leave this veteran.
    Muster(String),
    /// Begin the chapter.
    Begin,
    /// The chapter is over: record it and show what carries on.
    Finish,
    /// Go on where the result leads.
    GoOn,
    /// Back one page (from the first, to the main menu).
    Back,
}

/// A seat on the choose page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The player's name.
    pub name: String,
    /// The AI plays it.
    pub ai: bool,
}

/// A chapter just finished, for the result page.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Its record (kept, fell, score).
    pub record: ChapterRecord,
    /// Why it ended.
    pub reason: Option<EndReason>,
    /// Where it led.
    pub go: Goto,
}

/// The campaign screen's state (never game state: the campaign itself is `state`, saved).
#[derive(Resource, Default)]
pub struct CampaignScreen {
    /// The page shown (on `Screen::Campaign`).
    pub page: Page,
    /// The campaign chosen.
    pub campaign: String,
    /// Difficulty chosen for a new campaign.
    pub difficulty: String,
    /// Seed for a new campaign.
    pub seed: u64,
    /// Seats for a new campaign.
    pub seats: Vec<Seat>,
    /// The chapter a new campaign starts at (none: the first), cold (K3).
    pub start_at: Option<String>,
    /// The campaign saved on disk for the chosen id, read when chosen.
    pub saved: Option<CampaignState>,
    /// The campaign being played between chapters.
    pub state: Option<CampaignState>,
    /// The veterans chosen for the next chapter.
    pub muster: Vec<String>,
    /// The chapter just finished.
    pub finished: Option<Finished>,
    /// The autosave the next chapter can continue from, with its cycle.
    pub resume: Option<(PathBuf, u32)>,
    /// What the last click did, or why not (a damaged save, a failed start).
    pub message: String,
    /// A click waiting for its confirmation (New, Replay, Finish).
    pub confirm: Option<Click>,
    /// The campaign of the chapter game last recorded (its `CampaignRun`): ending it again
    /// shows its result, never records it twice.
    pub recorded: Option<CampaignState>,
    pending: Option<Click>,
}

impl CampaignScreen {
    /// Presses `click` (the main menu's Campaign button), acted on in the next commands.
    pub fn ask(&mut self, click: Click) {
        self.pending = Some(click);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CampaignScreen>()
        .add_systems(Update, run_clicks.in_set(ViewSet::Commands))
        .add_systems(
            EguiPrimaryContextPass,
            (
                draw_screen.run_if(in_state(Screen::Campaign).and_then(in_state(Overlay::None))),
                draw_chapter_end.run_if(playing_free),
            ),
        );
}

/// Whether `click` is offered now (a script waits until it is).
pub fn offered(world: &World, click: &Click) -> bool {
    let s = world.resource::<CampaignScreen>();
    let shown = super::screens::now(world).0 == Screen::Campaign;
    match click {
        Click::Open => !shown,
        Click::Choose(_) | Click::Setup { .. } | Click::StartAt(_) | Click::New => {
            shown && s.page == Page::Choose
        }
        Click::Saved => shown && s.page == Page::Choose && s.saved.is_some(),
        Click::Play | Click::Replay(_) => shown && s.page == Page::Chapters,
        Click::Continue => shown && s.page == Page::Chapters && s.resume.is_some(),
        Click::Muster(_) | Click::Begin => shown && s.page == Page::Briefing,
        Click::Finish => {
            !shown
                && world.resource::<Outcome>().winner.is_some()
                && !world.resource::<CampaignRun>().is_none()
        }
        Click::GoOn => shown && s.page == Page::Result,
        Click::Back => shown,
    }
}

/// Presses `click` if it is offered; whether it was.
pub fn press(world: &mut World, click: Click) -> bool {
    if !offered(world, &click) {
        return false;
    }
    world.resource_mut::<CampaignScreen>().pending = Some(click);
    true
}

fn campaign_of<'a>(db: &'a ContentDb, id: &str) -> Option<&'a Campaign> {
    db.set.campaigns.iter().find(|c| c.id == id)
}

/// The campaign of `state` and its next chapter.
fn current_chapter<'a>(
    db: &'a ContentDb,
    state: &CampaignState,
) -> Option<(&'a Campaign, &'a ChapterDef)> {
    let c = campaign_of(db, &state.campaign)?;
    Some((c, c.chapter(state.current.as_deref()?)?))
}

/// How many seats a campaign is played by, at least and at most.
fn seat_range(c: &Campaign) -> (usize, usize) {
    let max = c.seats.max.clamp(1, 8) as usize;
    ((c.seats.min.clamp(1, 8) as usize).min(max), max)
}

/// A new seat, numbered, in the player's language.
fn new_seat(n: usize, tr: &Translations) -> Seat {
    Seat {
        name: tr.f("Player {}", &[&n]),
        ai: false,
    }
}

/// Saves `state` in its folder; an empty string, else why not, in words.
fn save_campaign(state: &CampaignState, tr: &Translations) -> String {
    match camp::dir_for(&campaigns_dir(), &state.campaign)
        .ok_or_else(|| tr.f("`{}` can't name a folder", &[&state.campaign]))
        .and_then(|dir| camp::save(state, &dir))
    {
        Ok(p) => {
            info!("campaign saved: {}", p.display());
            String::new()
        }
        Err(e) => {
            warn!("campaign not saved: {e}");
            tr.f("The campaign could not be saved: {}", &[&e])
        }
    }
}

/// The players' names from the seats: empty names numbered, AI seats marked `(AI)`.
fn players(seats: &[Seat]) -> Vec<String> {
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = s.name.trim();
            let name = if name.is_empty() {
                format!("Player {}", i + 1)
            } else {
                name.to_string()
            };
            if s.ai && !super::driver::is_ai_seat(&name) {
                format!("{name} (AI)")
            } else {
                name
            }
        })
        .collect()
}

/// Reads the saved campaign `id` into the screen (a damaged save: its previous one, and why).
fn choose(world: &mut World, id: &str) {
    let db = world.resource::<Content>().0.clone();
    let tr = world.resource::<Translations>().clone();
    let mut s = world.resource_mut::<CampaignScreen>();
    if s.campaign != id {
        s.start_at = None;
    }
    s.campaign = id.to_string();
    s.confirm = None;
    s.message.clear();
    if let Some(c) = campaign_of(&db, id) {
        if !c.difficulties.contains(&s.difficulty) {
            s.difficulty = c.difficulties.first().cloned().unwrap_or_default();
        }
        let (min, max) = seat_range(c);
        while s.seats.len() < min {
            let n = s.seats.len() + 1;
            s.seats.push(new_seat(n, &tr));
        }
        s.seats.truncate(max);
    }
    s.saved = None;
    let Some(dir) = camp::dir_for(&campaigns_dir(), id) else {
        return;
    };
    let (saved, problems) = camp::load(&dir, &db);
    for p in problems {
        s.message
            .push_str(&tr.f("A campaign save could not be read: {}", &[&p]));
        s.message.push('\n');
    }
    s.saved = saved;
}

/// The campaign whose save was written last, if any.
fn last_played(db: &ContentDb) -> Option<String> {
    let root = campaigns_dir();
    db.set
        .campaigns
        .iter()
        .filter_map(|c| {
            let dir = camp::dir_for(&root, &c.id)?;
            let t = std::fs::metadata(dir.join(camp::SAVE_FILE))
                .and_then(|m| m.modified())
                .ok()?;
            Some((t, c.id.clone()))
        })
        .max()
        .map(|(_, id)| id)
}

/// The autosave the next chapter of `state` can continue from: the newest autosave of this
/// campaign, at this chapter, not over (another game's autosaves may be newer: autosaves are
/// shared by every game).
fn resume_of(state: &CampaignState) -> Option<(PathBuf, u32)> {
    let dir = super::saves::autosave_dir();
    snapshot::autosaves(&dir)
        .into_iter()
        .rev()
        .find_map(|(cycle, path)| {
            let s = snapshot::read(&path).ok()?;
            let c = s.campaign.0.as_ref()?;
            // The very campaign the chapter began from (a new campaign of the same id, or
            // one rewound since, has other seats, seed or records).
            (c == state && s.outcome.winner.is_none()).then_some((path, cycle))
        })
}

fn show_chapters(world: &mut World, state: CampaignState) {
    let resume = resume_of(&state);
    let mut s = world.resource_mut::<CampaignScreen>();
    s.resume = resume;
    s.state = Some(state);
    s.page = Page::Chapters;
    s.confirm = None;
}

fn show_briefing(world: &mut World) {
    let db = world.resource::<Content>().0.clone();
    let mut s = world.resource_mut::<CampaignScreen>();
    let muster = s
        .state
        .as_ref()
        .and_then(|st| Some(st.default_muster(current_chapter(&db, st)?.1)));
    s.muster = muster.unwrap_or_default();
    s.page = Page::Briefing;
    s.confirm = None;
}

fn run_clicks(world: &mut World) {
    let Some(click) = world.resource_mut::<CampaignScreen>().pending.take() else {
        return;
    };
    let db = world.resource::<Content>().0.clone();
    let tr = world.resource::<Translations>().clone();
    info!("campaign: {click:?}");
    match click {
        Click::Open => open_screen(world, &db, &tr),
        Click::Choose(id) => choose(world, &id),
        Click::Setup {
            difficulty,
            seed,
            players,
        } => {
            let mut s = world.resource_mut::<CampaignScreen>();
            s.difficulty = difficulty;
            s.seed = seed;
            s.seats = players
                .iter()
                .map(|p| Seat {
                    name: p.chars().take(SEAT_NAME).collect(),
                    ai: super::driver::is_ai_seat(p),
                })
                .collect();
        }
        Click::New => new_campaign(world, &db, &tr),
        Click::StartAt(chapter) => {
            world.resource_mut::<CampaignScreen>().start_at = Some(chapter);
        }
        Click::Saved => {
            if let Some(state) = world.resource::<CampaignScreen>().saved.clone() {
                show_chapters(world, state);
            }
        }
        Click::Play => show_briefing(world),
        Click::Continue => continue_chapter(world, &tr),
        Click::Replay(chapter) => replay(world, &db, &tr, chapter),
        Click::Muster(name) => muster(world, &db, name),
        Click::Begin => begin(world, &tr),
        Click::Finish => finish(world, &db, &tr),
        Click::GoOn => go_on(world),
        Click::Back => back(world),
    }
}

/// The main menu's Campaign button: the screen on the campaign played last (else the first), or first the result of a chapter game that ended.
fn open_screen(world: &mut World, db: &ContentDb, tr: &Translations) {
    super::screens::go(world, Screen::Campaign);
    // A chapter game that ended: its result first, so no end goes unrecorded.
    if world.resource::<Outcome>().winner.is_some() && !world.resource::<CampaignRun>().is_none() {
        finish(world, db, tr);
        return;
    }
    let id = {
        let s = world.resource::<CampaignScreen>();
        if campaign_of(db, &s.campaign).is_some() {
            s.campaign.clone()
        } else {
            // The campaign played last, else the first.
            last_played(db)
                .or_else(|| db.set.campaigns.first().map(|c| c.id.clone()))
                .unwrap_or_default()
        }
    };
    {
        let mut s = world.resource_mut::<CampaignScreen>();
        s.page = Page::Choose;
        s.seed = s.seed.max(1);
    }
    choose(world, &id);
}

/// A new campaign of the chosen id, difficulty, seed and seats (asked twice over a saved one): its first briefing.
fn new_campaign(world: &mut World, db: &ContentDb, tr: &Translations) {
    let (id, difficulty, seed, seats, saved, confirmed, start) = {
        let s = world.resource::<CampaignScreen>();
        (
            s.campaign.clone(),
            s.difficulty.clone(),
            s.seed,
            players(&s.seats),
            s.saved.is_some(),
            s.confirm == Some(Click::New),
            s.start_at.clone(),
        )
    };
    if saved && !confirmed {
        world.resource_mut::<CampaignScreen>().confirm = Some(Click::New);
        return;
    }
    let made = campaign_of(db, &id)
        .ok_or_else(|| tr.f("No campaign `{}`", &[&id]))
        .and_then(|c| {
            let (min, max) = seat_range(c);
            if !(min..=max).contains(&seats.len()) {
                return Err(tr.f("This campaign is played by {} to {} seats", &[&min, &max]));
            }
            CampaignState::new(c, db, &difficulty, seed, &seats, start.as_deref())
        });
    match made {
        Ok(state) => {
            world.resource_mut::<CampaignScreen>().state = Some(state);
            show_briefing(world);
        }
        Err(e) => world.resource_mut::<CampaignScreen>().message = e,
    }
}

/// The next chapter, continued from its last autosave.
fn continue_chapter(world: &mut World, tr: &Translations) {
    let Some((path, _)) = world.resource::<CampaignScreen>().resume.clone() else {
        return;
    };
    let message = match snapshot::load(world, &path) {
        Ok(()) => {
            super::screens::go(world, Screen::Playing);
            tr.f("Continued from {}", &[&path.display()])
        }
        Err(e) => tr.f("Nothing loaded: {}", &[&e]),
    };
    info!("{message}");
    world.resource_mut::<CampaignScreen>().message = message;
}

/// Brings or leaves the veteran `name` (only whom the chapter admits, up to its limit).
fn muster(world: &mut World, db: &ContentDb, name: String) {
    // The muster takes only whom the chapter admits (`admit_kinds`), up to `admit`.
    let (admit, admitted) = {
        let s = world.resource::<CampaignScreen>();
        s.state
            .as_ref()
            .and_then(|st| {
                let (_, ch) = current_chapter(db, st)?;
                let ok = st
                    .roster
                    .iter()
                    .any(|v| v.name == name && ch.admits(&v.kind));
                Some((ch.admit as usize, ok))
            })
            .unwrap_or((0, false))
    };
    let mut s = world.resource_mut::<CampaignScreen>();
    if let Some(i) = s.muster.iter().position(|m| *m == name) {
        s.muster.remove(i);
    } else if admitted && s.muster.len() < admit {
        s.muster.push(name);
    }
}

/// Goes on where the result leads: the next briefing, else the chapter list.
fn go_on(world: &mut World) {
    let next = world
        .resource::<CampaignScreen>()
        .state
        .as_ref()
        .is_some_and(|s| s.current.is_some());
    if next {
        show_briefing(world);
    } else if let Some(state) = world.resource::<CampaignScreen>().state.clone() {
        show_chapters(world, state);
    }
}

/// Back one page; from the first, to the main menu.
fn back(world: &mut World) {
    let page = world.resource::<CampaignScreen>().page;
    match page {
        Page::Choose => super::screens::go(world, Screen::Menu),
        Page::Chapters => {
            let id = world.resource::<CampaignScreen>().campaign.clone();
            world.resource_mut::<CampaignScreen>().page = Page::Choose;
            choose(world, &id);
        }
        Page::Briefing | Page::Result => {
            if let Some(state) = world.resource::<CampaignScreen>().state.clone() {
                show_chapters(world, state);
            } else {
                world.resource_mut::<CampaignScreen>().page = Page::Choose;
            }
        }
    }
}

/// Goes back to where `chapter` began (asked twice).
fn replay(world: &mut World, db: &ContentDb, tr: &Translations, chapter: String) {
    let click = Click::Replay(chapter.clone());
    let (id, confirmed) = {
        let s = world.resource::<CampaignScreen>();
        (
            s.state.as_ref().map(|st| st.campaign.clone()),
            s.confirm == Some(click.clone()),
        )
    };
    if !confirmed {
        world.resource_mut::<CampaignScreen>().confirm = Some(click);
        return;
    }
    let Some(dir) = id.and_then(|id| camp::dir_for(&campaigns_dir(), &id)) else {
        return;
    };
    match camp::chapter_start(&dir, &chapter, db) {
        Ok(state) => {
            world.resource_mut::<CampaignScreen>().state = Some(state);
            show_briefing(world);
        }
        Err(e) => {
            world.resource_mut::<CampaignScreen>().message =
                tr.f("This chapter can't be replayed: {}", &[&e]);
        }
    }
}

/// Begins the next chapter with the muster chosen: the game starts with what it is given
/// (`carry_in`, K2/K3), and the campaign, standing at the chapter's start, is saved.
fn begin(world: &mut World, tr: &Translations) {
    // Content that changed in a way the last game couldn't take applies now, before the
    // chapter is read from it.
    crate::app::hot_reload::apply_pending(world);
    let db = world.resource::<Content>().0.clone();
    let (state, muster) = {
        let s = world.resource::<CampaignScreen>();
        (s.state.clone(), s.muster.clone())
    };
    let Some(state) = state else { return };
    let Some((campaign, chapter)) = current_chapter(&db, &state) else {
        return;
    };
    let carry = state.carry_in(chapter, &muster);
    if let Err(e) = crate::rules::setup::start_chapter(
        world,
        &chapter.level,
        Some(&state.difficulty),
        state.seed_for(&chapter.id),
        &state.players,
        &carry,
    ) {
        world.resource_mut::<CampaignScreen>().message = e;
        return;
    }
    let mut message = save_campaign(&state, tr);
    if message.is_empty() {
        message = tr.f(
            "Chapter begun: {}",
            &[&words::chapter_name(campaign, &chapter.id, &db, tr)],
        );
    }
    world.insert_resource(CampaignRun(Some(state.clone())));
    {
        let mut s = world.resource_mut::<CampaignScreen>();
        s.saved = Some(state);
        s.finished = None;
        // A new game: its end is recorded even when it began where a recorded one did (a
        // chapter replayed from its start).
        s.recorded = None;
        s.message = message;
    }
    super::screens::go(world, Screen::Playing);
}

/// Records the chapter that just ended (`CampaignState::finish`), saves the campaign and
/// shows the result. A game whose end was already recorded shows that result again; one whose
/// campaign is damaged is refused; one begun from an older point of the campaign than the save
/// on disk (an old save loaded) is recorded only when asked twice, as it replaces what came
/// after. The undo stack is emptied: the recorded end can't be taken back.
fn finish(world: &mut World, db: &ContentDb, tr: &Translations) {
    let Some(run) = world.resource::<CampaignRun>().0.clone() else {
        return;
    };
    super::screens::go(world, Screen::Campaign);
    if world.resource::<CampaignScreen>().recorded.as_ref() == Some(&run) {
        let mut s = world.resource_mut::<CampaignScreen>();
        s.page = if s.finished.is_some() {
            Page::Result
        } else {
            Page::Chapters
        };
        return;
    }
    let campaign = match run.check(db) {
        Ok(c) => c.clone(),
        Err((field, e)) => {
            let mut s = world.resource_mut::<CampaignScreen>();
            s.page = Page::Choose;
            s.message = tr.f(
                "This game's campaign can't be recorded: in `{}`: {}",
                &[&field, &e],
            );
            return;
        }
    };
    let on_disk =
        camp::dir_for(&campaigns_dir(), &run.campaign).and_then(|dir| camp::load(&dir, db).0);
    let confirmed = world.resource::<CampaignScreen>().confirm == Some(Click::Finish);
    if let Some(disk) = on_disk.filter(|d| *d != run)
        && !confirmed
    {
        let mut s = world.resource_mut::<CampaignScreen>();
        s.confirm = Some(Click::Finish);
        s.message = tr.f(
            "This chapter began from an earlier point of the campaign than its save ({}). \
             Press “See what carries on” again to record it: the later progress is replaced.",
            &[&saved_line(&disk, &campaign, db, tr)],
        );
        super::screens::go(world, Screen::Playing);
        return;
    }
    let mut state = run.clone();
    let carry = world
        .resource::<GameSetup>()
        .carry
        .clone()
        .unwrap_or_default();
    let reason = world.resource::<Outcome>().reason.clone();
    let left = camp::left_by(world);
    let go = state.finish(&campaign, db, &carry, &left);
    let message = save_campaign(&state, tr);
    world
        .resource_mut::<super::undo::UndoStack>()
        .states
        .clear();
    let record = state.done.last().cloned().unwrap_or_default();
    let mut s = world.resource_mut::<CampaignScreen>();
    s.finished = Some(Finished { record, reason, go });
    s.recorded = Some(run);
    s.saved = Some(state.clone());
    s.state = Some(state);
    s.page = Page::Result;
    s.confirm = None;
    s.message = message;
}

/// The window over a finished chapter: won or lost, why, and the way on.
fn draw_chapter_end(
    mut contexts: EguiContexts,
    mut screen: ResMut<CampaignScreen>,
    outcome: Res<Outcome>,
    run: Res<CampaignRun>,
    tr: Res<Translations>,
) -> Result {
    let (Some(w), Some(_)) = (outcome.winner, &run.0) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    super::ending::end_window(ctx, &tr.t("The chapter ends"), "chapter_end").show(ctx, |ui| {
        ui.heading(tr.t(match w {
            crate::content::Camp::Eladrins => "Chapter won",
            crate::content::Camp::Chaos => "Chapter lost",
        }));
        if let Some(r) = &outcome.reason {
            ui.label(r.words(&tr));
        }
        if screen.confirm == Some(Click::Finish) {
            ui.label(egui::RichText::new(&screen.message).color(egui::Color32::LIGHT_RED));
        }
        if ui.button(tr.t("See what carries on")).clicked() {
            screen.pending = Some(Click::Finish);
        }
    });
    Ok(())
}

fn draw_screen(
    mut contexts: EguiContexts,
    mut screen: ResMut<CampaignScreen>,
    content: Res<Content>,
    mut help: ResMut<super::help::Help>,
    mut screens: Screens,
    tr: Res<Translations>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let db = &content.0;
    let mut rule = None;
    let title = tr.t("Campaign");
    egui::Window::new(title.as_ref())
        .id(egui::Id::new("campaign_screen"))
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(-150.0, 0.0))
        .collapsible(false)
        .resizable(false)
        .min_width(560.0)
        .max_width(640.0)
        .show(ctx, |ui| {
            match screen.page {
                Page::Choose => choose_page(ui, &mut screen, db, &tr),
                Page::Chapters => chapters_page(ui, &mut screen, db, &tr),
                Page::Briefing => briefing_page(ui, &mut screen, db, &tr, &mut rule),
                Page::Result => result_page(ui, &mut screen, db, &tr),
            }
            if !screen.message.is_empty() {
                ui.separator();
                ui.label(egui::RichText::new(&screen.message).color(egui::Color32::LIGHT_RED));
            }
        });
    // A rule's button: the help opens in the screen's place, at that rule.
    if let Some(r) = rule {
        help.show_rule(&r);
        screens.open(Overlay::Help);
    }
    Ok(())
}

fn choose_page(ui: &mut egui::Ui, s: &mut CampaignScreen, db: &ContentDb, tr: &Translations) {
    ui.heading(tr.t("Choose a campaign"));
    for c in &db.set.campaigns {
        if ui.radio(s.campaign == c.id, tr.t(&c.name)).clicked() && s.campaign != c.id {
            s.pending = Some(Click::Choose(c.id.clone()));
        }
    }
    let Some(c) = campaign_of(db, &s.campaign) else {
        return only_back(ui, s, tr);
    };
    if !c.description.is_empty() {
        ui.label(egui::RichText::new(tr.t(&c.description)).italics());
    }
    let listed = c.listed(|l| db.levels.contains_key(l));
    ui.label(
        egui::RichText::new(
            listed
                .iter()
                .map(|ch| words::chapter_name(c, &ch.id, db, tr))
                .collect::<Vec<_>>()
                .join(" · "),
        )
        .weak(),
    );
    if let Some(saved) = &s.saved {
        ui.separator();
        ui.label(egui::RichText::new(saved_line(saved, c, db, tr)).strong());
        if ui.button(tr.t("Continue the campaign")).clicked() {
            s.pending = Some(Click::Saved);
        }
    }
    ui.separator();
    ui.label(egui::RichText::new(tr.t("A new campaign")).strong());
    ui.horizontal(|ui| {
        ui.label(tr.t("Difficulty:"));
        for d in &c.difficulties {
            let name = db
                .difficulty(d)
                .map(|x| tr.t(&x.name).into_owned())
                .unwrap_or_else(|| d.clone());
            if ui.selectable_label(s.difficulty == *d, name).clicked() {
                s.difficulty = d.clone();
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label(tr.t("Seed:"));
        ui.add(egui::DragValue::new(&mut s.seed));
    });
    // K3: any chapter may be started cold, from its fallback (a chapter skipped to).
    ui.horizontal_wrapped(|ui| {
        ui.label(tr.t("Start at:"));
        for (i, ch) in listed.iter().enumerate() {
            let on = s.start_at.as_deref().map_or(i == 0, |x| x == ch.id);
            if ui
                .selectable_label(on, words::chapter_name(c, &ch.id, db, tr))
                .on_hover_text(tr.t(
                    "A later chapter starts cold: it brings its own stand-ins and stores instead of veterans.",
                ))
                .clicked()
            {
                s.pending = Some(Click::StartAt(ch.id.clone()));
            }
        }
    });
    ui.label(
        tr.t("Seats (hot-seat players share this machine and take turns; a seat may be the AI's):"),
    );
    let (min, max) = seat_range(c);
    let mut remove = None;
    let n = s.seats.len();
    for (i, seat) in s.seats.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut seat.name)
                    .char_limit(SEAT_NAME)
                    .desired_width(180.0),
            );
            ui.checkbox(&mut seat.ai, tr.t("AI plays"));
            if n > min && ui.small_button(tr.t("Remove")).clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        s.seats.remove(i);
    }
    if s.seats.len() < max && ui.small_button(tr.t("Add a seat")).clicked() {
        let n = s.seats.len() + 1;
        s.seats.push(new_seat(n, tr));
    }
    ui.horizontal(|ui| {
        let label = if s.confirm == Some(Click::New) {
            tr.t("Really start anew (the saved campaign will be replaced)")
        } else {
            tr.t("New campaign")
        };
        if ui.button(label).clicked() {
            s.pending = Some(Click::New);
        }
        if ui.button(tr.t("Back")).clicked() {
            s.pending = Some(Click::Back);
        }
    });
}

/// A saved campaign in a line: where it stands, chapters done, score.
fn saved_line(saved: &CampaignState, c: &Campaign, db: &ContentDb, tr: &Translations) -> String {
    let at = match (&saved.current, saved.ended) {
        (Some(ch), _) => words::chapter_name(c, ch, db, tr),
        (None, Some(true)) => tr.t("won").into_owned(),
        (None, _) => tr.t("lost").into_owned(),
    };
    tr.p(
        "Saved: {} · {} chapter played · score {} · {}|Saved: {} · {} chapters played · score {} · {}",
        saved.done.len() as u64,
        &[
            &at,
            &saved.done.len(),
            &saved.score,
            &saved.players.join(", "),
        ],
    )
}

/// The Back button alone, for a page whose campaign is gone (a mod turned off).
fn only_back(ui: &mut egui::Ui, s: &mut CampaignScreen, tr: &Translations) {
    ui.label(tr.t("No campaign in this game."));
    if ui.button(tr.t("Back")).clicked() {
        s.pending = Some(Click::Back);
    }
}

fn chapters_page(ui: &mut egui::Ui, s: &mut CampaignScreen, db: &ContentDb, tr: &Translations) {
    let Some(state) = s.state.clone() else {
        return only_back(ui, s, tr);
    };
    let Some(c) = campaign_of(db, &state.campaign) else {
        return only_back(ui, s, tr);
    };
    ui.heading(tr.t(&c.name));
    let difficulty = db
        .difficulty(&state.difficulty)
        .map(|d| tr.t(&d.name).into_owned())
        .unwrap_or_default();
    ui.label(tr.f(
        "{} · score {} · {}",
        &[&difficulty, &state.score, &state.players.join(", ")],
    ));
    let mut glory = state.glory_by_seat();
    glory.sort_by_key(|(_, g)| std::cmp::Reverse(*g));
    if !glory.is_empty() {
        let line: Vec<String> = glory.iter().map(|(n, g)| format!("{n} {g}")).collect();
        ui.label(tr.f("Glory over the campaign: {}", &[&line.join(" · ")]));
    }
    match state.ended {
        Some(true) => {
            ui.label(egui::RichText::new(tr.t("The campaign is won")).strong());
        }
        Some(false) => {
            ui.label(egui::RichText::new(tr.t("The campaign is lost")).strong());
        }
        None => {}
    }
    ui.separator();
    egui::Grid::new("chapters")
        .num_columns(3)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (i, ch) in c.listed(|l| db.levels.contains_key(l)).iter().enumerate() {
                ui.label(format!(
                    "{}. {}",
                    i + 1,
                    words::chapter_name(c, &ch.id, db, tr)
                ));
                let records: Vec<&ChapterRecord> =
                    state.done.iter().filter(|r| r.chapter == ch.id).collect();
                let current = state.current.as_deref() == Some(ch.id.as_str());
                ui.label(status(&records, current, tr));
                ui.horizontal(|ui| {
                    if current {
                        if let Some((_, cycle)) = &s.resume {
                            if ui.button(tr.f("Continue (cycle {})", &[cycle])).clicked() {
                                s.pending = Some(Click::Continue);
                            }
                            if ui.button(tr.t("Restart chapter")).clicked() {
                                s.pending = Some(Click::Play);
                            }
                        } else if ui.button(tr.t("Play")).clicked() {
                            s.pending = Some(Click::Play);
                        }
                    } else if !records.is_empty() {
                        let click = Click::Replay(ch.id.clone());
                        let label = if s.confirm.as_ref() == Some(&click) {
                            tr.t("Really go back there (the chapters after it are played again)")
                        } else {
                            tr.t("Replay from here")
                        };
                        if ui.button(label).clicked() {
                            s.pending = Some(click);
                        }
                    }
                });
                ui.end_row();
            }
        });
    ui.separator();
    if ui.button(tr.t("Back")).clicked() {
        s.pending = Some(Click::Back);
    }
}

/// A chapter's line in the list: its best won attempt, its losses, next or locked.
fn status(records: &[&ChapterRecord], current: bool, tr: &Translations) -> String {
    let lost = records.iter().filter(|r| !r.won).count();
    let best = records.iter().filter(|r| r.won).max_by_key(|r| r.score);
    let mut parts = Vec::new();
    if let Some(b) = best {
        parts.push(tr.f("won in {} cycles, score {}", &[&b.cycles, &b.score]));
    }
    if lost > 0 {
        parts.push(tr.p("lost {} time|lost {} times", lost as u64, &[&lost]));
    }
    if current {
        parts.push(tr.t("next").into_owned());
    }
    if parts.is_empty() {
        parts.push(tr.t("locked").into_owned());
    }
    parts.join(" · ")
}

fn briefing_page(
    ui: &mut egui::Ui,
    s: &mut CampaignScreen,
    db: &ContentDb,
    tr: &Translations,
    rule: &mut Option<String>,
) {
    let Some(state) = s.state.clone() else {
        return only_back(ui, s, tr);
    };
    let Some((c, ch)) = current_chapter(db, &state) else {
        return only_back(ui, s, tr);
    };
    let listed = c.listed(|l| db.levels.contains_key(l));
    let n = listed.iter().position(|x| x.id == ch.id).unwrap_or(0) + 1;
    ui.heading(words::chapter_name(c, &ch.id, db, tr));
    ui.label(
        egui::RichText::new(tr.f(
            "Chapter {} of {} · {}",
            &[
                &n,
                &listed.len(),
                &tr.t(db.levels.get(&ch.level).map_or("", |l| &l.name)),
            ],
        ))
        .weak(),
    );
    egui::ScrollArea::vertical()
        .max_height(420.0)
        .show(ui, |ui| {
            if !ch.briefing.is_empty() {
                ui.label(egui::RichText::new(tr.t(&ch.briefing)).italics());
            }
            if !ch.rules.is_empty() {
                ui.add_space(6.0);
                ui.label(egui::RichText::new(tr.t("In this chapter")).strong());
                for r in &ch.rules {
                    ui.label(format!("• {}", tr.t(r)));
                }
            }
            if !ch.help.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(tr.t("Read the rules:"));
                    for r in &ch.help {
                        if ui
                            .small_button(format!("📖 {r}"))
                            .on_hover_text(tr.t("Open the rules here"))
                            .clicked()
                        {
                            *rule = Some(r.clone());
                        }
                    }
                });
            }
            ui.add_space(6.0);
            ui.label(egui::RichText::new(tr.t("The muster")).strong());
            if state.cold() {
                ui.label(tr.t(
                    "Played cold (no chapter before it): it gives its own stand-ins and stores.",
                ));
            } else if state.roster.is_empty() {
                ui.label(tr.t("No veterans on the roster."));
            } else if ch.admit == 0 {
                ui.label(tr.t("This chapter admits no veterans: they wait for the next."));
            } else {
                ui.label(tr.p(
                    "Choose up to {} veteran to bring:|Choose up to {} veterans to bring:",
                    ch.admit as u64,
                    &[&ch.admit],
                ));
                if let Some(line) = words::admitted(ch, db, tr) {
                    ui.label(line);
                }
                for v in &state.roster {
                    let mut on = s.muster.contains(&v.name);
                    let full = s.muster.len() >= ch.admit as usize;
                    let admitted = ch.admits(&v.kind);
                    let resp = ui
                        .add_enabled(
                            admitted && (on || !full),
                            egui::Checkbox::new(&mut on, words::veteran(v, db, tr)),
                        )
                        .on_disabled_hover_text(if admitted {
                            tr.t("The muster is full: untick someone first.")
                        } else {
                            tr.t("This chapter does not admit this unit: it waits on the roster.")
                        });
                    if resp.clicked() {
                        s.pending = Some(Click::Muster(v.name.clone()));
                    }
                }
            }
            let carry = state.carry_in(ch, &s.muster);
            for line in words::given(&carry, db, tr) {
                // Inside the scroll area a label would not wrap by itself.
                ui.add(egui::Label::new(format!("• {line}")).wrap());
            }
            ui.add_space(6.0);
            ui.label(egui::RichText::new(tr.t("What carries on after a victory")).strong());
            for line in words::promise(&c.carry, tr) {
                ui.label(format!("• {line}"));
            }
        });
    ui.separator();
    ui.horizontal(|ui| {
        if ui.button(tr.t("Begin the chapter")).clicked() {
            s.pending = Some(Click::Begin);
        }
        if ui.button(tr.t("Back")).clicked() {
            s.pending = Some(Click::Back);
        }
    });
}

fn result_page(ui: &mut egui::Ui, s: &mut CampaignScreen, db: &ContentDb, tr: &Translations) {
    let (Some(f), Some(state)) = (s.finished.clone(), s.state.clone()) else {
        return only_back(ui, s, tr);
    };
    let Some(c) = campaign_of(db, &state.campaign) else {
        return only_back(ui, s, tr);
    };
    let name = words::chapter_name(c, &f.record.chapter, db, tr);
    ui.heading(if f.record.won {
        tr.f("Chapter won: {}", &[&name])
    } else {
        tr.f("Chapter lost: {}", &[&name])
    });
    if let Some(r) = &f.reason {
        ui.label(r.words(tr));
    }
    ui.label(tr.f(
        "{} cycles · score {} · campaign score {}",
        &[&f.record.cycles, &f.record.score, &state.score],
    ));
    ui.separator();
    if !f.record.kept.is_empty() {
        ui.label(tr.f("Carried on: {}", &[&f.record.kept.join(", ")]));
    }
    if !f.record.fell.is_empty() {
        ui.label(tr.f("Fell: {}", &[&f.record.fell.join(", ")]));
    }
    // Each seat's own score in co-op: this chapter's glory, then the campaign's.
    if !f.record.glory.is_empty() {
        let mut here = f.record.glory.clone();
        here.sort_by_key(|(_, g)| std::cmp::Reverse(*g));
        super::ending::glory_lines(ui, tr, &here);
        let mut all = state.glory_by_seat();
        all.sort_by_key(|(_, g)| std::cmp::Reverse(*g));
        if !all.is_empty() {
            let line: Vec<String> = all.iter().map(|(n, g)| format!("{n} {g}")).collect();
            ui.label(tr.f("Glory over the campaign: {}", &[&line.join(" · ")]));
        }
    }
    if matches!(f.go, Goto::Chapter(_) | Goto::Victory) {
        ui.label(egui::RichText::new(tr.t("The roster")).strong());
        if state.roster.is_empty() {
            ui.label(tr.t("No veterans on the roster."));
        }
        for v in &state.roster {
            ui.label(format!("• {}", words::veteran(v, db, tr)));
        }
        if !state.research.is_empty() {
            let r: Vec<String> = state
                .research
                .iter()
                .map(|t| tr.t(db.name_of(t).unwrap_or(t)).into_owned())
                .collect();
            ui.label(tr.f("Researched: {}", &[&r.join(", ")]));
        }
        if !state.stock.is_empty() {
            ui.label(tr.f("Stores kept: {}", &[&tr.stock(&state.stock)]));
        }
    }
    ui.separator();
    ui.label(egui::RichText::new(words::goto(&f.go, c, db, tr)).strong());
    ui.horizontal(|ui| {
        let label = if state.current.is_some() {
            tr.t("Go on")
        } else {
            tr.t("The chapter list")
        };
        if ui.button(label).clicked() {
            s.pending = Some(Click::GoOn);
        }
    });
}
