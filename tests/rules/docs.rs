//! The documentation holds together: every relative link and image in `README.md`,
//! `CHANGELOG.md` and `docs/**/*.md` leads to a file of the repository; every level the README
//! names with `--level` exists; every subcommand of the README's command block is one the
//! program has; every campaign chapter in the README's table is one `campaigns.ron` plays.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// A link that leads nowhere: the file, its line (from 1) and the target as written.
#[derive(Debug, PartialEq, Eq)]
struct Broken {
    file: String,
    line: usize,
    target: String,
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: broken link to `{}`",
            self.file, self.line, self.target
        )
    }
}

/// The line without its inline code spans. `in_code` carries a span left open at the end of a
/// line into the next one (a span may wrap; a blank line closes it).
fn without_code(line: &str, in_code: &mut bool) -> String {
    let mut out = String::new();
    for c in line.chars() {
        if c == '`' {
            *in_code = !*in_code;
        } else if !*in_code {
            out.push(c);
        }
    }
    out
}

/// The targets written on one line: `](target)` (links and images) and `src="target"` (HTML
/// images).
fn targets_in(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [("](", ')'), ("src=\"", '"')] {
        let mut rest = line;
        while let Some(i) = rest.find(open) {
            let after = &rest[i + open.len()..];
            let Some(j) = after.find(close) else { break };
            out.push(after[..j].to_string());
            rest = &after[j + 1..];
        }
    }
    out
}

/// The file a relative target names, or None for what is not a file of the repository (a web
/// address, a mail address, an anchor on the same page).
fn local_path(target: &str) -> Option<String> {
    let t = target.trim().trim_start_matches('<').trim_end_matches('>');
    // A title after the path: `(path "title")`.
    let t = t.split_whitespace().next().unwrap_or("");
    if t.is_empty()
        || t.starts_with('#')
        || t.starts_with("http://")
        || t.starts_with("https://")
        || t.starts_with("mailto:")
    {
        return None;
    }
    let t = t.split('#').next().unwrap_or("");
    (!t.is_empty()).then(|| t.to_string())
}

/// Every link and image of a markdown text whose file does not exist, relative to `dir` (the
/// folder of the file the text comes from). Fenced code blocks and inline code are not links.
fn broken_links(file: &str, text: &str, dir: &Path) -> Vec<Broken> {
    let mut broken = Vec::new();
    let mut fenced = false;
    let mut in_code = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            in_code = false;
            continue;
        }
        if fenced {
            continue;
        }
        if line.trim().is_empty() {
            in_code = false;
            continue;
        }
        let prose = without_code(line, &mut in_code);
        for target in targets_in(&prose) {
            if let Some(path) = local_path(&target)
                && !dir.join(&path).exists()
            {
                broken.push(Broken {
                    file: file.to_string(),
                    line: n + 1,
                    target,
                });
            }
        }
    }
    broken
}

