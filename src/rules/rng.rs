//! The one seeded RNG every roll goes through (ChaCha8), with scripted dice for tests.
//!
//! Same seed + same actions = same game: nothing else in the rules draws randomness. The state
//! (seed, stream, word position) is saved in snapshots, so reloading never rerolls.

use std::collections::VecDeque;

use bevy::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The game's RNG.
#[derive(Resource, Debug, Clone)]
pub struct GameRng {
    rng: ChaCha8Rng,
    /// Die faces to return before any random roll (tests force exact results).
    pub script: VecDeque<u8>,
}

/// The RNG's saved state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    /// The 32-byte seed.
    pub seed: [u8; 32],
    /// The stream.
    pub stream: u64,
    /// Position in the stream (128-bit as two halves, RON has no u128 everywhere).
    pub word_pos_hi: u64,
    /// Low half of the position.
    pub word_pos_lo: u64,
}

impl GameRng {
    /// A new RNG from a game seed.
    pub fn seeded(seed: u64) -> GameRng {
        GameRng {
            rng: ChaCha8Rng::seed_from_u64(seed),
            script: VecDeque::new(),
        }
    }
    /// Queues exact die results (each 1–6 for d6 rolls) for tests and scenario files.
    pub fn script(&mut self, faces: &[u8]) {
        self.script.extend(faces.iter().copied());
    }
    /// One d6.
    pub fn d6(&mut self) -> u8 {
        if let Some(f) = self.script.pop_front() {
            return f;
        }
        self.rng.random_range(1..=6u8)
    }
    /// Two d6.
    pub fn two_d6(&mut self) -> [u8; 2] {
        [self.d6(), self.d6()]
    }
    /// An index below `n` (n > 0), for choices that are not dice (spawn points, ties).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.rng.random_range(0..n)
    }
    /// Shuffles `v` (Fisher–Yates, from the last item down: each swap draws `below(i + 1)`),
    /// so that a chapter's decks are shuffled the one way replays expect.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
    /// The raw generator, for shuffles.
    pub fn inner(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }
    /// The state to save.
    pub fn state(&self) -> RngState {
        let pos = self.rng.get_word_pos();
        RngState {
            seed: self.rng.get_seed(),
            stream: self.rng.get_stream(),
            word_pos_hi: (pos >> 64) as u64,
            word_pos_lo: pos as u64,
        }
    }
    /// Restores a saved state.
    pub fn from_state(s: RngState) -> GameRng {
        let mut rng = ChaCha8Rng::from_seed(s.seed);
        rng.set_stream(s.stream);
        rng.set_word_pos(((s.word_pos_hi as u128) << 64) | s.word_pos_lo as u128);
        GameRng {
            rng,
            script: VecDeque::new(),
        }
    }
}
