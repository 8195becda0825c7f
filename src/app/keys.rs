//! Key bindings: every keyboard command of the window, its default keys, and the player's own
//! bindings (saved in the settings as text such as `"Ctrl+Z"`, so a hand-edited file stays
//! readable). A binding names one key and the modifiers that must be held; a binding without
//! Ctrl does not fire while Ctrl is held, so `Ctrl+Z` and `Z` stay apart.

use std::collections::BTreeMap;
use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A keyboard command (a shortcut to something the mouse or the panels also do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Shortcut {
    /// Pan the map left.
    PanLeft,
    /// Pan the map right.
    PanRight,
    /// Pan the map up.
    PanUp,
    /// Pan the map down.
    PanDown,
    /// Zoom in.
    ZoomIn,
    /// Zoom out.
    ZoomOut,
    /// Centre the view on the selection.
    CentreView,
    /// Move the map cursor to the west neighbour.
    CursorW,
    /// Move the map cursor to the east neighbour.
    CursorE,
    /// Move the map cursor to the north-west neighbour.
    CursorNW,
    /// Move the map cursor to the north-east neighbour.
    CursorNE,
    /// Move the map cursor to the south-west neighbour.
    CursorSW,
    /// Move the map cursor to the south-east neighbour.
    CursorSE,
    /// Select the tile under the map cursor (as a left click).
    SelectCursor,
    /// The selected army moves to the map cursor (as a right click).
    MoveToCursor,
    /// Select the next Eladrin army or outpost, and centre on it.
    NextUnit,
    /// Trigger the n-th action of the side panel's list (1 to 9).
    PanelAction(u8),
    /// What the phase bar's button does (close the step, end the activation, end the turn).
    EndStep,
    /// Let the AI play the rest of this Eladrin turn.
    AiTurn,
    /// Play the rest of the Chaos turn at once.
    SkipChaos,
    /// Undo within the turn.
    Undo,
    /// The help window.
    Help,
    /// The menu.
    Menu,
    /// Quick save.
    QuickSave,
    /// Quick load.
    QuickLoad,
    /// Screenshot.
    Screenshot,
    /// Sound off / on.
    Mute,
    /// Lower the master volume.
    VolumeDown,
    /// Raise the master volume.
    VolumeUp,
    /// Open or close the chapter's board.
    Board,
}

impl Shortcut {
    /// Every command, in the order the help and the settings list them.
    pub fn all() -> Vec<Shortcut> {
        use Shortcut::*;
        let mut v = vec![
            PanLeft,
            PanRight,
            PanUp,
            PanDown,
            ZoomIn,
            ZoomOut,
            CentreView,
            CursorNW,
            CursorNE,
            CursorW,
            CursorE,
            CursorSW,
            CursorSE,
            SelectCursor,
            MoveToCursor,
            NextUnit,
        ];
        v.extend((1..=9).map(PanelAction));
        v.extend([
            EndStep, AiTurn, SkipChaos, Undo, Help, Menu, QuickSave, QuickLoad, Screenshot, Mute,
            VolumeDown, VolumeUp, Board,
        ]);
        v
    }

    /// What it does, in English (the translation tables carry it; `{}` is the action number).
    pub fn describe(self) -> &'static str {
        use Shortcut::*;
        match self {
            PanLeft => "pan the map left",
            PanRight => "pan the map right",
            PanUp => "pan the map up",
            PanDown => "pan the map down",
            ZoomIn => "zoom in",
            ZoomOut => "zoom out",
            CentreView => "centre the view on the selection",
            CursorW => "map cursor: west",
            CursorE => "map cursor: east",
            CursorNW => "map cursor: north-west",
            CursorNE => "map cursor: north-east",
            CursorSW => "map cursor: south-west",
            CursorSE => "map cursor: south-east",
            SelectCursor => "select the tile under the map cursor (as a left click)",
            MoveToCursor => "the selected army moves to the map cursor (as a right click, R9.4)",
            NextUnit => "select the next Eladrin army or outpost",
            PanelAction(_) => "action {} of the side panel's list",
            EndStep => "close the upkeep step / end the activation / end the turn",
            AiTurn => "let the AI play the rest of this turn",
            SkipChaos => "play the rest of the Chaos turn at once",
            Undo => "undo your last actions of this turn (until a roll, a card or Chaos)",
            Help => "this help",
            Menu => "the menu",
            QuickSave => "quick save",
            QuickLoad => "quick load",
            Screenshot => "screenshot",
            Mute => "sound off / on",
            VolumeDown => "lower the volume",
            VolumeUp => "raise the volume",
            Board => "open or close the chapter's board",
        }
    }

    /// What it does, in the language of `tr`.
    pub fn words(self, tr: &crate::text::Translations) -> String {
        match self {
            Shortcut::PanelAction(n) => tr.f(self.describe(), &[&n]),
            _ => tr.t(self.describe()).into_owned(),
        }
    }

    /// The keys it has out of the box.
    pub fn defaults(self) -> Vec<Binding> {
        use Shortcut::*;
        let k = Binding::key;
        match self {
            PanLeft => vec![k(KeyCode::ArrowLeft), k(KeyCode::KeyA)],
            PanRight => vec![k(KeyCode::ArrowRight), k(KeyCode::KeyD)],
            PanUp => vec![k(KeyCode::ArrowUp), k(KeyCode::KeyW)],
            PanDown => vec![k(KeyCode::ArrowDown), k(KeyCode::KeyS)],
            ZoomIn => vec![k(KeyCode::Equal), k(KeyCode::NumpadAdd)],
            ZoomOut => vec![k(KeyCode::Minus), k(KeyCode::NumpadSubtract)],
            CentreView => vec![k(KeyCode::KeyC)],
            // The six keys around J on a QWERTY keyboard sit like the six neighbours of a
            // pointy hex; the numeric keypad's do too.
            CursorNW => vec![k(KeyCode::KeyU), k(KeyCode::Numpad7)],
            CursorNE => vec![k(KeyCode::KeyI), k(KeyCode::Numpad9)],
            CursorW => vec![k(KeyCode::KeyH), k(KeyCode::Numpad4)],
            CursorE => vec![k(KeyCode::KeyK), k(KeyCode::Numpad6)],
            CursorSW => vec![k(KeyCode::KeyN), k(KeyCode::Numpad1)],
            CursorSE => vec![k(KeyCode::KeyM), k(KeyCode::Numpad3)],
            SelectCursor => vec![k(KeyCode::KeyJ), k(KeyCode::Numpad5)],
            MoveToCursor => vec![k(KeyCode::Space), k(KeyCode::Numpad0)],
            // Not Tab: egui moves its keyboard focus through the panels' buttons with Tab.
            NextUnit => vec![k(KeyCode::Period)],
            PanelAction(n) => DIGITS
                .get(usize::from(n).wrapping_sub(1))
                .map(|c| vec![k(*c)])
                .unwrap_or_default(),
            EndStep => vec![k(KeyCode::Enter), k(KeyCode::NumpadEnter)],
            AiTurn => vec![Binding::ctrl(KeyCode::KeyA)],
            SkipChaos => vec![k(KeyCode::End)],
            Undo => vec![Binding::ctrl(KeyCode::KeyZ), k(KeyCode::Backspace)],
            Help => vec![k(KeyCode::F1)],
            Menu => vec![k(KeyCode::Escape)],
            QuickSave => vec![k(KeyCode::F5)],
            QuickLoad => vec![k(KeyCode::F9)],
            Screenshot => vec![k(KeyCode::F12)],
            Mute => vec![Binding::ctrl(KeyCode::KeyM)],
            VolumeDown => vec![k(KeyCode::BracketLeft)],
            VolumeUp => vec![k(KeyCode::BracketRight)],
            Board => vec![k(KeyCode::KeyB)],
        }
    }
}

