//! A chapter's marks on the map: lines, rings, discs, icons and labels a chapter computes from
//! the game (`add_chapter_marks`), drawn over the tiles for the levels that play it. The
//! chapter reads the world and returns marks; the view draws them (lines and rings as meshes under
//! the labels, the rest as sprites and texts, all respawned only when the marks change), so the map's image is
//! drawn again only then (`map_cache`). Names are placed clear of each other by the size their
//! text is drawn at, which grows with the interface scale while the hexes don't (`LabelRows`).

use std::hash::{Hash, Hasher};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use hexx::Hex;

use super::{HEX_SIZE, layout};
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
    /// A decision taken by a left click on a hex (the Guide's stops where the Eladrins guide):
    /// nothing drawn of its own (the chapter marks the hex as it wants); the click sends
    /// `action` for the Eladrins, which the rules check as any other.
    Choice {
        /// The hex.
        at: Hex,
        /// What it is, for the window's report (`advance`, `brake`).
        name: String,
        /// The action the click sends.
        action: crate::rules::Action,
    },
}

/// Names on the map that must not run into each other. The simple rule (`crowded`, `above`):
/// a name goes above its hex unless one already above stands two hexes or less along the same
/// row; then below. The measured rule (`reserve`, `place`): each name is a box as large as its
/// text is drawn at the interface scale (`label_size`), put at the first of a few heights
/// around its hex where it meets no box placed yet, else at the nearest free height further
/// out.
#[derive(Debug)]
pub struct LabelRows {
    above: Vec<Hex>,
    boxes: Vec<Rect>,
    /// The interface scale the labels are drawn at: their text grows with it, the map doesn't.
    scale: f32,
}

impl Default for LabelRows {
    fn default() -> Self {
        Self::at_scale(1.0)
    }
}

/// The map labels' size in pixels at interface scale 1: `label_font`'s base for the chapters'
/// labels and the outposts' names alike.
pub const LABEL_PX: f32 = 12.0;
/// The map labels' face (Hack, `MapFont`) is monospace: every glyph advances 1233 of its 2048
/// units per em. The labels' width is measured from it, not guessed.
pub const LABEL_ADVANCE_EM: f32 = 1233.0 / 2048.0;
/// A line of text is 1.2 times its font size high (Bevy's `LineHeight` by default).
pub const LABEL_LINE_EM: f32 = 1.2;
/// The room a label's box (and its plate) leaves around its text: its laid-out size is rounded
/// up to whole pixels, and its shadow falls a pixel right and down.
pub const LABEL_PAD: Vec2 = Vec2::new(8.0, 3.0);
/// Where the map draws an outpost's name (`place_tokens`): 22 pixels below its hex's centre,
/// at the labels' size.
pub const OUTPOST_NAME_DY: f32 = -22.0;
/// The outpost's icon (`place_tokens`): this size, this far above its hex's centre.
pub const OUTPOST_ICON: (f32, f32) = (26.0, 2.0);
/// How far past the farthest of its heights a name may be moved to find room: three rows of
/// hexes (a row is 1.5 hex sizes high). The interface scale grows the names, not the map, so
/// at 1.5 the names around a crowded outpost need more room than the heights alone give.
const REACH: f32 = 3.0 * 1.5 * HEX_SIZE;
/// What a rank down the list of heights weighs, in pixels moved: a name moves this much
/// from its first height before it is tried that far from its second.
const RANK_COST: f32 = 4.0;

/// The interface scale the map's labels follow (`label_font`'s), within the settings' range.
pub(super) fn label_scale(settings: &crate::app::settings::Settings) -> f32 {
    settings.ui_scale.clamp(0.75, 2.0)
}

/// A map label's box as drawn at interface scale `scale` (the map's zoom scales it with the
/// hexes): its text's laid-out size, from the face's advance and line height at the size the
/// text is drawn, with `LABEL_PAD` around it. Its dark plate is this size too.
pub fn label_size(text: &str, scale: f32) -> Vec2 {
    let px = LABEL_PX * scale;
    Vec2::new(
        text.chars().count() as f32 * LABEL_ADVANCE_EM * px,
        LABEL_LINE_EM * px,
    ) + LABEL_PAD
}

