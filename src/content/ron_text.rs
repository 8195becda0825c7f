//! A small reader of RON *text* (not values): it splits a struct `( a: 1, b: (…) )` or a map
//! `{ "k": v, … }` into its top-level entries with their byte offsets. Mod patches use it to
//! replace single fields of an entry while keeping the exact line and column of each field for
//! error messages (`ron::Value` loses enum variant names, so it can't round-trip content).

/// One `key: value` entry of a struct or map, with where it starts in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The key as written (`hp`, `"ranger"`).
    pub key: &'a str,
    /// Byte offset of the key.
    pub key_at: usize,
    /// The value as written, trimmed.
    pub value: &'a str,
    /// Byte offset of the value.
    pub value_at: usize,
}

impl Entry<'_> {
    /// The key without quotes (`"ranger"` → `ranger`), or `None` when it isn't a plain string.
    pub fn string_key(&self) -> Option<&str> {
        let k = self.key.strip_prefix('"')?.strip_suffix('"')?;
        (!k.contains('\\') && !k.contains('"')).then_some(k)
    }
}

/// Index of the first byte at or after `at` that is not white space or a comment.
pub fn skip_blank(text: &str, mut at: usize) -> usize {
    let b = text.as_bytes();
    loop {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if b.get(at..at + 2) == Some(b"//") {
            while at < b.len() && b[at] != b'\n' {
                at += 1;
            }
        } else if b.get(at..at + 2) == Some(b"/*") {
            at = end_of_block_comment(b, at);
        } else {
            return at;
        }
    }
}

/// Just past the block comment opening at `at` (RON block comments nest).
fn end_of_block_comment(b: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    while at < b.len() {
        if b.get(at..at + 2) == Some(b"/*") {
            depth += 1;
            at += 2;
        } else if b.get(at..at + 2) == Some(b"*/") {
            depth -= 1;
            at += 2;
            if depth == 0 {
                return at;
            }
        } else {
            at += 1;
        }
    }
    b.len()
}

/// Just past the comment starting at `at` (and any blank after it), if one does.
fn end_of_comment(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    (b.get(at..at + 2) == Some(b"//") || b.get(at..at + 2) == Some(b"/*"))
        .then(|| skip_blank(text, at).max(at + 1))
}

/// Just past what a scan of the structure skips at `at`: a literal or a comment.
fn end_of_unread(text: &str, at: usize) -> Option<usize> {
    end_of_literal(text.as_bytes(), at).or_else(|| end_of_comment(text, at))
}

