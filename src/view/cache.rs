//! What the panels show, worked out from the game state by one exclusive system (the rules'
//! read-only queries need `&mut World`) into three caches, each read by its panels:
//! `HoverCache` (the hovered tile's box and path preview), `SheetCache` (the selection's sheets
//! and the actions list: legal actions, reach, combat odds, improvements) and `GameDigest` (the
//! forecast, victory conditions, log, tracks, chapters' panels and glory). The numbers are the
//! rules' answers (`rules::upkeep::corruption::chance_at`, `combat::battle_odds`…), worded by
//! `text`.

use bevy::prelude::*;
use hexx::Hex;

use super::ViewState;
use crate::content::Camp;
use crate::rules::legal::legal_actions;
use crate::rules::main_phase::activate::reach_preview;
use crate::rules::upkeep::corruption::chance_at;
use crate::rules::upkeep::generation::tile_yield;
use crate::rules::{Army, Cycle, GameWorld, Outcome, Outpost};

/// The hovered tile, for its box and the path preview (worked out again when the pointer
/// moves to another tile or the game moves).
#[derive(Resource, Default)]
pub struct HoverCache {
    /// Lines describing the hovered tile.
    pub lines: Vec<String>,
    /// The path the selected army would take to the hovered tile (R9.4, cheapest), from its
    /// tile; empty when the hovered tile is out of reach.
    pub path: Vec<Hex>,
}

/// The side panel's sheets and the actions list, for the selection (worked out again when the
/// game or the selection moves).
#[derive(Resource, Default)]
pub struct SheetCache {
    /// Legal actions of the Eladrins now (empty while Chaos decides).
    pub legal: Vec<crate::rules::Action>,
    /// Reachable tiles of the selected army with their cost.
    pub reach: Vec<(Hex, u8)>,
    /// On the selected tile, each improvement of the content and the rules' answer to building
    /// it there now (R9.1: one per tile, its terrain and technology, a control zone or a
    /// military unit, no enemy), in the content's order.
    pub improvements: Vec<(String, Result<(), crate::rules::Refusal>)>,
    /// Lines describing the selected tile.
    pub selected: Vec<String>,
    /// Combat preview for each possible attack: (target army, odds).
    pub odds: Vec<(u32, crate::rules::main_phase::combat::BattleOdds)>,
    /// The outpost the panels show: the selected one, else the portal's.
    pub outpost: Option<OutpostSheet>,
    /// The armies on the selected tile, by id.
    pub armies: Vec<ArmySheet>,
}

/// What the panels show of the game as a whole: the forecast, the victory conditions, the log,
/// the tracks, the chapters' panels and the seats' glory (worked out again when the game moves).
#[derive(Resource, Default)]
pub struct GameDigest {
    /// Warnings for the next upkeep (R5, R6), recomputed when the game moves.
    pub forecast: Vec<crate::rules::forecast::Warning>,
    /// What the level asks of the Eladrins beyond the portal (`rules::outcome::conditions`,
    /// the difficulty's share in), each with whether it is met now; recomputed with the
    /// forecast. Empty where the portal alone wins.
    pub victory: Vec<(crate::rules::outcome::Condition, bool)>,
    /// (actions, cycle, step) the forecast was computed at.
    forecast_at: Option<(usize, u32, usize)>,
    /// The last events, newest first, worded in the player's language (worded again only
    /// when the game moves or the language changes, not every frame).
    pub log: Vec<String>,
    /// The chapters' tracks in play, for the track bar (`rules::tracks::rows`).
    pub tracks: Vec<crate::rules::tracks::Row>,
    /// The chapters' own panels, each with its state as the seat at the screen may see it
    /// (`chapter_panel`), and that seat; empty while nobody is at the screen.
    pub chapter_panels: (u8, Vec<super::chapter_panel::Seen>),
    /// The chapters' tables (`table`), as the seat at the screen may see them; kept as they
    /// were while a chapter's show plays, so its claims are seen where they came from.
    pub chapter_tables: Vec<super::table::SeenTable>,
    /// Each seat's glory where a chapter in play counts it (`rules::chapter::glory`), for the
    /// end-of-game window; empty otherwise.
    pub glory: Vec<u32>,
}

