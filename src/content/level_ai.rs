//! A level's own AI settings (`ai:` in a level file), merged over `ai.ron` field by field.
//!
//! The AIs' weights are tuned once for every level, but one map can call for another play: on
//! First Light's small valley Chaos' armies stop three hexes out and taint, so its garrison
//! never fights. A level names only the fields it changes, at any depth
//! (`ai: (chaos: (corrupt: 150), eladrin: (sally_radius: 4))`, a chapter's weight in
//! `chapters: {"clans": {"pillage": 150}}`), the way a Wesnoth scenario sets its AI's
//! aggression without touching the others. The merge happens once, at load; the AI reads the
//! result through `ContentDb::ai_for`. A mod's `ai.ron` patch is merged the same way, over the
//! settings before it (`merge::patch_ai`).

use std::sync::Arc;

use ron::Value;

use super::{AiWeights, ContentDb, Problem, Severity, locate};

/// At most this many fields in a level's `ai` (a hostile file can't make the merge slow).
const MAX_FIELDS: usize = 256;

/// One field a level sets: its path under `ai` and its value.
struct Leaf {
    path: Vec<String>,
    value: Value,
}

/// The fields of `patch`, each down to where the base has no deeper struct or map (so a
/// level sets one weight, not the whole table it sits in).
fn leaves(base: &Value, patch: &Value, path: &mut Vec<String>, out: &mut Vec<Leaf>) {
    match (base, patch) {
        (Value::Map(b), Value::Map(p)) => {
            for (k, v) in p.iter() {
                let Value::String(key) = k else {
                    out.push(Leaf {
                        path: path.clone(),
                        value: patch.clone(),
                    });
                    return;
                };
                path.push(key.clone());
                match b.get(k) {
                    Some(inner) => leaves(inner, v, path, out),
                    // A key the base does not have (a new chapter's weights, a misspelt
                    // field): set whole, so the type check below says which.
                    None => out.push(Leaf {
                        path: path.clone(),
                        value: v.clone(),
                    }),
                }
                path.pop();
            }
        }
        _ => out.push(Leaf {
            path: path.clone(),
            value: patch.clone(),
        }),
    }
}

/// `value` with `leaf` set at its path (maps made where missing).
fn set(value: &mut Value, path: &[String], leaf: &Value) {
    let Some((first, rest)) = path.split_first() else {
        *value = leaf.clone();
        return;
    };
    if !matches!(value, Value::Map(_)) {
        *value = Value::Map(ron::Map::new());
    }
    if let Value::Map(m) = value {
        let key = Value::String(first.clone());
        if m.get(&key).is_none() {
            m.insert(key.clone(), Value::Map(ron::Map::new()));
        }
        if let Some(inner) = m.get_mut(&key) {
            set(inner, rest, leaf);
        }
    }
}

/// `base` with `leaves` set, as weights (`Err`: the value does not fit `AiWeights`).
fn apply(base: &Value, leaves: &[&Leaf]) -> Result<AiWeights, ron::Error> {
    let mut v = base.clone();
    for l in leaves {
        set(&mut v, &l.path, &l.value);
    }
    v.into_rust::<AiWeights>()
}

/// `base` with the fields `raw` (as written under `root`: a level's `ai`, or a mod's `ai.ron`
/// `patch`) over it; the problems name the file, the line and the field
/// (`ai.eladrin.sally_radius`, `patch.search.margin`) of each field that does not fit.
pub(super) fn merged(
    base: &AiWeights,
    raw: &str,
    file: &str,
    text: &str,
    root: &str,
) -> Result<AiWeights, Vec<Problem>> {
    let anchor = format!("{root}:");
    let problem = |anchors: &[&str], field: String, message: String| {
        let mut all = vec![anchor.as_str()];
        all.extend_from_slice(anchors);
        let (line, col) = locate(text, &all);
        Problem {
            severity: Severity::Error,
            file: file.to_string(),
            line,
            col,
            field,
            message,
            mod_id: String::new(),
        }
    };
    let patch: Value = ron::from_str(raw).map_err(|e| {
        vec![problem(
            &[],
            root.into(),
            format!(
                "{} (write it as `{root}: (eladrin: (sally_radius: 4))`)",
                e.code
            ),
        )]
    })?;
    if !matches!(patch, Value::Map(_)) {
        return Err(vec![problem(
            &[],
            root.into(),
            format!(
                "write the AI settings as `{root}: (field: value, …)`, the fields of ai.ron \
                 (docs/schema.md)"
            ),
        )]);
    }
    let base_value: Value = ron::to_string(base)
        .ok()
        .and_then(|t| ron::from_str(&t).ok())
        .ok_or_else(|| {
            vec![problem(
                &[],
                root.into(),
                "ai.ron can't be read back".into(),
            )]
        })?;
    let mut found = Vec::new();
    leaves(&base_value, &patch, &mut Vec::new(), &mut found);
    if found.len() > MAX_FIELDS {
        return Err(vec![problem(
            &[],
            root.into(),
            format!(
                "{} fields: at most {MAX_FIELDS} AI fields are set at once",
                found.len()
            ),
        )]);
    }
    let all: Vec<&Leaf> = found.iter().collect();
    match apply(&base_value, &all) {
        Ok(w) => Ok(w),
        Err(_) => {
            // Which fields are at fault: each tried alone.
            let mut out = Vec::new();
            for l in &found {
                if let Err(e) = apply(&base_value, &[l]) {
                    let anchors: Vec<&str> = l.path.iter().map(String::as_str).collect();
                    out.push(problem(
                        &anchors,
                        format!("{root}.{}", l.path.join(".")),
                        format!("{e} (`{root}` takes the fields of ai.ron, docs/schema.md)"),
                    ));
                }
            }
            if out.is_empty() {
                out.push(problem(
                    &[],
                    root.into(),
                    "these AI fields don't fit together: check each against docs/schema.md".into(),
                ));
            }
            Err(out)
        }
    }
}

impl ContentDb {
    /// The AI settings a game of `level` plays with: `ai.ron`, with the level's own `ai` fields
    /// over it where it has some. (Merged at load: an edit to `set.ai` made afterwards reaches
    /// only the levels without their own; `ai_mut` edits every copy.)
    pub fn ai_for(&self, level: &str) -> &AiWeights {
        self.level_ai.get(level).map_or(&self.set.ai, |w| &**w)
    }

    /// The level's merged AI settings, shared (`None`: it plays `ai.ron` as it is).
    pub fn level_ai(&self, level: &str) -> Option<Arc<AiWeights>> {
        self.level_ai.get(level).cloned()
    }

    /// Every copy of the AI settings: `ai.ron`'s and each level's merged one (for an edit that
    /// must reach every level, as the search's lighter odds in its playouts).
    pub fn ai_mut(&mut self) -> impl Iterator<Item = &mut AiWeights> {
        std::iter::once(&mut self.set.ai).chain(self.level_ai.values_mut().map(Arc::make_mut))
    }

    /// Merges each level's `ai` over `ai.ron` (a level whose fields don't fit plays `ai.ron`;
    /// validation reports it). Loading does it; call it again after editing `set.ai` or a
    /// level's `ai` in place (a test, a tool).
    pub fn merge_level_ai(&mut self) {
        self.level_ai.clear();
        for (id, l) in &self.levels {
            if let Some(raw) = &l.ai
                && let Ok(w) = merged(&self.set.ai, raw.get_ron(), "", "", "ai")
            {
                self.level_ai.insert(id.clone(), Arc::new(w));
            }
        }
    }
}
