//! The table's pieces, shared by every chapter's board: a card (frame, name, lines of numbers,
//! a corner number, or its back when face down), a numbered slot (empty, taken, a legal target,
//! chosen), a figure per kind of piece (recruit, scout, ranger, guardian; warriors, leader,
//! ship, monster) and a token (an assistant, a pillage marker, a gem).
//!
//! Drawn with egui's painter in points, so the interface scale (egui's zoom) scales them like
//! the text; coloured from the palette (`Palette`), and told apart by shape as well as by
//! colour: a figure's kind is its silhouette, a seat's colour only says whose it is.

use bevy_egui::egui::{self, Color32, CornerRadius, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use crate::app::settings::Palette;
use crate::content::Camp;

/// The table's cloth under the pieces.
pub const CLOTH: Color32 = Color32::from_rgb(38, 44, 40);
/// A card's paper.
pub const PAPER: Color32 = Color32::from_rgb(236, 226, 200);
/// Ink on the paper.
pub const INK: Color32 = Color32::from_rgb(40, 34, 28);
/// A card's back.
pub const BACK: Color32 = Color32::from_rgb(70, 60, 110);
/// An outline on the cloth.
pub const EDGE: Color32 = Color32::from_rgb(120, 125, 118);

/// The colour of a seat's pieces. The standard palette keeps the Eladrins' blue for the first
/// seat; the colour-blind-safe one takes the Okabe–Ito colours other than the Chaos orange.
pub fn seat_colour(seat: u8, palette: Palette) -> Color32 {
    let standard = [
        [45, 120, 220],
        [60, 170, 90],
        [170, 90, 200],
        [40, 180, 190],
        [230, 200, 60],
        [150, 110, 70],
        [220, 120, 170],
        [140, 140, 150],
    ];
    let safe = [
        [0, 114, 178],
        [0, 158, 115],
        [204, 121, 167],
        [86, 180, 233],
        [240, 228, 66],
        [120, 90, 60],
        [200, 200, 200],
        [100, 100, 100],
    ];
    let t = match palette {
        Palette::Standard => standard,
        Palette::ColorBlindSafe => safe,
    };
    let [r, g, b] = t[seat as usize % t.len()];
    Color32::from_rgb(r, g, b)
}

/// The colour of Chaos' pieces (the map's).
pub fn chaos_colour(palette: Palette) -> Color32 {
    let [r, g, b] = crate::view::camp_rgb(Camp::Chaos, palette);
    Color32::from_rgb(r, g, b)
}

/// The outline of a legal target: where a click is taken.
pub fn target_colour(palette: Palette) -> Color32 {
    match palette {
        Palette::Standard => Color32::from_rgb(255, 214, 90),
        Palette::ColorBlindSafe => Color32::from_rgb(240, 228, 66),
    }
}

/// A figure's kind: its silhouette.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// A plain pawn.
    Recruit,
    /// A pawn with a feather.
    Scout,
    /// A pawn with a bow.
    Ranger,
    /// A pawn behind a shield.
    Guardian,
    /// Two pawns side by side.
    Warriors,
    /// A pawn with a crown.
    Leader,
    /// A hull and a sail.
    Ship,
    /// A horned beast.
    Monster,
}

