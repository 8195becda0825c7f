//! Cross-reference and sanity checks on loaded content: unknown ids, duplicates, impossible
//! numbers, text bounds. Each problem names the file, line:column and field, and says how to fix.

use std::collections::HashSet;

use hexx::Hex;

use super::*;

/// Collects problems for one file.
struct Report<'a> {
    file: &'a str,
    text: &'a str,
    out: Vec<Problem>,
}

impl Report<'_> {
    fn err(&mut self, anchors: &[&str], field: String, message: String) {
        self.push(Severity::Error, anchors, field, message);
    }
    fn warn(&mut self, anchors: &[&str], field: String, message: String) {
        self.push(Severity::Warning, anchors, field, message);
    }
    fn push(&mut self, severity: Severity, anchors: &[&str], field: String, message: String) {
        let (line, col) = locate(self.text, anchors);
        self.out.push(Problem {
            severity,
            file: self.file.to_string(),
            line,
            col,
            field,
            message,
            mod_id: String::new(),
        });
    }
    /// Duplicate ids and over-long names/texts.
    fn ids<'t>(&mut self, what: &str, items: impl Iterator<Item = (&'t str, Vec<&'t str>)>) {
        let mut seen = HashSet::new();
        for (n, (id, texts)) in items.enumerate() {
            let q = format!("\"{id}\"");
            if id.is_empty() {
                self.err(
                    &[],
                    format!("{what}[{n}].id"),
                    "an id can't be empty".into(),
                );
            }
            if !seen.insert(id.to_string()) {
                // Point at the second occurrence.
                let first = self.text.find(&q).map(|i| i + q.len()).unwrap_or(0);
                let (line, col) = locate(&self.text[first..], &[&q]);
                let base = self.text[..first].matches('\n').count();
                self.out.push(Problem {
                    severity: Severity::Error,
                    file: self.file.to_string(),
                    line: line + base,
                    col,
                    field: format!("{what}[{id}].id"),
                    message: format!("duplicate id `{id}`: give each entry its own id"),
                    mod_id: String::new(),
                });
            }
            for t in texts {
                if t.chars().count() > MAX_TEXT {
                    self.err(
                        &[&q],
                        format!("{what}[{id}]"),
                        format!("a text is longer than {MAX_TEXT} characters: shorten it"),
                    );
                }
            }
        }
    }
}

/// Checks every effect's references.
fn effects(db: &ContentDb, r: &mut Report, owner: &str, anchor: &str, list: &[Effect]) {
    for e in list {
        match e {
            Effect::SpawnChaos { unit, .. } => match db.unit(unit) {
                None => r.err(
                    &[anchor, &format!("\"{unit}\"")],
                    format!("{owner}.effects.SpawnChaos.unit"),
                    format!("unknown unit id `{unit}`: use an id from units.ron"),
                ),
                Some(u) if u.camp != Camp::Chaos => r.err(
                    &[anchor, &format!("\"{unit}\"")],
                    format!("{owner}.effects.SpawnChaos.unit"),
                    format!("`{unit}` is not a Chaos unit: SpawnChaos needs camp: Chaos"),
                ),
                _ => {}
            },
            Effect::ImprovementYield { improvement, .. }
                if db.improvement(improvement).is_none() =>
            {
                r.err(
                    &[anchor, &format!("\"{improvement}\"")],
                    format!("{owner}.effects.ImprovementYield.improvement"),
                    format!(
                        "unknown improvement id `{improvement}`: use an id from improvements.ron"
                    ),
                )
            }
            Effect::Track { track, .. } if !db.set.tracks.iter().any(|t| &t.id == track) => r.err(
                &[anchor, &format!("\"{track}\"")],
                format!("{owner}.effects.Track.track"),
                format!("unknown track `{track}`: use an id from tracks.ron"),
            ),
            Effect::Unlock(id) if db.building(id).is_none() && db.improvement(id).is_none() => r
                .err(
                    &[anchor, &format!("\"{id}\"")],
                    format!("{owner}.effects.Unlock"),
                    format!("`{id}` is neither a building nor an improvement id"),
                ),
            _ => {}
        }
    }
}

/// Checks the catalogs against each other: each catalogue file's checks in turn, each
/// reporting against its own file's text.
pub(super) fn content<'a>(
    db: &ContentDb,
    text_of: &dyn Fn(&str) -> Option<(&'a str, &'a str)>,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (name, check) in CATALOGUES {
        let (file, text) = text_of(name).unwrap_or((name, ""));
        let mut r = Report {
            file,
            text,
            out: Vec::new(),
        };
        check(db, &mut r);
        out.extend(r.out);
    }
    // The chapters' own catalogues: their checks, at their entries.
    for cat in db.chapters.catalogues().iter() {
        let (file, text) = text_of(cat.file).unwrap_or((cat.file, ""));
        let mut r = Report {
            file,
            text,
            out: Vec::new(),
        };
        let what = cat.file.trim_end_matches(".ron");
        for (id, c) in cat.check(db) {
            let anchor = format!("\"{id}\"");
            let last = c.field.rsplit('.').next().unwrap_or("");
            let field = match c.field.as_str() {
                "" => format!("{what}[{id}]"),
                f => format!("{what}[{id}].{f}"),
            };
            r.push(c.severity, &[&anchor, last], field, c.message);
        }
        out.extend(r.out);
    }
    out
}

/// Each catalogue file and its checks, in the order problems are listed.
#[allow(clippy::type_complexity)]
const CATALOGUES: [(&str, fn(&ContentDb, &mut Report)); 17] = [
    ("rules.ron", rules_numbers),
    ("terrains.ron", terrains),
    ("improvements.ron", improvements),
    ("buildings.ron", buildings),
    ("outposts.ron", outpost_sizes),
    ("units.ron", units),
    ("events.ron", events),
    ("chaos.ron", chaos),
    ("artifacts.ron", artifacts),
    ("research.ron", research),
    ("exploration.ron", exploration),
    ("rituals.ron", rituals),
    ("portal.ron", portal),
    ("difficulty.ron", difficulties),
    ("tracks.ron", tracks),
    ("ai.ron", ai_search),
    ("campaigns.ron", campaigns),
];

