"""The one-shot effects (mono). Each function returns a float array; gen_sound.py trims,
fades and normalises it to about -3 dBFS peak."""
import numpy as np

from synth import (SR, TWO_PI, bell, bowed, brass, butter, drum, hz, nsamp, normalize, place, reverb_linear, rng,
                   room_ir, saw_amps, sine, square_amps, svf, t_axis, wavetable)


def modal_hit(r, freqs, taus, amps, dur, click=0.3, click_band=(2000, 8000), click_tau=0.0015):
    """Struck object: a set of decaying modes plus a short noise click."""
    t = t_axis(dur)
    out = np.zeros_like(t)
    for f, tau, a in zip(freqs, taus, amps):
        out += a * np.exp(-t / tau) * np.sin(TWO_PI * f * t + r.uniform(0, TWO_PI))
    out *= 1.0 - np.exp(-t / 0.0004)
    c = butter(r.standard_normal(len(t)), "bandpass", click_band) * np.exp(-t / click_tau)
    out = normalize(out) + click * normalize(c)
    return out


def small_room():
    return room_ir(0.9, (0.7, 0.5, 0.3), 0.008, "smallroom", stereo=False)


def hall():
    return room_ir(2.2, (2.4, 1.8, 0.9), 0.02, "sfxhall", stereo=False)


def dice():
    r = rng("dice")
    out = np.zeros(nsamp(1.0))
    for die, (t, gap, amp) in enumerate([(0.0, 0.12, 1.0), (0.035, 0.095, 0.85)]):
        while t < 0.72 and amp > 0.06:
            freqs = list(r.uniform(1900, 5200, 4)) + [r.uniform(900, 1300)]
            taus = list(r.uniform(0.004, 0.014, 4)) + [0.01]
            amps = list(r.uniform(0.3, 1.0, 4)) + [0.6]
            hit = modal_hit(r, freqs, taus, amps, 0.06, click=0.5)
            # the table answers with a short low knock
            tb = t_axis(0.06)
            hit += 0.5 * np.sin(TWO_PI * r.uniform(180, 260) * tb) * np.exp(-tb / 0.012)
            place(out, t, hit, amp)
            if r.uniform() < 0.5:  # edge then face
                place(out, t + r.uniform(0.008, 0.022), hit, amp * 0.45)
            t += gap * r.uniform(0.75, 1.2)
            gap *= 0.8
            amp *= 0.78
    tr = t_axis(1.0)
    rumble = butter(r.standard_normal(len(tr)), "bandpass", (150, 900)) * np.exp(-tr / 0.25)
    out += 0.15 * normalize(rumble) * (1 - np.exp(-tr / 0.02))
    return reverb_linear(out, small_room(), 0.12, tail=0.1)


def build():
    r = rng("build")
    out = np.zeros(nsamp(1.0))
    for i, (t, amp) in enumerate([(0.0, 0.8), (0.25, 0.85), (0.5, 1.0)]):
        base = r.uniform(0.96, 1.04) * (1.0 + 0.03 * i)
        freqs = [x * base for x in (205, 470, 880, 1430, 2280)]
        taus = [0.09, 0.06, 0.04, 0.025, 0.015]
        amps = [1.0, 0.7, 0.45, 0.3, 0.2]
        hit = modal_hit(r, freqs, taus, amps, 0.35, click=0.6, click_band=(1500, 6000), click_tau=0.002)
        th = t_axis(0.35)
        hit += 0.8 * np.sin(TWO_PI * 95 * th) * np.exp(-th / 0.03)  # hammer mass thump
        hit += 0.12 * np.sin(TWO_PI * 3150 * base * th) * np.exp(-th / 0.12)  # nail ring
        place(out, t, hit, amp)
    return reverb_linear(out, small_room(), 0.18, tail=0.05)


