//! The chapter's board (`view::table`), laid out like the seed's central board: the two raid
//! cards (the one that strikes marked), the four assistants and who took them, the Warehouse
//! and the Barracks; the places in the order their rewards are claimed (M13), each with its
//! numbered slots, who stands there and its cards face up; then each seat's sheet (its
//! reserve as figures, equipment, Flame, glory, what it won) and the poachers'.
//!
//! Played by clicks: a lit slot opens the group composer for that slot's number (a stepper
//! per kind the place admits, bounded by the reserve; only a legal group confirms); a lit
//! assistant is taken (the Defender then asks which raid card to discard, clicked on the
//! board; the Chief, taken alone or with one of the seat's groups recalled: its slot clicked,
//! then the slot it goes to and the group formed again); a lit Warehouse or Barracks is used; the equipment swap sits on the seat's sheet.
//! Every target is one the rules' legal actions hold. While the reward show plays, the place
//! it claims is framed in gold with what it gave; the raid's, the striking card with what each
//! seat discarded and the Flame it took.

use bevy_egui::egui::{self, Color32, Vec2};

use crate::rules::Action;
use crate::view::table::TableCx;
use crate::view::table::pieces::{self, CardFace, CardState, Figure, SlotState, Token};

use super::MercAction;
use super::data::{Assistant, Card, Gain, Group, Merc, MercLevel, Need, Place, PlaceKind, size};
use super::phases::final_glory;
use super::state::{Mercs, Owner, Sheet};
use super::words::{assistant, group, merc};

/// What the player is choosing on the board, kept between frames.
#[derive(Debug, Clone, Default, PartialEq)]
enum Pick {
    /// Nothing yet.
    #[default]
    Nothing,
    /// A group for this slot, being composed; `from`, the slot the Chief recalls it from.
    Slot {
        place: String,
        slot: usize,
        group: Group,
        from: Option<(String, usize)>,
    },
    /// The Defender taken: which raid card it discards.
    Defender,
    /// The Chief taken: alone, or with one of the seat's groups to recall (M11).
    Chief,
    /// The Chief's recall from this slot: where the group goes again.
    Recall((String, usize)),
}

/// The swap being set on the seat's sheet (M9): from, to.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SwapPick(Merc, Merc);

/// What every part of the board draws from: the state, the level's fields, the legal actions
/// of the chapter now (each with the action as the core carries it).
#[derive(Clone, Copy)]
struct Seen<'a> {
    s: &'a Mercs,
    lvl: &'a MercLevel,
    legal: &'a [(&'a Action, MercAction)],
}

/// A kind of mercenary as a figure.
fn figure_of(k: Merc) -> Figure {
    match k {
        Merc::Recruit => Figure::Recruit,
        Merc::Scout => Figure::Scout,
        Merc::Ranger => Figure::Ranger,
        Merc::Guardian => Figure::Guardian,
    }
}

fn kinds(g: &Group) -> Vec<(Figure, u32)> {
    Merc::ALL
        .into_iter()
        .map(|k| (figure_of(k), g[k.ix()]))
        .filter(|(_, n)| *n > 0)
        .collect()
}

fn owner_colour(cx: &TableCx, o: Owner) -> Color32 {
    match o {
        Owner::Seat(s) => pieces::seat_colour(s, cx.palette),
        Owner::Poachers => pieces::chaos_colour(cx.palette),
    }
}

fn owner_name(cx: &TableCx, o: Owner) -> String {
    match o {
        Owner::Seat(s) => cx.player(s),
        Owner::Poachers => cx.tr.t("The poachers").into_owned(),
    }
}

/// A band colour per kind of place (its cards carry it).
fn band(kind: PlaceKind) -> Color32 {
    match kind {
        PlaceKind::Guild => Color32::from_rgb(190, 140, 60),
        PlaceKind::Tavern => Color32::from_rgb(150, 90, 50),
        PlaceKind::Camp => Color32::from_rgb(170, 60, 60),
        PlaceKind::Mountains => Color32::from_rgb(110, 120, 150),
        PlaceKind::Reserves => Color32::from_rgb(80, 150, 90),
        PlaceKind::Garrison => Color32::from_rgb(70, 110, 170),
        PlaceKind::Warehouse | PlaceKind::Barracks => Color32::from_rgb(200, 170, 90),
    }
}

