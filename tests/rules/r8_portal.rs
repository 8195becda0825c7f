//! R8 — The portal: cells from the base up, power at most 3 crystals a phase, corruption markers
//! blocking and racing, victory and defeat.

use chaos_outpost::content::{Camp, Res};
use chaos_outpost::rules::outcome::EndReason;
use chaos_outpost::rules::upkeep::portal::add_corruption;
use chaos_outpost::rules::{Action, Cycle, GameWorld, Outcome, Portal, Refusal};

use crate::common::*;

fn rich() -> Builder {
    Builder::new(4).outpost(
        "Home",
        (0, 0),
        "citadel",
        st(&[
            (Res::Stone, 20),
            (Res::Wood, 12),
            (Res::Sand, 12),
            (Res::Crystal, 20),
        ]),
        &[],
    )
}

fn build_all(s: &mut Scn) {
    let arches = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .arches
        .clone();
    for (i, a) in arches.iter().enumerate() {
        for _ in 0..a.len() {
            s.submit(Action::BuildPortalCell { arch: i })
                .expect("build");
        }
    }
}

#[test]
fn r8_1_a_cell_is_paid_and_built_from_the_base_up() {
    let mut s = rich().build();
    s.at("R8");
    let cost = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .arches[0][0];
    let before = s.outpost("Home").stock;
    s.submit(Action::BuildPortalCell { arch: 0 })
        .expect("build");
    assert_eq!(s.w().resource::<Portal>().built, vec![1, 0]);
    let after = s.outpost("Home").stock;
    for (r, n) in cost.iter() {
        assert_eq!(before.get(r) - after.get(r), n);
    }
    s.submit(Action::BuildPortalCell { arch: 1 })
        .expect("arches rise in parallel");
    assert_eq!(s.w().resource::<Portal>().built, vec![1, 1]);
}

#[test]
fn r8_1_an_unaffordable_cell_or_a_complete_arch_is_refused() {
    let mut s = Builder::new(4).build();
    s.at("R8");
    let cost = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .arches[0][0];
    let (r, n) = cost.iter().next().expect("a cost");
    s.refused(
        Action::BuildPortalCell { arch: 0 },
        Refusal::NotEnough {
            res: r,
            need: n,
            have: 0,
        },
    );
    s.refused(Action::BuildPortalCell { arch: 9 }, Refusal::UnknownArch(9));
    let mut s = rich().build();
    s.at("R8");
    build_all(&mut s);
    s.refused(
        Action::BuildPortalCell { arch: 0 },
        Refusal::ArchComplete(0),
    );
}

#[test]
fn r8_2_power_needs_both_arches_and_at_most_3_crystals_a_phase() {
    let mut s = rich().build();
    s.at("R8");
    s.refused(Action::PowerPortal { crystals: 1 }, Refusal::PortalNotBuilt);
    build_all(&mut s);
    s.refused(
        Action::PowerPortal { crystals: 4 },
        Refusal::CrystalLimit { max: 3, used: 0 },
    );
    s.submit(Action::PowerPortal { crystals: 2 })
        .expect("power");
    s.refused(
        Action::PowerPortal { crystals: 2 },
        Refusal::CrystalLimit { max: 3, used: 2 },
    );
    s.submit(Action::PowerPortal { crystals: 1 })
        .expect("power");
    assert_eq!(s.w().resource::<Portal>().power, 3);
    // A new phase, a new allowance.
    s.run("R8");
    s.submit(Action::PowerPortal { crystals: 3 })
        .expect("power");
    assert_eq!(s.w().resource::<Portal>().power, 6);
}

#[test]
fn r8_3_a_corruption_marker_blocks_power_until_pushed_back() {
    let mut s = rich().build();
    s.at("R8");
    build_all(&mut s);
    s.submit(Action::PowerPortal { crystals: 1 })
        .expect("power");
    add_corruption(s.w(), 1);
    s.refused(Action::PowerPortal { crystals: 1 }, Refusal::PowerBlocked);
    chaos_outpost::rules::effects::apply(
        s.w(),
        &[chaos_outpost::content::Effect::PushBackCorruption(1)],
        None,
    );
    s.submit(Action::PowerPortal { crystals: 1 })
        .expect("unblocked");
    assert_eq!(s.w().resource::<Portal>().power, 2);
}

/// Builds the portal and powers it, phase after phase, until the game ends (ten phases at most):
/// the phases played and the star's size.
fn fill_star(s: &mut Scn) -> (u32, u32) {
    s.at("R8");
    build_all(s);
    let star = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .star;
    let mut phases = 0;
    while s.w().resource::<Outcome>().winner.is_none() && phases < 10 {
        s.run("R8");
        let room = star - s.w().resource::<Portal>().power;
        if room == 0 {
            break;
        }
        s.submit(Action::PowerPortal {
            crystals: room.min(3),
        })
        .expect("power");
        phases += 1;
    }
    (phases, star)
}