/// `campaigns.ron` (K1–K3): known levels, difficulties, units and technologies; branches that
/// lead somewhere; fallbacks that give each chapter what it needs; bounded sizes. (`check`
/// also starts every chapter from its fallback.)
fn campaigns(db: &ContentDb, r: &mut Report) {
    use super::campaign::{Goto, MAX_CHAPTERS, MAX_VETERANS, When};
    let s = &db.set;
    r.ids(
        "campaigns",
        s.campaigns
            .iter()
            .map(|c| (c.id.as_str(), vec![c.name.as_str(), c.description.as_str()])),
    );
    for c in &s.campaigns {
        let cid = format!("\"{}\"", c.id);
        let at = |f: &str| format!("campaigns[{}].{f}", c.id);
        if c.difficulties.is_empty() {
            r.err(
                &[&cid, "difficulties"],
                at("difficulties"),
                "list at least one difficulty".into(),
            );
        }
        for d in &c.difficulties {
            if db.difficulty(d).is_none() {
                r.err(
                    &[&cid, "difficulties", &format!("\"{d}\"")],
                    at("difficulties"),
                    format!("no difficulty `{d}` in difficulty.ron"),
                );
            }
        }
        if c.seats.min == 0 || c.seats.min > c.seats.max || c.seats.max > 8 {
            r.err(
                &[&cid, "seats"],
                at("seats"),
                format!(
                    "seats are 1 to 8 players, min no more than max (not {} to {})",
                    c.seats.min, c.seats.max
                ),
            );
        }
        if c.carry.veterans > MAX_VETERANS {
            r.err(
                &[&cid, "carry", "veterans"],
                at("carry.veterans"),
                format!("a roster holds at most {MAX_VETERANS} veterans"),
            );
        }
        if c.carry.stock_percent > 100 {
            r.err(
                &[&cid, "carry", "stock_percent"],
                at("carry.stock_percent"),
                format!("a share is 0 to 100 percent, not {}", c.carry.stock_percent),
            );
        }
        if c.names.len() > MAX_VETERANS as usize * 4
            || c.names
                .iter()
                .any(|n| n.trim().is_empty() || n.chars().count() > 32)
        {
            r.err(
                &[&cid, "names"],
                at("names"),
                format!(
                    "at most {} names, each 1 to 32 characters",
                    MAX_VETERANS * 4
                ),
            );
        }
        if c.chapters.is_empty() || c.chapters.len() > MAX_CHAPTERS {
            r.err(
                &[&cid, "chapters"],
                at("chapters"),
                format!("a campaign has 1 to {MAX_CHAPTERS} chapters"),
            );
        }
        let mut seen = HashSet::new();
        for ch in &c.chapters {
            let chid = format!("\"{}\"", ch.id);
            let a: [&str; 3] = [&cid, "chapters", &chid];
            let cat = |f: &str| format!("campaigns[{}].chapters[{}].{f}", c.id, ch.id);
            if !seen.insert(ch.id.as_str()) {
                r.err(&a, cat("id"), format!("duplicate chapter id `{}`", ch.id));
            }
            for text in [&ch.briefing, &ch.name].into_iter().chain(&ch.rules) {
                if text.chars().count() > MAX_TEXT {
                    r.err(
                        &a,
                        cat("briefing"),
                        format!("a text is at most {MAX_TEXT} characters"),
                    );
                }
            }
            let level = db.levels.get(&ch.level);
            if level.is_none() && !ch.optional {
                r.err(
                    &[&cid, "chapters", &chid, "level"],
                    cat("level"),
                    format!(
                        "no level `{}`; known levels: {} (mark the chapter `optional: true` if \
                         its level ships later)",
                        ch.level,
                        db.levels.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
            if ch.admit > c.carry.veterans {
                r.warn(
                    &[&cid, "chapters", &chid, "admit"],
                    cat("admit"),
                    format!(
                        "admits {} veterans but the roster keeps at most {} (`carry.veterans`)",
                        ch.admit, c.carry.veterans
                    ),
                );
            }
            if ch.needs.veterans > ch.admit {
                r.err(
                    &[&cid, "chapters", &chid, "needs"],
                    cat("needs.veterans"),
                    format!(
                        "needs {} veterans but admits only {}",
                        ch.needs.veterans, ch.admit
                    ),
                );
            }
            if (ch.fallback.veterans.len() as u32) < ch.needs.veterans {
                r.err(
                    &[&cid, "chapters", &chid, "fallback"],
                    cat("fallback.veterans"),
                    format!(
                        "needs {} veterans, but its fallback gives {}: a cold start would fall \
                         short (K3)",
                        ch.needs.veterans,
                        ch.fallback.veterans.len()
                    ),
                );
            }
            if ch.fallback.veterans.len() as u32 > ch.admit.max(ch.needs.veterans) {
                r.err(
                    &[&cid, "chapters", &chid, "fallback"],
                    cat("fallback.veterans"),
                    format!(
                        "the fallback gives {} units but the chapter admits {}",
                        ch.fallback.veterans.len(),
                        ch.admit
                    ),
                );
            }
            for u in &ch.fallback.veterans {
                if db.unit(u).is_none_or(|t| t.camp != Camp::Eladrins) {
                    r.err(
                        &[&cid, "chapters", &chid, "fallback", &format!("\"{u}\"")],
                        cat("fallback.veterans"),
                        format!("no Eladrin unit `{u}` in units.ron"),
                    );
                } else if !ch.admits(u) {
                    r.err(
                        &[&cid, "chapters", &chid, "fallback", &format!("\"{u}\"")],
                        cat("fallback.veterans"),
                        format!(
                            "the fallback gives a `{u}`, which `admit_kinds` does not admit: \
                             {}",
                            ch.admit_kinds.join(", ")
                        ),
                    );
                }
            }
            for u in &ch.admit_kinds {
                if db.unit(u).is_none_or(|t| t.camp != Camp::Eladrins) {
                    r.err(
                        &[&cid, "chapters", &chid, "admit_kinds", &format!("\"{u}\"")],
                        cat("admit_kinds"),
                        format!("no Eladrin unit `{u}` in units.ron"),
                    );
                }
            }
            for (field, ids) in [
                ("fallback.research", &ch.fallback.research),
                ("needs.research", &ch.needs.research),
            ] {
                for t in ids {
                    if db.tech(t).is_none() {
                        r.err(
                            &[&cid, "chapters", &chid, &format!("\"{t}\"")],
                            cat(field),
                            format!("no technology `{t}` in research.ron"),
                        );
                    }
                }
            }
            if !ch.fallback.stock.covers(&ch.needs.stock) {
                r.err(
                    &[&cid, "chapters", &chid, "needs"],
                    cat("needs.stock"),
                    "needs more stores than its fallback gives: a cold start would fall short \
                     (K3)"
                        .to_string(),
                );
            }
            for t in &ch.needs.research {
                if !ch.fallback.research.contains(t) {
                    r.err(
                        &[&cid, "chapters", &chid, "needs"],
                        cat("needs.research"),
                        format!("needs `{t}`, which its fallback does not give (K3)"),
                    );
                }
                if !c.carry.research {
                    r.warn(
                        &[&cid, "chapters", &chid, "needs"],
                        cat("needs.research"),
                        format!(
                            "needs `{t}`, but the carry-over keeps no research: it always comes \
                             from the fallback"
                        ),
                    );
                }
            }
            for t in &ch.fallback.artifacts {
                if !s.artifacts.iter().any(|x| &x.id == t) {
                    r.err(
                        &[&cid, "chapters", &chid, &format!("\"{t}\"")],
                        cat("fallback.artifacts"),
                        format!("no artifact `{t}` in artifacts.ron"),
                    );
                }
            }
            if let (Some(l), Some(h)) = (level, ch.muster_at)
                && !super::map::make_map(db, l)
                    .iter()
                    .any(|(x, _)| *x == Hex::new(h.0, h.1))
            {
                r.err(
                    &[&cid, "chapters", &chid, "muster_at"],
                    cat("muster_at"),
                    format!("{h:?} is not on level `{}`'s map", ch.level),
                );
            }
            for b in &ch.next {
                if let Goto::Chapter(to) = &b.to
                    && c.chapter(to).is_none()
                {
                    r.err(
                        &[&cid, "chapters", &chid, "next", &format!("\"{to}\"")],
                        cat("next"),
                        format!(
                            "no chapter `{to}` in this campaign; chapters: {}",
                            c.chapters
                                .iter()
                                .map(|x| x.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                if let When::Flag(f) = &b.on
                    && f.trim().is_empty()
                {
                    r.err(
                        &[&cid, "chapters", &chid, "next"],
                        cat("next"),
                        "a flag needs a name".into(),
                    );
                }
            }
        }
        // Every chapter can be reached from the first (a chapter nothing leads to is dead data).
        let mut reach: HashSet<&str> = HashSet::new();
        let mut todo: Vec<&str> = c
            .chapters
            .first()
            .map(|x| x.id.as_str())
            .into_iter()
            .collect();
        while let Some(id) = todo.pop() {
            if !reach.insert(id) {
                continue;
            }
            let Some(i) = c.chapters.iter().position(|x| x.id == id) else {
                continue;
            };
            let ch = &c.chapters[i];
            for b in &ch.next {
                if let Goto::Chapter(to) = &b.to {
                    todo.push(to);
                }
            }
            // A won chapter without its own `Won` branch goes on to the next listed.
            if !ch.next.iter().any(|b| b.on == When::Won)
                && let Some(n) = c.chapters.get(i + 1)
            {
                todo.push(&n.id);
            }
        }
        for ch in &c.chapters {
            if !reach.contains(ch.id.as_str()) {
                r.warn(
                    &[&cid, "chapters", &format!("\"{}\"", ch.id)],
                    format!("campaigns[{}].chapters[{}]", c.id, ch.id),
                    "no branch leads to this chapter from the first: it can never be played".into(),
                );
            }
        }
    }
}

/// The most nodes a search budget may spend on one decision.
pub const MAX_SEARCH_NODES: u32 = 1_000_000;

/// `ai.ron: search`: bounded numbers, budgets of known difficulties.
fn ai_search(db: &ContentDb, r: &mut Report) {
    search_bounds(db, &db.set.ai.search, &[], r);
    weight_bounds(&db.set.ai, &[], r);
}

/// The AI weights that size a loop or a share: a rift's guard looks around each Eladrin army
/// within its radius (a huge one would walk millions of hexes a decision), a retreat is a
/// percent. `within` as in `search_bounds`.
fn weight_bounds(w: &crate::content::AiWeights, within: &[&str], r: &mut Report) {
    for (camp, field, value, hi) in [
        ("chaos", "guard", w.chaos.guard, 16),
        ("chaos", "retreat", w.chaos.retreat, 100),
        ("eladrin", "retreat", w.eladrin.retreat, 100),
    ] {
        if value > hi {
            let anchors: Vec<&str> = within.iter().copied().chain([camp, field]).collect();
            r.err(
                &anchors,
                format!("ai.{camp}.{field}"),
                format!("{field} is 0 to {hi}, not {value}"),
            );
        }
    }
}

/// A level's own AI fields (`ai`), merged over `ai.ron`: each field that does not fit, then
/// the search's bounds on the result (a level can't give itself a million-node search).
fn level_ai(db: &ContentDb, l: &Level, r: &mut Report) {
    let Some(raw) = &l.ai else {
        return;
    };
    match super::level_ai::merged(&db.set.ai, raw.get_ron(), r.file, r.text, "ai") {
        Ok(w) => {
            search_bounds(db, &w.search, &["ai"], r);
            weight_bounds(&w, &["ai"], r);
        }
        Err(ps) => r.out.extend(ps),
    }
}

/// The search settings' bounds; `within` are the anchors above `search` (`["ai"]` in a level).
fn search_bounds(
    db: &ContentDb,
    s: &crate::content::SearchSettings,
    within: &[&str],
    r: &mut Report,
) {
    let at = |rest: &[&str]| -> Vec<String> {
        within
            .iter()
            .chain(["search"].iter())
            .chain(rest.iter())
            .map(|a| a.to_string())
            .collect()
    };
    for (field, value, lo, hi) in [
        ("rollouts", s.rollouts, 1, 16),
        ("horizon", s.horizon, 1, 200),
        ("turns", s.turns.chaos.max(s.turns.eladrin), 0, 100),
        ("odds_samples", s.odds_samples, 1, 10_000),
        ("eval.reach", s.eval.reach, 0, 64),
        ("eval.range", s.eval.range, 0, 64),
        ("candidates", s.candidates, 1, 12),
        (
            "attack_margin",
            s.attack_margin.chaos.max(s.attack_margin.eladrin),
            0,
            MAX_SEARCH_NODES,
        ),
        (
            "margin",
            s.margin.chaos.max(s.margin.eladrin),
            0,
            MAX_SEARCH_NODES,
        ),
    ] {
        if !(lo..=hi).contains(&value) {
            // `eval.reach`: anchored at each part of its path.
            let anchors = at(&field.split('.').collect::<Vec<_>>());
            r.err(
                &anchors.iter().map(String::as_str).collect::<Vec<_>>(),
                format!("ai.search.{field}"),
                format!("{field} is {lo} to {hi}, not {value}"),
            );
        }
    }
    for (table, per, what) in [
        (
            "budgets",
            &s.budgets,
            "a budget is 0 to {MAX} nodes a decision",
        ),
        ("margins", &s.margins, "a margin is 0 to {MAX} points"),
    ] {
        for (d, b) in per {
            let anchor = format!("\"{d}\"");
            let anchors = at(&[table, &anchor]);
            let anchors: Vec<&str> = anchors.iter().map(String::as_str).collect();
            if db.difficulty(d).is_none() {
                r.warn(
                    &anchors,
                    format!("ai.search.{table}[{d}]"),
                    format!(
                        "no difficulty `{d}` in difficulty.ron, so this entry is never used; \
                         difficulties: {}",
                        db.set
                            .difficulties
                            .iter()
                            .map(|x| x.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
            if b.chaos > MAX_SEARCH_NODES || b.eladrin > MAX_SEARCH_NODES {
                r.err(
                    &anchors,
                    format!("ai.search.{table}[{d}]"),
                    what.replace("{MAX}", &MAX_SEARCH_NODES.to_string()),
                );
            }
        }
    }
}

/// The most a track may hold, either way (tracks are bounded, saves stay small).
pub const TRACK_LIMIT: i32 = 1_000_000;

/// `tracks.ron`: unique ids, `min <= start <= max`, within the limit.
fn tracks(db: &ContentDb, r: &mut Report) {
    let mut seen = std::collections::BTreeSet::new();
    for t in &db.set.tracks {
        let anchor = format!("\"{}\"", t.id);
        if !seen.insert(t.id.as_str()) {
            r.err(
                &[&anchor],
                format!("tracks[{}].id", t.id),
                format!("the track `{}` is declared twice", t.id),
            );
        }
        if !(t.min <= t.start && t.start <= t.max) {
            r.err(
                &[&anchor],
                format!("tracks[{}]", t.id),
                format!(
                    "min {} <= start {} <= max {} must hold",
                    t.min, t.start, t.max
                ),
            );
        }
        if t.min < -TRACK_LIMIT || t.max > TRACK_LIMIT {
            r.err(
                &[&anchor],
                format!("tracks[{}]", t.id),
                format!("a track stays within -{TRACK_LIMIT} to {TRACK_LIMIT}"),
            );
        }
        if t.chapter.is_empty() {
            r.err(
                &[&anchor],
                format!("tracks[{}].chapter", t.id),
                "name the chapter the track belongs to".into(),
            );
        }
    }
}

/// `rules.ron`: each number in its range, the summoned unit a Chaos unit.
fn rules_numbers(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    let n = &s.rules;
    let checks: [(&str, bool, &str); 6] = [
        (
            "food_healthy_on",
            (1..=7).contains(&n.food_healthy_on),
            "a d6 target from 1 to 7",
        ),
        ("army_food_group", n.army_food_group >= 1, "at least 1"),
        ("action_points", n.action_points >= 1, "at least 1"),
        (
            "combat_rounds",
            (1..=20).contains(&n.combat_rounds),
            "from 1 to 20",
        ),
        (
            "research_offer",
            (1..=10).contains(&n.research_offer),
            "from 1 to 10",
        ),
        (
            "analysis_target",
            (2..=13).contains(&n.analysis_target),
            "a 2d6 target from 2 to 13",
        ),
    ];
    for (field, ok, want) in checks {
        if !ok {
            r.err(
                &[field],
                format!("rules.{field}"),
                format!("must be {want}"),
            );
        }
    }
    if db
        .unit(&n.chaos_summon)
        .is_none_or(|u| u.camp != Camp::Chaos)
    {
        r.err(
            &["chaos_summon"],
            "rules.chaos_summon".into(),
            format!("`{}` is not a Chaos unit id from units.ron", n.chaos_summon),
        );
    }
}

/// `terrains.ron`: ids, move costs, a land terrain for generated maps.
fn terrains(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "terrains",
        s.terrains
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str()])),
    );
    if s.terrains.is_empty() {
        r.err(
            &[],
            "terrains".into(),
            "at least one terrain is needed".into(),
        );
    }
    for t in &s.terrains {
        if t.move_cost == 0 {
            r.err(
                &[&format!("\"{}\"", t.id), "move_cost"],
                format!("terrains[{}].move_cost", t.id),
                "a move costs at least 1 action point".into(),
            );
        }
    }
    if !s
        .terrains
        .iter()
        .any(|t| t.weight > 0 && !t.water && !t.impassable)
    {
        r.err(
            &[],
            "terrains".into(),
            "at least one land terrain needs a weight > 0 for generated maps".into(),
        );
    }
}

/// `improvements.ron`: ids, the terrains and technologies named.
fn improvements(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "improvements",
        s.improvements
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str(), t.text.as_str()])),
    );
    for i in &s.improvements {
        let a = format!("\"{}\"", i.id);
        for t in &i.terrains {
            if db.terrain(t).is_none() {
                r.err(
                    &[&a, "terrains", &format!("\"{t}\"")],
                    format!("improvements[{}].terrains", i.id),
                    format!("unknown terrain id `{t}`: use an id from terrains.ron"),
                );
            }
        }
        if let Some(t) = &i.requires_tech
            && db.tech(t).is_none()
        {
            r.err(
                &[&a, "requires_tech"],
                format!("improvements[{}].requires_tech", i.id),
                format!("unknown technology `{t}`: use an id from research.ron"),
            );
        }
    }
}

/// `buildings.ron`: ids, the technologies named.
fn buildings(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "buildings",
        s.buildings
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str(), t.text.as_str()])),
    );
    for b in &s.buildings {
        if let Some(t) = &b.requires_tech
            && db.tech(t).is_none()
        {
            r.err(
                &[&format!("\"{}\"", b.id), "requires_tech"],
                format!("buildings[{}].requires_tech", b.id),
                format!("unknown technology `{t}`: use an id from research.ron"),
            );
        }
    }
}

