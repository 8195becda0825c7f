"""Small deterministic synthesis toolkit for the Chaos Outpost sound generator.

Everything here is plain numpy/scipy. Every random choice comes from a generator seeded
from a fixed string (see `rng`), so the same inputs and library versions give the same
samples, bit for bit.
"""
import functools
import zlib

import numpy as np
from scipy import signal

SR = 44100
TWO_PI = 2.0 * np.pi


# --------------------------------------------------------------------------- basics

def rng(name):
    """A random generator seeded from a name (stable across runs and machines)."""
    return np.random.default_rng(zlib.crc32(name.encode("utf-8")))


def nsamp(seconds):
    return int(round(seconds * SR))


def t_axis(seconds):
    return np.arange(nsamp(seconds)) / SR


_NOTE = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


def midi(name):
    """'C4' -> 60, 'F#3' -> 54, 'Bb2' -> 46."""
    if isinstance(name, (int, float)):
        return name
    letter, rest = name[0], name[1:]
    acc = 0
    while rest and rest[0] in "#b":
        acc += 1 if rest[0] == "#" else -1
        rest = rest[1:]
    return 12 * (int(rest) + 1) + _NOTE[letter] + acc


def hz(note):
    if isinstance(note, float) and note > 127:
        return note
    return 440.0 * 2.0 ** ((midi(note) - 69) / 12.0)


