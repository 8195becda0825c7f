//! The main menu (new game: level with its description, difficulty and seed; continue from the
//! last autosave; load the quick save; quit), quick save and load (F5 / F9), an autosave at the
//! start of every cycle (the last 5 kept; all written atomically), and the result screen.
//! Starting or loading a game goes through the rules' own `start_game` and `snapshot::load`.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::content::{Content, ContentDb};
use crate::rules::{Cycle, GameSetup, Outcome, Research, snapshot};

/// The menu's state and what it asked for.
#[derive(Resource)]
pub struct Menu {
    /// Shown.
    pub open: bool,
    /// Level chosen.
    pub level: String,
    /// Difficulty chosen.
    pub difficulty: String,
    /// Seed.
    pub seed: u64,
    /// Last message (saved, loaded, or why not).
    pub message: String,
    /// The settings window is shown.
    pub settings_open: bool,
    /// The mods window is shown.
    pub mods_open: bool,
    /// The credits window is shown.
    pub credits_open: bool,
    /// The campaign screen is shown (`campaign_ui`).
    pub campaign: bool,
    /// The Campaign button was clicked: the campaign screen opens next frame.
    pub campaign_asked: bool,
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

/// Where named saves go: `saves/` in the data folder.
pub fn slots_dir() -> PathBuf {
    crate::ground::paths::data_dir().join("saves")
}

/// Autosaves kept (one per cycle).
const AUTOSAVES_KEPT: usize = 5;

/// Where autosaves go: beside the quick save, in `autosave/`.
pub fn autosave_dir() -> PathBuf {
    quicksave_path()
        .parent()
        .map(|p| p.join("autosave"))
        .unwrap_or_else(|| PathBuf::from("autosave"))
}

/// Autosaves when a new cycle begins (not in the menu's idle game, not after the end).
fn autosave_each_cycle(world: &mut World, mut last: Local<u32>) {
    let n = world.resource::<Cycle>().number;
    if n == *last || n == 0 || world.resource::<Outcome>().winner.is_some() {
        *last = n;
        return;
    }
    *last = n;
    // Not the game behind the menu or the campaign screen (it would crowd out the autosaves
    // of the game the player left there).
    let m = world.resource::<Menu>();
    if m.open || m.campaign {
        return;
    }
    match snapshot::autosave(world, &autosave_dir(), AUTOSAVES_KEPT) {
        Ok(p) => info!("autosaved {}", p.display()),
        Err(e) => warn!("autosave failed: {e}"),
    }
}

impl Default for Menu {
    fn default() -> Self {
        Menu {
            open: false,
            level: "first_light".into(),
            difficulty: "normal".into(),
            seed: 1,
            message: String::new(),
            settings_open: false,
            mods_open: false,
            credits_open: false,
            campaign: false,
            campaign_asked: false,
            slot_name: String::new(),
            confirm_delete: None,
            pending: None,
        }
    }
}

/// Where the quick save lives: the platform's data directory (`$XDG_DATA_HOME/chaos-outpost`,
/// else `~/.local/share/chaos-outpost` on Linux).
pub fn quicksave_path() -> PathBuf {
    crate::ground::paths::data_dir().join("quicksave.ron")
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Menu>()
        .add_systems(
            Update,
            (quick_keys, run_menu_commands, autosave_each_cycle).chain(),
        )
        .add_systems(EguiPrimaryContextPass, (draw_menu, draw_credits));
}

fn quick_keys(
    keys: Res<ButtonInput<KeyCode>>,
    map: Res<crate::app::keys::Keymap>,
    mut menu: ResMut<Menu>,
) {
    use crate::app::keys::Shortcut;
    if map.just_pressed(Shortcut::QuickSave, &keys) {
        menu.pending = Some(Command::Save);
    }
    if map.just_pressed(Shortcut::QuickLoad, &keys) {
        menu.pending = Some(Command::Load);
    }
    if map.just_pressed(Shortcut::Menu, &keys) {
        // Over the campaign screen, the key goes back to the main menu in its place.
        if menu.campaign {
            menu.campaign = false;
            menu.open = true;
        } else {
            menu.open = !menu.open;
        }
    }
}

fn run_menu_commands(world: &mut World) {
    let Some(cmd) = world.resource_mut::<Menu>().pending.take() else {
        return;
    };
    let path = quicksave_path();
    let tr = world.resource::<crate::text::Translations>().clone();
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
                    world.resource_mut::<Menu>().open = false;
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
                    world.resource_mut::<Menu>().open = false;
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
                world.resource_mut::<Menu>().open = false;
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
                world.resource_mut::<Menu>().open = false;
                tr.f("Loaded {}", &[&path.display()]) + &older_rules(world, &tr)
            }
            Err(e) => tr.f("Nothing loaded: {}", &[&e]),
        },
    };
    info!("{message}");
    world.resource_mut::<Menu>().message = message;
}