/// A map label's box: `label_size`, centred `dy` above the hex's centre (texts are anchored at
/// their centre).
fn label_box(at: Hex, text: &str, dy: f32, scale: f32) -> Rect {
    let c = super::layout().hex_to_world_pos(at) + Vec2::new(0.0, dy);
    Rect::from_center_size(c, label_size(text, scale))
}

/// The heights tried for a name, nearest its hex first: above, below, then further out.
pub const NAME_HEIGHTS: [f32; 6] = [17.0, -19.0, 31.0, -33.0, 3.0, -5.0];
/// The heights tried for a small mark under a name (a count): below, above, further out.
pub const MARK_HEIGHTS: [f32; 4] = [-19.0, 17.0, -33.0, 31.0];

/// The heights a label is tried at, best first: `heights` (given at interface scale 1, so
/// scaled: a larger text keeps as clear of its hex's centre), in their order; then every whole
/// pixel up to `REACH` past them, the nearest to an early height first (ties: the higher).
fn spots(heights: &[f32], scale: f32) -> Vec<f32> {
    let scaled: Vec<f32> = heights.iter().map(|h| h * scale).collect();
    let cost = |dy: f32| {
        scaled
            .iter()
            .enumerate()
            .map(|(i, h)| i as f32 * RANK_COST + (dy - h).abs())
            .fold(f32::INFINITY, f32::min)
    };
    let reach = (scaled.iter().fold(0.0f32, |m, h| m.max(h.abs())) + REACH).ceil() as i32;
    let mut grid: Vec<(f32, f32)> = (-reach..=reach)
        .map(|d| d as f32)
        .map(|dy| (cost(dy), dy))
        .collect();
    grid.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
    scaled
        .into_iter()
        .chain(grid.into_iter().map(|(_, dy)| dy))
        .collect()
}

/// An outpost's name as the map writes it under its hex, its portal said.
pub fn outpost_label(tr: &crate::text::Translations, o: &crate::rules::Outpost) -> String {
    if o.portal {
        tr.f("{} (portal)", &[&o.name])
    } else {
        o.name.clone()
    }
}

impl LabelRows {
    /// Rows for labels drawn at interface scale `scale` (0.75 to 2).
    pub fn at_scale(scale: f32) -> Self {
        Self {
            above: Vec::new(),
            boxes: Vec::new(),
            scale: scale.clamp(0.75, 2.0),
        }
    }

    /// Rows for labels drawn at the settings' interface scale (1 without settings).
    pub fn for_world(world: &World) -> Self {
        Self::at_scale(
            world
                .get_resource::<crate::app::settings::Settings>()
                .map_or(1.0, label_scale),
        )
    }

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

    /// A label the map draws already that others must keep clear of: `text` at the labels'
    /// size, centred `dy` pixels above `at` (as drawn: not scaled).
    pub fn reserve(&mut self, at: Hex, text: &str, dy: f32) {
        self.boxes.push(label_box(at, text, dy, self.scale));
    }

    /// Every outpost's name and icon, as the map draws them (`place_tokens`): the name (with
    /// "(portal)" where it has one) below its hex, the icon on it.
    pub fn reserve_outposts(&mut self, world: &mut World, tr: &crate::text::Translations) {
        let outposts: Vec<(Hex, String)> = world
            .query::<&crate::rules::Outpost>()
            .iter(world)
            .map(|o| (o.hex, outpost_label(tr, o)))
            .collect();
        for (at, name) in outposts {
            self.reserve_outpost(at, &name);
        }
    }

    /// An outpost's name (`name` as the map writes it) and icon on `at`.
    fn reserve_outpost(&mut self, at: Hex, name: &str) {
        self.reserve(at, name, OUTPOST_NAME_DY);
        let (size, up) = OUTPOST_ICON;
        let c = super::layout().hex_to_world_pos(at) + Vec2::new(0.0, up);
        let icon = Rect::from_center_size(c, Vec2::splat(size));
        self.boxes.push(icon);
    }