#[test]
fn r8_2_filling_the_star_powers_the_portal_and_the_eladrins_win() {
    let mut s = rich().build();
    let (phases, star) = fill_star(&mut s);
    let o = s.w().resource::<Outcome>().clone();
    assert_eq!(o.winner, Some(Camp::Eladrins));
    assert_eq!(o.reason, Some(EndReason::PortalPowered));
    assert_eq!(phases, star.div_ceil(3));
    s.refused(Action::PowerPortal { crystals: 1 }, Refusal::GameOver);
}

/// R8 reading: a level that asks the Eladrins to hold so many outposts (`victory.outposts`) is
/// not won by the portal alone while they hold fewer; a difficulty may ask fewer
/// (`victory_outposts`, added to the level's: `stress` lets easy lose two of its seven).
#[test]
fn r8_2_the_portal_wins_only_with_the_outposts_the_level_and_difficulty_ask_for() {
    use chaos_outpost::content::{DifficultyTweak, Victory};
    let play = |victory_outposts: i32| {
        let mut s = rich()
            .victory(Victory {
                outposts: 2,
                ..Victory::default()
            })
            .tweak(
                "normal",
                DifficultyTweak {
                    victory_outposts,
                    ..DifficultyTweak::default()
                },
            )
            .build();
        fill_star(&mut s);
        let operational = s.w().resource::<Portal>().operational;
        (operational, s.w().resource::<Outcome>().clone())
    };
    // One outpost of the two asked: powered, but not won.
    let (powered, o) = play(0);
    assert!(powered, "the portal is powered");
    assert_eq!(o.winner, None, "one outpost short: {o:?}");
    // Asked one fewer on this difficulty: won.
    let (_, o) = play(-1);
    assert_eq!(o.winner, Some(Camp::Eladrins));
    assert_eq!(o.reason, Some(EndReason::PortalPowered));
    // Never below none: a level asking two, a difficulty five fewer, still won.
    assert_eq!(play(-5).1.winner, Some(Camp::Eladrins));
}

/// R8 reading: a game that reaches the level's cycle limit is lost, and its reason says what
/// was missing: the portal, or, with the portal powered, the level's other conditions (stress
/// at hard lost most games with the portal powered and an outpost short, and called it "did
/// not power the portal").
#[test]
fn r8_2_past_the_cycle_limit_the_reason_says_whether_the_portal_or_the_conditions_were_missing() {
    use chaos_outpost::content::Victory;
    use chaos_outpost::rules::outcome::check;
    use chaos_outpost::text::Translations;
    let end = |power: bool| {
        let mut s = rich()
            .victory(Victory {
                max_cycles: 3,
                outposts: 2,
                ..Victory::default()
            })
            .build();
        if power {
            fill_star(&mut s);
        }
        assert_eq!(s.w().resource::<Outcome>().winner, None, "still playing");
        s.w().resource_mut::<Cycle>().number = 3;
        check(s.w());
        assert_eq!(
            s.w().resource::<Outcome>().winner,
            None,
            "cycle 3 is allowed"
        );
        s.w().resource_mut::<Cycle>().number = 4;
        check(s.w());
        s.w().resource::<Outcome>().clone()
    };
    let tr = Translations::default();
    let o = end(false);
    assert_eq!(o.winner, Some(Camp::Chaos));
    let reason = o.reason.expect("a reason");
    assert_eq!(
        reason,
        EndReason::CycleLimit {
            max: 3,
            conditions_only: false
        }
    );
    assert_eq!(
        reason.words(&tr),
        "The Eladrins did not power the portal within 3 cycles"
    );
    let o = end(true);
    assert_eq!(o.winner, Some(Camp::Chaos), "powered, one outpost short");
    let reason = o.reason.expect("a reason");
    assert_eq!(
        reason,
        EndReason::CycleLimit {
            max: 3,
            conditions_only: true
        }
    );
    assert_eq!(
        reason.words(&tr),
        "The Eladrins did not meet the level's conditions within 3 cycles"
    );
}

