//! The chapter on the map (`view::chapter_map`) and in the help: each province outlined (a
//! ring on each of its hexes, in its own hue), its villages marked, its name with its pillage
//! token; the fjords in blue; the figures as discs in their clan's colour on the villages (or
//! the province's hexes where it has none); the rules C1–C17 in the help (EN/FR). Battles and
//! pillages are played over the map (`view::chapter_show`): a card on the province, ringed.

use bevy::prelude::*;
use hexx::Hex;

use crate::rules::chapter::ChapterValue;
use crate::text::Translations;
use crate::view::chapter_map::{self, Mark};
use crate::view::chapter_show::Beat;

use super::ClanAction;
use super::battle::Told;
use super::data::{Reward, level};
use super::state::{Clans, Owner, Spot};
use super::words::{named, track};

/// The provinces' hues, in turn.
const HUES: [[u8; 4]; 6] = [
    [225, 190, 120, 150],
    [160, 210, 130, 150],
    [200, 160, 220, 150],
    [235, 150, 120, 150],
    [150, 200, 220, 150],
    [220, 220, 150, 150],
];
const GOLD: [u8; 4] = [250, 215, 110, 240];
const VILLAGE: [u8; 4] = [250, 240, 210, 220];
const FJORD: [u8; 4] = [90, 150, 240, 200];
const NAME: [u8; 4] = [250, 240, 215, 255];
const PILLAGED: [u8; 4] = [255, 196, 180, 255];
/// The seats' colours, in turn; Chaos' red.
const SEATS: [[u8; 4]; 4] = [
    [80, 150, 255, 255],
    [90, 220, 140, 255],
    [250, 210, 80, 255],
    [220, 130, 250, 255],
];
const CHAOS: [u8; 4] = [225, 55, 55, 255];

fn colour(o: Owner) -> [u8; 4] {
    match o {
        Owner::Seat(s) => SEATS[s as usize % SEATS.len()],
        Owner::Chaos => CHAOS,
    }
}

fn hex(a: (i32, i32)) -> Hex {
    Hex::new(a.0, a.1)
}

/// The hex of a region nearest its middle: where its name reads as the region's.
pub(super) fn middle(hexes: &[(i32, i32)]) -> Hex {
    let n = hexes.len().max(1) as f32;
    let (q, r) = hexes
        .iter()
        .fold((0.0, 0.0), |(q, r), h| (q + h.0 as f32, r + h.1 as f32));
    let (q, r) = (q / n, r / n);
    hexes
        .iter()
        .min_by(|a, b| {
            let d = |h: &&(i32, i32)| (h.0 as f32 - q).powi(2) + (h.1 as f32 - r).powi(2);
            d(a).total_cmp(&d(b))
        })
        .map(|h| hex(*h))
        .unwrap_or_default()
}

