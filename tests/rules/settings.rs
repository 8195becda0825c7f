//! Settings: saved atomically with a checksum, loaded back; a damaged or hand-broken file falls
//! back to the defaults (or clamps) with a reason, never an error.

use chaos_outpost::app::settings::{self, Palette, Settings};

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!(
        "chaos-outpost-settings-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join("settings.ron")
}

#[test]
fn settings_round_trip_through_the_file() {
    let path = tmp("roundtrip");
    let s = Settings {
        master: 0.3,
        muted: true,
        ui_scale: 1.5,
        palette: Palette::ColorBlindSafe,
        animation_speed: 2.0,
        language: "fr".into(),
        mods: vec!["highland_guard".into(), "other".into()],
        ..Settings::default()
    };
    settings::save(&s, &path).expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.starts_with("// chaos-outpost settings v"), "{text}");
    let (back, notes) = settings::load(&path);
    assert_eq!(back, s);
    assert!(notes.is_empty(), "{notes:?}");
    // A missing file is the defaults, silently.
    let (d, notes) = settings::load(&path.with_file_name("none.ron"));
    assert_eq!((d, notes.len()), (Settings::default(), 0));
}

#[test]
fn a_damaged_settings_file_falls_back_to_the_defaults_with_the_reason() {
    let path = tmp("damaged");
    settings::save(
        &Settings {
            master: 0.1,
            ..Settings::default()
        },
        &path,
    )
    .expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, &text[..text.len() - 10]).expect("truncate");
    let (s, notes) = settings::load(&path);
    assert_eq!(s, Settings::default());
    assert!(
        notes[0].contains("truncated") && notes[0].contains("defaults used"),
        "{notes:?}"
    );
    std::fs::write(&path, "garbage (").expect("write");
    let (s, notes) = settings::load(&path);
    assert_eq!(s, Settings::default());
    assert!(notes[0].contains("settings.ron"), "{notes:?}");
}

#[test]
fn hand_edited_values_out_of_range_are_clamped_and_named() {
    let path = tmp("clamp");
    let body = "(master: 5.0, ui_scale: NaN, animation_speed: -3.0, language: \"xx\")";
    std::fs::write(&path, body).expect("write");
    let (s, notes) = settings::load(&path);
    assert_eq!(s.master, 1.0);
    assert_eq!(s.ui_scale, 1.0);
    assert_eq!(s.animation_speed, 0.25);
    assert_eq!(s.language, "en");
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("master 5")), "{notes:?}");
}

#[test]
fn a_hand_edited_mod_list_is_cleaned_with_a_note() {
    let mut s = Settings {
        mods: vec![
            "good".into(),
            "good".into(),
            "../../etc".into(),
            String::new(),
            "x".repeat(65),
        ],
        ..Settings::default()
    };
    let notes = s.clamp();
    assert_eq!(s.mods, ["good"]);
    assert!(
        notes.iter().any(|n| n.contains("mods: 4 entries dropped")),
        "{notes:?}"
    );
}

#[test]
fn rebound_keys_round_trip_and_a_bad_one_keeps_its_default_with_a_note() {
    use chaos_outpost::app::keys::{Binding, Keymap, Shortcut};
    // Binding End to "end the step" takes it from "skip the Chaos turn" (no key does two
    // things), and only the changes are saved.
    let mut map = Keymap::default();
    let end = Binding::parse("end").expect("a key");
    let lost = map.rebind(Shortcut::EndStep, end);
    assert_eq!(lost, vec![Shortcut::SkipChaos]);
    assert_eq!(map.keys_of(Shortcut::SkipChaos), "—");
    assert!(map.conflicts().is_empty());
    let saved = map.to_saved();
    assert_eq!(saved.len(), 2, "{saved:?}");
    assert_eq!(saved[&Shortcut::EndStep], ["End"]);

    let path = tmp("keys");
    let s = Settings {
        keys: saved,
        ..Settings::default()
    };
    settings::save(&s, &path).expect("save");
    let (back, notes) = settings::load(&path);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(Keymap::from_saved(&back.keys).0.map, map.map);

    // A hand-edited file: a key the game doesn't know, a bad modifier, two shortcuts on one
    // key. Each is named; the unreadable ones keep their defaults.
    let mut s = Settings::default();
    s.keys.insert(Shortcut::Help, vec!["Hyper+F1".into()]);
    s.keys.insert(Shortcut::Menu, vec!["Kanji".into()]);
    s.keys.insert(Shortcut::QuickSave, vec!["F9".into()]);
    let notes = s.clamp();
    let all = notes.join("\n");
    assert!(
        all.contains("Help") && all.contains("`hyper` is not a modifier"),
        "{all}"
    );
    assert!(
        all.contains("Menu") && all.contains("`Kanji` is not a key"),
        "{all}"
    );
    assert!(all.contains("F9 is bound to both"), "{all}");
    let map = Keymap::from_saved(&s.keys).0;
    assert_eq!(map.keys_of(Shortcut::Help), "F1");
    assert_eq!(map.keys_of(Shortcut::Menu), "Escape");
}

#[test]
fn bindings_read_and_print_the_same() {
    use chaos_outpost::app::keys::Binding;
    for text in ["Ctrl+Z", "Shift+Alt+F5", "Space", "[", "Numpad7", "7", "Q"] {
        let b = Binding::parse(text).expect(text);
        assert_eq!(b.to_string(), text);
    }
    assert_eq!(
        Binding::parse("ctrl + z").map(|b| b.to_string()),
        Ok("Ctrl+Z".to_string())
    );
    assert!(Binding::parse("").is_err());
    assert!(Binding::parse("Ctrl+").is_err());
}
