//! The real window under Xvfb (software Vulkan) with scripted input (`tests/ui/full_cycle.ron`):
//! it chooses research, builds, selects and moves an army with mouse clicks on the map, undoes
//! the move and makes it again, lets Chaos play, and reaches the next cycle; then the screenshot
//! must not be blank and the saved game must show every one of those changes.
//!
//! Needs `xvfb-run` (and a Vulkan driver, `mesa-vulkan-drivers`): `./dev test` installs them and
//! sets `CHAOS_OUTPOST_REQUIRE_XVFB=1`, so CI runs it; elsewhere, without `xvfb-run`, the test
//! says it was skipped.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chaos_outpost::content::Camp;
use chaos_outpost::rules::{Action, snapshot};

fn have(cmd: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(cmd).is_file()))
}

/// Distinct colours in a PNG, counted on a grid of samples.
fn colours(path: &std::path::Path) -> (u32, u32, usize) {
    let file = std::fs::File::open(path).expect("screenshot exists");
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let bpp = info.line_size / info.width as usize;
    let mut seen = std::collections::BTreeSet::new();
    for y in (0..info.height).step_by(7) {
        for x in (0..info.width).step_by(7) {
            let i = y as usize * info.line_size + x as usize * bpp;
            seen.insert(buf[i..i + 3].to_vec());
        }
    }
    (info.width, info.height, seen.len())
}

#[test]
fn a_full_cycle_plays_in_the_real_window_with_scripted_input() {
    let Some(out) = play_script("full_cycle") else {
        return;
    };
    // The screenshot: the window's size, and a map, panels and text (many colours), not blank.
    let (w, h, n) = colours(&out.join("full_cycle.png"));
    assert_eq!((w, h), (1280, 720));
    assert!(n > 200, "only {n} colours: a blank or broken frame");

    // The game advanced through every scripted step.
    let s = snapshot::read(&out.join("full_cycle.ron")).expect("the script's save");
    assert_eq!(s.cycle.number, 2, "the next cycle began");
    assert_eq!(s.step_id, "R7");
    assert!(s.research.done.is_empty() && s.research.current.is_some());
    let dawnwatch = &s.outposts[0];
    assert!(dawnwatch.buildings.iter().any(|b| b.id == "granary"));
    // The move came from the right click on the map (input.rs turns it into these actions).
    moved_east_once_after_an_undo(&s, &out);
    let log = &s.actions.0;
    // Chaos played its own turns meanwhile.
    assert!(log.iter().any(|(by, _)| *by == Camp::Chaos));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_main_phase_plays_from_the_keyboard_alone() {
    let Some(out) = play_script("keyboard") else {
        return;
    };
    let s = snapshot::read(&out.join("keyboard.ron")).expect("the script's save");
    // `.` selected army 2, K put the cursor east of it, Space ordered the move (R9.4), Ctrl+Z
    // took it back, and the same keys made it again.
    moved_east_once_after_an_undo(&s, &out);
    let log = &s.actions.0;
    // Enter ended the activation, then the turn; End played the Chaos turn out at once.
    assert!(log.contains(&(Camp::Eladrins, Action::EndActivation)));
    assert!(log.contains(&(Camp::Eladrins, Action::Pass)));
    assert!(log.iter().any(|(by, _)| *by == Camp::Chaos));
    assert_eq!(s.cycle.number, 2);
    let text = std::fs::read_to_string(out.join("log.txt")).unwrap_or_default();
    assert!(
        text.contains("the Chaos turn played out at once"),
        "End didn't skip the Chaos turn"
    );
    // The rebinding reached the settings file: G does what `.` did, and only that change is
    // saved.
    let (settings, notes) = chaos_outpost::app::settings::load(&out.join("settings.ron"));
    assert!(notes.is_empty(), "{notes:?}");
    let next = chaos_outpost::app::keys::Shortcut::NextUnit;
    assert_eq!(settings.keys.get(&next), Some(&vec!["G".to_string()]));
    assert_eq!(settings.keys.len(), 1, "{:?}", settings.keys);
    // F1 opened the help on its key list: a real frame, not blank.
    let (w, h, n) = colours(&out.join("keys_help.png"));
    assert_eq!((w, h), (1280, 720));
    assert!(n > 200, "only {n} colours");
    let _ = std::fs::remove_dir_all(&out);
}

/// RGB pixels of a PNG with its width.
fn pixels(path: &std::path::Path) -> (usize, Vec<[u8; 3]>) {
    let file = std::fs::File::open(path).expect("screenshot exists");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let bpp = info.line_size / info.width as usize;
    let px = (0..info.height as usize)
        .flat_map(|y| (0..info.width as usize).map(move |x| (x, y)))
        .map(|(x, y)| {
            let i = y * info.line_size + x * bpp;
            [buf[i], buf[i + 1], buf[i + 2]]
        })
        .collect();
    (info.width as usize, px)
}

/// Pixels that differ between two screenshots inside the map (left of the side panel, below
/// the phase bars, above the tile box) by more than 2 levels in a channel: a picture drawn at
/// one place and copied along by whole pixels may round a texel differently from one drawn
/// there (by one level, seen here), never more.
fn map_differences(a: &std::path::Path, b: &std::path::Path) -> usize {
    let ((w, pa), (_, pb)) = (pixels(a), pixels(b));
    (60..560)
        .flat_map(|y| (240..900).map(move |x| y * w + x))
        .filter(|&i| pa[i].iter().zip(pb[i]).any(|(x, y)| x.abs_diff(y) > 2))
        .count()
}

/// The map is drawn into a picture that is redrawn only when the map changes (map_cache.rs):
/// a still map stays the same picture; after a move made with the mouse, a pan within the
/// scroll margin and a pan past it, the picture changed and is what drawing the map afresh there
/// gives (a change the cache missed would leave it behind; a camera switched on after Bevy
/// decided what it sees drew no sprite, only the zone lines).
#[test]
fn the_map_picture_follows_the_game() {
    let Some(out) = play_script("map_cache") else {
        return;
    };
    let shot = |name: &str| out.join(format!("{name}.png"));
    let still = map_differences(&shot("still_a"), &shot("still_b"));
    assert_eq!(still, 0, "a still map changed between two frames");
    // Each step: the screenshot before, after, and after a fresh draw.
    for (before, after, fresh, what) in [
        ("still_b", "moved", "redrawn", "a move"),
        ("redrawn", "panned", "panned_fresh", "a pan"),
        ("panned", "far", "far_fresh", "a long pan"),
    ] {
        // The selection ring, the reach outlines, the token in its new place, or the whole
        // map shifted: thousands of pixels.
        let changed = map_differences(&shot(before), &shot(after));
        assert!(
            changed > 1000,
            "only {changed} map pixels changed after {what}"
        );
        let stale = map_differences(&shot(after), &shot(fresh));
        assert_eq!(
            stale, 0,
            "the picture after {what} differs from a fresh draw"
        );
    }
    let s = snapshot::read(&out.join("moved.ron")).expect("the script's save");
    let army = s.armies.iter().find(|a| a.id == 2).expect("army 2");
    assert_eq!((army.hex.x, army.hex.y), (1, 0));
    let _ = std::fs::remove_dir_all(&out);
}

/// Both scripts move army 2 from Dawnwatch one hex east, undo, and move again: the final save
/// holds one move (the undone one left the log) and the army east; the save taken right after
/// the undo shows it home with no move logged.
fn moved_east_once_after_an_undo(s: &snapshot::Snapshot, out: &std::path::Path) {
    let log = &s.actions.0;
    assert!(log.contains(&(Camp::Eladrins, Action::Activate { army: 2 })));
    let moves = log
        .iter()
        .filter(|x| **x == (Camp::Eladrins, Action::Move { to: (1, 0) }))
        .count();
    assert_eq!(
        moves, 1,
        "the undone move left the log, the second stayed: {log:?}"
    );
    let army = s.armies.iter().find(|a| a.id == 2).expect("army 2");
    assert_eq!((army.hex.x, army.hex.y), (1, 0));
    let u = snapshot::read(&out.join("undone.ron")).expect("the save after the undo");
    let a = u.armies.iter().find(|a| a.id == 2).expect("army 2");
    assert_eq!((a.hex.x, a.hex.y), (0, 0));
    assert!(
        !u.actions
            .0
            .iter()
            .any(|(_, x)| matches!(x, Action::Move { .. }))
    );
}

/// Plays `tests/ui/NAME.ron` in the real window under Xvfb (First Light, seed 1) and returns
/// its output folder; `None` where Xvfb is missing and not required.
fn play_script(name: &str) -> Option<PathBuf> {
    run_window(name, script_command(name, &[]))
}

/// The game playing `tests/ui/NAME.ron` on First Light, seed 1, with `extra` arguments to
/// `play`, writing into the folder it is given.
fn script_command<'a>(
    name: &str,
    extra: &'a [&'a str],
) -> impl FnOnce(&std::path::Path) -> Command + 'a {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join(format!("tests/ui/{name}.ron"));
    move |out| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"));
        c.args(["play", "--level", "first_light", "--seed", "1"])
            .args(extra)
            .arg("--script")
            .arg(&script)
            .arg("--out")
            .arg(out);
        c
    }
}

