//! A track is drawn by its nature, declared in `tracks.ron` (`TrackDef::show`): a bounded
//! track as bars within their bounds, ticked at a threshold's steps with a line saying what each
//! brings; a score as one line ranking its holders; a counted resource as one line of numbers.
//! The track bar's lines are worded without a window (`view::panels::tracks::lines`); the
//! content check refuses a threshold that can't be drawn, naming its field.

use chaos_outpost::content::{
    Camp, ContentDb, Problem, Severity, TrackDef, TrackPer, TrackShow, TrackStep, embedded_files,
};
use chaos_outpost::rules::tracks::{Holder, Row};
use chaos_outpost::text::Translations;
use chaos_outpost::view::panels::tracks::{Entry, Line, lines, ticks};

use crate::common::*;

/// A track of the clans, from 0, shown for Chaos too.
fn def(id: &str, name: &str, per: TrackPer, max: i32, show: TrackShow) -> TrackDef {
    TrackDef {
        id: id.into(),
        name: name.into(),
        chapter: "clans".into(),
        per,
        min: 0,
        max,
        start: 0,
        chaos: true,
        show,
        every: None,
    }
}

/// The row the rules would give `d` with these values.
fn row(d: &TrackDef, values: &[(Holder, i32)]) -> Row {
    Row {
        id: d.id.clone(),
        name: d.name.clone(),
        min: d.min,
        max: d.max,
        values: values.to_vec(),
    }
}

fn players() -> Vec<String> {
    vec!["Mirelle".into(), "Thorn".into(), "Asha".into()]
}

#[test]
fn a_score_ranks_its_holders_highest_first_ties_sharing_a_rank_chaos_among_them() {
    let glory = def("glory", "Glory", TrackPer::Seat, 999, TrackShow::Score);
    let values = [
        (Holder::Seat(0), 18),
        (Holder::Seat(1), 24),
        (Holder::Seat(2), 18),
        (Holder::Camp(Camp::Chaos), 12),
    ];
    let rows = [row(&glory, &values)];
    let defs = [glory];
    let shown = lines(&Translations::default(), &defs, &rows, &players());
    let entry = |who: &str, value, rank| Entry {
        who: who.into(),
        value,
        rank: Some(rank),
    };
    assert_eq!(
        shown,
        vec![Line::Values {
            track: "Glory".into(),
            text: "Thorn 24 (1st) · Mirelle 18 (2nd) · Asha 18 (2nd) · Chaos 12 (4th)".into(),
            entries: vec![
                entry("Thorn", 24, 1),
                entry("Mirelle", 18, 2),
                entry("Asha", 18, 2),
                entry("Chaos", 12, 4),
            ],
        }]
    );
    // No bar for a score: its 999 is a bound, not a goal.
    assert!(!shown.iter().any(|l| matches!(l, Line::Bar { .. })));
    // In French, the track's name and each rank are worded (« 1er », « 2e »).
    let fr = lines(&Translations::base("fr"), &defs, &rows, &players());
    let Some(Line::Values { track, text, .. }) = fr.first() else {
        panic!("one line of values: {fr:?}");
    };
    assert_eq!(track, "Gloire");
    assert_eq!(
        text,
        "Thorn 24 (1er) · Mirelle 18 (2e) · Asha 18 (2e) · Chaos 12 (4e)"
    );
}

#[test]
fn a_bar_with_a_threshold_gives_a_tick_at_each_step_and_says_what_a_step_brings() {
    let mut flame = def("flame", "Flame", TrackPer::Camp, 40, TrackShow::Bar);
    flame.every = Some(TrackStep {
        step: 10,
        text: "one more corruption attempt".into(),
    });
    let rows = [row(
        &flame,
        &[
            (Holder::Camp(Camp::Eladrins), 25),
            (Holder::Camp(Camp::Chaos), 0),
        ],
    )];
    let shown = lines(&Translations::default(), &[flame], &rows, &players());
    let steps = vec![0.25, 0.5, 0.75];
    assert_eq!(
        shown,
        vec![
            Line::Bar {
                text: "Flame — Eladrins: 25/40".into(),
                fill: 0.625,
                ticks: steps.clone(),
            },
            Line::Bar {
                text: "Flame — Chaos: 0/40".into(),
                fill: 0.0,
                ticks: steps,
            },
            Line::Step("every 10: one more corruption attempt".into()),
        ]
    );
    // The same bar without a threshold has no tick and no step line.
    let plain = def("flame", "Flame", TrackPer::Camp, 40, TrackShow::Bar);
    let shown = lines(&Translations::default(), &[plain], &rows, &players());
    assert_eq!(shown.len(), 2);
    assert!(
        shown
            .iter()
            .all(|l| matches!(l, Line::Bar { ticks: marks, .. } if marks.is_empty()))
    );
    // Bounds not from 0 are said in full; the ticks fall within them.
    let mut tide = def("tide", "Tide", TrackPer::Camp, 10, TrackShow::Bar);
    tide.min = -10;
    let rows = [row(&tide, &[(Holder::Camp(Camp::Eladrins), 0)])];
    let shown = lines(&Translations::default(), &[tide], &rows, &players());
    assert_eq!(
        shown,
        vec![Line::Bar {
            text: "Tide — Eladrins: 0 (-10 to 10)".into(),
            fill: 0.5,
            ticks: Vec::new(),
        }]
    );
    assert_eq!(ticks(-10, 10, 5), vec![0.25, 0.5, 0.75]);
    // A step that marks nothing, or marks too often to read, draws no tick.
    assert!(ticks(0, 30, 0).is_empty());
    assert!(ticks(0, 30, -5).is_empty());
    assert!(ticks(0, 1000, 1).is_empty());
    assert_eq!(
        ticks(0, 30, 30),
        Vec::<f32>::new(),
        "a step the length of the bar"
    );
}