const DIGITS: [KeyCode; 9] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// One key with the modifiers that must be held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Binding {
    /// The key.
    pub key: KeyCode,
    /// Ctrl held.
    pub ctrl: bool,
    /// Shift held.
    pub shift: bool,
    /// Alt held.
    pub alt: bool,
}

impl Binding {
    /// The key alone.
    pub fn key(key: KeyCode) -> Binding {
        Binding {
            key,
            ctrl: false,
            shift: false,
            alt: false,
        }
    }
    /// Ctrl and the key.
    pub fn ctrl(key: KeyCode) -> Binding {
        Binding {
            ctrl: true,
            ..Binding::key(key)
        }
    }
    /// Reads `"Ctrl+Shift+Z"`, `"F5"`, `"Space"` (case-insensitive).
    pub fn parse(text: &str) -> Result<Binding, String> {
        let mut b = Binding::key(KeyCode::Escape);
        let parts: Vec<&str> = text.split('+').map(str::trim).collect();
        let Some((last, mods)) = parts.split_last() else {
            return Err("an empty key".into());
        };
        for m in mods {
            match m.to_ascii_lowercase().as_str() {
                "ctrl" | "control" => b.ctrl = true,
                "shift" => b.shift = true,
                "alt" => b.alt = true,
                other => return Err(format!("`{other}` is not a modifier (Ctrl, Shift, Alt)")),
            }
        }
        b.key = key_from_name(last).ok_or_else(|| {
            format!(
                "`{}` is not a key this game knows (letters, digits, F1–F12, arrows, Space, \
                 Enter, Tab, Escape, Backspace, Home, End, PageUp, PageDown, Insert, Delete, \
                 punctuation, Numpad0–9)",
                last.chars().take(24).collect::<String>()
            )
        })?;
        Ok(b)
    }
    /// Whether it was pressed this frame (with exactly its modifiers).
    pub fn just_pressed(&self, keys: &ButtonInput<KeyCode>) -> bool {
        keys.just_pressed(self.key) && self.modifiers_match(keys)
    }
    /// Whether it is held (with exactly its modifiers).
    pub fn pressed(&self, keys: &ButtonInput<KeyCode>) -> bool {
        keys.pressed(self.key) && self.modifiers_match(keys)
    }
    fn modifiers_match(&self, keys: &ButtonInput<KeyCode>) -> bool {
        let held = |a, b| keys.pressed(a) || keys.pressed(b);
        held(KeyCode::ControlLeft, KeyCode::ControlRight) == self.ctrl
            && held(KeyCode::ShiftLeft, KeyCode::ShiftRight) == self.shift
            && held(KeyCode::AltLeft, KeyCode::AltRight) == self.alt
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl+")?;
        }
        if self.shift {
            f.write_str("Shift+")?;
        }
        if self.alt {
            f.write_str("Alt+")?;
        }
        f.write_str(key_name(self.key).unwrap_or("?"))
    }
}

