//! The main menu (new game: level with its description, difficulty and seed; continue from the
//! last autosave; load the quick save; named saves; settings, mods, help, credits; quit), and
//! quick save and load (F5 / F9). Starting or loading a game goes through the rules' own
//! `start_game` and `snapshot::load`; where saves go is `saves.rs`.

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::campaign_ui::{CampaignScreen, Click};
use super::saves::{autosave_dir, quicksave_path, slots_dir};
use super::screens::{Overlay, Screen, Screens, ViewSet};
use crate::content::{Content, ContentDb};
use crate::rules::{Cycle, GameSetup, snapshot};

/// The menu's choices and what it asked for (which screen is shown is `Screen`).
#[derive(Resource)]
pub struct Menu {
    /// Level chosen.
    pub level: String,
    /// Difficulty chosen.
    pub difficulty: String,
    /// Seed.
    pub seed: u64,
    /// Last message (saved, loaded, or why not).
    pub message: String,
    /// The name typed for a named save.
    pub slot_name: String,
    /// The save whose Delete was clicked once (a second click deletes).
    pub confirm_delete: Option<PathBuf>,
    pending: Option<Command>,
}

#[derive(Clone)]
enum Command {
    Start,
    Save,
    Load,
    Continue,
    SaveSlot(String),
    LoadSlot(PathBuf),
    DeleteSlot(PathBuf),
}