/// `outposts.ron`: ids, the next size, zones within bounds.
fn outpost_sizes(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "outpost_sizes",
        s.outpost_sizes
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str()])),
    );
    for z in &s.outpost_sizes {
        if let Some(n) = &z.next
            && db.size(n).is_none()
        {
            r.err(
                &[&format!("\"{}\"", z.id), "next"],
                format!("outpost_sizes[{}].next", z.id),
                format!("unknown outpost size `{n}`"),
            );
        }
        if z.influence > 20 || z.control > z.influence {
            r.err(
                &[&format!("\"{}\"", z.id), "control"],
                format!("outpost_sizes[{}]", z.id),
                "influence must be at most 20 and control at most influence".into(),
            );
        }
    }
}

/// `units.ron`: ids, hit points, d6 targets, what a unit turns into, its card actions' effects.
fn units(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "units",
        s.units
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str(), t.text.as_str()])),
    );
    if !s.units.iter().any(|u| u.camp == Camp::Chaos) {
        r.err(
            &[],
            "units".into(),
            "at least one Chaos unit is needed (corrupted units become one, R6.3)".into(),
        );
    }
    for u in &s.units {
        let a = format!("\"{}\"", u.id);
        if u.hp == 0 {
            r.err(
                &[&a, "hp"],
                format!("units[{}].hp", u.id),
                "a unit needs at least 1 hit point".into(),
            );
        }
        if !(1..=7).contains(&u.attack.hit_on) {
            r.err(
                &[&a, "hit_on"],
                format!("units[{}].attack.hit_on", u.id),
                "a d6 target from 1 to 7".into(),
            );
        }
        if u.resistance > 7 {
            r.err(
                &[&a, "resistance"],
                format!("units[{}].resistance", u.id),
                "a d6 target from 0 (immune) to 7".into(),
            );
        }
        if let Some(c) = &u.corrupts_into {
            match db.unit(c) {
                None => r.err(
                    &[&a, "corrupts_into"],
                    format!("units[{}].corrupts_into", u.id),
                    format!("unknown unit id `{c}`: use an id from units.ron"),
                ),
                Some(t) if t.camp != Camp::Chaos => r.err(
                    &[&a, "corrupts_into"],
                    format!("units[{}].corrupts_into", u.id),
                    format!("`{c}` must be a Chaos unit (camp: Chaos)"),
                ),
                _ => {}
            }
        }
        for act in &u.actions {
            effects(
                db,
                r,
                &format!("units[{}].actions[{}]", u.id, act.id),
                &a,
                &act.effects,
            );
        }
    }
}

