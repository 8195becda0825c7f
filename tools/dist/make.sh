#!/usr/bin/env bash
# Builds the self-contained Linux archive: the game's binary (content, art and sound are
# embedded in it), stripped, with the example mod, the README, the licence, the credits and a
# short PLAYING.txt. Prints the archive's path, its size and the oldest glibc it needs.
# Usage: tools/dist/make.sh [--profile NAME] [--out DIR] [--no-build]
#   --profile   the cargo profile to build (default: release; `./dev test` packs the binary
#               its own profile built, to test the archive without a second build)
#   --out       where the archive goes (default: dist/)
#   --no-build  pack the profile's binary as it is (`./dev test`: the one the tests ran)
set -euo pipefail
cd "$(dirname "$0")/../.."
profile=release
out=dist
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "dist: unknown argument $1 (usage: tools/dist/make.sh [--profile NAME] [--out DIR] [--no-build])" >&2; exit 2 ;;
  esac
done
target="${CARGO_TARGET_DIR:-target}"
case "$profile" in
  dev|test) dir=debug ;;
  *) dir="$profile" ;;
esac
[ "$build" -eq 1 ] && cargo build --profile "$profile" --bin chaos-outpost --quiet
bin="$target/$dir/chaos-outpost"
[ -x "$bin" ] || { echo "dist: no binary at $bin (build it first)" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
name="chaos-outpost-$version-linux-x86_64"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/mods"
cp "$bin" "$root/chaos-outpost"
strip "$root/chaos-outpost" 2>/dev/null || echo "dist: strip not found, the binary keeps its symbols" >&2
cp README.md CHANGELOG.md LICENSE "$root/"
cp assets/art/CREDITS.md "$root/CREDITS-art.md"
cp assets/audio/CREDITS.md "$root/CREDITS-sound.md"
cp -r mods/highland_guard "$root/mods/"
# The newest glibc symbol version the binary asks for is the oldest glibc it runs on.
glibc=$(objdump -T "$root/chaos-outpost" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 || true)
glibc="${glibc#GLIBC_}"
sed "s/@GLIBC@/${glibc:-(unknown)}/" tools/dist/PLAYING.txt >"$root/PLAYING.txt"
mkdir -p "$out"
archive="$out/$name.tar.gz"
tar -C "$stage" -czf "$archive" "$name"
size=$(du -h "$archive" | cut -f1)
echo "$archive"
echo "dist: $archive: $size; the binary needs glibc ${glibc:-(unknown: objdump not found)} or newer" >&2
