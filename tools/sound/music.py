"""The three music loops. Each is built into a `Loop` (one period, tails wrapped to the start),
then reverberated with circular convolution, so the file joins end-to-start seamlessly.

game_calm and game_tense share tempo, key, bar grid, chord progression and length, so the
game can crossfade between them at any point.
"""
import numpy as np

from synth import (Loop, SR, TWO_PI, bell, bowed, drum, fft_highpass_circular, flute, hz, pad_voice,
                   pluck, reverb_circular, rng, room_ir, saw_amps, shaker, wavetable, db)


def master(loop, ir, wet, peak_db=-1.5, drive=1.4):
    x = reverb_circular(loop.buf, ir, wet=wet)
    x = fft_highpass_circular(x, 32.0)
    x /= np.max(np.abs(x))
    x = np.tanh(drive * x) / np.tanh(drive)  # gentle memoryless soft-knee; loop-safe
    return x * db(peak_db)


def humanize(r, t, v, dt=0.006, dv=0.12):
    return t + r.uniform(-dt, dt), v * (1.0 + r.uniform(-dv, dv))


# ============================================================================ menu
# G major, 72 BPM, 12 bars of 4/4 = 40.0 s. Calm and inviting: harp arpeggios, warm pad,
# a flute melody and glockenspiel answers.

MENU_CHORDS = {
    #        bass    pad voicing               arpeggio tones (low -> high)
    "G": ("G2", ("G3", "D4", "B4"), ("G3", "D4", "G4", "B4", "D5")),
    "Em": ("E2", ("E3", "B3", "G4"), ("E3", "B3", "E4", "G4", "B4")),
    "C": ("C3", ("C3", "G3", "E4"), ("C4", "G4", "C5", "E5", "G5")),
    "D": ("D2", ("D3", "A3", "F#4"), ("D4", "A4", "D5", "F#5", "A5")),
}
MENU_PROG = ["G", "Em", "C", "D", "G", "Em", "C", "D", "C", "D", "Em", "D"]
# (bar, beat, beats, note)
MENU_MELODY = [
    (4, 0, 1.5, "D5"), (4, 1.5, 0.5, "B4"), (4, 2, 1, "G4"), (4, 3, 1, "A4"),
    (5, 0, 2, "B4"), (5, 2, 1, "G4"), (5, 3, 1, "E4"),
    (6, 0, 1.5, "C5"), (6, 1.5, 0.5, "D5"), (6, 2, 1, "E5"), (6, 3, 1, "D5"),
    (7, 0, 3, "A4"), (7, 3, 1, "F#4"),
    (8, 0, 1, "G4"), (8, 1, 1, "C5"), (8, 2, 1.5, "E5"), (8, 3.5, 0.5, "D5"),
    (9, 0, 1, "D5"), (9, 1, 1, "F#5"), (9, 2, 1.5, "A5"), (9, 3.5, 0.5, "G5"),
    (10, 0, 1.5, "G5"), (10, 1.5, 0.5, "F#5"), (10, 2, 1, "E5"), (10, 3, 1, "B4"),
    (11, 0, 1.5, "A4"), (11, 1.5, 0.5, "B4"), (11, 2, 1, "A4"), (11, 3, 1, "F#4"),
]
MENU_BELLS = [
    (0, 0, "D6"), (0, 1.5, "B5"), (0, 2, "G5"),
    (1, 2, "B5"), (1, 3, "E6"),
    (2, 0, "E6"), (2, 1, "G6"), (2, 2, "C6"),
    (3, 2, "A5"), (3, 3, "F#5"),
    (8, 2, "E6"), (9, 2, "A6"), (10, 0, "G6"), (10, 2, "E6"), (11, 2, "A5"),
]