/// Draws a figure standing in `r` (its base at the bottom), filled with `fill`.
pub fn figure(p: &egui::Painter, r: Rect, kind: Figure, fill: Color32) {
    let line = Stroke::new((r.width() / 16.0).max(1.0), Color32::from_black_alpha(200));
    let pawn = |p: &egui::Painter, r: Rect| {
        let w = r.width();
        let head_r = w * 0.2;
        let head = Pos2::new(r.center().x, r.top() + head_r + w * 0.05);
        let body = vec![
            Pos2::new(r.center().x - w * 0.16, head.y + head_r * 0.7),
            Pos2::new(r.center().x + w * 0.16, head.y + head_r * 0.7),
            Pos2::new(r.center().x + w * 0.36, r.bottom()),
            Pos2::new(r.center().x - w * 0.36, r.bottom()),
        ];
        p.add(egui::Shape::convex_polygon(body, fill, line));
        p.circle(head, head_r, fill, line);
        head
    };
    match kind {
        Figure::Recruit => {
            pawn(p, r.shrink2(Vec2::new(r.width() * 0.08, r.height() * 0.1)));
        }
        Figure::Scout => {
            let head = pawn(p, r);
            // A feather rising from the head.
            let w = r.width();
            p.add(egui::Shape::convex_polygon(
                vec![
                    Pos2::new(head.x + w * 0.08, head.y - w * 0.12),
                    Pos2::new(head.x + w * 0.38, head.y - w * 0.42),
                    Pos2::new(head.x + w * 0.18, head.y - w * 0.04),
                ],
                Color32::WHITE,
                line,
            ));
        }
        Figure::Ranger => {
            pawn(p, r);
            // A bow on the right.
            let c = Pos2::new(
                r.right() - r.width() * 0.12,
                r.center().y + r.height() * 0.05,
            );
            let h = r.height() * 0.34;
            let pts: Vec<Pos2> = (0..=8)
                .map(|i| {
                    let a = -1.2 + 2.4 * i as f32 / 8.0;
                    Pos2::new(c.x + a.cos() * h * 0.45, c.y + a.sin() * h)
                })
                .collect();
            p.add(egui::Shape::line(
                pts,
                Stroke::new(line.width * 1.4, Color32::WHITE),
            ));
            p.line_segment(
                [
                    Pos2::new(c.x + h * 0.16, c.y - h * 0.93),
                    Pos2::new(c.x + h * 0.16, c.y + h * 0.93),
                ],
                Stroke::new(line.width * 0.6, Color32::WHITE),
            );
        }
        Figure::Guardian => {
            pawn(p, r);
            // A shield in front.
            let s = Rect::from_center_size(
                Pos2::new(r.center().x, r.bottom() - r.height() * 0.3),
                Vec2::new(r.width() * 0.46, r.height() * 0.4),
            );
            let pts = vec![
                s.left_top(),
                s.right_top(),
                Pos2::new(s.right(), s.center().y),
                Pos2::new(s.center().x, s.bottom()),
                Pos2::new(s.left(), s.center().y),
            ];
            p.add(egui::Shape::convex_polygon(pts, Color32::WHITE, line));
        }
        Figure::Warriors => {
            let half = Vec2::new(r.width() * 0.6, r.height() * 0.85);
            pawn(
                p,
                Rect::from_min_size(r.left_top() + Vec2::new(0.0, r.height() * 0.15), half),
            );
            pawn(
                p,
                Rect::from_min_size(Pos2::new(r.right() - half.x, r.top()), half),
            );
        }
        Figure::Leader => {
            let head = pawn(p, r);
            let w = r.width() * 0.2;
            let crown = vec![
                Pos2::new(head.x - w, head.y - w * 0.6),
                Pos2::new(head.x - w * 0.5, head.y - w * 1.5),
                Pos2::new(head.x, head.y - w * 0.9),
                Pos2::new(head.x + w * 0.5, head.y - w * 1.5),
                Pos2::new(head.x + w, head.y - w * 0.6),
            ];
            p.add(egui::Shape::line(
                crown,
                Stroke::new(line.width * 1.6, Color32::GOLD),
            ));
        }
        Figure::Ship => {
            let hull = vec![
                Pos2::new(r.left(), r.bottom() - r.height() * 0.32),
                Pos2::new(r.right(), r.bottom() - r.height() * 0.32),
                Pos2::new(r.right() - r.width() * 0.18, r.bottom()),
                Pos2::new(r.left() + r.width() * 0.18, r.bottom()),
            ];
            p.add(egui::Shape::convex_polygon(hull, fill, line));
            let sail = vec![
                Pos2::new(r.center().x, r.top()),
                Pos2::new(
                    r.center().x + r.width() * 0.36,
                    r.bottom() - r.height() * 0.38,
                ),
                Pos2::new(r.center().x, r.bottom() - r.height() * 0.38),
            ];
            p.add(egui::Shape::convex_polygon(sail, Color32::WHITE, line));
        }
        Figure::Monster => {
            let body = Rect::from_min_max(
                Pos2::new(r.left(), r.top() + r.height() * 0.3),
                r.right_bottom(),
            );
            p.rect(
                body,
                CornerRadius::same((r.width() * 0.3) as u8),
                fill,
                line,
                StrokeKind::Inside,
            );
            for side in [-1.0, 1.0] {
                let base = Pos2::new(r.center().x + side * r.width() * 0.28, body.top() + 1.0);
                p.add(egui::Shape::convex_polygon(
                    vec![
                        base + Vec2::new(-r.width() * 0.09, 0.0),
                        base + Vec2::new(side * r.width() * 0.14, -r.height() * 0.3),
                        base + Vec2::new(r.width() * 0.09, 0.0),
                    ],
                    Color32::WHITE,
                    line,
                ));
            }
        }
    }
}