impl Default for Menu {
    fn default() -> Self {
        Menu {
            level: "first_light".into(),
            difficulty: "normal".into(),
            seed: 1,
            message: String::new(),
            slot_name: String::new(),
            confirm_delete: None,
            pending: None,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Menu>()
        .add_systems(Update, quick_keys.in_set(ViewSet::Input))
        .add_systems(Update, run_menu_commands.in_set(ViewSet::Commands))
        .add_systems(
            EguiPrimaryContextPass,
            (
                draw_menu.run_if(in_state(Screen::Menu).and_then(in_state(Overlay::None))),
                draw_credits.run_if(in_state(Overlay::Credits)),
            ),
        );
}

fn quick_keys(
    keys: Res<ButtonInput<KeyCode>>,
    map: Res<crate::app::keys::Keymap>,
    mut menu: ResMut<Menu>,
    mut screens: Screens,
) {
    use crate::app::keys::Shortcut;
    if map.just_pressed(Shortcut::QuickSave, &keys) {
        menu.pending = Some(Command::Save);
    }
    if map.just_pressed(Shortcut::QuickLoad, &keys) {
        menu.pending = Some(Command::Load);
    }
    // The hand-off hides the board: the menu (with the game behind it) waits until the next
    // player took the keyboard.
    if map.just_pressed(Shortcut::Menu, &keys) && screens.overlay() != Overlay::HandOff {
        // Over the campaign screen, the key goes back to the main menu in its place.
        screens.go(match screens.screen() {
            Screen::Playing | Screen::Campaign => Screen::Menu,
            Screen::Menu => Screen::Playing,
        });
    }
}

fn run_menu_commands(world: &mut World) {
    let Some(cmd) = world.resource_mut::<Menu>().pending.take() else {
        return;
    };
    let path = quicksave_path();
    let tr = world.resource::<crate::text::Translations>().clone();
    let play = |world: &mut World| super::screens::go(world, Screen::Playing);
    let message = match cmd {
        Command::Start => {
            let (level, difficulty, seed) = {
                let m = world.resource::<Menu>();
                (m.level.clone(), m.difficulty.clone(), m.seed)
            };
            let players = world.resource::<GameSetup>().players.clone();
            // Content that changed in a way the last game couldn't take applies now.
            crate::app::hot_reload::apply_pending(world);
            match crate::rules::setup::start_game_for(
                world,
                &level,
                Some(&difficulty),
                seed,
                &players,
            ) {
                Ok(()) => {
                    play(world);
                    tr.f("New game: {}, {}, seed {}", &[&level, &difficulty, &seed])
                }
                Err(e) => e,
            }
        }
        Command::Save => match snapshot::save(world, &path) {
            Ok(()) => tr.f("Saved to {}", &[&path.display()]),
            Err(e) => e,
        },
        Command::Continue => match snapshot::latest_autosave(&autosave_dir()) {
            (Some((p, s)), skipped) => match snapshot::restore(world, &s) {
                Ok(()) => {
                    play(world);
                    let mut m = tr.f("Continued from {}", &[&p.display()]);
                    m.push_str(&older_rules(world, &tr));
                    for e in skipped {
                        m.push_str(&tr.f(" (skipped a damaged autosave: {})", &[&e]));
                    }
                    m
                }
                Err(e) => tr.f("Nothing loaded: {}: {}", &[&p.display(), &e]),
            },
            (None, skipped) if skipped.is_empty() => tr.t("No autosave yet").into_owned(),
            (None, skipped) => tr.f("No autosave could be read: {}", &[&skipped.join("; ")]),
        },
        Command::SaveSlot(name) => match snapshot::slot_path(&slots_dir(), &name) {
            Ok(p) => match snapshot::save(world, &p) {
                Ok(()) => tr.f("Saved as “{}”", &[&name.trim()]),
                Err(e) => e,
            },
            Err(e) => tr.f("Not saved: {}", &[&e]),
        },
        Command::LoadSlot(p) => match snapshot::load(world, &p) {
            Ok(()) => {
                play(world);
                tr.f("Loaded {}", &[&p.display()]) + &older_rules(world, &tr)
            }
            Err(e) => tr.f("Nothing loaded: {}", &[&e]),
        },
        Command::DeleteSlot(p) => match std::fs::remove_file(&p) {
            Ok(()) => tr.f("Deleted {}", &[&p.display()]),
            Err(e) => tr.f("Not deleted: {}: {}", &[&p.display(), &e]),
        },
        Command::Load => match snapshot::load(world, &path) {
            Ok(()) => {
                play(world);
                tr.f("Loaded {}", &[&path.display()]) + &older_rules(world, &tr)
            }
            Err(e) => tr.f("Nothing loaded: {}", &[&e]),
        },
    };
    info!("{message}");
    world.resource_mut::<Menu>().message = message;
}

/// What the menu window reads besides its own choices.
#[derive(SystemParam)]
struct MenuView<'w> {
    content: Res<'w, Content>,
    cycle: Res<'w, Cycle>,
    tr: Res<'w, crate::text::Translations>,
    keymap: Res<'w, crate::app::keys::Keymap>,
    time: Res<'w, Time>,
}

/// What the menu last saw on the disk: when, an autosave, a quick save, the named saves (the
/// disk is looked at twice a second, not every frame).
#[derive(Default)]
struct SavesSeen {
    at: Option<(f32, bool, bool)>,
    slots: Vec<snapshot::SlotInfo>,
}

fn draw_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<Menu>,
    view: MenuView,
    mut screens: Screens,
    mut campaign: ResMut<CampaignScreen>,
    mut exit: MessageWriter<AppExit>,
    mut seen: Local<SavesSeen>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let db = &view.content.0;
    let tr = &*view.tr;
    let in_game = view.cycle.number > 0;
    egui::Window::new("Chaos Outpost")
        .id(egui::Id::new("menu"))
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(-150.0, 0.0))
        .collapsible(false)
        .resizable(false)
        .min_width(460.0)
        // Its buttons wrap rather than widen it over the side panel (French's are longer).
        .max_width(740.0)
        .show(ctx, |ui| {
            new_game(ui, &mut menu, db, tr);
            let now = view.time.elapsed_secs();
            if seen.at.is_none_or(|(t, ..)| now - t > 0.5) {
                seen.at = Some((
                    now,
                    !snapshot::autosaves(&autosave_dir()).is_empty(),
                    quicksave_path().is_file(),
                ));
                // Only new or changed saves are read again.
                seen.slots = snapshot::slots_since(&slots_dir(), &seen.slots);
            }
            let (_, has_auto, has_save) = seen.at.unwrap_or_default();
            match buttons(ui, &mut menu, tr, has_auto, has_save, in_game) {
                Some(Asked::Quit) => {
                    exit.write(AppExit::Success);
                }
                Some(Asked::Campaign) => campaign.ask(Click::Open),
                Some(Asked::Back) => screens.go(Screen::Playing),
                Some(Asked::Open(o)) => screens.toggle(o),
                None => {}
            }
            if saves(ui, &mut menu, tr, &seen.slots, in_game) {
                // Show the change at once, not after the next look at the disk.
                seen.at = None;
            }
            keys_footer(ui, tr, &view.keymap);
            if !menu.message.is_empty() {
                ui.label(&menu.message);
            }
        });
    Ok(())
}

