#!/usr/bin/env python3
"""Render every Chaos Outpost sound to 16-bit 44.1 kHz WAV under OUT/music and OUT/sfx.

Called by gen_sound.sh, which encodes the WAVs to Ogg Vorbis. Deterministic: no clock,
no unseeded randomness.

    python3 gen_sound.py OUT [name ...]     # names: menu, game_calm, dice, ... (default: all)
"""
import os
import sys

import numpy as np
from scipy.io import wavfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from synth import SR, db, fade, normalize  # noqa: E402
import music  # noqa: E402
import sfx  # noqa: E402

SFX_PEAK_DB = -3.0
MIN_SFX_SAMPLES = SR // 10
LEAD_IN_SAMPLES = SR * 4 // 1000


def finish_effect(x):
    """Trim the tail once it is 60 dB down, fade both ends, normalise to -3 dBFS peak."""
    x = normalize(np.asarray(x, dtype=np.float64))
    loud = np.nonzero(np.abs(x) > db(-60))[0]
    x = x[loud[0]: loud[-1] + 1]
    tail = min(0.06, 0.25 * len(x) / SR)
    x = fade(x, 0.003, tail)
    # a few ms of silence ahead of the onset keeps the codec's pre-echo from starting the
    # file on a non-zero sample
    x = np.concatenate((np.zeros(LEAD_IN_SAMPLES), x))
    if len(x) < MIN_SFX_SAMPLES:  # very short clicks get a little trailing silence
        x = np.concatenate((x, np.zeros(MIN_SFX_SAMPLES - len(x))))
    return normalize(x, db(SFX_PEAK_DB))


def write(path, x):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    pcm = np.clip(np.round(np.asarray(x) * 32767.0), -32768, 32767).astype(np.int16)
    if pcm.ndim == 2:
        pcm = pcm.T  # (frames, channels)
    wavfile.write(path, SR, pcm)


def main():
    out = sys.argv[1]
    wanted = set(sys.argv[2:])
    for name, fn in music.TRACKS.items():
        if not wanted or name in wanted:
            x = fn()
            write(os.path.join(out, "music", name + ".wav"), x)
            print(f"music/{name}: {x.shape[-1] / SR:.3f} s", flush=True)
    for name, fn in sfx.EFFECTS.items():
        if not wanted or name in wanted:
            x = finish_effect(fn())
            write(os.path.join(out, "sfx", name + ".wav"), x)
            print(f"sfx/{name}: {len(x) / SR:.3f} s", flush=True)


if __name__ == "__main__":
    main()