/// A row of figures: each kind with its count ("×3" past two), in `fill`. The rect it took.
pub fn figures(ui: &mut egui::Ui, kinds: &[(Figure, u32)], fill: Color32, size: f32) -> Rect {
    let start = ui.cursor().min;
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 2.0;
        for (kind, n) in kinds.iter().filter(|(_, n)| *n > 0) {
            let drawn = (*n).min(2);
            for _ in 0..drawn {
                let (r, _) = ui.allocate_exact_size(Vec2::new(size * 0.8, size), Sense::hover());
                figure(ui.painter(), r, *kind, fill);
            }
            if *n > drawn {
                ui.label(egui::RichText::new(format!("×{n}")).small().strong());
            }
            ui.add_space(3.0);
        }
    });
    Rect::from_min_max(start, ui.min_rect().max)
}

/// A slot's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotState {
    /// Free, and not a target now.
    Empty,
    /// A group stands there.
    Taken,
    /// Free and a legal target: a click is taken.
    Legal,
    /// The one chosen (a group being composed for it).
    Chosen,
}

/// A numbered slot of `size` points, with the figures standing on it (`fill`: whose colour);
/// clickable when `Legal` or `Chosen`.
pub fn slot(
    ui: &mut egui::Ui,
    number: u32,
    state: SlotState,
    standing: &[(Figure, u32)],
    fill: Color32,
    size: f32,
    palette: Palette,
) -> egui::Response {
    let sense = match state {
        SlotState::Legal | SlotState::Chosen => Sense::click(),
        _ => Sense::hover(),
    };
    let (r, resp) = ui.allocate_exact_size(Vec2::splat(size), sense);
    let p = ui.painter();
    let target = target_colour(palette);
    let (bg, stroke) = match state {
        SlotState::Empty => (Color32::from_gray(52), Stroke::new(1.0, EDGE)),
        SlotState::Taken => (fill.gamma_multiply(0.35), Stroke::new(2.0, fill)),
        SlotState::Legal if resp.hovered() => (Color32::from_gray(80), Stroke::new(3.0, target)),
        SlotState::Legal => (Color32::from_gray(60), Stroke::new(2.0, target)),
        SlotState::Chosen => (target.gamma_multiply(0.35), Stroke::new(3.5, target)),
    };
    p.rect(r, CornerRadius::same(6), bg, stroke, StrokeKind::Inside);
    // The slot's number in its corner, big when nobody stands there.
    if standing.is_empty() {
        p.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            number.to_string(),
            egui::FontId::proportional(size * 0.42),
            if state == SlotState::Empty {
                Color32::from_gray(150)
            } else {
                Color32::WHITE
            },
        );
    } else {
        p.text(
            r.left_top() + Vec2::new(4.0, 2.0),
            egui::Align2::LEFT_TOP,
            number.to_string(),
            egui::FontId::proportional(size * 0.22),
            Color32::WHITE,
        );
        // The group: up to four figures in a two-by-two block, the rest as a count.
        let mut all: Vec<Figure> = standing
            .iter()
            .flat_map(|(k, n)| std::iter::repeat_n(*k, (*n).min(8) as usize))
            .collect();
        let more = all.len().saturating_sub(4);
        all.truncate(4);
        let cell = Vec2::new(size * 0.3, size * 0.36);
        let origin = r.left_top() + Vec2::new(size * 0.2, size * 0.12);
        for (i, k) in all.iter().enumerate() {
            let at = origin
                + Vec2::new(
                    (i % 2) as f32 * cell.x * 1.05,
                    (i / 2) as f32 * cell.y * 1.1,
                );
            figure(p, Rect::from_min_size(at, cell), *k, fill);
        }
        if more > 0 {
            p.text(
                r.right_bottom() - Vec2::new(3.0, 2.0),
                egui::Align2::RIGHT_BOTTOM,
                format!("+{more}"),
                egui::FontId::proportional(size * 0.2),
                Color32::WHITE,
            );
        }
    }
    resp
}

/// What a card shows on its face.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CardFace {
    /// Its name, at the top.
    pub title: String,
    /// Lines under it (what it gives, what it asks).
    pub lines: Vec<String>,
    /// A number in its top-right corner (glory), if any.
    pub corner: Option<String>,
    /// The colour of its band (its deck or kind).
    pub band: Color32,
}

/// How a card lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardState {
    /// Face down: only its back shows.
    pub face_down: bool,
    /// A legal target: outlined, and a click is taken.
    pub target: bool,
    /// Marked (the raid card that strikes, the one a show is claiming).
    pub marked: bool,
    /// Dimmed (claimed, discarded).
    pub dim: bool,
}

