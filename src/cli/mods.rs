//! `mods`: every mod found (beside the game, in the user's data folder, and `--mod`) and what
//! loading the enabled ones (the settings' list, as the Mods window sets it, and `--mod`), as
//! the game would, finds. A mod that is not enabled is listed as off from its manifest alone,
//! its files never read. Fails when an enabled mod is disabled for its problems, or a mod
//! folder is unreadable.

use std::io::Write;
use std::path::PathBuf;

use super::{Failure, Outcome, Program, problems_text};
use crate::content::mods::{self, Manifest, ModSource, ModStatus};

/// `mods`' arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// A mod that is not enabled, as its manifest alone describes it (a manifest that does not
/// read is said, not counted as a failure: the mod is off).
fn switched_off(m: &ModSource) -> ModStatus {
    let folder = m
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut st = ModStatus {
        id: folder.clone(),
        name: folder,
        version: String::new(),
        description: String::new(),
        dir: m.dir.display().to_string(),
        loaded: false,
        problems: Vec::new(),
    };
    match crate::content::parse_ron::<Manifest>(&m.manifest) {
        Ok(man) => {
            st.id = man.id;
            st.name = man.name;
            st.version = man.version;
            st.description = man.description;
        }
        Err(p) => st.problems.push(p),
    }
    st
}

/// `mods`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let settings = crate::app::settings::load(&crate::app::settings::settings_path()).0;
    // Every mod, read as far as its manifest; the enabled ones are then read whole.
    let (found, bad) = mods::found(&p.mods);
    let cli: Vec<ModSource> = found
        .iter()
        .filter(|m| p.mods.contains(&m.dir))
        .cloned()
        .collect();
    let dirs: Vec<PathBuf> = mods::choose(&found, &settings.mods, &cli)
        .into_iter()
        .map(|m| m.dir)
        .collect();
    let (sources, unreadable) = mods::read_all(&dirs);
    let report = mods::load(crate::content::embedded_files(), &sources, &p.chapters)
        .map(|(_, r)| r)
        .map_err(|ps| format!("the embedded content is broken:\n{}", problems_text(&ps)))?;
    let off: Vec<ModStatus> = found
        .iter()
        .filter(|m| !dirs.contains(&m.dir))
        .map(switched_off)
        .collect();
    let bad: Vec<ModStatus> = bad.into_iter().chain(unreadable).collect();
    let searched: Vec<String> = mods::mod_dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    if a.json {
        let doc = serde_json::json!({
            "searched": searched,
            "mods": report.mods,
            "off": off,
            "unreadable": bad,
        });
        writeln!(out, "{doc}")?;
    } else {
        writeln!(out, "mod folders searched: {}", searched.join(", "))?;
        if report.mods.is_empty() && bad.is_empty() && off.is_empty() {
            writeln!(out, "no mods found")?;
        }
        let states = bad
            .iter()
            .chain(report.mods.iter())
            .map(|m| (m, if m.loaded { "ok" } else { "DISABLED" }))
            .chain(off.iter().map(|m| (m, "off")));
        for (m, state) in states {
            writeln!(
                out,
                "{:<8} {} {} — {} ({})",
                state, m.id, m.version, m.name, m.dir
            )?;
            for p in &m.problems {
                writeln!(out, "         {p}")?;
            }
        }
    }
    if report.errors() > 0 || !bad.is_empty() {
        let disabled = bad
            .iter()
            .chain(report.mods.iter())
            .filter(|m| !m.loaded)
            .count();
        Err(Failure::Failed(format!(
            "{} mod problem(s) found, {disabled} mod(s) disabled",
            report.errors() + bad.len()
        )))
    } else {
        Ok(())
    }
}
