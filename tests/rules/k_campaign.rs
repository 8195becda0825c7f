//! K1–K4 — The campaign: chapters in order from data, what carries over (veterans by name,
//! research, artifacts, a share of the stock), cold starts with their fallback, branches, and
//! the campaign save (atomic, the previous kept, damaged or hostile files refused by line and
//! field).

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::World;
use chaos_outpost::content::campaign::{Campaign, Goto};
use chaos_outpost::content::{Camp, ContentDb, Res, Severity, SourceFile, embedded_files};
use chaos_outpost::rules::campaign::{
    self, CampaignRun, CampaignState, CarryIn, Left, Veteran, left_by,
};
use chaos_outpost::rules::snapshot::{self, state_hash};
use chaos_outpost::rules::{Army, Decks, GameSetup, GameWorld, Outpost, Research, setup};

use crate::common::*;

fn the_campaign(db: &ContentDb) -> Campaign {
    db.set
        .campaigns
        .iter()
        .find(|c| c.id == "chaos_outpost")
        .cloned()
        .expect("the base campaign")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "chaos-outpost-campaign-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A campaign past its first chapter, with `roster` on it.
fn underway(db: &ContentDb, roster: &[(&str, &str)]) -> CampaignState {
    let c = the_campaign(db);
    let mut s = CampaignState::new(&c, db, "normal", 7, &[], Some("twin_rifts")).expect("new");
    s.done.push(campaign::ChapterRecord {
        chapter: "first_light".into(),
        won: true,
        cycles: 9,
        score: 100,
        ..Default::default()
    });
    s.roster = roster
        .iter()
        .map(|(name, kind)| Veteran {
            name: (*name).into(),
            kind: (*kind).into(),
            wounds: 0,
            chapters: 1,
        })
        .collect();
    s
}

/// A world with `carry`'s chapter started.
fn started(db: &ContentDb, level: &str, carry: &CarryIn) -> World {
    let mut app = setup::headless_app(Arc::new(db.clone()));
    setup::start_chapter(app.world_mut(), level, Some("normal"), 3, &[], carry).expect("starts");
    std::mem::take(app.world_mut())
}

fn named(world: &mut World, name: &str) -> Option<(Army, String)> {
    world.query::<&Army>().iter(world).find_map(|a| {
        a.units
            .iter()
            .find(|u| u.name.as_deref() == Some(name))
            .map(|u| (a.clone(), u.kind.clone()))
    })
}

#[test]
fn k1_the_base_campaign_lists_its_chapters_in_order_from_data() {
    let db = base();
    let c = the_campaign(&db);
    let listed: Vec<&str> = c
        .listed(|l| db.levels.contains_key(l))
        .iter()
        .map(|x| x.id.as_str())
        .collect();
    // The Dragoness' chapter (optional, its level shipped) sits before the last stand.
    assert_eq!(
        listed,
        [
            "first_light",
            "wyvern_wardens",
            "clans_of_the_rift",
            "twin_rifts",
            "white_tomb",
            "ring_of_fire"
        ]
    );
    // A won chapter without a branch leads on to the next listed one; the last to victory.
    let has = |l: &str| db.levels.contains_key(l);
    assert_eq!(
        c.next_after("first_light", true, &[], has),
        Goto::Chapter("wyvern_wardens".into())
    );
    assert_eq!(
        c.next_after("wyvern_wardens", true, &[], has),
        Goto::Chapter("clans_of_the_rift".into())
    );
    assert_eq!(
        c.next_after("clans_of_the_rift", true, &[], has),
        Goto::Chapter("twin_rifts".into())
    );
    assert_eq!(
        c.next_after("twin_rifts", true, &[], has),
        Goto::Chapter("white_tomb".into())
    );
    assert_eq!(
        c.next_after("white_tomb", true, &[], has),
        Goto::Chapter("ring_of_fire".into())
    );
    // Without their levels (a build or a mod that leaves them out) the campaign goes straight
    // on.
    let without = |l: &str| {
        l != "dragoness" && l != "mercenaries" && l != "clans" && db.levels.contains_key(l)
    };
    assert_eq!(
        c.next_after("twin_rifts", true, &[], without),
        Goto::Chapter("ring_of_fire".into())
    );
    assert_eq!(
        c.next_after("first_light", true, &[], without),
        Goto::Chapter("twin_rifts".into())
    );
    assert_eq!(c.listed(without).len(), 3);
    assert_eq!(c.next_after("ring_of_fire", true, &[], has), Goto::Victory);
    assert_eq!(c.next_after("twin_rifts", false, &[], has), Goto::Retry);
}

#[test]
fn k1_an_optional_chapter_whose_level_is_missing_is_skipped_and_a_flag_branches() {
    let db = base();
    let mut c = the_campaign(&db);
    let text = r#"(id: "dragon", level: "no_such_level", optional: true,
        next: [(on: Won, to: Chapter("ring_of_fire"))])"#;
    let twin = c
        .chapters
        .iter()
        .position(|x| x.id == "twin_rifts")
        .expect("twin_rifts");
    c.chapters
        .insert(twin + 1, ron::from_str(text).expect("chapter"));
    c.chapters[twin].next = ron::from_str(
        r#"[(on: Flag("portal_overrun"), to: Defeat), (on: Won, to: Chapter("dragon"))]"#,
    )
    .expect("branches");
    let has = |l: &str| db.levels.contains_key(l);
    assert!(
        !c.listed(has).iter().any(|x| x.id == "dragon"),
        "not listed without its level"
    );
    // Won leads into the missing chapter, which passes on to where its own win leads.
    assert_eq!(
        c.next_after("twin_rifts", true, &[], has),
        Goto::Chapter("ring_of_fire".into())
    );
    // With its level present, the chapter is played.
    assert_eq!(
        c.next_after("twin_rifts", true, &[], |_| true),
        Goto::Chapter("dragon".into())
    );
    // A flag set by the ending picks its branch before the plain result.
    assert_eq!(
        c.next_after("twin_rifts", false, &["portal_overrun".into()], has),
        Goto::Defeat
    );
}

