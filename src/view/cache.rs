//! What the panels show, computed once per frame from the game state by an exclusive system (the
//! rules' read-only queries need `&mut World`): the Eladrins' legal actions, the selected army's
//! reachable tiles, the hovered tile's description with the exact odds that Chaos corrupts it.

use bevy::prelude::*;
use hexx::Hex;

use super::ViewState;
use crate::content::Camp;
use crate::rules::legal::legal_actions;
use crate::rules::main_phase::activate::reach_preview;
use crate::rules::upkeep::corruption::{difficulty, open_rifts, two_d6_at_least};
use crate::rules::upkeep::generation::tile_yield;
use crate::rules::{Army, Cycle, GameWorld, Outcome, Outpost};

/// The view's per-frame digest of the game (never game state itself).
#[derive(Resource, Default)]
pub struct ViewCache {
    /// Legal actions of the Eladrins now (empty while Chaos decides).
    pub legal: Vec<crate::rules::Action>,
    /// Reachable tiles of the selected army with their cost.
    pub reach: Vec<(Hex, u8)>,
    /// Lines describing the hovered tile.
    pub hover: Vec<String>,
    /// Lines describing the selected tile.
    pub selected: Vec<String>,
    /// Combat preview for each possible attack: (target army, odds).
    pub odds: Vec<(u32, crate::rules::main_phase::combat::BattleOdds)>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ViewCache>()
        .add_systems(Update, refresh_cache.after(super::input::pick_hexes));
}

/// Describes a tile: terrain, move cost, yields, what lies there, corruption and its odds.
pub fn describe_tile(world: &mut World, h: Hex) -> Vec<String> {
    let Some(t) = world.tile(h).cloned() else {
        return vec![];
    };
    let db = world.content();
    let mut out = Vec::new();
    let terrain = db.terrain(&t.terrain);
    out.push(format!(
        "({}, {}) {}{}",
        h.x,
        h.y,
        terrain.map(|x| x.name.as_str()).unwrap_or("?"),
        if terrain.is_some_and(|x| x.difficult) {
            " (difficult)"
        } else {
            ""
        }
    ));
    if let Some(c) = crate::rules::main_phase::activate::enter_cost(world, h, false, false) {
        out.push(format!("Move cost: {c} AP"));
    } else {
        out.push("Impassable on foot".into());
    }
    let y = tile_yield(world, &t);
    if !y.is_empty() {
        out.push(format!("Yields each upkeep: {y}"));
    }
    if let Some(w) = &t.improvement {
        let name = db
            .improvement(&w.id)
            .map(|i| i.name.clone())
            .unwrap_or(w.id.clone());
        out.push(match (w.timer, w.inactive) {
            (0, false) => format!("Improvement: {name}"),
            (0, true) => format!("Improvement: {name} (inactive: upkeep unpaid)"),
            (n, _) => format!("Improvement: {name} ({n} time marker(s) left)"),
        });
    }
    if !t.lying.is_empty() {
        out.push(format!("Lying here: {}", t.lying));
    }
    if t.artifact {
        out.push("An artifact token lies here".into());
    }
    if let Some(m) = &t.modifier {
        let name = db
            .set
            .exploration
            .iter()
            .find(|c| &c.id == m)
            .map(|c| c.name.clone())
            .unwrap_or(m.clone());
        out.push(format!("Explored: {name}"));
    }
    match t.rift {
        crate::rules::Rift::Open => out.push("An open rift (R6.1)".into()),
        crate::rules::Rift::Closed => out.push("A sealed rift".into()),
        crate::rules::Rift::None => {}
    }
    if t.is_corrupted() {
        out.push("Corrupted".into());
    } else {
        let rifts = open_rifts(world);
        match difficulty(world, &rifts, h) {
            Some(d) => out.push(format!(
                "Chaos may corrupt it: 2d6 ≥ {d} (R6.2), {:.0} % per attempt",
                two_d6_at_least(d) * 100.0
            )),
            None => out.push("Safe from corruption this upkeep".into()),
        }
    }
    let mut q = world.query::<&Army>();
    for a in q.iter(world).filter(|a| a.hex == h) {
        let kinds: Vec<String> = a.units.iter().map(|u| u.kind.clone()).collect();
        out.push(format!(
            "{:?} army {}: {}{}",
            a.camp,
            a.id,
            kinds.join(", "),
            if a.famine > 0 {
                format!(" — famine {}", a.famine)
            } else {
                String::new()
            }
        ));
    }
    let mut q = world.query::<&Outpost>();
    for o in q.iter(world).filter(|o| o.hex == h) {
        out.push(format!(
            "Outpost {} ({}), stock {}",
            o.name, o.size, o.stock
        ));
    }
    out
}

fn refresh_cache(world: &mut World) {
    let (hover, selected) = {
        let v = world.resource::<ViewState>();
        (v.hover, v.selected)
    };
    let over = world.resource::<Outcome>().winner.is_some();
    let eladrins_decide =
        world.step_id() != "R9" || world.resource::<Cycle>().turn == Camp::Eladrins;
    let legal = if !over && eladrins_decide {
        legal_actions(world, Camp::Eladrins)
    } else {
        vec![]
    };
    let mut reach = Vec::new();
    if let Some(h) = selected {
        let army = {
            let mut q = world.query::<&Army>();
            q.iter(world)
                .filter(|a| a.hex == h && a.camp == Camp::Eladrins)
                .min_by_key(|a| a.id)
                .cloned()
        };
        if let Some(a) = army {
            reach = reach_preview(world, &a);
        }
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
    let hover_lines = hover.map(|h| describe_tile(world, h)).unwrap_or_default();
    let selected_lines = selected
        .map(|h| describe_tile(world, h))
        .unwrap_or_default();
    let mut c = world.resource_mut::<ViewCache>();
    c.legal = legal;
    c.reach = reach;
    c.hover = hover_lines;
    c.selected = selected_lines;
    c.odds = odds;
}
