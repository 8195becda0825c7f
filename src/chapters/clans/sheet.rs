//! The chapter's table (`view::table`): the clan sheet as the seed draws it, and the call to
//! battle as a face-off.
//!
//! The seat's own sheet: its three levels (Rage, Axes, Horns) as tracks with the level reached
//! filled, its eight card frames (warriors, leader, ship, two monsters, three clan) with the
//! upgrade placed in each, its reserve and Valhalla as figures, its hand face up and its quests
//! face down with what each asks and where the clan stands now (C10, C12). The other clans'
//! sheets the same, smaller, their hands and quests face down (the rules hide them: the state
//! the table is given holds `?` for them).
//!
//! Played by the card: a card of the hand that the rules let the seat use now is lit; clicked,
//! its uses light up: the slots it may go on (the card it would discard there named, C3), its
//! quest (C9), its play in the battle (C17); a slot clicked where the upgrade's figure may
//! invade at once (C5, C6) then offers where. Pillages are clicked on the map (`map`). Every
//! target is one the rules' legal actions hold.

use bevy_egui::egui::{self, Color32, Vec2};

use crate::rules::Action;
use crate::text::Translations;
use crate::view::chapter_map::Mark;
use crate::view::table::TableCx;
use crate::view::table::pieces::{self, CardFace, CardState, Figure};

use super::ClanAction;
use super::battle::sides;
use super::data::{Boost, CardKind, ClanLevel, Fig, Need, SHEET, Slot, Track};
use super::phases::{met, str_in};
use super::state::{Clans, HIDDEN, Owner, Sheet, Stage};
use super::words::{fig, named, slot, spot, track};

/// What the player is choosing, kept between frames.
#[derive(Debug, Clone, Default, PartialEq)]
enum Pick {
    /// Nothing yet.
    #[default]
    Nothing,
    /// A card of the hand, by id: its uses lit.
    Card(String),
    /// An upgrade onto this slot whose figure may invade: where.
    Invade(String, usize),
}

/// A card's width and least height on the sheet.
const CARD: Vec2 = Vec2::new(92.0, 84.0);

fn owner_colour(cx: &TableCx, o: Owner) -> Color32 {
    match o {
        Owner::Seat(s) => pieces::seat_colour(s, cx.palette),
        Owner::Chaos => pieces::chaos_colour(cx.palette),
    }
}

/// How a clan is named in the pieces a check reads (`0`, `1`, `chaos`).
fn owner_key(o: Owner) -> String {
    match o {
        Owner::Seat(s) => s.to_string(),
        Owner::Chaos => "chaos".into(),
    }
}

fn owner_name(cx: &TableCx, o: Owner) -> String {
    match o {
        Owner::Seat(s) => cx.player(s),
        Owner::Chaos => cx.tr.t("Chaos").into_owned(),
    }
}

fn figure(f: &Fig) -> Figure {
    match f {
        Fig::Warrior => Figure::Warriors,
        Fig::Leader => Figure::Leader,
        Fig::Ship => Figure::Ship,
        Fig::Monster(_) => Figure::Monster,
    }
}

/// Figures counted by kind, in the order they come.
fn counted(figs: &[Fig]) -> Vec<(Figure, u32)> {
    let mut v: Vec<(Figure, u32)> = Vec::new();
    for f in figs {
        let k = figure(f);
        match v.iter_mut().find(|(x, _)| *x == k) {
            Some(e) => e.1 += 1,
            None => v.push((k, 1)),
        }
    }
    v
}

/// A band colour per kind of slot (the cards that go there carry it).
fn band(s: Slot) -> Color32 {
    match s {
        Slot::Warriors => Color32::from_rgb(170, 60, 60),
        Slot::Leader => Color32::from_rgb(200, 150, 60),
        Slot::Ship => Color32::from_rgb(60, 110, 170),
        Slot::Monsters => Color32::from_rgb(110, 70, 150),
        Slot::Clan => Color32::from_rgb(70, 140, 90),
    }
}

