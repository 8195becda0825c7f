//! Sound: a menu loop, a calm and a tense game loop that crossfade as the portal race
//! tightens, and effects for what the rules report (dice, building, moves, hits, corruption, a
//! unit turning, cards, the portal, research, famine, refusals, victory and defeat). The OGG
//! files are made by `tools/sound/gen_sound.sh` and embedded in the binary. Volumes (master,
//! music, effects, mute) apply live. With no audio device bevy_kira_audio says so once in the
//! log and the game runs silent.

use std::collections::HashMap;
use std::io::Cursor;
use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

use crate::app::settings::Settings;
use crate::content::Camp;
use crate::rules::{ActionRefused, GameEvent, Portal};

/// The menu music channel.
#[derive(Resource)]
pub struct MenuMusic;
/// The calm game music channel.
#[derive(Resource)]
pub struct CalmMusic;
/// The tense game music channel (same tempo and key as the calm one).
#[derive(Resource)]
pub struct TenseMusic;
/// The effects channel.
#[derive(Resource)]
pub struct Effects;

/// A linear gain (0–1) as kira's decibels (silence below -60 dB).
fn db(gain: f32) -> f32 {
    if gain <= 0.001 {
        -60.0
    } else {
        (20.0 * gain.log10()).max(-60.0)
    }
}

/// The decoded sounds, by name (`sfx/dice`, `music/menu`).
#[derive(Resource, Default)]
struct Sounds(HashMap<String, Handle<AudioSource>>);

/// How tense the game is, 0 (calm) to 1 (Chaos about to win), smoothed.
#[derive(Resource, Default)]
struct Tension {
    now: f32,
    started: bool,
    menu: Option<bool>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(AudioPlugin)
        .add_audio_channel::<MenuMusic>()
        .add_audio_channel::<CalmMusic>()
        .add_audio_channel::<TenseMusic>()
        .add_audio_channel::<Effects>()
        .init_resource::<Sounds>()
        .init_resource::<Tension>()
        .add_systems(PreStartup, decode_sounds)
        .add_systems(
            Update,
            (play_music, crossfade_music, play_effects).in_set(super::screens::ViewSet::Draw),
        );
}

fn decode_sounds(mut sounds: ResMut<Sounds>, mut sources: ResMut<Assets<AudioSource>>) {
    for name in [
        "music/menu",
        "music/game_calm",
        "music/game_tense",
        "sfx/dice",
        "sfx/build",
        "sfx/move",
        "sfx/hit",
        "sfx/miss",
        "sfx/corruption",
        "sfx/turn_chaos",
        "sfx/card",
        "sfx/portal",
        "sfx/victory",
        "sfx/defeat",
        "sfx/click",
        "sfx/research",
        "sfx/famine",
        "sfx/error",
    ] {
        let Some(bytes) = super::art::sound_bytes(&format!("audio/{name}.ogg")) else {
            warn!("sound {name}: not embedded");
            continue;
        };
        match StaticSoundData::from_cursor(Cursor::new(bytes)) {
            Ok(sound) => {
                sounds
                    .0
                    .insert(name.to_string(), sources.add(AudioSource { sound }));
            }
            Err(e) => warn!("sound {name}: {e}"),
        }
    }
}

/// Starts the loops: the menu music while the menu is open, both game loops (in step, so they
/// can crossfade) while a game is on.
fn play_music(
    screen: Res<State<super::screens::Screen>>,
    sounds: Res<Sounds>,
    mut tension: ResMut<Tension>,
    menu_ch: Res<AudioChannel<MenuMusic>>,
    calm: Res<AudioChannel<CalmMusic>>,
    tense: Res<AudioChannel<TenseMusic>>,
) {
    let in_menu = *screen.get() == super::screens::Screen::Menu;
    if tension.menu == Some(in_menu) {
        return;
    }
    tension.menu = Some(in_menu);
    let fade = AudioTween::linear(Duration::from_millis(800));
    if in_menu {
        calm.pause().fade_out(fade.clone());
        tense.pause().fade_out(fade.clone());
        menu_ch.stop();
        if let Some(s) = sounds.0.get("music/menu") {
            menu_ch.play(s.clone()).looped().fade_in(fade);
        }
    } else {
        menu_ch.stop().fade_out(fade.clone());
        if tension.started {
            calm.resume().fade_in(fade.clone());
            tense.resume().fade_in(fade);
        } else if let (Some(c), Some(t)) = (
            sounds.0.get("music/game_calm"),
            sounds.0.get("music/game_tense"),
        ) {
            calm.play(c.clone()).looped();
            tense.play(t.clone()).looped().with_volume(-60.0);
            tension.started = true;
        }
    }
}

/// Follows the portal race: the more corruption markers on the power track (and the fewer
/// crystals), the more of the tense loop. Volumes follow the settings.
/// The three music channels.
#[derive(SystemParam)]
struct Channels<'w> {
    menu: Res<'w, AudioChannel<MenuMusic>>,
    calm: Res<'w, AudioChannel<CalmMusic>>,
    tense: Res<'w, AudioChannel<TenseMusic>>,
}

