//! A program of one's own with a chapter of one's own: the shipped game with the trial chapter
//! (`tests/rules/trial.rs`, the worked example of `docs/modding.md`, "Writing a chapter")
//! beside the shipped chapters. Every command of the game runs with it, the window included:
//!
//! `cargo run --example trial_program -- --mod tests/chapters/trial play --level trial`
//!
//! The tests run its window (`tests/rules/window.rs`).

use std::process::ExitCode;

#[allow(dead_code)]
#[path = "../tests/rules/trial.rs"]
mod trial;

fn main() -> ExitCode {
    chaos_outpost::cli::main_for(
        trial::chapters(),
        std::env::args_os(),
        &mut std::io::stdout().lock(),
    )
}