/// What a boost gives, a line each.
fn boost_lines(tr: &Translations, b: &Boost) -> Vec<String> {
    let mut v = Vec::new();
    for (n, words) in [
        (b.warrior, "+{} STR each warrior"),
        (b.leader, "+{} STR leader"),
        (b.ship, "+{} STR ship"),
        (b.monster, "+{} STR each monster"),
        (b.rage, "+{} Rage a cycle"),
        (b.win, "+{} glory a battle won"),
        (b.release, "+{} glory a release"),
        (b.pillage, "+{} glory a pillage"),
    ] {
        if n > 0 {
            v.push(tr.f(words, &[&n]));
        }
    }
    v
}

/// What a quest asks, in words.
fn need_words(tr: &Translations, n: &Need) -> String {
    match n {
        Need::MostStrIn(ps) => {
            let names: Vec<String> = ps.iter().map(|p| named(tr, p)).collect();
            tr.f("highest STR in {}", &[&names.join(" / ")])
        }
        Need::OnBoard(k) => tr.f("{} figures on the board", &[k]),
        Need::Won(k) => tr.f("{} battles won this cycle", &[k]),
        Need::Pillaged(k) => tr.f("{} provinces pillaged this cycle", &[k]),
    }
}

/// Where `o` stands now on a quest's need (C12), in words: "Jotunheim: you 5, Chaos 3".
fn standing(cx: &TableCx, lvl: &ClanLevel, s: &Clans, o: Owner, n: &Need) -> String {
    let tr = cx.tr;
    let sheet = s.sheet(o);
    match n {
        Need::MostStrIn(ps) => ps
            .iter()
            .map(|p| {
                let v = str_in(lvl, s, p);
                let mine = v.iter().find(|(w, _)| *w == o).map_or(0, |e| e.1);
                let best = v.iter().filter(|(w, _)| *w != o).max_by_key(|e| e.1);
                match best {
                    Some((w, k)) => tr.f(
                        "{}: you {}, {} {}",
                        &[&named(tr, p), &mine, &owner_name(cx, *w), k],
                    ),
                    None => tr.f("{}: you {}, no one else", &[&named(tr, p), &mine]),
                }
            })
            .collect::<Vec<_>>()
            .join(" · "),
        Need::OnBoard(_) => tr.f("now {}", &[&s.on_board(o)]),
        Need::Won(_) => tr.f("now {}", &[&sheet.map_or(0, |x| x.won)]),
        Need::Pillaged(_) => tr.f("now {}", &[&sheet.map_or(0, |x| x.pillaged)]),
    }
}

/// A card's face as the sheet shows it.
fn face(tr: &Translations, lvl: &ClanLevel, id: &str) -> CardFace {
    let Some(c) = lvl.card(id) else {
        return CardFace {
            title: named(tr, id),
            ..CardFace::default()
        };
    };
    let (lines, band_of) = match &c.kind {
        CardKind::Upgrade { slot: s, boost } => {
            let mut l = vec![slot(tr, *s)];
            l.extend(boost_lines(tr, boost));
            (l, band(*s))
        }
        CardKind::Monster(m) => {
            let mut l = vec![tr.t("monster").into_owned()];
            if let Some(m) = lvl.monster(m) {
                l.push(tr.f("STR {}", &[&m.str]));
                l.extend(boost_lines(tr, &m.boost));
            }
            (l, band(Slot::Monsters))
        }
        CardKind::Quest(q) => {
            let mut l = vec![tr.t("quest").into_owned(), need_words(tr, &q.need)];
            if let Some(t) = q.level {
                l.push(tr.f("+1 {}", &[&track(tr, t)]));
            }
            (l, Color32::from_rgb(210, 180, 80))
        }
        CardKind::Battle => (
            vec![tr.t("battle card").into_owned()],
            Color32::from_rgb(120, 120, 130),
        ),
    };
    let corner = match &c.kind {
        CardKind::Quest(q) if q.glory > 0 => Some(q.glory.to_string()),
        _ if c.str > 0 => Some(c.str.to_string()),
        _ => None,
    };
    CardFace {
        title: tr.t(&c.name).into_owned(),
        lines,
        corner,
        band: band_of,
    }
}