def fade(x, fin=0.002, fout=0.02):
    """Raised-cosine fade in/out so that a sound starts and ends at exactly zero."""
    x = np.array(x, dtype=np.float64, copy=True)
    n = x.shape[-1]
    a = min(nsamp(fin), n // 2)
    b = min(nsamp(fout), n // 2)
    if a > 0:
        x[..., :a] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(a) / a)
    if b > 0:
        x[..., n - b:] *= 0.5 + 0.5 * np.cos(np.pi * (np.arange(b) + 1) / b)
    return x


def normalize(x, peak=1.0):
    m = np.max(np.abs(x))
    return x * (peak / m) if m > 0 else x


def db(v):
    return 10.0 ** (v / 20.0)


def pad_to(x, n):
    if x.shape[-1] >= n:
        return x[..., :n]
    out = np.zeros(x.shape[:-1] + (n,))
    out[..., : x.shape[-1]] = x
    return out


def place(buf, t, x, gain=1.0):
    """Add mono `x` into mono `buf` at time t (seconds), clipped at the end."""
    i = nsamp(t)
    if i >= len(buf):
        return
    m = min(len(x), len(buf) - i)
    buf[i:i + m] += gain * x[:m]


# --------------------------------------------------------------------------- filters

def butter(x, kind, freq, order=2):
    sos = signal.butter(order, freq, btype=kind, fs=SR, output="sos")
    return signal.sosfilt(sos, x, axis=-1)


def svf(x, fc, q=0.707, mode="bp"):
    """Zero-delay-feedback state-variable filter with a per-sample cutoff (array or scalar)."""
    x = np.asarray(x, dtype=np.float64)
    fc = np.broadcast_to(np.asarray(fc, dtype=np.float64), x.shape)
    g = np.tan(np.pi * np.clip(fc, 10.0, 0.45 * SR) / SR)
    k = 1.0 / q
    a1 = 1.0 / (1.0 + g * (g + k))
    a2 = g * a1
    a3 = g * a2
    ic1 = ic2 = 0.0
    out = np.empty_like(x)
    # a plain loop: only used on short effects
    xs, a1s, a2s, a3s = x.tolist(), a1.tolist(), a2.tolist(), a3.tolist()
    lo = mode == "lp"
    bp = mode == "bp"
    for n in range(len(xs)):
        v3 = xs[n] - ic2
        v1 = a1s[n] * ic1 + a2s[n] * v3
        v2 = ic2 + a2s[n] * ic1 + a3s[n] * v3
        ic1 = 2.0 * v1 - ic1
        ic2 = 2.0 * v2 - ic2
        if lo:
            out[n] = v2
        elif bp:
            out[n] = v1
        else:
            out[n] = xs[n] - k * v1 - v2
    return out


def fft_highpass_circular(x, cutoff, slope_hz=None):
    """High-pass by a smooth spectral mask on the whole (periodic) signal: keeps loops seamless."""
    n = x.shape[-1]
    X = np.fft.rfft(x, axis=-1)
    f = np.fft.rfftfreq(n, 1.0 / SR)
    slope = slope_hz or cutoff * 0.5
    mask = 1.0 / (1.0 + np.exp(-(f - cutoff) / (slope / 4.0)))
    return np.fft.irfft(X * mask, n=n, axis=-1)


# --------------------------------------------------------------------------- oscillators

@functools.lru_cache(maxsize=None)
def _table(amps, size=4096):
    ph = np.arange(size) / size
    tab = np.zeros(size)
    for k, a in enumerate(amps, start=1):
        if a:
            tab += a * np.sin(TWO_PI * k * ph)
    return np.append(tab, tab[0])  # guard point for interpolation


def saw_amps(nharm, bright=100.0):
    return tuple((1.0 / k) * np.exp(-(k - 1) / bright) for k in range(1, nharm + 1))


def square_amps(nharm, bright=100.0):
    return tuple(((1.0 / k) if k % 2 else 0.0) * np.exp(-(k - 1) / bright) for k in range(1, nharm + 1))


def nharm_for(fmax, limit=40, ceiling=9000.0):
    return int(max(1, min(limit, ceiling // max(fmax, 1.0))))


def wavetable(freq, n, amps, phase0=0.0):
    """Band-limited oscillator: freq is a scalar or a per-sample array (Hz)."""
    tab = _table(tuple(float(a) for a in amps))
    size = len(tab) - 1
    if np.ndim(freq) == 0:
        ph = phase0 + freq * np.arange(n) / SR
    else:
        ph = phase0 + np.concatenate(([0.0], np.cumsum(freq[:-1]))) / SR
    ph = (ph % 1.0) * size
    i = ph.astype(np.int64)
    frac = ph - i
    return tab[i] * (1.0 - frac) + tab[i + 1] * frac


def sine(freq, n, phase0=0.0):
    if np.ndim(freq) == 0:
        return np.sin(TWO_PI * freq * np.arange(n) / SR + phase0)
    return np.sin(TWO_PI * np.concatenate(([0.0], np.cumsum(freq[:-1]))) / SR + phase0)


def adsr(n, attack, release_start, release, curve=1.0):
    """Smooth attack to 1, hold, then release from `release_start` seconds over `release` s."""
    t = np.arange(n) / SR
    a = np.clip(t / max(attack, 1e-4), 0.0, 1.0)
    a = 0.5 - 0.5 * np.cos(np.pi * a)
    r = np.clip((t - release_start) / max(release, 1e-4), 0.0, 1.0)
    r = (0.5 + 0.5 * np.cos(np.pi * r)) ** curve
    return a * r


# --------------------------------------------------------------------------- instruments
# Each returns a mono float64 array peaking near 1.0; callers scale by velocity.

@functools.lru_cache(maxsize=None)
def pluck(note, dur=2.5, bright=1.0, ring=1.0):
    """Plucked string (harp / lute): additive partials with pluck-position spectrum and
    faster decay for higher partials, slight stiffness inharmonicity."""
    f = hz(note)
    t = t_axis(dur)
    r = rng(f"pluck{note}{dur}{bright}{ring}")
    out = np.zeros_like(t)
    tau1 = 1.5 * (220.0 / f) ** 0.45 * ring
    p = 0.21
    for k in range(1, 41):
        fk = k * f * np.sqrt(1.0 + 0.00006 * k * k)
        if fk > 0.42 * SR:
            break
        a = abs(np.sin(np.pi * k * p)) / k ** 1.05 * np.exp(-(k - 1) / (6.0 * bright))
        tau = tau1 / (1.0 + 0.45 * (k - 1) ** 1.1)
        out += a * np.exp(-t / tau) * np.sin(TWO_PI * fk * t + r.uniform(0, TWO_PI))
    out *= 1.0 - np.exp(-t / 0.0012)
    tick = butter(r.standard_normal(len(t)) * np.exp(-t / 0.003), "bandpass", (800, 5000))
    out += 0.04 * bright * tick / (np.max(np.abs(tick)) + 1e-9)
    return fade(normalize(out), 0.0005, 0.08)


BELL_GLOCK = ((1.0, 1.0, 1.6), (2.756, 0.28, 0.55), (5.404, 0.12, 0.22), (8.933, 0.05, 0.1))
BELL_CELESTA = ((1.0, 1.0, 1.4), (2.0, 0.35, 0.7), (3.0, 0.12, 0.35), (4.16, 0.08, 0.2), (6.0, 0.03, 0.1))
BELL_CHURCH = ((0.5, 0.45, 3.5), (1.0, 1.0, 2.6), (1.2, 0.55, 2.0), (1.5, 0.35, 1.5), (2.0, 0.45, 1.3),
               (2.51, 0.22, 0.9), (2.66, 0.18, 0.8), (3.01, 0.15, 0.6), (4.16, 0.10, 0.4), (5.43, 0.06, 0.3))


@functools.lru_cache(maxsize=None)
def bell(note, dur=3.0, kind="glock", decay=1.0, detune_hz=0.7):
    partials = {"glock": BELL_GLOCK, "celesta": BELL_CELESTA, "church": BELL_CHURCH}[kind]
    f = hz(note)
    t = t_axis(dur)
    r = rng(f"bell{note}{dur}{kind}{decay}")
    out = np.zeros_like(t)
    for ratio, amp, tau in partials:
        fk = f * ratio
        if fk > 0.42 * SR:
            continue
        # each partial is a slightly split pair -> gentle beating, like a real bell
        for d in (-detune_hz / 2, detune_hz / 2):
            out += 0.5 * amp * np.exp(-t / (tau * decay)) * np.sin(TWO_PI * (fk + d) * t + r.uniform(0, TWO_PI))
    out *= 1.0 - np.exp(-t / 0.0008)
    strike = butter(r.standard_normal(len(t)) * np.exp(-t / 0.002), "highpass", 2000)
    out += 0.05 * strike / (np.max(np.abs(strike)) + 1e-9)
    return fade(normalize(out), 0.0003, 0.1)


@functools.lru_cache(maxsize=None)
def pad_voice(note, dur, attack=0.8, release=1.5, bright=4.0, detune_cents=7.0, seed="pad"):
    """Warm detuned-saw pad note, stereo (2, n): three voices spread left/centre/right."""
    f = hz(note)
    n = nsamp(dur + release)
    r = rng(f"{seed}{note}{dur}{attack}{release}{bright}")
    env = adsr(n, attack, dur, release)
    amps = saw_amps(nharm_for(f * 1.02, limit=24, ceiling=6000.0), bright)
    out = np.zeros((2, n))
    tt = np.arange(n) / SR
    for cents, pan in ((-detune_cents, -0.7), (0.0, 0.0), (detune_cents, 0.7)):
        fv = f * 2.0 ** (cents / 1200.0)
        drift = 1.0 + 0.0009 * np.sin(TWO_PI * r.uniform(0.1, 0.3) * tt + r.uniform(0, TWO_PI))
        v = wavetable(fv * drift, n, amps, r.uniform(0, 1))
        v *= 1.0 + 0.12 * np.sin(TWO_PI * r.uniform(0.15, 0.4) * tt + r.uniform(0, TWO_PI))
        ang = (pan + 1.0) * np.pi / 4.0
        out[0] += np.cos(ang) * v
        out[1] += np.sin(ang) * v
    out *= env
    return out / 3.0


@functools.lru_cache(maxsize=None)
def flute(note, dur, vib=0.005, breath=0.06, release=0.18):
    f = hz(note)
    n = nsamp(dur + release)
    tt = np.arange(n) / SR
    r = rng(f"flute{note}{dur}")
    vib_env = np.clip((tt - 0.25) / 0.4, 0.0, 1.0)
    fr = f * (1.0 + vib * vib_env * np.sin(TWO_PI * 5.2 * tt + r.uniform(0, TWO_PI)))
    # tiny upward scoop on the attack
    fr *= 1.0 - 0.012 * np.exp(-tt / 0.04)
    tone = wavetable(fr, n, (1.0, 0.22, 0.09, 0.04, 0.015))
    env = adsr(n, 0.07, dur, release)
    env *= 1.0 + 0.06 * vib_env * np.sin(TWO_PI * 5.2 * tt)
    noise = butter(r.standard_normal(n), "bandpass", (min(f * 1.5, 9000), min(f * 4.0, 15000)))
    noise /= np.max(np.abs(noise)) + 1e-9
    chiff = np.exp(-tt / 0.03)
    out = tone * env + breath * noise * (0.4 * env + 1.5 * chiff * env)
    return fade(out, 0.001, 0.02)


@functools.lru_cache(maxsize=None)
def bowed(note, dur, attack=0.25, release=0.5, bright=5.0, vib=0.004, tremolo_hz=0.0, seed="bow"):
    """Bowed string / low horn: saw wavetable, dark-to-bright swell, delayed vibrato."""
    f = hz(note)
    n = nsamp(dur + release)
    tt = np.arange(n) / SR
    r = rng(f"{seed}{note}{dur}{attack}{tremolo_hz}")
    vib_env = np.clip((tt - 0.3) / 0.5, 0.0, 1.0)
    fr = f * (1.0 + vib * vib_env * np.sin(TWO_PI * 5.0 * tt + r.uniform(0, TWO_PI)))
    nh = nharm_for(f * 1.01, limit=30, ceiling=7000.0)
    dark = wavetable(fr, n, saw_amps(nh, bright * 0.35), r.uniform(0, 1))
    light = wavetable(fr, n, saw_amps(nh, bright), r.uniform(0, 1))
    env = adsr(n, attack, dur, release)
    mix = np.clip(env * 0.8, 0.0, 1.0)
    out = dark * (1.0 - mix) + light * mix
    if tremolo_hz:
        out *= 0.6 + 0.4 * (0.5 + 0.5 * np.cos(TWO_PI * tremolo_hz * tt))
    return fade(out * env, 0.001, 0.02)


@functools.lru_cache(maxsize=None)
def brass(note, dur, release=0.35, bright=7.0):
    f = hz(note)
    n = nsamp(dur + release)
    tt = np.arange(n) / SR
    r = rng(f"brass{note}{dur}")
    fr = f * (1.0 - 0.02 * np.exp(-tt / 0.03)) * (1.0 + 0.003 * np.clip((tt - 0.3) / 0.3, 0, 1) * np.sin(TWO_PI * 5.5 * tt))
    nh = nharm_for(f, limit=30, ceiling=8000.0)
    dark = wavetable(fr, n, saw_amps(nh, 1.2), r.uniform(0, 1))
    light = wavetable(fr, n, saw_amps(nh, bright), r.uniform(0, 1))
    env = adsr(n, 0.035, dur, release)
    blare = np.clip(np.exp(-tt / 0.25) * 0.7 + 0.45, 0.0, 1.0) * env
    out = dark * (1.0 - blare) + light * blare
    return fade(out * env, 0.001, 0.02)


@functools.lru_cache(maxsize=None)
def drum(f0, dur=0.9, decay=0.35, drop=1.2, noise=0.35, seed="drum", snap=0.02):
    """Hand/taiko/frame drum: pitch-dropping membrane + second mode + noise slap."""
    t = t_axis(dur)
    r = rng(f"{seed}{f0}{dur}{decay}")
    fr = f0 * (1.0 + drop * np.exp(-t / 0.035))
    body = sine(fr, len(t)) * np.exp(-t / decay)
    body += 0.35 * sine(fr * 1.593, len(t), 1.0) * np.exp(-t / (decay * 0.45))
    body += 0.15 * sine(fr * 2.135, len(t), 2.0) * np.exp(-t / (decay * 0.3))
    slap = butter(r.standard_normal(len(t)), "bandpass", (300, 4000)) * np.exp(-t / snap)
    slap /= np.max(np.abs(slap)) + 1e-9
    out = body + noise * slap
    out *= 1.0 - np.exp(-t / 0.0007)
    return fade(normalize(out), 0.0003, 0.05)


@functools.lru_cache(maxsize=None)
def shaker(dur=0.12, decay=0.035, seed="shaker", lo=5000.0):
    t = t_axis(dur)
    r = rng(f"{seed}{dur}{decay}{lo}")
    x = butter(r.standard_normal(len(t)), "bandpass", (lo, min(lo * 2.4, 16000)), order=3)
    env = (1.0 - np.exp(-t / 0.008)) * np.exp(-t / decay)
    return fade(normalize(x * env), 0.0005, 0.01)


# --------------------------------------------------------------------------- reverb

@functools.lru_cache(maxsize=None)
def room_ir(seconds=2.8, t60=(3.0, 2.2, 1.1), predelay=0.025, seed="hall", stereo=True):
    """Synthetic hall impulse response: per-band exponentially decaying noise + early taps.
    Returns (channels, n), each channel at unit energy."""
    n = nsamp(seconds)
    t = np.arange(n) / SR
    r = rng(seed)
    chans = []
    for _ in range(2 if stereo else 1):
        noise = r.standard_normal(n)
        low = butter(noise, "lowpass", 350)
        high = butter(noise, "highpass", 3500)
        mid = noise - low - high
        ir = sum(b * np.exp(-6.91 * t / tt) for b, tt in zip((low, mid, high), t60))
        ir *= 1.0 - np.exp(-t / 0.012)
        for _ in range(8):  # early reflections
            i = int(r.uniform(0.004, 0.06) * SR)
            ir[i] += r.uniform(-1, 1) * 2.0
        ir = np.concatenate((np.zeros(nsamp(predelay)), ir))
        chans.append(ir / np.sqrt(np.sum(ir * ir)))
    return np.array(chans)


def reverb_circular(x, ir, wet=0.3, send_highpass=180.0):
    """Reverb on a periodic (looping) stereo signal: circular convolution, so the tail
    at the end of the loop rings into its start exactly as it would when played on repeat."""
    n = x.shape[-1]
    assert ir.shape[-1] < n
    X = np.fft.rfft(x, axis=-1)
    f = np.fft.rfftfreq(n, 1.0 / SR)
    send = 1.0 / (1.0 + (send_highpass / np.maximum(f, 1e-3)) ** 2)
    H = np.fft.rfft(ir, n=n, axis=-1)
    return x + wet * np.fft.irfft(X * send * H, n=n, axis=-1)


def reverb_linear(x, ir, wet=0.25, tail=None):
    """Reverb for a one-shot mono sound (mono IR channel 0); the result is longer by the tail."""
    y = signal.fftconvolve(x, ir[0])
    out = pad_to(x, len(y)) + wet * y
    if tail is not None:
        out = out[: len(x) + nsamp(tail)]
    return out


# --------------------------------------------------------------------------- loop buffer

class Loop:
    """A stereo buffer of exactly one loop; anything running past the end wraps to the start."""

    def __init__(self, seconds):
        self.n = nsamp(seconds)
        self.seconds = self.n / SR
        self.buf = np.zeros((2, self.n))

    def add(self, t, x, gain=1.0, pan=0.0):
        x = np.asarray(x)
        if x.ndim == 1:
            ang = (pan + 1.0) * np.pi / 4.0
            x = np.array([np.cos(ang) * x, np.sin(ang) * x])
        elif pan:
            x = np.array([x[0] * min(1.0, 1.0 - pan), x[1] * min(1.0, 1.0 + pan)])
        start = nsamp(t) % self.n
        pos = 0
        length = x.shape[-1]
        while pos < length:
            i = (start + pos) % self.n
            m = min(length - pos, self.n - i)
            self.buf[:, i:i + m] += gain * x[:, pos:pos + m]
            pos += m

    def periodic_freq(self, f):
        """Nearest frequency that completes a whole number of cycles per loop."""
        return max(1, round(f * self.seconds)) / self.seconds
