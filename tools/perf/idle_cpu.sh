#!/bin/sh
# The CPU a window at rest uses (docs/performance.md, "At rest"): for each level, the game is
# run twice under Xvfb with tools/perf/idle.ron (the first decision reached, then nothing
# asked), for SHORT and SHORT+20 seconds, each measured by /usr/bin/time; the difference over
# 20 s is the CPU-seconds a second of rest costs (start-up cancels out). With --busy, the same
# with `play --busy`, the window updating every frame as Bevy's games do.
#   tools/perf/idle_cpu.sh [--busy] [LEVEL...]     (default: first_light and the chapters)
set -eu
bin=${CHAOS_OUTPOST_BIN:-target/release/chaos-outpost}
[ -x "$bin" ] || bin=target/debug/chaos-outpost
extra=""
if [ "${1:-}" = "--busy" ]; then extra="--busy"; shift; fi
levels=${*:-"first_light mercenaries clans dragoness"}
short=${IDLE_SHORT:-25}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { # seconds of CPU (user + system) of one run of $2 seconds on level $1
    mkdir -p "$tmp/out"
    # time measures timeout and the game it stops (its child, reaped by it).
    CHAOS_OUTPOST_CONFIG="$tmp/settings.ron" XDG_DATA_HOME="$tmp/data" \
        xvfb-run -a -s "-screen 0 1280x720x24" \
        /usr/bin/time -f "%U %S" -o "$tmp/time" timeout "$2" \
        "$bin" play --level "$1" --seed 1 $extra --script "$here/idle.ron" --out "$tmp/out" \
        >/dev/null 2>&1 || true
    tail -n 1 "$tmp/time" | awk '{ print $1 + $2 }'
}
printf '%-14s %s\n' level "CPU-s per s at rest${extra:+ ($extra)}"
for l in $levels; do
    a=$(cpu "$l" "$short")
    b=$(cpu "$l" $((short + 20)))
    printf '%-14s %s (%s s, then %s s of CPU)\n' "$l" "$(echo "$a $b" | awk '{ printf "%.3f", ($2 - $1) / 20 }')" "$a" "$b"
done