/// The game playing `tests/ui/SCRIPT.ron` on `level` with `seed`, with the test mods `mods`
/// (`tests/mods/NAME`), writing into `out`.
fn game_command(
    level: &str,
    seed: u64,
    script: &str,
    mods: &[&str],
    out: &std::path::Path,
) -> Command {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"));
    for m in mods {
        c.arg("--mod").arg(root.join("tests/mods").join(m));
    }
    c.args([
        "play",
        "--level",
        level,
        "--seed",
        &seed.to_string(),
        "--script",
    ])
    .arg(root.join(format!("tests/ui/{script}.ron")))
    .arg("--out")
    .arg(out);
    c
}

/// Runs the command `program(out)` gives under Xvfb, with settings and data of its own in
/// `out`, and returns `out` once it finished well; `None` where Xvfb is missing and not
/// required.
fn run_window(name: &str, program: impl FnOnce(&std::path::Path) -> Command) -> Option<PathBuf> {
    run_window_in(name, None, program)
}

/// `run_window` with its data folder (saves, autosaves, campaigns) at `data` when given, so
/// that a second run finds what the first left; else in `out`.
fn run_window_in(
    name: &str,
    data: Option<&std::path::Path>,
    program: impl FnOnce(&std::path::Path) -> Command,
) -> Option<PathBuf> {
    let (child, out) = spawn_window(name, data, program)?;
    Some(finish_window(name, child, out))
}

/// A window under Xvfb that has started.
struct Running {
    child: std::process::Child,
    started: Instant,
}

impl Drop for Running {
    /// A check that failed while the window ran leaves no window behind.
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.child.kill();
        }
    }
}

