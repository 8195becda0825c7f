//! Build script: checks the RON syntax of every file under `assets/` and `levels/` (an error
//! names file:line:col and stops the build) and embeds the base content and levels in the binary,
//! so the game runs from any directory on its embedded default.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Files under `dir` with extension `ext`, sorted, so the build is the same on every machine.
fn files_with(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_with(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Embeds the art (PNG) and sound (OGG) under `assets/`, so the release binary finds them from
/// any working directory.
fn embed_media(root: &Path) {
    let mut files = Vec::new();
    files_with(&root.join("assets/art"), "png", &mut files);
    files_with(&root.join("assets/audio"), "ogg", &mut files);
    let mut text = String::from(
        "/// (path under assets/, bytes) of the embedded art and sound.\npub const MEDIA: &[(&str, &[u8])] = &[\n",
    );
    for p in &files {
        println!("cargo:rerun-if-changed={}", p.display());
        let rel = p
            .strip_prefix(root.join("assets"))
            .unwrap_or(p)
            .display()
            .to_string();
        let _ = writeln!(
            text,
            "    ({rel:?}, include_bytes!({:?})),",
            p.display().to_string()
        );
    }
    text.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("media.rs");
    std::fs::write(&out, text).expect("write media.rs into OUT_DIR");
}

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=assets");
    println!("cargo:rerun-if-changed=levels");
    // The profile the game is built with (`dev` for `./dev play` and the tests, `release` for
    // the archive): `bench` labels its figures with it, as the dev build has no debug
    // assertions to tell it by.
    let profile = std::env::var("PROFILE").unwrap_or_default();
    println!("cargo:rustc-env=CHAOS_OUTPOST_PROFILE={profile}");
    let mut all = Vec::new();
    files_with(&root.join("assets"), "ron", &mut all);
    files_with(&root.join("levels"), "ron", &mut all);
    let mut errors = Vec::new();
    let mut embedded = String::from(
        "/// (path, text) of the embedded base content and levels.\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for p in &all {
        println!("cargo:rerun-if-changed={}", p.display());
        let rel = p.strip_prefix(&root).unwrap_or(p).display().to_string();
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                errors.push(format!("{rel}: can't read: {e}"));
                continue;
            }
        };
        if let Err(e) = ron::from_str::<ron::Value>(&text) {
            errors.push(format!(
                "{rel}:{}:{}: {}",
                e.span.start.line, e.span.start.col, e.code
            ));
            continue;
        }
        // Only the base content and the levels are embedded; mods stay on disk.
        let embed = rel.starts_with("assets/content/") || rel.starts_with("levels/");
        if embed {
            let _ = writeln!(
                embedded,
                "    ({rel:?}, include_str!({:?})),",
                p.display().to_string()
            );
        }
    }
    embedded.push_str("];\n");
    if !errors.is_empty() {
        for e in &errors {
            println!("cargo::error={e}");
        }
        eprintln!("RON syntax errors:\n{}", errors.join("\n"));
        std::process::exit(1);
    }
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    std::fs::write(&out, embedded).expect("write embedded.rs into OUT_DIR");
    embed_media(&root);
}