/// The sheet and the face-off; the action a click asks for.
pub fn draw(ui: &mut egui::Ui, s: &Clans, cx: &mut TableCx) -> Option<Action> {
    let lvl = cx
        .db
        .level_fields::<ClanLevel>(cx.level)
        .unwrap_or_default();
    let legal: Vec<(&Action, ClanAction)> = cx.legal_of::<ClanAction>();
    let pick_id = egui::Id::new("clans_pick");
    let mut pick: Pick = ui.data(|d| d.get_temp(pick_id)).unwrap_or_default();
    // A pick the rules no longer offer (the turn moved on, an undo) is dropped.
    if pick != Pick::Nothing && uses(&legal, &pick).next().is_none() {
        pick = Pick::Nothing;
    }
    let mut asked = None;
    let me = Owner::Seat(cx.seat);
    let showing = shown(ui, &lvl, cx);
    // While the show resolves the battle of the call, its lines take the face-off's place: the
    // face-off is the state from before, its cards still face down.
    let resolving = s
        .call
        .as_ref()
        .is_some_and(|c| showing == Some(c.province.as_str()));
    if s.call.is_some() && !resolving {
        asked = asked.or(face_off(ui, s, &lvl, cx, &legal));
        ui.add_space(6.0);
    }
    if let Some(sh) = s.sheet(me) {
        asked = asked.or(own_sheet(ui, s, sh, &lvl, cx, &legal, &mut pick));
    }
    ui.add_space(6.0);
    for (o, sh) in s.sheets.iter().filter(|(o, _)| **o != me) {
        other_sheet(ui, s, *o, sh, &lvl, cx);
    }
    if asked.is_some() {
        pick = Pick::Nothing;
    }
    ui.data_mut(|d| d.insert_temp(pick_id, pick));
    asked
}

/// The hex a figure invading `to` is shown on: the province's middle, a fjord's first hex.
fn spot_hex(lvl: &ClanLevel, to: &super::state::Spot) -> Option<hexx::Hex> {
    match to {
        super::state::Spot::Province(p) => lvl.province(p).map(|p| super::map::middle(&p.hexes)),
        super::state::Spot::Fjord(f) => lvl
            .fjords
            .iter()
            .find(|x| x.id == *f)
            .and_then(|x| x.hexes.first())
            .map(|h| hexx::Hex::new(h.0, h.1)),
    }
}

/// What the show plays on the map now (a battle resolved step by step, a pillage), framed in
/// gold at the top of the sheet, which covers the map while it is open: the province, and the
/// lines come so far, the newest bright; the province's id.
fn shown<'l>(ui: &mut egui::Ui, lvl: &'l ClanLevel, cx: &TableCx) -> Option<&'l str> {
    let (at, lines) = cx.showing?;
    let p = lvl
        .provinces
        .iter()
        .find(|p| p.hexes.contains(&(at.x, at.y)))?;
    let tr = cx.tr;
    let gold = Color32::from_rgb(255, 214, 90);
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, gold))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(
                egui::RichText::new(tr.f("On the map: {}", &[&tr.t(&p.name)]))
                    .strong()
                    .size(15.0)
                    .color(gold),
            );
            for (i, l) in lines.iter().enumerate() {
                let newest = i + 1 == lines.len();
                ui.label(
                    egui::RichText::new(l)
                        .size(if newest { 15.0 } else { 13.0 })
                        .color(if newest {
                            Color32::WHITE
                        } else {
                            Color32::from_gray(175)
                        }),
                );
            }
        });
    ui.add_space(6.0);
    Some(p.id.as_str())
}

/// The legal actions a pick still leads to (everything while nothing is picked).
fn uses<'a>(
    legal: &'a [(&'a Action, ClanAction)],
    pick: &'a Pick,
) -> impl Iterator<Item = &'a (&'a Action, ClanAction)> + 'a {
    legal.iter().filter(move |(_, m)| match pick {
        Pick::Nothing => true,
        Pick::Card(c) => card_of(m) == Some(c.as_str()),
        Pick::Invade(c, i) => {
            matches!(m, ClanAction::Upgrade { card, slot, .. } if card == c && slot == i)
        }
    })
}

/// The card of the hand an action plays, if it plays one.
fn card_of(m: &ClanAction) -> Option<&str> {
    match m {
        ClanAction::Upgrade { card, .. } | ClanAction::Quest { card } => Some(card),
        ClanAction::Play { card: Some(card) } => Some(card),
        _ => None,
    }
}

