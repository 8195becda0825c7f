//! `mods`: every mod found (beside the game, in the user's data folder, and `--mod`) and what
//! loading them all, as the game would, finds. Fails when a mod is disabled or unreadable.

use std::io::Write;

use super::{Failure, Outcome, Program, problems_text};
use crate::content::mods;

/// `mods`' arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// `mods`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let (sources, bad) = mods::found(&p.mods);
    let report = mods::load(crate::content::embedded_files(), &sources, &p.chapters)
        .map(|(_, r)| r)
        .map_err(|ps| format!("the embedded content is broken:\n{}", problems_text(&ps)))?;
    let searched: Vec<String> = mods::mod_dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    if a.json {
        let doc = serde_json::json!({
            "searched": searched,
            "mods": report.mods,
            "unreadable": bad,
        });
        writeln!(out, "{doc}")?;
    } else {
        writeln!(out, "mod folders searched: {}", searched.join(", "))?;
        if report.mods.is_empty() && bad.is_empty() {
            writeln!(out, "no mods found")?;
        }
        for m in bad.iter().chain(report.mods.iter()) {
            let state = if m.loaded { "ok" } else { "DISABLED" };
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
