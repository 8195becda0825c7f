//! The settings window (from the menu) and applying settings live: volumes (read by the sound
//! module), interface scale, window mode and the Chaos turn's speed. Changes are saved a moment
//! after the last one (`settings::save`: atomic, checksummed).

use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::app::settings::{self, Palette, Settings};

pub(super) fn plugin(app: &mut App) {
    let path = settings::settings_path();
    let (s, notes) = settings::load(&path);
    for n in notes {
        warn!("settings: {n}");
    }
    app.insert_resource(s)
        .insert_resource(SettingsFile {
            path,
            dirty_since: None,
        })
        .add_systems(
            Update,
            (apply_settings, save_settings).in_set(super::screens::ViewSet::Commands),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                scale_ui,
                draw_settings.run_if(in_state(super::screens::Overlay::Settings)),
            ),
        );
}

/// The settings file and whether it needs writing.
#[derive(Resource)]
struct SettingsFile {
    path: std::path::PathBuf,
    dirty_since: Option<std::time::Instant>,
}

fn apply_settings(
    s: Res<Settings>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    mut driver: ResMut<super::driver::Driver>,
) {
    if !s.is_changed() {
        return;
    }
    driver.pause = 0.12 / s.animation_speed.clamp(0.25, 4.0);
    for mut w in &mut windows {
        let mode = if s.fullscreen {
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        } else {
            WindowMode::Windowed
        };
        if w.mode != mode {
            w.mode = mode;
        }
    }
}

/// Writes the file half a second after the last change (a dragged slider writes once).
fn save_settings(
    s: Res<Settings>,
    mut file: ResMut<SettingsFile>,
    // A wake at the write: the window may rest meanwhile (the wall clock, as `wake` says).
    mut wake: ResMut<super::wake::Wake>,
) {
    const AFTER: std::time::Duration = std::time::Duration::from_millis(500);
    let now = std::time::Instant::now();
    if s.is_changed() && !s.is_added() {
        file.dirty_since = Some(now);
    }
    let Some(t) = file.dirty_since else { return };
    if now.saturating_duration_since(t) < AFTER {
        wake.at(t + AFTER);
    } else {
        file.dirty_since = None;
        match settings::save(&s, &file.path) {
            Ok(()) => info!("settings saved to {}", file.path.display()),
            Err(e) => warn!("settings: {e}"),
        }
    }
}

fn scale_ui(mut contexts: EguiContexts, s: Res<Settings>, mut styled: Local<bool>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if (ctx.zoom_factor() - s.ui_scale).abs() > 0.001 {
        ctx.set_zoom_factor(s.ui_scale);
    }
    if !*styled {
        *styled = true;
        // Flat windows: wide blurred shadows cost a lot of fill on software renderers and
        // blur the map behind a card.
        ctx.all_styles_mut(|st| {
            st.visuals.window_shadow = egui::Shadow::NONE;
            st.visuals.popup_shadow = egui::Shadow::NONE;
        });
    }
    Ok(())
}

/// Each shortcut with its keys, a button to bind another key (the next one pressed) and one
/// to restore its default; what a change took from another shortcut is said below.
fn key_bindings(
    ui: &mut egui::Ui,
    edit: &mut Settings,
    keymap: &mut crate::app::keys::Keymap,
    tr: &crate::text::Translations,
) {
    use crate::app::keys::{KeyNote, Keymap, Shortcut};
    match &keymap.note {
        Some(KeyNote::Bound { key, lost: Some(l) }) => {
            ui.colored_label(
                egui::Color32::from_rgb(240, 200, 90),
                tr.f("{} was taken from: {}", &[key, &l.words(tr)]),
            );
        }
        Some(KeyNote::Bound { key, lost: None }) => {
            ui.label(tr.f("{} is bound", &[key]));
        }
        Some(KeyNote::Unbindable) => {
            ui.colored_label(egui::Color32::LIGHT_RED, tr.t("That key can't be bound"));
        }
        None => {}
    }
    egui::ScrollArea::vertical()
        .max_height(260.0)
        .show(ui, |ui| {
            egui::Grid::new("key_grid")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    for c in Shortcut::all() {
                        ui.label(c.words(tr));
                        ui.label(
                            egui::RichText::new(keymap.keys_in(c, tr))
                                .monospace()
                                .strong(),
                        );
                        ui.horizontal(|ui| {
                            let waiting = keymap.capturing == Some(c);
                            let text = if waiting {
                                tr.t("press a key… (Esc: cancel)")
                            } else {
                                tr.t("Change")
                            };
                            if ui.selectable_label(waiting, text).clicked() {
                                keymap.capturing = if waiting { None } else { Some(c) };
                                keymap.note = None;
                            }
                            if ui
                                .add_enabled(
                                    keymap.map.get(&c) != Some(&c.defaults()),
                                    egui::Button::new(tr.t("Default")),
                                )
                                .clicked()
                            {
                                let mut m = Keymap::from_saved(&edit.keys).0;
                                m.map.insert(c, c.defaults());
                                edit.keys = m.to_saved();
                            }
                        });
                        ui.end_row();
                    }
                });
        });
    if ui
        .add_enabled(
            !edit.keys.is_empty(),
            egui::Button::new(tr.t("All keys to their defaults")),
        )
        .clicked()
    {
        edit.keys.clear();
        keymap.note = None;
    }
}

