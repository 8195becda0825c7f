//! `schema`: prints the reference of every content type (the source of docs/schema.md).

use std::io::Write;

use super::Outcome;

/// `schema`.
pub fn run(out: &mut dyn Write) -> Outcome {
    write!(out, "{}", crate::content::schema_doc::markdown())?;
    Ok(())
}