/// The base files with `campaigns.ron` replaced by `text`.
fn with_campaigns(text: &str) -> Result<ContentDb, Vec<chaos_outpost::content::Problem>> {
    let files: Vec<SourceFile> = embedded_files()
        .into_iter()
        .map(|mut f| {
            if f.path.ends_with("campaigns.ron") {
                f.text = text.to_string();
            }
            f
        })
        .collect();
    ContentDb::from_files(files, &chaos_outpost::chapters::shipped())
}

#[test]
fn k1_a_broken_campaign_file_is_refused_with_file_line_and_field() {
    let good = embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("campaigns.ron"))
        .expect("campaigns.ron")
        .text;
    // A branch to a chapter that does not exist.
    let bad = good.replacen(
        r#"to: Chapter("white_tomb")"#,
        r#"to: Chapter("ring_of_fyre")"#,
        1,
    );
    let ps = with_campaigns(&bad).expect_err("refused");
    let p = ps
        .iter()
        .find(|p| p.field.contains("chapters[twin_rifts].next"))
        .unwrap_or_else(|| panic!("a problem at the branch: {ps:?}"));
    assert!(p.file.ends_with("campaigns.ron"), "{p}");
    let line = bad
        .lines()
        .position(|l| l.contains("ring_of_fyre"))
        .expect("line")
        + 1;
    assert_eq!(p.line, line, "{p}");
    assert!(p.message.contains("ring_of_fyre"), "{p}");
    // A fallback that can't give what the chapter needs (K3), and an unknown unit.
    let bad = good.replacen(
        r#"fallback: (veterans: ["warden", "ranger"]"#,
        r#"fallback: (veterans: ["dragon"]"#,
        1,
    );
    let ps = with_campaigns(&bad).expect_err("refused");
    assert!(
        ps.iter()
            .any(|p| p.field.ends_with("fallback.veterans") && p.message.contains("dragon")),
        "{ps:?}"
    );
    // An admission rule naming no unit, and a fallback unit the rule does not admit.
    let bad = good.replacen(
        r#"admit_kinds: ["ranger", "warden", "arcanist","#,
        r#"admit_kinds: ["rangr", "warden", "arcanist","#,
        1,
    );
    let ps = with_campaigns(&bad).expect_err("refused");
    assert!(
        ps.iter()
            .any(|p| p.field.ends_with("chapters[white_tomb].admit_kinds")
                && p.message.contains("rangr")),
        "{ps:?}"
    );
    let bad = good.replacen(
        r#"fallback: (veterans: ["ranger", "arcanist"]"#,
        r#"fallback: (veterans: ["golem", "arcanist"]"#,
        1,
    );
    let ps = with_campaigns(&bad).expect_err("refused");
    assert!(
        ps.iter().any(
            |p| p.field.ends_with("chapters[white_tomb].fallback.veterans")
                && p.message.contains("golem")
                && p.message.contains("admit_kinds")
        ),
        "{ps:?}"
    );
    // Not RON at all: the parse error names the line.
    let ps = with_campaigns("[ (id: \"x\", name: ").expect_err("refused");
    assert!(
        ps[0].file.ends_with("campaigns.ron") && ps[0].line >= 1,
        "{ps:?}"
    );
    // A level that is missing without `optional`.
    let bad = good.replacen(r#"level: "hard""#, r#"level: "hardd""#, 1);
    let ps = with_campaigns(&bad).expect_err("refused");
    assert!(
        ps.iter().any(|p| p.severity == Severity::Error
            && p.field.ends_with("chapters[ring_of_fire].level")
            && p.message.contains("optional")),
        "{ps:?}"
    );
}

