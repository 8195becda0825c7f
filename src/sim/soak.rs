//! Soak: seeded AI-vs-AI games, each written as a replay file, read back, played again in a
//! fresh app and compared cycle by cycle (`snapshot::play_replay`). The first drift is the
//! error. The `soak` command runs it; tests run it on a chapter's level too.

use std::sync::Arc;

use crate::content::ContentDb;
use crate::rules::snapshot;

/// Plays `games` games over `levels` (seeds from `seed`, at most `cycles` cycles each), writes
/// each replay, reads it back and replays it. Returns the actions and cycle hashes checked, or
/// the first drift with its level and seed. `progress` hears the games done.
pub fn run(
    db: Arc<ContentDb>,
    levels: &[String],
    seed: u64,
    games: u32,
    cycles: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<(usize, usize), String> {
    if levels.is_empty() {
        return Err("no level to soak".into());
    }
    let dir = std::env::temp_dir().join(format!(
        "chaos-outpost-soak-{}-{seed}-{}",
        std::process::id(),
        levels.join("-")
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (mut actions, mut checked) = (0usize, 0usize);
    let result = (|| {
        for g in 0..games {
            let level = &levels[g as usize % levels.len()];
            let s = seed.wrapping_add(g as u64);
            let (mut app, _) = crate::sim::play_game(db.clone(), level, None, s, cycles)?;
            let r = snapshot::replay_of(app.world_mut());
            let path = dir.join("soak.replay.ron");
            snapshot::write_replay(&r, &path)?;
            let back = snapshot::read_replay(&path)?;
            let mut fresh = crate::rules::setup::headless_app(db.clone());
            snapshot::play_replay(fresh.world_mut(), &back)
                .map_err(|e| format!("{level} seed {s}: {e}"))?;
            actions += r.actions.len();
            checked += r.cycle_hashes.len();
            progress(g + 1);
        }
        Ok::<(), String>(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|()| (actions, checked))
}