    /// The height above `at` (negative: below) where `text` meets no label placed yet: the
    /// first of `heights` (at interface scale 1) where it fits, else the nearest free height
    /// within reach, else the one it overlaps least. The label is placed there.
    pub fn place(&mut self, at: Hex, text: &str, heights: &[f32]) -> f32 {
        let overlap = |dy: f32| -> f32 {
            let b = label_box(at, text, dy, self.scale);
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
        let mut best: Option<(f32, f32)> = None;
        for dy in spots(heights, self.scale) {
            let o = overlap(dy);
            if best.is_none_or(|(least, _)| o < least) {
                best = Some((o, dy));
            }
            if o == 0.0 {
                break;
            }
        }
        let dy = best.map_or(0.0, |(_, dy)| dy);
        self.boxes.push(label_box(at, text, dy, self.scale));
        dy
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

/// What a chapter's board offers on the map (`table::TableCx::offer_on_map`): its marks, and
/// the number of actions taken when it offered them (another action drops them).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct MapOffers {
    /// The marks, a `Mark::Choice` among them.
    pub marks: Vec<Mark>,
    /// The actions taken when they were offered.
    pub acted: usize,
}

/// The marks of the chapters in play, and their digest.
#[derive(Resource, Default)]
pub(super) struct ChapterMarks {
    marks: Vec<Mark>,
    digest: u64,
    /// What they were computed from: events told, actions taken (a turn passed tells
    /// nothing, and a chapter's choices on the map follow whose turn it is), cycle, step,
    /// language, interface scale (in hundredths: the labels' sizes, so their places, follow it),
    /// what a board offers on the map.
    from: (usize, usize, u32, usize, String, u32, Vec<Mark>),
}

/// Marks a sprite or text of the chapters (respawned when the marks change).
#[derive(Component)]
struct ChapterSprite;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChapterMarks>()
        .init_resource::<MapOffers>()
        .add_systems(
            Update,
            (
                gather.in_set(super::screens::ViewSet::Cache),
                place_sprites.in_set(super::screens::ViewSet::Draw),
            ),
        );
}

/// Asks the chapters in play for their marks when the game moved (an event told, a new step),
/// the language or the interface scale changed.
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
    let scale = world
        .get_resource::<crate::app::settings::Settings>()
        .map_or(100, |s| (label_scale(s) * 100.0).round() as u32);
    let acted = world
        .get_resource::<crate::rules::ActionLog>()
        .map_or(0, |l| l.0.len());
    // What a chapter's board offers on the map comes first: a click there takes its choice.
    let offers: Vec<Mark> = world
        .get_resource::<MapOffers>()
        .map(|o| o.marks.clone())
        .unwrap_or_default();
    let from = (told, acted, cycle, step, lang, scale, offers);
    if world.resource::<ChapterMarks>().from == from {
        return;
    }
    let tr = world.resource::<crate::text::Translations>().clone();
    let mut marks = from.6.clone();
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

impl ChapterMarks {
    /// The action a left click on `at` takes, if a chapter offers one there.
    pub(super) fn choice_at(&self, at: Hex) -> Option<&crate::rules::Action> {
        self.marks.iter().find_map(|m| match m {
            Mark::Choice { at: h, action, .. } if *h == at => Some(action),
            _ => None,
        })
    }
}

/// The hexes a click decides on (`Mark::Choice`), as `map:NAME:Q,R` with the hex's box on screen
/// (logical pixels from the window's top left), for the window's report.
pub(super) fn choice_targets(world: &mut World) -> Vec<(String, [f32; 4])> {
    let mut cams = world.query_filtered::<(&Camera, &GlobalTransform), With<super::MapCamera>>();
    let world = &*world;
    let Some((cam, seen_from)) = cams.iter(world).next() else {
        return Vec::new();
    };
    let Some(marks) = world.get_resource::<ChapterMarks>() else {
        return Vec::new();
    };
    let l = layout();
    marks
        .marks
        .iter()
        .filter_map(|m| {
            let Mark::Choice { at, name, .. } = m else {
                return None;
            };
            let c = l.hex_to_world_pos(*at);
            let half = Vec2::splat(HEX_SIZE * 0.5);
            let a = cam
                .world_to_viewport(seen_from, (c + Vec2::new(-half.x, half.y)).extend(0.0))
                .ok()?;
            let b = cam
                .world_to_viewport(seen_from, (c + Vec2::new(half.x, -half.y)).extend(0.0))
                .ok()?;
            let key = format!("map:{name}:{},{}", at.x, at.y);
            Some((key, [a.x, a.y, b.x - a.x, b.y - a.y]))
        })
        .collect()
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

/// A hexagonal ring inside the hex at the origin, `size` a fraction of the hex (0.2 to 1),
/// `width` world units wide: a mesh of twelve triangles.
fn ring_mesh(size: f32, width: f32) -> Mesh {
    let outer = HEX_SIZE * size.clamp(0.2, 1.0) + width / 2.0;
    let inner = (outer - width).max(0.0);
    let corner = |r: f32, i: usize| {
        let a = std::f32::consts::FRAC_PI_3 * i as f32 + std::f32::consts::FRAC_PI_6;
        [r * a.cos(), r * a.sin(), 0.0]
    };
    let mut positions = Vec::with_capacity(24);
    for i in 0..6 {
        let (o0, o1, i0, i1) = (
            corner(outer, i),
            corner(outer, i + 1),
            corner(inner, i),
            corner(inner, i + 1),
        );
        positions.extend([o0, o1, i0, i0, o1, i1]);
    }
    strip(positions)
}

/// A straight line from `a` to `b`, `width` world units wide: a mesh of two triangles.
fn line_mesh(a: Vec2, b: Vec2, width: f32) -> Mesh {
    let d = (b - a).normalize_or_zero();
    let n = Vec2::new(-d.y, d.x) * width / 2.0;
    let p = |v: Vec2| [v.x, v.y, 0.0];
    strip(vec![
        p(a + n),
        p(a - n),
        p(b + n),
        p(b + n),
        p(a - n),
        p(b - n),
    ])
}

/// A mesh of plain triangles (no texture), both faces drawn.
fn strip(positions: Vec<[f32; 3]>) -> Mesh {
    let n = positions.len();
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n])
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; n])
}

