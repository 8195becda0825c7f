//! The chapter on the map (`view::chapter_map`) and in the help: each place ringed on its hex
//! with its name (the special places in another colour), how many of its slots are taken (red
//! when the poachers stand there), and the rules M1–M15 in the help (EN/FR).

use bevy::prelude::*;
use hexx::Hex;

use crate::text::Translations;
use crate::view::chapter_map::{self, Mark};

use super::ID;
use super::data::level;
use super::state::{Mercs, Owner};

const PLACE: [u8; 4] = [120, 200, 235, 230];
const SPECIAL: [u8; 4] = [235, 200, 120, 230];
const SEAT: [u8; 4] = [90, 150, 255, 255];
const POACHERS: [u8; 4] = [220, 60, 60, 255];

fn marks(world: &mut World, tr: &Translations) -> Vec<Mark> {
    let Some(st) = world.get_resource::<Mercs>().cloned() else {
        return Vec::new();
    };
    let lvl = level(world);
    let mut v = Vec::new();
    // A name goes above its place, or below when a place named above it stands two hexes or
    // less along the same row (the names would run into each other) or an outpost's name
    // hangs there; the slots taken go on the other side.
    // An outpost's name hangs below it, over the two hexes under it: a place there is named
    // below its own hex too.
    let outposts: Vec<(i32, i32)> = world
        .query::<&crate::rules::Outpost>()
        .iter(world)
        .map(|o| (o.hex.x, o.hex.y))
        .collect();
    let mut rows = chapter_map::LabelRows::default();
    for p in &lvl.places {
        let at = Hex::new(p.at.0, p.at.1);
        let rgba = if p.kind.special() { SPECIAL } else { PLACE };
        let under_outpost = outposts
            .iter()
            .any(|o| o.1 == p.at.1 + 1 && (o.0 == p.at.0 || o.0 == p.at.0 - 1));
        let dy = if under_outpost || rows.crowded(at) {
            -19.0
        } else {
            rows.above(at);
            17.0
        };
        v.push(Mark::Ring {
            at,
            size: 0.8,
            rgba,
        });
        v.push(Mark::Label {
            at,
            text: tr.t(&p.name).into_owned(),
            dy,
            rgba,
        });
        // How many slots are taken, in the colour of who stands there (the poachers' red
        // when any of theirs does).
        if let Some(b) = st.boards.get(&p.id) {
            let taken: Vec<Owner> = b.slots.iter().flatten().map(|s| s.owner).collect();
            if !taken.is_empty() {
                v.push(Mark::Label {
                    at,
                    text: format!("{}/{}", taken.len(), b.slots.len()),
                    dy: -dy,
                    rgba: if taken.contains(&Owner::Poachers) {
                        POACHERS
                    } else {
                        SEAT
                    },
                });
            }
        }
    }
    v
}

/// Installs the marks and the help.
pub fn install() {
    chapter_map::install(ID, marks);
    crate::view::help::install_chapter(
        ID,
        include_str!("../../../assets/help/chapters/mercenaries.en.md"),
        include_str!("../../../assets/help/chapters/mercenaries.fr.md"),
    );
}