/// The menu's other resources: help, words, keys, the campaign a chapter game belongs to.
type MenuRes<'w> = (
    ResMut<'w, super::help::Help>,
    Res<'w, crate::text::Translations>,
    Res<'w, crate::app::keys::Keymap>,
    Res<'w, crate::rules::campaign::CampaignRun>,
);

#[allow(clippy::too_many_arguments)]
fn draw_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<Menu>,
    content: Res<Content>,
    outcome: Res<Outcome>,
    cycle: Res<Cycle>,
    research: Res<Research>,
    history: Res<super::cards::History>,
    mut exit: MessageWriter<AppExit>,
    time: Res<Time>,
    mut saves_seen: Local<Option<(f32, bool, bool)>>,
    mut slots_seen: Local<Vec<snapshot::SlotInfo>>,
    (mut help, tr, keymap, campaign_run): MenuRes,
    (cache, setup): (Res<super::cache::ViewCache>, Res<crate::rules::GameSetup>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // A campaign chapter's end has a window of its own (campaign_ui).
    if let Some(w) = outcome.winner
        && !menu.open
        && !menu.campaign
        && campaign_run.is_none()
    {
        let glory = seats_glory(&setup.players, &cache.glory);
        the_end(
            ctx, &mut menu, &tr, w, &outcome, &research, &history, &glory,
        );
    }
    if !menu.open {
        return Ok(());
    }
    let db = &content.0;
    egui::Window::new("Chaos Outpost")
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(-150.0, 0.0))
        .collapsible(false)
        .resizable(false)
        .min_width(460.0)
        // Its buttons wrap rather than widen it over the side panel (French's are longer).
        .max_width(740.0)
        .show(ctx, |ui| {
            new_game(ui, &mut menu, db, &tr);
            // Look at the disk twice a second, not every frame.
            let now = time.elapsed_secs();
            if saves_seen.is_none_or(|(t, ..)| now - t > 0.5) {
                *saves_seen = Some((
                    now,
                    !snapshot::autosaves(&autosave_dir()).is_empty(),
                    quicksave_path().is_file(),
                ));
                // Only new or changed saves are read again.
                *slots_seen = snapshot::slots_since(&slots_dir(), &slots_seen);
            }
            let (_, has_auto, has_save) = saves_seen.unwrap_or_default();
            let open = buttons(ui, &mut menu, &tr, has_auto, has_save, cycle.number > 0);
            if open.help {
                help.open = !help.open;
            }
            if open.quit {
                exit.write(AppExit::Success);
            }
            if saves(ui, &mut menu, &tr, &slots_seen, cycle.number > 0) {
                // Show the change at once, not after the next look at the disk.
                *saves_seen = None;
            }
            keys_footer(ui, &tr, &keymap);
            if !menu.message.is_empty() {
                ui.label(&menu.message);
            }
        });
    Ok(())
}

