//! `schema`: prints the reference of every content type (the source of docs/schema.md).

use std::io::Write;

use super::{Outcome, Program};

/// `schema`.
pub fn run(p: &Program, out: &mut dyn Write) -> Outcome {
    write!(out, "{}", crate::content::schema_doc::markdown(&p.chapters))?;
    Ok(())
}