def move():
    r = rng("move")
    out = np.zeros(nsamp(0.65))
    for i, t in enumerate([0.0, 0.17, 0.34]):
        ts = t_axis(0.12)
        grit = r.standard_normal(len(ts)) * (r.uniform(size=len(ts)) < 0.25)
        step = butter(grit, "lowpass", 1300) + 0.6 * butter(r.standard_normal(len(ts)), "bandpass", (200, 700))
        env = (1 - np.exp(-ts / 0.004)) * np.exp(-ts / 0.035)
        step = normalize(step * env) + 0.5 * np.sin(TWO_PI * 75 * ts) * np.exp(-ts / 0.025)
        place(out, t, step, 0.75 + 0.1 * i)
    tw = t_axis(0.62)
    n = len(tw)
    fc = 450 * (1 + 1.6 * np.sin(np.pi * tw / tw[-1]) ** 2)
    whoosh = svf(r.standard_normal(n), fc, 1.6, "bp")
    env = np.sin(np.pi * tw / tw[-1]) ** 2
    out[:n] += 0.45 * normalize(whoosh * env)
    return out


def hit():
    r = rng("hit")
    dur = 0.95
    t = t_axis(dur)
    base = 410.0
    ratios = (1.0, 2.32, 3.97, 5.41, 6.99, 8.78, 11.2)
    taus = (0.5, 0.38, 0.3, 0.22, 0.15, 0.1, 0.07)
    amps = (1.0, 0.8, 0.6, 0.5, 0.35, 0.25, 0.15)
    clang = np.zeros_like(t)
    for ra, tau, a in zip(ratios, taus, amps):
        for d in (-1.3, 1.3):  # split modes -> metallic beating
            clang += a * np.exp(-t / tau) * np.sin(TWO_PI * (base * ra + d * ra) * t + r.uniform(0, TWO_PI))
    clang = np.tanh(2.5 * normalize(clang)) / np.tanh(2.5)
    clang *= 1 - np.exp(-t / 0.0005)
    noise = butter(r.standard_normal(len(t)), "bandpass", (1200, 9000)) * np.exp(-t / 0.018)
    thump = sine(110 * (1 + 1.2 * np.exp(-t / 0.02)), len(t)) * np.exp(-t / 0.07)
    out = 0.8 * clang + 0.7 * normalize(noise) + 0.8 * thump
    return reverb_linear(out, small_room(), 0.2, tail=0.05)


def miss():
    r = rng("miss")
    t = t_axis(0.42)
    n = len(t)
    x = t / t[-1]
    fc = 500 + 3200 * np.exp(-((x - 0.42) / 0.22) ** 2)
    sw = svf(r.standard_normal(n), fc, 1.2, "bp")
    env = x ** 1.5 * np.exp(-((x - 0.45) / 0.25) ** 2)
    air = butter(r.standard_normal(n), "highpass", 4000) * env
    return normalize(sw * env) + 0.15 * normalize(air)


def corruption():
    r = rng("corruption")
    dur = 1.5
    t = t_axis(dur)
    n = len(t)
    x = t / dur
    f = 48 * 2 ** (0.85 * x ** 1.3)  # rising by almost an octave
    drone = np.zeros(n)
    for cents in (-18, -6, 7, 19):
        drone += wavetable(f * 2 ** (cents / 1200), n, saw_amps(60, 30), r.uniform(0, 1))
    flutter = 1 + 0.25 * np.sin(TWO_PI * (7 + 6 * x) * t) * x
    drone = svf(drone * flutter, 180 + 1600 * x ** 1.6, 2.5, "lp")
    sub = np.sin(TWO_PI * np.cumsum(f / 2) / SR) * 0.6
    hiss = svf(r.standard_normal(n), 2500 + 4000 * x, 0.8, "bp") * x ** 2
    out = normalize(drone) + 0.5 * sub + 0.35 * normalize(hiss)
    env = np.clip(x / 0.25, 0, 1) ** 1.5 * np.clip((1 - x) / 0.12, 0, 1)
    out = np.tanh(1.6 * normalize(out * env))
    return reverb_linear(out, hall(), 0.25, tail=0.0)