fn crossfade_music(
    world_portal: Option<Res<Portal>>,
    content: Res<crate::content::Content>,
    volumes: Res<Settings>,
    time: Res<Time>,
    mut tension: ResMut<Tension>,
    channels: Channels,
    mut last: Local<Option<(i32, i32, i32)>>,
) {
    let Channels {
        menu: menu_ch,
        calm,
        tense,
    } = channels;
    let target = world_portal.map_or(0.0, |p| {
        let track = content.portal().track.max(1) as f32;
        let race = (p.corruption as f32 * 2.0 - p.power as f32) / track + 0.25;
        race.clamp(0.0, 1.0)
    });
    // Move a tenth of the way each 100 ms: a crossfade of a few seconds.
    let k = (time.delta_secs() * 1.0).min(1.0);
    tension.now += (target - tension.now) * k;
    let music = if volumes.muted {
        0.0
    } else {
        volumes.master * volumes.music
    };
    let levels = (
        db(music),
        db(music * (1.0 - tension.now).sqrt()),
        db(music * tension.now.sqrt()),
    );
    // Send only changes of at least 0.5 dB.
    let key = (
        (levels.0 * 2.0) as i32,
        (levels.1 * 2.0) as i32,
        (levels.2 * 2.0) as i32,
    );
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    menu_ch.set_volume(levels.0);
    calm.set_volume(levels.1);
    tense.set_volume(levels.2);
}

/// A chapter's sounds: the effect (`sfx/move`, one of `assets/audio/sfx/`) for one of its events
/// (`GameEvent::Chapter`, its RON text), if any.
pub type ChapterSounds = fn(&crate::rules::chapter::ChapterValue) -> Option<&'static str>;

/// The chapters' sounds in this app, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterSoundTable(Vec<(&'static str, ChapterSounds)>);

/// Adds a chapter's sounds (adding again replaces them).
pub(super) fn add(app: &mut App, chapter: &'static str, sounds: ChapterSounds) {
    let mut table = app.world_mut().get_resource_or_init::<ChapterSoundTable>();
    table.0.retain(|(c, _)| *c != chapter);
    table.0.push((chapter, sounds));
}

impl ChapterSoundTable {
    /// The effect a chapter plays for one of its events.
    fn sound(
        &self,
        chapter: &str,
        what: &crate::rules::chapter::ChapterValue,
    ) -> Option<&'static str> {
        self.0
            .iter()
            .find(|(c, _)| *c == chapter)
            .and_then(|(_, f)| f(what))
    }
}

/// Plays an effect for what the rules report; each effect at most once per 120 ms, so a burst
/// of AI moves does not pile up.
fn play_effects(
    mut events: MessageReader<GameEvent>,
    mut refused: MessageReader<ActionRefused>,
    (sounds, chapters): (Res<Sounds>, Option<Res<ChapterSoundTable>>),
    volumes: Res<Settings>,
    effects: Res<AudioChannel<Effects>>,
    time: Res<Time>,
    mut recent: Local<HashMap<&'static str, f32>>,
) {
    let mut wanted: Vec<&'static str> = Vec::new();
    for e in events.read() {
        let name = match e {
            GameEvent::Dice { .. } => "sfx/dice",
            GameEvent::Built { .. } | GameEvent::Recruited { .. } => "sfx/build",
            GameEvent::OutpostFounded { .. } => "sfx/build",
            GameEvent::Moved { .. } | GameEvent::Embarked { .. } | GameEvent::Landed { .. } => {
                "sfx/move"
            }
            GameEvent::UnitWounded { .. } => "sfx/hit",
            GameEvent::RoundFought { .. } => "sfx/miss",
            GameEvent::TileCorrupted { .. } | GameEvent::PortalCorrupted { .. } => "sfx/corruption",
            GameEvent::UnitTurned { .. } => "sfx/turn_chaos",
            GameEvent::CardDrawn { .. } | GameEvent::ResearchOffered { .. } => "sfx/card",
            GameEvent::PortalCellBuilt { .. } | GameEvent::PortalPowered { .. } => "sfx/portal",
            GameEvent::ResearchDone { .. } | GameEvent::ArtifactFound { .. } => "sfx/research",
            GameEvent::Famine { .. } => "sfx/famine",
            GameEvent::Chapter { chapter, what } => {
                match chapters.as_ref().and_then(|t| t.sound(chapter, what)) {
                    Some(n) => n,
                    None => continue,
                }
            }
            GameEvent::GameOver { winner, .. } => {
                if *winner == Camp::Eladrins {
                    "sfx/victory"
                } else {
                    "sfx/defeat"
                }
            }
            _ => continue,
        };
        wanted.push(name);
    }
    if refused.read().count() > 0 {
        wanted.push("sfx/error");
    }
    if volumes.muted || wanted.is_empty() {
        return;
    }
    let now = time.elapsed_secs();
    let gain = db(volumes.master * volumes.effects);
    for name in wanted {
        if recent.get(name).is_some_and(|t| now - t < 0.12) {
            continue;
        }
        recent.insert(name, now);
        if let Some(s) = sounds.0.get(name) {
            effects.play(s.clone()).with_volume(gain);
        }
    }
}

/// Keys (rebindable): Ctrl+M mutes, [ and ] lower and raise the master volume.
pub fn volume_keys(
    keys: Res<ButtonInput<KeyCode>>,
    map: Res<crate::app::keys::Keymap>,
    egui: Res<bevy_egui::input::EguiWantsInput>,
    mut volumes: ResMut<Settings>,
) {
    use crate::app::keys::Shortcut;
    if egui.wants_keyboard_input() {
        return;
    }
    if map.just_pressed(Shortcut::Mute, &keys) {
        volumes.muted = !volumes.muted;
    }
    if map.just_pressed(Shortcut::VolumeDown, &keys) {
        volumes.master = (volumes.master - 0.1).max(0.0);
    }
    if map.just_pressed(Shortcut::VolumeUp, &keys) {
        volumes.master = (volumes.master + 0.1).min(1.0);
    }
}