/// What a gain gives, in words: "3 recruits, +1 equipment".
fn gain_words(cx: &TableCx, g: &Gain) -> String {
    let tr = cx.tr;
    let mut parts = Vec::new();
    if size(&g.mercs) > 0 {
        parts.push(group(tr, &g.mercs));
    }
    if g.equipment > 0 {
        parts.push(tr.f("+{} equipment", &[&g.equipment]));
    }
    if g.glory > 0 {
        parts.push(tr.f("+{} glory", &[&g.glory]));
    }
    if g.flame > 0 {
        parts.push(tr.f("+{} Flame", &[&g.flame]));
    }
    if g.calm > 0 {
        parts.push(tr.f("−{} Flame", &[&g.calm]));
    }
    parts.join(", ")
}

/// A card's face as the board shows it.
fn face(cx: &TableCx, c: &Card, kind: PlaceKind) -> CardFace {
    let tr = cx.tr;
    let mut lines = Vec::new();
    let mut corner = None;
    let gives = gain_words(cx, &c.gives);
    if !gives.is_empty() {
        lines.push(gives);
    }
    if let Some(d) = &c.dragon {
        corner = Some(d.glory.to_string());
        if d.unit.is_some() {
            lines.push(tr.t("flies for the outpost").into_owned());
        }
    }
    if let Some(h) = &c.hero {
        let each = gain_words(cx, &h.each_round);
        if !each.is_empty() {
            lines.push(tr.f("each round: {}", &[&each]));
        }
        if h.linked_glory > 0 {
            corner = Some(h.linked_glory.to_string());
            lines.push(tr.t("glory with a dragon").into_owned());
        }
    }
    if c.plot > 0 {
        corner = Some(c.plot.to_string());
        lines.push(tr.t("glory each round with a dragon").into_owned());
    }
    if let Some(o) = &c.objective {
        corner = Some(o.glory.to_string());
        lines.push(match o.need {
            Need::Dragons(n) => tr.f("at the end: {} dragons", &[&n]),
            Need::Veterans(n) => tr.f("at the end: {} veterans", &[&n]),
            Need::Heroes(n) => tr.f("at the end: {} heroes", &[&n]),
            Need::FlameAtMost(n) => tr.f("at the end: Flame {} or less", &[&n]),
        });
    }
    CardFace {
        title: tr.t(&c.name).into_owned(),
        lines,
        corner,
        band: band(kind),
    }
}

/// The board; the action a click asks for.
pub fn draw(ui: &mut egui::Ui, s: &Mercs, cx: &mut TableCx) -> Option<Action> {
    let lvl = cx
        .db
        .level_fields::<MercLevel>(cx.level)
        .unwrap_or_default();
    let legal: Vec<(&Action, MercAction)> = cx.legal_of::<MercAction>();
    let pick_id = egui::Id::new("mercenaries_pick");
    let mut pick: Pick = ui.data(|d| d.get_temp(pick_id)).unwrap_or_default();
    // A pick the rules no longer offer (the turn moved on, an undo) is dropped.
    let still = |p: &Pick| {
        match p {
        Pick::Nothing => true,
        Pick::Slot {
            place,
            slot,
            from: None,
            ..
        } => legal.iter().any(|(_, m)| {
            matches!(m, MercAction::Send { place: p, slot: i, .. } if p == place && i == slot)
        }),
        Pick::Slot {
            place,
            slot,
            from: Some(f),
            ..
        } => legal
            .iter()
            .filter_map(|(_, m)| m.recall())
            .any(|r| r.from == *f && r.to.0 == *place && r.to.1 == *slot),
        Pick::Defender => legal.iter().any(|(_, m)| {
            matches!(m, MercAction::Assist { who: Assistant::Defender, .. })
        }),
        Pick::Chief => legal.iter().any(|(_, m)| {
            matches!(m, MercAction::Assist { who: Assistant::Chief, .. })
        }),
        Pick::Recall(f) => legal
            .iter()
            .filter_map(|(_, m)| m.recall())
            .any(|r| r.from == *f),
    }
    };
    if !still(&pick) {
        pick = Pick::Nothing;
    }
    let mut asked: Option<Action> = None;
    let b = Seen {
        s,
        lvl: &lvl,
        legal: &legal,
    };
    top_row(ui, b, cx, &mut pick, &mut asked);
    ui.add_space(6.0);
    places(ui, b, cx, &mut pick);
    if let Some(a) = composer(ui, b, cx, &mut pick) {
        asked = Some(a);
    }
    ui.add_space(6.0);
    if let Some(a) = sheets(ui, b, cx) {
        asked = Some(a);
    }
    if asked.is_some() {
        pick = Pick::Nothing;
    }
    ui.data_mut(|d| d.insert_temp(pick_id, pick));
    asked
}