def turn_chaos():
    r = rng("turn_chaos")
    dur = 1.25
    t = t_axis(dur)
    n = len(t)
    x = t / dur
    f = 640 * (70 / 640) ** (x ** 0.8)  # exponential fall
    f = f * (1 + 0.03 * x * np.sin(TWO_PI * 9 * t))
    tone = wavetable(f, n, saw_amps(30, 12)) + 0.6 * wavetable(f * 1.006, n, square_amps(30, 12), 0.3)
    tone *= 0.6 + 0.4 * np.sin(TWO_PI * 37 * t)  # ring-mod roughness
    dist = np.tanh(5 * normalize(tone))
    crushed = np.repeat(dist[::3], 3)[:n]  # sample-and-hold grit
    crushed = np.round(crushed * 12) / 12
    out = svf(0.6 * dist + 0.4 * crushed, 3500 - 2200 * x, 0.9, "lp")
    env = (1 - np.exp(-t / 0.01)) * np.clip((1 - x) / 0.3, 0, 1)
    out = normalize(out * env) + 0.3 * normalize(butter(r.standard_normal(n), "lowpass", 300) * env)
    return reverb_linear(out, hall(), 0.2, tail=0.15)


def card():
    r = rng("card")
    out = np.zeros(nsamp(0.26))
    t1 = t_axis(0.05)
    flick = butter(r.standard_normal(len(t1)), "bandpass", (2500, 8000)) * (1 - np.exp(-t1 / 0.0015)) * np.exp(-t1 / 0.012)
    place(out, 0.0, normalize(flick), 1.0)
    t2 = t_axis(0.12)
    slide = svf(r.standard_normal(len(t2)), 5000 - 2500 * t2 / t2[-1], 1.0, "bp") * np.sin(np.pi * t2 / t2[-1]) ** 2
    place(out, 0.01, normalize(slide), 0.45)
    t3 = t_axis(0.04)
    snap = butter(r.standard_normal(len(t3)), "bandpass", (900, 3500)) * np.exp(-t3 / 0.006)
    place(out, 0.12, normalize(snap), 0.55)
    return out


def portal():
    r = rng("portal")
    dur = 1.5
    out = np.zeros(nsamp(dur))
    for i, note in enumerate(["D5", "A5", "D6", "F#6", "A6", "D7"]):
        b = bell(note, 1.3, "glock", 0.8)
        tb = np.arange(len(b)) / SR
        b = b * (0.75 + 0.25 * np.sin(TWO_PI * 11 * tb + i))
        place(out, 0.02 + 0.11 * i, b, 0.35 + 0.05 * i)
    t = t_axis(dur)
    x = t / dur
    shimmer = svf(r.standard_normal(len(t)), 800 * 2 ** (3 * x), 3.0, "bp")
    out += 0.25 * normalize(shimmer) * np.sin(np.pi * np.clip(x / 0.9, 0, 1)) ** 2
    sweep = sine(300 * 2 ** (1.6 * x), len(t)) + 0.5 * sine(450 * 2 ** (1.6 * x), len(t))
    out += 0.12 * sweep * np.sin(np.pi * x) ** 2
    return reverb_linear(out, hall(), 0.35, tail=0.0)


def victory():
    out = np.zeros(nsamp(3.2))
    q = 0.14
    line = [(0, "C5", q), (q, "E5", q), (2 * q, "G5", 2 * q), (4 * q, "E5", q), (5 * q, "G5", q), (6 * q, "C6", 1.7)]
    for t, note, d in line:
        place(out, t, brass(note, d * 0.92), 0.5)
        place(out, t, brass(note[:-1] + str(int(note[-1]) - 1), d * 0.92), 0.25)
    tc = 6 * q
    for note in ("C4", "E4", "G4", "C3"):
        place(out, tc, brass(note, 1.7), 0.22)
    place(out, 0.0, drum(65.0, 1.0, 0.5, 0.6, 0.3, "timp"), 0.5)
    place(out, tc, drum(65.0, 1.5, 0.7, 0.6, 0.3, "timp"), 0.8)
    for i, note in enumerate(["C6", "E6", "G6", "C7"]):
        place(out, tc + 0.25 + 0.09 * i, bell(note, 1.8, "glock"), 0.18)
    return reverb_linear(out, hall(), 0.3, tail=0.0)