/// R8.4, R9.5 and the cycle limit: the end window's headline names what the Eladrins lost.
/// Only a taken portal reads "Chaos holds the portal"; a game lost to the cycle limit (most of
/// stress' losses) or to the fall of every outpost says so, in English and French.
#[test]
fn r8_the_end_headline_names_what_was_lost() {
    use chaos_outpost::text::{Translations, end_headline};
    let en = Translations::default();
    let fr = Translations::base("fr");
    let limit = EndReason::CycleLimit {
        max: 25,
        conditions_only: true,
    };
    let overrun = EndReason::PortalOverrun {
        outpost: "Dawnwatch".into(),
    };
    let cases = [
        (Camp::Chaos, Some(&limit), "Defeat: time has run out"),
        (
            Camp::Chaos,
            Some(&overrun),
            "Defeat: Chaos holds the portal",
        ),
        (
            Camp::Chaos,
            Some(&EndReason::LastCellCorrupted),
            "Defeat: Chaos holds the portal",
        ),
        (
            Camp::Chaos,
            Some(&EndReason::OutpostsLost),
            "Defeat: the last outpost has fallen",
        ),
        (
            Camp::Chaos,
            Some(&EndReason::Other("the beacon went out".into())),
            "Defeat",
        ),
        (
            Camp::Eladrins,
            Some(&EndReason::PortalPowered),
            "Victory: the way home is open",
        ),
    ];
    for (winner, reason, want) in cases {
        assert_eq!(end_headline(&en, winner, reason), want, "{reason:?}");
    }
    assert_eq!(
        end_headline(&fr, Camp::Chaos, Some(&limit)),
        "Défaite : le temps est écoulé"
    );
}

/// R8 reading: a difficulty may ask for more research than the level (`victory_research`, a
/// level's tweak: stress' hard asks Crystal Resonance too): the end check, the side panel's
/// list and the Eladrin AI's wish list all read it, after the level's own technologies, each
/// once; other difficulties ask only the level's.
#[test]
fn r8_2_a_difficulty_may_ask_for_more_research_than_the_level() {
    use chaos_outpost::content::{DifficultyTweak, Victory};
    use chaos_outpost::rules::outcome::{Condition, conditions, missing_research, victory};
    let build = |difficulty: &str| {
        rich()
            .victory(Victory {
                research: vec!["deep_cellars".into()],
                ..Victory::default()
            })
            .tweak(
                "hard",
                DifficultyTweak {
                    victory_research: vec!["scholars_circle".into(), "deep_cellars".into()],
                    ..DifficultyTweak::default()
                },
            )
            .difficulty(difficulty)
            .build()
    };
    let mut hard = build("hard");
    let v = victory(hard.w()).expect("the level's conditions");
    assert_eq!(
        v.research,
        vec!["deep_cellars", "scholars_circle"],
        "each once"
    );
    assert_eq!(
        missing_research(hard.w(), &v),
        vec!["deep_cellars", "scholars_circle"]
    );
    hard.w()
        .resource_mut::<chaos_outpost::rules::Research>()
        .done
        .push("deep_cellars".into());
    let listed = conditions(hard.w(), &v);
    assert_eq!(
        listed,
        vec![
            (Condition::Research("deep_cellars".into()), true),
            (Condition::Research("scholars_circle".into()), false),
        ]
    );
    // Powered with the level's technology but not the difficulty's: not won.
    fill_star(&mut hard);
    assert!(hard.w().resource::<Portal>().operational);
    assert_eq!(hard.w().resource::<Outcome>().winner, None);
    // The same level on normal asks only its own, and is won.
    let mut normal = build("normal");
    normal
        .w()
        .resource_mut::<chaos_outpost::rules::Research>()
        .done
        .push("deep_cellars".into());
    let v = victory(normal.w()).expect("the level's conditions");
    assert_eq!(v.research, vec!["deep_cellars"]);
    fill_star(&mut normal);
    assert_eq!(
        normal.w().resource::<Outcome>().winner,
        Some(Camp::Eladrins)
    );
}

/// R8 reading: what a level asks beyond the portal is listed for the player (the side panel),
/// each condition with where the game stands: technologies in the level's order, then the
/// outposts held, then the rifts closed; and exactly the unmet ones keep a powered portal from
/// winning (`missing_conditions`).
#[test]
fn r8_2_the_level_lists_what_it_asks_beyond_the_portal_met_or_not() {
    use chaos_outpost::content::Victory;
    use chaos_outpost::rules::outcome::{Condition, conditions, missing_conditions, victory};
    use chaos_outpost::text::Translations;
    let mut s = rich()
        .victory(Victory {
            outposts: 2,
            rifts_closed: 1,
            research: vec!["deep_cellars".into(), "scholars_circle".into()],
            ..Victory::default()
        })
        .build();
    let v = victory(s.w()).expect("the level's conditions");
    let research = |t: &str| Condition::Research(t.into());
    assert_eq!(
        conditions(s.w(), &v),
        vec![
            (research("deep_cellars"), false),
            (research("scholars_circle"), false),
            (Condition::Outposts { need: 2, have: 1 }, false),
            (Condition::RiftsClosed { need: 1, have: 0 }, false),
        ]
    );
    s.w()
        .resource_mut::<chaos_outpost::rules::Research>()
        .done
        .push("scholars_circle".into());
    let now = conditions(s.w(), &v);
    assert_eq!(now[1], (research("scholars_circle"), true));
    assert_eq!(
        missing_conditions(s.w(), &v),
        now.iter()
            .filter(|(_, met)| !met)
            .map(|(c, _)| c.clone())
            .collect::<Vec<_>>(),
        "the end check waits on exactly the unmet ones"
    );
    // In words, with the count where the game stands.
    let tr = Translations::default();
    assert_eq!(
        Condition::Outposts { need: 2, have: 1 }.words(&tr, None),
        "Hold 2 outposts (now 1)"
    );
    assert_eq!(
        Condition::RiftsClosed { need: 1, have: 0 }.words(&tr, None),
        "Close 1 rift (now 0 closed)"
    );
    // A level that asks nothing beyond the portal lists nothing.
    let mut plain = rich().build();
    let v = victory(plain.w()).expect("the level's conditions");
    assert!(conditions(plain.w(), &v).is_empty());
}

