#!/usr/bin/env bash
# Regenerates every file under assets/art/ from scratch (tiles, overlays, icons, logo,
# CREDITS.md). Idempotent: installs only what is missing, then rewrites the outputs.
#
#   tools/art/gen_art.sh                 # regenerate assets/art
#   tools/art/gen_art.sh --sheet X.png   # ... and also write a contact sheet to X.png
#
# Needs: bash, python3 (>= 3.9, with venv), npm, and apt-get (Debian/Ubuntu) when
# rsvg-convert / optipng are missing. Installs, outside the repository:
#   * a Python venv with Pillow + numpy      in $ART_VENV   (default /tmp/chaos-outpost-art/venv)
#   * npm @iconify-json/game-icons@1.2.4     in $ART_NPM    (default /tmp/chaos-outpost-art/npm)
#   * Debian packages librsvg2-bin (rsvg-convert) and optipng
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WORK="${ART_WORK:-/tmp/chaos-outpost-art}"
VENV="${ART_VENV:-$WORK/venv}"
NPMDIR="${ART_NPM:-$WORK/npm}"
OUT="$ROOT/assets/art"
ICONSET_VERSION="1.2.4"
PY_PINS=(pillow==13.0.0 numpy==2.4.6)

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi

apt_missing=()
command -v rsvg-convert >/dev/null || apt_missing+=(librsvg2-bin)
command -v optipng >/dev/null || apt_missing+=(optipng)
if [ ${#apt_missing[@]} -gt 0 ]; then
  echo "== apt-get install ${apt_missing[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi
command -v rsvg-convert >/dev/null || { echo "rsvg-convert is required (librsvg2-bin)"; exit 1; }

mkdir -p "$WORK"
if ! "$VENV/bin/python" -c "import PIL, numpy" 2>/dev/null; then
  echo "== python venv in $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "${PY_PINS[@]}" || {
    echo "pinned versions unavailable for this Python; installing the latest (output may differ slightly)"
    "$VENV/bin/pip" install -q pillow numpy
  }
fi

ICONS_JSON="$NPMDIR/node_modules/@iconify-json/game-icons/icons.json"
if [ ! -f "$ICONS_JSON" ] || ! grep -q "\"version\": \"$ICONSET_VERSION\"" \
     "$NPMDIR/node_modules/@iconify-json/game-icons/package.json"; then
  echo "== npm @iconify-json/game-icons@$ICONSET_VERSION in $NPMDIR"
  mkdir -p "$NPMDIR"
  [ -f "$NPMDIR/package.json" ] || echo '{"name":"chaos-outpost-art","private":true}' > "$NPMDIR/package.json"
  (cd "$NPMDIR" && npm install --silent --no-audit --no-fund "@iconify-json/game-icons@$ICONSET_VERSION")
fi

echo "== generating into $OUT"
"$VENV/bin/python" "$ROOT/tools/art/gen_art.py" --out "$OUT" --icons-json "$ICONS_JSON" "$@"

if command -v optipng >/dev/null; then
  # -nc -nb: keep every PNG 8-bit RGBA (no palette / grey reduction), so the game can load
  # and tint all of them the same way.
  echo "== optipng"
  find "$OUT" -name '*.png' -print0 | xargs -0 optipng -quiet -o5 -strip all -nc -nb
fi
echo "== done: $(find "$OUT" -name '*.png' | wc -l) PNGs, $(du -sh "$OUT" | cut -f1) in $OUT"
