//! `cvd`: writes how a screenshot looks with deuteranopia (Machado 2009 simulation), to check
//! the colour-blind-safe palette by eye.

use std::path::PathBuf;

use super::Outcome;

/// `cvd`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// A PNG screenshot (F12 in the game).
    input: PathBuf,
    /// Where the simulated PNG goes.
    output: PathBuf,
}

/// `cvd`.
pub fn run(a: Args) -> Outcome {
    Ok(crate::app::colour::simulate_png(&a.input, &a.output)?)
}
