//! Hostile files: a structure-aware fuzzer for what a player may be handed — saves, replays,
//! campaign saves and levels. Each case starts from a sound file of its kind, made here by
//! playing (so nothing is read from disk), and changes the values its RON text carries: a
//! number becomes an edge (0, a seat past 8, `u32::MAX`, `i32::MIN`, a billion), a string an
//! unknown id, `../` or five thousand letters, a list item is repeated (up to thousands of
//! times), dropped or swapped. The file then goes through the game's own way in (parse, check,
//! restore or load) and, where it is accepted, the game plays on from it. A finding is a panic
//! (an overflow in a debug build is one), a refusal that changed the game, or an accepted file
//! that breaks an invariant; hangs and memory are watched by the caller (`watchdog`).

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::content::{ContentDb, MAX_FILE_BYTES};
use crate::ground::files;
use crate::rules::campaign::{self, CAMPAIGN_VERSION, CampaignState};
use crate::rules::legal::legal_actions;
use crate::rules::snapshot::{self, state_hash};
use crate::rules::{GameWorld, Outcome, setup, submit};

/// The kinds of file a player may be handed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A saved game (`*.save.ron`).
    Save,
    /// A replay (`*.replay.ron`).
    Replay,
    /// A campaign's save (`campaign.ron`).
    Campaign,
    /// A level (`levels/*.ron`, or one given on the command line).
    Level,
}

impl FileKind {
    /// Every kind, in the order a run takes them.
    pub const ALL: [FileKind; 4] = [
        FileKind::Save,
        FileKind::Replay,
        FileKind::Campaign,
        FileKind::Level,
    ];

    /// The kind a command line names (`save`, `replay`, `campaign`, `level`).
    pub fn parse(name: &str) -> Option<FileKind> {
        FileKind::ALL
            .into_iter()
            .find(|k| format!("{k:?}").eq_ignore_ascii_case(name))
    }
}

/// What a run of cases did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HostileStats {
    /// Cases tried.
    pub cases: u64,
    /// Files refused with a reason.
    pub refused: u64,
    /// Files accepted (then played on).
    pub accepted: u64,
    /// Actions played on accepted files.
    pub actions: u64,
}

/// A sound file to start from: a name for messages, its text.
#[derive(Debug, Clone)]
pub struct SeedFile {
    /// Where it came from (`save: mercenaries after 40 moves`).
    pub name: String,
    /// Its text.
    pub text: String,
}

/// Moves played on a level to make a seed file: far enough into a game that chapter states,
/// tracks and the log hold something.
const SEED_MOVES: usize = 60;
/// Actions played on from an accepted file: enough to run an upkeep or a chapter's round.
const PLAY_ON: usize = 80;
/// Largest number of copies one mutation adds to a list.
const MAX_COPIES: usize = 2000;

/// Plays `moves` seeded legal actions on a new game of `level`.
fn played(
    db: &Arc<ContentDb>,
    level: &str,
    seed: u64,
    moves: usize,
) -> Result<bevy::app::App, String> {
    let mut app = setup::new_game(db.clone(), level, None, seed)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    play_on(app.world_mut(), &mut rng, moves).map_err(|e| format!("{level}: {e}"))?;
    Ok(app)
}