/// What the outpost panel shows.
#[derive(Debug, Clone)]
pub struct OutpostSheet {
    /// The outpost.
    pub outpost: Outpost,
    /// Its storage capacity, technologies included (R3.3).
    pub storage: u32,
    /// Everything it can pay with: its stock and what lies in its influence zone (R9.2).
    pub purse: crate::content::Stock,
    /// Building slots of its size.
    pub slots: u32,
}

/// What the army panel shows of one army.
#[derive(Debug, Clone)]
pub struct ArmySheet {
    /// The army.
    pub army: Army,
    /// Its units, one row each.
    pub units: Vec<UnitRow>,
    /// What famine takes off each of its units' rolls (R5.4, `rules::units::attack_malus`).
    pub famine_malus: u8,
}

/// One unit of an army sheet, with the rules' numbers for it.
#[derive(Debug, Clone)]
pub struct UnitRow {
    /// The unit.
    pub unit: crate::rules::units::Unit,
    /// Hit points left, famine counted (`rules::units::hp_left`).
    pub hp: i32,
    /// Its card's hit points.
    pub max_hp: u8,
    /// The d6 each of its attack dice hits on (`rules::units::attack_hit_on`).
    pub hit_on: u8,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HoverCache>()
        .init_resource::<SheetCache>()
        .init_resource::<GameDigest>()
        .add_systems(
            Update,
            refresh_cache
                .in_set(super::screens::ViewSet::Cache)
                // The tables keep the state from before a show that begins this frame.
                .after(super::chapter_show::queue_beats),
        );
}

/// Describes a tile: terrain, move cost, yields, what lies there, corruption and its odds, in
/// the player's language.
pub fn describe_tile(world: &mut World, h: Hex) -> Vec<String> {
    let Some(t) = world.tile(h).cloned() else {
        return vec![];
    };
    let tr = world
        .get_resource::<crate::text::Translations>()
        .cloned()
        .unwrap_or_default();
    let words = |s: &crate::content::Stock| tr.stock(s);
    let db = world.content();
    let mut out = Vec::new();
    let terrain = db.terrain(&t.terrain);
    out.push(format!(
        "({}, {}) {}{}",
        h.x,
        h.y,
        tr.t(terrain.map(|x| x.name.as_str()).unwrap_or("?")),
        if terrain.is_some_and(|x| x.difficult) {
            tr.t(" (difficult)")
        } else {
            "".into()
        }
    ));
    if let Some(c) = crate::rules::main_phase::activate::enter_cost(world, h, false, false) {
        out.push(tr.f("Move cost: {} AP", &[&c]));
    } else {
        out.push(tr.t("Impassable on foot").into_owned());
    }
    let y = tile_yield(world, &t);
    if !y.is_empty() {
        out.push(tr.f("Yields each upkeep: {}", &[&words(&y)]));
    }
    if let Some(w) = &t.improvement {
        let name = db
            .improvement(&w.id)
            .map(|i| tr.t(&i.name).into_owned())
            .unwrap_or(w.id.clone());
        out.push(match (w.timer, w.inactive) {
            (0, false) => tr.f("Improvement: {}", &[&name]),
            (0, true) => tr.f("Improvement: {} (inactive: upkeep unpaid)", &[&name]),
            (n, _) => tr.p(
                "Improvement: {} ({} time marker left)|Improvement: {} ({} time markers left)",
                n as u64,
                &[&name, &n],
            ),
        });
    }
    if !t.lying.is_empty() {
        out.push(tr.f("Lying here: {}", &[&words(&t.lying)]));
    }
    if t.artifact {
        out.push(tr.t("An artifact token lies here").into_owned());
    }
    if let Some(m) = &t.modifier {
        let name = db
            .set
            .exploration
            .iter()
            .find(|c| &c.id == m)
            .map(|c| tr.t(&c.name).into_owned())
            .unwrap_or(m.clone());
        out.push(tr.f("Explored: {}", &[&name]));
    }
    match t.rift {
        crate::rules::Rift::Open => out.push(tr.t("An open rift (R6.1)").into_owned()),
        crate::rules::Rift::Closed => out.push(tr.t("A sealed rift").into_owned()),
        crate::rules::Rift::None => {}
    }
    out.push(crate::text::corruption_chance(&tr, chance_at(world, h)));
    for a in armies_at(world, h) {
        let kinds: Vec<String> = a
            .units
            .iter()
            .map(|u| {
                db.unit(&u.kind)
                    .map_or(u.kind.clone(), |t| tr.t(&t.name).into_owned())
            })
            .collect();
        let camp = match a.camp {
            Camp::Eladrins => tr.f("Eladrin army {}: {}", &[&a.id, &kinds.join(", ")]),
            Camp::Chaos => tr.f("Chaos army {}: {}", &[&a.id, &kinds.join(", ")]),
        };
        out.push(if a.famine > 0 {
            format!("{camp}{}", tr.f(" — famine {}", &[&a.famine]))
        } else {
            camp
        });
    }
    let mut q = world.query::<&Outpost>();
    for o in q.iter(world).filter(|o| o.hex == h) {
        let size = db
            .size(&o.size)
            .map_or(o.size.as_str(), |s| s.name.as_str());
        out.push(tr.f(
            "Outpost {} ({}), stock {}",
            &[&o.name, &tr.t(size), &words(&o.stock)],
        ));
    }
    out
}

