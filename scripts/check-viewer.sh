#!/usr/bin/env bash
# Smoke test of the live viewer (examples/viewer.rs) on a virtual X display:
# installs Xvfb, Mesa's Vulkan driver (lavapipe: pixels/wgpu need Vulkan) and
# ImageMagick from Debian if missing, builds the viewer, runs it under xvfb-run for a
# few seconds, takes two screenshots and checks that the spinning cube is on screen:
# many orange-ish pixels in the window, the clear colour around them, and the two
# screenshots differ (it moves).
#
# Screenshots: $CHECK_DIR (default: TARGET_DIR/check-viewer)/shot-1.png, shot-2.png.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-target}"
out="${CHECK_DIR:-$target_dir/check-viewer}"
mkdir -p "$out"

echo "== packages (Debian)"
missing=()
for tool in xvfb-run:xvfb xauth:xauth import:imagemagick xwininfo:x11-utils; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
compgen -G '/usr/share/vulkan/icd.d/lvp_icd.*.json' >/dev/null || missing+=(mesa-vulkan-drivers)
compgen -G '/usr/lib/*/libvulkan.so.1' >/dev/null || missing+=(libvulkan1)
if ((${#missing[@]})); then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"
else
    echo "all present"
fi

echo "== build"
cargo build --release --example viewer --features window
viewer="$target_dir/release/examples/viewer"

echo "== run under Xvfb"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
rm -f "$out"/shot-*.png
status=0
VIEWER_SECS=6 xvfb-run -a -s '-screen 0 1024x768x24' sh -c '
    "$1" & pid=$!
    sleep 3; import -window root "$2"
    sleep 1; import -window root "$3"
    xwininfo -root -tree | grep -o "\"csir viewer[^\"]*\"" >"$4"
    wait "$pid"' sh "$viewer" "$out/shot-1.png" "$out/shot-2.png" "$out/title.txt" \
    >"$out/viewer.log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || [ ! -s "$out/shot-2.png" ]; then
    cat "$out/viewer.log"
    echo "FAIL: the viewer exited with status $status or took no screenshot" >&2
    exit 1
fi

echo "== check the screenshots"
# Pixels of the window (top-left corner of the screen, the scene's size; no window
# manager runs under Xvfb): clear colour (0.1, 0.1, 0.12) = (26, 26, 31) and
# orange-ish cube pixels (uColor (0.9, 0.55, 0.2) times texture and light: r > g > b).
count() {
    convert "$1" -crop 320x240+0+0 +repage -depth 8 txt:- | awk -F'[(,)]' '
        NR > 1 {
            r = $3; g = $4; b = $5; n++
            if (r >= 23 && r <= 29 && g >= 23 && g <= 29 && b >= 28 && b <= 34) clear++
            else if (r >= 60 && r > g && g > b && r - b >= 40) orange++
        }
        END { printf "%d %d %d\n", n, clear, orange }'
}
read -r n clear orange < <(count "$out/shot-1.png")
echo "window region: $n pixels, $clear clear colour, $orange orange-ish, $((n - clear)) drawn"
changed=$(compare -metric AE "$out/shot-1.png" "$out/shot-2.png" null: 2>&1 || true)
echo "pixels changed between the screenshots (1 s apart): $changed"
echo "window title: $(cat "$out/title.txt")"
fail=0
[ "$n" -eq 76800 ] || { echo "FAIL: expected a 320x240 region" >&2; fail=1; }
[ "$clear" -ge 20000 ] || { echo "FAIL: the clear colour is missing (no window?)" >&2; fail=1; }
[ "$((n - clear))" -ge 3000 ] || { echo "FAIL: almost nothing drawn" >&2; fail=1; }
[ "$orange" -ge 3000 ] || { echo "FAIL: too few orange cube pixels" >&2; fail=1; }
[ "${changed%%.*}" -ge 500 ] 2>/dev/null || { echo "FAIL: the cube does not move" >&2; fail=1; }
grep -q 'fps, .* ms/frame' "$out/title.txt" || { echo "FAIL: no frame rate in the title" >&2; fail=1; }
[ "$fail" -eq 0 ] || { cat "$out/viewer.log"; exit 1; }
echo "OK: screenshots in $out"
