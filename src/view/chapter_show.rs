//! A chapter's events played one place at a time over the map (`add_chapter_show`): a
//! step that resolves many things at once (Wyvern Wardens' rewards, M13) is shown as it would
//! be at the table, place by place. The chapter turns each event it told into a `Beat` (where,
//! under which title, one line); beats on the same place in a row make one card (under the
//! first one's title), its lines coming one at a time as the table would resolve them (a
//! battle's cards turned up, then the winner, the fallen, the reward), with its place ringed
//! in gold on the map, then the next card. The show only reads the chronicle: the game goes on
//! under it; "Next" brings the next line at once, and "Skip" ends it.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use hexx::Hex;

use super::map_cache;
use crate::rules::chapter::{ChapterValue, InPlay};
use crate::rules::{Chronicle, GameEvent, GameSetup};
use crate::text::Translations;

/// One thing a chapter shows: where, under which title (a place's name), and what happened.
#[derive(Debug, Clone, PartialEq)]
pub struct Beat {
    /// The hex ringed while it shows.
    pub at: Hex,
    /// The card's title.
    pub title: String,
    /// One line of what happened.
    pub line: String,
}

/// Turns one of the chapter's told events (`GameEvent::Chapter`'s `what`) into a beat, or
/// `None` for what it does not show.
pub type Beats = fn(&World, &Translations, &ChapterValue) -> Option<Beat>;

/// The chapters' shows in this app, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterShows(Vec<(&'static str, Beats)>);

/// Adds a chapter's show (adding again replaces it).
pub(super) fn add(app: &mut App, chapter: &'static str, beats: Beats) {
    let mut shows = app.world_mut().get_resource_or_init::<ChapterShows>();
    shows.0.retain(|(c, _)| *c != chapter);
    shows.0.push((chapter, beats));
}

/// Seconds a card shows once its last line is there (half as long while many wait).
const SECONDS: f32 = 1.8;
/// Seconds before a card's next line comes.
const LINE_SECONDS: f32 = 0.9;
/// Most cards waiting: past it, the oldest are dropped (the log still has them).
const MAX_WAITING: usize = 24;
/// Most lines on a card.
const MAX_LINES: usize = 8;

/// One card of the show: a place and what happened there, with the events it was worded
/// from (worded again when the language changes).
#[derive(Debug, Clone, PartialEq)]
struct Card {
    at: Hex,
    title: String,
    lines: Vec<String>,
    told: Vec<(String, ChapterValue)>,
}

/// The show: the cards waiting, the one showing and how long it has left.
#[derive(Resource, Default)]
pub struct Show {
    waiting: VecDeque<Card>,
    /// The card showing and the seconds it has shown.
    now: Option<(Card, f32)>,
    /// Cards shown since the game started (the map's redraw digest changes with it).
    shown: u64,
    /// Events of the chronicle already looked at.
    seen: usize,
    /// The game they belong to (level, seed, players): another game starts the show afresh.
    game: Option<(String, u64, Vec<String>)>,
    /// The language the cards are worded in.
    lang: String,
}

impl Show {
    /// Whether a card is showing or waiting.
    pub fn busy(&self) -> bool {
        self.now.is_some() || !self.waiting.is_empty()
    }

    /// The title of the card on screen.
    pub fn title(&self) -> Option<&str> {
        self.now.as_ref().map(|(c, _)| c.title.as_str())
    }

    /// The place the card on screen rings, with the lines come so far (a chapter's board
    /// marks it).
    pub fn showing(&self) -> Option<(Hex, &[String])> {
        self.now
            .as_ref()
            .map(|(c, t)| (c.at, &c.lines[..revealed(c, *t)]))
    }