def menu():
    bpm = 72.0
    beat = 60.0 / bpm
    bar = 4 * beat
    L = Loop(len(MENU_PROG) * bar)
    r = rng("menu")
    for b, name in enumerate(MENU_PROG):
        bass, voicing, arp = MENU_CHORDS[name]
        t0 = b * bar
        for note in voicing:
            L.add(t0, pad_voice(note, bar, attack=1.2, release=1.8, bright=3.0, seed="menupad"), gain=0.16)
        L.add(t0, pad_voice(bass, bar, attack=0.6, release=1.5, bright=1.2, seed="menubass"), gain=0.14)
        L.add(t0, pluck(bass, 3.5, bright=0.6, ring=1.6), gain=0.22)
        L.add(t0 + 2 * beat, pluck(bass, 2.5, bright=0.6, ring=1.4), gain=0.13)
        pattern = [0, 1, 2, 3, 4, 3, 2, 1]
        for i, idx in enumerate(pattern):
            t, v = humanize(r, t0 + i * beat / 2, 0.26 if i % 2 == 0 else 0.19)
            L.add(t, pluck(arp[idx], 2.5, bright=0.9), gain=v, pan=-0.35 + 0.7 * idx / 4)
    for bb, bt, beats, note in MENU_MELODY:
        t, v = humanize(r, bb * bar + bt * beat, 0.22, dt=0.004, dv=0.06)
        L.add(t, flute(note, beats * beat * 0.96), gain=v, pan=0.1)
    for bb, bt, note in MENU_BELLS:
        t, v = humanize(r, bb * bar + bt * beat, 0.17, dt=0.003)
        L.add(t, bell(note, 3.0, "celesta"), gain=v, pan=0.3)
    ir = room_ir(3.2, (3.4, 2.6, 1.3), seed="menuhall")
    return master(L, ir, wet=0.32)


# ============================================================================ game
# D minor, 90 BPM, 16 bars of 4/4 = 42.667 s. Same grid for calm and tense.

GAME_BPM = 90.0
GAME_CHORDS = {
    "Dm": ("D2", ("D3", "A3", "F4"), ("D3", "A3", "D4", "F4", "A4")),
    "Bb": ("Bb1", ("Bb2", "F3", "D4"), ("Bb2", "F3", "Bb3", "D4", "F4")),
    "F": ("F2", ("F3", "C4", "A4"), ("F3", "C4", "F4", "A4", "C5")),
    "C": ("C2", ("C3", "G3", "E4"), ("C3", "G3", "C4", "E4", "G4")),
    "Gm": ("G1", ("G2", "D3", "Bb3"), ("G2", "D3", "G3", "Bb3", "D4")),
    "A": ("A1", ("A2", "E3", "C#4"), ("A2", "E3", "A3", "C#4", "E4")),
}
GAME_PROG = ["Dm", "Bb", "F", "C", "Dm", "Bb", "F", "C", "Gm", "Bb", "Dm", "C", "Dm", "Bb", "Gm", "A"]
CALM_MELODY_FLUTE = [
    (4, 0, 1, "A4"), (4, 1, 1, "D5"), (4, 2, 1, "E5"), (4, 3, 1, "F5"),
    (5, 0, 2, "D5"), (5, 2, 1, "C5"), (5, 3, 1, "Bb4"),
    (6, 0, 1.5, "A4"), (6, 1.5, 0.5, "C5"), (6, 2, 2, "F5"),
    (7, 0, 1, "E5"), (7, 1, 1, "D5"), (7, 2, 1, "C5"), (7, 3, 1, "G4"),
]
CALM_MELODY_BELL = [
    (12, 0, "F5"), (12, 1.5, "E5"), (12, 2, "D5"), (12, 3, "A4"),
    (13, 0, "Bb4"), (13, 1, "D5"), (13, 2, "F5"),
    (14, 0, "G5"), (14, 1, "F5"), (14, 2, "D5"), (14, 3, "Bb4"),
    (15, 0, "C#5"), (15, 2, "E5"), (15, 3, "A4"),
]
TENSE_HORN = [
    (8, 0, 3, "G2"), (8, 3, 1, "A2"),
    (9, 0, 2, "Bb2"), (9, 2, 1, "A2"), (9, 3, 1, "G2"),
    (10, 0, 2, "F2"), (10, 2, 1, "E2"), (10, 3, 1, "D2"),
    (11, 0, 4, "E2"),
    (12, 0, 2, "D3"), (12, 2, 2, "F3"),
    (13, 0, 2, "Bb2"), (13, 2, 1, "A2"), (13, 3, 1, "Bb2"),
    (14, 0, 2, "G2"), (14, 2, 2, "Bb2"),
    (15, 0, 2, "A2"), (15, 2, 2, "C#3"),
]