#[test]
fn r8_4_chaos_takes_the_portal_when_the_last_cell_is_corrupted() {
    let mut s = rich().build();
    s.at("R8");
    build_all(&mut s);
    s.submit(Action::PowerPortal { crystals: 3 })
        .expect("power");
    let track = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .track;
    add_corruption(s.w(), track - 3 - 1);
    assert_eq!(s.w().resource::<Outcome>().winner, None, "one cell left");
    add_corruption(s.w(), 1);
    let o = s.w().resource::<Outcome>().clone();
    assert_eq!(o.winner, Some(Camp::Chaos));
    assert_eq!(o.reason, Some(EndReason::LastCellCorrupted));
}

#[test]
fn r8_power_track_reads_crystals_then_markers() {
    use chaos_outpost::rules::decks::PowerCell::*;
    let p = Portal {
        power: 2,
        corruption: 1,
        ..Default::default()
    };
    assert_eq!(p.track(5), vec![Crystal, Crystal, Corruption, Empty, Empty]);
}

/// The portal built and one crystal in, then a marker on the next cell, the cycle at R8.
fn blocked(rules: u32) -> Scn {
    let mut s = rich().rules(rules).build();
    s.at("R8");
    build_all(&mut s);
    s.submit(Action::PowerPortal { crystals: 1 })
        .expect("power");
    add_corruption(s.w(), 1);
    // A new phase at R8: its allowance is fresh, crystals are at hand.
    s.run("R8");
    s
}

#[test]
fn r8_3_the_portal_step_waits_so_a_blocked_try_gets_the_rules_reason() {
    let mut s = blocked(2);
    chaos_outpost::rules::advance(s.w());
    assert_eq!(
        s.w().step_id(),
        "R8",
        "the step waits for the Eladrins, who see why no power goes in"
    );
    // `refused` checks the typed reason and that the state is unchanged.
    s.refused(Action::PowerPortal { crystals: 1 }, Refusal::PowerBlocked);
    s.refused(Action::PowerPortal { crystals: 3 }, Refusal::PowerBlocked);
    let legal = chaos_outpost::rules::legal::legal_actions(s.w(), Camp::Eladrins);
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::PowerPortal { .. })),
        "no power is offered"
    );
    assert!(legal.contains(&Action::Done));
    s.submit(Action::Done).expect("done");
    assert_ne!(s.w().step_id(), "R8");
}

#[test]
fn r8_3_the_forecast_says_the_marker_blocks_power_and_what_pushes_it_back() {
    use chaos_outpost::rules::forecast::{Warning, upkeep_forecast};
    let mut s = blocked(2);
    let track = s
        .w()
        .resource::<chaos_outpost::content::Content>()
        .portal()
        .track;
    let w = upkeep_forecast(s.w());
    let block = w
        .iter()
        .find(|w| matches!(w, Warning::PowerBlocked { .. }))
        .expect("a blocked-power warning");
    assert_eq!(
        block,
        &Warning::PowerBlocked {
            markers: 1,
            cells_left: track - 2,
        }
    );
    let words = block.to_string();
    assert!(
        words.contains("R8.3") && words.contains("rift") && words.contains("ritual"),
        "{words}"
    );
    // Pushed back: the warning goes, and power goes in again.
    chaos_outpost::rules::effects::apply(
        s.w(),
        &[chaos_outpost::content::Effect::PushBackCorruption(1)],
        None,
    );
    assert!(
        !upkeep_forecast(s.w())
            .iter()
            .any(|w| matches!(w, Warning::PowerBlocked { .. }))
    );
    s.submit(Action::PowerPortal { crystals: 1 })
        .expect("unblocked");
}

#[test]
fn r8_3_under_rules_version_1_the_blocked_step_closed_by_itself() {
    let mut s = blocked(1);
    chaos_outpost::rules::advance(s.w());
    assert_ne!(s.w().step_id(), "R8");
}