/// The raid cards, the assistants, the special places.
fn top_row(
    ui: &mut egui::Ui,
    b: Seen,
    cx: &mut TableCx,
    pick: &mut Pick,
    asked: &mut Option<Action>,
) {
    let Seen { s, lvl, legal } = b;
    let tr = cx.tr;
    // A beat of the show on no place of the board is the raid's (`map::beat` tells the Flame
    // it raised at the outpost): its lines go under the raid card that strikes.
    let raid_now: Option<Vec<String>> = cx
        .showing
        .filter(|(at, _)| !lvl.places.iter().any(|p| p.at == (at.x, at.y)))
        .map(|(_, lines)| lines.to_vec());
    ui.horizontal_top(|ui| {
        // The raid cards (M14): the newer strikes.
        ui.vertical(|ui| {
            ui.label(egui::RichText::new(tr.f("Round {}", &[&s.round])).strong());
            ui.label(egui::RichText::new(tr.t("Raid (M14)")).small());
            ui.horizontal(|ui| {
                for (i, r) in s.raids.iter().enumerate() {
                    let Some(card) = lvl.raids.get(*r) else {
                        continue;
                    };
                    let strikes = i + 1 == s.raids.len();
                    let mut lines = vec![tr.f("discard: {}", &[&group(tr, &card.demands)])];
                    if strikes {
                        lines.push(tr.t("strikes this round").into_owned());
                    }
                    let discard = legal.iter().find(|(_, m)| {
                        matches!(m, MercAction::Assist { who: Assistant::Defender, raid: Some(j), .. } if *j == i)
                    });
                    let target = *pick == Pick::Defender && discard.is_some();
                    let f = CardFace {
                        title: tr.t(&card.name).into_owned(),
                        lines,
                        corner: None,
                        band: Color32::from_rgb(120, 30, 30),
                    };
                    let st = CardState {
                        target,
                        marked: strikes,
                        ..Default::default()
                    };
                    let r = pieces::card(ui, &f, st, Vec2::new(116.0, 74.0), cx.palette);
                    if strikes && raid_now.is_some() {
                        ui.painter().rect_stroke(
                            r.rect.expand(3.0),
                            egui::CornerRadius::same(7),
                            egui::Stroke::new(3.0, Color32::from_rgb(255, 230, 110)),
                            egui::StrokeKind::Outside,
                        );
                    }
                    if target {
                        cx.target(format!("raid:{i}"), &r);
                        if r.clicked()
                            && let Some((a, _)) = discard
                        {
                            *asked = Some(Action::clone(a));
                        }
                    }
                }
            });
        });
        ui.add_space(18.0);
        // The assistants (M11).
        ui.vertical(|ui| {
            ui.label(egui::RichText::new(tr.t("Assistants (M11)")).small());
            ui.horizontal(|ui| {
                for a in Assistant::ALL {
                    let name = assistant(tr, a);
                    let take = legal.iter().find(|(_, m)| match m {
                        MercAction::Assist { who, recall: None, raid } if *who == a => {
                            raid.is_none() || a == Assistant::Defender
                        }
                        _ => false,
                    });
                    let holder = s.holder(a);
                    ui.vertical(|ui| {
                        ui.set_width(62.0);
                        let initial: String = name.chars().take(1).collect();
                        let r = pieces::token(
                            ui,
                            &Token::Assistant(initial),
                            holder.map(|h| pieces::seat_colour(h, cx.palette)),
                            take.is_some() || *pick == Pick::Defender && a == Assistant::Defender,
                            34.0,
                            cx.palette,
                        )
                        .on_hover_text(assistant_does(cx, a, lvl));
                        if take.is_some() {
                            cx.target(format!("assistant:{a:?}"), &r);
                        }
                        let recalls = a == Assistant::Chief
                            && legal.iter().any(|(_, m)| m.recall().is_some());
                        if r.clicked()
                            && let Some((act, _)) = take
                        {
                            if a == Assistant::Defender {
                                // Which raid card: chosen on the board.
                                *pick = if *pick == Pick::Defender {
                                    Pick::Nothing
                                } else {
                                    Pick::Defender
                                };
                            } else if recalls {
                                // Alone or with a recall: chosen on the board.
                                *pick = if *pick == Pick::Nothing {
                                    Pick::Chief
                                } else {
                                    Pick::Nothing
                                };
                            } else {
                                *asked = Some(Action::clone(act));
                            }
                        }
                        ui.label(egui::RichText::new(name).small());
                        if let Some(h) = holder {
                            ui.label(
                                egui::RichText::new(cx.player(h))
                                    .small()
                                    .color(pieces::seat_colour(h, cx.palette)),
                            );
                        }
                    });
                }
            });
            if *pick == Pick::Defender {
                ui.label(
                    egui::RichText::new(tr.t("Defender: click the raid card to discard."))
                        .color(pieces::target_colour(cx.palette)),
                );
            }
            if let Some(a) = chief_line(ui, legal, cx, pick) {
                *asked = Some(a);
            }
        });
        ui.add_space(18.0);
        // The special places (M10).
        ui.vertical(|ui| {
            ui.label(egui::RichText::new(tr.t("Special places (M10)")).small());
            ui.horizontal(|ui| {
                for p in lvl.places.iter().filter(|p| p.kind.special()) {
                    let using = legal.iter().find(
                        |(_, m)| matches!(m, MercAction::Special { place } if *place == p.id),
                    );
                    let used: Vec<String> = s
                        .used
                        .get(&p.id)
                        .map(|v| v.iter().map(|seat| cx.player(*seat)).collect())
                        .unwrap_or_default();
                    let mut lines = vec![gain_words(cx, &p.gives)];
                    if !used.is_empty() {
                        lines.push(tr.f("used by {}", &[&used.join(", ")]));
                    }
                    let f = CardFace {
                        title: tr.t(&p.name).into_owned(),
                        lines,
                        corner: None,
                        band: band(p.kind),
                    };
                    let st = CardState {
                        target: using.is_some(),
                        ..Default::default()
                    };
                    let r = pieces::card(ui, &f, st, Vec2::new(110.0, 74.0), cx.palette);
                    if using.is_some() {
                        cx.target(format!("special:{}", p.id), &r);
                    }
                    if r.clicked()
                        && let Some((a, _)) = using
                    {
                        *asked = Some(Action::clone(a));
                    }
                }
            });
        });
    });
    // The raid's lines under the row, the whole board's width: in the raid cards' column a
    // long line would push the assistants off the board.
    for l in raid_now.iter().flatten() {
        ui.label(egui::RichText::new(l).color(Color32::from_rgb(255, 230, 110)));
    }
}

