//! The frame benchmark's floor: the bare scene must draw what the game's map draws — a window
//! covered with hex sprites — or the ratio compares the game against an empty window (which it
//! did until the sprites were laid ring by ring from the camera's centre).

use chaos_outpost::view::HEX_SIZE;
use chaos_outpost::view::frames::{FrameStats, bare_positions};

/// Every point of a 1280×720 window centred on the origin (the bare camera, scale 1) lies inside
/// some sprite's hexagon, for the stress level's 10,267 sprites.
#[test]
fn the_bare_scene_covers_the_window_it_is_measured_in() {
    let ps = bare_positions(10_267);
    assert_eq!(ps.len(), 10_267);
    // A hexagon of circumradius HEX_SIZE contains the disc of its inradius.
    let inner = HEX_SIZE * 3f32.sqrt() / 2.0;
    let mut uncovered = Vec::new();
    for x in (-640..=640).step_by(16) {
        for y in (-360..=360).step_by(16) {
            let (x, y) = (x as f32, y as f32);
            let covered = ps.iter().any(|p| {
                let d = ((p.x - x).powi(2) + (p.y - y).powi(2)).sqrt();
                d <= inner + 0.01 || d <= HEX_SIZE && hex_contains(p.x - x, p.y - y)
            });
            if !covered {
                uncovered.push((x, y));
            }
        }
    }
    assert!(
        uncovered.is_empty(),
        "window points no sprite covers: {uncovered:?}"
    );
    // And the sprites are distinct tiles, not one stack.
    let mut keys: Vec<(i32, i32)> = ps
        .iter()
        .map(|p| ((p.x * 10.0) as i32, (p.y * 10.0) as i32))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 10_267);
}

/// A pointy-top hexagon of circumradius HEX_SIZE around the origin contains (dx, dy).
fn hex_contains(dx: f32, dy: f32) -> bool {
    let (x, y) = (dx.abs(), dy.abs());
    let inner = HEX_SIZE * 3f32.sqrt() / 2.0;
    x <= inner && y <= HEX_SIZE - x / 3f32.sqrt() + 0.01
}

/// The figures: median and 95th percentile of the times, in milliseconds.
#[test]
fn frame_stats_are_the_median_and_95th_percentile() {
    let times: Vec<f64> = (1..=100).rev().map(|i| i as f64 / 1000.0).collect();
    let s = FrameStats::of("t", 3, times);
    assert_eq!(s.frames, 100);
    assert!((s.median_ms - 51.0).abs() < 1e-9, "{}", s.median_ms);
    assert!((s.p95_ms - 95.0).abs() < 1e-9, "{}", s.p95_ms);
    let empty = FrameStats::of("none", 0, Vec::new());
    assert_eq!(empty.median_ms, 0.0);
}