/// The new game's choices: level (with its description), difficulty (with what this level
/// changes for it), seed.
fn new_game(ui: &mut egui::Ui, menu: &mut Menu, db: &ContentDb, tr: &crate::text::Translations) {
    ui.heading(tr.t("New game"));
    for (id, l) in &db.levels {
        if ui.radio(menu.level == *id, tr.t(&l.name)).clicked() {
            menu.level = id.clone();
            menu.difficulty = l.difficulty.clone();
        }
    }
    if let Some(l) = db.levels.get(&menu.level) {
        ui.label(egui::RichText::new(tr.t(&l.description)).italics());
    }
    ui.horizontal(|ui| {
        ui.label(tr.t("Difficulty:"));
        for d in &db.set.difficulties {
            let on = menu.difficulty == d.id;
            if ui
                .selectable_label(on, tr.t(&d.name))
                .on_hover_text({
                    // The difficulty's text, then what this level changes, each
                    // translated on its own.
                    let mut text = tr.t(&d.text).into_owned();
                    if let Some(t) = db
                        .levels
                        .get(&menu.level)
                        .and_then(|l| l.difficulty_tweaks.get(&d.id))
                        .filter(|t| !t.text.is_empty())
                    {
                        text.push(' ');
                        text.push_str(&tr.f("On this level: {}", &[&tr.t(&t.text)]));
                    }
                    text
                })
                .clicked()
            {
                menu.difficulty = d.id.clone();
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label(tr.t("Seed:"));
        ui.add(egui::DragValue::new(&mut menu.seed));
    });
}

/// A button the menu's caller acts on.
enum Asked {
    Quit,
    Campaign,
    Back,
    Open(Overlay),
}

/// The row of buttons: start, campaign, continue, load, back, settings, mods, help, credits,
/// quit.
fn buttons(
    ui: &mut egui::Ui,
    menu: &mut Menu,
    tr: &crate::text::Translations,
    has_auto: bool,
    has_save: bool,
    in_game: bool,
) -> Option<Asked> {
    let mut asked = None;
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr.t("Start")).clicked() {
            menu.pending = Some(Command::Start);
        }
        if ui.button(tr.t("Campaign")).clicked() {
            asked = Some(Asked::Campaign);
        }
        if ui
            .add_enabled(
                has_auto,
                egui::Button::new(tr.t("Continue (last autosave)")),
            )
            .clicked()
        {
            menu.pending = Some(Command::Continue);
        }
        if ui
            .add_enabled(has_save, egui::Button::new(tr.t("Load quick save")))
            .clicked()
        {
            menu.pending = Some(Command::Load);
        }
        if in_game && ui.button(tr.t("Back to the game")).clicked() {
            asked = Some(Asked::Back);
        }
        for (label, overlay) in [
            (tr.t("Settings"), Overlay::Settings),
            (tr.t("Mods"), Overlay::Mods),
            (tr.t("Help"), Overlay::Help),
            (tr.t("Credits"), Overlay::Credits),
        ] {
            if ui.button(label).clicked() {
                asked = Some(Asked::Open(overlay));
            }
        }
        if ui.button(tr.t("Quit")).clicked() {
            asked = Some(Asked::Quit);
        }
    });
    asked
}

