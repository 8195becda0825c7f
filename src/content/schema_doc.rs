//! The schema reference (`docs/schema.md`), generated from the content types' own source and
//! doc comments so it can't drift from the code: `chaos-outpost schema` prints it, and a test
//! fails when the committed file differs.

/// A source file and the types of it to document (all public ones when empty).
struct Source {
    path: &'static str,
    text: &'static str,
    only: &'static [&'static str],
}

const SOURCES: [Source; 5] = [
    Source {
        path: "src/content/schema.rs",
        text: include_str!("schema.rs"),
        only: &[],
    },
    Source {
        path: "src/content/campaign.rs",
        text: include_str!("campaign.rs"),
        only: &[],
    },
    Source {
        path: "src/content/mods.rs",
        text: include_str!("mods.rs"),
        only: &["Manifest"],
    },
    Source {
        path: "src/sim/scenario.rs",
        text: include_str!("../sim/scenario.rs"),
        only: &["Scenario", "Step", "Check", "Cmp", "BuildingState", "Cell"],
    },
    Source {
        path: "src/rules/action.rs",
        text: include_str!("../rules/action.rs"),
        only: &["Action"],
    },
];

/// Which file holds which type.
const FILES: [(&str, &str); 22] = [
    ("mod.ron", "Manifest"),
    ("content/rules.ron", "RulesNumbers"),
    ("content/terrains.ron", "[Terrain]"),
    ("content/improvements.ron", "[Improvement]"),
    ("content/buildings.ron", "[Building]"),
    ("content/outposts.ron", "[OutpostSize]"),
    ("content/units.ron", "[UnitType]"),
    ("content/events.ron", "[Card]"),
    ("content/chaos.ron", "[Card]"),
    ("content/research.ron", "[Tech]"),
    ("content/artifacts.ron", "[Card]"),
    ("content/exploration.ron", "[ExplorationCard]"),
    ("content/rituals.ron", "[Ritual]"),
    ("content/portal.ron", "PortalDef"),
    ("content/difficulty.ron", "[Difficulty]"),
    ("content/ai.ron", "AiWeights"),
    ("content/tracks.ron (chapters)", "[TrackDef]"),
    ("content/campaigns.ron", "[Campaign]"),
    ("content/levels.ron (mods: patch/remove levels)", "[Level]"),
    ("levels/*.ron", "Level"),
    ("scenarios/*.ron", "Scenario"),
    ("scenario steps Do(...)", "Action"),
];

/// One documented item: a field or a variant.
struct Member {
    name: String,
    ty: String,
    optional: bool,
    doc: String,
}

struct Item {
    kind: &'static str,
    name: String,
    doc: String,
    all_optional: bool,
    members: Vec<Member>,
}

fn doc_line(l: &str) -> Option<&str> {
    l.trim().strip_prefix("///").map(|d| d.trim())
}

/// Reads the top-level `pub struct` and `pub enum` items of a Rust source.
fn items(text: &str) -> Vec<Item> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    let mut attrs: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if let Some(d) = l.strip_prefix("///") {
            doc.push(d.trim());
            i += 1;
            continue;
        }
        if l.starts_with("#[") {
            attrs.push(l);
            i += 1;
            continue;
        }
        let header = l
            .strip_prefix("pub struct ")
            .map(|r| ("struct", r))
            .or_else(|| l.strip_prefix("pub enum ").map(|r| ("enum", r)));
        let Some((kind, rest)) = header else {
            doc.clear();
            attrs.clear();
            i += 1;
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let all_optional = attrs
            .iter()
            .any(|a| a.contains("serde(") && a.contains("default"));
        let mut item = Item {
            kind,
            name: name.clone(),
            doc: doc.join(" "),
            all_optional,
            members: Vec::new(),
        };
        doc.clear();
        attrs.clear();
        if rest.trim_end().ends_with(';') {
            // A tuple struct: `pub struct Stock(pub [u32; 6]);`
            let inner = rest[name.len()..].trim_end_matches(';');
            item.doc = format!("{} Written `{name}{}`.", item.doc, inner.trim());
            out.push(item);
            i += 1;
            continue;
        }
        i += 1;
        let mut mdoc: Vec<&str> = Vec::new();
        let mut optional = false;
        while i < lines.len() && lines[i] != "}" {
            let l = lines[i].trim();
            let depth = lines[i].len() - lines[i].trim_start().len();
            if let Some(d) = doc_line(lines[i]) {
                if depth == 4 {
                    mdoc.push(d);
                }
            } else if l.starts_with("#[") {
                if l.contains("default") {
                    optional = true;
                }
            } else if depth == 4 && !l.is_empty() && !l.starts_with("//") {
                let m = if kind == "struct" {
                    let l = l.strip_prefix("pub ").unwrap_or(l);
                    let (n, t) = l.split_once(':').unwrap_or((l, ""));
                    Member {
                        name: n.trim().to_string(),
                        ty: t.trim().trim_end_matches(',').to_string(),
                        optional: optional || item.all_optional,
                        doc: mdoc.join(" "),
                    }
                } else {
                    // A variant: `A,` `A(T),` or `A {` with fields on the next lines.
                    let v = l.trim_end_matches(',');
                    let mut ty = String::new();
                    let n: String = v
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    let tail = v[n.len()..].trim();
                    if tail.starts_with('(') {
                        ty = tail.to_string();
                    } else if tail.starts_with('{') {
                        let mut fields = Vec::new();
                        i += 1;
                        while i < lines.len() && lines[i].trim() != "}," && lines[i].trim() != "}" {
                            let f = lines[i].trim();
                            if !f.starts_with("//") && !f.is_empty() && !f.starts_with("#[") {
                                fields.push(f.trim_end_matches(',').to_string());
                            }
                            i += 1;
                        }
                        ty = format!("{{ {} }}", fields.join(", "));
                    }
                    Member {
                        name: n,
                        ty,
                        optional: false,
                        doc: mdoc.join(" "),
                    }
                };
                out_member(&mut item, m);
                mdoc.clear();
                optional = false;
            }
            i += 1;
        }
        out.push(item);
        i += 1;
    }
    out
}