#[test]
fn k2_a_veteran_musters_by_name_survives_and_reappears_on_the_roster() {
    let db = base();
    let c = the_campaign(&db);
    let state = underway(&db, &[("Aelar", "warden"), ("Ilyana", "ranger")]);
    let def = c.chapter("twin_rifts").expect("chapter").clone();
    let carry = state.carry_in(&def, &["Ilyana".into()]);
    assert_eq!(carry.veterans.len(), 1, "only who was picked musters");
    let mut w = started(&db, "standard", &carry);
    let (army, kind) = named(&mut w, "Ilyana").expect("Ilyana is in the game");
    assert_eq!(kind, "ranger");
    assert_eq!(army.camp, Camp::Eladrins);
    // At the portal's outpost, Dawnwatch.
    assert_eq!((army.hex.x, army.hex.y), (0, 0));
    assert!(named(&mut w, "Aelar").is_none(), "Aelar stayed behind");
    // The chapter ends: Ilyana is back, one chapter more; Aelar kept his place.
    let mut state2 = state.clone();
    let mut left = left_by(&mut w);
    left.won = true;
    let go = state2.finish(&c, &db, &carry, &left);
    assert_eq!(go, Goto::Chapter("white_tomb".into()));
    let ilyana = state2
        .roster
        .iter()
        .find(|v| v.name == "Ilyana")
        .expect("Ilyana on the roster");
    assert_eq!((ilyana.kind.as_str(), ilyana.chapters), ("ranger", 2));
    assert!(state2.roster.iter().any(|v| v.name == "Aelar"));
    assert!(state2.roster.len() <= c.carry.veterans as usize);
    // The level's own units that survived became veterans with names of their own.
    let names: Vec<&str> = state2.roster.iter().map(|v| v.name.as_str()).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "no name twice: {names:?}");
    assert!(names.iter().all(|n| !n.is_empty()));
}

#[test]
fn k2_a_chapter_admits_only_the_unit_types_it_names() {
    let db = base();
    let c = the_campaign(&db);
    let def = c.chapter("white_tomb").expect("chapter").clone();
    assert!(def.admits("ranger") && !def.admits("golem"));
    let state = underway(
        &db,
        &[
            ("Aelar", "golem"),
            ("Ilyana", "ranger"),
            ("Thamior", "builder"),
            ("Sariel", "arcanist"),
            ("Faelar", "warden"),
            ("Naivara", "healer"),
        ],
    );
    // The default muster passes over the golem and the builder: the first three climbers.
    assert_eq!(
        state.default_muster(&def),
        ["Ilyana", "Sariel", "Faelar"].map(String::from)
    );
    // A golem picked anyway (an old save, a hand-edited muster) stays behind.
    let carry = state.carry_in(&def, &["Aelar".into(), "Naivara".into()]);
    let kinds: Vec<&str> = carry.veterans.iter().map(|v| v.kind.as_str()).collect();
    assert_eq!(kinds, ["healer"]);
    // With only a golem on the roster, the fallback's first unit makes up the need (K3).
    let state = underway(&db, &[("Aelar", "golem")]);
    assert!(state.default_muster(&def).is_empty());
    let carry = state.carry_in(&def, &state.default_muster(&def));
    let kinds: Vec<&str> = carry.veterans.iter().map(|v| v.kind.as_str()).collect();
    assert_eq!(kinds, ["ranger"]);
    // A chapter that names no kinds admits any Eladrin unit.
    let twin = c.chapter("twin_rifts").expect("chapter");
    assert!(twin.admit_kinds.is_empty() && twin.admits("golem"));
}

