//! Hostile saves, replays and campaign saves: every number and list they carry is bounded where
//! the file comes in, refused with the field (and, from a file, its line) named, and nothing
//! changes; arithmetic on what gets through saturates in any build; the file fuzzer
//! (`sim::hostile`) finds nothing in a bounded run of each kind.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use chaos_outpost::content::ContentDb;
use chaos_outpost::content::campaign::{Branch, Goto, When};
use chaos_outpost::rules::campaign::{self, CampaignRun, CampaignState, CarryIn, Left, Veteran};
use chaos_outpost::rules::snapshot::{self, Snapshot, state_hash};
use chaos_outpost::rules::tracks::Holder;
use chaos_outpost::rules::{GameWorld, legal::legal_actions, setup, submit};
use chaos_outpost::sim::hostile::{self, FileKind};

use crate::common::*;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "chaos-outpost-hostile-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A game of `level` some moves in (the first legal action each time), for its snapshot.
fn game_on(db: &Arc<ContentDb>, level: &str, moves: usize) -> bevy::app::App {
    let mut app = setup::new_game(db.clone(), level, None, 5).expect("game");
    let w = app.world_mut();
    for _ in 0..moves {
        let by = w.deciding();
        let Some(a) = legal_actions(w, by).into_iter().next() else {
            break;
        };
        submit(w, by, a).expect("legal");
    }
    app
}

/// `s` changed by `edit`, restored into a fresh game: refused, naming `field`, and that game
/// unchanged.
fn refused(db: &Arc<ContentDb>, s: &Snapshot, field: &str, edit: impl FnOnce(&mut Snapshot)) {
    let mut bad = s.clone();
    edit(&mut bad);
    let mut other = setup::new_game(db.clone(), "first_light", None, 1).expect("other game");
    let before = state_hash(other.world_mut());
    let err = snapshot::restore(other.world_mut(), &bad).expect_err(field);
    assert!(err.contains(field), "refused for `{field}`? {err}");
    assert_eq!(
        state_hash(other.world_mut()),
        before,
        "{field}: nothing changed"
    );
}

#[test]
fn a_save_with_absurd_numbers_is_refused_naming_the_field_and_changes_nothing() {
    let db = Arc::new(base());
    let mut app = game_on(&db, "clans", 30);
    let s = snapshot::capture(app.world_mut());
    // The sound save loads (control).
    let mut other = setup::new_game(db.clone(), "first_light", None, 1).expect("other game");
    snapshot::restore(other.world_mut(), &s).expect("the sound save loads");
    refused(&db, &s, "cycle.number", |s| s.cycle.number = u32::MAX);
    refused(&db, &s, "cycle.player", |s| s.cycle.player = 200);
    refused(&db, &s, "ids.next", |s| s.ids.next = u32::MAX);
    refused(&db, &s, "census.created", |s| s.census.created = u32::MAX);
    refused(&db, &s, "setup.players", |s| {
        s.setup.players = (0..9).map(|i| format!("P{i}")).collect()
    });
    refused(&db, &s, "portal.power", |s| s.portal.power = u32::MAX);
    // A track held by seat 200 at -2^31, and one past its bounds for a real holder.
    let track = db
        .set
        .tracks
        .iter()
        .find(|t| t.chapter == "clans")
        .expect("a clans track")
        .clone();
    refused(&db, &s, "tracks[0]", |s| {
        s.tracks.0 = vec![(track.id.clone(), Holder::Seat(200), i32::MIN)]
    });
    refused(&db, &s, "tracks[0]", |s| {
        s.tracks.0 = vec![(
            track.id.clone(),
            Holder::Seat(0),
            track.max.saturating_add(1),
        )]
    });
    refused(&db, &s, "tracks[0]", |s| {
        s.tracks.0 = vec![("nope".into(), Holder::Seat(0), 0)]
    });
}