/// `research.ron`: ids, technologies that cost nothing, their effects.
fn research(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "research",
        s.research
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str(), t.text.as_str()])),
    );
    for t in &s.research {
        let a = format!("\"{}\"", t.id);
        if t.points == 0 && t.resources.is_empty() {
            r.warn(
                &[&a],
                format!("research[{}].points", t.id),
                "needs no points and no resources: it completes at once".into(),
            );
        }
        effects(db, r, &format!("research[{}]", t.id), &a, &t.effects);
    }
}

/// `exploration.ron`: ids and effects.
fn exploration(db: &ContentDb, r: &mut Report) {
    named_effects(db, r, "exploration", &named_list(&db.set.exploration));
}

/// `rituals.ron`: ids and effects.
fn rituals(db: &ContentDb, r: &mut Report) {
    named_effects(db, r, "rituals", &named_list(&db.set.rituals));
}

/// An entry with a name, a text and effects: (id, name, text, effects).
type Named<'a> = (&'a str, &'a str, &'a str, &'a [Effect]);

/// Catalogue entries with an id, a name, a text and effects.
trait WithEffects {
    fn named(&self) -> Named<'_>;
}

macro_rules! with_effects {
    ($($t:ty),*) => {
        $(impl WithEffects for $t {
            fn named(&self) -> Named<'_> {
                (&self.id, &self.name, &self.text, &self.effects)
            }
        })*
    };
}
with_effects!(Card, ExplorationCard, Ritual);

