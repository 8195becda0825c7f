//! The mod manager and mod checker (from the main menu): every mod found, enabled or not, in
//! load order, with up/down to reorder; the checker lists each problem with its severity, mod,
//! file and line, and a *Copy report* button puts the whole report on the clipboard. The list of
//! enabled mods is a setting (saved with the others); the content reloads when it changes.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::app::hot_reload::ModLibrary;
use crate::app::settings::Settings;
use crate::content::Severity;
use crate::content::mods::{self, Manifest};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_mods.run_if(in_state(super::screens::Overlay::Mods)),
    );
}

/// A found mod as the window lists it.
struct Row {
    id: String,
    name: String,
    version: String,
    description: String,
    dir: String,
    cli: bool,
}

fn rows(lib: &ModLibrary) -> Vec<Row> {
    lib.found
        .iter()
        .map(|m| {
            let man: Option<Manifest> = crate::content::parse_ron(&m.manifest).ok();
            let folder = m
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            Row {
                id: man.as_ref().map_or(folder.clone(), |m| m.id.clone()),
                name: man.as_ref().map_or(folder, |m| m.name.clone()),
                version: man.as_ref().map_or(String::new(), |m| m.version.clone()),
                description: man.map_or(String::new(), |m| m.description),
                dir: m.dir.display().to_string(),
                cli: lib.cli.contains(&m.dir),
            }
        })
        .collect()
}

fn severity_color(s: Severity) -> egui::Color32 {
    match s {
        Severity::Error => egui::Color32::from_rgb(230, 90, 80),
        Severity::Warning => egui::Color32::from_rgb(230, 190, 70),
    }
}

fn draw_mods(
    mut contexts: EguiContexts,
    mut screens: super::screens::Screens,
    mut settings: ResMut<Settings>,
    mut lib: ResMut<ModLibrary>,
    tr: Res<crate::text::Translations>,
    mut copied: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let all = rows(&lib);
    egui::Window::new(tr.t("Mods"))
        .id(egui::Id::new("mods"))
        .open(&mut open)
        .default_width(620.0)
        .default_height(480.0)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(tr.f(
                    "Folders: {} — a mod is a folder with a mod.ron (docs/modding.md). Enabled mods load top to bottom, after what they depend on.",
                    &[&mods::mod_dirs()
                        .iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")],
                ))
                .weak(),
            );
            if ui.button(tr.t("Rescan folders")).clicked() {
                lib.rescan = true;
            }
            ui.separator();
            if all.is_empty() && lib.unreadable.is_empty() {
                ui.label(tr.t("No mods found."));
            }
            // Enabled first, in load order, then the others by folder.
            let mut order: Vec<&Row> = settings
                .mods
                .iter()
                .filter_map(|id| all.iter().find(|r| r.id == *id))
                .collect();
            order.extend(
                all.iter()
                    .filter(|r| !settings.mods.contains(&r.id) && r.cli),
            );
            order.extend(
                all.iter()
                    .filter(|r| !settings.mods.contains(&r.id) && !r.cli),
            );
            let mut toggle: Option<String> = None;
            let mut up: Option<usize> = None;
            for row in &order {
                let enabled_at = settings.mods.iter().position(|m| *m == row.id);
                let status = lib.report.mods.iter().find(|m| m.id == row.id);
                ui.horizontal(|ui| {
                    let mut on = enabled_at.is_some() || row.cli;
                    let check = ui.add_enabled(!row.cli, egui::Checkbox::new(&mut on, ""));
                    if check.changed() {
                        toggle = Some(row.id.clone());
                    }
                    let (mark, color) = match status {
                        Some(s) if s.loaded => ("loaded", egui::Color32::from_rgb(110, 200, 120)),
                        Some(_) => ("DISABLED", severity_color(Severity::Error)),
                        None => ("off", egui::Color32::GRAY),
                    };
                    ui.label(egui::RichText::new(tr.t(mark)).color(color).strong());
                    ui.label(egui::RichText::new(&row.name).strong())
                        .on_hover_text(format!("{}\n{}", row.description, row.dir));
                    ui.label(egui::RichText::new(format!("{} {}", row.id, row.version)).weak());
                    if row.cli {
                        ui.label(egui::RichText::new("(--mod)").weak());
                    }
                    if let Some(i) = enabled_at
                        && i > 0
                        && ui.small_button("⬆").on_hover_text(tr.t("Load earlier")).clicked()
                    {
                        up = Some(i);
                    }
                });
            }
            if let Some(id) = toggle {
                if let Some(i) = settings.mods.iter().position(|m| *m == id) {
                    settings.mods.remove(i);
                } else {
                    settings.mods.push(id);
                }
            }
            if let Some(i) = up {
                settings.mods.swap(i - 1, i);
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.heading(tr.t("Mod checker"));
                if ui.button(tr.t("Copy report")).clicked() {
                    ui.ctx().copy_text(lib.report_text());
                    *copied = true;
                }
                // Said here: the menu and its message wait behind this window.
                if *copied {
                    ui.label(
                        egui::RichText::new(tr.t("Mod report copied to the clipboard")).weak(),
                    );
                }
            });
            egui::ScrollArea::vertical()
                .max_height(220.0)
                .show(ui, |ui| {
                    let mut any = false;
                    for m in lib.report.mods.iter().chain(lib.unreadable.iter()) {
                        for p in &m.problems {
                            any = true;
                            let sev = match p.severity {
                                Severity::Error => "error",
                                Severity::Warning => "warning",
                            };
                            ui.horizontal_wrapped(|ui| {
                                ui.label(
                                    egui::RichText::new(tr.t(sev))
                                        .color(severity_color(p.severity))
                                        .strong(),
                                );
                                ui.label(egui::RichText::new(&m.id).strong());
                                ui.label(
                                    egui::RichText::new(format!("{}:{}:{}", p.file, p.line, p.col))
                                        .monospace(),
                                );
                                if !p.field.is_empty() {
                                    ui.label(egui::RichText::new(&p.field).monospace().weak());
                                }
                                ui.label(&p.message);
                            });
                        }
                    }
                    for p in &lib.base_warnings {
                        any = true;
                        ui.label(
                            egui::RichText::new(tr.f("warning base {}", &[p]))
                                .color(severity_color(Severity::Warning)),
                        );
                    }
                    if !any {
                        ui.label(tr.t("No problems in the enabled mods."));
                    }
                    if !lib.notes.is_empty() {
                        ui.separator();
                        ui.label(egui::RichText::new(tr.t("Reloads")).strong());
                        for n in lib.notes.iter().rev().take(8) {
                            ui.label(egui::RichText::new(n).weak());
                        }
                    }
                });
        });
    if !open {
        screens.close(super::screens::Overlay::Mods);
    }
    Ok(())
}
