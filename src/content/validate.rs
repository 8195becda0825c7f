//! Cross-reference and sanity checks on loaded content: unknown ids, duplicates, impossible
//! numbers, text bounds. Each problem names the file, line:column and field, and says how to fix.
//! Placing a problem searches its file, so a load places at most `MAX_PROBLEMS_PER_FILE` a
//! file and `MAX_PROBLEMS` in all (`Budget`); past them problems are counted, one line a file.

use std::collections::{HashMap, HashSet};

use hexx::Hex;

use super::*;

/// How many problems each file, and the whole load, have had placed in their text: placing
/// one searches its file, so past `MAX_PROBLEMS_PER_FILE` a file (or `MAX_PROBLEMS` in all) a
/// problem is only counted. A file shared by many levels (a mod's `levels.ron`) is one file.
#[derive(Default)]
pub(super) struct Budget {
    placed: HashMap<String, usize>,
    total: usize,
}

impl Budget {
    /// How many more problems `file` may have placed.
    fn room(&self, file: &str) -> usize {
        let here = self.placed.get(file).copied().unwrap_or(0);
        MAX_PROBLEMS_PER_FILE
            .saturating_sub(here)
            .min(MAX_PROBLEMS.saturating_sub(self.total))
    }
}

/// Collects problems for one file (one catalogue, or one level), within the load's budget.
struct Report<'a> {
    file: &'a str,
    text: &'a str,
    found: Listed,
}