/// A card of `size` points. Its face: a band in its colour, the name, the lines, a corner
/// number; face down, its back. Clickable when a target.
pub fn card(
    ui: &mut egui::Ui,
    face: &CardFace,
    state: CardState,
    size: Vec2,
    palette: Palette,
) -> egui::Response {
    let sense = if state.target {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (r, resp) = ui.allocate_exact_size(size, sense);
    // The whole card in words when hovered: a small card may not show every line.
    // (Written only while hovered: the board is laid out every frame.)
    let resp = if state.face_down || face.title.is_empty() {
        resp
    } else {
        resp.on_hover_ui(|ui| {
            ui.label(egui::RichText::new(&face.title).strong());
            for l in &face.lines {
                ui.label(l);
            }
        })
    };
    let p = ui.painter();
    let target = target_colour(palette);
    let edge = if state.target && resp.hovered() {
        Stroke::new(3.5, target)
    } else if state.target {
        Stroke::new(2.5, target)
    } else if state.marked {
        Stroke::new(3.0, chaos_colour(palette))
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(180))
    };
    if state.face_down {
        p.rect(r, CornerRadius::same(5), BACK, edge, StrokeKind::Inside);
        let inner = r.shrink(5.0);
        p.rect_stroke(
            inner,
            CornerRadius::same(3),
            Stroke::new(1.0, Color32::from_white_alpha(90)),
            StrokeKind::Inside,
        );
        p.circle_stroke(
            r.center(),
            r.width().min(r.height()) * 0.18,
            Stroke::new(1.5, Color32::from_white_alpha(120)),
        );
        return resp;
    }
    let paper = if state.dim {
        PAPER.gamma_multiply(0.45)
    } else {
        PAPER
    };
    p.rect(r, CornerRadius::same(5), paper, edge, StrokeKind::Inside);
    let band = Rect::from_min_size(
        r.left_top() + Vec2::new(1.0, 1.0),
        Vec2::new(r.width() - 2.0, 5.0),
    );
    p.rect_filled(band, CornerRadius::same(3), face.band);
    // A line that does not fit whole is left out (the hover shows it): never drawn over the
    // card's edge.
    let mut y = r.top() + CARD_TOP;
    for (i, g) in card_text(p, face, r.width()).into_iter().enumerate() {
        let h = g.size().y;
        if i > 0 && y + h > r.bottom() - 2.0 {
            break;
        }
        p.galley(Pos2::new(r.left() + 4.0, y), g, INK);
        y += h + if i == 0 { 1.0 } else { 0.0 };
    }
    if let Some(c) = &face.corner {
        p.circle(
            Pos2::new(r.right() - 10.0, r.bottom() - 10.0),
            8.5,
            Color32::from_rgb(250, 210, 90),
            Stroke::new(1.0, INK),
        );
        p.text(
            Pos2::new(r.right() - 10.0, r.bottom() - 10.0),
            egui::Align2::CENTER_CENTER,
            c,
            egui::FontId::proportional(11.0),
            INK,
        );
    }
    if state.marked {
        // A ribbon across the corner: the card that acts now.
        p.circle_filled(
            r.right_bottom() - Vec2::new(9.0, 9.0),
            5.0,
            chaos_colour(palette),
        );
    }
    resp
}

/// Where a card's text starts, under its band.
const CARD_TOP: f32 = 8.0;

/// A card's title and lines laid out for a card `width` wide: the title takes the whole width
/// (a long name breaks between words, not inside one); the lines keep clear of the corner
/// number at the bottom right.
fn card_text(p: &egui::Painter, face: &CardFace, width: f32) -> Vec<std::sync::Arc<egui::Galley>> {
    let mut v = vec![p.layout(
        face.title.clone(),
        egui::FontId::proportional(11.0),
        INK,
        width - 8.0,
    )];
    let corner_w = if face.corner.is_some() { 20.0 } else { 0.0 };
    for l in &face.lines {
        v.push(p.layout(
            l.clone(),
            egui::FontId::proportional(9.5),
            Color32::from_rgb(80, 66, 50),
            width - 8.0 - corner_w,
        ));
    }
    v
}

/// The height a card `width` wide needs to show its whole face, at least `least`: cards in a
/// row take the tallest's, so none cuts its last line.
pub fn card_height(ui: &egui::Ui, face: &CardFace, width: f32, least: f32) -> f32 {
    let text: f32 = card_text(ui.painter(), face, width)
        .iter()
        .map(|g| g.size().y)
        .sum();
    // The title's gap, and room under the last line.
    (CARD_TOP + text + 1.0 + 4.0).max(least)
}