/// The map is drawn only in frames where its picture would change (map_cache.rs): a few frames
/// after any change (uploads land late), then not at all until the next one; panning within
/// the margin draws nothing, past it or zooming draws again.
#[test]
fn the_map_is_drawn_only_when_something_on_it_changed() {
    use bevy::prelude::*;
    use chaos_outpost::view::MapCamera;
    use chaos_outpost::view::map_cache::{
        MARGIN, MapCopy, MapRedraw, MapRenderCamera, follow_view, redraw_map_when_changed,
    };

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin))
        .add_message::<AssetEvent<Image>>()
        .add_message::<AssetEvent<ColorMaterial>>()
        .init_resource::<ClearColor>()
        .init_resource::<MapRedraw>()
        .init_resource::<MapCopy>()
        .add_systems(PostUpdate, (follow_view, redraw_map_when_changed).chain());
    // The view the player pans (draws nothing) and the camera that draws the picture.
    let view = app
        .world_mut()
        .spawn((MapCamera, Camera2d, Transform::default()))
        .id();
    let cam = app
        .world_mut()
        .spawn((MapRenderCamera, Camera2d, Transform::default()))
        .id();
    let tile = app
        .world_mut()
        .spawn((Sprite::default(), Transform::default()))
        .id();
    let drawing = |app: &mut App| {
        app.update();
        app.world().get::<Camera>(cam).expect("camera").is_active
    };
    let settle = |app: &mut App| {
        let frames: Vec<bool> = (0..6).map(|_| drawing(app)).collect();
        assert!(frames[0], "the change is drawn at once: {frames:?}");
        assert!(!frames[5], "and then no more: {frames:?}");
        frames.iter().filter(|d| **d).count()
    };
    // The first frames draw the new map, then it stands still.
    settle(&mut app);
    assert!(!drawing(&mut app));
    // A tile moved.
    app.world_mut()
        .get_mut::<Transform>(tile)
        .expect("tile")
        .translation
        .x = 5.0;
    let drawn = settle(&mut app);
    assert!((1..=4).contains(&drawn), "{drawn} frames for one change");
    // The highlights came out different (a gizmo system notes what it drew).
    app.world_mut()
        .resource_mut::<MapRedraw>()
        .note_lines("hover (1, 0)");
    // (No note the frame after is a change too: the lines went away. Then stillness.)
    settle(&mut app);
    assert!(!drawing(&mut app));
    // A tile removed.
    app.world_mut().despawn(tile);
    settle(&mut app);
    // The view pans a little at a time, within the margin (one world unit a pixel here). The
    // changes above drew only the view's part, so the first step draws the whole picture
    // around the view once; the next ones draw nothing.
    let pan = |app: &mut App, dx: f32| {
        app.world_mut()
            .get_mut::<Transform>(view)
            .expect("view")
            .translation
            .x += dx;
    };
    let part = |app: &App| {
        app.world()
            .get::<Camera>(cam)
            .expect("camera")
            .sub_camera_view
    };
    assert!(part(&app).is_some(), "a change draws only the view's part");
    pan(&mut app, MARGIN as f32 / 8.0);
    settle(&mut app);
    assert!(part(&app).is_none(), "a new anchor draws the whole picture");
    for _ in 0..6 {
        pan(&mut app, MARGIN as f32 / 8.0);
        assert!(!drawing(&mut app), "a pan within the margin drew the map");
    }
    // Past the margin: drawn again around the view, then still.
    pan(&mut app, MARGIN as f32);
    settle(&mut app);
    // A zoom draws again.
    if let Some(mut p) = app.world_mut().get_mut::<Projection>(view)
        && let Projection::Orthographic(o) = &mut *p
    {
        o.scale = 1.5;
    }
    settle(&mut app);
    // A change while the view pans within the margin (the keys held, the pointer still on the
    // map: the hovered tile changes every few frames) draws the whole picture, so the pan's
    // next steps draw nothing more; the view's part alone would leave the margins stale and
    // the next step would draw it all again.
    pan(&mut app, 8.0);
    assert!(!drawing(&mut app), "a pan within the margin drew the map");
    pan(&mut app, 8.0);
    app.world_mut()
        .resource_mut::<MapRedraw>()
        .note_lines("hover (2, 0)");
    assert!(drawing(&mut app), "the hover's change is drawn");
    assert!(part(&app).is_none(), "panning, the whole picture is drawn");
    pan(&mut app, 8.0);
    assert!(drawing(&mut app), "the hover gone is a change too");
    assert!(part(&app).is_none(), "panning, the whole picture is drawn");
    for _ in 0..4 {
        pan(&mut app, 8.0);
        assert!(
            !drawing(&mut app),
            "the pan's next steps drew the map again"
        );
    }
    // Twenty still frames draw nothing; the count holds exactly the frames drawn above.
    let before = app.world().resource::<MapRedraw>().drawn;
    assert!((0..20).all(|_| !drawing(&mut app)));
    let r = app.world().resource::<MapRedraw>();
    assert_eq!(r.drawn, before);
    assert!(r.frames >= before + 20);
}
