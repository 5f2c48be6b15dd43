#!/usr/bin/env bash
# Look at `csir-render check`'s report.html in a real browser (Debian's Chromium,
# headless), as a person would:
#   1. check reference-images/ with --report: every scene must pass;
#   2. check a copy of three scenes, one of them (lit_cube) with a deliberately broken
#      reference: the command must exit 1 and the page must list lit_cube first, failed;
#   3. Chromium loads both pages; its DOM after the page's script ran must hold the
#      rows in that order and the viewer open on the scene named in the address;
#   4. screenshots for the eye: the list, and the viewer side by side, as a slider and
#      blinking.
# Installs chromium from Debian if missing (as root; otherwise prints the command).
#
# Output: $CHECK_DIR (default: TARGET_DIR/check-report)/: the two report folders and
# list.png, failed-list.png, viewer-side.png, viewer-slider.png, viewer-blink.png.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-target}"
out="$(realpath -m "${CHECK_DIR:-$target_dir/check-report}")"
rm -rf "$out"
mkdir -p "$out"

echo "== packages (Debian)"
if ! command -v chromium >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "chromium is missing: sudo apt-get install -y --no-install-recommends chromium" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
else
    echo "chromium present: $(chromium --version 2>/dev/null)"
fi

echo "== build"
cargo build --bin csir-render
bin="$target_dir/debug/csir-render"

echo "== check reference-images"
"$bin" check reference-images --report "$out/all"

echo "== check a suite with a broken reference (must exit 1)"
suite="$out/suite"
mkdir -p "$suite"
cp -r reference-images/shaders reference-images/textures reference-images/meshes "$suite/"
for s in triangle lit_cube textured_quad; do
    cp "reference-images/$s.json" "reference-images/$s.llvmpipe.png" "$suite/"
done
# lit_cube's reference is replaced by the triangle's picture: the same size
# (320x240), so the comparison gives metrics and a heat map.
cp reference-images/triangle.llvmpipe.png "$suite/lit_cube.llvmpipe.png"
status=0
"$bin" check "$suite" --report "$out/failed" || status=$?
[ "$status" -eq 1 ] || { echo "FAIL: expected exit status 1, got $status" >&2; exit 1; }

echo "== Chromium"
browse() { # browse OUT_ARGS... URL: one headless run with a fresh profile
    local profile
    profile="$(mktemp -d)"
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --hide-scrollbars --window-size=1400,1000 \
        --virtual-time-budget=3000 "$@" 2>"$out/chromium.log"
    rm -rf "$profile"
}
page_all="file://$out/all/report.html"
page_failed="file://$out/failed/report.html"
browse --screenshot="$out/list.png" "$page_all" >/dev/null
browse --screenshot="$out/failed-list.png" "$page_failed" >/dev/null
for mode in side slider blink; do
    browse --screenshot="$out/viewer-$mode.png" \
        "$page_failed#view=$suite/lit_cube.json&mode=$mode" >/dev/null
done
browse --dump-dom "$page_all" >"$out/all.dom.html"
browse --dump-dom "$page_failed#view=$suite/lit_cube.json&mode=slider" >"$out/failed.dom.html"

echo "== check what the browser shows"
fail=0
rows_all=$(grep -o '<tr class="row passed"' "$out/all.dom.html" | wc -l)
scenes=$(find reference-images -name '*.json' | wc -l)
echo "all: $rows_all passed rows for $scenes scenes"
[ "$rows_all" -eq "$scenes" ] || { echo "FAIL: expected $scenes passed rows" >&2; fail=1; }
first=$(grep -o '<tr class="row [a-z]*"[^>]*data-scene="[^"]*"' "$out/failed.dom.html" | head -1)
echo "failed report, first row: $first"
case "$first" in
    *'class="row failed"'*"lit_cube.json\"") ;;
    *) echo "FAIL: lit_cube is not the first row, failed" >&2; fail=1 ;;
esac
grep -q '<dialog id="viewer" open' "$out/failed.dom.html" ||
    { echo "FAIL: the viewer did not open from the address" >&2; fail=1; }
grep -q 'class="pin wipe"' "$out/failed.dom.html" ||
    { echo "FAIL: no slider in the viewer" >&2; fail=1; }
grep -q 'class="marker"' "$out/failed.dom.html" ||
    { echo "FAIL: no worst-pixel marker in the viewer" >&2; fail=1; }
for shot in list failed-list viewer-side viewer-slider viewer-blink; do
    size=$(stat -c %s "$out/$shot.png" 2>/dev/null || echo 0)
    echo "$shot.png: $size bytes"
    [ "$size" -gt 20000 ] || { echo "FAIL: $shot.png is missing or blank" >&2; fail=1; }
done
[ "$fail" -eq 0 ] || { cat "$out/chromium.log" >&2; exit 1; }
echo "OK: screenshots in $out"