/// Just past the string, raw string or char literal starting at `at`, if one does.
fn end_of_literal(b: &[u8], at: usize) -> Option<usize> {
    match b[at] {
        b'"' => {
            let mut i = at + 1;
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
            Some(b.len())
        }
        b'\'' => {
            // A char literal: 'x' or '\n' or a multi-byte char.
            let mut i = at + 1;
            while i < b.len() && i < at + 12 {
                match b[i] {
                    b'\\' => i += 2,
                    b'\'' => return Some(i + 1),
                    _ => i += 1,
                }
            }
            None
        }
        b'r' if at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') => {
            let mut i = at + 1;
            let mut hashes = 0;
            while b.get(i) == Some(&b'#') {
                hashes += 1;
                i += 1;
            }
            if b.get(i) != Some(&b'"') {
                return None;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let body = i + 1;
            Some(
                b[body..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map(|p| body + p + close.len())
                    .unwrap_or(b.len()),
            )
        }
        _ => None,
    }
}

/// Splits the struct or map whose opening bracket is at `open` into its top-level entries.
/// Returns the entries and the index just past the closing bracket, or the offset and a
/// sentence when the text is not a `( … )` / `{ … }` of `key: value` entries.
pub fn entries(text: &str, open: usize) -> Result<(Vec<Entry<'_>>, usize), (usize, String)> {
    let b = text.as_bytes();
    let close = match b.get(open) {
        Some(b'(') => b')',
        Some(b'{') => b'}',
        _ => return Err((open, "expected `(` or `{` here".into())),
    };
    let mut out = Vec::new();
    let mut at = open + 1;
    loop {
        at = skip_blank(text, at);
        match b.get(at) {
            None => return Err((open, "this bracket is never closed".into())),
            Some(c) if *c == close => return Ok((out, at + 1)),
            _ => {}
        }
        // One entry: up to the next top-level `,` or the closing bracket.
        let start = at;
        let mut stack: Vec<u8> = Vec::new();
        let mut colon = None;
        let mut i = at;
        while i < b.len() {
            if let Some(end) = end_of_unread(text, i) {
                i = end;
                continue;
            }
            match b[i] {
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                c @ (b')' | b']' | b'}') if stack.last() == Some(&c) => {
                    stack.pop();
                }
                c if (c == b',' || c == close) && stack.is_empty() => break,
                b')' | b']' | b'}' => {
                    return Err((i, "this bracket doesn't match the one that opened".into()));
                }
                b':' if stack.is_empty() && colon.is_none() => colon = Some(i),
                _ => {}
            }
            i += 1;
        }
        if i >= b.len() {
            return Err((open, "this bracket is never closed".into()));
        }
        let Some(c) = colon else {
            return Err((start, "expected `name: value` here".into()));
        };
        let key = text[start..c].trim_end();
        let value_at = skip_blank(text, c + 1);
        let value = text[value_at..i].trim_end();
        if key.is_empty() || value.is_empty() {
            return Err((start, "expected `name: value` here".into()));
        }
        out.push(Entry {
            key,
            key_at: start,
            value,
            value_at,
        });
        at = if b[i] == b',' { i + 1 } else { i };
    }
}

/// `at` moved back to the start of the character it falls in (an offset past the end is the
/// end): an offset found in another text never splits a character here.
fn char_start(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// 1-based line and column of a byte offset (a count from the text's start: for many offsets
/// in one text, `Lines` finds each with a search).
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = char_start(text, at);
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map(|i| before[i + 1..].chars().count() + 1)
        .unwrap_or(before.chars().count() + 1);
    (line, col)
}

/// Where each line of a text starts, found once (on the first question): the line of each of
/// many offsets is then a binary search, not a count of the newlines from the text's start,
/// so placing the problems of a long file costs one reading of it.
pub struct Lines<'t> {
    text: &'t str,
    starts: std::cell::OnceCell<Vec<usize>>,
}

impl<'t> Lines<'t> {
    /// The lines of `text` (nothing is read until a position is asked).
    pub fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            starts: std::cell::OnceCell::new(),
        }
    }

    /// 1-based line and column of a byte offset, as `line_col` gives them.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let text = self.text;
        let starts = self.starts.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        let at = char_start(text, at);
        // The lines starting at or before `at`: the first always does.
        let line = starts.partition_point(|s| *s <= at).max(1);
        let start = starts[line - 1];
        (line, text[start..at].chars().count() + 1)
    }
}