fn named_list<T: WithEffects>(list: &[T]) -> Vec<Named<'_>> {
    list.iter().map(WithEffects::named).collect()
}

/// The ids, texts and effects of a catalogue of named entries (cards, rituals).
fn named_effects(db: &ContentDb, r: &mut Report, what: &str, list: &[Named]) {
    r.ids(what, list.iter().map(|(id, n, t, _)| (*id, vec![*n, *t])));
    for (id, _, _, effects_list) in list {
        effects(
            db,
            r,
            &format!("{what}[{id}]"),
            &format!("\"{id}\""),
            effects_list,
        );
    }
}

/// `portal.ron`: present, arches with cells, the star before the last cell, bounds.
fn portal(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    match &s.portal {
        None => r.err(
            &[],
            "portal".into(),
            "missing portal.ron: the game needs a portal (R8)".into(),
        ),
        Some(p) => {
            if p.arches.is_empty() || p.arches.iter().any(|a| a.is_empty()) {
                r.err(
                    &["arches"],
                    "portal.arches".into(),
                    "each arch needs at least one cell".into(),
                );
            }
            if p.star == 0 || p.star >= p.track {
                r.err(
                    &["star"],
                    "portal.star".into(),
                    format!(
                        "the star must lie before the last cell: 1 ≤ star < track ({})",
                        p.track
                    ),
                );
            }
            if p.track > 100 {
                r.err(
                    &["track"],
                    "portal.track".into(),
                    "at most 100 cells".into(),
                );
            }
            if p.crystals_per_phase == 0 {
                r.err(
                    &["crystals_per_phase"],
                    "portal.crystals_per_phase".into(),
                    "at least 1, or the portal can never be powered".into(),
                );
            }
        }
    }
}

