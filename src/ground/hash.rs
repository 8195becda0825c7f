//! FNV-1a 64: the one stable hash of the game (std's hasher may change between releases).
//! Content hashes, save checksums and the state hash of replays are all FNV-1a, so a file or
//! a game hashes the same on every machine and every build.

/// The FNV-1a 64 offset basis.
const FNV_OFFSET: u64 = 0xcbf29ce484222325;
/// The FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x100000001b3;

/// FNV-1a 64 over bytes.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv::default();
    h.bytes(bytes);
    h.0
}

/// FNV-1a as a streaming sink: `fmt::Write`, so a serialiser can write RON straight into the
/// hash without building the text (megabytes on the stress level, once per cycle).
#[derive(Debug, Clone, Copy)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(FNV_OFFSET)
    }
}

impl Fnv {
    /// Hashes more bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }
}

impl std::fmt::Write for Fnv {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.bytes(text.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // From the FNV reference (isthe.com/chongo/tech/comp/fnv): "" and "a".
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        let mut h = Fnv::default();
        std::fmt::Write::write_str(&mut h, "a").unwrap();
        assert_eq!(h.0, fnv1a(b"a"));
    }
}