def _game_pad(L, beat, bright, gain, seed):
    bar = 4 * beat
    for b, name in enumerate(GAME_PROG):
        bass, voicing, _ = GAME_CHORDS[name]
        for note in voicing:
            L.add(b * bar, pad_voice(note, bar, attack=0.9, release=1.6, bright=bright, seed=seed), gain=gain)
        L.add(b * bar, pad_voice(bass, bar, attack=0.5, release=1.2, bright=1.0, seed=seed + "b"), gain=gain * 0.6)


def game_calm():
    beat = 60.0 / GAME_BPM
    bar = 4 * beat
    L = Loop(len(GAME_PROG) * bar)
    r = rng("game_calm")
    _game_pad(L, beat, bright=3.0, gain=0.13, seed="gamepad")
    pattern = [0, 2, 1, 3, 2, 4, 3, 1]
    for b, name in enumerate(GAME_PROG):
        bass, _, arp = GAME_CHORDS[name]
        t0 = b * bar
        L.add(t0, pluck(bass, 3.0, bright=0.6, ring=1.4), gain=0.22)
        L.add(t0 + 2 * beat, pluck(bass, 2.0, bright=0.6, ring=1.2), gain=0.14)
        L.add(t0 + 3.5 * beat, pluck(arp[1], 1.5, bright=0.5, ring=0.8), gain=0.10)
        for i, idx in enumerate(pattern):
            t, v = humanize(r, t0 + i * beat / 2, 0.22 if i % 2 == 0 else 0.15)
            L.add(t, pluck(arp[idx], 2.0, bright=1.1, ring=0.9), gain=v, pan=-0.4 + 0.8 * idx / 4)
        # soft hand drum and shaker: a light walking pulse
        L.add(t0, drum(95.0, 0.8, 0.3, 0.6, 0.25, "hand"), gain=0.20, pan=-0.1)
        L.add(t0 + 2.5 * beat, drum(130.0, 0.6, 0.2, 0.5, 0.3, "hand"), gain=0.10, pan=0.1)
        for i in range(8):
            t, v = humanize(r, t0 + i * beat / 2 + beat / 4, 0.035 if i % 2 else 0.05, dt=0.004)
            L.add(t, shaker(0.1, 0.03, "calmshaker"), gain=v, pan=0.35)
    for bb, bt, beats, note in CALM_MELODY_FLUTE:
        t, v = humanize(r, bb * bar + bt * beat, 0.20, dt=0.004, dv=0.06)
        L.add(t, flute(note, beats * beat * 0.95), gain=v, pan=0.05)
    for bb, bt, note in CALM_MELODY_BELL:
        t, v = humanize(r, bb * bar + bt * beat, 0.22, dt=0.003, dv=0.06)
        L.add(t, bell(note, 2.5, "celesta"), gain=v, pan=0.15)
        L.add(t, pluck(note, 1.8, bright=0.7), gain=v * 0.35, pan=-0.15)
    ir = room_ir(2.8, (3.0, 2.2, 1.1), seed="gamehall")
    return master(L, ir, wet=0.28)