/// The seat's own sheet, with its hand and quests; a click's action.
fn own_sheet(
    ui: &mut egui::Ui,
    s: &Clans,
    sh: &Sheet,
    lvl: &ClanLevel,
    cx: &mut TableCx,
    legal: &[(&Action, ClanAction)],
    pick: &mut Pick,
) -> Option<Action> {
    let tr = cx.tr;
    let me = Owner::Seat(cx.seat);
    let mut asked = None;
    ui.label(
        egui::RichText::new(tr.f("Your clan ({})", &[&owner_name(cx, me)]))
            .strong()
            .size(15.0)
            .color(owner_colour(cx, me)),
    );
    tracks(ui, sh, lvl, cx);
    // Pillages are clicked on the map, which the board covers: say where (C13).
    let pillages: Vec<String> = legal
        .iter()
        .filter_map(|(_, m)| match m {
            ClanAction::Pillage { province } => Some(named(tr, province)),
            _ => None,
        })
        .collect();
    if !pillages.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                egui::RichText::new(tr.f(
                    "You may pillage {}: click its token, ringed in gold on the map (C13)",
                    &[&pillages.join(", ")],
                ))
                .color(pieces::target_colour(cx.palette)),
            );
            let r = ui.button(tr.t("Show the map (B)"));
            cx.target("board:close", &r);
            if r.clicked() {
                cx.close_board();
            }
        });
    }
    // The eight frames (C1): a lit frame takes the picked card.
    let picked = match pick {
        Pick::Card(c) => Some(c.clone()),
        _ => None,
    };
    ui.horizontal_top(|ui| {
        for (i, k) in SHEET.iter().enumerate() {
            let on = sh.slots.get(i).and_then(|c| c.as_deref());
            let onto: Vec<&(&Action, ClanAction)> = legal
                .iter()
                .filter(|(_, m)| {
                    matches!(m, ClanAction::Upgrade { card, slot, .. }
                        if Some(card) == picked.as_ref() && *slot == i)
                })
                .collect();
            ui.vertical(|ui| {
                ui.set_width(CARD.x);
                ui.label(egui::RichText::new(format!("{} {}", i + 1, slot(tr, *k))).small());
                let state = CardState {
                    target: !onto.is_empty(),
                    ..CardState::default()
                };
                let r = match on {
                    Some(c) => {
                        let f = face(tr, lvl, c);
                        let h = pieces::card_height(ui, &f, CARD.x, CARD.y);
                        pieces::card(ui, &f, state, Vec2::new(CARD.x, h), cx.palette)
                    }
                    None => {
                        let f = CardFace {
                            title: String::new(),
                            lines: vec![tr.t("empty").into_owned()],
                            corner: None,
                            band: band(*k).gamma_multiply(0.4),
                        };
                        let st = CardState { dim: true, ..state };
                        pieces::card(ui, &f, st, CARD, cx.palette)
                    }
                };
                if !onto.is_empty() {
                    // The card it would discard (C3).
                    let r = match on {
                        Some(c) => r.on_hover_text(tr.f("discards {}", &[&named(tr, c)])),
                        None => r,
                    };
                    cx.target(format!("slot:{i}"), &r);
                    if r.clicked() {
                        let invades = onto.iter().any(|(_, m)| {
                            matches!(
                                m,
                                ClanAction::Upgrade {
                                    invade: Some(_),
                                    ..
                                }
                            )
                        });
                        match (&picked, invades) {
                            (Some(c), true) => *pick = Pick::Invade(c.clone(), i),
                            _ => asked = onto.first().map(|(a, _)| (*a).clone()),
                        }
                    }
                }
            });
        }
    });
    // Where the upgrade's figure invades at once, or not at all (C5, C6).
    if let Pick::Invade(c, i) = pick.clone() {
        ui.horizontal_wrapped(|ui| {
            ui.label(tr.f(
                "{} on slot {}: its figure invades",
                &[&named(tr, &c), &(i + 1)],
            ));
            for (a, m) in legal {
                let ClanAction::Upgrade {
                    card,
                    slot: k,
                    invade,
                } = m
                else {
                    continue;
                };
                if *card != c || *k != i {
                    continue;
                }
                let (words, name) = match invade {
                    Some(to) => (spot(tr, to), format!("invade:{}", to.id())),
                    None => (tr.t("not now").into_owned(), "invade:none".to_string()),
                };
                // The same choice on the map: the province (or fjord) ringed, a click there.
                if let Some(to) = invade
                    && let Some(at) = spot_hex(lvl, to)
                {
                    cx.offer_on_map([
                        Mark::Ring {
                            at,
                            size: 0.8,
                            rgba: [250, 215, 110, 240],
                        },
                        Mark::Label {
                            at,
                            text: tr.f("{}: click to invade", &[&spot(tr, to)]),
                            dy: -26.0,
                            rgba: [250, 215, 110, 255],
                        },
                        Mark::Choice {
                            at,
                            name: name.clone(),
                            action: (*a).clone(),
                        },
                    ]);
                }
                let r = ui.button(words);
                cx.target(name, &r);
                if r.clicked() {
                    asked = Some((*a).clone());
                }
            }
            if ui.button(tr.t("Cancel")).clicked() {
                *pick = Pick::Nothing;
            }
            let r = ui.button(tr.t("Choose on the map (B)"));
            cx.target("board:close", &r);
            if r.clicked() {
                cx.close_board();
            }
        });
    }
    // The reserve and Valhalla (C5, C7).
    ui.horizontal(|ui| {
        ui.label(tr.t("Reserve"));
        let fill = owner_colour(cx, me);
        if sh.reserve.is_empty() {
            ui.label("—");
        } else {
            pieces::figures(ui, &counted(&sh.reserve), fill, 24.0);
        }
        ui.add_space(12.0);
        ui.label(tr.t("Valhalla"));
        if sh.valhalla.is_empty() {
            ui.label("—");
        } else {
            pieces::figures(ui, &counted(&sh.valhalla), fill.gamma_multiply(0.45), 24.0);
        }
    });
    // The hand (only this seat sees it): a card the rules let it use now is lit.
    ui.label(egui::RichText::new(tr.t("Hand (only you see it)")).strong());
    ui.horizontal_wrapped(|ui| {
        for (i, c) in sh.hand.iter().enumerate() {
            let usable = legal.iter().any(|(_, m)| card_of(m) == Some(c.as_str()));
            let chosen = matches!(pick, Pick::Card(p) if p == c);
            let f = face(tr, lvl, c);
            let h = pieces::card_height(ui, &f, CARD.x, CARD.y);
            let st = CardState {
                target: usable,
                marked: chosen,
                ..CardState::default()
            };
            let r = pieces::card(ui, &f, st, Vec2::new(CARD.x, h), cx.palette);
            cx.piece(format!("hand:{}:{c}", cx.seat), &r);
            if usable {
                cx.target(format!("hand:{i}"), &r);
                if r.clicked() {
                    *pick = if chosen {
                        Pick::Nothing
                    } else {
                        Pick::Card(c.clone())
                    };
                }
            }
        }
        if sh.hand.is_empty() {
            ui.label("—");
        }
    });
    // The picked card's uses besides a slot: its quest, its play in the battle.
    if let Pick::Card(c) = pick.clone() {
        ui.horizontal_wrapped(|ui| {
            for (a, m) in legal {
                let (words, name) = match m {
                    ClanAction::Quest { card } if *card == c => {
                        (tr.t("Lay it face down as a quest (C9)"), "use:quest")
                    }
                    ClanAction::Play { card: Some(card) } if *card == c => {
                        (tr.t("Play it face down in the battle (C17)"), "use:battle")
                    }
                    _ => continue,
                };
                let r = ui.button(words);
                cx.target(name, &r);
                if r.clicked() {
                    asked = Some((*a).clone());
                }
            }
            if legal
                .iter()
                .any(|(_, m)| matches!(m, ClanAction::Upgrade { card, .. } if *card == c))
            {
                ui.label(egui::RichText::new(tr.t("or click a lit slot of your sheet")).italics());
            }
        });
    }
    // The quests, face down: what each asks and where the clan stands now (C10, C12).
    if !sh.quests.is_empty() {
        ui.label(egui::RichText::new(tr.t("Quests, face down")).strong());
        ui.horizontal_wrapped(|ui| {
            for q in &sh.quests {
                let Some(CardKind::Quest(terms)) = lvl.card(q).map(|c| &c.kind) else {
                    continue;
                };
                let done = met(lvl, s, me, &terms.need);
                let mut f = face(tr, lvl, q);
                f.lines.push(standing(cx, lvl, s, me, &terms.need));
                f.lines.push(if done {
                    tr.t("fulfilled now").into_owned()
                } else {
                    tr.t("not yet").into_owned()
                });
                let h = pieces::card_height(ui, &f, CARD.x + 40.0, CARD.y);
                let st = CardState {
                    marked: done,
                    ..CardState::default()
                };
                let r = pieces::card(ui, &f, st, Vec2::new(CARD.x + 40.0, h), cx.palette);
                cx.piece(format!("quest:{}:{q}", cx.seat), &r);
            }
        });
    }
    asked
}

