//! In-game help (F1, or *Help* in the menu): the key bindings, and the rules R1–R9 in English or
//! French (`assets/help/rules.*.md`, embedded), then the rules of each chapter of the app (a
//! chapter gives its own section, `add_chapter_help`: "## D The Dragoness", lines "- D1 …").
//! A refusal
//! that cites a rule ("R9.1: an enemy unit is on this tile", "D6: the Gate is sealed") gets a
//! button that opens the reference at that rule, highlighted.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::screens::{Overlay, Screens, ViewSet};
use crate::app::settings::Settings;

/// The rules in English.
pub const RULES_EN: &str = include_str!("../../assets/help/rules.en.md");
/// The rules in French.
pub const RULES_FR: &str = include_str!("../../assets/help/rules.fr.md");

/// The chapters' help texts in this app: (chapter, English, French), each one `## X …` section
/// whose rules are numbered with its letter.
#[derive(Resource, Default, Clone, Debug)]
pub struct ChapterHelp(Vec<(&'static str, &'static str, &'static str)>);

/// Adds a chapter's rules to the help, after the core's (adding again replaces them).
pub(super) fn add(app: &mut App, chapter: &'static str, en: &'static str, fr: &'static str) {
    app.world_mut()
        .get_resource_or_init::<ChapterHelp>()
        .add(chapter, en, fr);
}

impl ChapterHelp {
    fn add(&mut self, chapter: &'static str, en: &'static str, fr: &'static str) {
        self.0.retain(|(c, _, _)| *c != chapter);
        self.0.push((chapter, en, fr));
    }
}

/// The rules in a language: the core's, then the chapters' sections.
pub fn rules_text(chapters: &ChapterHelp, fr: bool) -> String {
    let mut text = String::from(if fr { RULES_FR } else { RULES_EN });
    for (_, en, f) in &chapters.0 {
        text.push('\n');
        text.push_str(if fr { f } else { en });
    }
    text
}

/// The letters rules are numbered with: R for the core, each chapter's own.
fn rule_letters(chapters: &ChapterHelp) -> Vec<u8> {
    let mut v = vec![b'R'];
    for (_, en, _) in &chapters.0 {
        for line in en.lines() {
            if let Some(h) = line.strip_prefix("## ")
                && let [c] = h.split_whitespace().next().unwrap_or("").as_bytes()
                && c.is_ascii_uppercase()
                && !v.contains(c)
            {
                v.push(*c);
            }
        }
    }
    v
}

/// The keys and what they do, as the help screen lists them.
pub const MOUSE: [(&str, &str, &str); 4] = [
    (
        "Left click",
        "select a tile, its army and its outpost",
        "choisir une case, son armée et son avant-poste",
    ),
    (
        "Right click",
        "the selected army activates and moves there (R9.4)",
        "l'armée choisie s'active et s'y rend (R9.4)",
    ),
    (
        "Wheel, middle drag, screen edges",
        "zoom, pan the map",
        "zoom, déplacer la vue",
    ),
    (
        "Hover",
        "a tile's terrain, yields and the odds Chaos corrupts it (R6.2)",
        "terrain, production et chances que le Chaos la corrompe (R6.2)",
    ),
];

/// Which tab the help shows, and which rule (it is shown as `Overlay::Help`).
#[derive(Resource, Default)]
pub struct Help {
    /// The rules tab (else the keys).
    pub rules_tab: bool,
    /// A rule to scroll to and highlight (`R9.1`).
    pub focus: Option<String>,
    /// Scrolled there already.
    scrolled: bool,
}

impl Help {
    /// Turns to the rules at `rule` (the caller opens the help: `Overlay::Help`).
    pub fn show_rule(&mut self, rule: &str) {
        self.rules_tab = true;
        self.focus = Some(rule.to_string());
        self.scrolled = false;
    }
}

/// One section of the rules: id (`R5`), title, and its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// `R5`.
    pub id: String,
    /// The heading.
    pub title: String,
    /// The lines under it.
    pub lines: Vec<String>,
}

/// Splits a rules text into its `## R…` sections (the text before the first is the preface).
pub fn sections(text: &str) -> (Vec<String>, Vec<Section>) {
    let mut preface = Vec::new();
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            let id = h.split_whitespace().next().unwrap_or("").to_string();
            out.push(Section {
                id,
                title: h.to_string(),
                lines: Vec::new(),
            });
        } else if line.starts_with("# ") {
            continue;
        } else if let Some(s) = out.last_mut() {
            // A wrapped line continues the bullet above it: one paragraph, wrapped by egui.
            let continues = line.starts_with("  ") && !line.trim_start().starts_with("- ");
            match s.lines.last_mut() {
                Some(prev) if continues && !prev.trim().is_empty() => {
                    prev.push(' ');
                    prev.push_str(line.trim());
                }
                _ => s.lines.push(line.to_string()),
            }
        } else if !line.trim().is_empty() {
            preface.push(line.to_string());
        }
    }
    (preface, out)
}