impl Binding {
    /// The binding in the player's language (`Ctrl+Z`, `Échap`): each word of a key's name
    /// through the table's `key:NAME` entry; the settings file keeps the English names.
    pub fn words(&self, tr: &crate::text::Translations) -> String {
        let word = |w: &str| {
            tr.map
                .get(&format!("key:{w}"))
                .cloned()
                .unwrap_or_else(|| w.to_string())
        };
        let mut out = String::new();
        for (on, m) in [
            (self.ctrl, "Ctrl"),
            (self.shift, "Shift"),
            (self.alt, "Alt"),
        ] {
            if on {
                out.push_str(&word(m));
                out.push('+');
            }
        }
        let name = key_name(self.key).unwrap_or("?");
        match name.strip_prefix("Numpad") {
            Some(rest) if !rest.is_empty() => {
                out.push_str(&word("Numpad"));
                out.push(' ');
                out.push_str(&word(rest));
            }
            _ => out.push_str(&word(name)),
        }
        out
    }
}

/// The words of key names a language table translates (`key:NAME` entries): the named keys
/// that are words, the modifiers and the numpad's prefix.
pub fn key_words() -> Vec<&'static str> {
    let mut v: Vec<&str> = NAMED
        .iter()
        .map(|(_, n)| n.strip_prefix("Numpad").unwrap_or(n))
        .filter(|n| n.chars().any(|c| c.is_ascii_alphabetic()) && n.len() > 1)
        .collect();
    v.extend(["Ctrl", "Shift", "Alt", "Numpad"]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Whether a key is a modifier (never bound alone).
pub fn is_modifier(k: KeyCode) -> bool {
    matches!(
        k,
        KeyCode::ControlLeft
            | KeyCode::ControlRight
            | KeyCode::ShiftLeft
            | KeyCode::ShiftRight
            | KeyCode::AltLeft
            | KeyCode::AltRight
            | KeyCode::SuperLeft
            | KeyCode::SuperRight
    )
}

/// The keys a binding may name, with their names.
const NAMED: [(KeyCode, &str); 44] = [
    (KeyCode::Space, "Space"),
    (KeyCode::Enter, "Enter"),
    (KeyCode::Tab, "Tab"),
    (KeyCode::Escape, "Escape"),
    (KeyCode::Backspace, "Backspace"),
    (KeyCode::Delete, "Delete"),
    (KeyCode::Insert, "Insert"),
    (KeyCode::Home, "Home"),
    (KeyCode::End, "End"),
    (KeyCode::PageUp, "PageUp"),
    (KeyCode::PageDown, "PageDown"),
    (KeyCode::ArrowLeft, "Left"),
    (KeyCode::ArrowRight, "Right"),
    (KeyCode::ArrowUp, "Up"),
    (KeyCode::ArrowDown, "Down"),
    (KeyCode::Minus, "-"),
    (KeyCode::Equal, "="),
    (KeyCode::BracketLeft, "["),
    (KeyCode::BracketRight, "]"),
    (KeyCode::Backslash, "\\"),
    (KeyCode::Semicolon, ";"),
    (KeyCode::Quote, "'"),
    (KeyCode::Backquote, "`"),
    (KeyCode::Comma, ","),
    (KeyCode::Period, "."),
    (KeyCode::Slash, "/"),
    (KeyCode::Numpad0, "Numpad0"),
    (KeyCode::Numpad1, "Numpad1"),
    (KeyCode::Numpad2, "Numpad2"),
    (KeyCode::Numpad3, "Numpad3"),
    (KeyCode::Numpad4, "Numpad4"),
    (KeyCode::Numpad5, "Numpad5"),
    (KeyCode::Numpad6, "Numpad6"),
    (KeyCode::Numpad7, "Numpad7"),
    (KeyCode::Numpad8, "Numpad8"),
    (KeyCode::Numpad9, "Numpad9"),
    (KeyCode::NumpadAdd, "Numpad+"),
    (KeyCode::NumpadSubtract, "Numpad-"),
    (KeyCode::NumpadMultiply, "Numpad*"),
    (KeyCode::NumpadDivide, "Numpad/"),
    (KeyCode::NumpadEnter, "NumpadEnter"),
    (KeyCode::NumpadDecimal, "Numpad."),
    (KeyCode::Pause, "Pause"),
    (KeyCode::PrintScreen, "PrintScreen"),
];

const LETTERS: [KeyCode; 26] = [
    KeyCode::KeyA,
    KeyCode::KeyB,
    KeyCode::KeyC,
    KeyCode::KeyD,
    KeyCode::KeyE,
    KeyCode::KeyF,
    KeyCode::KeyG,
    KeyCode::KeyH,
    KeyCode::KeyI,
    KeyCode::KeyJ,
    KeyCode::KeyK,
    KeyCode::KeyL,
    KeyCode::KeyM,
    KeyCode::KeyN,
    KeyCode::KeyO,
    KeyCode::KeyP,
    KeyCode::KeyQ,
    KeyCode::KeyR,
    KeyCode::KeyS,
    KeyCode::KeyT,
    KeyCode::KeyU,
    KeyCode::KeyV,
    KeyCode::KeyW,
    KeyCode::KeyX,
    KeyCode::KeyY,
    KeyCode::KeyZ,
];

const FKEYS: [KeyCode; 12] = [
    KeyCode::F1,
    KeyCode::F2,
    KeyCode::F3,
    KeyCode::F4,
    KeyCode::F5,
    KeyCode::F6,
    KeyCode::F7,
    KeyCode::F8,
    KeyCode::F9,
    KeyCode::F10,
    KeyCode::F11,
    KeyCode::F12,
];

const LETTER_NAMES: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const F_NAMES: [&str; 12] = [
    "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
];
const DIGIT_NAMES: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// A key's name in bindings (`A`, `7`, `F5`, `Space`…), or `None` for a key that can't be bound.
pub fn key_name(k: KeyCode) -> Option<&'static str> {
    if let Some(i) = LETTERS.iter().position(|x| *x == k) {
        return LETTER_NAMES.get(i..=i);
    }
    if let Some(i) = FKEYS.iter().position(|x| *x == k) {
        return Some(F_NAMES[i]);
    }
    if k == KeyCode::Digit0 {
        return Some("0");
    }
    if let Some(i) = DIGITS.iter().position(|x| *x == k) {
        return Some(DIGIT_NAMES[i + 1]);
    }
    NAMED.iter().find(|(x, _)| *x == k).map(|(_, n)| *n)
}

