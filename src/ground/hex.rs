//! Hex coordinates in one place: axial `Hex` (hexx) ↔ the "odd-r" offset `[col, row]` in which
//! level maps are written as rows of text (pointy hexes), and a stable sort key (hexx's `Hex`
//! has no `Ord`). Content, rules and view all convert through here, so a map reads the same
//! way in a level file, in the game and on screen.

use hexx::{Hex, HexOrientation, OffsetHexMode};

/// A stable sort key for a hex.
pub fn key(h: Hex) -> (i32, i32) {
    (h.x, h.y)
}

/// Axial → "odd-r" offset `[col, row]` (pointy hexes), as level `Rows` are written.
pub fn to_offset(h: Hex) -> [i32; 2] {
    h.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Pointy)
}

/// "odd-r" offset `[col, row]` → axial.
pub fn from_offset(col: i32, row: i32) -> Hex {
    Hex::from_offset_coordinates([col, row], OffsetHexMode::Odd, HexOrientation::Pointy)
}
