#!/usr/bin/env bash
# The three chapters' phase bars and track bars, in English and French
# (docs/screenshots/chapter_bars_en.png, chapter_bars_fr.png): each chapter's level played by
# the AI to cycle 2's main phase (tools/screens/bars.ron), then the phase bar's two rows and the
# top of the side panel (the portal, the tracks) cropped, the bars stacked over the three panels
# side by side. Needs xvfb-run and ImageMagick.
#   tools/screens/bars.sh [BINARY]     (default: the play build in the cargo target folder)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${1:-${CARGO_TARGET_DIR:-target}/debug/chaos-outpost}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
levels=(mercenaries clans dragoness)
for l in "${levels[@]}"; do
  mkdir -p "$work/$l"
  # Settings and data of its own: never the player's (their language, their hints seen).
  CHAOS_OUTPOST_CONFIG="$work/$l/settings.ron" XDG_DATA_HOME="$work/$l/data" \
    xvfb-run -a -s "-screen 0 1280x720x24" "$bin" play --level "$l" --seed 3 \
    --script tools/screens/bars.ron --out "$work/$l" >"$work/$l/log.txt" 2>&1
done
for lang in en fr; do
  bars=() panels=()
  for l in "${levels[@]}"; do
    convert "$work/$l/$lang.png" -crop 1280x46+0+0 +repage "$work/$l/bar_$lang.png"
    convert "$work/$l/$lang.png" -crop 420x250+860+46 +repage "$work/$l/panel_$lang.png"
    bars+=("$work/$l/bar_$lang.png") panels+=("$work/$l/panel_$lang.png")
  done
  convert "${panels[@]}" +append "$work/panels_$lang.png"
  convert "${bars[@]}" "$work/panels_$lang.png" -background '#1b1b1b' -append \
    "docs/screenshots/chapter_bars_$lang.png"
  echo "docs/screenshots/chapter_bars_$lang.png"
done