/// The key a name stands for (case-insensitive for words and letters).
pub fn key_from_name(name: &str) -> Option<KeyCode> {
    let all = LETTERS
        .iter()
        .chain(FKEYS.iter())
        .chain(DIGITS.iter())
        .chain([KeyCode::Digit0].iter())
        .chain(NAMED.iter().map(|(k, _)| k));
    all.copied()
        .find(|k| key_name(*k).is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// The bindings in force: the defaults with the player's changes applied.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Keymap {
    /// Each shortcut's keys.
    pub map: BTreeMap<Shortcut, Vec<Binding>>,
    /// The settings wait for a key to bind to this shortcut: no shortcut fires meanwhile.
    pub capturing: Option<Shortcut>,
    /// What the last rebinding did.
    pub note: Option<KeyNote>,
}

/// What a rebinding did, for the settings window to say.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyNote {
    /// The key is bound; `lost` is the shortcut that had it before.
    Bound {
        /// The key, in words.
        key: String,
        /// The shortcut it was taken from.
        lost: Option<Shortcut>,
    },
    /// That key has no name the settings file could keep.
    Unbindable,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            map: Shortcut::all()
                .into_iter()
                .map(|c| (c, c.defaults()))
                .collect(),
            capturing: None,
            note: None,
        }
    }
}