/// While the Chief is being taken (M11): what to click, taking it alone, or cancelling.
fn chief_line(
    ui: &mut egui::Ui,
    legal: &[(&Action, MercAction)],
    cx: &mut TableCx,
    pick: &mut Pick,
) -> Option<Action> {
    let tr = cx.tr;
    let text = match pick {
        Pick::Chief => {
            tr.t("Chief: click one of your groups to recall it, or take the Chief alone.")
        }
        Pick::Recall(_) => {
            tr.t("Chief: click the slot the group goes to (it may go back where it was).")
        }
        Pick::Slot { from: Some(_), .. } => tr.t("Chief: compose the group again."),
        _ => return None,
    };
    let mut asked = None;
    ui.label(egui::RichText::new(text).color(pieces::target_colour(cx.palette)));
    ui.horizontal(|ui| {
        let alone = legal.iter().find(|(_, m)| {
            matches!(
                m,
                MercAction::Assist {
                    who: Assistant::Chief,
                    recall: None,
                    ..
                }
            )
        });
        if let Some((a, _)) = alone {
            let b = ui.button(tr.t("Take the Chief alone"));
            cx.target("chief_alone", &b);
            if b.clicked() {
                asked = Some(Action::clone(a));
            }
        }
        let c = ui.button(tr.t("Cancel"));
        cx.target("chief_cancel", &c);
        if c.clicked() {
            *pick = Pick::Nothing;
        }
    });
    asked
}

/// What an assistant does, for its tooltip.
fn assistant_does(cx: &TableCx, a: Assistant, lvl: &MercLevel) -> String {
    let tr = cx.tr;
    match a {
        Assistant::Chief => tr.t("Plays first next round."),
        Assistant::Defender => tr.t("Discards one of the two raid cards."),
        Assistant::Survivalist => {
            return tr.f(
                "+{} equipment; wins ties in the Mountains.",
                &[&lvl.survivalist_equipment],
            );
        }
        Assistant::Healer => return tr.f("−{} Flame.", &[&lvl.healer_calm]),
    }
    .into_owned()
}