fn out_member(item: &mut Item, m: Member) {
    if !m.name.is_empty() || !m.ty.is_empty() {
        item.members.push(m);
    }
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The whole reference, in Markdown: the core's files and the catalogues of `chapters`.
pub fn markdown(chapters: &super::ChapterSet) -> String {
    markdown_of(chapters.catalogues())
}

/// The reference with these chapter catalogues.
pub fn markdown_of(chapters: &super::ChapterContent) -> String {
    let mut out = String::from(
        "# Content schema reference\n\n\
         Generated by `chaos-outpost schema` from the types' source and doc comments; \
         `cargo test` fails when this file is out of date. The modding guide \
         (`docs/modding.md`) says how to add and patch content.\n\n\
         RON notes: a struct is written `(field: value, …)`, a list `[…]`, a map `{key: value}`, \
         an optional value `Some(x)` or `None`, a resource amount (`Stock`) as a map \
         `{Wood: 2, Stone: 1}`, a hex (`At`) as `(q, r)` in axial coordinates. Fields marked \
         *optional* may be left out and take their default (0, empty, `None`, `false`).\n\n\
         ## Files\n\n| file | type |\n|---|---|\n",
    );
    for (f, t) in FILES {
        let anchor = t.trim_matches(|c| c == '[' || c == ']').to_lowercase();
        out.push_str(&format!("| `{f}` | [`{t}`](#{anchor}) |\n"));
    }
    for r in chapters.iter() {
        let t = r.schema.types.first().copied().unwrap_or("?");
        out.push_str(&format!(
            "| `content/{}` (chapter `{}`) | [`[{t}]`](#{}) |\n",
            r.file,
            r.chapter,
            t.to_lowercase()
        ));
    }
    for src in SOURCES {
        document(&mut out, src.path, src.text, src.only);
    }
    // The chapters' own catalogues (`content::catalogue`) the program registered.
    for r in chapters.iter() {
        document(&mut out, r.schema.path, r.schema.text, r.schema.types);
    }
    out
}

/// Documents the public types of one Rust source (only those in `only`, when given).
fn document(out: &mut String, path: &str, text: &str, only: &[&str]) {
    for item in items(text) {
        if !only.is_empty() && !only.contains(&item.name.as_str()) {
            continue;
        }
        out.push_str(&format!(
            "\n## {}\n\n{} *({} in `{}`)*\n\n",
            item.name, item.doc, item.kind, path
        ));
        if item.members.is_empty() {
            continue;
        }
        if item.kind == "struct" {
            out.push_str("| field | type | meaning |\n|---|---|---|\n");
            for m in &item.members {
                let opt = if m.optional { " *optional*" } else { "" };
                out.push_str(&format!(
                    "| `{}` | `{}` | {}{opt} |\n",
                    cell(&m.name),
                    cell(&m.ty),
                    cell(&m.doc)
                ));
            }
        } else {
            out.push_str("| variant | meaning |\n|---|---|\n");
            for m in &item.members {
                out.push_str(&format!(
                    "| `{}{}` | {} |\n",
                    cell(&m.name),
                    cell(&m.ty),
                    cell(&m.doc)
                ));
            }
        }
    }
}