/// The sound files of `kind` the cases start from, made by playing each of `levels`.
pub fn seeds(
    db: &Arc<ContentDb>,
    kind: FileKind,
    levels: &[String],
) -> Result<Vec<SeedFile>, String> {
    let mut out = Vec::new();
    match kind {
        FileKind::Save | FileKind::Replay => {
            for (i, level) in levels.iter().enumerate() {
                let mut app = played(db, level, 7 + i as u64, SEED_MOVES)?;
                let w = app.world_mut();
                let text = if kind == FileKind::Save {
                    let s = snapshot::capture(w);
                    let body = ron::ser::to_string_pretty(&s, ron::ser::PrettyConfig::default())
                        .map_err(|e| e.to_string())?;
                    snapshot::envelope("save", &body)
                } else {
                    let r = snapshot::replay_of(w);
                    let body = ron::ser::to_string_pretty(&r, ron::ser::PrettyConfig::default())
                        .map_err(|e| e.to_string())?;
                    snapshot::envelope("replay", &body)
                };
                out.push(SeedFile {
                    name: format!("{kind:?} of {level} after {SEED_MOVES} moves"),
                    text,
                });
            }
        }
        FileKind::Campaign => {
            for c in &db.set.campaigns {
                let Ok(mut state) = CampaignState::new(c, db, "normal", 3, &[], None) else {
                    continue;
                };
                // One chapter played and finished, so the roster, records and stock hold
                // something.
                if let Some(def) = state.current.clone().and_then(|id| c.chapter(&id).cloned()) {
                    let muster = state.default_muster(&def);
                    let carry = state.carry_in(&def, &muster);
                    let mut app = setup::headless_app(db.clone());
                    let w = app.world_mut();
                    let difficulty = state.difficulty.clone();
                    setup::start_chapter(
                        w,
                        &def.level,
                        Some(&difficulty),
                        3,
                        &state.players,
                        &carry,
                    )?;
                    play_on(w, &mut ChaCha8Rng::seed_from_u64(3), SEED_MOVES)
                        .map_err(|e| format!("{}: {e}", def.level))?;
                    let left = campaign::left_by(w);
                    state.finish(c, db, &carry, &left);
                }
                out.push(SeedFile {
                    name: format!("campaign `{}` after its first chapter", c.id),
                    text: campaign_text(&state)?,
                });
            }
        }
        FileKind::Level => {
            for f in crate::content::embedded_files() {
                let id = f
                    .path
                    .trim_start_matches("levels/")
                    .trim_end_matches(".ron");
                if f.path.starts_with("levels/") && levels.iter().any(|l| l == id) {
                    out.push(SeedFile {
                        name: format!("level {}", f.path),
                        text: f.text,
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return Err(format!("no {kind:?} file to start from"));
    }
    Ok(out)
}

/// A campaign state as its save file holds it.
fn campaign_text(state: &CampaignState) -> Result<String, String> {
    let body = ron::ser::to_string_pretty(state, ron::ser::PrettyConfig::default())
        .map_err(|e| e.to_string())?;
    Ok(files::envelope("campaign", CAMPAIGN_VERSION, &body))
}

/// Where the values of a RON text are: its numbers, its strings, the items of its lists.
#[derive(Debug, Default)]
struct Shape {
    numbers: Vec<Range<usize>>,
    strings: Vec<Range<usize>>,
    items: Vec<Range<usize>>,
}

/// Scans RON text once: comments are skipped, strings and numbers recorded, and the items of
/// each `[...]` list split at its own commas.
fn shape(text: &str) -> Shape {
    let b = text.as_bytes();
    let mut out = Shape::default();
    // Open lists: where the current item began.
    let mut lists: Vec<Option<usize>> = Vec::new();
    let mut i = 0;
    let item_start = |lists: &mut Vec<Option<usize>>, at: usize| {
        if let Some(top @ None) = lists.last_mut() {
            *top = Some(at);
        }
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' => {
                item_start(&mut lists, i);
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.strings.push(start..i.min(b.len()));
                continue;
            }
            b'[' => {
                item_start(&mut lists, i);
                lists.push(None);
            }
            b']' | b',' => {
                if let Some(Some(start)) = lists.last().copied() {
                    let end = text[..i].trim_end().len();
                    if end > start {
                        out.items.push(start..end);
                    }
                }
                if c == b']' {
                    lists.pop();
                } else if let Some(top) = lists.last_mut() {
                    *top = None;
                }
            }
            b'-' | b'0'..=b'9'
                if (c != b'-' || b.get(i + 1).is_some_and(u8::is_ascii_digit))
                    && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                item_start(&mut lists, i);
                let start = i;
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                out.numbers.push(start..i);
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => item_start(&mut lists, i),
        }
        i += 1;
    }
    out
}

/// Numbers a hostile file likes: the edges of each integer type, seats and indices just past
/// what a game has, counts far past any bound.
const NUMBERS: [&str; 24] = [
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "9",
    "63",
    "64",
    "65",
    "200",
    "255",
    "256",
    "999",
    "1000",
    "65535",
    "65536",
    "1000001",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "-1",
    "-2147483648",
];

/// Changes one value of `text`; says what it did.
fn mutate_once(text: &str, rng: &mut ChaCha8Rng) -> Option<(String, String)> {
    let s = shape(text);
    let pick = |v: &Vec<Range<usize>>, rng: &mut ChaCha8Rng| {
        (!v.is_empty()).then(|| v[rng.random_range(0..v.len())].clone())
    };
    let what = rng.random_range(0..10u32);
    let (range, new, said) = match what {
        0..=4 => {
            let r = pick(&s.numbers, rng)?;
            let old = &text[r.clone()];
            let new = match rng.random_range(0..4u32) {
                0 => old
                    .parse::<i64>()
                    .map(|n| n.saturating_add(1).to_string())
                    .unwrap_or_else(|_| "1".into()),
                1 => old
                    .parse::<i64>()
                    .map(|n| n.saturating_sub(1).to_string())
                    .unwrap_or_else(|_| "0".into()),
                _ => NUMBERS[rng.random_range(0..NUMBERS.len())].to_string(),
            };
            let said = format!("number {old} -> {new}");
            (r, new, said)
        }
        5 | 6 => {
            let r = pick(&s.strings, rng)?;
            let new = match rng.random_range(0..6u32) {
                0 => "\"\"".to_string(),
                1 => "\"../../evil\"".to_string(),
                2 => "\"nope\"".to_string(),
                3 => format!("\"{}\"", "a".repeat(5000)),
                4 => "\"%s{0}\\u{202e}\"".to_string(),
                // Another string of the same file: an id where a different one was.
                _ => text[pick(&s.strings, rng)?].to_string(),
            };
            let said = format!(
                "string {} -> {}",
                files::clipped(&text[r.clone()], 40),
                files::clipped(&new, 40)
            );
            (r, new, said)
        }
        _ => {
            let r = pick(&s.items, rng)?;
            let item = &text[r.clone()];
            match rng.random_range(0..4u32) {
                0 => (
                    r.clone(),
                    String::new(),
                    format!("item {} dropped", files::clipped(item, 40)),
                ),
                1 => {
                    let other = pick(&s.items, rng)?;
                    let said = format!(
                        "item {} -> {}",
                        files::clipped(item, 40),
                        files::clipped(&text[other.clone()], 40)
                    );
                    (r, text[other].to_string(), said)
                }
                _ => {
                    let n = [1, 2, 5, 60, 1000, MAX_COPIES][rng.random_range(0..6)];
                    if item.len().saturating_mul(n) > MAX_FILE_BYTES as usize / 2 {
                        return None;
                    }
                    let copies = vec![item; n + 1].join(", ");
                    (
                        r,
                        copies,
                        format!("item {} repeated {n} more times", files::clipped(item, 40)),
                    )
                }
            }
        }
    };
    let mut out = String::with_capacity(text.len() + new.len());
    out.push_str(&text[..range.start]);
    out.push_str(&new);
    out.push_str(&text[range.end..]);
    Some((out, said))
}

/// One to three changes of `text`.
pub fn mutate(text: &str, rng: &mut ChaCha8Rng) -> (String, Vec<String>) {
    let mut out = text.to_string();
    let mut said = Vec::new();
    for _ in 0..rng.random_range(1..=3u32) {
        if let Some((t, s)) = mutate_once(&out, rng) {
            out = t;
            said.push(s);
        }
    }
    (out, said)
}

/// `mutate` on a file's body, its header line then made to match (as a hand edit that knows
/// the format would): a header that does not match is refused before anything is read, and
/// the values behind it are what this fuzzer is after.
fn mutate_file(kind: FileKind, text: &str, rng: &mut ChaCha8Rng) -> (String, Vec<String>) {
    let header = match kind {
        FileKind::Save => Some(("save", snapshot::SAVE_VERSION)),
        FileKind::Replay => Some(("replay", snapshot::SAVE_VERSION)),
        FileKind::Campaign => Some(("campaign", CAMPAIGN_VERSION)),
        FileKind::Level => None,
    };
    match header.and_then(|h| Some((h, text.split_once('\n')?.1))) {
        Some(((name, version), body)) => {
            let (body, said) = mutate(body, rng);
            (files::envelope(name, version, &body), said)
        }
        None => mutate(text, rng),
    }
}

/// What one hostile file did to the game.
enum Verdict {
    Refused,
    Accepted { actions: u64 },
}

/// Plays `moves` seeded legal actions, each checked (a legal action is accepted, a refusal
/// leaves the state as it was, the invariants hold before and after each): on from a file
/// accepted, or into a game to make a seed file.
fn play_on(
    w: &mut bevy::prelude::World,
    rng: &mut ChaCha8Rng,
    moves: usize,
) -> Result<u64, String> {
    crate::rules::invariants::check(w).map_err(|e| format!("accepted, but: {e}"))?;
    let mut n = 0;
    for _ in 0..moves {
        if w.resource::<Outcome>().winner.is_some() {
            break;
        }
        let by = w.deciding();
        let legal = legal_actions(w, by);
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.random_range(0..legal.len())].clone();
        let before = state_hash(w);
        if let Err(e) = submit(w, by, a.clone()) {
            if state_hash(w) != before {
                return Err(format!("{a:?} was refused ({e}) but the game changed"));
            }
            return Err(format!("{a:?} was offered as legal, then refused: {e}"));
        }
        n += 1;
        crate::rules::invariants::check(w).map_err(|e| format!("after {a:?}: {e}"))?;
    }
    Ok(n)
}

/// One case again, from its file (a finding kept as a regression case): `Ok(true)` when the
/// file was accepted and played on without a finding, `Ok(false)` when it was refused. `case`
/// is the number `run` gave it, which seeds the actions played on.
pub fn try_case(
    db: &Arc<ContentDb>,
    kind: FileKind,
    text: &str,
    seed: u64,
    case: u64,
    dir: &std::path::Path,
) -> Result<bool, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ case);
    try_file(db, kind, text, dir, &mut rng).map(|v| matches!(v, Verdict::Accepted { .. }))
}

