//! Files that must never be half-written or read without bound: atomic writes (temp file,
//! fsync, rename, fsync of the folder), reads capped at a size, and the header line that starts
//! every save, replay and settings file (its kind, format version, length and FNV-1a checksum,
//! so a truncated or altered file is caught before it is parsed).

use std::io::Write;
use std::path::Path;

use super::hash::fnv1a;

/// The start of every header line.
const HEADER: &str = "// chaos-outpost";

/// Writes `text` to `path` atomically: a temp file beside it, flushed and synced, then renamed
/// over the target, so a crash leaves either the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, text: impl AsRef<[u8]>) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(d) = dir {
        std::fs::create_dir_all(d)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "save".into());
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_ref())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    if let Some(d) = dir
        && let Ok(f) = std::fs::File::open(d)
    {
        let _ = f.sync_all();
    }
    Ok(())
}

/// At most `n` characters of `text`, with `…` where it was cut: a value from an untrusted
/// file as a message shows it (a 4-million-character id stays a line).
pub fn clipped(text: &str, n: usize) -> String {
    let mut out: String = text.chars().take(n).collect();
    if text.chars().nth(n).is_some() {
        out.push('…');
    }
    out
}

/// Reads a UTF-8 text file of at most `max` bytes; the error is a sentence without the path
/// (the caller names the file in its own way).
pub fn read_bounded(path: &Path, max: u64) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("can't read: {e}"))?;
    if meta.len() > max {
        return Err(format!(
            "file is {} bytes, more than the {max}-byte limit",
            meta.len()
        ));
    }
    // Read at most one byte past the limit: the file may have grown since `metadata`.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, max + 1), &mut bytes))
        .map_err(|e| format!("can't read: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("file is more than the {max}-byte limit"));
    }
    String::from_utf8(bytes).map_err(|e| format!("can't read as UTF-8 text: {e}"))
}

/// Wraps `body` in the header line of a `kind` file at format `version`.
pub fn envelope(kind: &str, version: u32, body: &str) -> String {
    format!(
        "{HEADER} {kind} v{version} bytes={} fnv1a={:016x}\n{body}",
        body.len(),
        fnv1a(body.as_bytes())
    )
}

/// Checks and removes the header line. Text without one is a version 1 file (returned as is);
/// a wrong kind, a version above `newest`, a length or checksum that does not match is an
/// error.
pub fn open_envelope<'a>(kind: &str, newest: u32, text: &'a str) -> Result<(u32, &'a str), String> {
    let Some(rest) = text.strip_prefix(HEADER) else {
        return Ok((1, text));
    };
    let (line, body) = rest
        .split_once('\n')
        .ok_or("the file ends inside its header line")?;
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [k, v, bytes, sum] = fields[..] else {
        return Err(format!("malformed header line `{HEADER}{line}`"));
    };
    if k != kind {
        return Err(format!("this is a {k} file, not a {kind}"));
    }
    let version: u32 = v
        .strip_prefix('v')
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("malformed version `{v}` in the header"))?;
    if version > newest {
        return Err(format!(
            "made by a newer version of the game (format {version}; this one reads up to \
             {newest}): update the game to open it"
        ));
    }
    let want_len: usize = bytes
        .strip_prefix("bytes=")
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("malformed length `{bytes}` in the header"))?;
    let want_sum = sum
        .strip_prefix("fnv1a=")
        .and_then(|n| u64::from_str_radix(n, 16).ok())
        .ok_or_else(|| format!("malformed checksum `{sum}` in the header"))?;
    if body.len() != want_len {
        return Err(format!(
            "truncated or altered: {} bytes after the header, {want_len} expected",
            body.len()
        ));
    }
    if fnv1a(body.as_bytes()) != want_sum {
        return Err("altered or damaged: the checksum does not match".into());
    }
    Ok((version, body))
}