/// The rule a text cites first (`R9.1`, `R5`, a chapter's `D4`), if any.
pub fn cited_rule(text: &str, chapters: &ChapterHelp) -> Option<String> {
    let letters = rule_letters(chapters);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if letters.contains(&b[i])
            && starts_word
            && b.get(i + 1).is_some_and(|c| c.is_ascii_digit())
        {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(|c| c.is_ascii_digit()) {
                j += 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
            }
            return Some(text[i..j].to_string());
        }
        i += 1;
    }
    None
}

/// A 📖 button for the rule `text` cites, if it cites one; true when clicked (the caller opens
/// the help there with `Help::show_rule`).
pub fn rule_button(
    ui: &mut egui::Ui,
    text: &str,
    tr: &crate::text::Translations,
    chapters: &ChapterHelp,
) -> Option<String> {
    let rule = cited_rule(text, chapters)?;
    ui.small_button(format!("📖 {rule}"))
        .on_hover_text(tr.t("Open the rules here"))
        .clicked()
        .then_some(rule)
}

/// The section a rule belongs to (`R9.1` → `R9`; a chapter's `D4` → `D`, its one section).
fn section_of(rule: &str) -> &str {
    if rule.starts_with('R') {
        rule.split('.').next().unwrap_or(rule)
    } else {
        rule.trim_end_matches(|c: char| c.is_ascii_digit())
    }
}

/// A rule of its own line, highlighted when cited: a core rule with a point (`R9.1`), or any
/// chapter rule (`D4`: its section holds all of them).
fn is_line_rule(rule: &str) -> bool {
    rule.contains('.') || !rule.starts_with('R')
}

/// Whether a line of the rules states `rule` (`D1` does not state `D13`).
fn states(line: &str, rule: &str) -> bool {
    line.trim_start()
        .trim_start_matches("- ")
        .strip_prefix(rule)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Help>()
        .init_resource::<ChapterHelp>()
        .add_systems(Update, help_key.in_set(ViewSet::Input))
        .add_systems(
            EguiPrimaryContextPass,
            draw_help.run_if(in_state(Overlay::Help)),
        );
}

fn help_key(
    keys: Res<ButtonInput<KeyCode>>,
    map: Res<crate::app::keys::Keymap>,
    mut screens: Screens,
) {
    if map.just_pressed(crate::app::keys::Shortcut::Help, &keys) {
        screens.toggle(Overlay::Help);
    }
}

/// Markdown emphasis removed, for a plain label.
fn plain(s: &str) -> String {
    s.replace("**", "").replace('*', "")
}