/// Feeds one file of `kind` to the game's way in and plays on where it is accepted.
fn try_file(
    db: &Arc<ContentDb>,
    kind: FileKind,
    text: &str,
    dir: &std::path::Path,
    rng: &mut ChaCha8Rng,
) -> Result<Verdict, String> {
    match kind {
        FileKind::Save => {
            let Ok(s) = snapshot::parse_save(text) else {
                return Ok(Verdict::Refused);
            };
            let mut app = setup::new_game(db.clone(), "first_light", None, 1)?;
            let w = app.world_mut();
            let before = state_hash(w);
            if snapshot::restore(w, &s).is_err() {
                if state_hash(w) != before {
                    return Err("the save was refused but the game changed".into());
                }
                return Ok(Verdict::Refused);
            }
            Ok(Verdict::Accepted {
                actions: play_on(w, rng, PLAY_ON)?,
            })
        }
        FileKind::Replay => {
            let Ok(r) = snapshot::parse_replay(text) else {
                return Ok(Verdict::Refused);
            };
            if !db.levels.contains_key(&r.level) {
                return Ok(Verdict::Refused);
            }
            let mut app = setup::headless_app(db.clone());
            let w = app.world_mut();
            match snapshot::play_replay(w, &r) {
                Err(_) => Ok(Verdict::Refused),
                Ok(_) => Ok(Verdict::Accepted {
                    actions: play_on(w, rng, PLAY_ON)?,
                }),
            }
        }
        FileKind::Campaign => {
            let Ok(state) = campaign::parse(text) else {
                return Ok(Verdict::Refused);
            };
            let Ok(c) = state.check(db) else {
                return Ok(Verdict::Refused);
            };
            let c = c.clone();
            // Saved and read back as the window does, then its next chapter played.
            let back = campaign::save(&state, dir)
                .and_then(|p| campaign::read(&p, db))
                .map_err(|e| format!("accepted, but it does not save and read back: {e}"))?;
            let Some(def) = back.current.clone().and_then(|id| c.chapter(&id).cloned()) else {
                return Ok(Verdict::Accepted { actions: 0 });
            };
            let muster = back.default_muster(&def);
            let carry = back.carry_in(&def, &muster);
            let mut app = setup::headless_app(db.clone());
            let w = app.world_mut();
            if setup::start_chapter(
                w,
                &def.level,
                Some(&back.difficulty),
                1,
                &back.players,
                &carry,
            )
            .is_err()
            {
                return Ok(Verdict::Refused);
            }
            let actions = play_on(w, rng, PLAY_ON)?;
            let left = campaign::left_by(w);
            let mut next = back.clone();
            next.finish(&c, db, &carry, &left);
            Ok(Verdict::Accepted { actions })
        }
        FileKind::Level => {
            let path = dir.join("hostile_level.ron");
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut db = (**db).clone();
            let Ok(id) = db.resolve_level(&path.display().to_string()) else {
                return Ok(Verdict::Refused);
            };
            let Ok(mut app) = setup::new_game(Arc::new(db), &id, None, 1) else {
                return Ok(Verdict::Refused);
            };
            Ok(Verdict::Accepted {
                actions: play_on(app.world_mut(), rng, PLAY_ON)?,
            })
        }
    }
}