impl<'a> Report<'a> {
    /// A report on `file` (text `text`), with the room `budget` leaves it.
    fn new(file: &'a str, text: &'a str, budget: &Budget) -> Report<'a> {
        Report {
            file,
            text,
            found: Listed::new(budget.room(file)),
        }
    }
    /// Its problems (the ones past its room counted in one line), spent from `budget`.
    fn finish(self, budget: &mut Budget) -> Vec<Problem> {
        let placed = self.found.listed();
        *budget.placed.entry(self.file.to_string()).or_default() += placed;
        budget.total += placed;
        self.found.finish(self.file)
    }
    fn err(&mut self, anchors: &[&str], field: String, message: String) {
        self.push(Severity::Error, anchors, field, message);
    }
    fn warn(&mut self, anchors: &[&str], field: String, message: String) {
        self.push(Severity::Warning, anchors, field, message);
    }
    fn push(&mut self, severity: Severity, anchors: &[&str], field: String, message: String) {
        let (file, text) = (self.file, self.text);
        self.found.push_with(severity, move || {
            let (line, col) = locate(text, anchors);
            Problem {
                severity,
                file: file.to_string(),
                line,
                col,
                field,
                message,
                mod_id: String::new(),
            }
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
                let (file, text) = (self.file, self.text);
                self.found.push_with(Severity::Error, || {
                    // Point at the second occurrence.
                    let first = text.find(&q).map(|i| i + q.len()).unwrap_or(0);
                    let (line, col) = locate(&text[first..], &[&q]);
                    let base = text[..first].matches('\n').count();
                    Problem {
                        severity: Severity::Error,
                        file: file.to_string(),
                        line: line + base,
                        col,
                        field: format!("{what}[{id}].id"),
                        message: format!("duplicate id `{id}`: give each entry its own id"),
                        mod_id: String::new(),
                    }
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

/// Largest count an effect carries (attempts, cleanses, units spawned, points, storage):
/// the shipped cards use at most a few dozen; each is a loop or a sum in the rules, so a
/// modder's card can't queue billions of corruption attempts.
pub const MAX_EFFECT_COUNT: u32 = 1000;
/// Largest roll bonus an effect gives (food, attack, hit points, resistance): a d6 game's
/// bonus of a few; the lasting bonuses add up in a `u8`.
pub const MAX_EFFECT_BONUS: u8 = 10;

/// An effect's number and its bound, where it has one: `(name, value, most)`.
fn effect_amount(e: &Effect) -> Option<(&'static str, u64, u64)> {
    let count = |name, n: &u32| Some((name, u64::from(*n), u64::from(MAX_EFFECT_COUNT)));
    let bonus = |name, n: &u8| Some((name, u64::from(*n), u64::from(MAX_EFFECT_BONUS)));
    let stock = |name, s: &crate::content::Stock| {
        let most = s.0.iter().max().copied().unwrap_or(0);
        Some((name, u64::from(most), u64::from(MAX_EFFECT_COUNT) * 10))
    };
    match e {
        Effect::Gain(s) => stock("Gain", s),
        Effect::Lose(s) => stock("Lose", s),
        Effect::ImprovementYield { extra, .. } => stock("ImprovementYield.extra", extra),
        Effect::CorruptionAttempts(n) => count("CorruptionAttempts", n),
        Effect::CorruptNow(n) => count("CorruptNow", n),
        Effect::PortalCorruption(n) => count("PortalCorruption", n),
        Effect::PushBackCorruption(n) => count("PushBackCorruption", n),
        Effect::Cleanse(n) => count("Cleanse", n),
        Effect::SpawnChaos { count: n, .. } => count("SpawnChaos.count", n),
        Effect::Famine(n, _) => count("Famine", n),
        Effect::Feed(n) => count("Feed", n),
        Effect::Heal(n) => count("Heal", n),
        Effect::Wound(n) => count("Wound", n),
        Effect::ResearchPoints(n) => count("ResearchPoints", n),
        Effect::Storage(n) => count("Storage", n),
        Effect::LabPoints(n) => count("LabPoints", n),
        Effect::PortalCrystals(n) => count("PortalCrystals", n),
        Effect::HealthierFood(n) => bonus("HealthierFood", n),
        Effect::AttackBonus(n) => bonus("AttackBonus", n),
        Effect::HpBonus(n) => bonus("HpBonus", n),
        Effect::Resistance(n) => bonus("Resistance", n),
        Effect::Track { change, .. } => Some((
            "Track.change",
            u64::from(change.unsigned_abs()),
            u64::from(MAX_EFFECT_COUNT),
        )),
        _ => None,
    }
}

/// Checks every effect's references and numbers.
fn effects(db: &ContentDb, r: &mut Report, owner: &str, anchor: &str, list: &[Effect]) {
    for e in list {
        if let Some((name, n, most)) = effect_amount(e)
            && n > most
        {
            let short = name.split('.').next().unwrap_or(name);
            r.err(
                &[anchor, short],
                format!("{owner}.effects.{name}"),
                format!("{n} is more than an effect may carry (at most {most})"),
            );
        }
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
    budget: &mut Budget,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (name, check) in CATALOGUES {
        let (file, text) = text_of(name).unwrap_or((name, ""));
        let mut r = Report::new(file, text, budget);
        check(db, &mut r);
        out.extend(r.finish(budget));
    }
    // The chapters' own catalogues: their checks, at their entries.
    for cat in db.chapters.catalogues().iter() {
        let (file, text) = text_of(cat.file).unwrap_or((cat.file, ""));
        let mut r = Report::new(file, text, budget);
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
        out.extend(r.finish(budget));
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

/// `campaigns.ron` (K1–K3): bounded sizes first (a file past them is refused in one problem,
/// before any work per chapter); ids that can name a save folder or file; known levels,
/// difficulties, units and technologies; branches that lead somewhere; fallbacks that give
/// each chapter what it needs; a campaign that can end. Lookups go through sets, so the work
/// is linear in the file. (`check` also starts every chapter from its fallback.)
fn campaigns(db: &ContentDb, r: &mut Report) {
    use super::campaign::{MAX_CHAPTERS, MAX_VETERANS, names_a_file};
    let s = &db.set;
    if s.campaigns.len() > MAX_CHAPTERS {
        r.err(
            &[],
            "campaigns".into(),
            format!(
                "{} campaigns: a game holds at most {MAX_CHAPTERS}",
                s.campaigns.len()
            ),
        );
        return;
    }
    r.ids(
        "campaigns",
        s.campaigns
            .iter()
            .map(|c| (c.id.as_str(), vec![c.name.as_str(), c.description.as_str()])),
    );
    let difficulties: HashSet<&str> = s.difficulties.iter().map(|d| d.id.as_str()).collect();
    for c in &s.campaigns {
        let cid = format!("\"{}\"", c.id);
        let at = |f: &str| format!("campaigns[{}].{f}", c.id);
        if c.chapters.is_empty() || c.chapters.len() > MAX_CHAPTERS {
            r.err(
                &[&cid, "chapters"],
                at("chapters"),
                format!(
                    "a campaign has 1 to {MAX_CHAPTERS} chapters, not {}",
                    c.chapters.len()
                ),
            );
            continue;
        }
        if let Some(ch) = c.chapters.iter().find(|ch| ch.next.len() > MAX_CHAPTERS) {
            r.err(
                &[&cid, "chapters", &format!("\"{}\"", ch.id), "next"],
                format!("campaigns[{}].chapters[{}].next", c.id, ch.id),
                format!(
                    "{} branches: a chapter has at most {MAX_CHAPTERS}",
                    ch.next.len()
                ),
            );
            continue;
        }
        if !names_a_file(&c.id) {
            r.err(
                &[&cid],
                format!("campaigns[{}]", c.id),
                format!(
                    "the id `{}` can't name the campaign's save folder: use 1 to 64 lower-case \
                     letters, digits, `_` and `-`",
                    c.id
                ),
            );
        }
        if c.difficulties.is_empty() {
            r.err(
                &[&cid, "difficulties"],
                at("difficulties"),
                "list at least one difficulty".into(),
            );
        }
        for d in &c.difficulties {
            if !difficulties.contains(d.as_str()) {
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
        campaign_chapters(db, c, r);
        campaign_paths(db, c, r);
    }
}

/// Each chapter of campaign `c` (its size already checked): its id, texts, level, what it
/// admits and needs against its fallback, and its branches.
fn campaign_chapters(db: &ContentDb, c: &super::campaign::Campaign, r: &mut Report) {
    use super::campaign::{
        Goto, MAX_CARRY_CARDS, MAX_CARRY_STOCK, MAX_VETERANS, When, names_a_file,
    };
    let s = &db.set;
    let cid = format!("\"{}\"", c.id);
    let artifacts: HashSet<&str> = s.artifacts.iter().map(|a| a.id.as_str()).collect();
    let chapter_ids: HashSet<&str> = c.chapters.iter().map(|x| x.id.as_str()).collect();
    let mut seen = HashSet::new();
    for ch in &c.chapters {
        let chid = format!("\"{}\"", ch.id);
        let a: [&str; 3] = [&cid, "chapters", &chid];
        let cat = |f: &str| format!("campaigns[{}].chapters[{}].{f}", c.id, ch.id);
        if !seen.insert(ch.id.as_str()) {
            r.err(&a, cat("id"), format!("duplicate chapter id `{}`", ch.id));
        }
        if !names_a_file(&ch.id) {
            r.err(
                &a,
                format!("campaigns[{}].chapters[{}]", c.id, ch.id),
                format!(
                    "the id `{}` can't name the chapter's save (\"Replay from here\" goes back \
                     to it): use 1 to 64 lower-case letters, digits, `_` and `-`",
                    ch.id
                ),
            );
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
        if (ch.fallback.veterans.len() as u64) < u64::from(ch.needs.veterans) {
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
        if ch.fallback.veterans.len() as u64 > u64::from(ch.admit.max(ch.needs.veterans)) {
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
        let kinds: HashSet<&str> = ch.admit_kinds.iter().map(String::as_str).collect();
        for u in &ch.fallback.veterans {
            if db.unit(u).is_none_or(|t| t.camp != Camp::Eladrins) {
                r.err(
                    &[&cid, "chapters", &chid, "fallback", &format!("\"{u}\"")],
                    cat("fallback.veterans"),
                    format!("no Eladrin unit `{u}` in units.ron"),
                );
            } else if !kinds.is_empty() && !kinds.contains(u.as_str()) {
                r.err(
                    &[&cid, "chapters", &chid, "fallback", &format!("\"{u}\"")],
                    cat("fallback.veterans"),
                    format!(
                        "the fallback gives a `{u}`, which `admit_kinds` does not admit: {}",
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
        // What a cold start gives becomes the chapter's carry-over, which saves and replays
        // hold and check: within the same bounds, each card once.
        if ch.fallback.veterans.len() > MAX_VETERANS as usize {
            r.err(
                &[&cid, "chapters", &chid, "fallback"],
                cat("fallback.veterans"),
                format!(
                    "{} units: at most {MAX_VETERANS}",
                    ch.fallback.veterans.len()
                ),
            );
        }
        if let Some(most) = ch.fallback.stock.0.iter().max()
            && *most > MAX_CARRY_STOCK
        {
            r.err(
                &[&cid, "chapters", &chid, "fallback"],
                cat("fallback.stock"),
                format!("{most}: at most {MAX_CARRY_STOCK} of a resource"),
            );
        }
        for (field, ids) in [
            ("fallback.research", &ch.fallback.research),
            ("fallback.artifacts", &ch.fallback.artifacts),
        ] {
            let mut seen = HashSet::new();
            if ids.len() > MAX_CARRY_CARDS {
                r.err(
                    &[&cid, "chapters", &chid, "fallback"],
                    cat(field),
                    format!("{} cards: at most {MAX_CARRY_CARDS}", ids.len()),
                );
            } else if let Some(t) = ids.iter().find(|t| !seen.insert(t.as_str())) {
                r.err(
                    &[&cid, "chapters", &chid, "fallback", &format!("\"{t}\"")],
                    cat(field),
                    format!("`{t}` is given twice"),
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
        let given: HashSet<&str> = ch.fallback.research.iter().map(String::as_str).collect();
        for t in &ch.needs.research {
            if !given.contains(t.as_str()) {
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
            if !artifacts.contains(t.as_str()) {
                r.err(
                    &[&cid, "chapters", &chid, &format!("\"{t}\"")],
                    cat("fallback.artifacts"),
                    format!("no artifact `{t}` in artifacts.ron"),
                );
            }
        }
        if let (Some(l), Some(h)) = (level, ch.muster_at)
            && map_in_bounds(&l.map)
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
                && !chapter_ids.contains(to.as_str())
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
}

/// Whether a level's map is within the bounds its own check sets (a radius of 1 to
/// `MAX_MAP_RADIUS`, rows and columns at most twice that): only such a map is drawn to see what
/// lies on it (a hostile radius would be drawn for ever; the level's check refuses it).
fn map_in_bounds(map: &MapDef) -> bool {
    let most = 2 * MAX_MAP_RADIUS as usize;
    match map {
        MapDef::Generated { radius, .. } => (1..=MAX_MAP_RADIUS).contains(radius),
        MapDef::Rows { rows, .. } => {
            rows.len() <= most && rows.iter().all(|r| r.chars().count() <= most)
        }
    }
}

/// Where campaign `c`'s results can lead, as `Campaign::next_after` reads its branches: from
/// each chapter, the chapters a result can lead to (edges), and whether a result can end the
/// campaign there (`Victory`, `Defeat`, winning the last chapter listed, or a branch to a
/// chapter it lacks). A flag's branch may be taken or not; the first `Won` (`Lost`) branch is
/// taken on that result; a result no branch names leads on when won, to a retry when lost.
/// Where it is unsure (an optional chapter's level, a flag) the graph keeps both ways: it
/// finds a campaign that can't end only when none of them can.
fn campaign_graph(db: &ContentDb, c: &super::campaign::Campaign) -> (Vec<Vec<usize>>, Vec<bool>) {
    use super::campaign::{Goto, When};
    let n = c.chapters.len();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, ch) in c.chapters.iter().enumerate() {
        // The first of twins, as `Campaign::chapter` finds.
        index.entry(ch.id.as_str()).or_insert(i);
    }
    // The next chapter listed after each (an optional one without its level is passed).
    let mut next_listed = vec![None; n];
    let mut after = None;
    for (i, ch) in c.chapters.iter().enumerate().rev() {
        next_listed[i] = after;
        if !ch.optional || db.levels.contains_key(&ch.level) {
            after = Some(i);
        }
    }
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut ends = vec![false; n];
    for (i, ch) in c.chapters.iter().enumerate() {
        // Where each result can lead: a chapter, or `None` for the campaign's end (a branch
        // to a chapter it lacks ends it as a defeat).
        let goto = |g: &Goto| match g {
            Goto::Chapter(id) => index.get(id.as_str()).copied(),
            Goto::Retry => Some(i),
            Goto::Victory | Goto::Defeat => None,
        };
        let mut to: Vec<Option<usize>> = Vec::new();
        for won in [true, false] {
            let mut named = false;
            for b in &ch.next {
                match &b.on {
                    When::Flag(_) => to.push(goto(&b.to)),
                    When::Won | When::Lost if (b.on == When::Won) == won => {
                        to.push(goto(&b.to));
                        named = true;
                        break;
                    }
                    _ => {}
                }
            }
            if named {
                continue;
            }
            if won {
                // The next chapter listed, or the campaign won after the last; and the next
                // in the list too, listed or not.
                to.push(next_listed[i]);
                if i + 1 < n {
                    to.push(Some(i + 1));
                }
            } else {
                to.push(Some(i));
            }
        }
        for t in to {
            match t {
                Some(j) => edges[i].push(j),
                None => ends[i] = true,
            }
        }
    }
    (edges, ends)
}

/// Campaign `c`'s paths: every chapter can be reached from the first (a chapter nothing leads
/// to is dead data), and the campaign can end: from its first chapter some path of results
/// reaches an end (an error if none does: it would be played forever), and from every chapter
/// reached (a warning where none does: once there, it never ends).
fn campaign_paths(db: &ContentDb, c: &super::campaign::Campaign, r: &mut Report) {
    let cid = format!("\"{}\"", c.id);
    let (edges, ends) = campaign_graph(db, c);
    let n = c.chapters.len();
    // Forward from the first chapter.
    let mut reached = vec![false; n];
    let mut todo = vec![0];
    reached[0] = true;
    while let Some(i) = todo.pop() {
        for &j in &edges[i] {
            if !reached[j] {
                reached[j] = true;
                todo.push(j);
            }
        }
    }
    // Back from the chapters where a result ends the campaign.
    let mut back: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, out) in edges.iter().enumerate() {
        for &j in out {
            back[j].push(i);
        }
    }
    let mut todo: Vec<usize> = (0..n).filter(|i| ends[*i]).collect();
    let mut can_end = ends;
    while let Some(j) = todo.pop() {
        for &i in &back[j] {
            if !can_end[i] {
                can_end[i] = true;
                todo.push(i);
            }
        }
    }
    if !can_end[0] {
        r.err(
            &[&cid, "chapters"],
            format!("campaigns[{}].chapters", c.id),
            format!(
                "the campaign can never end: from its first chapter `{}`, every result leads \
                 on to another chapter or a retry, never to `Victory` or `Defeat` (nor past \
                 the last chapter listed); give a chapter a branch like `(on: Won, to: \
                 Victory)`",
                c.chapters[0].id
            ),
        );
    }
    for (i, ch) in c.chapters.iter().enumerate() {
        let chid = format!("\"{}\"", ch.id);
        let anchors: [&str; 3] = [&cid, "chapters", &chid];
        let field = format!("campaigns[{}].chapters[{}]", c.id, ch.id);
        if !reached[i] {
            r.warn(
                &anchors,
                field,
                "no branch leads to this chapter from the first: it can never be played".into(),
            );
        } else if can_end[0] && !can_end[i] {
            r.warn(
                &anchors,
                field,
                "once here, no result ever ends the campaign: every branch leads back to a \
                 chapter or a retry; give a result a way on to `Victory`, `Defeat` or a \
                 chapter that ends"
                    .into(),
            );
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
        Err(ps) => {
            for p in ps {
                r.found.push(p);
            }
        }
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

/// `tracks.ron`: unique ids, `min <= start <= max`, within the limit; a threshold (`every`) only
/// on a bar, its step within the bar and its text saying something.
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
        if let Some(every) = &t.every {
            track_step(t, every, &anchor, r);
        }
    }
}

/// A track's threshold (`every`): drawn only on a bar, as ticks, so a score or a count can't
/// have one, a step must fall inside the bar, and the line under it must say something.
fn track_step(t: &TrackDef, every: &TrackStep, anchor: &str, r: &mut Report) {
    if !t.show.is_bar() {
        r.err(
            &[anchor, "every"],
            format!("tracks[{}].every", t.id),
            format!(
                "only a bar has a threshold, and this track shows as `{:?}`: drop `every`, or \
                 show it as `Bar`",
                t.show
            ),
        );
    }
    // In i64: a bound past the limit is reported above and must not overflow here.
    let span = i64::from(t.max) - i64::from(t.min);
    if every.step <= 0 {
        r.err(
            &[anchor, "every", "step"],
            format!("tracks[{}].every.step", t.id),
            format!(
                "a step of {} marks nothing: give a step of at least 1",
                every.step
            ),
        );
    } else if t.min <= t.max && i64::from(every.step) > span {
        r.err(
            &[anchor, "every", "step"],
            format!("tracks[{}].every.step", t.id),
            format!(
                "a step of {} is longer than the bar from {} to {}: give at most {span}",
                every.step, t.min, t.max
            ),
        );
    }
    if every.text.trim().is_empty() {
        r.err(
            &[anchor, "every", "text"],
            format!("tracks[{}].every.text", t.id),
            "say in a few words what each step brings (\"one more corruption attempt\")".into(),
        );
    } else if every.text.chars().count() > MAX_TEXT {
        r.err(
            &[anchor, "every", "text"],
            format!("tracks[{}].every.text", t.id),
            format!("a text is at most {MAX_TEXT} characters"),
        );
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
    // The research deck holds one card a technology, and a save at most `MAX_DECK` cards.
    if s.research.len() > MAX_DECK as usize {
        r.err(
            &[],
            "research".into(),
            format!("{} technologies: at most {MAX_DECK}", s.research.len()),
        );
    }
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
    // Dealt like the other decks, copy by copy: bounded like them.
    let copies: u64 = db.set.exploration.iter().map(|c| u64::from(c.copies)).sum();
    if copies > u64::from(MAX_DECK) {
        r.err(
            &[],
            "exploration".into(),
            format!("{copies} cards: at most {MAX_DECK}"),
        );
    }
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
        for (name, n) in d.numbers() {
            if n.abs() > MAX_DIFFICULTY_STEP {
                r.err(
                    &[&format!("\"{}\"", d.id), name],
                    format!("difficulties.{}.{name}", d.id),
                    format!("{n}: at most {MAX_DIFFICULTY_STEP} either way"),
                );
            }
        }
        let most = d.eladrin_stock.0.iter().max().copied().unwrap_or(0);
        if most > MAX_EFFECT_COUNT * 10 {
            r.err(
                &[&format!("\"{}\"", d.id), "eladrin_stock"],
                format!("difficulties.{}.eladrin_stock", d.id),
                format!("{most}: at most {} of a resource", MAX_EFFECT_COUNT * 10),
            );
        }
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
    // A coordinate from a file may be anything: far off every map is off this one, and hex
    // arithmetic (lengths, offsets) is never asked of it, where `i32::MIN` would overflow.
    const FAR: u32 = 1 << 20;
    if at.0.unsigned_abs() > FAR || at.1.unsigned_abs() > FAR {
        return false;
    }
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

/// Checks one level against the content, within the load's `budget`.
pub(super) fn level(
    db: &ContentDb,
    l: &Level,
    file: &str,
    text: &str,
    budget: &mut Budget,
) -> Vec<Problem> {
    let mut r = Report::new(file, text, budget);
    level_texts(l, file, &mut r);
    level_ext(l, &mut r);
    if !level_map(db, l, &mut r) {
        // Lists past their bounds: checking each entry would take too long.
        return r.finish(budget);
    }
    level_places(db, l, &mut r);
    level_outposts(db, l, &mut r);
    level_armies(db, l, &mut r);
    level_choices(db, l, &mut r);
    level_ai(db, l, &mut r);
    // The chapters' own fields (`ext`), typed and checked like the core's: placed only while
    // the report has room (placing one searches the file).
    for k in db.chapters.catalogues().fields() {
        for p in k.problems(db, l, file, text, r.found.room_left()) {
            r.found.push(p);
        }
    }
    // The tracks the chapters it plays keep, declared in tracks.ron (each chapter once).
    let declared: HashSet<&str> = db.set.tracks.iter().map(|d| d.id.as_str()).collect();
    let mut played = HashSet::new();
    for c in l.chapters.iter().filter(|c| played.insert(c.as_str())) {
        for t in db.chapters.catalogues().tracks_of(c) {
            if !declared.contains(t) {
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
    if !r.found.has_errors() {
        portal_reachable(db, l, &mut r);
    }
    r.finish(budget)
}

/// Fields for a chapter the level does not play (`ext.CHAPTER` without `CHAPTER` among its
/// `chapters`): the game never reads them, so a forgotten or misspelt `chapters` entry is said
/// instead of being silently ignored. Placed at the entry's value (`ext: {"CHAPTER": (…)}`)
/// where the file holds one level, else at the first `"CHAPTER"` after `ext:`.
fn level_ext(l: &Level, r: &mut Report) {
    let played: HashSet<&str> = l.chapters.iter().map(String::as_str).collect();
    let (file, text) = (r.file, r.text);
    for key in l.ext.keys().filter(|k| !played.contains(k.as_str())) {
        let message = format!(
            "the level does not play the chapter `{key}` (`chapters: [{}]`), so these fields \
             are never read: add \"{key}\" to `chapters`, or remove them",
            l.chapters
                .iter()
                .take(16)
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        r.found.push_with(Severity::Warning, || {
            let (line, col) = match ron_text::offset_of_path(text, &format!("ext[{key}]")) {
                Some(at) => ron_text::line_col(text, at),
                None => locate(text, &["ext:", &format!("\"{key}\"")]),
            };
            Problem {
                severity: Severity::Warning,
                file: file.to_string(),
                line,
                col,
                field: format!("ext.{key}"),
                message,
                mod_id: String::new(),
            }
        });
    }
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
/// Most units an army of a level starts with: the shipped levels start with three; an army of
/// thousands makes every turn of the search crawl, and no board game stacks so many.
pub const MAX_LEVEL_ARMY: usize = 64;

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
        if a.units.len() > MAX_LEVEL_ARMY {
            r.err(
                &at.iter().map(String::as_str).collect::<Vec<_>>(),
                format!("{path}.units"),
                format!(
                    "{} units: an army starts with at most {MAX_LEVEL_ARMY}",
                    a.units.len()
                ),
            );
            continue;
        }
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
        for (name, n) in tweak.numbers() {
            if n.abs() > MAX_DIFFICULTY_STEP {
                r.err(
                    &["difficulty_tweaks", &format!("\"{id}\""), name],
                    format!("difficulty_tweaks.{id}.{name}"),
                    format!("{n}: at most {MAX_DIFFICULTY_STEP} either way"),
                );
            }
        }
        let most = tweak.eladrin_stock.0.iter().max().copied().unwrap_or(0);
        if most > MAX_EFFECT_COUNT * 10 {
            r.err(
                &["difficulty_tweaks", &format!("\"{id}\""), "eladrin_stock"],
                format!("difficulty_tweaks.{id}.eladrin_stock"),
                format!("{most}: at most {} of a resource", MAX_EFFECT_COUNT * 10),
            );
        }
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
