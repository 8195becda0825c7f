//! Hex coordinates in one place: axial `Hex` (hexx) ↔ the "odd-r" offset `[col, row]` in which
//! level maps are written as rows of text (pointy hexes), and a stable sort key (hexx's `Hex`
//! has no `Ord`). Content, rules and view all convert through here, so a map reads the same
//! way in a level file, in the game and on screen.

use hexx::{Hex, HexOrientation, OffsetHexMode};

/// A stable sort key for a hex.
pub fn key(h: Hex) -> (i32, i32) {
    (h.x, h.y)
}

/// Radii up to which `disc` keeps its offsets ready.
const DISC_KEPT: u32 = 16;

/// The hexes within `radius` of the origin, sorted by distance, then `key`. Added to a centre
/// they stay in that order (the distance and the key's lexicographic order are both unchanged
/// by a translation), so a zone around any hex is this list moved, with no sort. Up to radius
/// 16 the lists are made once per program.
pub fn disc(radius: u32) -> std::borrow::Cow<'static, [Hex]> {
    static KEPT: std::sync::OnceLock<Vec<Vec<Hex>>> = std::sync::OnceLock::new();
    let make = |r: u32| {
        let mut v: Vec<Hex> = Hex::ZERO.range(r).collect();
        v.sort_by_key(|h| (h.unsigned_distance_to(Hex::ZERO), key(*h)));
        v
    };
    if radius > DISC_KEPT {
        return std::borrow::Cow::Owned(make(radius));
    }
    let kept = KEPT.get_or_init(|| (0..=DISC_KEPT).map(make).collect());
    std::borrow::Cow::Borrowed(&kept[radius as usize])
}

/// Axial → "odd-r" offset `[col, row]` (pointy hexes), as level `Rows` are written.
pub fn to_offset(h: Hex) -> [i32; 2] {
    h.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Pointy)
}

/// "odd-r" offset `[col, row]` → axial.
pub fn from_offset(col: i32, row: i32) -> Hex {
    Hex::from_offset_coordinates([col, row], OffsetHexMode::Odd, HexOrientation::Pointy)
}