/// What the cache was computed from: it is recomputed only when one of these changes.
#[derive(Default, PartialEq, Clone)]
struct CacheKey {
    moves: usize,
    cycle: u32,
    step: usize,
    turn: Option<Camp>,
    activation: Option<u32>,
    selected: Option<Hex>,
    content: usize,
    chronicle: usize,
    /// The language: the lines are worded in it.
    lang: String,
    /// The seat at the screen: a chapter's panel shows what it may see.
    at_screen: Option<u8>,
    /// A chapter's show plays: the tables wait for its end to show the state after it.
    showing: bool,
}

/// The Eladrin army a click on this tile orders (the lowest id, as `input::order_move` picks).
fn eladrin_army_at(world: &mut World, h: Hex) -> Option<Army> {
    world
        .query::<&Army>()
        .iter(world)
        .filter(|a| a.hex == h && a.camp == Camp::Eladrins)
        .min_by_key(|a| a.id)
        .cloned()
}

/// Every army on this tile, by id.
fn armies_at(world: &mut World, h: Hex) -> Vec<Army> {
    let mut v: Vec<Army> = world
        .query::<&Army>()
        .iter(world)
        .filter(|a| a.hex == h)
        .cloned()
        .collect();
    v.sort_by_key(|a| a.id);
    v
}

/// Events the side panel's log shows.
const LOG_LINES: usize = 40;

