//! Fuzzed play (proptest): random mixes of legal and illegal actions from random seeds on every
//! shipped level. Nothing panics, every refused action leaves the state hash unchanged, and the
//! invariants (`rules::invariants`) hold after every action. `cargo test` runs a bounded number
//! of cases; `chaos-outpost fuzz` runs long campaigns.

use std::sync::Arc;

use chaos_outpost::sim::fuzz;
use proptest::prelude::*;

use crate::common::base;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn random_play_never_breaks_the_rules(
        seed in any::<u64>(),
        level in 0usize..4,
        moves in prop::collection::vec((any::<u32>(), any::<u32>()), 20..80),
    ) {
        let level = ["first_light", "standard", "hard", "stress"][level];
        if let Err(e) = fuzz::play_moves(Arc::new(base()), level, seed, &moves) {
            panic!("{e}");
        }
    }
}

/// Damages `text`: cuts it, inserts junk, or overwrites one character (on char boundaries).
fn damage(text: &str, kind: u8, at: usize, junk: &str) -> String {
    let mut cut = at % (text.len() + 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    match kind % 3 {
        0 => text[..cut].to_string(),
        1 => format!("{}{junk}{}", &text[..cut], &text[cut..]),
        _ => {
            let mut s = text.to_string();
            if let Some(c) = s[cut..].chars().next() {
                s.replace_range(cut..cut + c.len_utf8(), junk);
            }
            s
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]
    /// The loaders on damaged content files: never a panic, and every error names its file.
    #[test]
    fn damaged_content_files_get_an_error_naming_the_file(
        file in 0usize..40,
        kind in any::<u8>(),
        at in any::<usize>(),
        junk in "[ -~]{0,12}|\\)\\)\\)|\"|-1|1e99|NaN|\\[\\[\\[\\[",
    ) {
        let mut files = chaos_outpost::content::embedded_files();
        let i = file % files.len();
        files[i].text = damage(&files[i].text, kind, at, &junk);
        if let Err(ps) = chaos_outpost::content::ContentDb::from_files(files, &chaos_outpost::chapters::shipped()) {
            for p in ps {
                prop_assert!(!p.file.is_empty() && !p.message.is_empty(), "{p:?}");
            }
        }
    }

    /// Saves and replays damaged anywhere: never a panic; a damaged body fails its checksum.
    #[test]
    fn damaged_saves_and_replays_are_refused_without_a_panic(
        kind in any::<u8>(),
        at in any::<usize>(),
        junk in "[ -~]{1,12}",
    ) {
        use chaos_outpost::rules::snapshot;
        let db = Arc::new(base());
        let mut app = chaos_outpost::rules::setup::new_game(db.clone(), "first_light", None, 3)
            .expect("game");
        let s = snapshot::capture(app.world_mut());
        let save = snapshot::envelope("save", &ron::to_string(&s).expect("ron"));
        let bad = damage(&save, kind, at, &junk);
        if let Ok(back) = snapshot::parse_save(&bad) {
            // Only a change that leaves the body intact may load (the header's own spacing).
            prop_assert_eq!(back, s);
        }
        let r = snapshot::replay_of(app.world_mut());
        let replay = snapshot::envelope("replay", &ron::to_string(&r).expect("ron"));
        let bad = damage(&replay, kind, at, &junk);
        if let Ok(back) = snapshot::parse_replay(&bad) {
            prop_assert_eq!(back, r);
        }
    }
}
