//! The chapter on the map (`view::chapter_map`) and in the ears (`view::sound`): her route (red
//! cells crimson, the course amber), the tokens not taken yet, the Gate, the rooms (hidden ones
//! as "?"), the dragoness herself as a large token, where her advance and her brake would stop
//! (D2, D5, D7) with the teams the advance would lose (D4), the RIP tokens, and the countdown's
//! slots on the White Tomb (D11).

use bevy::prelude::*;
use hexx::Hex;

use crate::rules::chapter::ChapterValue;
use crate::text::Translations;
use crate::view::chapter_map::{self, Mark};

use super::data::{CellKind, RoomKind, hex, level};
use super::guide::{self, Pos, Told};
use super::state::Dragoness;

const CRIMSON: [u8; 4] = [205, 45, 45, 235];
const AMBER: [u8; 4] = [235, 175, 60, 210];
const GOLD: [u8; 4] = [250, 215, 110, 240];
const GREY: [u8; 4] = [170, 165, 180, 220];
const VIOLET: [u8; 4] = [190, 150, 235, 235];
const WHITE: [u8; 4] = [245, 245, 250, 255];
const ORANGE: [u8; 4] = [255, 140, 40, 255];
const YELLOW: [u8; 4] = [255, 230, 90, 255];
const RED: [u8; 4] = [255, 70, 70, 255];

pub fn marks(world: &mut World, tr: &Translations) -> Vec<Mark> {
    let Some(st) = world.get_resource::<Dragoness>().cloned() else {
        return Vec::new();
    };
    let lvl = level(world);
    let mut v = Vec::new();
    let label = |at: Hex, text: String, dy: f32, rgba: [u8; 4]| Mark::Label { at, text, dy, rgba };
    // The route.
    for w in lvl.route.windows(2) {
        v.push(Mark::Line {
            from: hex(w[0].at),
            to: hex(w[1].at),
            rgba: if w[0].kind == CellKind::Red {
                CRIMSON
            } else {
                AMBER
            },
        });
    }
    for (i, c) in lvl.route.iter().enumerate() {
        let h = hex(c.at);
        let open = !st.taken.contains(&i);
        match c.kind {
            CellKind::Mystery if open => v.push(label(h, "?".into(), 14.0, AMBER)),
            CellKind::Hazard if open => v.push(label(h, "!".into(), 14.0, RED)),
            CellKind::Gate => {
                v.push(Mark::Ring {
                    at: h,
                    size: 0.9,
                    rgba: GOLD,
                });
                let words = if st.sealed {
                    tr.t("Sealed Gate")
                } else {
                    tr.t("Gate")
                };
                v.push(label(h, words.into_owned(), 16.0, GOLD));
            }
            CellKind::Red => v.push(Mark::Ring {
                at: h,
                size: 0.5,
                rgba: CRIMSON,
            }),
            _ => {}
        }
    }
    // The rooms: hidden ones say nothing of what they are. A name goes above its room, or
    // below when a room named earlier stands two hexes or less along the same row (the names
    // would run into each other); the Tomb keeps below for the countdown.
    let mut rows = chapter_map::LabelRows::default();
    for r in &lvl.rooms {
        let h = hex(r.at);
        if st.is_revealed(&r.id) {
            let dy = if rows.crowded(h) && r.kind != RoomKind::Tomb {
                -19.0
            } else {
                rows.above(h);
                17.0
            };
            let rgba = if r.kind == RoomKind::Tomb {
                WHITE
            } else {
                VIOLET
            };
            v.push(Mark::Ring {
                at: h,
                size: 0.85,
                rgba,
            });
            v.push(label(h, tr.t(&r.name).into_owned(), dy, rgba));
        } else {
            v.push(Mark::Ring {
                at: h,
                size: 0.85,
                rgba: GREY,
            });
            v.push(label(h, "?".into(), 0.0, GREY));
        }
    }
    // Her next stops, and who her advance would lose.
    if !st.entombed {
        for (brake, rgba) in [(false, ORANGE), (true, YELLOW)] {
            let Ok(p) = guide::plan(world, &lvl, &st, brake, None) else {
                continue;
            };
            if !brake {
                for h in &p.path {
                    v.push(Mark::Ring {
                        at: *h,
                        size: 0.6,
                        rgba: ORANGE,
                    });
                }
                for id in &p.lost {
                    if let Some(h) = army_hex(world, *id) {
                        v.push(Mark::Ring {
                            at: h,
                            size: 1.0,
                            rgba: RED,
                        });
                        // Above the hex: her stop's label sits below its own.
                        v.push(label(h, tr.t("lost").into_owned(), 24.0, RED));
                    }
                }
            }
            if let Some(end) = p.end {
                let h = end.hex(&lvl);
                v.push(Mark::Ring {
                    at: h,
                    size: 0.75,
                    rgba,
                });
                let words = if brake {
                    tr.t("brake")
                } else {
                    tr.t("advance")
                };
                v.push(label(
                    h,
                    words.into_owned(),
                    if brake { -14.0 } else { -24.0 },
                    rgba,
                ));
            }
        }
    }
    // The RIP tokens.
    for at in st.rips() {
        v.push(label(hex(at), "RIP".into(), -6.0, GREY));
    }
    // Herself.
    let her = Pos::of(&st).hex(&lvl);
    v.push(Mark::Disc {
        at: her,
        size: 46.0,
        rgba: [70, 10, 14, 235],
    });
    v.push(Mark::Icon {
        at: her,
        art: "icons/unit_wyvern_rider".into(),
        size: 34.0,
        rgba: [255, 120, 100, 255],
    });
    // The countdown on the Tomb (D11).
    if st.entombed {
        let words = tr.f("countdown {}/{}", &[&st.placed(), &st.slots.len()]);
        v.push(label(her, words, -26.0, WHITE));
    }
    v
}

fn army_hex(world: &mut World, id: u32) -> Option<Hex> {
    use crate::rules::GameWorld;
    let e = world.army_by_id(id)?;
    world.get::<crate::rules::Army>(e).map(|a| a.hex)
}

/// Her move, a team lost, a gem placed: the chapter's sounds.
pub fn sounds(what: &ChapterValue) -> Option<&'static str> {
    match what.get::<Told>()? {
        Told::Walked { .. } => Some("sfx/move"),
        Told::TeamLost { .. } => Some("sfx/defeat"),
        Told::Gem { .. } => Some("sfx/dice"),
        Told::Sealed | Told::Entombed => Some("sfx/corruption"),
        Told::Revealed { .. } | Told::Token { .. } | Told::Quest { .. } => Some("sfx/card"),
        Told::Relic { .. } | Told::Escaped { .. } => Some("sfx/portal"),
        _ => None,
    }
}
