//! The systems that follow a change of the settings or of the game: the translation table
//! follows the language and the level in play (its chapters' names), the keymap follows the saved bindings, and a key pressed while the settings wait
//! for one is bound and written back. They sit here, above `settings` and `keys`, so neither of
//! those two imports the other's systems.

use bevy::prelude::*;

use super::keys::{Binding, KeyNote, Keymap, is_modifier, key_name};
use super::settings::Settings;
use crate::text::Translations;

/// Keeps the table in step with the language setting.
pub fn language_plugin(app: &mut App) {
    app.init_resource::<Translations>()
        .add_systems(PreUpdate, (follow_language, follow_level).chain());
}

fn follow_language(settings: Res<Settings>, mut tr: ResMut<Translations>) {
    if tr.lang != settings.language {
        let mods = std::mem::take(&mut tr.mods);
        let chapters = std::mem::take(&mut tr.chapters);
        *tr = Translations::base(&settings.language);
        for (lang, table) in &mods {
            if *lang == settings.language {
                tr.extend(table.clone());
            }
        }
        tr.mods = mods;
        tr.chapters = chapters;
    }
}

/// The chapters' things named as the level in play names them (read again when the game or
/// its content changes).
fn follow_level(
    setup: Option<Res<crate::rules::GameSetup>>,
    content: Option<Res<crate::content::Content>>,
    mut tr: ResMut<Translations>,
) {
    let (Some(setup), Some(content)) = (setup, content) else {
        return;
    };
    if setup.is_changed() || content.is_changed() {
        // Marked changed only when the names were read afresh (the words shown follow).
        let fresh = tr
            .bypass_change_detection()
            .chapters
            .follow_level(&content.0, &setup.level);
        if fresh {
            tr.set_changed();
        }
    }
}

/// Keeps the keymap in step with the settings, and takes the next key pressed while the
/// settings wait for one.
pub fn keys_plugin(app: &mut App) {
    app.init_resource::<Keymap>()
        .add_systems(PreUpdate, follow_settings)
        .add_systems(Update, capture_binding);
}

fn follow_settings(settings: Res<Settings>, mut map: ResMut<Keymap>) {
    if !settings.is_changed() {
        return;
    }
    let (new, _) = Keymap::from_saved(&settings.keys);
    if map.map != new.map {
        map.map = new.map;
    }
}

/// While a shortcut waits for its key: the first key pressed (with the modifiers held) is
/// bound to it, and taken from any shortcut that had it; Escape cancels.
fn capture_binding(
    keys: Res<ButtonInput<KeyCode>>,
    mut map: ResMut<Keymap>,
    mut settings: ResMut<Settings>,
) {
    let Some(target) = map.capturing else {
        return;
    };
    let Some(key) = keys.get_just_pressed().copied().find(|k| !is_modifier(*k)) else {
        return;
    };
    map.capturing = None;
    if key == KeyCode::Escape {
        return;
    }
    if key_name(key).is_none() {
        map.note = Some(KeyNote::Unbindable);
        return;
    }
    let held = |a, b| keys.pressed(a) || keys.pressed(b);
    let b = Binding {
        key,
        ctrl: held(KeyCode::ControlLeft, KeyCode::ControlRight),
        shift: held(KeyCode::ShiftLeft, KeyCode::ShiftRight),
        alt: held(KeyCode::AltLeft, KeyCode::AltRight),
    };
    let lost = map.rebind(target, b);
    map.note = Some(KeyNote::Bound {
        key: b.to_string(),
        lost: lost.first().copied(),
    });
    settings.keys = map.to_saved();
}