    /// The show goes on by `dt` seconds: the card's next line, or the next card.
    fn tick(&mut self, dt: f32) {
        let dt = if self.waiting.len() > 4 { dt * 2.0 } else { dt };
        if let Some((c, t)) = self.now.as_mut() {
            *t += dt;
            if *t < lasts(c) {
                return;
            }
        }
        self.now = None;
        if let Some(c) = self.waiting.pop_front() {
            self.shown += 1;
            self.now = Some((c, 0.0));
        }
    }

    /// The card's next line at once, or the next card once all its lines are there.
    fn next(&mut self) {
        match self.now.as_mut() {
            Some((c, t)) if revealed(c, *t) < c.lines.len() => {
                *t = revealed(c, *t) as f32 * LINE_SECONDS;
            }
            Some((c, t)) => *t = lasts(c),
            None => {}
        }
        self.tick(0.0);
    }
}

/// How many of a card's lines have come after `t` seconds.
fn revealed(c: &Card, t: f32) -> usize {
    let n = 1 + (t.max(0.0) / LINE_SECONDS) as usize;
    n.min(c.lines.len())
}

/// How long a card shows: a moment a line, then `SECONDS` with them all.
fn lasts(c: &Card) -> f32 {
    c.lines.len().saturating_sub(1) as f32 * LINE_SECONDS + SECONDS
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Show>()
        .add_systems(
            Update,
            (
                queue_beats.in_set(super::screens::ViewSet::Cache),
                (advance_show, ring_place).in_set(super::screens::ViewSet::Draw),
            ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_card.run_if(super::screens::playing_free),
        );
}

/// Turns the events told since last time into cards; a new game, a load or an undo (the
/// chronicle shorter, or another game) starts from what is there, showing nothing old.
pub(super) fn queue_beats(world: &mut World) {
    let Some(len) = world.get_resource::<Chronicle>().map(|c| c.0.len()) else {
        return;
    };
    let game = world
        .get_resource::<GameSetup>()
        .map(|s| (s.level.clone(), s.seed, s.players.clone()));
    let lang = world
        .get_resource::<Translations>()
        .map(|t| t.lang.clone())
        .unwrap_or_default();
    if world.resource::<Show>().lang != lang {
        reword(world, &lang);
    }
    {
        let show = world.resource::<Show>();
        if show.seen == len && show.game == game {
            return;
        }
    }
    let fresh = {
        let show = world.resource::<Show>();
        show.game != game || len < show.seen
    };
    if fresh {
        let mut show = world.resource_mut::<Show>();
        *show = Show {
            seen: len,
            game,
            lang,
            ..Show::default()
        };
        return;
    }
    let shows: Vec<(&'static str, Beats)> = world
        .get_resource::<ChapterShows>()
        .map(|s| s.0.clone())
        .unwrap_or_default();
    let in_play = world.get_resource::<InPlay>().cloned().unwrap_or_default();
    let Some(tr) = world.get_resource::<Translations>().cloned() else {
        return;
    };
    let from = world.resource::<Show>().seen.min(len);
    let told: Vec<(String, ChapterValue)> = world.resource::<Chronicle>().0[from..]
        .iter()
        .filter_map(|e| match e {
            GameEvent::Chapter { chapter, what } => Some((chapter.clone(), what.clone())),
            _ => None,
        })
        .collect();
    let mut beats = Vec::new();
    for (chapter, what) in told {
        if let Some((_, f)) = shows
            .iter()
            .find(|(c, _)| *c == chapter.as_str() && in_play.has(c))
            && let Some(b) = f(world, &tr, &what)
        {
            beats.push((b, (chapter, what)));
        }
    }
    let mut show = world.resource_mut::<Show>();
    show.seen = len;
    for (b, source) in beats {
        match show.waiting.back_mut() {
            Some(c) if c.at == b.at => {
                if c.lines.len() < MAX_LINES {
                    c.lines.push(b.line);
                    c.told.push(source);
                }
            }
            _ => show.waiting.push_back(Card {
                at: b.at,
                title: b.title,
                lines: vec![b.line],
                told: vec![source],
            }),
        }
    }
    while show.waiting.len() > MAX_WAITING {
        show.waiting.pop_front();
    }
}

/// Words every card again in `lang` (the player switched language mid-show).
fn reword(world: &mut World, lang: &str) {
    let shows: Vec<(&'static str, Beats)> = world
        .get_resource::<ChapterShows>()
        .map(|s| s.0.clone())
        .unwrap_or_default();
    let Some(tr) = world.get_resource::<Translations>().cloned() else {
        return;
    };
    let word = |world: &World, card: &mut Card| {
        let beats: Vec<Beat> = card
            .told
            .iter()
            .filter_map(|(chapter, what)| {
                let (_, f) = shows.iter().find(|(c, _)| *c == chapter.as_str())?;
                f(world, &tr, what)
            })
            .collect();
        if let Some(b) = beats.first() {
            card.title = b.title.clone();
            card.lines = beats.into_iter().map(|b| b.line).collect();
        }
    };
    let mut show = std::mem::take(&mut *world.resource_mut::<Show>());
    for c in show.waiting.iter_mut() {
        word(world, c);
    }
    if let Some((c, _)) = show.now.as_mut() {
        word(world, c);
    }
    show.lang = lang.to_string();
    *world.resource_mut::<Show>() = show;
}

/// The card showing runs out; the next one comes. Its time runs at the Chaos turn's speed
/// setting (`animation_speed`): slower cards for a player who reads slowly.
fn advance_show(
    time: Res<Time>,
    settings: Option<Res<crate::app::settings::Settings>>,
    mut show: ResMut<Show>,
) {
    let speed = settings.map_or(1.0, |s| s.animation_speed.clamp(0.25, 4.0));
    if show.busy() {
        show.tick(time.delta_secs() * speed);
    }
}

/// The place of the card showing, ringed twice in gold (gizmos, noted in the map's redraw
/// digest so the cached map image shows it).
fn ring_place(mut gizmos: Gizmos, show: Res<Show>, mut redraw: ResMut<map_cache::MapRedraw>) {
    let Some((card, _)) = &show.now else {
        return;
    };
    redraw.note_lines(("chapter_show", show.shown, card.at.x, card.at.y));
    // Brighter than any chapter's own rings, three deep so it reads as a highlight.
    let gold = Color::srgba_u8(255, 236, 110, 255);
    for r in [1.0, 0.93, 0.86] {
        super::chapter_map::hex_ring(&mut gizmos, card.at, r, gold);
    }
}

/// The card: its place, what happened there, how many wait, and "Skip".
fn draw_card(
    mut contexts: EguiContexts,
    mut show: ResMut<Show>,
    tr: Res<Translations>,
    table: Res<super::table::TableView>,
) -> Result {
    let Some((mut card, t)) = show.now.clone() else {
        return Ok(());
    };
    card.lines.truncate(revealed(&card, t));
    let ctx = contexts.ctx_mut()?;
    let waiting = show.waiting.len();
    let (mut skip, mut next) = (false, false);
    // With a chapter's board open, the board frames the place and lists its claims: the card
    // shrinks to a line in the phase bar's row, clear of the board.
    let (anchor, offset, lines): (_, _, &[String]) = if table.open {
        (egui::Align2::LEFT_TOP, egui::vec2(480.0, 26.0), &[])
    } else {
        (
            egui::Align2::CENTER_TOP,
            egui::vec2(-120.0, 70.0),
            &card.lines,
        )
    };
    egui::Area::new("chapter_show".into())
        .order(egui::Order::Foreground)
        .anchor(anchor, offset)
        .interactable(true)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .fill(egui::Color32::from_rgba_unmultiplied(24, 26, 36, 235))
                .stroke(egui::Stroke::new(
                    1.5,
                    egui::Color32::from_rgb(255, 210, 80),
                ))
                .show(ui, |ui| {
                    ui.set_max_width(if table.open { 460.0 } else { 360.0 });
                    let title = egui::RichText::new(&card.title)
                        .strong()
                        .size(if table.open { 14.0 } else { 17.0 })
                        .color(egui::Color32::from_rgb(255, 210, 80));
                    if !table.open {
                        ui.label(title.clone());
                    }
                    for l in lines {
                        ui.label(l);
                    }
                    ui.horizontal(|ui| {
                        if table.open {
                            ui.label(title);
                        }
                        if waiting > 0 {
                            ui.label(
                                egui::RichText::new(tr.p(
                                    "{} more place to come|{} more places to come",
                                    waiting as u64,
                                    &[&waiting],
                                ))
                                .color(egui::Color32::from_gray(190)),
                            );
                        }
                        if ui.small_button(tr.t("Next")).clicked() {
                            next = true;
                        }
                        if ui.small_button(tr.t("Skip")).clicked() {
                            skip = true;
                        }
                    });
                });
        });
    if skip {
        show.waiting.clear();
        show.now = None;
    } else if next {
        show.next();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beat(_: &World, _: &Translations, what: &ChapterValue) -> Option<Beat> {
        let what = what.get::<String>()?;
        let (x, line) = what.split_once(':')?;
        Some(Beat {
            at: Hex::new(x.parse().ok()?, 0),
            title: format!("place {x}"),
            line: line.to_string(),
        })
    }

    fn told(world: &mut World, what: &str) {
        world
            .resource_mut::<Chronicle>()
            .0
            .push(GameEvent::Chapter {
                chapter: "show_test".into(),
                what: ChapterValue::new(what.to_string()),
            });
    }

    /// Beats on one place in a row make one card; another place, another card; what was
    /// told before the show first looked is not shown; another game starts afresh.
    #[test]
    fn beats_group_by_place_and_old_events_are_not_shown() {
        let mut world = World::new();
        world.insert_resource(ChapterShows(vec![("show_test", beat)]));
        world.init_resource::<Show>();
        world.init_resource::<Chronicle>();
        world.insert_resource(InPlay(vec!["show_test".into()]));
        world.insert_resource(Translations::default());
        world.insert_resource(GameSetup::default());
        told(&mut world, "9:before");
        queue_beats(&mut world);
        assert!(
            !world.resource::<Show>().busy(),
            "the old event is not shown"
        );
        told(&mut world, "1:Ana claims a hero");
        told(&mut world, "1:Bo claims a dragon");
        told(&mut world, "2:the poachers claim a plot");
        told(&mut world, "not a beat");
        queue_beats(&mut world);
        let cards: Vec<(i32, usize)> = world
            .resource::<Show>()
            .waiting
            .iter()
            .map(|c| (c.at.x, c.lines.len()))
            .collect();
        assert_eq!(cards, [(1, 2), (2, 1)]);
        // Lines come one at a time, then the card stays; "Next" brings the next line at once.
        let lines = |w: &World| w.resource::<Show>().showing().map(|(h, l)| (h.x, l.len()));
        world.resource_mut::<Show>().tick(0.0);
        assert_eq!(lines(&world), Some((1, 1)), "the first line alone");
        world.resource_mut::<Show>().tick(LINE_SECONDS + 0.01);
        assert_eq!(lines(&world), Some((1, 2)), "then the second");
        world.resource_mut::<Show>().tick(SECONDS - 0.1);
        assert_eq!(lines(&world), Some((1, 2)), "the card stays a moment");
        world.resource_mut::<Show>().tick(0.2);
        assert_eq!(lines(&world), Some((2, 1)), "then the next place");
        world.resource_mut::<Show>().next();
        assert!(
            !world.resource::<Show>().busy(),
            "Next past the last line ends it"
        );
        world.resource_mut::<GameSetup>().seed = 99;
        queue_beats(&mut world);
        assert!(!world.resource::<Show>().busy(), "a new game starts afresh");
    }
}
