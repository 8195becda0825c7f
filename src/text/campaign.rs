//! The words of a campaign (K1–K4): what its carry-over rule promises, what a chapter is
//! given, a veteran, where a result leads. The briefing's promise is written here from the
//! same `CarryRule` value `CampaignState::finish` applies, so the two can't disagree.

use super::Translations;
use crate::content::ContentDb;
use crate::content::campaign::{Campaign, CarryRule, ChapterDef, Goto};
use crate::rules::campaign::{CarryIn, Veteran};

/// What the carry-over rule promises after a chapter won, a line each (K2).
pub fn promise(rule: &CarryRule, tr: &Translations) -> Vec<String> {
    let mut out = Vec::new();
    if rule.veterans > 0 {
        out.push(tr.p(
            "Up to {} Eladrin unit alive at the end joins the roster as a named veteran|Up to {} Eladrin units alive at the end join the roster as named veterans",
            rule.veterans as u64,
            &[&rule.veterans],
        ));
        out.push(
            tr.t(if rule.heal {
                "Veterans come back with their wounds healed"
            } else {
                "Veterans keep their wounds"
            })
            .into_owned(),
        );
    }
    if rule.research {
        out.push(tr.t("Technologies researched stay researched").into_owned());
    }
    if rule.artifacts {
        out.push(
            tr.t("Artifacts found stay found, their effects played again")
                .into_owned(),
        );
    }
    if rule.stock_percent > 0 && rule.stock_max > 0 {
        out.push(tr.f(
            "{}% of the stores carry on, at most {} of each resource",
            &[&rule.stock_percent.min(100), &rule.stock_max],
        ));
    }
    if out.is_empty() {
        out.push(
            tr.t("Nothing carries on: each chapter starts afresh")
                .into_owned(),
        );
    }
    out
}

/// A veteran: its name, its unit type, its chapters and wounds.
pub fn veteran(v: &Veteran, db: &ContentDb, tr: &Translations) -> String {
    let kind = tr.t(db.name_of(&v.kind).unwrap_or(&v.kind)).into_owned();
    let mut s = if v.name.is_empty() {
        tr.f("a {} (stands in)", &[&kind])
    } else {
        format!("{}, {kind}", v.name)
    };
    if v.chapters > 0 {
        s.push_str(&tr.p(
            " · {} chapter| · {} chapters",
            v.chapters as u64,
            &[&v.chapters],
        ));
    }
    if v.wounds > 0 {
        s.push_str(&tr.p(" · {} wound| · {} wounds", v.wounds as u64, &[&v.wounds]));
    }
    s
}

fn names(ids: &[String], db: &ContentDb, tr: &Translations) -> String {
    ids.iter()
        .map(|id| tr.t(db.name_of(id).unwrap_or(id)).into_owned())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a chapter is given at its start (the muster, research, artifacts, stores), a line
/// each: what `carry_in` really hands the game.
pub fn given(carry: &CarryIn, db: &ContentDb, tr: &Translations) -> Vec<String> {
    let mut out = Vec::new();
    if carry.veterans.is_empty() {
        out.push(tr.t("No veterans muster for this chapter").into_owned());
    } else {
        let who: Vec<String> = carry.veterans.iter().map(|v| veteran(v, db, tr)).collect();
        out.push(tr.f("Mustering: {}", &[&who.join("; ")]));
    }
    if !carry.research.is_empty() {
        out.push(tr.f("Researched: {}", &[&names(&carry.research, db, tr)]));
    }
    if !carry.artifacts.is_empty() {
        out.push(tr.f("Artifacts: {}", &[&names(&carry.artifacts, db, tr)]));
    }
    if !carry.stock.is_empty() {
        out.push(tr.f("Stores brought: {}", &[&tr.stock(&carry.stock)]));
    }
    out
}

/// Which unit types a chapter admits, when it names them (`admit_kinds`): a line for the
/// muster.
pub fn admitted(ch: &ChapterDef, db: &ContentDb, tr: &Translations) -> Option<String> {
    (!ch.admit_kinds.is_empty()).then(|| {
        tr.f(
            "Only these may join: {}.",
            &[&names(&ch.admit_kinds, db, tr)],
        )
    })
}

/// A chapter's name as the list shows it: its own, else its level's, else its id.
pub fn chapter_name(campaign: &Campaign, id: &str, db: &ContentDb, tr: &Translations) -> String {
    let c = campaign.chapter(id);
    let raw = c
        .filter(|c| !c.name.is_empty())
        .map(|c| c.name.as_str())
        .or_else(|| {
            c.and_then(|c| db.levels.get(&c.level))
                .map(|l| l.name.as_str())
        })
        .unwrap_or(id);
    tr.t(raw).into_owned()
}

/// Where a result leads, in words.
pub fn goto(go: &Goto, campaign: &Campaign, db: &ContentDb, tr: &Translations) -> String {
    match go {
        Goto::Chapter(c) => tr.f("Next: {}", &[&chapter_name(campaign, c, db, tr)]),
        Goto::Retry => tr.t("The chapter must be played again").into_owned(),
        Goto::Victory => tr.t("The campaign is won").into_owned(),
        Goto::Defeat => tr.t("The campaign is lost").into_owned(),
    }
}