/// K3: a chapter that needs some stores gets them topped up from what the carry-over brings
/// (the Ring of Fire after a chapter that spent everything); what the carry-over brings beyond
/// that stays. A need its fallback can't meet is refused by the check.
#[test]
fn k3_a_chapter_short_of_the_stores_it_needs_is_topped_up() {
    let db = base();
    let c = the_campaign(&db);
    let def = c.chapter("ring_of_fire").expect("chapter").clone();
    assert_eq!(def.needs.stock.get(Res::Food), 3);
    let mut state = underway(&db, &[("Aelar", "warden"), ("Ilyana", "ranger")]);
    state.stock = chaos_outpost::content::Stock::default();
    state.stock.add(Res::Food, 1);
    state.stock.add(Res::Wood, 5);
    let carry = state.carry_in(&def, &[]);
    assert_eq!(carry.stock.get(Res::Food), 3, "topped up to its need");
    assert_eq!(carry.stock.get(Res::Crystal), 2);
    assert_eq!(carry.stock.get(Res::Wood), 5, "what was brought stays");
    state.stock.add(Res::Food, 7);
    let carry = state.carry_in(&def, &[]);
    assert_eq!(carry.stock.get(Res::Food), 8, "more than it needs: kept");
    let good = embedded_files()
        .into_iter()
        .find(|f| f.path.ends_with("campaigns.ron"))
        .expect("campaigns.ron")
        .text;
    let bad = good.replacen(
        "stock: {Food: 3, Crystal: 2}),",
        "stock: {Food: 9, Crystal: 2}),",
        1,
    );
    assert_ne!(bad, good);
    let ps = with_campaigns(&bad).expect_err("refused");
    assert!(
        ps.iter()
            .any(|p| p.field.ends_with("chapters[ring_of_fire].needs.stock")),
        "{ps:?}"
    );
}