/// The ordinary places in the order their rewards are claimed, three to a row.
fn places(ui: &mut egui::Ui, b: Seen, cx: &mut TableCx, pick: &mut Pick) {
    let lvl = b.lvl;
    let mut order: Vec<&Place> = lvl.claim_order().collect();
    // A place of a kind the order leaves out still shows, last.
    for p in lvl.places.iter().filter(|p| !p.kind.special()) {
        if !order.iter().any(|q| q.id == p.id) {
            order.push(p);
        }
    }
    // Each box's frame adds its margins and the row its spacing: 24 points a box.
    let width = (ui.available_width() / 3.0 - 24.0).max(200.0);
    for (row, chunk) in order.chunks(3).enumerate() {
        ui.horizontal_top(|ui| {
            for (i, p) in chunk.iter().enumerate() {
                place(ui, b, p, row * 3 + i + 1, width, cx, pick);
            }
        });
    }
}

/// One place: its name and order, the kinds it admits, its slots, its cards.
fn place(
    ui: &mut egui::Ui,
    b: Seen,
    p: &Place,
    order: usize,
    width: f32,
    cx: &mut TableCx,
    pick: &mut Pick,
) {
    let Seen { s, lvl, legal } = b;
    let tr = cx.tr;
    let claimed_here = cx
        .showing
        .filter(|(at, _)| at.x == p.at.0 && at.y == p.at.1)
        .map(|(_, lines)| lines.to_vec());
    let stroke = if claimed_here.is_some() {
        egui::Stroke::new(3.0, Color32::from_rgb(255, 230, 110))
    } else {
        egui::Stroke::new(1.0, pieces::EDGE)
    };
    let board = s.boards.get(&p.id);
    egui::Frame::group(ui.style())
        .stroke(stroke)
        // No fill of its own: on a software renderer every layer of paint over the cloth
        // costs its area again each frame.
        .show(ui, |ui| {
          ui.vertical(|ui| {
            ui.set_width(width);
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("{order}. {}", tr.t(&p.name))).strong());
                // The kinds it admits (M6, M7): recruits, and its veterans.
                let admits: Vec<(Figure, u32)> = Merc::ALL
                    .into_iter()
                    .filter(|k| !k.veteran() || p.veterans.contains(k))
                    .map(|k| (figure_of(k), 1))
                    .collect();
                let r = pieces::figures(ui, &admits, Color32::from_gray(170), 16.0);
                ui.interact(r, ui.id().with(("admits", &p.id)), egui::Sense::hover())
                    .on_hover_text(tr.t("Who may go there (M6, M7)"));
                // Its decks face down, as the seed shows them: how many cards are left.
                let left: usize = p
                    .decks
                    .iter()
                    .filter_map(|d| s.decks.get(d).map(Vec::len))
                    .fold(0, usize::saturating_add);
                if !p.decks.is_empty() {
                    ui.label(
                        egui::RichText::new(tr.f("deck: {}", &[&left]))
                        .small()
                        .color(Color32::from_gray(170)),
                    );
                }
            });
            // The slots, each numbered with the size of group it takes (M2, M4).
            ui.horizontal(|ui| {
                for (i, n) in p.slots.iter().enumerate() {
                    let on = board.and_then(|b| b.slots.get(i)).and_then(|x| x.as_ref());
                    let here = (p.id.clone(), i);
                    // What a click on this slot does depends on the pick: a send, a group the
                    // Chief may recall, or where a recalled group goes (the slot it left too).
                    let open = match &*pick {
                        Pick::Chief => legal
                            .iter()
                            .filter_map(|(_, m)| m.recall())
                            .any(|r| r.from == here),
                        Pick::Recall(f) | Pick::Slot { from: Some(f), .. } => legal
                            .iter()
                            .filter_map(|(_, m)| m.recall())
                            .any(|r| r.from == *f && r.to == here),
                        _ => legal.iter().any(|(_, m)| {
                            matches!(m, MercAction::Send { place, slot, .. } if *place == p.id && *slot == i)
                        }),
                    };
                    let chosen = match &*pick {
                        Pick::Slot { place, slot, .. } => *place == p.id && *slot == i,
                        Pick::Recall(f) => *f == here,
                        _ => false,
                    };
                    let recalled = match &*pick {
                        Pick::Recall(f) | Pick::Slot { from: Some(f), .. } => *f == here,
                        _ => false,
                    };
                    let state = match (on, chosen, open) {
                        (_, true, _) => SlotState::Chosen,
                        (_, false, true) => SlotState::Legal,
                        (Some(_), _, _) => SlotState::Taken,
                        _ => SlotState::Empty,
                    };
                    // The group being recalled shows as gone from where it stood.
                    let on = if recalled { None } else { on };
                    let (standing, fill) = match on {
                        Some(st) => (kinds(&st.group), owner_colour(cx, st.owner)),
                        None => (Vec::new(), Color32::GRAY),
                    };
                    let r = pieces::slot(ui, *n, state, &standing, fill, 46.0, cx.palette);
                    let r = match on {
                        Some(st) => r.on_hover_text(format!(
                            "{}: {}",
                            owner_name(cx, st.owner),
                            group(tr, &st.group)
                        )),
                        None => r,
                    };
                    if open {
                        cx.target(format!("slot:{}:{i}", p.id), &r);
                    }
                    if r.clicked() && open {
                        *pick = match &*pick {
                            Pick::Chief => Pick::Recall(here),
                            Pick::Recall(f) | Pick::Slot { from: Some(f), .. } => Pick::Slot {
                                place: p.id.clone(),
                                slot: i,
                                group: [0; 4],
                                from: Some(f.clone()),
                            },
                            _ if chosen => Pick::Nothing,
                            _ => Pick::Slot {
                                place: p.id.clone(),
                                slot: i,
                                group: [0; 4],
                                from: None,
                            },
                        };
                    }
                }
            });
            // Its cards face up; a claimed card leaves an empty frame.
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing = Vec2::new(4.0, 4.0);
                let cards = board.map(|b| b.cards.as_slice()).unwrap_or_default();
                let w = ((width - 30.0) / cards.len().max(1) as f32).clamp(70.0, 96.0);
                let faces: Vec<Option<CardFace>> = cards
                    .iter()
                    .map(|c| c.as_deref().and_then(|id| lvl.card(id)).map(|card| face(cx, card, p.kind)))
                    .collect();
                // The row takes its tallest card's height: every line of every card shows.
                let h = faces
                    .iter()
                    .flatten()
                    .map(|f| pieces::card_height(ui, f, w, 62.0))
                    .fold(62.0, f32::max);
                for f in &faces {
                    match f {
                        Some(f) => {
                            pieces::card(ui, f, CardState::default(), Vec2::new(w, h), cx.palette);
                        }
                        None => {
                            let (r, _) = ui.allocate_exact_size(Vec2::new(w, h), egui::Sense::hover());
                            ui.painter().rect_stroke(
                                r,
                                egui::CornerRadius::same(5),
                                egui::Stroke::new(1.0, Color32::from_gray(90)),
                                egui::StrokeKind::Inside,
                            );
                        }
                    }
                }
            });
            if let Some(lines) = claimed_here {
                for l in lines {
                    ui.label(egui::RichText::new(l).color(Color32::from_rgb(255, 230, 110)));
                }
            }
          });
        });
}