/// The field path of the value that stands at byte `at` of a RON value's text
/// (`places[1].slots`): the struct fields and map keys it lies in, and its index in each list.
/// Empty at the top.
pub fn path_at(text: &str, at: usize) -> String {
    /// One open bracket: a list (with the entry's index) or a struct, tuple or map (with the
    /// key of the entry, once its `:` was read).
    struct Frame {
        list: bool,
        index: usize,
        key: Option<String>,
    }
    let b = text.as_bytes();
    let at = at.min(b.len());
    let mut stack: Vec<Frame> = Vec::new();
    // The last word or string read in the current entry: the key when a `:` follows.
    let mut last: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < at {
        if let Some(end) = end_of_literal(b, i) {
            last = Some((i, end));
            i = end;
            continue;
        }
        if let Some(end) = end_of_comment(text, i) {
            i = end;
            continue;
        }
        match b[i] {
            b'(' | b'{' | b'[' => {
                stack.push(Frame {
                    list: b[i] == b'[',
                    index: 0,
                    key: None,
                });
                last = None;
            }
            b')' | b'}' | b']' => {
                stack.pop();
                last = None;
            }
            b',' => {
                if let Some(f) = stack.last_mut() {
                    f.index += 1;
                    f.key = None;
                }
                last = None;
            }
            b':' => {
                if let (Some(f), Some((s, e))) = (stack.last_mut(), last)
                    && !f.list
                {
                    f.key = Some(text[s..e].trim_matches('"').to_string());
                }
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let s = i;
                while i < at && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                last = Some((s, i));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let mut out = String::new();
    for f in &stack {
        if f.list {
            out.push_str(&format!("[{}]", f.index));
        } else if let Some(k) = &f.key {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(k);
        }
    }
    out
}

/// Where the value starting at `at` ends: the next `,` or unmatched closing bracket outside
/// brackets, strings and comments (the text's end if none).
fn end_of_value(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = at;
    while i < b.len() {
        if let Some(end) = end_of_unread(text, i) {
            i = end;
            continue;
        }
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return i,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The top-level elements of the list whose `[` is at `open`: each one's offset (none when
/// the text there is not a closed list).
pub fn elements(text: &str, open: usize) -> Option<Vec<usize>> {
    let b = text.as_bytes();
    if b.get(open) != Some(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    let mut at = open + 1;
    loop {
        at = skip_blank(text, at);
        match b.get(at) {
            None => return None,
            Some(b']') => return Some(out),
            _ => {}
        }
        out.push(at);
        let end = end_of_value(text, at);
        match b.get(end) {
            Some(b',') => at = end + 1,
            Some(_) => return Some(out),
            None => return None,
        }
    }
}

/// The offset, in a RON value's text, of the value at `path` (`places[2].slots`,
/// `places[guild].at`: a list entry by its index or by its `id`, a map entry by its key), where
/// the text has it.
pub fn offset_of_path(text: &str, path: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut at = skip_blank(text, 0);
    let mut rest = path;
    while !rest.is_empty() {
        // A struct written with its name (`Some(…)`, `Level(…)`): its bracket.
        while at < b.len() && (b[at].is_ascii_alphanumeric() || b[at] == b'_') {
            at += 1;
        }
        at = skip_blank(text, at);
        if let Some(r) = rest.strip_prefix('[') {
            let (key, r) = r.split_once(']')?;
            rest = r;
            if b.get(at) == Some(&b'{') {
                let (es, _) = entries(text, at).ok()?;
                at = es
                    .iter()
                    .find(|e| e.string_key() == Some(key) || e.key == key)?
                    .value_at;
            } else if let Ok(i) = key.parse::<usize>() {
                at = *elements(text, at)?.get(i)?;
            } else {
                let quoted = format!("\"{key}\"");
                at = elements(text, at)?.into_iter().find(|&e| {
                    entries(text, skip_blank(text, e))
                        .ok()
                        .and_then(|(es, _)| es.into_iter().find(|x| x.key == "id"))
                        .is_some_and(|x| x.value == quoted)
                })?;
            }
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let (name, r) = r.split_at(end);
            rest = r;
            let (es, _) = entries(text, at).ok()?;
            at = es
                .iter()
                .find(|e| e.key == name || e.string_key() == Some(name))?
                .value_at;
        }
    }
    Some(at)
}

/// The text of the value at `path` in a RON value's text (`offset_of_path`), up to the end of
/// that value.
pub fn value_at<'t>(text: &'t str, path: &str) -> Option<&'t str> {
    let start = offset_of_path(text, path)?;
    Some(text[start..end_of_value(text, start)].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path of a place in a level's chapter fields: fields, keys and list indexes.
    #[test]
    fn path_at_names_fields_keys_and_indexes() {
        let t = "(places: [(id: \"a\", slots: [1]), (id: \"b\", slots: [x])], decks: {\"d\": []})";
        assert_eq!(path_at(t, t.find('x').unwrap()), "places[1].slots[0]");
        assert_eq!(path_at(t, t.find("\"b\"").unwrap()), "places[1].id");
        assert_eq!(path_at(t, t.find("[]").unwrap()), "decks.d");
        assert_eq!(path_at(t, 0), "");
    }

    /// A path finds its value back: by field, list index, entry id and map key.
    #[test]
    fn offset_of_path_finds_fields_indexes_ids_and_keys() {
        let t = "(places: [(id: \"a\", at: (1, 2)), // b's\n (id: \"b\", at: Some((3, 4)))], decks: {\"d\": [7]})";
        let at = |p: &str| offset_of_path(t, p).map(|i| &t[i..i + 6]);
        assert_eq!(at("places[1].at"), Some("Some(("));
        assert_eq!(at("places[b].at"), Some("Some(("));
        assert_eq!(at("places[a].at"), Some("(1, 2)"));
        assert_eq!(offset_of_path(t, "decks[d][0]"), t.find('7'));
        assert_eq!(value_at(t, "places[b].at"), Some("Some((3, 4))"));
        assert_eq!(value_at(t, "decks"), Some("{\"d\": [7]}"));
        let keyed =
            "(sheets:{Seat(0):(won:1,hand:[\"a\",\"b\"]),Chaos:(won:2,hand:[])},seats:{1:(f:3)})";
        assert_eq!(value_at(keyed, "seats[1].f"), Some("3"));
        assert_eq!(
            value_at(keyed, "sheets[Seat(0)].hand"),
            Some("[\"a\",\"b\"]")
        );
        assert_eq!(value_at(keyed, "sheets[Chaos].won"), Some("2"));
        assert_eq!(offset_of_path(t, "places[c]"), None);
        assert_eq!(offset_of_path(t, "nothing"), None);
        for p in ["places", "places[0].id", "decks.d"] {
            let i = offset_of_path(t, p).expect(p);
            assert_eq!(
                path_at(t, i + 1).split('[').next(),
                p.split('[').next(),
                "{p}"
            );
        }
    }

    #[test]
    fn splits_nested_entries_with_strings_and_comments() {
        let t = r#"( // a comment: with, commas
            a: 1,
            b: (x: "a, b)", y: [1, 2]), /* c: 3, */
            "k": Some('('),
        )"#;
        let (e, end) = entries(t, 0).expect("parses");
        assert_eq!(end, t.len());
        let keys: Vec<&str> = e.iter().map(|e| e.key).collect();
        assert_eq!(keys, ["a", "b", "\"k\""]);
        assert_eq!(e[1].value, r#"(x: "a, b)", y: [1, 2])"#);
        assert_eq!(e[2].string_key(), Some("k"));
        assert_eq!(line_col(t, e[1].key_at), (3, 13));
    }

    /// The line index places offsets as the count from the start does, characters counted
    /// (not bytes), at the start, the end and past it.
    #[test]
    fn lines_place_offsets_as_line_col_does() {
        let t = "(a: 1,\n  b: \"é\", c: 2)\n\n// x\n";
        let lines = Lines::new(t);
        for at in (0..=t.len() + 3).filter(|i| *i > t.len() || t.is_char_boundary(*i)) {
            assert_eq!(lines.line_col(at), line_col(t, at), "{at}");
        }
        assert_eq!(lines.line_col(t.find('c').unwrap_or(0)), (2, 11));
        assert_eq!(Lines::new("").line_col(0), (1, 1));
    }

    /// A list's elements are found with their offsets, comments and nested brackets skipped.
    #[test]
    fn elements_give_each_entrys_offset() {
        let t = "[\"a\", // \"x\",\n (1, [2, 3]), \"c\",]";
        let at = elements(t, 0).unwrap_or_default();
        let found: Vec<&str> = at.iter().map(|i| &t[*i..*i + 3]).collect();
        assert_eq!(found, ["\"a\"", "(1,", "\"c\""]);
        assert_eq!(elements("[1, 2", 0), None);
    }

    #[test]
    fn refuses_unclosed_and_keyless() {
        assert!(entries("(a: 1", 0).is_err());
        assert!(entries("(a 1)", 0).is_err());
        assert!(entries("(a: (1])", 0).is_err());
        assert!(entries("[1]", 0).is_err());
        assert_eq!(entries("( )", 0).map(|(e, _)| e.len()), Ok(0));
    }
}