#[test]
fn k2_a_fallen_veterans_name_is_never_given_again() {
    let db = base();
    let c = the_campaign(&db);
    let mut state = underway(&db, &[("Aelar", "warden")]);
    let def = c.chapter("twin_rifts").expect("chapter").clone();
    let carry = state.carry_in(&def, &["Aelar".into()]);
    // Aelar did not come back; two unnamed units did.
    let left = Left {
        won: true,
        cycles: 10,
        survivors: vec![
            Veteran {
                kind: "warden".into(),
                ..Default::default()
            },
            Veteran {
                kind: "ranger".into(),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    state.finish(&c, &db, &carry, &left);
    assert_eq!(
        state.done.last().map(|r| r.fell.clone()),
        Some(vec!["Aelar".to_string()])
    );
    assert!(state.fallen.contains(&"Aelar".to_string()));
    let names: Vec<&str> = state.roster.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(!names.contains(&"Aelar"), "{names:?}");
    assert_eq!(names, [c.names[1].as_str(), c.names[2].as_str()]);
}

#[test]
fn k2_research_artifacts_and_a_capped_share_of_the_stock_carry_on() {
    let db = base();
    let c = the_campaign(&db);
    let mut state = underway(&db, &[]);
    let def = c.chapter("ring_of_fire").expect("chapter").clone();
    let mut stock = st(&[(Res::Food, 30), (Res::Wood, 5)]);
    let left = Left {
        won: true,
        cycles: 9,
        research: vec!["deep_cellars".into()],
        artifacts: vec!["crystal_lens".into()],
        stock,
        ..Default::default()
    };
    let twin = c.chapter("twin_rifts").expect("chapter").clone();
    let carry0 = state.carry_in(&twin, &[]);
    state.finish(&c, &db, &carry0, &left);
    // 40 % rounded down, at most 8 of each.
    stock = st(&[(Res::Food, 8), (Res::Wood, 2)]);
    assert_eq!(state.stock, stock);
    assert_eq!(state.research, ["deep_cellars"]);
    assert_eq!(state.artifacts, ["crystal_lens"]);
    let carry = state.carry_in(&def, &[]);
    let mut w = started(&db, "hard", &carry);
    let r = w.resource::<Research>().clone();
    assert!(r.done.contains(&"deep_cellars".to_string()));
    let decks = w.resource::<Decks>().clone();
    assert!(
        !decks.research.draw.contains(&"deep_cellars".to_string()),
        "not offered again"
    );
    assert!(!decks.artifacts.draw.contains(&"crystal_lens".to_string()));
    assert!(
        decks
            .artifacts
            .discard
            .contains(&"crystal_lens".to_string())
    );
    // The share lands in Dawnwatch's stock, on top of the level's.
    let mut plain = setup::headless_app(Arc::new(db.clone()));
    setup::start_game(plain.world_mut(), "hard", Some("normal"), 3).expect("starts");
    // Kept in the stock, or lying on the tile where the storage is full (R3.3).
    let dawn = |w: &mut World| {
        let (hex, mut stock) = w
            .query::<&Outpost>()
            .iter(w)
            .find(|o| o.name == "Dawnwatch")
            .map(|o| (o.hex, o.stock))
            .expect("Dawnwatch");
        if let Some(t) = w.tile(hex) {
            stock.add_all(&t.lying);
        }
        stock
    };
    let with = dawn(&mut w);
    let without = dawn(plain.world_mut());
    assert!(
        with.get(Res::Food) > without.get(Res::Food),
        "{with:?} vs {without:?}"
    );
    // The ring of fire needs two veterans: none on the roster, so the fallback's units stand in.
    assert_eq!(carry.veterans.len(), def.needs.veterans as usize);
    assert!(carry.veterans.iter().all(|v| v.name.is_empty()));
}

#[test]
fn k3_a_chapter_started_cold_gets_its_fallback() {
    let db = base();
    let c = the_campaign(&db);
    let state = CampaignState::new(&c, &db, "normal", 1, &["Ana".into()], Some("ring_of_fire"))
        .expect("new");
    assert!(state.cold());
    let def = c.chapter("ring_of_fire").expect("chapter").clone();
    let carry = state.carry_in(&def, &[]);
    let kinds: Vec<&str> = carry.veterans.iter().map(|v| v.kind.as_str()).collect();
    assert_eq!(kinds, ["warden", "warden", "arcanist"]);
    assert_eq!(carry.research, def.fallback.research);
    assert_eq!(carry.artifacts, def.fallback.artifacts);
    assert_eq!(carry.stock, def.fallback.stock);
    let mut w = started(&db, "hard", &carry);
    assert_eq!(w.resource::<GameSetup>().carry.as_ref(), Some(&carry));
    for t in &def.fallback.research {
        assert!(w.resource::<Research>().done.contains(t));
    }
    // The fallback units stand at Dawnwatch as one army (the level's own armies are there too).
    let at_dawn: usize = w
        .query::<&Army>()
        .iter(&w)
        .filter(|a| a.camp == Camp::Eladrins && a.units.iter().all(|u| u.name.is_none()))
        .count();
    assert!(at_dawn >= 1);
    // A chapter that does not exist can't be started.
    let err = CampaignState::new(&c, &db, "normal", 1, &[], Some("nowhere")).expect_err("refused");
    assert!(
        err.contains("nowhere") && err.contains("twin_rifts"),
        "{err}"
    );
}

#[test]
fn k4_a_lost_chapter_is_retried_and_changes_nothing_but_its_record() {
    let db = base();
    let c = the_campaign(&db);
    let mut state = underway(&db, &[("Aelar", "warden")]);
    let before = state.clone();
    let def = c.chapter("twin_rifts").expect("chapter").clone();
    let carry = state.carry_in(&def, &["Aelar".into()]);
    let seed = state.seed_for("twin_rifts");
    let go = state.finish(
        &c,
        &db,
        &carry,
        &Left {
            won: false,
            cycles: 7,
            flags: vec!["portal_overrun".into()],
            ..Default::default()
        },
    );
    assert_eq!(go, Goto::Retry);
    assert_eq!(state.roster, before.roster, "Aelar did not die for good");
    assert_eq!(state.current.as_deref(), Some("twin_rifts"));
    assert_eq!(state.done.len(), before.done.len() + 1);
    assert_ne!(
        state.seed_for("twin_rifts"),
        seed,
        "a retry meets other dice"
    );
}

/// A save edited as a hostile or careless hand would, its header made to match.
fn rewrapped(text: &str, from: &str, to: &str) -> String {
    let (_, body) = text.split_once('\n').expect("a header line");
    chaos_outpost::ground::files::envelope(
        "campaign",
        campaign::CAMPAIGN_VERSION,
        &body.replace(from, to),
    )
}

#[test]
fn k4_the_campaign_saves_atomically_and_a_damaged_save_falls_back_to_the_previous() {
    let db = base();
    let dir = tmpdir("save");
    let mut state = underway(&db, &[("Aelar", "warden")]);
    campaign::save(&state, &dir).expect("saved");
    state.score = 999;
    campaign::save(&state, &dir).expect("saved again");
    assert!(
        dir.join("chapters/twin_rifts.ron").is_file(),
        "the chapter's start is kept"
    );
    let (got, problems) = campaign::load(&dir, &db);
    assert_eq!(got.as_ref().map(|s| s.score), Some(999));
    assert!(problems.is_empty());
    // Damage the save: the previous one loads, and the damage is reported with its line.
    let path = dir.join(campaign::SAVE_FILE);
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, rewrapped(&text, "roster:", "roster: ((((")).expect("write");
    let (got, problems) = campaign::load(&dir, &db);
    assert_eq!(got.map(|s| s.score), Some(0), "the previous save");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("campaign.ron:"), "{problems:?}");
    let line = text
        .lines()
        .position(|l| l.contains("roster:"))
        .expect("line")
        + 1;
    assert!(problems[0].contains(&format!(":{line}:")), "{problems:?}");
    // Nothing was lost: the damaged file is still there to look at.
    assert!(path.is_file());
}

#[test]
fn k4_a_hostile_campaign_save_is_refused_naming_the_field() {
    let db = base();
    let dir = tmpdir("hostile");
    let state = underway(&db, &[("Aelar", "warden")]);
    campaign::save(&state, &dir).expect("saved");
    let path = dir.join(campaign::SAVE_FILE);
    let text = std::fs::read_to_string(&path).expect("read");
    for (from, to, field) in [
        ("kind: \"warden\"", "kind: \"husk\"", "kind"),
        (
            "campaign: \"chaos_outpost\"",
            "campaign: \"../../etc\"",
            "campaign",
        ),
        (
            "difficulty: \"normal\"",
            "difficulty: \"godlike\"",
            "difficulty",
        ),
    ] {
        std::fs::write(&path, rewrapped(&text, from, to)).expect("write");
        let err = campaign::read(&path, &db).expect_err("refused");
        assert!(err.contains(&format!("in `{field}`")), "{err}");
        let line = text.lines().position(|l| l.contains(from)).expect("line") + 1;
        assert!(err.contains(&format!("campaign.ron:{line}:")), "{err}");
    }
    // Edited without its header made to match: refused before it is read.
    std::fs::write(&path, text.replace("Aelar", "Aelor")).expect("write");
    let err = campaign::read(&path, &db).expect_err("refused");
    assert!(err.contains("altered"), "{err}");
    // Too big to be a campaign.
    std::fs::write(&path, "x".repeat(2 * 1024 * 1024)).expect("write");
    let err = campaign::read(&path, &db).expect_err("refused");
    assert!(err.contains("campaign.ron"), "{err}");
    // A newer format.
    std::fs::write(&path, text.replacen("v1", "v9", 1)).expect("write");
    assert!(campaign::read(&path, &db).is_err());
}

#[test]
fn k4_a_chapters_save_holds_its_campaign_and_its_replay_plays_without_it() {
    let db = base();
    let c = the_campaign(&db);
    let state = underway(&db, &[("Aelar", "warden")]);
    let def = c.chapter("twin_rifts").expect("chapter").clone();
    let carry = state.carry_in(&def, &["Aelar".into()]);
    let mut w = started(&db, "standard", &carry);
    w.insert_resource(CampaignRun(Some(state.clone())));
    let h = state_hash(&mut w);
    let dir = tmpdir("embedded");
    let path = dir.join("mid.ron");
    snapshot::save(&mut w, &path).expect("saved");
    let s = snapshot::read(&path).expect("read");
    assert_eq!(
        s.campaign.0.as_ref(),
        Some(&state),
        "the campaign rides along"
    );
    let mut app = setup::headless_app(Arc::new(db.clone()));
    snapshot::restore(app.world_mut(), &s).expect("restored");
    assert_eq!(
        app.world().resource::<CampaignRun>().0.as_ref(),
        Some(&state)
    );
    // The campaign is not game state: the hash is the same without it.
    w.insert_resource(CampaignRun(None));
    assert_eq!(state_hash(&mut w), h);
    // A replay of the chapter holds what it was given and plays the same.
    let r = snapshot::replay_of(&mut w);
    assert_eq!(r.carry.as_ref(), Some(&carry));
    let mut again = setup::headless_app(Arc::new(db));
    assert_eq!(snapshot::play_replay(again.world_mut(), &r), Ok(h));
}

/// K3: `check` starts every chapter from its fallback, as a player starting there would, and
/// refuses one that can't (a muster on a lake), naming the chapter.
#[test]
fn k3_check_refuses_a_chapter_that_cannot_start_from_its_fallback() {
    let dir = tmpdir("check");
    std::fs::create_dir_all(dir.join("content")).expect("dir");
    std::fs::write(
        dir.join("mod.ron"),
        r#"(id: "wet", name: "Wet", version: "1.0.0", game: ">=0.1, <0.2", description: "x",
            authors: [], dependencies: {}, conflicts: [], load_after: [])"#,
    )
    .expect("write");
    std::fs::write(
        dir.join("content/campaigns.ron"),
        r#"[(id: "wet", name: "Wet", difficulties: ["normal"], carry: (),
            chapters: [(id: "lake", level: "first_light", admit: 1,
                        muster_at: Some((-2, 2)), fallback: (veterans: ["warden"]))])]"#,
    )
    .expect("write");
    let r = chaos_outpost::cli::check::check(&[dir], &[], &chaos_outpost::chapters::shipped());
    assert!(
        r.problems.iter().any(|p| p.severity == Severity::Error
            && p.field == "campaigns[wet].chapters[lake].fallback"
            && p.message.contains("not passable")),
        "{:?}",
        r.problems
    );
    // The base campaign's chapters all start from their fallbacks.
    let r = chaos_outpost::cli::check::check(&[], &[], &chaos_outpost::chapters::shipped());
    assert_eq!(r.errors(), 0, "{:?}", r.problems);
}

