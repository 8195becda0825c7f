//! A chapter's marks on the map: lines, rings, discs, icons and labels a chapter computes from
//! the game (`add_chapter_marks`), drawn over the tiles for the levels that play it. The
//! chapter reads the world and returns marks; the view draws them (lines and rings as gizmos,
//! the rest as sprites and texts respawned only when the marks change), so the map's image is
//! drawn again only then (`map_cache`).

use std::hash::{Hash, Hasher};

use bevy::prelude::*;
use hexx::Hex;

use super::{HEX_SIZE, layout, map_cache};
use crate::rules::chapter::InPlay;
use crate::rules::{Chronicle, Cycle};

/// One mark on the map. Colours are sRGB with alpha.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A line between two hexes' centres.
    Line {
        /// From.
        from: Hex,
        /// To.
        to: Hex,
        /// Colour.
        rgba: [u8; 4],
    },
    /// A ring inside a hex, `size` a fraction of the hex (0.2 to 1).
    Ring {
        /// The hex.
        at: Hex,
        /// Its size, a fraction of the hex.
        size: f32,
        /// Colour.
        rgba: [u8; 4],
    },
    /// A filled disc on a hex, `size` in pixels at zoom 1, lifted by `up` pixels.
    Disc {
        /// The hex.
        at: Hex,
        /// Diameter.
        size: f32,
        /// Colour.
        rgba: [u8; 4],
    },
    /// An icon of `assets/art/` (`icons/unit_wyvern_rider`) on a hex.
    Icon {
        /// The hex.
        at: Hex,
        /// The art key.
        art: String,
        /// Size in pixels.
        size: f32,
        /// Tint.
        rgba: [u8; 4],
    },
    /// A short text on a hex, `dy` pixels above its centre (negative: below).
    Label {
        /// The hex.
        at: Hex,
        /// The text (in the player's language already).
        text: String,
        /// Pixels above the centre.
        dy: f32,
        /// Colour.
        rgba: [u8; 4],
    },
}

/// Names on the map that must not run into each other. The simple rule (`crowded`, `above`):
/// a name goes above its hex unless one already above stands two hexes or less along the same
/// row; then below. The measured rule (`reserve`, `place`): each name is a box as wide as its
/// text, put at the first of a few heights around its hex where it meets no box placed yet.
#[derive(Debug, Default)]
pub struct LabelRows {
    above: Vec<Hex>,
    boxes: Vec<Rect>,
}

/// A map label's box at zoom 1: the Hack face at 12 px advances about 7.2 px a character.
fn label_box(at: Hex, chars: usize, dy: f32) -> Rect {
    let c = super::layout().hex_to_world_pos(at) + Vec2::new(0.0, dy);
    Rect::from_center_size(c, Vec2::new(chars as f32 * 7.2 + 6.0, 14.0))
}

/// The heights tried for a name, nearest its hex first: above, below, then further out.
pub const NAME_HEIGHTS: [f32; 6] = [17.0, -19.0, 31.0, -33.0, 3.0, -5.0];
/// The heights tried for a small mark under a name (a count): below, above, further out.
pub const MARK_HEIGHTS: [f32; 4] = [-19.0, 17.0, -33.0, 31.0];

impl LabelRows {
    /// Whether a name above `at` would run into one placed above already.
    pub fn crowded(&self, at: Hex) -> bool {
        self.above
            .iter()
            .any(|a| a.y == at.y && (a.x - at.x).abs() <= 2)
    }

    /// A name goes above `at`.
    pub fn above(&mut self, at: Hex) {
        self.above.push(at);
    }

    /// A label the map draws already (an outpost's name) that others must keep clear of.
    pub fn reserve(&mut self, at: Hex, chars: usize, dy: f32) {
        self.boxes.push(label_box(at, chars, dy));
    }