/// A finding: the case that broke something, and the file written to reproduce it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// What broke.
    pub what: String,
    /// The hostile file, kept for the report.
    pub file: PathBuf,
}

/// Where the case of `kind` now running is written in `dir`.
pub fn case_file(dir: &std::path::Path, kind: FileKind) -> PathBuf {
    dir.join(format!("case.{kind:?}.ron").to_lowercase())
}

/// The case now running, for the watchdog: its number (0: none).
pub static RUNNING: AtomicU64 = AtomicU64::new(0);

/// Runs cases of `kind` from `seeds` until `more` says stop; each case's file is written to
/// `dir` before it runs (so a hang or an abort leaves it there). Stops at the first finding.
pub fn run(
    db: &Arc<ContentDb>,
    kind: FileKind,
    seeds: &[SeedFile],
    seed: u64,
    dir: &std::path::Path,
    mut more: impl FnMut(&HostileStats) -> bool,
) -> Result<HostileStats, Finding> {
    let mut stats = HostileStats::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let case_file = case_file(dir, kind);
    while more(&stats) {
        let from = &seeds[rng.random_range(0..seeds.len())];
        let (text, said) = mutate_file(kind, &from.text, &mut rng);
        let _ = std::fs::write(&case_file, &text);
        stats.cases += 1;
        RUNNING.store(stats.cases, Ordering::Relaxed);
        let mut play_rng = ChaCha8Rng::seed_from_u64(seed ^ stats.cases);
        let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            try_file(db, kind, &text, dir, &mut play_rng)
        }));
        RUNNING.store(0, Ordering::Relaxed);
        let fail = |why: String| Finding {
            what: format!(
                "{kind:?} case {} (from the {}; {}): {why}",
                stats.cases,
                from.name,
                said.join("; ")
            ),
            file: case_file.clone(),
        };
        match verdict {
            Err(p) => {
                return Err(fail(format!("panic: {}", super::fuzz::panic_text(&p))));
            }
            Ok(Err(why)) => return Err(fail(why)),
            Ok(Ok(Verdict::Refused)) => stats.refused += 1,
            Ok(Ok(Verdict::Accepted { actions })) => {
                stats.accepted += 1;
                stats.actions += actions;
            }
        }
    }
    Ok(stats)
}

/// The resident memory of this process, in bytes (Linux; 0 elsewhere).
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// Watches runs from another thread: a case that runs past `hang_s` seconds, or memory past
/// `max_bytes`, ends the process with status 1 and the case named (its file is in `dir`).
pub fn watchdog(dir: PathBuf, hang_s: u64, max_bytes: u64) {
    std::thread::spawn(move || {
        let mut last = 0;
        let mut since = std::time::Instant::now();
        loop {
            std::thread::sleep(std::time::Duration::from_millis(250));
            let now = RUNNING.load(Ordering::Relaxed);
            if now != last || now == 0 {
                last = now;
                since = std::time::Instant::now();
            }
            let rss = resident_bytes();
            let why = if now != 0 && since.elapsed().as_secs() >= hang_s {
                format!("ran past {hang_s} s")
            } else if rss > max_bytes {
                format!("{} MB resident, past {} MB", rss >> 20, max_bytes >> 20)
            } else {
                continue;
            };
            eprintln!(
                "error: hostile file case {now} {why}: its file is in {}",
                dir.display()
            );
            std::process::exit(1);
        }
    });
}
