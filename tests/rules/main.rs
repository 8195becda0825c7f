//! Integration tests of the game, one module per rule (named after the rule they pin: R1–R9 of
//! `docs/rules.md`, and the chapters' rules of `docs/chapters/`), plus content, saves, replays,
//! the command line and the documentation's links. One test binary keeps link time low.

mod common;

mod ai;
mod ai_search;
mod c_clans;
mod chapter_hints;
mod chapter_seams;
mod cli;
mod colour;
mod content;
mod cycle;
mod d_dragoness;
mod docs;
mod frames;
mod fuzz;
mod golden;
mod hostile_chapters;
mod hostile_content;
mod hostile_files;
mod i18n;
mod k_campaign;
mod layers;
mod m_mercenaries;
mod mods;
mod r2_events;
mod r3_generation;
mod r4_timers;
mod r5_upkeep;
mod r6_corruption;
mod r7_research;
mod r8_portal;
mod r9_combat;
mod r9_main;
mod r9_perft;
mod settings;
mod snapshot;
mod tracks_shown;
mod trial;
mod window;