/// The group composer for the slot picked: a stepper per kind the slot can take, bounded by
/// the reserve and the slot's number; only a group the rules accept confirms. The legal
/// groups are offered ready-made too.
fn composer(ui: &mut egui::Ui, b: Seen, cx: &mut TableCx, pick: &mut Pick) -> Option<Action> {
    let Seen { s, lvl, legal } = b;
    let tr = cx.tr;
    let Pick::Slot {
        place,
        slot,
        group: g,
        from,
    } = pick
    else {
        // M1: the rules' legal actions say when a seat may pass (under rules version 3, only
        // when it can take none of the three actions; a swap alone does not keep it in); the
        // board says why when that is so.
        if cx.step == super::ACTION_STEP
            && cx.to_play == Some(cx.seat)
            && cx.legal.contains(&Action::Pass)
        {
            let only_swaps = legal
                .iter()
                .all(|(_, m)| matches!(m, MercAction::Swap { .. }));
            let mut passed = None;
            ui.horizontal(|ui| {
                if only_swaps {
                    ui.label(
                        egui::RichText::new(tr.t(
                            "No slot, assistant or special place is left to you this round (M1).",
                        ))
                        .color(pieces::target_colour(cx.palette)),
                    );
                }
                let b = ui.button(tr.t("Pass"));
                cx.target("pass", &b);
                if b.clicked() {
                    passed = Some(Action::Pass);
                }
            });
            if passed.is_some() || only_swaps {
                return passed;
            }
        }
        if legal
            .iter()
            .any(|(_, m)| matches!(m, MercAction::Send { .. }))
        {
            ui.label(
                egui::RichText::new(tr.t(
                    "Click a lit slot to send a group there: its number is the group's size (M4).",
                ))
                .color(pieces::target_colour(cx.palette)),
            );
        }
        return None;
    };
    let p = lvl.place(place)?;
    let number = *p.slots.get(*slot)?;
    let options: Vec<(&Action, Group)> = legal
        .iter()
        .filter_map(|&(a, ref m)| match (m, &*from) {
            (
                MercAction::Send {
                    place: q,
                    slot: i,
                    group,
                },
                None,
            ) if q == place && i == slot => Some((a, *group)),
            (m, Some(f)) => m
                .recall()
                .filter(|r| r.from == *f && r.to.0 == *place && r.to.1 == *slot)
                .map(|r| (a, r.group)),
            _ => None,
        })
        .collect();
    let mut reserve = s
        .seats
        .get(&cx.seat)
        .map(|sh| sh.reserve)
        .unwrap_or_default();
    // A recalled group is back in the reserve it is formed again from.
    if let Some((fp, fi)) = &*from
        && let Some(st) = s
            .boards
            .get(fp)
            .and_then(|b| b.slots.get(*fi))
            .and_then(|x| x.as_ref())
    {
        for k in Merc::ALL {
            reserve[k.ix()] = reserve[k.ix()].saturating_add(st.group[k.ix()]);
        }
    }
    let mut asked = None;
    let mut cancel = false;
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, pieces::target_colour(cx.palette)))
        .show(ui, |ui| {
            ui.label(
                egui::RichText::new(tr.f(
                    "A group of {} for {}, slot {}",
                    &[&number, &tr.t(&p.name), &(slot.saturating_add(1))],
                ))
                .strong(),
            );
            ui.horizontal(|ui| {
                for k in Merc::ALL {
                    // A kind shows when some legal group holds it.
                    if !options.iter().any(|(_, o)| o[k.ix()] > 0) {
                        continue;
                    }
                    let mut more = *g;
                    more[k.ix()] = more[k.ix()].saturating_add(1);
                    let can_add = options.iter().any(|(_, o)| (0..4).all(|j| o[j] >= more[j]));
                    ui.vertical(|ui| {
                        let (r, _) =
                            ui.allocate_exact_size(Vec2::new(22.0, 26.0), egui::Sense::hover());
                        pieces::figure(
                            ui.painter(),
                            r,
                            figure_of(k),
                            pieces::seat_colour(cx.seat, cx.palette),
                        );
                        ui.label(
                            egui::RichText::new(
                                tr.f("{} of {} in reserve", &[&g[k.ix()], &reserve[k.ix()]]),
                            )
                            .small(),
                        );
                    });
                    ui.vertical(|ui| {
                        let plus = pieces::stepper(ui, "+", can_add).on_hover_text(merc(tr, k, 1));
                        cx.target(format!("plus:{k:?}"), &plus);
                        if plus.clicked() && can_add {
                            *g = more;
                        }
                        let minus = pieces::stepper(ui, "−", g[k.ix()] > 0);
                        cx.target(format!("minus:{k:?}"), &minus);
                        if minus.clicked() && g[k.ix()] > 0 {
                            g[k.ix()] -= 1;
                        }
                    });
                    ui.add_space(8.0);
                }
                ui.add_space(12.0);
                let ready = options.iter().find(|(_, o)| o == g);
                ui.vertical(|ui| {
                    let left = number.saturating_sub(size(g));
                    ui.label(if ready.is_some() {
                        tr.t("Ready.").into_owned()
                    } else {
                        tr.p("{} more to place|{} more to place", left as u64, &[&left])
                    });
                    ui.horizontal(|ui| {
                        let ok = ui.add_enabled(ready.is_some(), egui::Button::new(tr.t("Send")));
                        cx.target("confirm", &ok);
                        if ok.clicked()
                            && let Some((a, _)) = ready
                        {
                            asked = Some((*a).clone());
                        }
                        let c = ui.button(tr.t("Cancel"));
                        cx.target("cancel", &c);
                        if c.clicked() {
                            cancel = true;
                        }
                    });
                });
            });
            // The legal groups, ready-made.
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(tr.t("Or:")).small());
                for (i, (_, o)) in options.iter().enumerate().take(8) {
                    let b = ui.button(group(tr, o));
                    cx.target(format!("pick:{i}"), &b);
                    if b.clicked() {
                        *g = *o;
                    }
                }
            });
        });
    if cancel {
        *pick = Pick::Nothing;
    }
    asked
}