/// The named saves: a name and Save, then each slot with Load and Delete (asked twice). True
/// when a save or delete was asked for.
fn saves(
    ui: &mut egui::Ui,
    menu: &mut Menu,
    tr: &crate::text::Translations,
    slots_seen: &[snapshot::SlotInfo],
    in_game: bool,
) -> bool {
    let mut changed = false;
    ui.separator();
    ui.heading(tr.t("Saves"));
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut menu.slot_name)
                .hint_text(tr.t("name this game"))
                .char_limit(snapshot::MAX_SLOT_NAME)
                .desired_width(200.0),
        );
        let can = in_game && !menu.slot_name.trim().is_empty();
        if ui
            .add_enabled(can, egui::Button::new(tr.t("Save")))
            .clicked()
        {
            menu.pending = Some(Command::SaveSlot(menu.slot_name.clone()));
            changed = true;
        }
    });
    egui::ScrollArea::vertical()
        .max_height(140.0)
        .show(ui, |ui| {
            for slot in slots_seen.iter() {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(&slot.name).strong());
                    match &slot.summary {
                        Ok(s) => {
                            ui.label(egui::RichText::new(s).weak());
                            if ui.small_button(tr.t("Load")).clicked() {
                                menu.pending = Some(Command::LoadSlot(slot.path.clone()));
                            }
                        }
                        Err(e) => {
                            ui.label(
                                egui::RichText::new(tr.t("damaged"))
                                    .color(egui::Color32::LIGHT_RED),
                            )
                            .on_hover_text(e);
                        }
                    }
                    if menu.confirm_delete.as_ref() == Some(&slot.path) {
                        if ui
                            .small_button(
                                egui::RichText::new(tr.t("Really delete"))
                                    .color(egui::Color32::LIGHT_RED),
                            )
                            .clicked()
                        {
                            menu.pending = Some(Command::DeleteSlot(slot.path.clone()));
                            menu.confirm_delete = None;
                            changed = true;
                        }
                    } else if ui.small_button(tr.t("Delete")).clicked() {
                        menu.confirm_delete = Some(slot.path.clone());
                    }
                });
            }
            if slots_seen.is_empty() {
                ui.label(egui::RichText::new(tr.t("No named saves yet.")).weak());
            }
        });
    changed
}

/// The keys in force (they can be rebound), not the defaults.
fn keys_footer(
    ui: &mut egui::Ui,
    tr: &crate::text::Translations,
    keymap: &crate::app::keys::Keymap,
) {
    use crate::app::keys::Shortcut as K;
    let keys = [
        (K::Help, tr.t("help")),
        (K::QuickSave, tr.t("quick save")),
        (K::QuickLoad, tr.t("quick load")),
        (K::Undo, tr.t("undo")),
        (K::Menu, tr.t("menu")),
    ]
    .iter()
    .map(|(k, what)| format!("{} {what}", keymap.keys_in(*k, tr)))
    .collect::<Vec<_>>()
    .join(" · ");
    ui.label(egui::RichText::new(keys).weak());
}

/// The art credits (`assets/art/CREDITS.md`), embedded.
const ART_CREDITS: &str = include_str!("../../assets/art/CREDITS.md");
/// The sound credits (`assets/audio/CREDITS.md`), embedded.
const AUDIO_CREDITS: &str = include_str!("../../assets/audio/CREDITS.md");

/// Who made what: a summary in the player's language, then the full credit files.
fn draw_credits(
    mut contexts: EguiContexts,
    mut screens: Screens,
    tr: Res<crate::text::Translations>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new(tr.t("Credits"))
        .id(egui::Id::new("credits"))
        .open(&mut open)
        .default_width(560.0)
        .default_height(440.0)
        .show(ctx, |ui| {
            ui.label(tr.t("Chaos Outpost: a digital adaptation of a tactical board game, its rules in the help (R1–R9)."));
            ui.label(tr.t("Terrain textures, overlays and the logo's badge: generated by the project's own script (tools/art)."));
            ui.label(tr.t("Icons: game-icons.net, CC BY 3.0, by Lorc, Delapouite, Skoll, Carl Olsen, HeavenlyDog, Sbed and Faithtoken."));
            ui.label(tr.t("Music and sound effects: synthesised from scratch by the project's own scripts (tools/sound), CC0."));
            ui.label(tr.t("Made with Bevy, egui (bevy_egui), kira (bevy_kira_audio), hexx, pathfinding, serde and RON."));
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                let titles = [tr.t("Art"), tr.t("Sound")];
                for (title, text) in titles.iter().zip([ART_CREDITS, AUDIO_CREDITS]) {
                    egui::CollapsingHeader::new(title.as_ref())
                        .id_salt(title)
                        .show(ui, |ui| {
                            ui.label(egui::RichText::new(text).small().monospace());
                        });
                }
            });
        });
    if !open {
        screens.close(Overlay::Credits);
    }
    Ok(())
}

/// A word after loading a game begun under older rules: it plays on under them
/// (`rules::version`), so the player knows why a fix does not show in it.
fn older_rules(world: &World, tr: &crate::text::Translations) -> String {
    use crate::rules::GameWorld;
    let r = world.rules();
    if r == crate::rules::version::Rules::CURRENT {
        return String::new();
    }
    tr.f(
        " (begun under rules version {}: it plays on under those rules, as it was recorded)",
        &[&r.0],
    )
}