fn draw_settings(
    mut contexts: EguiContexts,
    mut screens: super::screens::Screens,
    mut s: ResMut<Settings>,
    tr: Res<crate::text::Translations>,
    mut keymap: ResMut<crate::app::keys::Keymap>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut edit = s.clone();
    egui::Window::new(tr.t("Settings"))
        .id(egui::Id::new("settings"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
                ui.label(tr.t("Language"));
                ui.horizontal(|ui| {
                    for (code, name) in crate::text::LANGUAGES {
                        ui.selectable_value(&mut edit.language, code.to_string(), name);
                    }
                });
                ui.end_row();
                ui.label(tr.t("Master volume"));
                ui.add(egui::Slider::new(&mut edit.master, 0.0..=1.0));
                ui.end_row();
                ui.label(tr.t("Music"));
                ui.add(egui::Slider::new(&mut edit.music, 0.0..=1.0));
                ui.end_row();
                ui.label(tr.t("Effects"));
                ui.add(egui::Slider::new(&mut edit.effects, 0.0..=1.0));
                ui.end_row();
                ui.label(format!(
                    "{} ({})",
                    tr.t("Mute"),
                    keymap.keys_in(crate::app::keys::Shortcut::Mute, &tr)
                ));
                ui.checkbox(&mut edit.muted, "");
                ui.end_row();
                ui.label(tr.t("Interface scale"));
                ui.add(egui::Slider::new(&mut edit.ui_scale, 0.75..=2.0).step_by(0.05));
                ui.end_row();
                ui.label(tr.t("Full screen"));
                ui.checkbox(&mut edit.fullscreen, "");
                ui.end_row();
                ui.label(tr.t("Colours"));
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut edit.palette, Palette::Standard, tr.t("Standard"));
                    ui.selectable_value(
                        &mut edit.palette,
                        Palette::ColorBlindSafe,
                        tr.t("Colour-blind safe"),
                    )
                    .on_hover_text(tr.t("Blue and orange camps, yellow highlights (Okabe–Ito)"));
                });
                ui.end_row();
                ui.label(tr.t("Chaos turn speed"));
                ui.add(egui::Slider::new(&mut edit.animation_speed, 0.25..=4.0).logarithmic(true));
                ui.end_row();
                ui.label(tr.t("Hints (first level, first play of a chapter)"));
                ui.horizontal(|ui| {
                    ui.checkbox(&mut edit.hints, "");
                    if ui
                        .add_enabled(
                            !edit.hints_seen.is_empty(),
                            egui::Button::new(tr.t("Show them again")),
                        )
                        .clicked()
                    {
                        edit.hints_seen.clear();
                    }
                });
                ui.end_row();
            });
            egui::CollapsingHeader::new(tr.t("Keys"))
                .id_salt("keys")
                .show(ui, |ui| key_bindings(ui, &mut edit, &mut keymap, &tr));
            ui.label(
                egui::RichText::new(tr.f("Saved to {}", &[&settings::settings_path().display()]))
                    .weak()
                    .small(),
            );
        });
    if edit != *s {
        *s = edit;
    }
    if !open {
        screens.close(super::screens::Overlay::Settings);
    }
    Ok(())
}