/// `difficulty.ron`: ids, a `normal` difficulty.
fn difficulties(db: &ContentDb, r: &mut Report) {
    let s = &db.set;
    r.ids(
        "difficulties",
        s.difficulties
            .iter()
            .map(|t| (t.id.as_str(), vec![t.name.as_str(), t.text.as_str()])),
    );
    if db.difficulty("normal").is_none() {
        r.err(
            &[],
            "difficulties".into(),
            "a difficulty with id \"normal\" is needed (the default)".into(),
        );
    }
    for d in &s.difficulties {
        for t in d.victory_research.iter().filter(|t| db.tech(t).is_none()) {
            r.err(
                &[&format!("\"{}\"", d.id), "victory_research"],
                format!("difficulties.{}.victory_research", d.id),
                format!("unknown technology `{t}`: use an id from research.ron"),
            );
        }
    }
}

/// Technologies a level's victory asks (its own, or a difficulty's `victory_research`): each
/// must be in research.ron and not excluded from the level's deck (`on`: which difficulty).
fn research_asked(
    (db, l, r): (&ContentDb, &Level, &mut Report),
    techs: &[String],
    anchors: &[&str],
    field: &str,
    on: &str,
) {
    for t in techs {
        let quoted = format!("\"{t}\"");
        let at: Vec<&str> = anchors.iter().copied().chain([quoted.as_str()]).collect();
        if db.tech(t).is_none() {
            r.err(
                &at,
                field.into(),
                format!("unknown technology `{t}`: use an id from research.ron"),
            );
        } else if l.exclude_research.contains(t) {
            r.err(
                &at,
                field.into(),
                format!(
                    "`{t}` is needed to win but excluded from the deck: the level is unwinnable{on}"
                ),
            );
        }
    }
}

/// A deck (`events.ron`, `chaos.ron`, `artifacts.ron`): ids, a size within bounds, effects.
fn deck(db: &ContentDb, r: &mut Report, what: &str, deck: &[Card]) {
    let copies: u64 = deck.iter().map(|c| c.copies as u64).sum();
    if copies == 0 {
        r.err(
            &[],
            what.into(),
            "the deck is empty: add at least one card".into(),
        );
    }
    if copies > MAX_DECK as u64 {
        r.err(
            &[],
            what.into(),
            format!("{copies} cards: at most {MAX_DECK}"),
        );
    }
    named_effects(db, r, what, &named_list(deck));
}

fn events(db: &ContentDb, r: &mut Report) {
    deck(db, r, "events", &db.set.events);
}

fn chaos(db: &ContentDb, r: &mut Report) {
    deck(db, r, "chaos", &db.set.chaos);
}

fn artifacts(db: &ContentDb, r: &mut Report) {
    deck(db, r, "artifacts", &db.set.artifacts);
}

/// True when `at` lies inside the level's map.
pub fn on_map(map: &MapDef, at: At) -> bool {
    match map {
        MapDef::Generated { radius, .. } => Hex::new(at.0, at.1).ulength() <= *radius,
        MapDef::Rows { rows, .. } => {
            let h = Hex::new(at.0, at.1);
            let [col, row] = crate::ground::hex::to_offset(h);
            row >= 0
                && (row as usize) < rows.len()
                && col >= 0
                && (col as usize) < rows[row as usize].chars().count()
        }
    }
}

/// Checks one level against the content.
pub(super) fn level(db: &ContentDb, l: &Level, file: &str, text: &str) -> Vec<Problem> {
    let mut r = Report {
        file,
        text,
        out: Vec::new(),
    };
    level_texts(l, file, &mut r);
    if !level_map(db, l, &mut r) {
        // Lists past their bounds: checking each entry would take too long.
        return r.out;
    }
    level_places(db, l, &mut r);
    level_outposts(db, l, &mut r);
    level_armies(db, l, &mut r);
    level_choices(db, l, &mut r);
    level_ai(db, l, &mut r);
    // The chapters' own fields (`ext`), typed and checked like the core's.
    for k in db.chapters.catalogues().fields() {
        r.out.extend(k.problems(db, l, file, text));
    }
    // The tracks the chapters it plays keep, declared in tracks.ron.
    for c in &l.chapters {
        for t in db.chapters.catalogues().tracks_of(c) {
            if !db.set.tracks.iter().any(|d| d.id == *t) {
                r.err(
                    &["chapters:", &format!("\"{c}\"")],
                    "chapters".into(),
                    format!(
                        "the chapter `{c}` keeps the track `{t}`, which tracks.ron does not \
                         declare: add it (docs/schema.md, TrackDef)"
                    ),
                );
            }
        }
    }
    if r.out.iter().all(|p| p.severity != Severity::Error) {
        portal_reachable(db, l, &mut r);
    }
    r.out
}

/// An error when `at` lies outside the level's map.
fn at_check(l: &Level, r: &mut Report, field: &str, at: At) {
    if !on_map(&l.map, at) {
        r.err(
            &[field, &format!("({}, {})", at.0, at.1)],
            field.to_string(),
            format!("({}, {}) is outside the map", at.0, at.1),
        );
    }
}

