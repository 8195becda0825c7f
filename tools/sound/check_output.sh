#!/usr/bin/env bash
# Proves the game plays sound: routes ALSA to a file (an .asoundrc with a `file` plugin over
# `null`, in a throw-away HOME), opens the game's menu under Xvfb for a few seconds, then
# measures a slice of what was played with sox. The null device is unpaced, so the file grows
# fast: the run is short and the file is deleted afterwards.
# Usage: tools/sound/check_output.sh [path/to/chaos-outpost]   (needs xvfb-run and sox)
set -euo pipefail
bin=${1:-target/debug/chaos-outpost}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
cat > "$home/.asoundrc" <<RC
pcm.!default {
    type file
    slave.pcm "null"
    file "$home/out.raw"
    format "raw"
}
RC
HOME="$home" XDG_DATA_HOME="$home/data" timeout 20 \
    xvfb-run -a -s "-screen 0 1280x720x24" "$bin" >/dev/null 2>&1 || true
[ -s "$home/out.raw" ] || { echo "no audio written"; exit 1; }
# kira writes 32-bit float stereo at 48 kHz; skip the silent start.
dd if="$home/out.raw" of="$home/slice.raw" bs=1M skip=200 count=20 status=none
stat=$(sox -t f32 -r 48000 -c 2 "$home/slice.raw" -n stat 2>&1)
echo "$stat" | grep -E "Maximum amplitude|RMS +amplitude"
rms=$(echo "$stat" | awk '/RMS +amplitude/ {print $3}')
python3 -c "import sys; sys.exit(0 if float('$rms') > 0.01 else 1)" \
    && echo "sound: not silence (RMS $rms)" || { echo "sound: silence"; exit 1; }