def game_tense():
    beat = 60.0 / GAME_BPM
    bar = 4 * beat
    L = Loop(len(GAME_PROG) * bar)
    r = rng("game_tense")
    n = L.n
    tt = np.arange(n) / SR
    _game_pad(L, beat, bright=1.6, gain=0.10, seed="gamepad")

    # Low drone on D and A, exactly periodic over the loop (whole cycles), with a slow
    # brightness swell every 4 bars.
    swell = 0.5 - 0.5 * np.cos(TWO_PI * 4 * tt / L.seconds)
    for note, g, pan in (("D1", 0.09, 0.0), ("D2", 0.08, -0.3), ("A2", 0.05, 0.3)):
        f = L.periodic_freq(hz(note))
        dark = wavetable(f, n, saw_amps(40, 3.0))
        light = wavetable(f * (1 + 1.0 / (f * L.seconds)), n, saw_amps(40, 12.0), 0.37)
        L.add(0, (dark * (1 - 0.6 * swell) + light * 0.6 * swell) * (0.8 + 0.2 * swell), gain=g, pan=pan)

    for b, name in enumerate(GAME_PROG):
        bass, voicing, arp = GAME_CHORDS[name]
        t0 = b * bar
        # driving low ostinato, muted plucks in eighths
        for i, idx in enumerate([0, 0, 2, 0, 1, 0, 3, 1]):
            t, v = humanize(r, t0 + i * beat / 2, 0.24 if i % 2 == 0 else 0.17, dt=0.003)
            note = arp[idx] if idx else bass
            L.add(t, pluck(note, 0.6, bright=0.9, ring=0.25), gain=v, pan=-0.2)
        # high clock-like ticking on chord tones, from the second phrase on
        if b >= 4:
            for i in range(8):
                note = arp[4 if i % 2 == 0 else 3]
                up = note[:-1] + str(int(note[-1]) + 1)
                t, v = humanize(r, t0 + i * beat / 2 + beat / 4, 0.07 if i % 2 == 0 else 0.05, dt=0.002)
                L.add(t, pluck(up, 0.5, bright=1.0, ring=0.2), gain=v, pan=0.35)
        # taiko pattern (sixteenths): big drum on 1 and 3, answers between; fill every 4th bar
        big = [0, 8]
        mid = [3, 6, 11, 14] if b % 4 != 3 else [3, 6, 10, 12, 13, 14, 15]
        for s in big:
            t, v = humanize(r, t0 + s * beat / 4, 0.55, dt=0.003, dv=0.08)
            L.add(t, drum(52.0, 1.2, 0.45, 1.5, 0.7, "taiko"), gain=v * 0.7)
        for s in mid:
            t, v = humanize(r, t0 + s * beat / 4, 0.22 + 0.1 * (s >= 12 and b % 4 == 3), dt=0.004)
            L.add(t, drum(88.0, 0.7, 0.22, 1.0, 0.5, "tom"), gain=v, pan=0.25)
        for s in range(16):
            t, v = humanize(r, t0 + s * beat / 4, 0.05 if s % 4 else 0.08, dt=0.003)
            L.add(t, shaker(0.08, 0.02, "tenseshaker", 6000.0), gain=v, pan=0.45)
        # tremolo strings on the chord, second half
        if b >= 8:
            for note in voicing:
                up = note[:-1] + str(int(note[-1]) + 1)
                L.add(t0, bowed(up, bar, 0.15, 0.4, 4.0, 0.0, GAME_BPM / 60.0 * 4, "trem"), gain=0.045,
                      pan=0.4 if note == voicing[-1] else -0.4)
        # dark bell every four bars, low church bell with a semitone rub on the turnaround
        if b % 4 == 0:
            L.add(t0, bell(bass[:-1] + "3", 5.0, "church", 1.0), gain=0.16, pan=0.1)
        if b % 4 == 3:
            L.add(t0 + 3 * beat, bell("Eb5", 2.5, "church", 0.6), gain=0.05, pan=0.5)
    for bb, bt, beats, note in TENSE_HORN:
        t, v = humanize(r, bb * bar + bt * beat, 0.26, dt=0.003, dv=0.05)
        up = note[:-1] + str(int(note[-1]) + 1)
        L.add(t, bowed(up, beats * beat * 0.97, 0.12, 0.35, 6.0, 0.005, 0.0, "horn"), gain=v * 0.8, pan=0.15)
        L.add(t, bowed(note, beats * beat * 0.97, 0.15, 0.35, 3.0, 0.004, 0.0, "horn2"), gain=v * 0.45, pan=-0.1)
    ir = room_ir(2.8, (3.0, 2.2, 1.1), seed="gamehall")
    return master(L, ir, wet=0.24, drive=1.8)


TRACKS = {"menu": menu, "game_calm": game_calm, "game_tense": game_tense}
