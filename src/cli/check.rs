//! `check`: validates the base content and each path given — a mod folder (loaded with the
//! installed mods it depends on, as the game would), a RON file, a level or a content folder —
//! and lists every problem with its file, line, column and field. Each level is also asked
//! whether this program can play it (the chapters it names among its own, the steps it lists
//! known), as starting it would. Fails on any error, or on any warning with `--strict`. The list
//! is capped (`content::cap`): past `MAX_PROBLEMS_PER_FILE` a file, one line counts the rest.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Failure, Outcome, Program};
use crate::content::{
    ContentDb, Problem, Severity, SourceFile, inside, mods, read_bounded, ron_files_in,
};

/// `check`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Mod folders, files or folders to check on top of the base content.
    paths: Vec<PathBuf>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Treat warnings as errors.
    #[arg(long)]
    strict: bool,
}

/// What checking found (callable from tests: `cli::check::check(paths, mods)`).
#[derive(Debug, Default)]
pub struct Report {
    /// What was checked, in order ("base content", "mod ID (DIR)", paths).
    pub checked: Vec<String>,
    /// Every problem, errors first, by file and line, each once.
    pub problems: Vec<Problem>,
    /// The mods loaded: id, version, folder, whether it loaded.
    pub mods: Vec<serde_json::Value>,
}

impl Report {
    /// Problems that are errors (a line that counts those left out counts as many).
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    /// Problems that are warnings (likewise).
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    fn count(&self, severity: Severity) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == severity)
            .map(|p| p.left_out().unwrap_or(1))
            .sum()
    }
}

/// `check`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let r = check(&a.paths, &p.mods, &p.chapters);
    let (errors, warnings) = (r.errors(), r.warnings());
    if a.json {
        let doc = serde_json::json!({
            "checked": r.checked,
            "errors": errors,
            "warnings": warnings,
            "mods": r.mods,
            "problems": r.problems,
        });
        writeln!(out, "{doc}")?;
    } else {
        for p in &r.problems {
            writeln!(out, "{p}")?;
        }
        writeln!(
            out,
            "checked {}: {errors} error(s), {warnings} warning(s)",
            r.checked.join(", ")
        )?;
    }
    if errors > 0 || (a.strict && warnings > 0) {
        Err(Failure::Failed(format!(
            "the check found {errors} error(s) and {warnings} warning(s)"
        )))
    } else {
        Ok(())
    }
}

/// Checks the base content, the mod folders among `paths` (with `extra_mods`), and each other
/// path laid over the base content, for the chapters of `chapters`.
pub fn check(
    paths: &[PathBuf],
    extra_mods: &[PathBuf],
    chapters: &crate::content::ChapterSet,
) -> Report {
    let base: Vec<SourceFile> = crate::content::embedded_files();
    let mut r = Report {
        checked: vec!["base content".to_string()],
        ..Report::default()
    };
    // The base content alone.
    match ContentDb::from_files(base.clone(), chapters) {
        Ok(db) => {
            r.problems.extend(campaigns_start(&db));
            r.problems.extend(db.warnings);
        }
        Err(ps) => r.problems.extend(ps),
    }
    // Mod folders are loaded together (with the installed mods they depend on), as the game
    // would load them.
    let (mod_paths, paths): (Vec<PathBuf>, Vec<PathBuf>) = paths
        .iter()
        .cloned()
        .partition(|p| p.join("mod.ron").is_file());
    if !mod_paths.is_empty() || !extra_mods.is_empty() {
        let dirs: Vec<PathBuf> = extra_mods.iter().chain(mod_paths.iter()).cloned().collect();
        let (mut sources, unreadable) = mods::read_all(&dirs);
        mods::add_installed_dependencies(&mut sources);
        match mods::load(base.clone(), &sources, chapters) {
            Ok((db, report)) => {
                r.problems.extend(playable(&db));
                r.problems.extend(campaigns_start(&db));
                for m in unreadable.iter().chain(report.mods.iter()) {
                    r.checked.push(format!("mod {} ({})", m.id, m.dir));
                    r.problems.extend(m.problems.iter().cloned());
                    r.mods.push(serde_json::json!({
                        "id": m.id, "version": m.version, "dir": m.dir, "loaded": m.loaded,
                    }));
                }
            }
            Err(ps) => r.problems.extend(ps),
        }
    }
    for path in paths {
        r.checked.push(path.display().to_string());
        let extra = match files_of(&path) {
            Ok(f) => f,
            Err(p) => {
                r.problems.push(p);
                continue;
            }
        };
        // Overlay: a content file replaces the base file of the same name, a level is added.
        let mut files = base.clone();
        for f in extra {
            let name = Path::new(&f.path)
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let replaces = |b: &SourceFile| {
                Path::new(&b.path)
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy() == name)
            };
            files.retain(|b| !replaces(b));
            files.push(f);
        }
        match ContentDb::from_files(files, chapters) {
            Ok(db) => {
                r.problems.extend(playable(&db));
                r.problems.extend(campaigns_start(&db));
                r.problems.extend(db.warnings);
            }
            Err(ps) => r.problems.extend(ps),
        }
    }
    // Errors first, by file and line, each once; a file's count of those left out last.
    let order = |a: &Problem, b: &Problem| {
        (a.severity, &a.file, a.is_more(), a.line).cmp(&(b.severity, &b.file, b.is_more(), b.line))
    };
    r.problems.sort_by(order);
    r.problems.dedup();
    r.problems = crate::content::cap(std::mem::take(&mut r.problems));
    r.problems.sort_by(order);
    r
}

