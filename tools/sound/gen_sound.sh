#!/usr/bin/env bash
# Regenerate every Chaos Outpost sound from scratch:
#   music/{menu,game_calm,game_tense}.ogg  (seamless stereo loops)
#   sfx/*.ogg                              (mono one-shots, about -3 dBFS peak)
# into assets/audio/. Synthesis is numpy/scipy (tools/sound/*.py), encoding is oggenc -q 3.
# Deterministic: every random choice is seeded and each Ogg stream gets a fixed serial number,
# so the same tool versions give byte-identical files.
#
#   tools/sound/gen_sound.sh            # everything, then tools/sound/check_sound.sh
#   tools/sound/gen_sound.sh dice menu  # only these (by name), no clean-out
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="$root/assets/audio"
quality=3

# Debian packages, installed only when absent. Debian's own python3 is used on purpose
# (/usr/bin/python3 with python3-numpy / python3-scipy), not whatever python3 is on PATH.
need=(sox libsox-fmt-all vorbis-tools python3 python3-numpy python3-scipy)
missing=()
for p in "${need[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ left in the source tree

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if (($# == 0)); then
  rm -f "$dest"/music/*.ogg "$dest"/sfx/*.ogg
fi
"$py" "$here/gen_sound.py" "$work" "$@"

mkdir -p "$dest/music" "$dest/sfx"
for wav in "$work"/music/*.wav "$work"/sfx/*.wav; do
  [ -e "$wav" ] || continue
  rel="${wav#"$work"/}"
  rel="${rel%.wav}"
  # a fixed, name-derived Ogg serial number instead of a random one
  serial=$(( $(printf '%s' "$rel" | cksum | cut -d' ' -f1) % 2147483647 ))
  oggenc -Q -q "$quality" --serial "$serial" -o "$dest/$rel.ogg" "$wav"
done

if (($# == 0)); then
  "$here/check_sound.sh"
fi