/// README.md, CHANGELOG.md and every markdown file under docs/, as paths from the root.
fn markdown_files() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![PathBuf::from("README.md"), PathBuf::from("CHANGELOG.md")];
    let mut folders = vec![PathBuf::from("docs")];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(root.join(&folder))
            .unwrap_or_else(|e| panic!("read {}: {e}", folder.display()));
        for entry in entries {
            let entry = entry.expect("a folder entry");
            let rel = folder.join(entry.file_name());
            if entry.file_type().expect("a file type").is_dir() {
                folders.push(rel);
            } else if rel.extension().is_some_and(|e| e == "md") {
                files.push(rel);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_link_checker_reports_a_broken_link_and_nothing_else() {
    let text = "See [the rules](docs/rules.md#r5) and ![menu](docs/menu.png).\n\
                A [missing page](docs/no_such_page.md) and <img src=\"docs/no_such.png\">.\n\
                `[code](not/a/link.md)` and [a site](https://example.org/x.md), [top](#top).\n\
                ```\n\
                [fenced](not/a/link/either.md)\n\
                ```\n";
    let broken = broken_links("sample.md", text, &root());
    assert_eq!(
        broken,
        vec![
            Broken {
                file: "sample.md".into(),
                line: 2,
                target: "docs/no_such_page.md".into()
            },
            Broken {
                file: "sample.md".into(),
                line: 2,
                target: "docs/no_such.png".into()
            },
        ],
        "{}",
        broken
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_link_and_image_of_the_documentation_leads_to_a_file() {
    let root = root();
    let mut broken = Vec::new();
    for rel in markdown_files() {
        let path = root.join(&rel);
        assert!(path.exists(), "{} is missing", rel.display());
        let dir = path.parent().expect("a file has a folder").to_path_buf();
        broken.extend(broken_links(&rel.display().to_string(), &read(&path), &dir));
    }
    let lines: Vec<String> = broken.iter().map(|b| b.to_string()).collect();
    assert!(lines.is_empty(), "broken links:\n{}", lines.join("\n"));
}

/// The word after `flag ` on a line (`--level first_light` gives `first_light`).
fn value_after<'a>(line: &'a str, flag: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find(flag) {
        let after = &rest[i + flag.len()..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '/' || c == '-'))
            .unwrap_or(after.len());
        out.push(&after[..end]);
        rest = &after[end..];
    }
    out
}

#[test]
fn every_level_the_readme_names_exists() {
    let root = root();
    let readme = read(&root.join("README.md"));
    let mut missing = Vec::new();
    let mut named = 0;
    for (n, line) in readme.lines().enumerate() {
        // A level of a mod loaded on the same line lives in that mod's levels/.
        let mods = value_after(line, "--mod ");
        for level in value_after(line, "--level ") {
            if level.is_empty() || level.chars().all(|c| c.is_ascii_uppercase()) {
                continue;
            }
            named += 1;
            let file = format!("{level}.ron");
            let found = root.join("levels").join(&file).exists()
                || mods
                    .iter()
                    .any(|m| root.join(m).join("levels").join(&file).exists());
            if !found {
                missing.push(format!(
                    "README.md:{}: no level `{level}` (levels/{file})",
                    n + 1
                ));
            }
        }
    }
    assert!(named > 0, "the README names no level with --level");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

fn help(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_chaos-outpost"))
        .args(args)
        .output()
        .expect("run the binary");
    assert!(
        o.status.success(),
        "chaos-outpost {} failed",
        args.join(" ")
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// Whether a `--help` text lists `word` as a subcommand (a line that starts with it).
fn lists(help: &str, word: &str) -> bool {
    help.lines().any(|l| {
        let l = l.trim_start();
        l.strip_prefix(word)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
    })
}

/// A subcommand's name: lowercase words joined by hyphens (`test-scenario`), not an option.
fn is_word(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

#[test]
fn every_subcommand_of_the_readmes_command_block_is_one_the_program_has() {
    let root = root();
    let readme = read(&root.join("README.md"));
    let top = help(&["--help"]);
    let mut wrong = Vec::new();
    let mut named = 0;
    let mut fenced = false;
    for (n, line) in readme.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            continue;
        }
        let mut words = line.split_whitespace();
        if words.next() != Some("chaos-outpost") {
            continue;
        }
        // Skip the global `--mod PATH` before the subcommand.
        let mut words = words.peekable();
        while words.peek() == Some(&"--mod") {
            words.next();
            words.next();
        }
        let Some(sub) = words.next() else { continue };
        if !is_word(sub) {
            continue; // `# open the game window`, or an option of the default command
        }
        named += 1;
        if !lists(&top, sub) {
            wrong.push(format!(
                "README.md:{}: `chaos-outpost {sub}` is no subcommand",
                n + 1
            ));
            continue;
        }
        // A nested subcommand (`campaign list`).
        if let Some(&inner) = words.peek()
            && is_word(inner)
        {
            let sub_help = help(&[sub, "--help"]);
            if !lists(&sub_help, inner) {
                wrong.push(format!(
                    "README.md:{}: `chaos-outpost {sub} {inner}` is no subcommand",
                    n + 1
                ));
            }
        }
    }
    assert!(named > 0, "the README's command block names no subcommand");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_campaign_chapter_in_the_readme_is_played_by_the_campaign() {
    let root = root();
    let readme = read(&root.join("README.md"));
    let campaigns = read(&root.join("assets/content/campaigns.ron"));
    let mut wrong = Vec::new();
    let mut rows = 0;
    for (n, line) in readme.lines().enumerate() {
        // The chapter table's rows: `| 1 | First Light | `first_light` | … |`.
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || cells[1].is_empty() || !cells[1].chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        rows += 1;
        let (name, level) = (cells[2], cells[3].trim_matches('`'));
        if !campaigns.contains(&format!("name: \"{name}\"")) {
            wrong.push(format!(
                "README.md:{}: no chapter named `{name}` in campaigns.ron",
                n + 1
            ));
        }
        if !campaigns.contains(&format!("level: \"{level}\"")) {
            wrong.push(format!(
                "README.md:{}: no chapter plays level `{level}`",
                n + 1
            ));
        }
        if !root.join("levels").join(format!("{level}.ron")).exists() {
            wrong.push(format!(
                "README.md:{}: no level `{level}` (levels/{level}.ron)",
                n + 1
            ));
        }
    }
    assert!(rows > 0, "the README has no chapter table");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