/// The briefing's promise is written from the carry rule itself (text::campaign::promise): a
/// rule changed in data changes the promise, and what it says the chapter is given is what
/// `carry_in` gives: the veterans mustered by name, the stand-ins for a chapter's needs, the
/// stores.
#[test]
fn k2_the_briefing_promises_what_the_carry_rule_carries_and_names_the_muster() {
    use chaos_outpost::text::{Translations, campaign as words};
    let db = base();
    let tr = Translations::default();
    let mut c = the_campaign(&db);
    let lines = words::promise(&c.carry, &tr).join("\n");
    assert!(lines.contains("Up to 6 Eladrin units"), "{lines}");
    assert!(lines.contains("40% of the stores"), "{lines}");
    assert!(lines.contains("at most 8 of each"), "{lines}");
    assert!(lines.contains("wounds healed"), "{lines}");
    assert!(lines.contains("Technologies researched"), "{lines}");
    c.carry.stock_percent = 25;
    c.carry.heal = false;
    c.carry.research = false;
    let lines = words::promise(&c.carry, &tr).join("\n");
    assert!(lines.contains("25% of the stores"), "{lines}");
    assert!(lines.contains("keep their wounds"), "{lines}");
    assert!(!lines.contains("Technologies"), "{lines}");
    c.carry = chaos_outpost::content::campaign::CarryRule {
        veterans: 0,
        research: false,
        artifacts: false,
        stock_percent: 0,
        ..Default::default()
    };
    assert_eq!(
        words::promise(&c.carry, &tr),
        vec!["Nothing carries on: each chapter starts afresh".to_string()]
    );
    // What the chapter is given, in words: exactly the carry's veterans and stores.
    let mut state = underway(&db, &[("Aelar", "warden"), ("Ilyana", "ranger")]);
    state.stock.add(Res::Food, 3);
    let def = c.chapter("twin_rifts").expect("chapter").clone();
    let given = words::given(&state.carry_in(&def, &["Ilyana".into()]), &db, &tr).join("\n");
    assert!(given.contains("Ilyana, Ranger · 1 chapter"), "{given}");
    assert!(!given.contains("Aelar"), "{given}");
    assert!(given.contains("3 food"), "{given}");
    // No veteran chosen: the chapter's need of one is met by its fallback's stand-in (K3).
    let given = words::given(&state.carry_in(&def, &[]), &db, &tr).join("\n");
    assert!(given.contains("a Warden (stands in)"), "{given}");
}