/// Most keys one command may have.
pub const MAX_KEYS_PER_COMMAND: usize = 4;

impl Keymap {
    /// The defaults with the saved changes (`command → ["Ctrl+Z", …]`); a key that can't be
    /// read keeps the command's default and says why.
    pub fn from_saved(saved: &BTreeMap<Shortcut, Vec<String>>) -> (Keymap, Vec<String>) {
        let mut map = Keymap::default();
        let mut notes = Vec::new();
        for (cmd, keys) in saved {
            let mut parsed = Vec::new();
            let mut ok = true;
            for k in keys.iter().take(MAX_KEYS_PER_COMMAND) {
                match Binding::parse(k) {
                    Ok(b) => parsed.push(b),
                    Err(e) => {
                        notes.push(format!("keys: {cmd:?}: {e}; its default keys kept"));
                        ok = false;
                    }
                }
            }
            if ok {
                map.map.insert(*cmd, parsed);
            }
        }
        (map, notes)
    }
    /// What to save: only the commands whose keys differ from the defaults.
    pub fn to_saved(&self) -> BTreeMap<Shortcut, Vec<String>> {
        self.map
            .iter()
            .filter(|(c, b)| c.defaults() != **b)
            .map(|(c, b)| (*c, b.iter().map(|b| b.to_string()).collect()))
            .collect()
    }
    /// Whether a command fired this frame.
    pub fn just_pressed(&self, c: Shortcut, keys: &ButtonInput<KeyCode>) -> bool {
        self.capturing.is_none()
            && self
                .map
                .get(&c)
                .is_some_and(|bs| bs.iter().any(|b| b.just_pressed(keys)))
    }
    /// Whether a command's key is held.
    pub fn pressed(&self, c: Shortcut, keys: &ButtonInput<KeyCode>) -> bool {
        self.capturing.is_none()
            && self
                .map
                .get(&c)
                .is_some_and(|bs| bs.iter().any(|b| b.pressed(keys)))
    }
    /// A command's keys in English (`Ctrl+Z, Backspace`), or `—`.
    pub fn keys_of(&self, c: Shortcut) -> String {
        self.keys_in(c, &crate::text::Translations::default())
    }
    /// A command's keys in the player's language (`Ctrl+Z, Retour arrière`), or `—`.
    pub fn keys_in(&self, c: Shortcut, tr: &crate::text::Translations) -> String {
        match self.map.get(&c) {
            Some(bs) if !bs.is_empty() => bs
                .iter()
                .map(|b| b.words(tr))
                .collect::<Vec<_>>()
                .join(", "),
            _ => "—".into(),
        }
    }
    /// Binds `b` to `c` in place of its keys; the commands that had `b` lose it. Returns them.
    pub fn rebind(&mut self, c: Shortcut, b: Binding) -> Vec<Shortcut> {
        let mut lost = Vec::new();
        for (other, bs) in self.map.iter_mut() {
            if *other != c && bs.contains(&b) {
                bs.retain(|x| *x != b);
                lost.push(*other);
            }
        }
        self.map.insert(c, vec![b]);
        lost
    }
    /// Pairs of commands that share a key (none in the defaults; a hand-edited file may).
    pub fn conflicts(&self) -> Vec<(Shortcut, Shortcut, Binding)> {
        let mut out = Vec::new();
        let list: Vec<(&Shortcut, &Vec<Binding>)> = self.map.iter().collect();
        for (i, (a, ba)) in list.iter().enumerate() {
            for (b, bb) in &list[i + 1..] {
                for x in ba.iter() {
                    if bb.contains(x) {
                        out.push((**a, **b, *x));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bindable_key_reads_back_from_its_name() {
        for k in LETTERS
            .iter()
            .chain(FKEYS.iter())
            .chain(DIGITS.iter())
            .chain(NAMED.iter().map(|(k, _)| k))
        {
            let name = key_name(*k).expect("named");
            assert_eq!(key_from_name(name), Some(*k), "{name}");
        }
        assert_eq!(key_from_name("space"), Some(KeyCode::Space));
        assert_eq!(key_from_name("q"), Some(KeyCode::KeyQ));
    }

    #[test]
    fn the_defaults_have_no_conflicts_and_cover_every_command() {
        let m = Keymap::default();
        assert_eq!(m.conflicts(), vec![]);
        for c in Shortcut::all() {
            assert!(!c.defaults().is_empty(), "{c:?} has no key");
        }
        assert!(m.to_saved().is_empty());
    }
}
