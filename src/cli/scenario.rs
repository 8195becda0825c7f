//! `test-scenario`: runs scenario files (RON, see `sim::scenario`), or folders of them; a mod
//! folder runs its own `scenarios/` with the mod loaded. Fails if any scenario fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Failure, Outcome, Program, problems_text};
use crate::content::{ContentDb, SourceFile, mods, read_bounded, ron_files_in};

/// `test-scenario`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario files or folders.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// `test-scenario`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let (mut passed, mut failed) = (0usize, 0usize);
    for path in &a.paths {
        let (db, files) = match scenarios_of(path, p) {
            Ok(x) => x,
            Err(e) => {
                writeln!(out, "FAIL {}: {e}", path.display())?;
                failed += 1;
                continue;
            }
        };
        if files.is_empty() {
            writeln!(out, "FAIL {}: no scenario files found", path.display())?;
            failed += 1;
            continue;
        }
        for r in crate::sim::scenario::run_files(Arc::new(db), &files) {
            match r.result {
                Ok(steps) => {
                    passed += 1;
                    writeln!(out, "ok   {} — {} ({steps} steps)", r.path, r.name)?;
                }
                Err(e) => {
                    failed += 1;
                    writeln!(out, "FAIL {} — {}\n    {e}", r.path, r.name)?;
                }
            }
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    if failed > 0 {
        Err(Failure::Failed(format!("{failed} scenario(s) failed")))
    } else {
        Ok(())
    }
}

/// The content a path's scenarios run on, and the scenario files: a mod folder's own with the
/// mod loaded, else a file or a folder of files on the base game (and `extra`).
fn scenarios_of(path: &Path, p: &Program) -> Result<(ContentDb, Vec<SourceFile>), String> {
    let extra = p.mods.as_slice();
    if path.join("mod.ron").is_file() {
        let mut dirs = extra.to_vec();
        dirs.push(path.to_path_buf());
        let (mut sources, bad) = mods::read_all(&dirs);
        mods::add_installed_dependencies(&mut sources);
        let files = sources
            .iter()
            .find(|m| m.dir == *path)
            .map(|m| m.scenarios.clone())
            .unwrap_or_default();
        let (db, report) = mods::load(crate::content::embedded_files(), &sources, &p.chapters)
            .map_err(|ps| problems_text(&ps))?;
        let all = || bad.iter().chain(report.mods.iter());
        for m in all().filter(|m| !m.loaded) {
            eprintln!("mod `{}` is disabled:", m.id);
            for p in &m.problems {
                eprintln!("  {p}");
            }
        }
        if all().any(|m| !m.loaded) {
            return Err("a mod failed to load".into());
        }
        return Ok((db, files));
    }
    let read = |p: &Path| {
        read_bounded(p).map(|text| SourceFile {
            path: p.display().to_string(),
            text,
        })
    };
    let files = if path.is_dir() {
        ron_files_in(path)
            .and_then(|ps| ps.iter().map(|p| read(p)).collect::<Result<Vec<_>, _>>())
            .map_err(|p| p.to_string())?
    } else {
        vec![read(path).map_err(|p| p.to_string())?]
    };
    Ok((p.content()?, files))
}