/// Replaying a done chapter goes back to the campaign as it stood when that chapter began
/// (`chapters/ID.ron`, written by `save`); a chapter never begun, or a name that could lead
/// out of the folder, is refused and nothing changes.
#[test]
fn k4_a_done_chapter_is_replayed_from_where_it_began() {
    let db = base();
    let dir = tmpdir("replay");
    let at_twin = underway(&db, &[("Aelar", "warden")]);
    campaign::save(&at_twin, &dir).expect("saved at twin_rifts' start");
    let mut later = at_twin.clone();
    later.current = Some("ring_of_fire".into());
    later.score = 250;
    later.roster.clear();
    campaign::save(&later, &dir).expect("saved at ring_of_fire's start");
    let back = campaign::chapter_start(&dir, "twin_rifts", &db).expect("its start");
    assert_eq!(
        back, at_twin,
        "the campaign as it stood then, roster and all"
    );
    let err = campaign::chapter_start(&dir, "first_light", &db).expect_err("never begun here");
    assert!(err.contains("first_light.ron"), "{err}");
    let err = campaign::chapter_start(&dir, "../campaign", &db).expect_err("outside");
    assert!(err.contains("can't name"), "{err}");
    // The campaign's own save is untouched by a look back.
    let (now, _) = campaign::load(&dir, &db);
    assert_eq!(now.map(|s| s.score), Some(250));
    assert_eq!(
        campaign::dir_for(&dir, "../x"),
        None,
        "an id that leaves the folder"
    );
}