/// The level's id against its file name, and the length of its texts.
fn level_texts(l: &Level, file: &str, r: &mut Report) {
    let expected_id = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    if !expected_id.is_empty() && l.id != expected_id && file.ends_with(".ron") {
        r.warn(
            &["id"],
            "id".into(),
            format!(
                "the id `{}` differs from the file name `{expected_id}`",
                l.id
            ),
        );
    }
    for t in [&l.name, &l.description, &l.intro] {
        if t.chars().count() > MAX_TEXT {
            r.err(
                &[],
                "name/description/intro".into(),
                format!("longer than {MAX_TEXT} characters"),
            );
        }
    }
}

/// The map (its radius or rows and legend) and the size of every list; false when a list is
/// past its bound.
fn level_map(db: &ContentDb, l: &Level, r: &mut Report) -> bool {
    match &l.map {
        MapDef::Generated { radius, .. } => {
            if *radius > MAX_MAP_RADIUS || *radius == 0 {
                r.err(
                    &["radius"],
                    "map.radius".into(),
                    format!("radius {radius}: must be from 1 to {MAX_MAP_RADIUS}"),
                );
                return false;
            }
        }
        MapDef::Rows { legend, rows } => {
            if rows.len() > 2 * MAX_MAP_RADIUS as usize
                || rows
                    .iter()
                    .any(|row| row.chars().count() > 2 * MAX_MAP_RADIUS as usize)
            {
                r.err(
                    &["rows"],
                    "map.rows".into(),
                    format!("at most {} rows and columns", 2 * MAX_MAP_RADIUS),
                );
                return false;
            }
            for (c, t) in legend {
                if db.terrain(t).is_none() {
                    r.err(
                        &["legend", &format!("\"{t}\"")],
                        format!("map.legend['{c}']"),
                        format!("unknown terrain `{t}`"),
                    );
                }
            }
            for (i, row) in rows.iter().enumerate() {
                for c in row.chars() {
                    if !legend.contains_key(&c) {
                        r.err(
                            &["rows", row.as_str()],
                            format!("map.rows[{i}]"),
                            format!("letter '{c}' is not in the legend"),
                        );
                    }
                }
            }
        }
    }
    let lists = [
        l.terrain.len(),
        l.rifts.len(),
        l.corrupted.len(),
        l.outposts.len(),
        l.improvements.len(),
        l.armies.len(),
        l.artifacts.len(),
        l.lying.len(),
    ];
    if lists.iter().any(|n| *n > MAX_ENTRIES) {
        r.err(
            &[],
            "level".into(),
            format!("a list holds more than {MAX_ENTRIES} entries"),
        );
        return false;
    }
    true
}

/// Tiles the level names (terrain overrides, rifts, corruption, artifacts, resources lying):
/// on the map, with known terrains.
fn level_places(db: &ContentDb, l: &Level, r: &mut Report) {
    for (at, t) in &l.terrain {
        at_check(l, r, "terrain", *at);
        if db.terrain(t).is_none() {
            r.err(
                &["terrain", &format!("\"{t}\"")],
                "terrain".into(),
                format!("unknown terrain `{t}`: use an id from terrains.ron"),
            );
        }
    }
    if l.rifts.is_empty() {
        r.warn(
            &["rifts"],
            "rifts".into(),
            "no rift: Chaos can never corrupt a tile (R6.1)".into(),
        );
    }
    for at in &l.rifts {
        at_check(l, r, "rifts", *at);
    }
    for at in &l.corrupted {
        at_check(l, r, "corrupted", *at);
    }
    for at in &l.artifacts {
        at_check(l, r, "artifacts", *at);
    }
    for (at, _) in &l.lying {
        at_check(l, r, "lying", *at);
    }
}

/// Outposts (exactly one with the portal, known sizes and buildings) and improvements.
fn level_outposts(db: &ContentDb, l: &Level, r: &mut Report) {
    let portals = l.outposts.iter().filter(|o| o.portal).count();
    if portals != 1 {
        r.err(
            &["outposts"],
            "outposts".into(),
            format!("exactly one outpost needs `portal: true` (found {portals})"),
        );
    }
    for o in &l.outposts {
        let a = format!("\"{}\"", o.name);
        at_check(l, r, "outposts", o.at);
        match db.size(&o.size) {
            None => r.err(
                &[&a, "size"],
                format!("outposts[{}].size", o.name),
                format!(
                    "unknown outpost size `{}`: use an id from outposts.ron",
                    o.size
                ),
            ),
            Some(z) if o.buildings.len() as u32 > z.building_slots => r.err(
                &[&a, "buildings"],
                format!("outposts[{}].buildings", o.name),
                format!(
                    "{} buildings but a {} has {} slots (R9.2)",
                    o.buildings.len(),
                    z.name,
                    z.building_slots
                ),
            ),
            _ => {}
        }
        for b in &o.buildings {
            if db.building(b).is_none() {
                r.err(
                    &[&a, &format!("\"{b}\"")],
                    format!("outposts[{}].buildings", o.name),
                    format!("unknown building `{b}`: use an id from buildings.ron"),
                );
            }
        }
        if let Some(z) = db.size(&o.size) {
            let storage = z.storage
                + o.buildings
                    .iter()
                    .filter_map(|b| db.building(b))
                    .flat_map(|b| &b.effects)
                    .map(|e| match e {
                        BuildingEffect::Storage(n) => *n,
                        _ => 0,
                    })
                    .sum::<u32>();
            if o.stock.total() > storage {
                r.warn(
                    &[&a, "stock"],
                    format!("outposts[{}].stock", o.name),
                    format!(
                        "{} resources but the storage holds {storage} (R3.3): the rest starts \
                         lying on the outpost's tile; lower the stock or add a granary",
                        o.stock.total()
                    ),
                );
            }
        }
    }
    for (at, id) in &l.improvements {
        at_check(l, r, "improvements", *at);
        if db.improvement(id).is_none() {
            r.err(
                &["improvements", &format!("\"{id}\"")],
                "improvements".into(),
                format!("unknown improvement `{id}`: use an id from improvements.ron"),
            );
        }
    }
}