/// Starts `program(out)` under Xvfb; `None` where Xvfb is missing and not required.
fn spawn_window(
    name: &str,
    data: Option<&std::path::Path>,
    program: impl FnOnce(&std::path::Path) -> Command,
) -> Option<(Running, PathBuf)> {
    if !have("xvfb-run") {
        assert!(
            std::env::var("CHAOS_OUTPOST_REQUIRE_XVFB").is_err(),
            "xvfb-run is required here (CHAOS_OUTPOST_REQUIRE_XVFB is set)"
        );
        eprintln!("skipped: no xvfb-run (./dev test installs it)");
        return None;
    }
    let out = std::env::temp_dir().join(format!(
        "chaos-outpost-window-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("out dir");
    let inner = program(&out);
    let child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(inner.get_program())
        .args(inner.get_args())
        .envs(inner.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        // Settings and data of its own: never the developer's.
        .env("CHAOS_OUTPOST_CONFIG", out.join("settings.ron"))
        .env(
            "XDG_DATA_HOME",
            data.map(PathBuf::from).unwrap_or_else(|| out.join("data")),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(out.join("log.txt")).expect("log"))
        .spawn()
        .expect("xvfb-run starts");
    Some((
        Running {
            child,
            started: Instant::now(),
        },
        out,
    ))
}

/// Waits (up to 300 s) for the window to finish its script well; its output folder.
fn finish_window(name: &str, mut w: Running, out: PathBuf) -> PathBuf {
    let status = loop {
        if let Some(s) = w.child.try_wait().expect("wait") {
            break s;
        }
        if w.started.elapsed() > Duration::from_secs(300) {
            let _ = w.child.kill();
            panic!("the window didn't finish its script in 300 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let log = std::fs::read_to_string(out.join("log.txt")).unwrap_or_default();
    assert!(status.success(), "exit {status}; log:\n{log}");
    eprintln!(
        "window script {name}: {:.1} s",
        w.started.elapsed().as_secs_f32()
    );
    out
}

#[test]
fn the_trial_chapter_plays_in_the_real_window_with_its_hand_panel_and_track_bar() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests/ui/trial.ron");
    let Some(out) = run_window("trial", |out| {
        crate::chapter_seams::trial_program(&[
            "play",
            "--level",
            "trial",
            "--seed",
            "1",
            "--players",
            "Ana,Bo",
            "--script",
            &script.display().to_string(),
            "--out",
            &out.display().to_string(),
        ])
    }) else {
        return;
    };
    for shot in ["council_ana.png", "council_bo.png", "council_bo_fr.png"] {
        let (w, h, n) = colours(&out.join(shot));
        assert_eq!((w, h), (1280, 720));
        assert!(n > 200, "{shot}: only {n} colours");
    }
    let s = snapshot::read(&out.join("council.ron")).expect("the script's save");
    assert_eq!(s.step_id, "TCOUNCIL");
    let trial: crate::trial::Trial =
        ron::from_str(&s.chapters["trial"]).expect("the chapter's state in the save");
    let played = s
        .actions
        .0
        .iter()
        .filter_map(|(_, a)| chaos_outpost::rules::chapter::decode::<crate::trial::TrialAction>(a))
        .find_map(|t| match t {
            crate::trial::TrialAction::Play { card } => Some(card),
            _ => None,
        })
        .expect("Ana played a card");
    let ana = chaos_outpost::rules::tracks::Holder::Seat(0);
    let flame = (s.tracks.0.iter())
        .find(|(id, h, _)| id == "flame" && *h == ana)
        .map(|(_, _, v)| *v)
        .unwrap_or(0);
    assert_eq!(flame, played as i32, "T3: her flame rose by the card");
    assert_eq!(trial.hands[&0].len(), 1, "T1 dealt two, she played one");
    let _ = std::fs::remove_dir_all(&out);
}

/// The Wyvern Wardens board, as a player meets it: seat 0's whole action phase (M1–M12)
/// played with the real mouse (xdotool) on the board's pieces, never a text button: a slot,
/// the composer's steppers and its confirm, the Chief with a recall (the group's slot, the
/// slot it goes to, the group formed again), a special place; then the rewards
/// and the raid shown. Each click is found by name in the report the game writes
/// (`Serve`), and the state after each is read from the save beside it.
#[test]
fn wyvern_wardens_plays_a_round_by_clicks_on_its_board() {
    use chaos_outpost::chapters::mercenaries::data::Assistant;
    use chaos_outpost::chapters::mercenaries::state::{Mercs, Owner, Standing};
    if !xdotool_here() {
        return;
    }
    let mercs = |out: &std::path::Path, k: u32| -> Mercs {
        let s = snapshot::read(&out.join(format!("board.{k}.save.ron"))).expect("a save");
        ron::from_str(&s.chapters["mercenaries"]).expect("the chapter's state")
    };
    // What the drive saw: each report's number after a click of ours, and what it was.
    let drive = |out: &std::path::Path| -> Vec<(String, u32)> {
        let xdo = Xdo::of(out);
        let mut k = 0u32;
        let look = |k: &mut u32| {
            std::fs::write(out.join(format!("board.ask.{k}")), "").expect("ask");
            wait_for(out, &format!("board.{k}.ron"));
            let r = report(&out.join(format!("board.{k}.ron")));
            *k += 1;
            r
        };
        let click = |r: &chaos_outpost::view::script::WindowReport, name: &str| {
            let [x, y, w, h] = r
                .targets
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("no target `{name}` on the board: {:?}", r.targets))
                .1;
            let (cx, cy) = (
                format!("{}", (x + w / 2.0) as i32),
                format!("{}", (y + h / 2.0) as i32),
            );
            xdo.run(&["mousemove", &cx, &cy]);
            std::thread::sleep(Duration::from_millis(150));
            xdo.run(&["click", "1"]);
            std::thread::sleep(Duration::from_millis(150));
        };
        let has = |r: &chaos_outpost::view::script::WindowReport, name: &str| {
            r.targets.iter().any(|(n, _)| n == name)
        };
        let mut done = Vec::new();
        let mut turn = 0;
        for _ in 0..400 {
            let r = look(&mut k);
            if r.step != "MACTION" {
                break;
            }
            if r.seat_asked != Some(0) {
                // Seat 0's turn with nothing left but to pass (M1): the board says so.
                if r.seat_to_play == Some(0) && has(&r, "pass") {
                    click(&r, "pass");
                    done.push(("pass".to_string(), k));
                } else {
                    std::thread::sleep(Duration::from_millis(200));
                }
                continue;
            }
            if has(&r, "board:open") {
                click(&r, "board:open");
                continue;
            }
            match turn {
                // A ranger and a recruit to the Guild's slot numbered 2, with the steppers.
                0 => {
                    click(&r, "slot:guild:0");
                    let r = look(&mut k);
                    click(&r, "plus:Ranger");
                    click(&r, "plus:Recruit");
                    click(&r, "confirm");
                    done.push(("guild".to_string(), k));
                }
                // The Chief, recalling that group to another slot, formed again (M11).
                1 => {
                    click(&r, "assistant:Chief");
                    let r = look(&mut k);
                    assert!(has(&r, "chief_alone"), "the Chief alone not offered");
                    click(&r, "slot:guild:0");
                    let r = look(&mut k);
                    let to = r
                        .targets
                        .iter()
                        .map(|(n, _)| n.clone())
                        .find(|n| n.starts_with("slot:") && n != "slot:guild:0")
                        .expect("nowhere to send the recalled group");
                    click(&r, &to);
                    let r = look(&mut k);
                    click(&r, "pick:0");
                    click(&r, "confirm");
                    done.push((to, k));
                }
                2 => {
                    click(&r, "special:warehouse");
                    done.push(("warehouse".to_string(), k));
                }
                // Then whatever the board offers, a slot first, with a ready-made group.
                _ => {
                    let slot = r.targets.iter().find(|(n, _)| n.starts_with("slot:"));
                    let other = r
                        .targets
                        .iter()
                        .find(|(n, _)| n.starts_with("special:") || n.starts_with("assistant:"));
                    if let Some((name, _)) = slot {
                        let name = name.clone();
                        click(&r, &name);
                        let r = look(&mut k);
                        click(&r, "pick:0");
                        click(&r, "confirm");
                        done.push((name, k));
                    } else if let Some((name, _)) = other {
                        let name = name.clone();
                        click(&r, &name);
                        done.push((name, k));
                    } else if has(&r, "pass") {
                        click(&r, "pass");
                        done.push(("pass".to_string(), k));
                    } else {
                        panic!(
                            "seat 0 is asked but the board offers nothing: {:?}",
                            r.targets
                        );
                    }
                }
            }
            turn += 1;
        }
        std::fs::write(out.join("board.stop"), "").expect("stop");
        done
    };
    let mut seen = Vec::new();
    let Some(out) = run_window_driven(
        "mercenaries_board",
        |out| game_command("mercenaries", 3, "mercenaries_board", &[], out),
        |out| seen = drive(out),
    ) else {
        return;
    };
    assert!(
        seen.len() >= 3,
        "seat 0 took {} turns: {seen:?}",
        seen.len()
    );
    // After the first click's confirm: the group stands on the Guild's first slot, and left
    // the reserve (3 recruits, 1 scout, 1 ranger, 1 guardian at the start).
    let after_guild = mercs(&out, seen[0].1);
    assert_eq!(
        after_guild.boards["guild"].slots[0],
        Some(Standing {
            owner: Owner::Seat(0),
            group: [1, 0, 1, 0],
        }),
        "the composed group is not on the Guild's slot"
    );
    assert_eq!(after_guild.seats[&0].reserve, [2, 1, 0, 1]);
    // The Chief clicked, the Guild's group recalled and sent again: seat 0 holds the Chief,
    // its group stands on the slot clicked, and it took no second place (M11).
    let after_chief = mercs(&out, seen[1].1);
    assert_eq!(after_chief.holder(Assistant::Chief), Some(0));
    let to: Vec<&str> = seen[1].0.split(':').collect();
    let (place, slot) = (to[1], to[2].parse::<usize>().expect("slot"));
    assert_eq!(
        after_chief.boards[place].slots[slot]
            .as_ref()
            .map(|x| x.owner),
        Some(Owner::Seat(0)),
        "the recalled group is not on {place}:{slot}"
    );
    let groups_of_0 = |m: &Mercs| {
        m.boards
            .values()
            .flat_map(|b| b.slots.iter().flatten())
            .filter(|x| x.owner == Owner::Seat(0))
            .count()
    };
    assert_eq!(groups_of_0(&after_chief), 1, "one group, moved");
    // The Warehouse clicked: used by seat 0 this round (M10), its equipment given.
    let after_warehouse = mercs(&out, seen[2].1);
    assert!(after_warehouse.used["warehouse"].contains(&0));
    assert!(
        after_warehouse.seats[&0].equipment >= after_chief.seats[&0].equipment + 2,
        "the Warehouse gave no equipment"
    );
    // The round went on to its rewards, raid and reset: the next round's board.
    let s = snapshot::read(&out.join("after_round.ron")).expect("the save after the round");
    let after: Mercs = ron::from_str(&s.chapters["mercenaries"]).expect("state");
    assert_eq!(after.round, after_guild.round + 1, "the round did not end");
    assert!(
        after.boards["guild"].slots.iter().all(|x| x.is_none()),
        "the slots were not cleared at the reset (M15)"
    );
    // The rewards play on the board: it is open while the show rings a place of the chapter.
    let rewards = report(&out.join("rewards.ron"));
    let places = [
        "guild",
        "tavern",
        "camp",
        "mountains",
        "reserves",
        "garrison",
    ];
    let lvl = crate::common::base()
        .level_fields::<chaos_outpost::chapters::mercenaries::data::MercLevel>("mercenaries")
        .expect("the level's chapter fields");
    let ringed = rewards.showing.expect("no place shown at the rewards");
    assert!(
        places
            .iter()
            .filter_map(|p| lvl.place(p))
            .any(|p| p.at == ringed),
        "the show rings {ringed:?}, no place of the board"
    );
    assert!(
        rewards.shown.iter().any(|(n, _)| n == "table"),
        "the board is not open during the rewards: {:?}",
        rewards.shown
    );
    // The raid plays after the rewards, on the striking raid card: the card, then what each
    // seat discarded and the Flame it took (M14), the board still open.
    let raid = report(&out.join("raid.ron"));
    let home = raid.showing.expect("nothing shown at the raid");
    assert!(
        !lvl.places.iter().any(|p| p.at == home),
        "the last card rings a place, not the raid: {home:?} {:?}",
        raid.showing_lines
    );
    assert!(
        !raid.showing_lines.is_empty()
            && raid
                .showing_lines
                .iter()
                .all(|l| l.contains("strikes") || l.contains("discards") || l.contains("Flame +")),
        "the raid's lines: {:?}",
        raid.showing_lines
    );
    assert!(raid.shown.iter().any(|(n, _)| n == "table"));
    for shot in ["board_start.png", "board_rewards.png", "board_raid.png"] {
        let (_, _, n) = colours(&out.join(shot));
        assert!(n > 200, "{shot}: only {n} colours");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The White Tomb where the Eladrins guide (tests/mods/guide_window): three Guide turns played
/// by clicking with the real mouse on a stop the map marks (two advances over her red cells,
/// D1, then a brake, D2). Each click moves her to the hex clicked (the stop's mark names it), ends the
/// Guide's step, and a brake costs the Guide its gem.
#[test]
fn the_white_tomb_is_guided_by_clicks_on_her_marked_stops() {
    use chaos_outpost::chapters::dragoness::guide::Pos;
    use chaos_outpost::chapters::dragoness::state::Dragoness;
    if !xdotool_here() {
        return;
    }
    // The mod changes the level's steps alone: its chapter fields are the shipped level's.
    let lvl = crate::common::base()
        .level_fields::<chaos_outpost::chapters::dragoness::data::DragonessLevel>("dragoness")
        .expect("the level's chapter fields");
    let read = |out: &std::path::Path, name: &str| -> (Dragoness, i32) {
        let s = snapshot::read(&out.join(name)).expect("a save");
        let d: Dragoness = ron::from_str(&s.chapters["dragoness"]).expect("the chapter's state");
        let guide = chaos_outpost::rules::tracks::Holder::Camp(Camp::Eladrins);
        let gems = s
            .tracks
            .0
            .iter()
            .find(|t| t.0 == chaos_outpost::chapters::dragoness::GEMS && t.1 == guide)
            .map_or(0, |t| t.2);
        (d, gems)
    };
    // Each turn: the stop clicked (its kind and hex) and the asks' numbers before and after.
    let drive = |out: &std::path::Path| -> Vec<(String, (i32, i32), u32, u32)> {
        let xdo = Xdo::of(out);
        let mut k = 0u32;
        let look = |k: &mut u32, name: &str| {
            std::fs::write(out.join(format!("{name}.ask.{k}")), "").expect("ask");
            wait_for(out, &format!("{name}.{k}.ron"));
            let r = report(&out.join(format!("{name}.{k}.ron")));
            *k += 1;
            (r, *k - 1)
        };
        let mut done = Vec::new();
        // Her first cells are red (D1: advance only); the third turn brakes.
        for (turn, want) in ["advance", "advance", "brake"].iter().enumerate() {
            let name = format!("guide{turn}");
            let (r, before) = look(&mut k, &name);
            assert_eq!(r.step, "DGUIDE", "turn {turn}: not the Guide's step");
            let prefix = format!("map:{want}:");
            let (key, [x, y, w, h]) = r
                .targets
                .iter()
                .find(|(n, _)| n.starts_with(&prefix))
                .cloned()
                .unwrap_or_else(|| {
                    panic!("turn {turn}: no {want} stop on the map: {:?}", r.targets)
                });
            let at: Vec<i32> = key[prefix.len()..]
                .split(',')
                .map(|v| v.parse().expect("a hex"))
                .collect();
            let (cx, cy) = (x + w / 2.0, y + h / 2.0);
            let [mx, my, mw, mh] = r.map_rect.expect("the map's area");
            assert!(
                cx > mx && cx < mx + mw && cy > my && cy < my + mh,
                "turn {turn}: the stop at ({cx}, {cy}) is off the map's area"
            );
            xdo.run(&[
                "mousemove",
                &format!("{}", cx as i32),
                &format!("{}", cy as i32),
            ]);
            std::thread::sleep(Duration::from_millis(200));
            xdo.run(&["click", "1"]);
            std::thread::sleep(Duration::from_millis(300));
            let (r, after) = look(&mut k, &name);
            assert_ne!(
                r.step, "DGUIDE",
                "turn {turn}: the click on {key} did not move her"
            );
            std::fs::write(out.join(format!("{name}.stop")), "").expect("stop");
            done.push((want.to_string(), (at[0], at[1]), before, after));
        }
        done
    };
    let mut seen = Vec::new();
    let Some(out) = run_window_driven(
        "dragoness_guide",
        |out| game_command("dragoness", 4, "dragoness_guide", &["guide_window"], out),
        |out| seen = drive(out),
    ) else {
        return;
    };
    assert_eq!(seen.len(), 3);
    for (turn, (kind, at, before, after)) in seen.iter().enumerate() {
        let name = format!("guide{turn}");
        let (b, gems_before) = read(&out, &format!("{name}.{before}.save.ron"));
        let (a, gems_after) = read(&out, &format!("{name}.{after}.save.ron"));
        let her = |d: &Dragoness| {
            let h = Pos::of(d).hex(&lvl);
            (h.x, h.y)
        };
        assert_ne!(her(&b), *at, "turn {turn}: she stood on the stop already");
        assert_eq!(
            her(&a),
            *at,
            "turn {turn}: the {kind} clicked did not take her there"
        );
        assert!(a.moved, "turn {turn}: the Guide's move is not recorded");
        if kind == "brake" {
            assert_eq!(
                gems_after,
                gems_before - lvl.brake_cost,
                "turn {turn}: the brake's gem (D2)"
            );
        }
        let r = report(&out.join(format!("{name}.{after}.ron")));
        assert_ne!(
            r.step, "DGUIDE",
            "turn {turn}: the Guide's step is still open"
        );
    }
    let (_, _, n) = colours(&out.join("guide_0.png"));
    assert!(n > 200, "guide_0.png: only {n} colours");
    let _ = std::fs::remove_dir_all(&out);
}

/// The game the clans' window test starts from (written to `path`): Clans of the Rift in
/// hot-seat, Ana and Bo, at the action phase with Ana to play. Ana has Oath of Rage on her
/// first clan slot and Skald's Saga, Hold the South and Berserk Charge in hand, a warrior in
/// Stonecrest; Bo has Hold the North and Chieftain's Torc; Chaos has no card and no Rage
/// (it can only pass, C11), its leader in Stonecrest.
fn clans_round_start(path: &std::path::Path) {
    use chaos_outpost::chapters::clans::reckon::holder;
    use chaos_outpost::chapters::clans::state::{Clans, Owner, Placed, Spot};
    use chaos_outpost::chapters::clans::{self, data::Fig};
    use chaos_outpost::rules::{setup, tracks};
    let mut app = setup::headless_app(std::sync::Arc::new(crate::common::base()));
    let names = ["Ana".to_string(), "Bo".to_string()];
    setup::start_game_for(app.world_mut(), "clans", None, 5, &names).expect("the level starts");
    let mut s = crate::common::Scn { app };
    s.enter_step(clans::ACTION_STEP);
    let w = s.w();
    {
        let mut res = w.resource_mut::<Clans>();
        let c: &mut Clans = &mut res;
        let hands: [(Owner, &[&str]); 3] = [
            (
                Owner::Seat(0),
                &["skalds_saga", "hold_the_south", "berserk_charge"],
            ),
            (Owner::Seat(1), &["hold_the_north", "chieftains_torc"]),
            (Owner::Chaos, &[]),
        ];
        // Every card dealt goes back to the deck first, and each one placed is taken from
        // it: the game checks a save's cards against the decks' copies.
        for sh in c.sheets.values_mut() {
            let hand = std::mem::take(&mut sh.hand);
            c.deck.extend(hand);
        }
        let take = |c: &mut Clans, card: &str| {
            let i = c
                .deck
                .iter()
                .position(|x| x == card)
                .unwrap_or_else(|| panic!("no {card} left in the deck"));
            c.deck.remove(i)
        };
        for (o, cards) in hands {
            for card in cards {
                let card = take(c, card);
                c.sheets.get_mut(&o).expect("a clan").hand.push(card);
            }
        }
        let oath = take(c, "oath_of_rage");
        c.sheets.get_mut(&Owner::Seat(0)).expect("Ana").slots[5] = Some(oath);
        for (o, fig) in [(Owner::Seat(0), Fig::Warrior), (Owner::Chaos, Fig::Leader)] {
            let sh = c.sheets.get_mut(&o).expect("a clan");
            if let Some(i) = sh.reserve.iter().position(|f| *f == fig) {
                sh.reserve.remove(i);
            }
            c.board.push(Placed {
                owner: o,
                fig,
                at: Spot::Province("stonecrest".into()),
            });
        }
        c.board.sort();
    }
    for (o, n) in [(Owner::Seat(0), 10), (Owner::Seat(1), 6), (Owner::Chaos, 0)] {
        let now = tracks::get(w, clans::RAGE, holder(o));
        tracks::add(w, clans::RAGE, holder(o), n - now);
    }
    snapshot::save(w, path).expect("the save is written");
}

/// Clans of the Rift in hot-seat, played with the real mouse (xdotool) on the clan sheet and
/// the map, never a text button of the panel: Ana upgrades into an occupied slot (C3), the
/// hand-off screen hides the board and then Bo's sheet shows his hand face up and Ana's face
/// down; each seat lays a quest (C9), Bo upgrades his leader and clicks on the map where it
/// invades at once (C5), Ana
/// pillages Stonecrest by its token on the map (C13) and plays her battle card in the call
/// that follows (C17); the battle is shown step by step, one line at a time. Each step's
/// state is read from the save written beside the report after it.
#[test]
fn clans_plays_a_hot_seat_round_by_clicks_on_the_sheet_and_the_map() {
    use chaos_outpost::chapters::clans::data::Fig;
    use chaos_outpost::chapters::clans::state::{Clans, Owner};
    use chaos_outpost::view::script::WindowReport;
    if !xdotool_here() {
        return;
    }
    let clans = |out: &std::path::Path, k: u32| -> (Clans, i32) {
        let s = snapshot::read(&out.join(format!("round.{k}.save.ron"))).expect("a save");
        let c: Clans = ron::from_str(&s.chapters["clans"]).expect("the chapter's state");
        let ana = chaos_outpost::rules::tracks::Holder::Seat(0);
        let rage = s
            .tracks
            .0
            .iter()
            .find(|t| t.0 == chaos_outpost::chapters::clans::RAGE && t.1 == ana)
            .map_or(0, |t| t.2);
        (c, rage)
    };
    let hand_pieces = |r: &WindowReport| -> (Vec<String>, Vec<String>) {
        let mut up: Vec<String> = Vec::new();
        let mut down: Vec<String> = Vec::new();
        for (n, _) in &r.pieces {
            if let Some(rest) = n.strip_prefix("hand:") {
                up.push(rest.to_string());
            } else if let Some(rest) = n.strip_prefix("back:") {
                down.push(rest.to_string());
            }
        }
        (up, down)
    };
    // The reports' numbers after each step, with what the drive saw on the way.
    struct Seen {
        upgrade: u32,
        hidden: WindowReport,
        bo_at_screen: WindowReport,
        bo_quest: u32,
        ana_quest: u32,
        bo_upgrade: u32,
        invaded: String,
        pillage: u32,
        battle: u32,
        lines: Vec<Vec<String>>,
    }
    let drive = |out: &std::path::Path| -> Seen {
        let xdo = Xdo::of(out);
        let next = std::cell::Cell::new(0u32);
        let look = || {
            let k = next.get();
            std::fs::write(out.join(format!("round.ask.{k}")), "").expect("ask");
            wait_for(out, &format!("round.{k}.ron"));
            next.set(k + 1);
            (report(&out.join(format!("round.{k}.ron"))), k)
        };
        let click = |r: &WindowReport, name: &str| {
            let [x, y, w, h] = r
                .targets
                .iter()
                .find(|(n, _)| n == name || n.starts_with(&format!("{name}:")))
                .unwrap_or_else(|| panic!("no target `{name}`: {:?}", r.targets))
                .1;
            xdo.run(&[
                "mousemove",
                &format!("{}", (x + w / 2.0) as i32),
                &format!("{}", (y + h / 2.0) as i32),
            ]);
            std::thread::sleep(Duration::from_millis(150));
            xdo.run(&["click", "1"]);
            std::thread::sleep(Duration::from_millis(250));
        };
        // Waits until the seat is asked (the hand-off screen clicked through on the way).
        let asked = |seat: u8| {
            for _ in 0..200 {
                let (r, k) = look();
                if r.targets.iter().any(|(n, _)| n == "handoff") {
                    click(&r, "handoff");
                    continue;
                }
                let mine = format!("hand:{seat}:");
                if r.seat_asked == Some(seat) && r.pieces.iter().any(|(n, _)| n.starts_with(&mine))
                {
                    return (r, k);
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            panic!("seat {seat} was never asked");
        };
        let hand_ix = |out: &std::path::Path, k: u32, seat: u8, card: &str| -> String {
            let (c, _) = clans(out, k);
            let i = c.sheets[&Owner::Seat(seat)]
                .hand
                .iter()
                .position(|h| h == card)
                .unwrap_or_else(|| panic!("{card} is not in seat {seat}'s hand"));
            format!("hand:{i}")
        };
        // Ana: Skald's Saga onto her first clan slot, where Oath of Rage lies (C3).
        let (r, at) = asked(0);
        click(&r, &hand_ix(out, at, 0, "skalds_saga"));
        let (r, _) = look();
        for lit in ["slot:5", "slot:6", "slot:7"] {
            assert!(
                r.targets.iter().any(|(n, _)| n == lit),
                "Skald's Saga picked: {lit} is not lit: {:?}",
                r.targets
            );
        }
        click(&r, "slot:5");
        // Bo's turn: the hand-off screen first, the board hidden behind it.
        let hidden = loop {
            let (r, _) = look();
            if r.targets.iter().any(|(n, _)| n == "handoff") {
                break r;
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        let upgrade = next.get() - 1;
        click(&hidden, "handoff");
        let (bo_at_screen, at) = asked(1);
        click(&bo_at_screen, &hand_ix(out, at, 1, "hold_the_north"));
        let (r, _) = look();
        click(&r, "use:quest");
        let bo_quest = next.get();
        // Chaos passes (0 Rage); Ana lays her quest.
        let (r, at) = asked(0);
        click(&r, &hand_ix(out, at, 0, "hold_the_south"));
        let (r, _) = look();
        click(&r, "use:quest");
        let ana_quest = next.get();
        // Bo: Chieftain's Torc onto his leader's slot, and his leader invades at once where he
        // clicks on the map (C5): the board offers the provinces there too.
        let (r, at) = asked(1);
        click(&r, &hand_ix(out, at, 1, "chieftains_torc"));
        let (r, _) = look();
        click(&r, "slot:1");
        let (r, _) = look();
        assert!(
            r.targets.iter().any(|(n, _)| n == "invade:none"),
            "not invading is not offered: {:?}",
            r.targets
        );
        click(&r, "board:close");
        let (r, _) = look();
        assert!(r.pieces.is_empty(), "the board is still open");
        let to = r
            .targets
            .iter()
            .map(|(n, _)| n.clone())
            .find(|n| n.starts_with("map:invade:") && !n.contains("stonecrest"))
            .unwrap_or_else(|| panic!("no province offered on the map: {:?}", r.targets));
        click(&r, &to);
        let invaded = to.split(':').nth(2).expect("a province").to_string();
        let bo_upgrade = next.get();
        // Ana pillages Stonecrest from its token on the map; Chaos answers; her card.
        // The board covers the map: closed by its line's button, then the token clicked.
        let (r, _) = asked(0);
        assert!(
            r.targets
                .iter()
                .any(|(n, _)| n.starts_with("map:pillage:stonecrest")),
            "Stonecrest's token is not offered: {:?}",
            r.targets
        );
        click(&r, "board:close");
        let (r, _) = look();
        assert!(
            r.pieces.is_empty(),
            "the board is still open: {:?}",
            r.pieces
        );
        click(&r, "map:pillage:stonecrest");
        let pillage = next.get();
        let (r, at) = asked(0);
        click(&r, &hand_ix(out, at, 0, "berserk_charge"));
        let (r, _) = look();
        click(&r, "use:battle");
        let battle = next.get();
        // The battle's card, read while it plays: its lines come one at a time.
        let mut lines: Vec<Vec<String>> = Vec::new();
        for _ in 0..80 {
            let (r, _) = look();
            let now = r.showing_lines.clone();
            if r.showing.is_none() && !lines.is_empty() {
                break;
            }
            if !now.is_empty() && lines.last() != Some(&now) {
                lines.push(now);
            }
        }
        std::fs::write(out.join("round.stop"), "").expect("stop");
        Seen {
            upgrade,
            hidden,
            bo_at_screen,
            bo_quest,
            ana_quest,
            bo_upgrade,
            invaded,
            pillage,
            battle,
            lines,
        }
    };
    let mut seen = None;
    let Some(out) = run_window_driven(
        "clans_round",
        |out| {
            clans_round_start(&out.join("start.save.ron"));
            game_command("clans", 5, "clans_round", &[], out)
        },
        |out| seen = Some(drive(out)),
    ) else {
        return;
    };
    let seen = seen.expect("the drive ran");
    let (ana, bo, chaos) = (Owner::Seat(0), Owner::Seat(1), Owner::Chaos);
    // The upgrade into an occupied slot: Skald's Saga there, Oath of Rage discarded (C3), its
    // STR paid in Rage (C2).
    let (start, rage_before) = clans(&out, 0);
    let (c, rage) = clans(&out, seen.upgrade);
    assert_eq!(c.sheets[&ana].slots[5].as_deref(), Some("skalds_saga"));
    assert!(c.discard.contains(&"oath_of_rage".to_string()), "C3");
    assert!(!c.sheets[&ana].hand.contains(&"skalds_saga".to_string()));
    assert_eq!(rage, rage_before - 1, "Skald's Saga's STR in Rage");
    assert_eq!(start.sheets[&ana].slots[5].as_deref(), Some("oath_of_rage"));
    // Behind the hand-off screen nothing of the board is drawn; after it, Bo's hand face up
    // and Ana's face down, as many backs as she has cards.
    assert!(
        seen.hidden.pieces.is_empty(),
        "the board shows behind the hand-off screen: {:?}",
        seen.hidden.pieces
    );
    let (up, down) = hand_pieces(&seen.bo_at_screen);
    let mut want: Vec<String> = c.sheets[&bo]
        .hand
        .iter()
        .map(|h| format!("1:{h}"))
        .collect();
    want.sort();
    let mut up_sorted = up.clone();
    up_sorted.sort();
    assert_eq!(up_sorted, want, "Bo's hand face up, nobody else's");
    assert_eq!(
        down.iter().filter(|d| *d == "0").count(),
        c.sheets[&ana].hand.len(),
        "Ana's hand face down: {down:?}"
    );
    // The quests, face down on their sheets (C9).
    let (c, _) = clans(&out, seen.bo_quest);
    assert_eq!(c.sheets[&bo].quests, ["hold_the_north"]);
    let (c, _) = clans(&out, seen.ana_quest);
    assert_eq!(c.sheets[&ana].quests, ["hold_the_south"]);
    // Bo's leader upgrade, his leader on the board where he clicked, for no more Rage (C5).
    let (c, _) = clans(&out, seen.bo_upgrade);
    assert_eq!(c.sheets[&bo].slots[1].as_deref(), Some("chieftains_torc"));
    assert!(!c.sheets[&bo].reserve.contains(&Fig::Leader));
    assert!(
        c.board.iter().any(|p| p.owner == bo
            && p.fig == Fig::Leader
            && p.at == chaos_outpost::chapters::clans::state::Spot::Province(seen.invaded.clone())),
        "Bo's leader is not in {}: {:?}",
        seen.invaded,
        c.board
    );
    // The pillage called to battle over Stonecrest (C14).
    let (c, _) = clans(&out, seen.pillage);
    let call = c.call.as_ref().expect("the pillage called to battle");
    assert_eq!((call.pillager, call.province.as_str()), (ana, "stonecrest"));
    // The battle: Ana's warrior and Berserk Charge (3) beat Chaos' leader (2): the leader to
    // Valhalla, her card spent, the province hers (C17).
    let (c, _) = clans(&out, seen.battle);
    assert!(c.call.is_none(), "the battle is not resolved");
    assert_eq!(c.sheets[&chaos].valhalla, [Fig::Leader]);
    assert!(c.discard.contains(&"berserk_charge".to_string()));
    assert_eq!(c.sheets[&ana].won, 1);
    assert!(c.pillaged.contains(&"stonecrest".to_string()));
    // Shown step by step: each look saw the lines before it and one more.
    let lines = &seen.lines;
    assert!(
        lines.len() >= 3,
        "the battle's lines did not come one at a time: {lines:?}"
    );
    for w in lines.windows(2) {
        assert!(
            w[1].len() > w[0].len() && w[1].starts_with(&w[0]),
            "the lines came out of order: {lines:?}"
        );
    }
    let all = lines.last().expect("lines").join(" / ");
    for part in [
        "Chaos played no card",
        "Ana turns up Berserk Charge (+2 STR)",
        "Eladrins 3 STR, Chaos 2: the Eladrins win",
        "Chaos: 1 figure to Valhalla",
        "Ana takes its reward",
    ] {
        assert!(all.contains(part), "`{part}` not shown: {all}");
    }
    let s = snapshot::read(&out.join("after.ron")).expect("the save after");
    let after: Clans = ron::from_str(&s.chapters["clans"]).expect("state");
    assert_eq!(after.sheets[&ana].won, 1);
    let _ = std::fs::remove_dir_all(&out);
}

/// A window at rest draws nothing, and input wakes it at once (`view::rest`): First Light at
/// its first decision left alone for 8 s updates only at its slow tick (not the 60 a second of
/// a window that never rests); a mouse move over the map and a key (F1, the help) each show on
/// screen within 0.4 s, read from the X screen with ImageMagick's import; the AIs playing to
/// the next cycle (the Chaos turn among it) draw frames all along.
#[test]
fn a_window_at_rest_draws_nothing_and_input_wakes_it_at_once() {
    if !xdotool_here() {
        return;
    }
    if !have("import") {
        assert!(
            std::env::var("CHAOS_OUTPOST_REQUIRE_XVFB").is_err(),
            "ImageMagick's import is required here (CHAOS_OUTPOST_REQUIRE_XVFB is set)"
        );
        eprintln!("skipped: no import (./dev test installs ImageMagick)");
        return;
    }
    // Pixels apart between two screenshots of the X screen, taken `after` seconds apart
    // around what `act` does.
    let drive = |out: &std::path::Path| -> (usize, usize) {
        let xdo = Xdo::of(out);
        let shot = |name: &str| {
            let status = Command::new("import")
                .args(["-window", "root"])
                .arg(out.join(name))
                .env("DISPLAY", &xdo.display)
                .env("XAUTHORITY", &xdo.xauthority)
                .status()
                .expect("import runs");
            assert!(status.success(), "import {name}: {status}");
        };
        wait_for(out, "rest_0.ron");
        // Left alone.
        std::thread::sleep(Duration::from_secs(8));
        std::fs::write(out.join("rested"), "").expect("rested");
        wait_for(out, "rest_1.ron");
        std::thread::sleep(Duration::from_millis(500));
        let r = report(&out.join("rest_1.ron"));
        let [mx, my, mw, mh] = r.map_rect.expect("the map's area");
        // The mouse to the map's middle: the hovered hex's line appears.
        shot("before_move.png");
        xdo.run(&[
            "mousemove",
            &format!("{}", (mx + mw * 0.45) as i32),
            &format!("{}", (my + mh * 0.55) as i32),
        ]);
        std::thread::sleep(Duration::from_millis(400));
        shot("after_move.png");
        let moved = pixels_apart(&out.join("before_move.png"), &out.join("after_move.png"));
        // A key: F1 opens the help. The window takes the keyboard first: under Xvfb with no
        // window manager, nothing gives it the focus.
        xdo.run(&["search", "--name", "Chaos Outpost", "windowfocus", "--sync"]);
        std::thread::sleep(Duration::from_millis(500));
        shot("before_key.png");
        xdo.run(&["key", "F1"]);
        std::thread::sleep(Duration::from_millis(400));
        shot("after_key.png");
        let keyed = pixels_apart(&out.join("before_key.png"), &out.join("after_key.png"));
        xdo.run(&["key", "Escape"]);
        std::fs::write(out.join("woken"), "").expect("woken");
        (moved, keyed)
    };
    let mut seen = (0, 0);
    let Some(out) = run_window_driven(
        "rest",
        |out| game_command("first_light", 1, "rest", &[], out),
        |out| seen = drive(out),
    ) else {
        return;
    };
    let frames = |name: &str| report(&out.join(name)).ui_frames;
    let (r0, r1, r2, r3) = (
        frames("rest_0.ron"),
        frames("rest_1.ron"),
        frames("rest_2.ron"),
        frames("rest_3.ron"),
    );
    // 8 s and more at rest: the slow tick's frames (one each 2 s) and a few to notice the
    // file, never 60 a second.
    assert!(
        r1.1 - r0.1 <= 20,
        "{} frames in the 8 s at rest ({r0:?} -> {r1:?})",
        r1.1 - r0.1
    );
    // A timer that ends at rest: the card up before the rest is put away after its 8 s,
    // the window woken for it (counted on the game's clock, which moves at most a quarter of
    // a second a wake, it stayed up for a minute); the next one drawn comes up then.
    let before = report(&out.join("rest_0.ron")).cards;
    let after = report(&out.join("rest_1.ron")).cards;
    let first = before.first().expect("a card is up at the first decision");
    assert!(
        after.len() < before.len() && after.first() != Some(first),
        "{first} was still up after 8 s and more at rest ({before:?} -> {after:?})"
    );
    let (moved, keyed) = seen;
    assert!(moved > 50, "the mouse move showed {moved} pixels in 0.4 s");
    assert!(keyed > 5000, "F1 showed {keyed} pixels in 0.4 s");
    assert!(r2.0 > r1.0, "nothing was drawn for the mouse and the key");
    // The AIs playing to the next cycle: their moves drawn as they come.
    assert!(
        r3.0 - r2.0 >= 10,
        "the Chaos turn drew {} frames",
        r3.0 - r2.0
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The pixels two screenshots of one size differ in.
fn pixels_apart(a: &std::path::Path, b: &std::path::Path) -> usize {
    let ((wa, a), (wb, b)) = (pixels(a), pixels(b));
    assert_eq!(
        (wa, a.len()),
        (wb, b.len()),
        "screenshots of different sizes"
    );
    a.iter().zip(&b).filter(|(x, y)| x != y).count()
}

/// Left alone, the window shows its last frame again instead of drawing it (`frame_cache`):
/// over 60 still frames the interface is drawn in at most the few after the last change; the
/// help opened is drawn at once, and the frame shown is the new one.
#[test]
fn a_still_window_shows_its_last_frame_again_and_a_change_draws_at_once() {
    let Some(out) = play_script("still_frames") else {
        return;
    };
    let (a, b, c) = (
        report(&out.join("still_a.ron")).ui_frames,
        report(&out.join("still_b.ron")).ui_frames,
        report(&out.join("changed.ron")).ui_frames,
    );
    assert!(b.1 - a.1 >= 60, "frames seen {a:?} → {b:?}");
    assert!(
        b.0 - a.0 <= 3,
        "the still window drew its interface in {} of {} frames",
        b.0 - a.0,
        b.1 - a.1
    );
    assert!(c.0 > b.0, "the help opened was not drawn: {b:?} → {c:?}");
    let apart = pixels_apart(&out.join("still.png"), &out.join("help.png"));
    assert!(
        apart > 10_000,
        "the help is not on screen ({apart} pixels changed)"
    );
    let (_, _, n) = colours(&out.join("still.png"));
    assert!(n > 200, "the still frame is blank: {n} colours");
    let _ = std::fs::remove_dir_all(&out);
}

/// The names of the Eladrin units in a save that have one (campaign veterans).
fn veterans_in(s: &snapshot::Snapshot) -> Vec<String> {
    let mut v: Vec<String> = (s.armies.iter())
        .filter(|a| a.camp == Camp::Eladrins)
        .flat_map(|a| a.units.iter().filter_map(|u| u.name.clone()))
        .collect();
    v.sort();
    v
}

/// K1–K4 in the window: the test campaign (tests/mods/campaign_window) played from its screen by
/// Ana with an AI seat: new campaign, briefing, a chapter lost after one cycle whose loss leads
/// on, the result, a muster changed by hand, the next chapter begun and saved into its second
/// cycle; then a second run in the same data folder continues the campaign from its screen (the
/// chapter from its autosave) and restarts the chapter.
#[test]
fn k_campaign_plays_from_its_screen_through_a_result_then_continues_and_restarts() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::env::temp_dir().join(format!(
        "chaos-outpost-campaign-data-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&data);
    // The game with the test campaign, playing a script.
    let program_at = |script: PathBuf| {
        let m = root.join("tests/mods/campaign_window");
        move |out: &std::path::Path| {
            let mut c = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"));
            c.arg("--mod").arg(&m);
            c.args(["play", "--level", "first_light", "--seed", "1", "--script"])
                .arg(&script)
                .arg("--out")
                .arg(out);
            c
        }
    };
    let program = |script: &str| program_at(root.join(format!("tests/ui/{script}.ron")));
    let Some(out) = run_window_in("campaign", Some(&data), program("campaign")) else {
        return;
    };
    for shot in ["choose", "briefing", "result", "muster", "dawn"] {
        let (w, h, n) = colours(&out.join(format!("{shot}.png")));
        assert_eq!((w, h), (1280, 720));
        assert!(n > 200, "{shot}: only {n} colours");
    }
    // The campaign, saved as the second chapter began: the first lost (K4 records it), and its
    // loss led on (its branch); the survivors on the roster by name (K2).
    let dir = data.join("chaos-outpost/campaigns/window_trial");
    let text = std::fs::read_to_string(dir.join("campaign.ron")).expect("the campaign save");
    let st = chaos_outpost::rules::campaign::parse(&text).expect("a campaign save");
    // Hot-seat: Ana and an AI seat, kept through the chapters.
    assert_eq!(st.players, vec!["Ana".to_string(), "Bo (AI)".to_string()]);
    assert_eq!(st.seed, 7);
    assert_eq!(st.done.len(), 1);
    assert!(!st.done[0].won && st.done[0].chapter == "outskirts");
    assert_eq!(st.current.as_deref(), Some("dawn"));
    let roster: Vec<&str> = st.roster.iter().map(|v| v.name.as_str()).collect();
    assert!(
        roster.contains(&"Aelar") && roster.contains(&"Thamior"),
        "{roster:?}"
    );
    assert!(dir.join("chapters/outskirts.ron").is_file());
    // The second chapter: the muster as chosen (Ilyana left behind for Thamior), the campaign
    // carried in the game's save.
    let dawn = snapshot::read(&out.join("dawn.ron")).expect("the chapter's save");
    assert_eq!(dawn.setup.level, "first_light");
    assert_eq!(
        dawn.setup.players, st.players,
        "the seats kept into the chapter"
    );
    assert_eq!(veterans_in(&dawn), vec!["Aelar", "Thamior"]);
    assert_eq!(
        dawn.campaign.0.as_ref(),
        Some(&st),
        "the campaign in the game's save"
    );
    assert_eq!(dawn.cycle.number, 2);

    // A second run (the player came back): continued from the campaign screen at the
    // chapter's autosave, then the chapter restarted with the default muster.
    let Some(out2) = run_window_in(
        "campaign_continue",
        Some(&data),
        program("campaign_continue"),
    ) else {
        return;
    };
    let (w, h, n) = colours(&out2.join("chapters.png"));
    assert_eq!((w, h), (1280, 720));
    assert!(n > 200, "chapters: only {n} colours");
    let cont = snapshot::read(&out2.join("continued.ron")).expect("the continued save");
    assert_eq!(cont.cycle.number, 2, "continued from the cycle-2 autosave");
    assert_eq!(cont.setup.seed, dawn.setup.seed);
    assert_eq!(veterans_in(&cont), vec!["Aelar", "Thamior"]);
    assert_eq!(cont.setup.players, st.players);
    let again = snapshot::read(&out2.join("restarted.ron")).expect("the restarted save");
    assert_eq!(again.cycle.number, 1, "the chapter began anew");
    assert_eq!(
        again.setup.seed, dawn.setup.seed,
        "a restart meets the same dice"
    );
    assert_eq!(veterans_in(&again), vec!["Aelar", "Ilyana"]);
    assert_eq!(again.setup.players, st.players);

    // An old save of the first chapter's end, loaded now that the campaign has gone on: its
    // end is recorded only when asked twice. Asked once, the campaign save is untouched.
    let saved_before = std::fs::read(dir.join("campaign.ron")).expect("the campaign save");
    let old_end = out.join("outskirts_end.ron");
    let stale = |name: &str, presses: usize| {
        let script = out.join(format!("{name}.ron"));
        let finish = "Campaign(Finish), Wait(5), ".repeat(presses);
        std::fs::write(
            &script,
            format!(
                "(steps: [Hints(false), Load({:?}), Wait(5), {finish}Quit])",
                old_end.display().to_string()
            ),
        )
        .expect("script");
        run_window_in(name, Some(&data), program_at(script))
    };
    let log = |o: &std::path::Path| std::fs::read_to_string(o.join("log.txt")).unwrap_or_default();
    let Some(out3) = stale("campaign_stale_once", 1) else {
        return;
    };
    assert!(
        !log(&out3).contains("campaign saved"),
        "asked once, nothing is recorded"
    );
    assert_eq!(
        std::fs::read(dir.join("campaign.ron")).expect("the campaign save"),
        saved_before
    );
    let Some(out4) = stale("campaign_stale_twice", 2) else {
        return;
    };
    assert!(log(&out4).contains("campaign saved"), "asked twice, it is");
    // Recorded from where that game began (the first chapter's start): the campaign stands
    // at the second chapter again, with the first chapter's one record.
    let text = std::fs::read_to_string(dir.join("campaign.ron")).expect("the campaign save");
    let now = chaos_outpost::rules::campaign::parse(&text).expect("a campaign save");
    assert_eq!(now.done.len(), 1, "{:?}", now.done);
    assert_eq!(now.current.as_deref(), Some("dawn"));
    assert!(dir.join("campaign.prev.ron").is_file());

    // The first chapter replayed from its start twice in one sitting: each game's end is
    // recorded (saved at each begin and each end: four saves), though both began alike.
    let script = out.join("campaign_replays.ron");
    let once = "Campaign(Replay(\"outskirts\")), Campaign(Replay(\"outskirts\")), \
                Campaign(Begin), AiUntilCycle(2), Campaign(Finish), Wait(5), Campaign(Back), ";
    std::fs::write(
        &script,
        format!(
            "(steps: [Hints(false), Campaign(Open), Campaign(Saved), {}Quit])",
            once.repeat(2)
        ),
    )
    .expect("script");
    let Some(out5) = run_window_in("campaign_replays", Some(&data), program_at(script)) else {
        return;
    };
    assert_eq!(
        log(&out5).matches("campaign saved").count(),
        4,
        "{}",
        log(&out5)
    );

    // A new campaign started at its second chapter (K3, a chapter skipped to): asked twice
    // over the saved one, it begins cold, from the chapter's fallback (an unnamed ranger).
    let script = out.join("campaign_cold.ron");
    std::fs::write(
        &script,
        "(steps: [Hints(false), Campaign(Open), Campaign(Choose(\"window_trial\")), \
         Campaign(StartAt(\"dawn\")), Campaign(New), Campaign(New), Campaign(Begin), Begin, \
         Wait(5), Save(\"cold.ron\"), Quit])",
    )
    .expect("script");
    let Some(out6) = run_window_in("campaign_cold", Some(&data), program_at(script)) else {
        return;
    };
    let cold = snapshot::read(&out6.join("cold.ron")).expect("the cold chapter's save");
    assert_eq!(cold.setup.level, "first_light");
    let run = cold.campaign.0.as_ref().expect("its campaign");
    assert_eq!((run.current.as_deref(), run.done.len()), (Some("dawn"), 0));
    let carry = cold.setup.carry.as_ref().expect("what it was given");
    let kinds: Vec<&str> = carry.veterans.iter().map(|v| v.kind.as_str()).collect();
    assert_eq!(kinds, ["ranger"], "the fallback");
    assert!(
        veterans_in(&cold).is_empty(),
        "no veteran of the old campaign"
    );
    for d in [&out, &out2, &out3, &out4, &out5, &out6, &data] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// What the window reported at a script's `Report` step.
fn report(path: &std::path::Path) -> chaos_outpost::view::script::WindowReport {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The place of the area named `name` in a report, if shown.
fn place(r: &chaos_outpost::view::script::WindowReport, name: &str) -> Option<[f32; 4]> {
    r.shown.iter().find(|(n, _)| n == name).map(|(_, p)| *p)
}

/// Whether two places (x, y, width, height) overlap.
fn overlaps(a: [f32; 4], b: [f32; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// The view's windows (not its small areas: the hover box, a toast) shown in a report, and
/// every pair of them that overlap.
fn stacked(r: &chaos_outpost::view::script::WindowReport) -> Vec<(String, String)> {
    let windows: Vec<&(String, [f32; 4])> = (r.shown.iter())
        .filter(|(n, _)| !matches!(n.as_str(), "hover" | "refusal_toast" | "?"))
        .collect();
    let mut out = Vec::new();
    for (i, (na, a)) in windows.iter().enumerate() {
        for (nb, b) in &windows[i + 1..] {
            if overlaps(*a, *b) {
                out.push((na.clone(), nb.clone()));
            }
        }
    }
    out
}

/// First launch (no command: the menu over First Light): the menu alone, the intro waiting
/// behind it rather than under it; back in the game, the intro alone.
#[test]
fn first_launch_shows_one_window_at_a_time() {
    let Some(out) = run_window("first_launch", script_command("first_launch", &["--menu"])) else {
        return;
    };
    let launch = report(&out.join("launch.ron"));
    assert_eq!(
        (launch.screen.as_str(), launch.overlay.as_str()),
        ("Menu", "None")
    );
    assert!(place(&launch, "menu").is_some(), "{launch:?}");
    assert!(
        place(&launch, "intro").is_none(),
        "the intro under the menu: {launch:?}"
    );
    assert!(stacked(&launch).is_empty(), "{:?}", stacked(&launch));
    let game = report(&out.join("game.ron"));
    assert_eq!(
        (game.screen.as_str(), game.overlay.as_str()),
        ("Playing", "Intro")
    );
    assert!(place(&game, "intro").is_some(), "{game:?}");
    assert!(place(&game, "menu").is_none(), "{game:?}");
    assert!(stacked(&game).is_empty(), "{:?}", stacked(&game));
    let _ = std::fs::remove_dir_all(&out);
}

/// R7.4's refusal ("choose one of the offered technologies first") shows just under the phase
/// bar, over the map where the player looks, not at the foot of the side panel.
#[test]
fn a_refusal_shows_under_the_phase_bar() {
    let Some(out) = play_script("refusal") else {
        return;
    };
    let before = report(&out.join("before.ron"));
    assert!(place(&before, "refusal_toast").is_none(), "{before:?}");
    let r = report(&out.join("refused.ron"));
    let [x, y, w, h] = place(&r, "refusal_toast").unwrap_or_else(|| panic!("no toast: {r:?}"));
    let [mx, my, mw, _] = r.map_rect.expect("the map's area");
    // Right under the bar (the map's top), within the map's width, wholly in the window.
    assert!(
        y >= my - 1.0 && y <= my + 40.0,
        "toast at y {y}, the bar ends at {my}"
    );
    assert!(
        x >= mx && x + w <= mx + mw,
        "toast {x}+{w} outside the map {mx}+{mw}"
    );
    assert!(y + h <= 720.0 && h > 10.0, "{r:?}");
    // Over nothing else the window shows (an event card is up at this step).
    for (name, p) in r
        .shown
        .iter()
        .filter(|(n, _)| !matches!(n.as_str(), "refusal_toast" | "hover"))
    {
        assert!(
            !overlaps([x, y, w, h], *p),
            "the toast covers {name}: {r:?}"
        );
    }
    let (_, _, n) = colours(&out.join("refused.png"));
    assert!(n > 200, "only {n} colours");
    let _ = std::fs::remove_dir_all(&out);
}

/// Runs `xdotool` on the virtual display the window is on.
struct Xdo {
    display: String,
    xauthority: String,
}

impl Xdo {
    /// The display the window under Xvfb is on, once `run_window_driven` wrote it in `out`.
    fn of(out: &std::path::Path) -> Xdo {
        wait_for(out, "x.txt");
        let x = std::fs::read_to_string(out.join("x.txt")).expect("the display");
        let mut lines = x.lines();
        Xdo {
            display: lines.next().unwrap_or_default().to_string(),
            xauthority: lines.next().unwrap_or_default().to_string(),
        }
    }

    fn run(&self, args: &[&str]) {
        let status = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .env("XAUTHORITY", &self.xauthority)
            .status()
            .expect("xdotool runs");
        assert!(status.success(), "xdotool {args:?}: {status}");
    }
}

/// Whether xdotool is here to drive the real mouse; where it is required and missing, fails;
/// elsewhere says the test was skipped.
fn xdotool_here() -> bool {
    if have("xdotool") {
        return true;
    }
    assert!(
        std::env::var("CHAOS_OUTPOST_REQUIRE_XVFB").is_err(),
        "xdotool is required here (CHAOS_OUTPOST_REQUIRE_XVFB is set)"
    );
    eprintln!("skipped: no xdotool (./dev test installs it)");
    false
}

/// Waits (up to 300 s) for the file `name` in `out`.
fn wait_for(out: &std::path::Path, name: &str) {
    let started = Instant::now();
    while !out.join(name).is_file() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the window never wrote {name}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The wheel turned with the real mouse (xdotool on the Xvfb display): over the side panel
/// the map's zoom stays as it was; over the map it changes (so the wheel did reach the game).
#[test]
fn the_wheel_over_the_side_panel_leaves_the_map_alone() {
    if !xdotool_here() {
        return;
    }
    let drive = |out: &std::path::Path| {
        wait_for(out, "ready");
        let xdo = Xdo::of(out);
        let before = report(&out.join("before.ron"));
        let [mx, my, mw, mh] = before.map_rect.expect("the map's area");
        // The side panel's middle, then the map's.
        let panel = ((mx + mw + 1280.0) / 2.0, my + mh / 2.0);
        let map = (mx + mw / 2.0, my + mh / 2.0);
        let at = |p: (f32, f32)| [format!("{}", p.0 as i32), format!("{}", p.1 as i32)];
        let [px, py] = at(panel);
        xdo.run(&["mousemove", &px, &py]);
        std::thread::sleep(Duration::from_millis(300));
        // Button 5: the wheel turned towards the player, three notches.
        xdo.run(&["click", "--repeat", "3", "--delay", "80", "5"]);
        std::fs::write(out.join("panel_wheeled"), "").expect("mark");
        wait_for(out, "panel_done");
        let [qx, qy] = at(map);
        xdo.run(&["mousemove", &qx, &qy]);
        std::thread::sleep(Duration::from_millis(300));
        xdo.run(&["click", "--repeat", "3", "--delay", "80", "5"]);
        std::fs::write(out.join("map_wheeled"), "").expect("mark");
    };
    let Some(out) = run_window_driven("wheel", script_command("wheel", &[]), drive) else {
        return;
    };
    let before = report(&out.join("before.ron"));
    let after_panel = report(&out.join("after_panel.ron"));
    let after_map = report(&out.join("after_map.ron"));
    assert_eq!(
        after_panel.zoom, before.zoom,
        "the wheel over the side panel zoomed the map"
    );
    assert!(
        after_map.zoom > before.zoom * 1.2,
        "the wheel over the map didn't zoom out: {} -> {}",
        before.zoom,
        after_map.zoom
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// `run_window`, with `drive(out)` run beside the window while it plays: the command runs
/// under `xvfb-run` through a shell that first writes the display and its X authority into
/// `out/x.txt`, for real input sent from outside the game.
fn run_window_driven(
    name: &str,
    program: impl FnOnce(&std::path::Path) -> Command,
    drive: impl FnOnce(&std::path::Path),
) -> Option<PathBuf> {
    let (running, out) = spawn_window(name, None, |out| {
        let inner = program(out);
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("printf '%s\\n%s\\n' \"$DISPLAY\" \"$XAUTHORITY\" > \"$0\"; exec \"$@\"")
            .arg(out.join("x.txt"))
            .arg(inner.get_program())
            .args(inner.get_args());
        c
    })?;
    drive(&out);
    Some(finish_window(name, running, out))
}

/// The map's names on Wyvern Wardens (seed 3) as the real window draws them, at the interface
/// scale 1 and at 1.5 (where the names grow and the hexes don't): the eight places and the
/// outpost's name are all there, each as large as its text at that scale (the size the names
/// were placed by), and no two of their boxes meet, nor the counts of slots taken among them.
#[test]
fn the_map_names_never_run_into_each_other() {
    use chaos_outpost::view::chapter_map::{LABEL_PAD, label_size};
    let Some(out) = run_window("labels", |out| {
        game_command("mercenaries", 3, "labels", &[], out)
    }) else {
        return;
    };
    let names = [
        "Windhold (portal)",
        "Heroes' Guild",
        "Tavern",
        "Poachers' Camp",
        "Mountains",
        "Reserves",
        "Garrison",
        "Warehouse",
        "Barracks",
    ];
    // A count of slots taken ("2/3"), placed among the names.
    let is_count = |t: &str| {
        t.split_once('/').is_some_and(|(a, b)| {
            !a.is_empty() && !b.is_empty() && a.chars().chain(b.chars()).all(|c| c.is_ascii_digit())
        })
    };
    for (file, scale) in [("scale_1.ron", 1.0), ("scale_1_5.ron", 1.5)] {
        let r = report(&out.join(file));
        let placed: Vec<&(String, [f32; 4])> = (r.labels.iter())
            .filter(|(t, _)| names.contains(&t.as_str()) || is_count(t.as_str()))
            .collect();
        for name in names {
            let drawn: Vec<[f32; 4]> = (placed.iter())
                .filter(|(t, _)| t == name)
                .map(|(_, p)| *p)
                .collect();
            assert_eq!(
                drawn.len(),
                1,
                "at {scale}: {name} drawn {drawn:?}: {:?}",
                r.labels
            );
            // Laid out at the size the names are placed by (on screen: divided by the zoom),
            // within the rounding of a layout to whole pixels.
            let [_, _, w, h] = drawn[0];
            let text = (label_size(name, scale) - LABEL_PAD) / r.zoom;
            let near = 2.0 / r.zoom;
            assert!(
                (w - text.x).abs() <= near && (h - text.y).abs() <= near,
                "at {scale}: {name} drawn {w}×{h}, placed as {}×{} (zoom {})",
                text.x,
                text.y,
                r.zoom
            );
        }
        for (i, (a, pa)) in placed.iter().enumerate() {
            for (b, pb) in &placed[i + 1..] {
                assert!(
                    !overlaps(*pa, *pb),
                    "at {scale}: {a:?} {pa:?} runs into {b:?} {pb:?}"
                );
            }
        }
    }
    for shot in ["scale_1.png", "scale_1_5.png"] {
        let (w, h, n) = colours(&out.join(shot));
        assert_eq!((w, h), (1280, 720));
        assert!(n > 200, "{shot}: only {n} colours");
    }
    let _ = std::fs::remove_dir_all(&out);
}