/// The levels this program could not start: a chapter it lacks, a step it doesn't know
/// (`chapter::order_for`, what starting the level asks), each at the level's `chapters` or
/// `steps` field.
fn playable(db: &ContentDb) -> Vec<Problem> {
    let app = crate::rules::setup::headless_app(std::sync::Arc::new(db.clone()));
    let mut out = Vec::new();
    for (id, level) in &db.levels {
        let Err(message) = crate::rules::chapter::order_for(app.world(), level) else {
            continue;
        };
        let field = if message.contains("chapter `") {
            "chapters"
        } else {
            "steps"
        };
        let file = db.level_paths.get(id).cloned().unwrap_or_default();
        let (line, col) = read_bounded(Path::new(&file))
            .map(|text| crate::content::locate(&text, &[&format!("{field}:")]))
            .unwrap_or((0, 0));
        out.push(Problem {
            severity: Severity::Error,
            file,
            line,
            col,
            field: format!("levels[{id}].{field}"),
            message: format!("{message}: the level can't start"),
            mod_id: String::new(),
        });
    }
    out
}

/// The campaign chapters that can't start cold (K3): each listed chapter is started in a
/// headless game from its fallback, as a player starting there would; a failure (a muster on
/// water, a unit the level can't hold) is reported at the chapter in `campaigns.ron`.
fn campaigns_start(db: &ContentDb) -> Vec<Problem> {
    use crate::rules::campaign::CampaignState;
    let text = crate::content::embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("campaigns.ron"));
    let mut out = Vec::new();
    for c in &db.set.campaigns {
        let difficulty = c.difficulties.first().cloned().unwrap_or_default();
        for ch in c.listed(|l| db.levels.contains_key(l)) {
            let started =
                CampaignState::new(c, db, &difficulty, 1, &[], Some(&ch.id)).and_then(|s| {
                    let carry = s.carry_in(ch, &[]);
                    let mut app =
                        crate::rules::setup::headless_app(std::sync::Arc::new(db.clone()));
                    crate::rules::setup::start_chapter(
                        app.world_mut(),
                        &ch.level,
                        Some(&difficulty),
                        1,
                        &s.players,
                        &carry,
                    )
                });
            let Err(message) = started else { continue };
            let anchor = format!("\"{}\"", c.id);
            let (file, (line, col)) = match text.as_ref().filter(|f| f.text.contains(&anchor)) {
                Some(f) => (
                    f.path.clone(),
                    crate::content::locate(
                        &f.text,
                        &[&format!("\"{}\"", c.id), &format!("\"{}\"", ch.id)],
                    ),
                ),
                // A mod's campaign: its own content/campaigns.ron.
                None => ("content/campaigns.ron".into(), (0, 0)),
            };
            out.push(Problem {
                severity: Severity::Error,
                file,
                line,
                col,
                field: format!("campaigns[{}].chapters[{}].fallback", c.id, ch.id),
                message: format!("the chapter can't start from its fallback (K3): {message}"),
                mod_id: String::new(),
            });
        }
    }
    out
}

/// Files of a PATH argument: a file, or the `.ron` files of a folder (and its `levels/`, and
/// `assets/content/`), each inside it.
fn files_of(path: &Path) -> Result<Vec<SourceFile>, Problem> {
    let mut paths = Vec::new();
    if path.is_dir() {
        for sub in [
            path.to_path_buf(),
            path.join("levels"),
            path.join("assets/content"),
            path.join("content"),
        ] {
            if sub.is_dir() {
                paths.extend(ron_files_in(&sub)?);
            }
        }
    } else {
        paths.push(path.to_path_buf());
    }
    let mut out = Vec::new();
    for p in paths {
        if path.is_dir() {
            inside(path, &p)?;
        }
        let text = read_bounded(&p)?;
        out.push(SourceFile {
            path: p.display().to_string(),
            text,
        });
    }
    Ok(out)
}
