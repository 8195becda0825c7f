#!/usr/bin/env bash
# Tests the archive as a player would use it: unpacked into an empty folder outside the clone,
# with HOME an empty folder and none of cargo's variables, it must answer `--version`, pass
# `check`, find the example mod beside it, play a headless game, list the campaign, replay a
# golden replay to its hash and open its window for three frames under Xvfb with a screenshot. Every run is traced (strace): a
# file opened, read or looked up inside the clone fails the test, so the archive cannot lean on
# the source tree.
# Usage: tools/dist/check.sh ARCHIVE
set -euo pipefail
clone="$(cd "$(dirname "$0")/../.." && pwd)"
archive="$(realpath "$1")"
fail() { echo "dist check: $*" >&2; exit 1; }
command -v strace >/dev/null || fail "strace is missing (./dev installs it): the archive cannot be checked"
command -v xvfb-run >/dev/null || fail "xvfb-run is missing (./dev installs it): the window cannot be checked"
work=$(mktemp -d /tmp/chaos-outpost-dist.XXXXXX)
[ -n "${DIST_CHECK_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
case "$work" in "$clone"/*) fail "the check folder $work is inside the clone" ;; esac
mkdir -p "$work/home"
tar -C "$work" -xzf "$archive"
game=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'chaos-outpost-*')
[ -x "$game/chaos-outpost" ] || fail "no chaos-outpost binary at the archive's top folder"
cp "$clone/tests/golden/standard_seed5.rules2.replay.ron" "$work/golden.replay.ron"
n=0
# Runs the game's binary from its folder, traced, with a player's bare environment (`$wrap`
# goes before the trace: the X server is not the game).
wrap=()
run() {
  n=$((n + 1))
  local trace="$work/trace.$n" rc=0
  (cd "$game" && env -i HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 \
    "${wrap[@]}" strace -f -qq -e trace=%file -o "$trace" "$@") >"$work/out.$n" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    tail -20 "$work/out.$n" >&2
    fail "\`$*\` exited $rc"
  fi
  if grep -qF "\"$clone/" "$trace"; then
    grep -F "\"$clone/" "$trace" | head -5 >&2
    fail "\`$*\` touched the source tree ($clone)"
  fi
}
run ./chaos-outpost --version
grep -q '^chaos-outpost ' "$work/out.$n" || fail "--version printed: $(cat "$work/out.$n")"
run ./chaos-outpost check
run ./chaos-outpost mods
grep -q 'highland_guard' "$work/out.$n" || fail "the example mod beside the binary was not found: $(cat "$work/out.$n")"
run ./chaos-outpost sim --level first_light --seed 1 --cycles 60
run ./chaos-outpost campaign list
grep -q 'first_light' "$work/out.$n" || fail "campaign list printed no first_light"
run ./chaos-outpost replay "$work/golden.replay.ron"
grep -q '609be24603b441cd' "$work/out.$n" || fail "the golden replay ended on $(tail -1 "$work/out.$n")"
wrap=(xvfb-run -a -s "-screen 0 1280x720x24")
run ./chaos-outpost play --frames 3 --screenshot "$work/shot.png"
[ -s "$work/shot.png" ] || fail "the window left no screenshot"
echo "dist check: $(basename "$archive") runs from $game: --version, check, mods, sim, campaign list, replay, window ($n runs, none touched the clone)"