/// A chapter started cold and lost is retried cold: its retry gets the fallback again (K3), not
/// an empty carry-over from a chapter that led nowhere.
#[test]
fn k3_a_cold_chapter_lost_and_retried_still_gets_its_fallback() {
    let db = base();
    let c = the_campaign(&db);
    let mut state =
        CampaignState::new(&c, &db, "normal", 1, &[], Some("ring_of_fire")).expect("new");
    let def = c.chapter("ring_of_fire").expect("chapter").clone();
    let carry = state.carry_in(&def, &[]);
    let lost = Left {
        won: false,
        cycles: 4,
        ..Default::default()
    };
    assert_eq!(state.finish(&c, &db, &carry, &lost), Goto::Retry);
    assert!(state.cold(), "only attempts at this chapter: still cold");
    let again = state.carry_in(&def, &[]);
    assert_eq!(again.veterans, carry.veterans);
    assert_eq!(again.research, def.fallback.research);
    assert_eq!(again.stock, def.fallback.stock);
    // Once another chapter was finished, the campaign is no longer cold.
    let mut on = underway(&db, &[("Aelar", "warden")]);
    assert!(!on.cold());
    let twin = c.chapter("twin_rifts").expect("chapter").clone();
    let carry = on.carry_in(&twin, &["Aelar".into()]);
    on.finish(&c, &db, &carry, &lost);
    assert!(!on.cold());
}