/// The three levels as tracks: one pip a level, the reached one filled, its value under.
fn tracks(ui: &mut egui::Ui, sh: &Sheet, lvl: &ClanLevel, cx: &TableCx) {
    let tr = cx.tr;
    ui.horizontal(|ui| {
        for t in Track::ALL {
            let steps = lvl.levels.of(t);
            let at = sh.level(t) as usize;
            ui.label(egui::RichText::new(track(tr, t)).strong());
            for (k, v) in steps.iter().enumerate() {
                let (r, resp) = ui.allocate_exact_size(Vec2::new(20.0, 20.0), egui::Sense::hover());
                let p = ui.painter();
                let reached = k == at;
                let fill = if reached {
                    pieces::target_colour(cx.palette)
                } else if k < at {
                    Color32::from_gray(90)
                } else {
                    Color32::from_gray(40)
                };
                p.circle(
                    r.center(),
                    9.0,
                    fill,
                    egui::Stroke::new(1.0, Color32::from_gray(160)),
                );
                p.text(
                    r.center(),
                    egui::Align2::CENTER_CENTER,
                    v.to_string(),
                    egui::FontId::proportional(10.0),
                    if reached {
                        Color32::BLACK
                    } else {
                        Color32::from_gray(200)
                    },
                );
                resp.on_hover_text(tr.f("{} level {}: {}", &[&track(tr, t), &(k + 1), v]));
            }
            ui.add_space(10.0);
        }
    });
}