/// What the marks are drawn with: lines and rings are meshes respawned with the other marks, under the
/// labels' plates (a gizmo is drawn over everything, and crossed the labels' text).
#[derive(SystemParam)]
struct MarkMeshes<'w> {
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
    /// The discs' and icons' images.
    disc: Res<'w, super::TokenDisc>,
    art: Res<'w, super::art::Art>,
}

/// Line and ring widths in world units (a hex is `HEX_SIZE` from centre to corner).
const LINE_WIDTH: f32 = 2.2;

/// Discs, icons and labels: sprites and texts, respawned when the marks change.
fn place_sprites(
    mut commands: Commands,
    mesh: MarkMeshes,
    marks: Res<ChapterMarks>,
    old: Query<Entity, With<ChapterSprite>>,
    settings: Res<crate::app::settings::Settings>,
    face: Res<super::MapFont>,
) {
    if !marks.is_changed() {
        return;
    }
    let MarkMeshes {
        mut meshes,
        mut materials,
        disc,
        art,
    } = mesh;
    for e in &old {
        commands.entity(e).despawn();
    }
    let l = layout();
    // One material a colour.
    let mut paint: Vec<([u8; 4], Handle<ColorMaterial>)> = Vec::new();
    let mut material = |rgba: [u8; 4]| {
        if let Some((_, h)) = paint.iter().find(|(c, _)| *c == rgba) {
            return h.clone();
        }
        let h = materials.add(ColorMaterial::from_color(colour(rgba)));
        paint.push((rgba, h.clone()));
        h
    };
    for (k, m) in marks.marks.iter().enumerate() {
        // Later marks a little above earlier ones, all under the discs, icons and labels.
        let z = 2.2 + k as f32 * 0.0001;
        match m {
            Mark::Line { from, to, rgba } => {
                let handle = meshes.add(line_mesh(
                    l.hex_to_world_pos(*from),
                    l.hex_to_world_pos(*to),
                    LINE_WIDTH,
                ));
                let paint = material(*rgba);
                commands.spawn((
                    ChapterSprite,
                    Mesh2d(handle),
                    MeshMaterial2d(paint),
                    Transform::from_xyz(0.0, 0.0, z.min(2.35)),
                ));
            }
            Mark::Ring { at, size, rgba } => {
                let p = l.hex_to_world_pos(*at);
                let handle = meshes.add(ring_mesh(*size, LINE_WIDTH));
                let paint = material(*rgba);
                commands.spawn((
                    ChapterSprite,
                    Mesh2d(handle),
                    MeshMaterial2d(paint),
                    Transform::from_xyz(p.x, p.y, z.min(2.35)),
                ));
            }
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
                // The text grows with the interface scale (`label_font`); so does its plate,
                // which is the box its label was placed by (`LabelRows`): plates placed clear
                // of each other are drawn clear of each other.
                let plate = label_size(text, label_scale(&settings));
                commands.spawn((
                    ChapterSprite,
                    Sprite::from_color(Color::srgba(0.07, 0.06, 0.05, 0.78), plate),
                    Transform::from_xyz(p.x, p.y + dy, 2.95),
                ));
                commands.spawn((
                    ChapterSprite,
                    Text2d::new(text.clone()),
                    super::label_font(LABEL_PX, &settings, &face),
                    TextColor(colour(*rgba)),
                    super::label_shadow(),
                    Transform::from_xyz(p.x, p.y + dy, 3.1),
                ));
            }
            _ => {}
        }
    }
}