/// Brings the three caches up to date: the hovered tile's when the pointer moved to another
/// tile (or the game moved), the sheets and the digest when the game or the selection moved.
/// Exclusive: the rules' read-only queries need `&mut World`.
fn refresh_cache(
    world: &mut World,
    mut last: Local<Option<CacheKey>>,
    mut hovered: Local<Option<(Option<Hex>, usize, String)>>,
) {
    let (hover, selected) = {
        let v = world.resource::<ViewState>();
        (v.hover, v.selected)
    };
    let key = {
        let c = world.resource::<Cycle>();
        CacheKey {
            moves: world.resource::<crate::rules::ActionLog>().0.len(),
            cycle: c.number,
            step: c.step,
            turn: Some(c.turn),
            activation: c.activation,
            selected,
            content: std::sync::Arc::as_ptr(&world.content()) as usize,
            chronicle: world.resource::<crate::rules::Chronicle>().0.len(),
            lang: world
                .get_resource::<crate::text::Translations>()
                .map(|t| t.lang.clone())
                .unwrap_or_default(),
            at_screen: super::handoff::at_screen(world),
            showing: world.resource::<super::chapter_show::Show>().busy(),
        }
    };
    // The hovered tile's lines change with the pointer or the game.
    let now = Some((hover, key.chronicle, key.lang.clone()));
    if *hovered != now || last.as_ref().is_none_or(|k| k.selected != selected) {
        *hovered = now;
        let c = hover_cache(world, hover, selected);
        world.insert_resource(c);
    }
    // Everything else only when the game or the selection moved: on a 10,000-hex map the
    // legal actions and the sheets cost more than drawing a frame.
    if last.as_ref() == Some(&key) {
        return;
    }
    let at_screen = key.at_screen;
    *last = Some(key);
    let sheets = sheet_cache(world, selected);
    refresh_digest(world, at_screen);
    world.insert_resource(sheets);
}