/// Another clan's sheet: its levels, its slots filled, its figures, its hand and quests face
/// down.
fn other_sheet(
    ui: &mut egui::Ui,
    s: &Clans,
    o: Owner,
    sh: &Sheet,
    lvl: &ClanLevel,
    cx: &mut TableCx,
) {
    let tr = cx.tr;
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(owner_name(cx, o))
                .strong()
                .color(owner_colour(cx, o)),
        );
        for t in Track::ALL {
            ui.label(format!(
                "{} {}",
                track(tr, t),
                lvl.levels.value(t, sh.level(t))
            ));
        }
        ui.label(tr.f("{} on the board", &[&s.on_board(o)]));
    });
    ui.horizontal_top(|ui| {
        for (i, k) in SHEET.iter().enumerate() {
            let on = sh.slots.get(i).and_then(|c| c.as_deref());
            let small = Vec2::new(66.0, 40.0);
            let f = match on {
                Some(c) => CardFace {
                    title: face(tr, lvl, c).title,
                    lines: Vec::new(),
                    corner: None,
                    band: band(*k),
                },
                None => CardFace {
                    lines: vec![slot(tr, *k)],
                    band: band(*k).gamma_multiply(0.4),
                    ..CardFace::default()
                },
            };
            let st = CardState {
                dim: on.is_none(),
                ..CardState::default()
            };
            pieces::card(ui, &f, st, small, cx.palette);
        }
    });
    ui.horizontal(|ui| {
        let fill = owner_colour(cx, o);
        if !sh.reserve.is_empty() {
            pieces::figures(ui, &counted(&sh.reserve), fill, 18.0);
        }
        // Hands and quests face down: the rules hid them (`?`).
        for (n, what, key) in [
            (sh.hand.len(), tr.t("cards in hand"), "back"),
            (sh.quests.len(), tr.t("quests"), "quest_back"),
        ] {
            for _ in 0..n.min(8) {
                let r = pieces::card_back(ui, Vec2::new(20.0, 28.0), cx.palette);
                cx.piece(format!("{key}:{}", owner_key(o)), &r);
            }
            ui.label(format!("{n} {what}"));
        }
        if !sh.valhalla.is_empty() {
            ui.label(tr.f("Valhalla: {}", &[&sh.valhalla.len()]));
        }
    });
}