def defeat():
    out = np.zeros(nsamp(3.2))
    # bVI -> i in C minor with a falling top line, then the chord sags and dies away
    for note in ("Ab2", "Ab3", "C4", "Eb4"):
        place(out, 0.0, bowed(note, 0.95, 0.12, 0.4, 3.5, 0.003, 0.0, "defeat"), 0.25)
    for t, note in ((0.0, "Eb5"), (0.45, "D5")):
        place(out, t, bowed(note, 0.45, 0.06, 0.2, 3.5, 0.003, 0.0, "defeattop"), 0.18)
    tc = 0.9
    n = nsamp(3.2 - tc)
    tt = np.arange(n) / SR
    sag = 2 ** (-0.35 * np.clip((tt - 0.8) / 1.6, 0, 1) ** 2 / 12)  # drops about a third of a semitone
    chord = np.zeros(n)
    for note, g in (("C2", 0.3), ("C3", 0.3), ("G3", 0.25), ("C4", 0.25), ("Eb4", 0.22), ("C5", 0.16)):
        f = hz(note) * sag
        chord += g * (wavetable(f, n, saw_amps(nh := max(1, int(6000 // hz(note))), 2.5))
                      + wavetable(f * 1.004, n, saw_amps(nh, 2.5), 0.4))
    env = (1 - np.exp(-tt / 0.08)) * np.exp(-tt / 1.1)
    place(out, tc, chord * env, 0.6)
    place(out, tc, drum(55.0, 2.0, 0.9, 0.3, 0.15, "defeatdrum"), 0.6)
    place(out, tc, bell("C3", 2.3, "church", 0.9), 0.25)
    return reverb_linear(out, hall(), 0.35, tail=0.0)


def click():
    r = rng("click")
    t = t_axis(0.1)
    x = np.sin(TWO_PI * 2300 * t) * np.exp(-t / 0.004) + 0.5 * np.sin(TWO_PI * 4700 * t) * np.exp(-t / 0.002)
    x += 0.3 * butter(r.standard_normal(len(t)), "highpass", 3000) * np.exp(-t / 0.0008)
    x += 0.4 * np.sin(TWO_PI * 900 * t) * np.exp(-t / 0.008)
    return x * (1 - np.exp(-t / 0.0002))


def research():
    out = np.zeros(nsamp(1.5))
    for i, note in enumerate(["A5", "C#6", "E6"]):
        place(out, 0.09 * i, bell(note, 1.2, "celesta", 0.8), 0.45)
    place(out, 0.3, bell("A6", 1.2, "glock"), 0.6)
    place(out, 0.3, bell("E7", 1.0, "glock", 0.8), 0.2)
    place(out, 0.3, bell("A4", 1.2, "celesta"), 0.3)
    return reverb_linear(out, hall(), 0.3, tail=0.0)


def famine():
    r = rng("famine")
    t = t_axis(0.9)
    n = len(t)
    thud = sine(62 * (1 + 0.8 * np.exp(-t / 0.04)), n) * np.exp(-t / 0.22)
    knock = butter(r.standard_normal(n), "lowpass", 1500) * np.exp(-t / 0.006)
    hollow = svf(normalize(knock), 175.0, 9.0, "bp") + 0.6 * svf(normalize(knock), 305.0, 7.0, "bp")
    out = normalize(thud) + 0.7 * normalize(hollow) + 0.15 * normalize(knock)
    out *= 1 - np.exp(-t / 0.001)
    return reverb_linear(out, small_room(), 0.25, tail=0.0)


def error():
    out = np.zeros(nsamp(0.4))
    for t, f, d in ((0.0, 196.0, 0.09), (0.13, 165.0, 0.13)):
        n = nsamp(d + 0.04)
        tt = np.arange(n) / SR
        tone = wavetable(f * (1 + 0.01 * np.sin(TWO_PI * 30 * tt)), n, square_amps(11, 2.5))
        tone = butter(tone, "lowpass", 1100)
        env = (1 - np.exp(-tt / 0.008)) * np.exp(-tt / 0.045) * np.clip((d + 0.04 - tt) / 0.04, 0, 1)
        place(out, t, tone * env, 1.0)
    return out


EFFECTS = {
    "dice": dice, "build": build, "move": move, "hit": hit, "miss": miss, "corruption": corruption,
    "turn_chaos": turn_chaos, "card": card, "portal": portal, "victory": victory, "defeat": defeat,
    "click": click, "research": research, "famine": famine, "error": error,
}