    /// The first of `heights` where a text of `chars` characters on `at` meets no label placed
    /// yet (when every one does, the one it overlaps least); the label is placed there.
    pub fn place(&mut self, at: Hex, chars: usize, heights: &[f32]) -> f32 {
        let overlap = |dy: f32| -> f32 {
            let b = label_box(at, chars, dy);
            self.boxes
                .iter()
                .map(|o| {
                    let i = o.intersect(b);
                    if i.is_empty() {
                        0.0
                    } else {
                        i.width() * i.height()
                    }
                })
                .sum()
        };
        let mut best = (f32::INFINITY, heights.first().copied().unwrap_or(17.0));
        for dy in heights.iter().copied() {
            let o = overlap(dy);
            if o < best.0 {
                best = (o, dy);
            }
            if o == 0.0 {
                break;
            }
        }
        self.boxes.push(label_box(at, chars, best.1));
        best.1
    }
}

/// What a chapter draws: its marks for the game in `world` (the player's language given).
pub type Marks = fn(&mut World, &crate::text::Translations) -> Vec<Mark>;

/// The chapters' marks in this app, by chapter.
#[derive(Resource, Default, Clone)]
pub struct ChapterMaps(Vec<(&'static str, Marks)>);

/// Adds a chapter's marks (adding again replaces them).
pub(super) fn add(app: &mut App, chapter: &'static str, marks: Marks) {
    let mut maps = app.world_mut().get_resource_or_init::<ChapterMaps>();
    maps.0.retain(|(c, _)| *c != chapter);
    maps.0.push((chapter, marks));
}

/// The marks of the chapters in play, and their digest.
#[derive(Resource, Default)]
struct ChapterMarks {
    marks: Vec<Mark>,
    digest: u64,
    /// What they were computed from: events told, cycle, step, language.
    from: (usize, u32, usize, String),
}

/// Marks a sprite or text of the chapters (respawned when the marks change).
#[derive(Component)]
struct ChapterSprite;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChapterMarks>().add_systems(
        Update,
        (
            gather.in_set(super::screens::ViewSet::Cache),
            (draw_lines, place_sprites).in_set(super::screens::ViewSet::Draw),
        ),
    );
}

/// Asks the chapters in play for their marks when the game moved (an event told, a new step)
/// or the language changed.
fn gather(world: &mut World) {
    let added: Vec<(&'static str, Marks)> = world
        .get_resource::<ChapterMaps>()
        .map(|m| m.0.clone())
        .unwrap_or_default();
    let Some(in_play) = world.get_resource::<InPlay>().cloned() else {
        return;
    };
    let Some(told) = world.get_resource::<Chronicle>().map(|c| c.0.len()) else {
        return;
    };
    let (cycle, step) = world
        .get_resource::<Cycle>()
        .map_or((0, 0), |c| (c.number, c.step));
    let Some(lang) = world
        .get_resource::<crate::text::Translations>()
        .map(|t| t.lang.clone())
    else {
        return;
    };
    let from = (told, cycle, step, lang);
    if world.resource::<ChapterMarks>().from == from {
        return;
    }
    let tr = world.resource::<crate::text::Translations>().clone();
    let mut marks = Vec::new();
    for (id, f) in added {
        if in_play.has(id) {
            marks.extend(f(world, &tr));
        }
    }
    let mut h = std::hash::DefaultHasher::new();
    format!("{marks:?}").hash(&mut h);
    let digest = h.finish();
    let mut m = world.resource_mut::<ChapterMarks>();
    m.from = from;
    if m.digest != digest {
        m.marks = marks;
        m.digest = digest;
    }
}

fn colour([r, g, b, a]: [u8; 4]) -> Color {
    Color::srgba_u8(r, g, b, a)
}

/// A hexagon inside the hex `at`, `size` a fraction of the hex (0.2 to 1), as a gizmo.
pub fn hex_ring(gizmos: &mut Gizmos, at: Hex, size: f32, color: Color) {
    let c = layout().hex_to_world_pos(at);
    let r = HEX_SIZE * size.clamp(0.2, 1.0);
    let points: Vec<Vec2> = (0..=6)
        .map(|i| {
            let a = std::f32::consts::FRAC_PI_3 * i as f32 + std::f32::consts::FRAC_PI_6;
            c + Vec2::new(a.cos(), a.sin()) * r
        })
        .collect();
    gizmos.linestrip_2d(points, color);
}

/// Lines and rings, each frame (gizmos), noted in the map's redraw digest.
fn draw_lines(
    mut gizmos: Gizmos,
    marks: Res<ChapterMarks>,
    mut redraw: ResMut<map_cache::MapRedraw>,
) {
    redraw.note_lines(marks.digest);
    let l = layout();
    for m in &marks.marks {
        match m {
            Mark::Line { from, to, rgba } => {
                gizmos.line_2d(
                    l.hex_to_world_pos(*from),
                    l.hex_to_world_pos(*to),
                    colour(*rgba),
                );
            }
            Mark::Ring { at, size, rgba } => {
                hex_ring(&mut gizmos, *at, *size, colour(*rgba));
            }
            _ => {}
        }
    }
}

/// Discs, icons and labels: sprites and texts, respawned when the marks change.
fn place_sprites(
    mut commands: Commands,
    marks: Res<ChapterMarks>,
    old: Query<Entity, With<ChapterSprite>>,
    disc: Res<super::TokenDisc>,
    art: Res<super::art::Art>,
    settings: Res<crate::app::settings::Settings>,
    face: Res<super::MapFont>,
) {
    if !marks.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let l = layout();
    for m in &marks.marks {
        match m {
            Mark::Disc { at, size, rgba } => {
                let p = l.hex_to_world_pos(*at);
                commands.spawn((
                    ChapterSprite,
                    super::icon(
                        disc.0.clone(),
                        *size,
                        colour(*rgba),
                        Vec3::new(p.x, p.y, 2.4),
                    ),
                ));
            }
            Mark::Icon {
                at,
                art: key,
                size,
                rgba,
            } => {
                let p = l.hex_to_world_pos(*at);
                if let Some(image) = art.get(key) {
                    commands.spawn((
                        ChapterSprite,
                        super::icon(image, *size, colour(*rgba), Vec3::new(p.x, p.y, 2.5)),
                    ));
                }
            }
            Mark::Label { at, text, dy, rgba } => {
                let p = l.hex_to_world_pos(*at);
                // A dark plate under the name, as wide as its box: the name reads over any
                // terrain art (a pale name on snow or sand did not). Under the outposts' names
                // (z 3.0), which stay readable where a plate meets them.
                // The text grows with the interface scale (`label_font`); so does its plate.
                let scale = settings.ui_scale.clamp(0.75, 2.0);
                let plate =
                    label_box(*at, text.chars().count(), *dy).size() * scale + Vec2::new(4.0, 3.0);
                commands.spawn((
                    ChapterSprite,
                    Sprite::from_color(Color::srgba(0.07, 0.06, 0.05, 0.68), plate),
                    Transform::from_xyz(p.x, p.y + dy, 2.95),
                ));
                commands.spawn((
                    ChapterSprite,
                    Text2d::new(text.clone()),
                    super::label_font(12.0, &settings, &face),
                    TextColor(colour(*rgba)),
                    super::label_shadow(),
                    Transform::from_xyz(p.x, p.y + dy, 3.1),
                ));
            }
            _ => {}
        }
    }
}

/// A seat's name on the map and in its shows: its player's name (an AI seat's included), or
/// "seat N" where the game has none.
pub fn seat_name(world: &World, tr: &crate::text::Translations, seat: u8) -> String {
    world
        .resource::<crate::rules::GameSetup>()
        .players
        .get(seat as usize)
        .cloned()
        .unwrap_or_else(|| tr.f("seat {}", &[&(seat + 1)]))
}
