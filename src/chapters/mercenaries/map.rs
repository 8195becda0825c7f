//! The chapter on the map (`view::chapter_map`) and in the help: each place ringed on its hex
//! with its name (the special places in another colour), how many of its slots are taken (red
//! when the poachers stand there), and the rules M1–M15 in the help (EN/FR). The reward phase
//! (M13) is played place by place over the map (`view::chapter_show`): each place's claims on
//! a card, its hex ringed in gold, in the order the rules claim them; then the raid: what each
//! seat discarded and the Flame it took.

use bevy::prelude::*;
use hexx::Hex;

use crate::rules::chapter::ChapterValue;
use crate::text::Translations;
use crate::view::chapter_map::{self, Mark};
use crate::view::chapter_show::Beat;

use super::ID;
use super::data::{level, size};
use super::phases::Told;
use super::state::{Mercs, Owner};
use super::words::group;

const PLACE: [u8; 4] = [120, 200, 235, 230];
const SPECIAL: [u8; 4] = [235, 200, 120, 230];
const SEAT: [u8; 4] = [90, 150, 255, 255];
const POACHERS: [u8; 4] = [220, 60, 60, 255];
/// Names are lighter than their rings: on grass and forest the rings' blue and gold read
/// poorly as text.
const PLACE_NAME: [u8; 4] = [200, 235, 255, 255];
const SPECIAL_NAME: [u8; 4] = [255, 228, 160, 255];

pub fn marks(world: &mut World, tr: &Translations) -> Vec<Mark> {
    let Some(st) = world.get_resource::<Mercs>().cloned() else {
        return Vec::new();
    };
    let lvl = level(world);
    let mut v = Vec::new();
    // Each name takes the first height around its place where it meets no other name (nor an
    // outpost's name, which hangs below its hex, nor its icon), measured at the size the names
    // are drawn (the interface scale's); the count of slots taken, then, the first free height
    // on its other side. Places are named in the level's order.
    let mut rows = chapter_map::LabelRows::for_world(world);
    rows.reserve_outposts(world, tr);
    for p in &lvl.places {
        let at = Hex::new(p.at.0, p.at.1);
        let (rgba, name_rgba) = if p.kind.special() {
            (SPECIAL, SPECIAL_NAME)
        } else {
            (PLACE, PLACE_NAME)
        };
        let name = tr.t(&p.name).into_owned();
        let dy = rows.place(at, &name, &chapter_map::NAME_HEIGHTS);
        v.push(Mark::Ring {
            at,
            size: 0.8,
            rgba,
        });
        v.push(Mark::Label {
            at,
            text: name,
            dy,
            rgba: name_rgba,
        });
        // How many slots are taken, in the colour of who stands there (the poachers' red
        // when any of theirs does).
        if let Some(b) = st.boards.get(&p.id) {
            let taken: Vec<Owner> = b.slots.iter().flatten().map(|s| s.owner).collect();
            if !taken.is_empty() {
                let text = format!("{}/{}", taken.len(), b.slots.len());
                let heights: Vec<f32> = chapter_map::MARK_HEIGHTS
                    .iter()
                    .copied()
                    .filter(|h| h.signum() != dy.signum())
                    .chain(chapter_map::MARK_HEIGHTS)
                    .collect();
                let dy = rows.place(at, &text, &heights);
                v.push(Mark::Label {
                    at,
                    text,
                    dy,
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

/// Who a seat or the poachers are, by the seat's player name.
fn who(world: &World, tr: &Translations, o: Owner) -> String {
    match o {
        Owner::Seat(s) => chapter_map::seat_name(world, tr, s),
        Owner::Poachers => tr.t("The poachers").into_owned(),
    }
}

/// A claim (M13) on its place's card; a raid's Flame (M14) on the outpost's.
pub fn beat(world: &World, tr: &Translations, what: &ChapterValue) -> Option<Beat> {
    match what.get::<Told>()? {
        Told::Claimed { owner, place, card } => {
            let lvl = level(world);
            let p = lvl.places.iter().find(|p| p.id == place)?;
            Some(Beat {
                at: Hex::new(p.at.0, p.at.1),
                title: tr.f("Rewards: {}", &[&tr.t(&p.name)]),
                line: match owner {
                    Owner::Poachers => tr.f(
                        "The poachers claim {}",
                        &[&tr.t(&tr.chapters.name_of(ID, &card))],
                    ),
                    Owner::Seat(_) => tr.f(
                        "{} claims {}",
                        &[
                            &who(world, tr, owner),
                            &tr.t(&tr.chapters.name_of(ID, &card)),
                        ],
                    ),
                },
            })
        }
        Told::Struck { name, demands } => Some(Beat {
            at: crate::rules::outposts::home_hex(world),
            title: tr.t("The raid").into_owned(),
            line: if size(&demands) == 0 {
                tr.f("{} strikes: nothing to discard", &[&tr.t(&name)])
            } else {
                tr.f(
                    "{} strikes: each seat discards {}",
                    &[&tr.t(&name), &group(tr, &demands)],
                )
            },
        }),
        Told::Flame { seat, up, lost } => {
            let at = crate::rules::outposts::home_hex(world);
            let name = who(world, tr, Owner::Seat(seat));
            let line = match (size(&lost) > 0, up > 0) {
                (true, true) => tr.f(
                    "{} discards {}, Flame +{}",
                    &[&name, &group(tr, &lost), &up],
                ),
                (true, false) => tr.f("{} discards {}", &[&name, &group(tr, &lost)]),
                _ => tr.f("{}: Flame +{}", &[&name, &up]),
            };
            Some(Beat {
                at,
                title: tr.t("The raid").into_owned(),
                line,
            })
        }
        Told::Fed { .. } => None,
    }
}