/// A token's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// An assistant, shown by its initial.
    Assistant(String),
    /// A pillage marker on a province.
    Pillage,
    /// A gem of this colour.
    Gem([u8; 3]),
    /// The empty slot of a gem of this colour.
    GemSlot([u8; 3]),
}

/// A round token of `size` points: `holder` rings it in the colour of whoever took it; a
/// legal target is outlined and clickable.
pub fn token(
    ui: &mut egui::Ui,
    kind: &Token,
    holder: Option<Color32>,
    target: bool,
    size: f32,
    palette: Palette,
) -> egui::Response {
    let sense = if target {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (r, resp) = ui.allocate_exact_size(Vec2::splat(size), sense);
    let p = ui.painter();
    let c = r.center();
    let rad = size * 0.42;
    match kind {
        Token::Assistant(initial) => {
            let fill = if holder.is_some() {
                Color32::from_gray(70)
            } else {
                Color32::from_rgb(214, 190, 140)
            };
            p.circle(c, rad, fill, Stroke::new(1.0, INK));
            p.text(
                c,
                egui::Align2::CENTER_CENTER,
                initial,
                egui::FontId::proportional(size * 0.46),
                if holder.is_some() {
                    Color32::from_gray(170)
                } else {
                    INK
                },
            );
        }
        Token::Pillage => {
            p.circle(
                c,
                rad,
                Color32::from_rgb(120, 40, 30),
                Stroke::new(1.0, INK),
            );
            p.line_segment(
                [c - Vec2::splat(rad * 0.5), c + Vec2::splat(rad * 0.5)],
                Stroke::new(2.0, Color32::WHITE),
            );
            p.line_segment(
                [
                    c + Vec2::new(-rad * 0.5, rad * 0.5),
                    c + Vec2::new(rad * 0.5, -rad * 0.5),
                ],
                Stroke::new(2.0, Color32::WHITE),
            );
        }
        Token::Gem([r8, g8, b8]) | Token::GemSlot([r8, g8, b8]) => {
            let colour = Color32::from_rgb(*r8, *g8, *b8);
            let diamond = vec![
                c + Vec2::new(0.0, -rad),
                c + Vec2::new(rad * 0.8, -rad * 0.2),
                c + Vec2::new(0.0, rad),
                c + Vec2::new(-rad * 0.8, -rad * 0.2),
            ];
            if matches!(kind, Token::Gem(_)) {
                p.add(egui::Shape::convex_polygon(
                    diamond,
                    colour,
                    Stroke::new(1.0, INK),
                ));
            } else {
                // An empty slot: its colour's outline on a dark ground.
                p.circle(c, rad, Color32::from_gray(40), Stroke::new(1.0, EDGE));
                p.add(egui::Shape::closed_line(diamond, Stroke::new(2.0, colour)));
            }
        }
    }
    if let Some(h) = holder {
        p.circle_stroke(c, rad + 2.0, Stroke::new(3.0, h));
    }
    if target {
        let w = if resp.hovered() { 3.5 } else { 2.5 };
        p.circle_stroke(c, rad + 2.5, Stroke::new(w, target_colour(palette)));
    }
    resp
}

/// A small round button with a sign (`+`, `−`) for a composer's stepper; `None` when it may
/// not be pressed now.
pub fn stepper(ui: &mut egui::Ui, sign: &str, enabled: bool) -> egui::Response {
    ui.add_enabled(
        enabled,
        egui::Button::new(egui::RichText::new(sign).strong().size(15.0))
            .min_size(Vec2::new(24.0, 22.0)),
    )
}

/// A badge: a short word on a rounded plate of `fill` (what spares a team, a card's mark), its
/// text dark or light to read on the fill.
pub fn badge(ui: &mut egui::Ui, text: &str, fill: Color32) -> egui::Response {
    let light = fill.r() as u32 * 299 + fill.g() as u32 * 587 + fill.b() as u32 * 114 > 128_000;
    let ink = if light {
        Color32::from_gray(20)
    } else {
        Color32::from_gray(245)
    };
    egui::Frame::new()
        .fill(fill)
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(5, 1))
        .show(ui, |ui| {
            ui.label(egui::RichText::new(text).small().strong().color(ink));
        })
        .response
}

/// A card face down, `size` points: its back only.
pub fn card_back(ui: &mut egui::Ui, size: Vec2, palette: Palette) -> egui::Response {
    let back = CardState {
        face_down: true,
        ..CardState::default()
    };
    card(ui, &CardFace::default(), back, size, palette)
}