/// A window over a game that ended: in front of everything, over the map's centre, but it can
/// be folded or dragged aside to look at the map.
pub(super) fn end_window<'a>(ctx: &egui::Context, title: &str, id: &str) -> egui::Window<'a> {
    let map_centre = ctx.content_rect().center() - egui::vec2(200.0, 0.0);
    egui::Window::new(title.to_string())
        .id(egui::Id::new(id))
        .order(egui::Order::Foreground)
        .default_pos(map_centre)
        .pivot(egui::Align2::CENTER_CENTER)
        .collapsible(true)
        .resizable(false)
}

/// Each seat's name with its glory, the most first (ties in seat order); empty where no
/// chapter counts glory.
pub(super) fn seats_glory(players: &[String], glory: &[u32]) -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = glory
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let name = players.get(i).cloned().unwrap_or_else(|| "Eladrins".into());
            (name, *g)
        })
        .collect();
    v.sort_by_key(|(_, g)| std::cmp::Reverse(*g));
    v
}

/// Each seat's glory, one line each, the most first: each seat's own score in co-op.
pub(super) fn glory_lines(
    ui: &mut egui::Ui,
    tr: &crate::text::Translations,
    glory: &[(String, u32)],
) {
    if glory.is_empty() {
        return;
    }
    ui.separator();
    ui.label(egui::RichText::new(tr.t("Each seat's glory")).strong());
    let top = glory.first().map(|(_, g)| *g);
    egui::Grid::new("glory").num_columns(2).show(ui, |ui| {
        for (name, g) in glory {
            let text = egui::RichText::new(name.as_str());
            ui.label(if Some(*g) == top && *g > 0 {
                text.strong().color(egui::Color32::from_rgb(240, 200, 90))
            } else {
                text
            });
            ui.label(tr.f("{} glory", &[g]));
            ui.end_row();
        }
    });
}

/// The end-of-game window: victory or defeat, why, each seat's glory, the game's chart, back
/// to the menu.
#[allow(clippy::too_many_arguments)]
fn the_end(
    ctx: &egui::Context,
    menu: &mut Menu,
    tr: &crate::text::Translations,
    w: crate::content::Camp,
    outcome: &Outcome,
    research: &Research,
    history: &super::cards::History,
    glory: &[(String, u32)],
) {
    end_window(ctx, &tr.t("The end"), "the_end").show(ctx, |ui| {
        ui.heading(crate::text::end_headline(tr, w, outcome.reason.as_ref()));
        if let Some(r) = &outcome.reason {
            ui.label(r.words(tr));
        }
        ui.label(tr.f(
            "After {} cycles, {} technologies researched.",
            &[&outcome.cycle, &research.done.len()],
        ));
        glory_lines(ui, tr, glory);
        super::cards::chart(ui, &history.0, tr);
        if ui.button(tr.t("Main menu")).clicked() {
            menu.open = true;
        }
    });
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

/// Buttons the menu's caller acts on.
struct Asked {
    help: bool,
    quit: bool,
}

/// The row of buttons: start, continue, load, back, settings, mods, help, credits, quit.
fn buttons(
    ui: &mut egui::Ui,
    menu: &mut Menu,
    tr: &crate::text::Translations,
    has_auto: bool,
    has_save: bool,
    in_game: bool,
) -> Asked {
    let mut asked = Asked {
        help: false,
        quit: false,
    };
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr.t("Start")).clicked() {
            menu.pending = Some(Command::Start);
        }
        if ui.button(tr.t("Campaign")).clicked() {
            menu.campaign_asked = true;
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
            menu.open = false;
        }
        if ui.button(tr.t("Settings")).clicked() {
            menu.settings_open = !menu.settings_open;
        }
        if ui.button(tr.t("Mods")).clicked() {
            menu.mods_open = !menu.mods_open;
        }
        if ui.button(tr.t("Help")).clicked() {
            asked.help = true;
        }
        if ui.button(tr.t("Credits")).clicked() {
            menu.credits_open = !menu.credits_open;
        }
        if ui.button(tr.t("Quit")).clicked() {
            asked.quit = true;
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
    mut menu: ResMut<Menu>,
    tr: Res<crate::text::Translations>,
) -> Result {
    if !menu.credits_open {
        return Ok(());
    }
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
        menu.credits_open = false;
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
