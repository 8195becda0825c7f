//! Player settings: volumes, UI scale, window mode, colour palette, animation speed, language.
//! Saved in the user's config directory (`directories`), written atomically with a version and a
//! checksum (the header line of saves, `ground::files::envelope`). A damaged or hand-broken file never
//! stops the game: it falls back to the defaults (or clamps a value out of range) and says why.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ground::files::{envelope, open_envelope, write_atomic};

/// The settings file's format version (in its header line).
pub const SETTINGS_VERSION: u32 = 2;

/// The camps' and highlights' colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Palette {
    /// Blue Eladrins, red Chaos.
    #[default]
    Standard,
    /// Okabe–Ito colours told apart with every common colour-vision deficiency: blue and orange
    /// camps, yellow highlights.
    ColorBlindSafe,
}

/// Every setting.
#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Master volume, 0 to 1.
    pub master: f32,
    /// Music volume, 0 to 1.
    pub music: f32,
    /// Effects volume, 0 to 1.
    pub effects: f32,
    /// Sound off, levels kept.
    pub muted: bool,
    /// Interface scale, 0.75 to 2.
    pub ui_scale: f32,
    /// Borderless full screen instead of a window.
    pub fullscreen: bool,
    /// Colour palette.
    pub palette: Palette,
    /// Speed of the Chaos turn, 0.25 to 4 (4: almost no pause between its moves).
    pub animation_speed: f32,
    /// Language code (`en`, `fr`).
    pub language: String,
    /// Enabled mods by id, in load order (mods found but not listed are off).
    pub mods: Vec<String>,
    /// Key bindings that differ from the defaults: command → keys (`"Ctrl+Z"`, `"F5"`).
    pub keys: std::collections::BTreeMap<super::keys::Shortcut, Vec<String>>,
    /// Show the contextual hints: the first level's, and each chapter's at its first play.
    pub hints: bool,
    /// Hints already seen (not shown again).
    pub hints_seen: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            master: 0.8,
            music: 0.6,
            effects: 0.8,
            muted: false,
            ui_scale: 1.0,
            fullscreen: false,
            palette: Palette::Standard,
            animation_speed: 1.0,
            language: "en".into(),
            mods: Vec::new(),
            keys: Default::default(),
            hints: true,
            hints_seen: Vec::new(),
        }
    }
}

impl Settings {
    /// Brings every value into its range (NaN to the default); returns what was changed.
    pub fn clamp(&mut self) -> Vec<String> {
        let d = Settings::default();
        let mut fixed = Vec::new();
        let mut fix = |name: &str, v: &mut f32, lo: f32, hi: f32, default: f32| {
            let new = if v.is_nan() { default } else { v.clamp(lo, hi) };
            if new != *v {
                fixed.push(format!("{name} {v} is out of {lo}–{hi}: {new} used"));
                *v = new;
            }
        };
        fix("master", &mut self.master, 0.0, 1.0, d.master);
        fix("music", &mut self.music, 0.0, 1.0, d.music);
        fix("effects", &mut self.effects, 0.0, 1.0, d.effects);
        fix("ui_scale", &mut self.ui_scale, 0.75, 2.0, d.ui_scale);
        fix(
            "animation_speed",
            &mut self.animation_speed,
            0.25,
            4.0,
            d.animation_speed,
        );
        // A hand-edited list can't grow without bound or name junk.
        let before = self.mods.len();
        self.mods.truncate(crate::content::mods::MAX_MODS);
        self.mods
            .retain(|m| m.len() <= 64 && !m.is_empty() && !m.contains(['/', '\\', '.']));
        let mut seen = std::collections::BTreeSet::new();
        self.mods.retain(|m| seen.insert(m.clone()));
        if self.mods.len() != before {
            fixed.push(format!(
                "mods: {} entries dropped (too many, repeated or not an id)",
                before - self.mods.len()
            ));
        }
        // Keys that can't be read fall back to the defaults (the note says which).
        let (map, notes) = super::keys::Keymap::from_saved(&self.keys);
        if !notes.is_empty() {
            fixed.extend(notes);
            self.keys = map.to_saved();
        }
        for (a, b, k) in map.conflicts() {
            fixed.push(format!("keys: {k} is bound to both {a:?} and {b:?}"));
        }
        let before = self.hints_seen.len();
        self.hints_seen.truncate(256);
        self.hints_seen.retain(|h| h.len() <= 64);
        if self.hints_seen.len() != before {
            fixed.push("hints_seen: entries dropped (too many or too long)".into());
        }
        if !["en", "fr"].contains(&self.language.as_str()) {
            fixed.push(format!(
                "unknown language `{}`: en used",
                self.language.chars().take(16).collect::<String>()
            ));
            self.language = "en".into();
        }
        fixed
    }
}

/// Where the settings live: `$CHAOS_OUTPOST_CONFIG` if set, else the platform's config
/// directory (`~/.config/chaos-outpost/settings.ron` on Linux).
pub fn settings_path() -> PathBuf {
    if let Some(p) = std::env::var_os("CHAOS_OUTPOST_CONFIG") {
        return PathBuf::from(p);
    }
    crate::ground::paths::config_dir()
        .map(|d| d.join("settings.ron"))
        .unwrap_or_else(|| PathBuf::from("settings.ron"))
}

/// Loads the settings; a missing file gives the defaults silently, a damaged one the defaults
/// with the reason, a value out of range is clamped with a note. Never fails.
pub fn load(path: &Path) -> (Settings, Vec<String>) {
    if !path.exists() {
        return (Settings::default(), Vec::new());
    }
    let text = match crate::content::read_bounded(path) {
        Ok(t) => t,
        Err(p) => return (Settings::default(), vec![format!("{p}; defaults used")]),
    };
    let parsed = open_envelope("settings", SETTINGS_VERSION, &text).and_then(|(_, body)| {
        ron::from_str::<Settings>(body)
            .map_err(|e| format!("{}:{}: {}", e.span.start.line + 1, e.span.start.col, e.code))
    });
    match parsed {
        Ok(mut s) => {
            let notes = s
                .clamp()
                .into_iter()
                .map(|n| format!("{}: {n}", path.display()))
                .collect();
            (s, notes)
        }
        Err(e) => (
            Settings::default(),
            vec![format!("{}: {e}; defaults used", path.display())],
        ),
    }
}

/// Saves the settings atomically, with the header line (version and checksum).
pub fn save(s: &Settings, path: &Path) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(s, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("can't serialise the settings: {e}"))?;
    write_atomic(path, envelope("settings", SETTINGS_VERSION, &text))
        .map_err(|e| format!("{}: can't write: {e}", path.display()))
}
