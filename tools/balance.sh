#!/usr/bin/env bash
# Balance table: plays GAMES seeded AI-vs-AI games per level and difficulty with a release build
# and prints the markdown table of docs/balance.md. Each cell: Eladrin AI win rate [95 % Wilson
# interval], mean cycles; battles per game (R9.5), share of games with a battle.
# Usage: tools/balance.sh [GAMES] [LEVEL…]   (defaults: 200, every level in levels/)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
levels=("$@")
if [ ${#levels[@]} -eq 0 ]; then
    for f in levels/*.ron; do levels+=("$(basename "$f" .ron)"); done
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet
bin="$CARGO_TARGET_DIR/release/chaos-outpost"
echo "| level | easy | normal | hard |"
echo "|---|---|---|---|"
for level in "${levels[@]}"; do
    row="| $level |"
    for d in easy normal hard; do
        cell=$("$bin" sim --level "$level" --difficulty "$d" --seed 100 --games "$games" --cycles 60 --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
def pct(x):
    return ("%.1f" % (x * 100)).rstrip("0").rstrip(".")
lo, hi = r["win_rate_ci95"]
print("%s %% [%.0f–%.0f], %.1f; %.2f, %s %%" % (
    pct(r["eladrin_win_rate"]), lo * 100, hi * 100, r["mean_cycles"],
    r["battles_per_game"], pct(r["games_with_battles"])))')
        row="$row $cell |"
    done
    echo "$row"
done