/// The call to battle as a face-off (C14–C17): each side's figures and STR, the cards played
/// (face down until the battle turns them up), the odds with the cards still hidden; the
/// seat's choices while it is asked (bring a figure, or no one).
fn face_off(
    ui: &mut egui::Ui,
    s: &Clans,
    lvl: &ClanLevel,
    cx: &mut TableCx,
    legal: &[(&Action, ClanAction)],
) -> Option<Action> {
    let tr = cx.tr;
    let c = s.call.as_ref()?;
    let mut asked = None;
    ui.group(|ui| {
        ui.label(
            egui::RichText::new(tr.f(
                "Call to battle: {} pillages {}",
                &[&owner_name(cx, c.pillager), &named(tr, &c.province)],
            ))
            .strong()
            .size(15.0),
        );
        ui.label(match c.stage {
            Stage::Gather => tr.t("Each clan may bring one figure from a bordering province (C14)"),
            Stage::Cards => tr.t("Each clan in the battle plays a card face down (C17)"),
        });
        let (e, ch) = sides(lvl, s, &c.province);
        let spot = super::state::Spot::Province(c.province.clone());
        let here: Vec<_> = s.at(&spot).collect();
        ui.columns(2, |col| {
            for (k, (side, str_, eladrins)) in
                [(tr.t("Eladrins"), e, true), (tr.t("Chaos"), ch, false)]
                    .into_iter()
                    .enumerate()
            {
                let ui = &mut col[k];
                ui.label(egui::RichText::new(tr.f("{}: STR {}", &[&side, &str_])).strong());
                let mut owners: Vec<Owner> = here
                    .iter()
                    .map(|p| p.owner)
                    .filter(|o| o.side() == eladrins)
                    .collect();
                owners.dedup();
                for o in owners {
                    ui.horizontal(|ui| {
                        ui.label(owner_name(cx, o));
                        let figs: Vec<Fig> = here
                            .iter()
                            .filter(|p| p.owner == o)
                            .map(|p| p.fig.clone())
                            .collect();
                        pieces::figures(ui, &counted(&figs), owner_colour(cx, o), 22.0);
                        // Its card: face down until turned up.
                        match c.picks.get(&o) {
                            Some(Some(card)) if card == HIDDEN => {
                                pieces::card_back(ui, Vec2::new(22.0, 32.0), cx.palette)
                                    .on_hover_text(tr.t("a card, face down"));
                            }
                            Some(Some(card)) => {
                                let f = face(tr, lvl, card);
                                pieces::card(
                                    ui,
                                    &f,
                                    CardState::default(),
                                    Vec2::new(70.0, 44.0),
                                    cx.palette,
                                );
                            }
                            Some(None) => {
                                ui.label(tr.t("no card"));
                            }
                            None => {}
                        }
                    });
                }
            }
        });
        if let Some(odds) = super::panel::odds_words(tr, lvl, s, c, (e, ch)) {
            ui.label(odds);
        }
        // The seat's say: a figure to bring, no one, or no card.
        ui.horizontal_wrapped(|ui| {
            for (a, m) in legal {
                let (words, name) = match m {
                    ClanAction::Join { fig: f, from } => (
                        tr.f("Bring {} from {}", &[&fig(tr, f), &named(tr, from)]),
                        format!("join:{from}"),
                    ),
                    ClanAction::Decline => (tr.t("Bring no one").into_owned(), "decline".into()),
                    ClanAction::Play { card: None } => {
                        (tr.t("Play no card").into_owned(), "play:none".into())
                    }
                    _ => continue,
                };
                let r = ui.button(words);
                cx.target(name, &r);
                if r.clicked() {
                    asked = Some((*a).clone());
                }
            }
        });
    });
    asked
}
