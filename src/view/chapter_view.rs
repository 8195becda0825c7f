//! A chapter's half of the window, added from its `Chapter::build_view` (the window builds it
//! after every chapter's rules): its panel, its marks on the map, its shows, its rules in the
//! help, its sounds and its hints. Each lands in a resource of the window's app
//! (`ChapterPanels`, `ChapterMaps`, `ChapterShows`, `ChapterHelp`, `ChapterSoundTable`,
//! `ChapterHints`) that the view's systems read for the chapters the level in play plays.

use bevy::prelude::*;
use bevy_egui::egui;

use super::chapter_panel::PanelCx;
use crate::rules::Action;
use crate::rules::chapter::ChapterState;

/// Adding a chapter's window half to the app.
pub trait ChapterViewExt {
    /// Its panel in the side panel, drawn with its state `S` as the seat at the screen sees it
    /// (`chapter_panel`); returns the action its buttons ask for.
    fn add_chapter_panel<S: ChapterState>(
        &mut self,
        chapter: &'static str,
        draw: fn(&mut egui::Ui, &S, &PanelCx) -> Option<Action>,
    ) -> &mut Self;
    /// Its panel, drawn with what `seen` makes of the world for the seat at the screen (its
    /// state and what else it shows: where the armies stand, what they hold), the chapter
    /// deciding what a seat may know.
    fn add_chapter_panel_seen<T: Send + Sync + 'static>(
        &mut self,
        chapter: &'static str,
        seen: fn(&World, crate::rules::chapter::Viewer) -> Option<T>,
        draw: fn(&mut egui::Ui, &T, &PanelCx) -> Option<Action>,
    ) -> &mut Self;
    /// Its table: the board drawn as the board game lays it out, in a window over the map,
    /// played by clicks (`table`); drawn with its state `S` as the seat at the screen sees it,
    /// under `title`; returns the action a click asks for.
    fn add_chapter_table<S: ChapterState>(
        &mut self,
        chapter: &'static str,
        title: &'static str,
        draw: fn(&mut egui::Ui, &S, &mut super::table::TableCx) -> Option<Action>,
    ) -> &mut Self;
    /// Its marks on the map (`chapter_map`).
    fn add_chapter_marks(
        &mut self,
        chapter: &'static str,
        marks: super::chapter_map::Marks,
    ) -> &mut Self;
    /// Its events shown place by place over the map (`chapter_show`).
    fn add_chapter_show(
        &mut self,
        chapter: &'static str,
        beats: super::chapter_show::Beats,
    ) -> &mut Self;
    /// Its rules in the help, one `## X …` section in English and in French (`help`).
    fn add_chapter_help(
        &mut self,
        chapter: &'static str,
        en: &'static str,
        fr: &'static str,
    ) -> &mut Self;
    /// The sound effects of its events (`sound`).
    fn add_chapter_sounds(
        &mut self,
        chapter: &'static str,
        sounds: super::sound::ChapterSounds,
    ) -> &mut Self;
    /// Its hints for a first play (`hints`): the text of its hints file
    /// (`assets/help/chapters/<chapter>.hints.ron`, the core's `hints.ron` format, ids starting
    /// with the chapter's), shown on any level that plays it, each once.
    fn add_chapter_hints(&mut self, chapter: &'static str, ron: &'static str) -> &mut Self;
}

impl ChapterViewExt for App {
    fn add_chapter_panel<S: ChapterState>(
        &mut self,
        chapter: &'static str,
        draw: fn(&mut egui::Ui, &S, &PanelCx) -> Option<Action>,
    ) -> &mut Self {
        super::chapter_panel::add::<S>(self, chapter, draw);
        self
    }
    fn add_chapter_panel_seen<T: Send + Sync + 'static>(
        &mut self,
        chapter: &'static str,
        seen: fn(&World, crate::rules::chapter::Viewer) -> Option<T>,
        draw: fn(&mut egui::Ui, &T, &PanelCx) -> Option<Action>,
    ) -> &mut Self {
        super::chapter_panel::add_seen::<T>(self, chapter, seen, draw);
        self
    }
    fn add_chapter_table<S: ChapterState>(
        &mut self,
        chapter: &'static str,
        title: &'static str,
        draw: fn(&mut egui::Ui, &S, &mut super::table::TableCx) -> Option<Action>,
    ) -> &mut Self {
        super::table::add::<S>(self, chapter, title, draw);
        self
    }
    fn add_chapter_marks(
        &mut self,
        chapter: &'static str,
        marks: super::chapter_map::Marks,
    ) -> &mut Self {
        super::chapter_map::add(self, chapter, marks);
        self
    }
    fn add_chapter_show(
        &mut self,
        chapter: &'static str,
        beats: super::chapter_show::Beats,
    ) -> &mut Self {
        super::chapter_show::add(self, chapter, beats);
        self
    }
    fn add_chapter_help(
        &mut self,
        chapter: &'static str,
        en: &'static str,
        fr: &'static str,
    ) -> &mut Self {
        super::help::add(self, chapter, en, fr);
        self
    }
    fn add_chapter_sounds(
        &mut self,
        chapter: &'static str,
        sounds: super::sound::ChapterSounds,
    ) -> &mut Self {
        super::sound::add(self, chapter, sounds);
        self
    }
    fn add_chapter_hints(&mut self, chapter: &'static str, ron: &'static str) -> &mut Self {
        super::hints::add(self, chapter, ron);
        self
    }
}