#[test]
fn a_count_shows_each_holders_number_without_a_bar_a_rank_or_a_max() {
    let gems = def("gems", "Gems", TrackPer::Camp, 99, TrackShow::Count);
    let rows = [row(
        &gems,
        &[
            (Holder::Camp(Camp::Eladrins), 4),
            (Holder::Camp(Camp::Chaos), 7),
        ],
    )];
    let shown = lines(&Translations::default(), &[gems], &rows, &players());
    assert_eq!(
        shown,
        vec![Line::Values {
            track: "Gems".into(),
            // In the bar's order, not by value: a count ranks nobody.
            text: "Eladrins 4 · Chaos 7".into(),
            entries: vec![
                Entry {
                    who: "Eladrins".into(),
                    value: 4,
                    rank: None,
                },
                Entry {
                    who: "Chaos".into(),
                    value: 7,
                    rank: None,
                },
            ],
        }]
    );
    let Some(Line::Values { text, .. }) = shown.first() else {
        panic!("one line of values");
    };
    assert!(!text.contains("99") && !text.contains('/'), "{text}");
}

#[test]
fn a_track_that_says_nothing_is_a_bar_and_the_shipped_tracks_show_by_their_nature() {
    // A mod's track written before `show` existed still reads, as a bar.
    let old: TrackDef =
        ron::from_str("(id: \"flame\", name: \"Flame\", chapter: \"trial\", per: Seat, max: 40)")
            .expect("a track without `show`");
    assert_eq!((old.show, old.every), (TrackShow::Bar, None));
    let db = base();
    let show = |id: &str| {
        db.set
            .tracks
            .iter()
            .find(|t| t.id == id)
            .map(|t| t.show)
            .unwrap_or_else(|| panic!("the track {id}"))
    };
    assert_eq!(show("glory"), TrackShow::Score);
    assert_eq!(show("gems"), TrackShow::Count);
    assert_eq!(show("rage"), TrackShow::Bar);
    // How a track is drawn changes no game: the track as played is written as before.
    let glory = db
        .set
        .tracks
        .iter()
        .find(|t| t.id == "glory")
        .expect("glory");
    let played = ron::to_string(&glory.as_played()).expect("written");
    assert!(
        !played.contains("show") && !played.contains("every"),
        "{played}"
    );
    assert!(
        ron::to_string(glory)
            .expect("written")
            .contains("show:Score")
    );
}

/// The base content with `tracks.ron` edited: its problems (none when it loads clean) and the
/// edited text.
fn with_tracks(edit: impl Fn(&str) -> String) -> (Vec<Problem>, String) {
    let mut edited = String::new();
    let files = embedded_files()
        .into_iter()
        .map(|mut f| {
            if f.path.ends_with("tracks.ron") {
                let text = edit(&f.text);
                assert_ne!(text, f.text, "the edit must change tracks.ron");
                edited.clone_from(&text);
                f.text = text;
            }
            f
        })
        .collect();
    let problems = match ContentDb::from_files(files, &chaos_outpost::chapters::shipped()) {
        Ok(db) => db.warnings,
        Err(ps) => ps,
    };
    (problems, edited)
}

/// A threshold on the Rage track (0 to 30).
fn rage_every(every: &str) -> impl Fn(&str) -> String {
    let line = format!("max: 30,\n        every: Some({every}),");
    move |t: &str| t.replacen("max: 30,", &line, 1)
}

/// The problem at `field`, an error in tracks.ron at the line holding `at`.
fn refused_at(problems: &[Problem], text: &str, field: &str, at: &str) -> Problem {
    let p = problems
        .iter()
        .find(|p| p.field == field)
        .unwrap_or_else(|| panic!("no problem at {field}: {problems:?}"))
        .clone();
    assert_eq!(p.severity, Severity::Error, "{p:?}");
    assert!(p.file.ends_with("tracks.ron"), "{p:?}");
    assert_eq!(p.line, line_of(text, at), "{p:?}");
    p
}

#[test]
fn the_content_check_refuses_a_threshold_that_cant_be_drawn_naming_its_field() {
    // A sound threshold loads clean.
    let (ps, _) = with_tracks(rage_every("(step: 10, text: \"one more clan level\")"));
    assert!(!ps.iter().any(|p| p.file.ends_with("tracks.ron")), "{ps:?}");
    // A step of 0 marks nothing.
    let (ps, text) = with_tracks(rage_every("(step: 0, text: \"one more clan level\")"));
    let p = refused_at(&ps, &text, "tracks[rage].every.step", "step: 0");
    assert!(p.message.contains("a step of 0"), "{p:?}");
    // Longer than the bar from 0 to 30.
    let (ps, text) = with_tracks(rage_every("(step: 31, text: \"one more clan level\")"));
    let p = refused_at(&ps, &text, "tracks[rage].every.step", "step: 31");
    assert!(p.message.contains("at most 30"), "{p:?}");
    // A step that says nothing.
    let (ps, text) = with_tracks(rage_every("(step: 10, text: \"  \")"));
    refused_at(&ps, &text, "tracks[rage].every.text", "text: \"  \"");
    // A score has no bar to tick.
    let (ps, text) = with_tracks(|t| {
        t.replacen(
            "show: Score,",
            "show: Score,\n        every: Some((step: 10, text: \"a toast\")),",
            1,
        )
    });
    let p = refused_at(&ps, &text, "tracks[glory].every", "a toast");
    assert!(p.message.contains("only a bar"), "{p:?}");
}
