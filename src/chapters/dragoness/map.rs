//! The chapter on the map (`view::chapter_map`) and in the ears (`view::sound`): her route (red
//! cells crimson, the course amber), the tokens not taken yet, the Gate, the rooms (hidden ones
//! as "?"), the dragoness herself as a large token, where her advance and her brake would stop
//! (D2, D5, D7) with the gems each gains or costs and the teams each would lose (D4), the RIP
//! tokens, and the countdown's slots on the White Tomb (D11).

use bevy::prelude::*;
use hexx::Hex;

use crate::content::Camp;
use crate::rules::chapter::{self, ChapterValue};
use crate::rules::{Action, GameWorld};
use crate::text::Translations;
use crate::view::chapter_map::{self, Mark};

use super::DragonAction;
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
    // Every label goes in one layout, so the stops' and the losses' keep clear of the route's,
    // the rooms' and the outposts' names, at the size they are drawn.
    let mut rows = chapter_map::LabelRows::for_world(world);
    rows.reserve_outposts(world, tr);
    // A label at a height of its own, reserved so that those placed later keep clear of it.
    let label = |rows: &mut chapter_map::LabelRows, at: Hex, text: String, dy: f32, rgba| {
        rows.reserve(at, &text, dy);
        Mark::Label { at, text, dy, rgba }
    };
    // A ring on a hex and a label placed around it clear of the others.
    let ringed = |rows: &mut chapter_map::LabelRows, at: Hex, size: f32, text: String, rgba| {
        let dy = rows.place(at, &text, &chapter_map::MARK_HEIGHTS);
        [
            Mark::Ring { at, size, rgba },
            Mark::Label { at, text, dy, rgba },
        ]
    };
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
            CellKind::Mystery if open => v.push(label(&mut rows, h, "?".into(), 14.0, AMBER)),
            CellKind::Hazard if open => v.push(label(&mut rows, h, "!".into(), 14.0, RED)),
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
                v.push(label(&mut rows, h, words.into_owned(), 16.0, GOLD));
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
            v.push(label(&mut rows, h, tr.t(&r.name).into_owned(), dy, rgba));
        } else {
            v.push(Mark::Ring {
                at: h,
                size: 0.85,
                rgba: GREY,
            });
            v.push(label(&mut rows, h, "?".into(), 0.0, GREY));
        }
    }
    // What spares each team from her (D4), on its token, as on the panel's badges.
    {
        let cycle = world.resource::<crate::rules::Cycle>().number;
        let ids = st.team_ids();
        for id in ids {
            let Some(e) = world.army_by_id(id) else {
                continue;
            };
            let Some(a) = world.get::<crate::rules::Army>(e) else {
                continue;
            };
            let h = a.hex;
            let units: Vec<String> = a.units.iter().map(|u| u.kind.clone()).collect();
            let spares = guide::spares(&lvl, &st, id, &units, cycle);
            let Some(first) = spares.first() else {
                continue;
            };
            let words: Vec<String> = spares
                .iter()
                .map(|s| super::panel::spare_badge(tr, *s).0)
                .collect();
            let [r, g, b] = super::panel::spare_badge(tr, *first).1;
            let text = words.join(" · ");
            let dy = rows.place(h, &text, &chapter_map::MARK_HEIGHTS);
            v.push(Mark::Label {
                at: h,
                text,
                dy,
                rgba: [r, g, b, 255],
            });
        }
    }
    // Her next stops, each with what it gains or costs in gems (D1, D2), and the teams each
    // would lose (D4): a team either would lose says so once. One stop per course the Guide
    // may choose (rooms as near in the chasm, D7); where the Eladrins guide, a click on a stop
    // moves her there.
    if !st.entombed {
        let options = options(world, &lvl, &st);
        for (_, _, p) in options.iter().filter(|o| !o.1) {
            for h in &p.path {
                v.push(Mark::Ring {
                    at: *h,
                    size: 0.6,
                    rgba: ORANGE,
                });
            }
        }
        let lost_by = |brake: bool, id: u32| {
            options
                .iter()
                .any(|(_, b, p)| *b == brake && p.lost.contains(&id))
        };
        let mut lost: Vec<u32> = options
            .iter()
            .flat_map(|(_, _, p)| p.lost.iter().copied())
            .collect();
        lost.sort_unstable();
        lost.dedup();
        for id in lost {
            let Some(h) = army_hex(world, id) else {
                continue;
            };
            let (words, rgba) = match (lost_by(false, id), lost_by(true, id)) {
                (true, true) => (tr.t("lost either way"), RED),
                (true, false) => (tr.t("lost if she advances"), RED),
                _ => (tr.t("lost if braked"), YELLOW),
            };
            v.extend(ringed(&mut rows, h, 1.0, words.into_owned(), rgba));
        }
        // A stop is clicked only while the Eladrins' Guide decides (D2): before, the click
        // would only be refused.
        let clicks = guide::guide(world) == Camp::Eladrins && world.step_id() == super::GUIDE_STEP;
        let mut stops: Vec<(Hex, bool)> = Vec::new();
        for (action, brake, p) in &options {
            let Some(end) = p.end else {
                continue;
            };
            let h = end.hex(&lvl);
            if clicks {
                v.push(Mark::Choice {
                    at: h,
                    name: if *brake { "brake" } else { "advance" }.into(),
                    action: action.clone(),
                });
            }
            // Two courses of one kind to one stop (never, on a sane level) say it once.
            if stops.contains(&(h, *brake)) {
                continue;
            }
            stops.push((h, *brake));
            let rgba = if *brake { YELLOW } else { ORANGE };
            // The move's own gems, as the rules' plan counts them (D1, D2).
            let n = p.gems.unsigned_abs();
            let signed = if p.gems < 0 {
                format!("−{n}")
            } else {
                format!("+{n}")
            };
            let words = if *brake {
                tr.p("brake: {} gem|brake: {} gems", n.into(), &[&signed])
            } else {
                tr.p("advance: {} gem|advance: {} gems", n.into(), &[&signed])
            };
            v.extend(ringed(&mut rows, h, 0.75, words, rgba));
        }
    }
    // The RIP tokens.
    for at in st.rips() {
        v.push(label(&mut rows, hex(at), "RIP".into(), -6.0, GREY));
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
        v.push(label(&mut rows, her, words, -26.0, WHITE));
    }
    v
}

/// The Guide's moves the rules accept now, or would accept at its turn (D1, D2, D7): each
/// advance and brake, one per room as near where she may head for either, with its course. The
/// map marks them all, so what it shows is what each would do.
pub fn options(
    world: &mut World,
    lvl: &super::data::DragonessLevel,
    st: &Dragoness,
) -> Vec<(Action, bool, guide::Plan)> {
    let mut out = Vec::new();
    for a in super::guide_moves(world) {
        let (brake, toward) = match a {
            DragonAction::Advance { toward } => (false, toward),
            DragonAction::Brake { toward } => (true, toward),
            _ => continue,
        };
        if let Ok(p) = guide::plan(world, lvl, st, brake, toward) {
            out.push((chapter::encode(&a), brake, p));
        }
    }
    out
}

fn army_hex(world: &mut World, id: u32) -> Option<Hex> {
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