pub fn marks(world: &mut World, tr: &Translations) -> Vec<Mark> {
    let Some(st) = world.get_resource::<Clans>().cloned() else {
        return Vec::new();
    };
    let lvl = level(world);
    let mut v = Vec::new();
    let mut rows = chapter_map::LabelRows::for_world(world);
    rows.reserve_outposts(world, tr);
    // The pillages the rules accept from the Eladrins now (C13): a click on the province's
    // token pillages it.
    let pillages: Vec<(String, crate::rules::Action)> =
        if world.resource::<crate::rules::Cycle>().turn == crate::content::Camp::Eladrins {
            crate::rules::legal::legal_actions(world, crate::content::Camp::Eladrins)
                .into_iter()
                .filter_map(|a| match crate::rules::chapter::decode::<ClanAction>(&a) {
                    Some(ClanAction::Pillage { province }) => Some((province, a)),
                    _ => None,
                })
                .collect()
        } else {
            Vec::new()
        };
    for (i, p) in lvl.provinces.iter().enumerate() {
        let hue = HUES[i % HUES.len()];
        for h in &p.hexes {
            v.push(Mark::Ring {
                at: hex(*h),
                size: 0.95,
                rgba: hue,
            });
        }
        for h in &p.villages {
            v.push(Mark::Ring {
                at: hex(*h),
                size: 0.45,
                rgba: VILLAGE,
            });
        }
        let pillaged = st.pillaged.contains(&p.id);
        let token = if pillaged {
            tr.t("pillaged").into_owned()
        } else {
            match p.reward {
                Reward::Glory(g) => tr.f("{} glory", &[&g]),
                Reward::Level(t) => tr.f("+1 {}", &[&track(tr, t)]),
            }
        };
        let at = middle(&p.hexes);
        let pillage = pillages.iter().find(|(id, _)| *id == p.id);
        let text = match pillage {
            Some(_) => tr.f("{} · {} · click to pillage", &[&tr.t(&p.name), &token]),
            None => format!("{} · {}", tr.t(&p.name), token),
        };
        if let Some((_, a)) = pillage {
            v.push(Mark::Ring {
                at,
                size: 0.7,
                rgba: GOLD,
            });
            v.push(Mark::Choice {
                at,
                name: format!("pillage:{}", p.id),
                action: a.clone(),
            });
        }
        let dy = rows.place(at, &text, &chapter_map::NAME_HEIGHTS);
        v.push(Mark::Label {
            at,
            text,
            dy,
            rgba: if pillaged { PILLAGED } else { NAME },
        });
        // The figures, one disc each, on the villages in turn (or the province's hexes).
        let spots: Vec<Hex> = if p.villages.is_empty() {
            p.hexes.iter().map(|h| hex(*h)).collect()
        } else {
            p.villages.iter().map(|h| hex(*h)).collect()
        };
        for (k, f) in st.at(&Spot::Province(p.id.clone())).enumerate() {
            if let Some(at) = spots.get(k % spots.len().max(1)) {
                v.push(Mark::Disc {
                    at: *at,
                    size: if k >= spots.len() { 10.0 } else { 14.0 },
                    rgba: colour(f.owner),
                });
            }
        }
    }
    for f in &lvl.fjords {
        for h in &f.hexes {
            v.push(Mark::Ring {
                at: hex(*h),
                size: 0.8,
                rgba: FJORD,
            });
        }
        let ships: Vec<Owner> = st.at(&Spot::Fjord(f.id.clone())).map(|p| p.owner).collect();
        for (k, o) in ships.iter().enumerate() {
            if let Some(h) = f.hexes.get(k % f.hexes.len().max(1)) {
                v.push(Mark::Disc {
                    at: hex(*h),
                    size: 12.0,
                    rgba: colour(*o),
                });
            }
        }
    }
    v
}

/// Who a clan is, by the seat's player name.
fn who(world: &World, tr: &Translations, o: Owner) -> String {
    match o {
        Owner::Seat(s) => chapter_map::seat_name(world, tr, s),
        Owner::Chaos => tr.t("Chaos").into_owned(),
    }
}

/// A battle (C17) or a pillage (C13) on its province.
pub fn beat(world: &World, tr: &Translations, what: &ChapterValue) -> Option<Beat> {
    let lvl = level(world);
    let at = |p: &str| lvl.province(p).map(|p| middle(&p.hexes));
    match what.get::<Told>()? {
        Told::Battle {
            province,
            eladrins,
            chaos,
            winner,
        } => Some(Beat {
            at: at(&province)?,
            title: tr.f("Battle for {}", &[&named(tr, &province)]),
            line: tr.f(
                "Eladrins {} STR, Chaos {}: {}",
                &[
                    &eladrins,
                    &chaos,
                    &match winner {
                        Some(true) => tr.t("the Eladrins win"),
                        Some(false) => tr.t("Chaos wins"),
                        None => tr.t("a tie: every side falls"),
                    },
                ],
            ),
        }),
        // The battle resolved step by step on one card: each clan's card turned up, the
        // winner, the fallen, then the reward (its own beat on the same province).
        Told::Turned {
            province,
            owner,
            card,
        } => Some(Beat {
            at: at(&province)?,
            title: tr.f("Battle for {}", &[&named(tr, &province)]),
            line: match card {
                Some(c) => {
                    let str_ = lvl.card(&c).map_or(0, super::reckon::battle_str);
                    tr.f(
                        "{} turns up {} (+{} STR)",
                        &[&who(world, tr, owner), &named(tr, &c), &str_],
                    )
                }
                None => tr.f("{} played no card", &[&who(world, tr, owner)]),
            },
        }),
        Told::Fallen {
            province,
            owner,
            figures,
        } => Some(Beat {
            at: at(&province)?,
            title: tr.f("Battle for {}", &[&named(tr, &province)]),
            line: tr.p(
                "{}: {} figure to Valhalla|{}: {} figures to Valhalla",
                figures as u64,
                &[&who(world, tr, owner), &figures],
            ),
        }),
        Told::Pillaged { owner, province } => Some(Beat {
            at: at(&province)?,
            title: tr.f("Pillage: {}", &[&named(tr, &province)]),
            line: tr.f("{} takes its reward", &[&who(world, tr, owner)]),
        }),
        Told::Defended { owner, province } => Some(Beat {
            at: at(&province)?,
            title: tr.f("Held: {}", &[&named(tr, &province)]),
            line: tr.f("{} takes its reward", &[&who(world, tr, owner)]),
        }),
        _ => None,
    }
}
