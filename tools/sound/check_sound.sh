#!/usr/bin/env bash
# Check the generated audio: rate, channels, duration, peak and RMS (not silent), effects
# faded at both ends, music loops joining end-to-start without a click. Exits non-zero on a
# problem. Needs sox and Debian's python3-numpy (gen_sound.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="$(cd "$here/../.." && pwd)/assets/audio"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fails=0
for f in "$dest"/music/*.ogg "$dest"/sfx/*.ogg; do
  rel="${f#"$dest"/}"
  # decode to raw float (what the game's decoder will hand to the mixer)
  sox "$f" -t f32 -e floating-point "$work/x.raw"
  printf '%s %s %s %s %s\n' "$rel" "$(soxi -r "$f")" "$(soxi -c "$f")" "$(soxi -s "$f")" "$(stat -c %s "$f")" >"$work/meta"
  if /usr/bin/python3 - "$work/x.raw" "$work/meta" <<'PY'
import sys
import numpy as np
rel, rate, ch, frames, size = open(sys.argv[2]).read().split()
rate, ch, frames, size = int(rate), int(ch), int(frames), int(size)
x = np.fromfile(sys.argv[1], dtype=np.float32).reshape(-1, ch).astype(np.float64)
dur = len(x) / rate
peak = 20 * np.log10(np.max(np.abs(x)) + 1e-12)
rms = 20 * np.log10(np.sqrt(np.mean(x ** 2)) + 1e-12)
problems = []
if rate != 44100:
    problems.append(f"rate {rate}")
if rms < -45:
    problems.append("nearly silent")
if peak > -0.1:
    problems.append("clipping")
d = np.abs(np.diff(x, axis=0))
typical = np.percentile(d, 99.9, axis=0)
if rel.startswith("music/"):
    join = np.abs(x[0] - x[-1])  # the step the player makes when it wraps around
    extra = f"join step {np.max(join):.4f} (99.9% of steps < {np.max(typical):.4f})"
    if not (30 <= dur <= 60):
        problems.append(f"loop length {dur:.2f} s")
    if np.any(join > typical):
        problems.append("loop join click")
else:
    edge = max(np.max(np.abs(x[:8])), np.max(np.abs(x[-8:])))
    extra = f"edge {edge:.4f}"
    if ch != 1:
        problems.append("effect not mono")
    if edge > 0.01:
        problems.append("unfaded edge")
    if not (0.1 <= dur <= 3.5):
        problems.append(f"duration {dur:.2f} s")
status = "ok" if not problems else "PROBLEM: " + ", ".join(problems)
print(f"{rel:22s} {rate} Hz {ch} ch {dur:7.3f} s {size / 1024:7.1f} KiB  peak {peak:6.2f} dBFS  rms {rms:6.1f} dBFS  {extra}  {status}")
sys.exit(1 if problems else 0)
PY
  then :; else fails=$((fails + 1)); fi
done
total=$(du -cb "$dest"/music/*.ogg "$dest"/sfx/*.ogg | tail -1 | cut -f1)
echo "total: $((total / 1024)) KiB, files with a problem: $fails"
[ "$fails" -eq 0 ]
