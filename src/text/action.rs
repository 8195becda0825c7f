//! The label of an action, as a button or a log line shows it, in the player's language.

use super::Translations;
use crate::content::ContentDb;
use crate::rules::Action;

/// A player-readable label for an action, in the player's language.
pub fn label(a: &Action, db: &ContentDb, tr: &Translations) -> String {
    let stock = |s: &crate::content::Stock| tr.stock(s);
    let name = |n: &str| tr.t(n).into_owned();
    match a {
        Action::Done => name("Done with this step"),
        Action::Feed { army, tokens } => tr.p(
            "Feed army {}: remove {} famine token|Feed army {}: remove {} famine tokens",
            *tokens as u64,
            &[army, tokens],
        ),
        Action::ChooseResearch { tech } => {
            let t = db.tech(tech);
            let n = t.map_or(tech.clone(), |t| name(&t.name));
            let text = t.map_or(String::new(), |t| name(&t.text));
            tr.f("Research {} — {}", &[&n, &text])
        }
        Action::FundResearch { res, amount, .. } => {
            tr.f("Place {} {} on the research", &[amount, &name(res.name())])
        }
        Action::AssignLab { slot, artifact, .. } => match artifact {
            Some((q, r)) => tr.f(
                "Lab {}: analyse the artifact at ({}, {}) (2d6 ≥ 7)",
                &[slot, q, r],
            ),
            None => tr.f("Lab {}: research", &[slot]),
        },
        Action::BuildPortalCell { arch } => tr.f("Build the next cell of arch {}", &[&(arch + 1)]),
        Action::PowerPortal { crystals } => tr.p(
            "Put {} crystal into the portal|Put {} crystals into the portal",
            *crystals as u64,
            &[crystals],
        ),
        Action::Pass => name("End turn (pass)"),
        Action::BuildImprovement { at, improvement } => {
            let i = db.improvement(improvement);
            let n = i.map_or(improvement.clone(), |i| name(&i.name));
            let cost = i.map(|i| stock(&i.cost)).unwrap_or_default();
            tr.f("Build {} at ({}, {}) ({})", &[&n, &at.0, &at.1, &cost])
        }
        Action::BuildBuilding { building, .. } => {
            let b = db.building(building);
            let n = b.map_or(building.clone(), |b| name(&b.name));
            let cost = b.map(|b| stock(&b.cost)).unwrap_or_default();
            tr.f("Build {} ({})", &[&n, &cost])
        }
        Action::Recruit { unit, .. } => {
            let u = db.unit(unit);
            let n = u.map_or(unit.clone(), |u| name(&u.name));
            let cost = u
                .and_then(|u| u.recruit_cost)
                .map(|c| stock(&c))
                .unwrap_or_default();
            tr.f("Recruit {} ({})", &[&n, &cost])
        }
        Action::Activate { army } => tr.f("Activate army {}", &[army]),
        Action::Move { to } => tr.f("Move to ({}, {})", &[&to.0, &to.1]),
        Action::UseCard { unit, action } => tr.f("Unit {}: {}", &[unit, action]),
        Action::Explore { unit } => tr.f("Unit {}: explore this tile (all its AP)", &[unit]),
        Action::Merge { from } => tr.f("Take in army {} (1 AP each)", &[from]),
        Action::Detach { units } => {
            let ids: Vec<String> = units.iter().map(|u| u.to_string()).collect();
            tr.f("Detach unit {}", &[&ids.join(", ")])
        }
        Action::Engage { target, .. } => tr.f("Attack army {}", &[target]),
        Action::Ritual { ritual } => {
            let r = db.set.rituals.iter().find(|r| &r.id == ritual);
            let n = r.map_or(ritual.clone(), |r| name(&r.name));
            let cost = r.map(|r| stock(&r.cost)).unwrap_or_default();
            tr.f("Ritual: {} ({})", &[&n, &cost])
        }
        Action::FoundOutpost { unit, .. } => tr.f("Unit {}: found an outpost here", &[unit]),
        Action::EndActivation => name("End this army's activation"),
        Action::Summon { rift } => tr.f("Summon at ({}, {})", &[&rift.0, &rift.1]),
        Action::Embark => name("Embark on the boats"),
        Action::Land { to } => tr.f("Land at ({}, {})", &[&to.0, &to.1]),
        Action::Load { res, amount } => tr.f("Load {} {}", &[amount, &name(res.name())]),
        Action::Unload { res, amount } => tr.f("Unload {} {}", &[amount, &name(res.name())]),
        Action::Chapter { chapter, act } => super::chapter::action(tr, chapter, act),
    }
}