/// Armies, the level's and each difficulty tweak's: on the map, known units of their camp.
fn level_armies(db: &ContentDb, l: &Level, r: &mut Report) {
    let tweak_armies = l.difficulty_tweaks.iter().flat_map(|(d, t)| {
        t.armies.iter().enumerate().map(move |(i, a)| {
            let at = vec![
                "difficulty_tweaks".to_string(),
                format!("\"{d}\""),
                "armies".into(),
            ];
            (at, format!("difficulty_tweaks.{d}.armies[{i}]"), a)
        })
    });
    let armies = l
        .armies
        .iter()
        .enumerate()
        .map(|(i, a)| (vec!["armies".to_string()], format!("armies[{i}]"), a))
        .chain(tweak_armies);
    for (at, path, a) in armies {
        let key = |u: &str| {
            let mut k: Vec<String> = at.clone();
            k.push(format!("\"{u}\""));
            k
        };
        at_check(l, r, "armies", a.at);
        if a.units.is_empty() {
            r.err(
                &at.iter().map(String::as_str).collect::<Vec<_>>(),
                format!("{path}.units"),
                "an army needs at least one unit".into(),
            );
        }
        for u in &a.units {
            match db.unit(u) {
                None => r.err(
                    &key(u).iter().map(String::as_str).collect::<Vec<_>>(),
                    format!("{path}.units"),
                    format!("unknown unit id `{u}`: use an id from units.ron"),
                ),
                Some(t) if t.camp != a.camp => r.err(
                    &key(u).iter().map(String::as_str).collect::<Vec<_>>(),
                    format!("{path}.units"),
                    format!("`{u}` belongs to {:?}, not {:?}", t.camp, a.camp),
                ),
                _ => {}
            }
        }
    }
}

/// The difficulties, the victory conditions and the research excluded from the deck.
fn level_choices(db: &ContentDb, l: &Level, r: &mut Report) {
    if l.seats.min > 8 {
        r.err(
            &["seats", "min"],
            "seats.min".into(),
            format!("{} seats: a game has at most 8", l.seats.min),
        );
    }
    for (i, n) in l.seats.names.iter().enumerate() {
        if n.trim().is_empty() || n.chars().count() > 24 || i >= 8 {
            r.err(
                &["seats", "names"],
                format!("seats.names[{i}]"),
                format!("`{n}`: an AI seat's name is 1 to 24 characters, 8 names at most"),
            );
        }
    }
    for (id, tweak) in &l.difficulty_tweaks {
        research_asked(
            (db, l, &mut *r),
            &tweak.victory_research,
            &["difficulty_tweaks", "victory_research"],
            &format!("difficulty_tweaks.{id}.victory_research"),
            &format!(" on {id}"),
        );
        if db.difficulty(id).is_none() {
            r.err(
                &["difficulty_tweaks", &format!("\"{id}\"")],
                format!("difficulty_tweaks.{id}"),
                format!("unknown difficulty `{id}`: use an id from difficulty.ron"),
            );
        }
    }
    if db.difficulty(&l.difficulty).is_none() {
        r.err(
            &["difficulty"],
            "difficulty".into(),
            format!("unknown difficulty `{}`", l.difficulty),
        );
    }
    research_asked(
        (db, l, &mut *r),
        &l.victory.research,
        &["victory"],
        "victory.research",
        "",
    );
    if l.victory.rifts_closed as usize > l.rifts.len() {
        r.warn(
            &["rifts_closed"],
            "victory.rifts_closed".into(),
            format!(
                "{} rifts to close but the level opens {} (chaos cards may open more)",
                l.victory.rifts_closed,
                l.rifts.len()
            ),
        );
    }
    for t in &l.exclude_research {
        if db.tech(t).is_none() {
            r.warn(
                &["exclude_research", &format!("\"{t}\"")],
                "exclude_research".into(),
                format!("unknown technology `{t}`"),
            );
        }
    }
}

/// An unwinnable level: the portal needs a resource the level neither starts with enough of
/// nor can ever produce (no improvement or building yielding it fits its map).
fn portal_reachable(db: &ContentDb, l: &Level, r: &mut Report) {
    let Some(portal) = &db.set.portal else {
        return;
    };
    let mut need = Stock::default();
    for cell in portal.arches.iter().flatten() {
        need.add_all(cell);
    }
    need.add(Res::Crystal, portal.star);
    let mut have = Stock::default();
    for o in &l.outposts {
        have.add_all(&o.stock);
    }
    for (_, s) in &l.lying {
        have.add_all(s);
    }
    let tech_ok = |t: &Option<String>| match t {
        None => true,
        Some(t) => db.tech(t).is_some() && !l.exclude_research.contains(t),
    };
    let map: HashSet<String> = super::map::make_map(db, l)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    for (res, n) in need.iter() {
        if have.get(res) >= n {
            continue;
        }
        let placed = l
            .improvements
            .iter()
            .any(|(_, id)| db.improvement(id).is_some_and(|i| i.yields.get(res) > 0));
        let buildable = db.set.improvements.iter().any(|i| {
            tech_ok(&i.requires_tech)
                && map.iter().any(|t| {
                    (i.terrains.is_empty() || i.terrains.contains(t))
                        && i.yields.get(res) + db.terrain(t).map_or(0, |t| t.yield_bonus.get(res))
                            > 0
                })
        });
        let building = db
            .set
            .buildings
            .iter()
            .any(|b| tech_ok(&b.requires_tech) && b.yields.get(res) > 0);
        if !(placed || buildable || building) {
            let makers: Vec<String> = db
                .set
                .improvements
                .iter()
                .filter(|i| i.yields.get(res) > 0)
                .map(|i| {
                    if i.terrains.is_empty() {
                        i.id.clone()
                    } else {
                        format!("{} (on {})", i.id, i.terrains.join(", "))
                    }
                })
                .collect();
            r.err(
                &["outposts"],
                "outposts.stock".into(),
                format!(
                    "the level is unwinnable: the portal needs {n} {} in all, the level starts \
                     with {}, and nothing on this map can produce it{}. Add a tile where it can \
                     be produced, a starting stock of {n}, or change the portal's cost",
                    res.name(),
                    have.get(res),
                    if makers.is_empty() {
                        String::new()
                    } else {
                        format!(" (made by {})", makers.join("; "))
                    }
                ),
            );
        }
    }
}