fn draw_help(
    mut contexts: EguiContexts,
    mut help: ResMut<Help>,
    mut settings: ResMut<Settings>,
    keymap: Res<crate::app::keys::Keymap>,
    tr: Res<crate::text::Translations>,
    chapters: Res<ChapterHelp>,
    mut screens: Screens,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let fr = settings.language == "fr";
    let mut open = true;
    let title = if fr { "Aide" } else { "Help" };
    egui::Window::new(title)
        .id(egui::Id::new("help"))
        .open(&mut open)
        .default_width(620.0)
        .default_height(520.0)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let keys = if fr { "Touches" } else { "Keys" };
                let rules = if fr { "Règles" } else { "Rules" };
                if ui.selectable_label(!help.rules_tab, keys).clicked() {
                    help.rules_tab = false;
                }
                if ui.selectable_label(help.rules_tab, rules).clicked() {
                    help.rules_tab = true;
                }
                ui.separator();
                // The language switches live for the whole game.
                if ui.selectable_label(!fr, "English").clicked() && fr {
                    settings.language = "en".into();
                }
                if ui.selectable_label(fr, "Français").clicked() && !fr {
                    settings.language = "fr".into();
                }
            });
            ui.separator();
            if !help.rules_tab {
                // The keys in force (rebindable in the settings), then the mouse.
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::Grid::new("keys").striped(true).show(ui, |ui| {
                        use crate::app::keys::Shortcut;
                        for c in Shortcut::all() {
                            // The nine panel actions share one row.
                            let (keys, words) = match c {
                                Shortcut::PanelAction(1) => (
                                    format!(
                                        "{} … {}",
                                        keymap.keys_in(c, &tr),
                                        keymap.keys_in(Shortcut::PanelAction(9), &tr)
                                    ),
                                    tr.t("actions 1 to 9 of the side panel's list").into_owned(),
                                ),
                                Shortcut::PanelAction(_) => continue,
                                _ => (keymap.keys_in(c, &tr), c.words(&tr)),
                            };
                            ui.label(egui::RichText::new(keys).monospace().strong());
                            ui.label(words);
                            ui.end_row();
                        }
                        for (k, en, f) in MOUSE {
                            ui.label(
                                egui::RichText::new(if fr { tr.t(k) } else { k.into() })
                                    .monospace()
                                    .strong(),
                            );
                            ui.label(if fr { f } else { en });
                            ui.end_row();
                        }
                    });
                    ui.label(egui::RichText::new(tr.t("Change keys in Settings > Keys.")).weak());
                });
                return;
            }
            let text = rules_text(&chapters, fr);
            let (preface, secs) = sections(&text);
            let focus = help.focus.clone();
            let mut reached = false;
            egui::ScrollArea::vertical().show(ui, |ui| {
                for p in &preface {
                    ui.label(egui::RichText::new(plain(p)).weak());
                }
                for s in &secs {
                    let in_focus = focus.as_deref().map(section_of) == Some(s.id.as_str());
                    let header =
                        egui::CollapsingHeader::new(egui::RichText::new(plain(&s.title)).strong())
                            .id_salt(&s.id)
                            .default_open(in_focus || focus.is_none());
                    let header = if in_focus {
                        header.open(Some(true))
                    } else {
                        header
                    };
                    header.show(ui, |ui| {
                        for l in &s.lines {
                            if l.trim().is_empty() {
                                continue;
                            }
                            let cites = focus
                                .as_deref()
                                .is_some_and(|f| is_line_rule(f) && states(l, f));
                            let text = egui::RichText::new(plain(l));
                            let r = if cites {
                                ui.label(text.color(egui::Color32::YELLOW).strong())
                            } else {
                                ui.label(text)
                            };
                            let first_of_section =
                                in_focus && !focus.as_deref().is_some_and(is_line_rule);
                            if (cites || first_of_section) && !help.scrolled && !reached {
                                r.scroll_to_me(Some(egui::Align::TOP));
                                reached = true;
                            }
                        }
                    });
                }
            });
            if reached {
                help.scrolled = true;
            }
        });
    if !open {
        screens.close(Overlay::Help);
        help.focus = None;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_have_every_rule_section_and_number() {
        let numbers = |t: &str| -> Vec<String> {
            let mut v: Vec<String> = t
                .lines()
                .filter_map(|l| {
                    let l = l.trim_start().strip_prefix("- ")?;
                    let id = cited_rule(l, &ChapterHelp::default())?;
                    l.starts_with(&id).then_some(id)
                })
                .collect();
            v.sort();
            v
        };
        let (_, en) = sections(RULES_EN);
        let (_, fr) = sections(RULES_FR);
        let ids = |s: &[Section]| s.iter().map(|x| x.id.clone()).collect::<Vec<_>>();
        assert_eq!(
            ids(&en),
            ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
        );
        assert_eq!(ids(&en), ids(&fr));
        let n = numbers(RULES_EN);
        assert!(n.len() >= 25, "{n:?}");
        assert_eq!(n, numbers(RULES_FR));
    }

    #[test]
    fn a_refusal_names_the_rule_it_cites() {
        let none = ChapterHelp::default();
        assert_eq!(
            cited_rule("R9.1: an enemy unit is on (2, 3)", &none),
            Some("R9.1".into())
        );
        assert_eq!(
            cited_rule("this is done in step R9", &none),
            Some("R9".into())
        );
        assert_eq!(cited_rule("not enough food: 2 needed", &none), None);
        assert_eq!(cited_rule("SR9 is no rule", &none), None);
        assert_eq!(section_of("R9.1"), "R9");
    }

    #[test]
    fn a_chapters_rules_join_the_help_and_are_cited_by_their_letter() {
        let mut help = ChapterHelp::default();
        help.add(
            "zz_test",
            "## Z Test chapter\n- Z1 one\n- Z12 twelve\n",
            "## Z Chapitre test\n- Z1 un\n- Z12 douze\n",
        );
        assert_eq!(cited_rule("Z12: not now", &help), Some("Z12".into()));
        assert_eq!(cited_rule("XZ1 is no rule", &help), None);
        assert_eq!(section_of("Z12"), "Z");
        let (_, secs) = sections(&rules_text(&help, false));
        let z = secs.iter().find(|s| s.id == "Z").expect("its section");
        assert!(states(&z.lines[0], "Z1"));
        assert!(!states(&z.lines[1], "Z1"), "Z1 does not state Z12");
        assert!(rules_text(&help, true).contains("Z1 un"));
        assert!(secs.iter().any(|s| s.id == "R9"), "after the core's");
    }
}