/// Each seat's sheet and the poachers': reserve as figures, equipment, Flame, glory, what it
/// won; the seat at the screen's equipment swap (M9).
fn sheets(ui: &mut egui::Ui, b: Seen, cx: &mut TableCx) -> Option<Action> {
    let Seen { s, lvl, legal } = b;
    let tr = cx.tr;
    let mut asked = None;
    let all_flame: u32 = s
        .seats
        .values()
        .map(|sh| sh.flame)
        .fold(s.poachers.flame, u32::saturating_add);
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(tr.f("Flame of all: {}", &[&all_flame])).strong());
        if lvl.flame.per_attempt > 0 {
            ui.label(
                egui::RichText::new(tr.f(
                    "every {} Flame: one more corruption attempt for Chaos (R6)",
                    &[&lvl.flame.per_attempt],
                ))
                .small(),
            );
        }
    });
    let width = (ui.available_width() / (s.seats.len() + 1) as f32 - 24.0).max(150.0);
    ui.horizontal_top(|ui| {
        for (seat, sh) in &s.seats {
            let o = Owner::Seat(*seat);
            let swap = if *seat == cx.seat { Some(legal) } else { None };
            if let Some(a) = sheet(ui, sh, o, lvl, width, swap, cx) {
                asked = Some(a);
            }
        }
        sheet(ui, &s.poachers, Owner::Poachers, lvl, width, None, cx);
    });
    asked
}

