//! The crate's layers, held by reading `src/`: each layer imports only the layers below it,
//! no import circle joins files (of any length), and the headless layers take nothing from egui, audio,
//! rendering or windows. The order (see `docs/architecture.md`):
//!
//! `ground ← content ← rules ← {text, ai} ← sim ← app ← view ← chapters ← cli`
//!
//! An import is any path that starts with `crate::`, `super::` or `self::` (in `use` trees and
//! inline), resolved against the module it stands in to the file module it names. A failure
//! names the file and the line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::rust_files;

/// The layers, lowest first; modules of one rank are peers and may not import each other.
const LAYERS: [(&str, u8); 10] = [
    ("ground", 0),
    ("content", 1),
    ("rules", 2),
    ("text", 3),
    ("ai", 3),
    ("sim", 4),
    ("app", 5),
    ("view", 6),
    ("chapters", 7),
    ("cli", 8),
];

/// Crates the headless layers (everything below `view`) may not use.
const WINDOW_CRATES: [&str; 4] = ["bevy_egui", "bevy_kira_audio", "egui", "winit"];

/// Bevy modules the layers from `ground` to `sim` may use: the ECS, the app, states, tasks and
/// logging; no rendering, no windows, no assets, no input.
const HEADLESS_BEVY: [&str; 9] = [
    "prelude", "ecs", "app", "state", "tasks", "platform", "log", "time", "math",
];

fn rank(top: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == top).map(|(_, r)| *r)
}

/// One import: where it stands and what it names.
#[derive(Debug, Clone)]
struct Import {
    file: String,
    line: usize,
    /// The full path, resolved from the crate root (`rules::snapshot::fnv1a`).
    path: Vec<String>,
}

/// A source file as a module: its path from the crate root (`rules::main_phase::build`; a
/// `mod.rs` is its folder's module). `lib.rs` is the root; `main.rs` belongs to the cli.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    match parts.as_slice() {
        [one] if one == "lib" => Vec::new(),
        [one] if one == "main" => vec!["cli".into()],
        _ => parts,
    }
}