#[test]
fn a_save_whose_embedded_campaign_is_hostile_is_refused() {
    let db = Arc::new(base());
    let mut app = game_on(&db, "standard", 5);
    let c = db.set.campaigns[0].clone();
    let state = CampaignState::new(&c, &db, "normal", 7, &[], None).expect("campaign");
    app.world_mut()
        .insert_resource(CampaignRun(Some(state.clone())));
    let s = snapshot::capture(app.world_mut());
    let mut other = setup::new_game(db.clone(), "first_light", None, 1).expect("other game");
    snapshot::restore(other.world_mut(), &s).expect("the sound save loads");
    refused(&db, &s, "campaign.roster", |s| {
        let st = s.campaign.0.as_mut().expect("campaign");
        st.roster = (0..50_000)
            .map(|i| Veteran {
                name: format!("V{i}"),
                kind: "warden".into(),
                wounds: 0,
                chapters: 1,
            })
            .collect();
    });
    refused(&db, &s, "campaign.campaign", |s| {
        s.campaign.0.as_mut().expect("campaign").campaign = "../../evil".into();
    });
    refused(&db, &s, "campaign.current", |s| {
        s.campaign.0.as_mut().expect("campaign").current = Some("../x".into());
    });
}

#[test]
fn a_hostile_save_file_is_refused_with_its_line_and_field() {
    let db = Arc::new(base());
    let mut app = game_on(&db, "standard", 5);
    let dir = tmpdir("save-line");
    let path = dir.join("slot.ron");
    snapshot::save(app.world_mut(), &path).expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    let ids_at = text
        .lines()
        .position(|l| l.trim_start().starts_with("ids:"))
        .expect("the id counter");
    let body_at = ids_at
        + text
            .lines()
            .skip(ids_at)
            .position(|l| l.trim_start().starts_with("next:"))
            .expect("its next id");
    let bad: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == body_at {
                "        next: 4294967295,".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    // The header's hash no longer matches an edited body, as with any hand edit: rewrap it.
    let (_, body) = bad.split_once('\n').expect("header");
    std::fs::write(&path, snapshot::envelope("save", body)).expect("write");
    let mut other = setup::new_game(db, "first_light", None, 1).expect("other game");
    let before = state_hash(other.world_mut());
    let err = snapshot::load(other.world_mut(), &path).expect_err("refused");
    assert!(
        err.contains(&format!("slot.ron:{}:", body_at + 1)),
        "the line of `next:`: {err}"
    );
    assert!(err.contains("ids.next"), "{err}");
    assert_eq!(state_hash(other.world_mut()), before);
}

/// A chapter's replay, with what its campaign gave it.
fn chapter_replay(db: &Arc<ContentDb>) -> snapshot::Replay {
    let c = db.set.campaigns[0].clone();
    let state = CampaignState::new(&c, db, "normal", 7, &[], None).expect("campaign");
    let def = c
        .chapter(state.current.as_deref().expect("a first chapter"))
        .expect("chapter")
        .clone();
    let carry = state.carry_in(&def, &[]);
    let mut app = setup::headless_app(db.clone());
    setup::start_chapter(app.world_mut(), &def.level, Some("normal"), 3, &[], &carry)
        .expect("starts");
    snapshot::replay_of(app.world_mut())
}

#[test]
fn a_replays_carry_is_checked_not_trusted() {
    let db = Arc::new(base());
    let r = chapter_replay(&db);
    let mut ok = setup::headless_app(db.clone());
    snapshot::play_replay(ok.world_mut(), &r).expect("the sound replay plays");
    let artifact = db.set.artifacts[0].id.clone();
    type Edit = Box<dyn Fn(&mut CarryIn)>;
    let cases: Vec<(&str, Edit)> = vec![
        (
            "carry.artifacts",
            Box::new(move |c: &mut CarryIn| c.artifacts = vec![artifact.clone(); 100_000]),
        ),
        (
            "carry.stock",
            Box::new(|c: &mut CarryIn| c.stock.0 = [u32::MAX; 6]),
        ),
        (
            "carry.veterans",
            Box::new(|c: &mut CarryIn| {
                c.veterans = vec![
                    Veteran {
                        name: String::new(),
                        kind: "warden".into(),
                        wounds: 0,
                        chapters: 0,
                    };
                    200_000
                ]
            }),
        ),
        (
            "carry.veterans[0].name",
            Box::new(|c: &mut CarryIn| {
                c.veterans = vec![Veteran {
                    name: "x".repeat(4_000_000),
                    kind: "warden".into(),
                    wounds: 0,
                    chapters: 0,
                }]
            }),
        ),
        (
            "carry.research[0]",
            Box::new(|c: &mut CarryIn| c.research = vec!["../nope".into()]),
        ),
        (
            "carry.chapter",
            Box::new(|c: &mut CarryIn| c.chapter = "../../evil".into()),
        ),
    ];
    for (field, edit) in cases {
        let mut bad = r.clone();
        edit(bad.carry.as_mut().expect("a carry"));
        let mut app = setup::headless_app(db.clone());
        let err = snapshot::play_replay(app.world_mut(), &bad).expect_err(field);
        assert!(err.contains(field), "refused for `{field}`? {err}");
    }
    let mut bad = r.clone();
    bad.players = vec!["x".repeat(4_000_000)];
    let mut app = setup::headless_app(db.clone());
    let err = snapshot::play_replay(app.world_mut(), &bad).expect_err("a huge name");
    assert!(err.contains("players[0]"), "{err}");
}

#[test]
fn a_campaign_score_rule_near_the_top_saturates_in_any_build() {
    let db = base();
    let mut c = db.set.campaigns[0].clone();
    c.score.won = u32::MAX - 1;
    c.score.per_survivor = u32::MAX / 2;
    c.score.per_tech = u32::MAX;
    c.score.per_cycle_saved = u32::MAX;
    c.score.par = u32::MAX;
    let left = Left {
        won: true,
        cycles: 1,
        survivors: vec![Veteran::default(); 3],
        new_research: 7,
        ..Default::default()
    };
    assert_eq!(CampaignState::score_of(&c, &left), u32::MAX);
    // And the campaign's running score stays at the top.
    let mut state = CampaignState::new(&c, &db, "normal", 7, &[], None).expect("campaign");
    state.score = u32::MAX - 5;
    let carry = CarryIn::default();
    state.finish(&c, &db, &carry, &left);
    assert_eq!(state.score, u32::MAX);
}

#[test]
fn a_damaged_campaign_save_never_replaces_the_good_previous_one() {
    let db = base();
    let dir = tmpdir("prev");
    let c = db.set.campaigns[0].clone();
    let mut state = CampaignState::new(&c, &db, "normal", 7, &[], None).expect("campaign");
    state.score = 1;
    campaign::save(&state, &dir).expect("saved");
    state.score = 2;
    campaign::save(&state, &dir).expect("saved again");
    let prev = dir.join(campaign::PREVIOUS_FILE);
    let now = dir.join(campaign::SAVE_FILE);
    assert_eq!(campaign::read(&prev, &db).map(|s| s.score), Ok(1));
    // The save is damaged (cut short), then the game saves again: the previous copy is the
    // last good one, not the damaged file.
    let text = std::fs::read_to_string(&now).expect("read");
    std::fs::write(&now, &text[..text.len() / 2]).expect("cut");
    state.score = 3;
    campaign::save(&state, &dir).expect("saved after the damage");
    assert_eq!(campaign::read(&prev, &db).map(|s| s.score), Ok(1));
    assert_eq!(campaign::read(&now, &db).map(|s| s.score), Ok(3));
    // A save grown past the bound is not read whole to be kept either.
    std::fs::write(&now, "x".repeat(3 * 1024 * 1024)).expect("grow");
    state.score = 4;
    campaign::save(&state, &dir).expect("saved after the growth");
    assert_eq!(campaign::read(&prev, &db).map(|s| s.score), Ok(1));
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"));
    c.env("HOME", tmpdir("home"));
    c
}

#[test]
fn the_window_without_a_display_says_so_and_exits_2() {
    for args in [&["play"][..], &["framebench", "--frames", "3"]] {
        let o = bin()
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no display"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn counts_out_of_range_are_usage_errors_with_exit_2() {
    for args in [
        &["sim", "--games", "0"][..],
        &["sim", "--cycles", "0"],
        &["soak", "--games", "0"],
        &["bench", "--games", "0"],
        &["fuzz", "--moves", "0"],
        &["fuzz", "--files", "saves"],
    ] {
        let o = bin().args(args).output().expect("run");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn a_campaign_that_never_ends_is_reported_cut_short_not_lost() {
    let mut db = base();
    // Every chapter leads back to the first, whatever happens.
    let c = &mut db.set.campaigns[0];
    let first = c.chapters[0].id.clone();
    for ch in &mut c.chapters {
        ch.next = [When::Won, When::Lost]
            .into_iter()
            .map(|on| Branch {
                on,
                to: Goto::Chapter(first.clone()),
            })
            .collect();
    }
    let id = c.id.clone();
    let r = chaos_outpost::sim::campaign::run(Arc::new(db), &id, "easy", 1, 3, 0).expect("played");
    assert!(r.cut_short, "{} plays", r.chapters.len());
    assert!(!r.won);
}

/// The file fuzzer, bounded for the test suite: a few dozen cases of each kind from every
/// chapter level; `fuzz --files` runs it for longer.
#[test]
fn hostile_files_of_every_kind_are_refused_or_played_without_a_finding() {
    let db = Arc::new(base());
    let levels: Vec<String> = ["first_light", "mercenaries", "clans", "dragoness"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let dir = tmpdir("fuzz");
    for kind in FileKind::ALL {
        let seeds = hostile::seeds(&db, kind, &levels).expect("seed files");
        // The sound files themselves are accepted and play on: a check that refuses what the
        // game writes would make every case a refusal.
        for (i, f) in seeds.iter().enumerate() {
            let ok = hostile::try_case(&db, kind, &f.text, 11, i as u64, &dir);
            assert_eq!(ok, Ok(true), "{kind:?}: the sound {}", f.name);
        }
        let stats = hostile::run(&db, kind, &seeds, 11, &dir, |s| s.cases < 30)
            .unwrap_or_else(|f| panic!("{}\n(file: {})", f.what, f.file.display()));
        assert_eq!(stats.cases, 30);
        assert_eq!(stats.refused + stats.accepted, 30, "{kind:?}: {stats:?}");
        assert!(
            stats.refused > 0,
            "{kind:?}: nothing hostile was made: {stats:?}"
        );
    }
}

/// Shapes the file fuzzer found, each refused at its field (none panics or hangs any more).
#[test]
fn saves_the_fuzzer_found_are_refused() {
    let db = Arc::new(base());
    let mut app = game_on(&db, "standard", 20);
    let s = snapshot::capture(app.world_mut());
    // Billions of corruption attempts queued: an overflow at the next R6.
    refused(&db, &s, "modifiers.pending_attempts", |s| {
        s.modifiers.pending_attempts = u32::MAX
    });
    // A portal far off the map: its distances overflowed.
    refused(&db, &s, "portal.hex", |s| {
        s.portal.hex = hexx::Hex::new(0, i32::MAX)
    });
    refused(&db, &s, "tiles[0].hex", |s| {
        s.tiles[0].hex = hexx::Hex::new(i32::MIN, 5)
    });
    // Two units with one id: a detach emptied the wrong army.
    refused(&db, &s, "is given twice", |s| {
        let id = s.armies[0].units[0].id;
        let last = s.armies.len() - 1;
        s.armies[last].units[0].id = id;
    });
    // Each value within bounds, but together they break a rule: a unit the census never
    // counted.
    refused(&db, &s, "units not conserved", |s| {
        s.census.created = s.census.created.saturating_sub(1)
    });
}

/// A level from the shipped one with `from` replaced by `to`, read as a level file.
fn level_with(level: &str, from: &str, to: &str) -> Result<String, String> {
    let text = chaos_outpost::content::embedded_files()
        .into_iter()
        .find(|f| f.path == format!("levels/{level}.ron"))
        .expect("the shipped level")
        .text;
    assert!(text.contains(from), "{from}");
    let dir = tmpdir(&format!("level-{level}"));
    let path = dir.join(format!("{level}_hostile.ron"));
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    let mut db = base();
    db.add_level_file(&path).map_err(|ps| {
        ps.iter()
            .map(|p| format!("{}:{}: {}: {}", p.file, p.line, p.field, p.message))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

#[test]
fn levels_the_fuzzer_found_are_refused_at_their_field() {
    let far = level_with(
        "first_light",
        "corrupted: [(-3, -1)",
        "corrupted: [(-2147483648, -1)",
    )
    .expect_err("a corrupted hex at i32::MIN");
    assert!(far.contains("outside the map"), "{far}");
    let crowd = format!("units: [{}]", vec!["\"ranger\""; 65].join(", "));
    let big = level_with("first_light", "units: [\"ranger\", \"warden\"]", &crowd)
        .expect_err("an army of 65");
    assert!(big.contains("armies[0].units"), "{big}");
    let spawn = level_with(
        "hard",
        "\"easy\": (eladrin_stock",
        "\"easy\": (chaos_spawn_bonus: 65536, eladrin_stock",
    )
    .expect_err("65,536 more Chaos units a spawn");
    assert!(
        spawn.contains("difficulty_tweaks.easy.chaos_spawn_bonus"),
        "{spawn}"
    );
    let gate = level_with(
        "dragoness",
        "(at: (-4, -1), kind: Gate)",
        "(at: (2147483647, -1), kind: Gate)",
    )
    .expect_err("a Gate past the edge of every map");
    assert!(gate.contains("not on the map"), "{gate}");
}

/// A level the file fuzzer found (`fuzz --files level --seed 2026`, case 24908): one chasm hex
/// moved, and a team stopping on a hazard lost its last unit while it was the active army; the
/// activation pointed at an army that was gone. The turn now passes, as when the core's own
/// action removes the active army (R9.4).
#[test]
fn a_team_lost_in_its_own_activation_ends_the_activation() {
    let db = Arc::new(base());
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/hostile/dragoness_team_lost_while_active.level.ron"),
    )
    .expect("the case");
    let dir = tmpdir("case-team");
    let accepted = hostile::try_case(&db, FileKind::Level, &text, 2026, 24908, &dir)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(accepted, "the level is sound and plays on");
}

/// What the game writes itself always loads back: seats a level gives beyond the players, roll
/// bonuses play saturated, a campaign this game no longer has.
#[test]
fn sound_values_past_the_players_and_bonuses_still_load() {
    let db = Arc::new(base());
    let mut app = game_on(&db, "standard", 5);
    let mut s = snapshot::capture(app.world_mut());
    s.setup.players = vec!["Ana".into()];
    // A level may give an army to seat 5 of a one-player game (a Ghost-Guide's, an AI's).
    s.armies[0].seat = Some(5);
    s.modifiers.attack = u8::MAX;
    let mut other = setup::new_game(db.clone(), "first_light", None, 1).expect("other game");
    snapshot::restore(other.world_mut(), &s).expect("loads");
    // Past the eight seats a game has: refused.
    refused(&db, &s, "armies", |s| s.armies[0].seat = Some(8));
    // A portal arch built past its cells.
    refused(&db, &s, "portal.built[0]", |s| s.portal.built[0] = u32::MAX);
    // The chapter's campaign is gone from this game (its mod off): the chapter loads alone.
    let c = db.set.campaigns[0].clone();
    let mut state = CampaignState::new(&c, &db, "normal", 7, &[], None).expect("campaign");
    state.campaign = "gone_with_its_mod".into();
    s.campaign = CampaignRun(Some(state));
    snapshot::restore(other.world_mut(), &s).expect("loads without its campaign");
    assert!(other.world().resource::<CampaignRun>().0.is_none());
}
