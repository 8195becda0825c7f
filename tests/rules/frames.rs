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