/// The text with comments, strings and char literals blanked (newlines kept, so line numbers
/// hold): paths written in docs or messages are not imports.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for c in &b[i..j.min(b.len())] {
                out.push(blank(*c));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\''
            && (b.get(i + 2) == Some(&'\'') || (next == Some('\\') && b[i + 1..].contains(&'\'')))
        {
            // A char literal ('x', '\n', '\''); a lifetime has no closing quote.
            let mut j = i + 1;
            if b[j] == '\\' {
                j += 2;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
            } else {
                j += 1;
            }
            for _ in i..=j.min(b.len() - 1) {
                out.push(' ');
            }
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree or an inline path starting at `at` (just past its first segment
/// and `::`): `a::b`, `a::{b, c::{d}}`, `a::*`.
fn tree(
    b: &[char],
    mut at: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let skip_ws = |b: &[char], mut i: usize| {
        while i < b.len() && b[i].is_whitespace() {
            i += 1;
        }
        i
    };
    let mut path = prefix;
    loop {
        at = skip_ws(b, at);
        if b.get(at) == Some(&'{') {
            at += 1;
            loop {
                at = skip_ws(b, at);
                match b.get(at) {
                    Some('}') => {
                        at += 1;
                        break;
                    }
                    Some(',') => at += 1,
                    None => break,
                    _ => {
                        let before = at;
                        at = tree(b, at, path.clone(), out);
                        if at == before {
                            at += 1;
                        }
                    }
                }
            }
            return at;
        }
        let start = at;
        while at < b.len() && (is_ident(b[at]) || b[at] == '*') {
            at += 1;
        }
        if at == start {
            break;
        }
        let seg: String = b[start..at].iter().collect();
        if seg != "*" && seg != "self" {
            path.push(seg);
        }
        let after = skip_ws(b, at);
        if b.get(after) == Some(&':') && b.get(after + 1) == Some(&':') {
            at = after + 2;
        } else {
            break;
        }
    }
    out.push((path, at));
    at
}

/// Every import in one file, resolved against its module (inline `mod x { … }` blocks move
/// `super` and `self` as the compiler does).
fn imports_of(file: &str, module: &[String], text: &str) -> Vec<Import> {
    let code = code_only(text);
    let b: Vec<char> = code.chars().collect();
    let line_at = |i: usize| b[..i].iter().filter(|c| **c == '\n').count() + 1;
    let mut out = Vec::new();
    // Inline modules: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == '}' {
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
            i += 1;
            continue;
        }
        if !is_ident(c) || (i > 0 && (is_ident(b[i - 1]) || b[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        let word: String = b[start..i].iter().collect();
        if word == "mod" {
            let mut j = i;
            while j < b.len() && b[j].is_whitespace() {
                j += 1;
            }
            let ns = j;
            while j < b.len() && is_ident(b[j]) {
                j += 1;
            }
            let name: String = b[ns..j].iter().collect();
            while j < b.len() && b[j].is_whitespace() {
                j += 1;
            }
            if b.get(j) == Some(&'{') {
                inline.push((name, depth + 1));
            }
            continue;
        }
        let is_root = matches!(word.as_str(), "crate" | "super" | "self" | "chaos_outpost");
        if !is_root || b.get(i) != Some(&':') || b.get(i + 1) != Some(&':') {
            continue;
        }
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        let base: Vec<String> = match word.as_str() {
            "crate" | "chaos_outpost" => Vec::new(),
            "self" => here.clone(),
            _ => here[..here.len().saturating_sub(1)].to_vec(),
        };
        let mut found = Vec::new();
        let end = tree(&b, i + 2, base, &mut found);
        for (mut path, _) in found {
            // `super::super::x`: each further `super` climbs one more.
            while path.len() > 1 && path.iter().any(|s| s == "super") {
                let k = path.iter().position(|s| s == "super").unwrap_or(0);
                path.remove(k);
                if k > 0 {
                    path.remove(k - 1);
                }
            }
            out.push(Import {
                file: file.to_string(),
                line: line_at(start),
                path,
            });
        }
        i = end.max(i + 2);
    }
    out
}

/// What reading a source tree finds.
struct Tree {
    /// File modules, by their path.
    modules: BTreeMap<Vec<String>, String>,
    imports: Vec<(Vec<String>, Import)>,
    /// External crates used per file: (file, line, first segment, second segment).
    externals: Vec<(Vec<String>, String, usize, String, String)>,
}

fn read_tree(root: &Path) -> Tree {
    let mut modules = BTreeMap::new();
    let mut imports = Vec::new();
    let mut externals = Vec::new();
    for p in rust_files(root) {
        let rel = p.strip_prefix(root).expect("under src");
        let module = module_of(rel);
        let file = format!("src/{}", rel.display());
        let text = std::fs::read_to_string(&p).expect("read a source file");
        for im in imports_of(&file, &module, &text) {
            imports.push((module.clone(), im));
        }
        let code = code_only(&text);
        for (n, line) in code.lines().enumerate() {
            for krate in WINDOW_CRATES.iter().copied().chain(["bevy"]) {
                let mut from = 0;
                while let Some(k) = line[from..].find(krate) {
                    let at = from + k;
                    from = at + krate.len();
                    let before_ok = !line[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| is_ident(c) || c == ':');
                    let rest = &line[at + krate.len()..];
                    if before_ok && rest.starts_with("::") {
                        let second: String =
                            rest[2..].chars().take_while(|c| is_ident(*c)).collect();
                        externals.push((
                            module.clone(),
                            file.clone(),
                            n + 1,
                            krate.to_string(),
                            second,
                        ));
                    }
                }
            }
        }
        modules.insert(module, file);
    }
    Tree {
        modules,
        imports,
        externals,
    }
}

/// The file module an import lands in: the longest prefix of its path that is a file module.
fn target(modules: &BTreeMap<Vec<String>, String>, path: &[String]) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| modules.contains_key(m))
}

/// Every breach of the layer order, as `file:line: …` sentences.
fn layer_breaches(tree: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    for (from, im) in &tree.imports {
        let (Some(ft), Some(tt)) = (from.first(), im.path.first()) else {
            continue;
        };
        if ft == tt || target(&tree.modules, &im.path).is_none() {
            continue;
        }
        let (Some(fr), Some(tr)) = (rank(ft), rank(tt)) else {
            out.push(format!(
                "{}:{}: `{}`: {} or {} is in no layer (add it to LAYERS and the docs)",
                im.file,
                im.line,
                im.path.join("::"),
                ft,
                tt
            ));
            continue;
        };
        if tr >= fr {
            let why = if tr == fr { "a peer of" } else { "above" };
            out.push(format!(
                "{}:{}: `{}` points up: {tt} is {why} {ft}, which may import only the layers below it",
                im.file,
                im.line,
                im.path.join("::"),
            ));
        }
    }
    for (from, file, line, krate, second) in &tree.externals {
        let Some(r) = from.first().and_then(|t| rank(t)) else {
            continue;
        };
        let below_view = r < rank("view").unwrap_or(0);
        let headless = r <= rank("sim").unwrap_or(0);
        if below_view && krate != "bevy" {
            out.push(format!(
                "{file}:{line}: `{krate}` in {}: only the view may use egui, audio or windows",
                from[0]
            ));
        }
        if headless && krate == "bevy" && !HEADLESS_BEVY.contains(&second.as_str()) {
            out.push(format!(
                "{file}:{line}: `bevy::{second}` in {}: the headless layers use only the ECS, \
                 app, state, tasks and log parts of bevy",
                from[0]
            ));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Every import circle between file modules, of any length: the strongly connected components
/// of the import graph with more than one module (Tarjan's algorithm), each named by its files
/// and one import per step round the circle. A folder's `mod.rs` and the files inside it are
/// left out of the graph when they import each other: the folder is one feature, its `mod.rs`
/// its face.
fn import_cycles(tree: &Tree) -> Vec<String> {
    // From each module: the modules it imports, each with its first import's file and line.
    type Edges = BTreeMap<Vec<String>, BTreeMap<Vec<String>, (String, usize)>>;
    let nested = |a: &[String], b: &[String]| a.starts_with(b) || b.starts_with(a);
    let mut edges: Edges = BTreeMap::new();
    for (from, im) in &tree.imports {
        if let Some(t) = target(&tree.modules, &im.path)
            && !nested(from, &t)
        {
            edges
                .entry(from.clone())
                .or_default()
                .entry(t)
                .or_insert((im.file.clone(), im.line));
        }
    }
    let names: Vec<&Vec<String>> = tree.modules.keys().collect();
    let index: BTreeMap<&Vec<String>, usize> =
        names.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let next: Vec<Vec<usize>> = names
        .iter()
        .map(|m| {
            edges
                .get(*m)
                .map(|to| to.keys().filter_map(|t| index.get(t).copied()).collect())
                .unwrap_or_default()
        })
        .collect();
    // Tarjan, iterative (a deep source tree must not overflow the test's stack).
    let n = names.len();
    let (mut order, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack, mut comps) = (vec![false; n], Vec::new(), Vec::new());
    let mut counter = 0;
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 && order[v] == usize::MAX {
                order[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = next[v].get(*k) {
                *k += 1;
                if order[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comps.push(comp);
                }
            }
        }
    }
    let mut out: Vec<String> = comps
        .into_iter()
        .map(|comp| {
            let members: BTreeSet<usize> = comp.iter().copied().collect();
            let mut files: Vec<&str> = comp
                .iter()
                .filter_map(|&i| tree.modules.get(names[i]).map(String::as_str))
                .collect();
            files.sort();
            // One circle through the component, from its first module: each step an import
            // to a member not yet walked when there is one, else back to the start.
            let Some(&start) = members.iter().next() else {
                return String::new();
            };
            let (mut walk, mut at, mut seen) = (Vec::new(), start, BTreeSet::from([start]));
            loop {
                let step = next[at]
                    .iter()
                    .copied()
                    .filter(|w| members.contains(w))
                    .find(|w| !seen.contains(w))
                    .or_else(|| next[at].iter().copied().find(|w| *w == start));
                let Some(w) = step else { break };
                if let Some((file, line)) = edges.get(names[at]).and_then(|m| m.get(names[w])) {
                    walk.push(format!("{file}:{line} -> {}", names[w].join("::")));
                }
                if w == start || !seen.insert(w) {
                    break;
                }
                at = w;
            }
            format!(
                "an import circle of {} files ({}): {}",
                files.len(),
                files.join(", "),
                walk.join(", ")
            )
        })
        .collect();
    out.sort();
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let tree = read_tree(&src());
    assert!(
        tree.imports.len() > 300,
        "only {} imports read",
        tree.imports.len()
    );
    let breaches = layer_breaches(&tree);
    assert!(breaches.is_empty(), "{}", breaches.join("\n"));
}

#[test]
fn no_import_circle_of_any_length() {
    let tree = read_tree(&src());
    let circles = import_cycles(&tree);
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}

#[test]
fn every_top_module_has_a_layer() {
    let tree = read_tree(&src());
    let tops: BTreeSet<&String> = tree.modules.keys().filter_map(|m| m.first()).collect();
    for t in tops {
        assert!(rank(t).is_some(), "src/{t} is in no layer");
    }
}

/// The checker itself: a deliberate upward import, a peer import, a mutual pair and a window
/// crate in the rules are each caught, with the file and the line.
#[test]
fn the_checker_catches_an_upward_import_with_its_file_and_line() {
    let dir = std::env::temp_dir().join(format!("co-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |rel: &str, text: &str| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(p, text).expect("write");
    };
    write(
        "lib.rs",
        "pub mod rules;\npub mod view;\npub mod text;\npub mod ai;\n",
    );
    write(
        "rules/mod.rs",
        "//! rules\npub mod a;\npub mod b;\n// crate::view::x in a comment is no import\n\
         fn f() { let s = \"crate::view::y\"; }\n\
         use crate::view::panels::{self, draw};\n",
    );
    write(
        "rules/a.rs",
        "use super::b::thing;\nfn g() { bevy_egui::egui::Ui::new(); }\n",
    );
    write("rules/b.rs", "use crate::rules::a::{x, y};\n");
    write(
        "view/mod.rs",
        "pub mod panels;\npub mod c1;\npub mod c2;\npub mod c3;\nuse self::c1::x;\n",
    );
    write("view/c1.rs", "use super::c2::x;\nuse super::y;\n");
    write("view/c2.rs", "use crate::view::c3::x;\n");
    write("view/c3.rs", "// c3\nfn f() { super::c1::x(); }\n");
    write(
        "view/panels.rs",
        "use crate::rules::a;\n#[cfg(test)]\nmod tests { use super::*; }\n",
    );
    write("text/mod.rs", "use crate::ai::decide;\n");
    write("ai/mod.rs", "pub fn decide() {}\n");
    let tree = read_tree(&dir);
    let breaches = layer_breaches(&tree);
    for want in [
        "src/rules/mod.rs:6: `view::panels` points up",
        "src/text/mod.rs:1: `ai::decide` points up: ai is a peer of text",
        "src/rules/a.rs:2: `bevy_egui` in rules",
    ] {
        assert!(
            breaches.iter().any(|b| b.starts_with(want)),
            "{want}: {breaches:#?}"
        );
    }
    // Paths in comments and strings are no imports; the view may import the rules.
    for wrong in ["view::x", "view::y", "src/view/"] {
        assert!(
            !breaches.iter().any(|b| b.contains(wrong)),
            "{wrong}: {breaches:#?}"
        );
    }
    let circles = import_cycles(&tree);
    assert_eq!(circles.len(), 2, "{circles:#?}");
    assert!(
        circles[0].starts_with(
            "an import circle of 2 files (src/rules/a.rs, src/rules/b.rs): src/rules/a.rs:1 -> rules::b"
        ),
        "{circles:#?}"
    );
    // A circle of three, none of whose files import each other back.
    assert_eq!(
        circles[1],
        "an import circle of 3 files (src/view/c1.rs, src/view/c2.rs, src/view/c3.rs): \
         src/view/c1.rs:1 -> view::c2, src/view/c2.rs:1 -> view::c3, src/view/c3.rs:2 -> view::c1",
        "{circles:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