/// The map's labels as drawn (every `Text2d`: the chapters' labels, the outposts' names, the
/// tokens' counts), each with its text's box on screen: its laid-out size placed by its anchor
/// at its transform, seen through the map's view, in logical pixels (x, y, width, height from
/// the window's top left). By text, then place.
pub(super) fn drawn_labels(world: &mut World) -> Vec<(String, [f32; 4])> {
    let mut cams = world.query_filtered::<(&Camera, &GlobalTransform), With<super::MapCamera>>();
    let mut texts = world.query::<(
        &Text2d,
        &bevy::text::TextLayoutInfo,
        &bevy::sprite::Anchor,
        &GlobalTransform,
    )>();
    let world = &*world;
    let Some((cam, seen_from)) = cams.iter(world).next() else {
        return Vec::new();
    };
    let mut out: Vec<(String, [f32; 4])> = texts
        .iter(world)
        .filter_map(|(text, info, anchor, at)| {
            // The text's corners about its transform, as Bevy bounds it
            // (`calculate_bounds_text2d`): the anchor's point of the box at the origin.
            let low = (Vec2::splat(-0.5) - anchor.as_vec()) * info.size;
            let high = low + info.size;
            let screen = |p: Vec2| {
                cam.world_to_viewport(seen_from, at.transform_point(p.extend(0.0)))
                    .ok()
            };
            // World y goes up, the window's down: the top left is the low x, high y corner.
            let top_left = screen(Vec2::new(low.x, high.y))?;
            let bottom_right = screen(Vec2::new(high.x, low.y))?;
            let size = bottom_right - top_left;
            Some((text.0.clone(), [top_left.x, top_left.y, size.x, size.y]))
        })
        .collect();
    out.sort_by(|a, b| {
        (a.0.cmp(&b.0))
            .then(a.1[1].total_cmp(&b.1[1]))
            .then(a.1[0].total_cmp(&b.1[0]))
    });
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A big-endian number of `n` bytes at `at` in a font file.
    fn be(data: &[u8], at: usize, n: usize) -> u32 {
        data[at..at + n]
            .iter()
            .fold(0, |v, b| (v << 8) | u32::from(*b))
    }

    /// Where the table `tag` of a TrueType font begins.
    fn table(data: &[u8], tag: &[u8; 4]) -> usize {
        let count = be(data, 4, 2) as usize;
        (0..count)
            .map(|i| 12 + 16 * i)
            .find(|&r| &data[r..r + 4] == tag)
            .map(|r| be(data, r + 8, 4) as usize)
            .unwrap_or_else(|| panic!("no {tag:?} table"))
    }

    /// The labels' width is the face's: every glyph of Hack that advances at all advances
    /// `LABEL_ADVANCE_EM`; their height is Bevy's line.
    #[test]
    fn label_metrics_are_the_faces() {
        let hack: &[u8] = epaint_default_fonts::HACK_REGULAR;
        let units = be(hack, table(hack, b"head") + 18, 2) as f32;
        let metrics = be(hack, table(hack, b"hhea") + 34, 2) as usize;
        let hmtx = table(hack, b"hmtx");
        let advances: std::collections::BTreeSet<u32> = (0..metrics)
            .map(|i| be(hack, hmtx + 4 * i, 2))
            .filter(|a| *a > 0)
            .collect();
        assert_eq!(advances.len(), 1, "not monospace: {advances:?}");
        let advance = advances.first().copied().unwrap_or_default() as f32 / units;
        assert_eq!(advance, LABEL_ADVANCE_EM);
        assert_eq!(
            bevy::text::LineHeight::default(),
            bevy::text::LineHeight::RelativeToFont(LABEL_LINE_EM)
        );
        // The box grows with the text's size, its padding doesn't.
        let (one, more) = (label_size("Tavern", 1.0), label_size("Tavern", 1.5));
        let text = Vec2::new(6.0 * LABEL_ADVANCE_EM, LABEL_LINE_EM) * LABEL_PX;
        assert!((one - LABEL_PAD - text).abs().max_element() < 1e-3, "{one}");
        assert!(
            (more - LABEL_PAD - text * 1.5).abs().max_element() < 1e-3,
            "{more}"
        );
    }

    /// A name alone takes its first height, scaled with its text; a second one on the same hex
    /// the next, clear of the first.
    #[test]
    fn a_free_first_height_is_taken_at_the_texts_scale() {
        for scale in [1.0, 1.5] {
            let mut rows = LabelRows::at_scale(scale);
            let at = Hex::new(3, -1);
            assert_eq!(rows.place(at, "Tavern", &NAME_HEIGHTS), 17.0 * scale);
            assert_eq!(rows.place(at, "Tavern", &NAME_HEIGHTS), -19.0 * scale);
        }
    }

    /// The Wyvern Wardens' places around Windhold, in English and French: at every interface
    /// scale, no two names' boxes meet, nor the outpost's name or icon (the names grow with
    /// the scale, the hexes don't, so at 1.5 some move further out than their heights).
    #[test]
    fn names_around_a_crowded_outpost_never_meet() {
        let places = [
            (0, 1),
            (1, 0),
            (-2, 0),
            (2, -2),
            (-1, 2),
            (0, -1),
            (-1, -1),
            (1, -1),
        ];
        let english = [
            "Heroes' Guild",
            "Tavern",
            "Poachers' Camp",
            "Mountains",
            "Reserves",
            "Garrison",
            "Warehouse",
            "Barracks",
        ];
        let french = [
            "Guilde des Héros",
            "Taverne",
            "Camp des Braconniers",
            "Montagnes",
            "Réserves",
            "Garnison",
            "Entrepôt",
            "Caserne",
        ];
        for (outpost, names) in [
            ("Windhold (portal)", english),
            ("Windhold (portail)", french),
        ] {
            for scale in [0.75, 1.0, 1.25, 1.5, 1.75, 2.0] {
                let mut rows = LabelRows::at_scale(scale);
                rows.reserve_outpost(Hex::ZERO, outpost);
                let mut boxes = vec![(
                    outpost,
                    label_box(Hex::ZERO, outpost, OUTPOST_NAME_DY, scale),
                )];
                for (name, (x, y)) in names.into_iter().zip(places) {
                    let at = Hex::new(x, y);
                    let dy = rows.place(at, name, &NAME_HEIGHTS);
                    let b = label_box(at, name, dy, scale);
                    // Nor on the outpost's icon.
                    assert!(
                        b.intersect(rows.boxes[1]).is_empty(),
                        "at {scale}: {name} {b:?} on the icon"
                    );
                    boxes.push((name, b));
                }
                for (i, (a, ra)) in boxes.iter().enumerate() {
                    for (b, rb) in &boxes[i + 1..] {
                        assert!(
                            ra.intersect(*rb).is_empty(),
                            "at {scale}: {a} {ra:?} meets {b} {rb:?}"
                        );
                    }
                }
            }
        }
    }
}