/// The hovered tile's lines, and the selected Eladrin army's path to it.
fn hover_cache(world: &mut World, hover: Option<Hex>, selected: Option<Hex>) -> HoverCache {
    let lines = hover.map(|h| describe_tile(world, h)).unwrap_or_default();
    // The path preview: the rules' own cheapest path for the selected Eladrin army.
    let path = match (selected, hover) {
        (Some(s), Some(h)) if s != h => eladrin_army_at(world, s)
            .and_then(|a| crate::rules::main_phase::activate::path_to(world, &a, h))
            .map(|(p, _)| {
                let mut full = vec![s];
                full.extend(p.into_iter().filter(|x| *x != s));
                full
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    HoverCache { lines, path }
}

/// The sheets of the selection: the legal actions with their combat odds, the army's reach,
/// the tile's lines and improvements, the outpost and the armies there.
fn sheet_cache(world: &mut World, selected: Option<Hex>) -> SheetCache {
    let over = world.resource::<Outcome>().winner.is_some();
    let eladrins_decide = world.deciding() == Camp::Eladrins;
    let legal = if !over && eladrins_decide {
        legal_actions(world, Camp::Eladrins)
    } else {
        vec![]
    };
    let mut reach = Vec::new();
    if let Some(a) = selected.and_then(|h| eladrin_army_at(world, h)) {
        reach = reach_preview(world, &a);
    }
    // The combat preview (R9.5): the same odds the AI weighs, for every attack on offer.
    let mut odds = Vec::new();
    if let Some(id) = world.resource::<Cycle>().activation {
        let me = world
            .army_by_id(id)
            .and_then(|e| world.get::<Army>(e).cloned());
        for a in &legal {
            if let (Some(me), crate::rules::Action::Engage { target, .. }) = (&me, a)
                && let Some(t) = world
                    .army_by_id(*target)
                    .and_then(|e| world.get::<Army>(e).cloned())
            {
                odds.push((
                    *target,
                    crate::rules::main_phase::combat::battle_odds(world, me, &t, 0, 500),
                ));
            }
        }
    }
    // The outpost panel: the selected outpost, else the portal's.
    let db = world.content();
    let portal_outpost = world.resource::<crate::rules::Portal>().outpost;
    let outpost = {
        let mut q = world.query::<(Entity, &Outpost)>();
        let all: Vec<(Entity, Outpost)> = q.iter(world).map(|(e, o)| (e, o.clone())).collect();
        all.iter()
            .find(|(_, o)| Some(o.hex) == selected)
            .or_else(|| all.iter().find(|(_, o)| o.id == portal_outpost))
            .cloned()
    };
    let outpost = outpost.map(|(e, o)| {
        let purse = crate::rules::economy::outpost_purse(world, e);
        OutpostSheet {
            storage: crate::rules::economy::storage_of(world, &o),
            purse: crate::rules::economy::available(world, &purse),
            slots: db.size(&o.size).map(|s| s.building_slots).unwrap_or(0),
            outpost: o,
        }
    });
    let mut armies: Vec<ArmySheet> = Vec::new();
    if let Some(h) = selected {
        for a in armies_at(world, h) {
            let units = a
                .units
                .iter()
                .map(|u| UnitRow {
                    unit: u.clone(),
                    hp: crate::rules::units::hp_left(world, &a, u),
                    max_hp: db.unit(&u.kind).map(|t| t.hp).unwrap_or(1),
                    hit_on: crate::rules::units::attack_hit_on(world, &a, u),
                })
                .collect();
            let famine_malus = crate::rules::units::attack_malus(world, &a);
            armies.push(ArmySheet {
                army: a,
                units,
                famine_malus,
            });
        }
    }
    let selected_lines = selected
        .map(|h| describe_tile(world, h))
        .unwrap_or_default();
    // The improvement menu: the rules' own validation, read-only, for each improvement.
    let improvements = match selected {
        Some(h) if !over => db
            .set
            .improvements
            .iter()
            .map(|i| {
                let answer =
                    crate::rules::main_phase::build::validate_improvement(world, (h.x, h.y), &i.id);
                (i.id.clone(), answer)
            })
            .collect(),
        _ => Vec::new(),
    };
    SheetCache {
        legal,
        reach,
        improvements,
        selected: selected_lines,
        odds,
        outpost,
        armies,
    }
}

/// The digest: tracks, glory, the chapters' panels as `at_screen` may see them, the log, and
/// the forecast with the victory conditions (played on a copy of the state, so only when the
/// game itself moved).
fn refresh_digest(world: &mut World, at_screen: Option<u8>) {
    let tracks = crate::rules::tracks::rows(world);
    let glory = crate::rules::chapter::glory(world);
    let panels = match at_screen {
        Some(seat) => (seat, super::chapter_panel::seen(world, seat)),
        None => (0, Vec::new()),
    };
    let keep_tables = world.resource::<super::chapter_show::Show>().busy()
        && !world.resource::<GameDigest>().chapter_tables.is_empty()
        && at_screen.is_some();
    // Captured only when shown: a capture clones the chapter's state as the seat sees it.
    let tables = match at_screen {
        Some(seat) if !keep_tables => super::table::seen(world, seat),
        _ => Vec::new(),
    };
    let over = world.resource::<Outcome>().winner.is_some();
    let key = {
        let c = world.resource::<Cycle>();
        (
            world.resource::<crate::rules::ActionLog>().0.len(),
            c.number,
            c.step,
        )
    };
    let forecast = if world.resource::<GameDigest>().forecast_at != Some(key) {
        // Nothing to forecast once the game is over.
        let warnings = if over {
            Vec::new()
        } else {
            crate::rules::forecast::upkeep_forecast(world)
        };
        let victory = crate::rules::outcome::victory(world)
            .map(|v| crate::rules::outcome::conditions(world, &v))
            .unwrap_or_default();
        Some((warnings, victory))
    } else {
        None
    };
    let log = {
        let db = world.content();
        let tr = world
            .get_resource::<crate::text::Translations>()
            .cloned()
            .unwrap_or_default();
        let events = &world.resource::<crate::rules::Chronicle>().0;
        let start = events.len().saturating_sub(LOG_LINES);
        events[start..]
            .iter()
            .rev()
            .map(|e| e.words(&tr, Some(&db)))
            .collect::<Vec<_>>()
    };
    let mut d = world.resource_mut::<GameDigest>();
    d.tracks = tracks;
    d.glory = glory;
    d.chapter_panels = panels;
    if !keep_tables {
        d.chapter_tables = tables;
    }
    d.log = log;
    if let Some((f, v)) = forecast {
        d.forecast = f;
        d.victory = v;
        d.forecast_at = Some(key);
    }
}