fn sheet(
    ui: &mut egui::Ui,
    sh: &Sheet,
    o: Owner,
    lvl: &MercLevel,
    width: f32,
    swap: Option<&[(&Action, MercAction)]>,
    cx: &mut TableCx,
) -> Option<Action> {
    let tr = cx.tr;
    let colour = owner_colour(cx, o);
    let mut asked = None;
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.5, colour))
        .show(ui, |ui| {
            ui.vertical(|ui| {
                ui.set_width(width);
                ui.label(
                    egui::RichText::new(owner_name(cx, o))
                        .strong()
                        .color(colour),
                );
                pieces::figures(ui, &kinds(&sh.reserve), colour, 22.0);
                if size(&sh.reserve) == 0 {
                    ui.label(egui::RichText::new(tr.t("reserve empty")).small());
                }
                ui.label(
                    egui::RichText::new(tr.f(
                        "equipment {} · Flame {} · glory {}",
                        &[&sh.equipment, &sh.flame, &sh.glory],
                    ))
                    .small(),
                );
                if let Owner::Seat(_) = o {
                    ui.label(
                        egui::RichText::new(tr.f("at the end: {} glory", &[&final_glory(lvl, sh)]))
                            .small(),
                    );
                }
                let won: Vec<String> = sh
                    .won()
                    .filter_map(|c| lvl.card(c).map(|c| tr.t(&c.name).into_owned()))
                    .collect();
                if !won.is_empty() {
                    ui.label(egui::RichText::new(won.join(", ")).small().italics());
                }
                if let Some(legal) = swap {
                    asked = swap_row(ui, legal, cx);
                }
            });
        });
    asked
}

/// M9 on the seat's sheet: one equipment token, one mercenary of the reserve for another kind.
fn swap_row(
    ui: &mut egui::Ui,
    legal: &[(&Action, MercAction)],
    cx: &mut TableCx,
) -> Option<Action> {
    let tr = cx.tr;
    let swaps: Vec<(&Action, Merc, Merc)> = legal
        .iter()
        .filter_map(|&(a, ref m)| match m {
            MercAction::Swap { from, to } => Some((a, *from, *to)),
            _ => None,
        })
        .collect();
    if swaps.is_empty() {
        return None;
    }
    let id = egui::Id::new("mercenaries_swap");
    let first = SwapPick(swaps[0].1, swaps[0].2);
    let SwapPick(mut from, mut to) = ui.data(|d| d.get_temp(id)).unwrap_or(first);
    let mut asked = None;
    ui.label(egui::RichText::new(tr.t("Exchange (M9):")).small());
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("swap_from")
            .width(84.0)
            .selected_text(merc(tr, from, 1))
            .show_ui(ui, |ui| {
                for k in Merc::ALL {
                    if swaps.iter().any(|(_, f, _)| *f == k) {
                        ui.selectable_value(&mut from, k, merc(tr, k, 1));
                    }
                }
            });
        ui.label(tr.t("for"));
    });
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("swap_to")
            .width(84.0)
            .selected_text(merc(tr, to, 1))
            .show_ui(ui, |ui| {
                for k in Merc::ALL {
                    ui.selectable_value(&mut to, k, merc(tr, k, 1));
                }
            });
        let this = swaps.iter().find(|(_, f, t)| *f == from && *t == to);
        let b = ui.add_enabled(this.is_some(), egui::Button::new(tr.t("Exchange")));
        cx.target("swap", &b);
        if b.clicked()
            && let Some((a, _, _)) = this
        {
            asked = Some((*a).clone());
        }
    });
    ui.data_mut(|d| d.insert_temp(id, SwapPick(from, to)));
    asked
}
