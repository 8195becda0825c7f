//! R2 — Events: the Eladrins draw from the events deck, Chaos from the chaos deck, at once.

use chaos_outpost::content::{Camp, Card, Effect, Res};
use chaos_outpost::rules::{Decks, GameEvent, Portal};

use crate::common::*;

fn card(id: &str, effects: Vec<Effect>) -> Card {
    Card {
        id: id.into(),
        name: id.into(),
        text: String::new(),
        copies: 1,
        effects,
    }
}

#[test]
fn r2_each_camp_draws_one_card_and_its_effects_apply_at_once() {
    let mut s = Builder::new(3)
        .with(|c| {
            c.events = vec![card("windfall", vec![Effect::Gain(st(&[(Res::Wood, 2)]))])];
            c.chaos = vec![card("creep", vec![Effect::PortalCorruption(1)])];
        })
        .build();
    s.run("R2");
    assert_eq!(s.outpost("Home").stock.get(Res::Wood), 2);
    assert_eq!(s.w().resource::<Portal>().corruption, 1);
    let drawn: Vec<(Camp, String, String)> = s
        .events()
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::CardDrawn { camp, deck, card } => Some((camp, deck, card)),
            _ => None,
        })
        .collect();
    assert_eq!(
        drawn,
        vec![
            (Camp::Eladrins, "events".into(), "windfall".into()),
            (Camp::Chaos, "chaos".into(), "creep".into())
        ]
    );
}

#[test]
fn r2_drawn_cards_are_discarded_and_reshuffled_when_the_pile_runs_out() {
    let mut s = Builder::new(3)
        .with(|c| {
            c.events = vec![card("a", vec![]), card("b", vec![])];
            c.chaos = vec![card("x", vec![])];
        })
        .build();
    for _ in 0..5 {
        s.run("R2");
    }
    let d = s.w().resource::<Decks>().clone();
    assert_eq!(
        d.events.draw.len() + d.events.discard.len(),
        2,
        "no card lost or duplicated"
    );
    let draws = s
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e,
                GameEvent::CardDrawn {
                    camp: Camp::Eladrins,
                    ..
                }
            )
        })
        .count();
    assert_eq!(
        draws, 5,
        "a card is drawn every cycle even after the pile ran out"
    );
}

#[test]
fn r2_gain_respects_storage_and_lose_never_goes_negative() {
    let mut s = Builder::new(3)
        .outpost("Home", (0, 0), "camp", st(&[(Res::Stone, 1)]), &[])
        .with(|c| {
            c.events = vec![card("flood", vec![Effect::Gain(st(&[(Res::Wood, 500)]))])];
            c.chaos = vec![card("rot", vec![Effect::Lose(st(&[(Res::Stone, 5)]))])];
        })
        .build();
    s.run("R2");
    let o = s.outpost("Home");
    let cap = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .size("camp")
        .map(|z| z.storage)
        .unwrap_or(0);
    // 1 stone + 500 wood offered: only 19 wood fit; then Chaos takes the stone (only 1 there).
    assert_eq!(
        o.stock.get(Res::Wood),
        cap - 1,
        "gains stop at the storage capacity (R3.3)"
    );
    assert_eq!(o.stock.get(Res::Stone), 0);
}
