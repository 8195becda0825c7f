//! `replay`: plays a replay file on a fresh game and prints the final state's hash. The
//! replay's content hash and its chain of per-cycle state hashes are checked on the way: other
//! content, other rules (`rules::version`), a refused action or a drifting cycle is an error
//! that names it; the replay plays under the rules version it was recorded with.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use super::{Outcome, Program};
use crate::rules::snapshot;

/// `replay`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The replay file.
    file: PathBuf,
}

/// `replay`.
pub fn run(p: &Program, a: Args, out: &mut dyn Write) -> Outcome {
    let h = replay_hash(p, &a.file)?;
    writeln!(out, "{h:016x}")?;
    Ok(())
}

/// The final state hash of the replay in `file`, played on the base game and `mods`.
pub fn replay_hash(p: &Program, file: &std::path::Path) -> Result<u64, String> {
    let r = snapshot::read_replay(file)?;
    let db = Arc::new(p.content()?);
    if !db.levels.contains_key(&r.level) {
        return Err(format!("{}: unknown level `{}`", file.display(), r.level));
    }
    let mut app = crate::rules::setup::headless_app(db);
    snapshot::replay_file(app.world_mut(), file)
}
