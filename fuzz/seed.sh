#!/usr/bin/env bash
# Seed the fuzz corpora (fuzz/corpus/<target>/) from the repository's own inputs:
# shaders, CSI blobs compiled from them (v1 and v2), scenes with their mesh and
# texture, and .shader_test files (tests/shader_test and, if fetched, piglit's).
# Usage: fuzz/seed.sh   (from the repository root; needs target/release/csir-render,
# or builds it; CSIR_RENDER=PATH picks another build). See docs/robustness.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CSIR_RENDER:-target/release/csir-render}
[ -x "$BIN" ] || cargo build --release --bin csir-render
"$BIN" inspect --help >/dev/null 2>&1 || { echo "$BIN is older than inspect: cargo build --release"; exit 1; }
C=fuzz/corpus
mkdir -p $C/glsl_compile $C/csi_load $C/scene_load $C/shader_test

# Shaders: byte 0 selects the stage (bit 0: fragment) and the profile (bit 1: extended).
n=0
while IFS= read -r f; do
  case "$f" in *.vert) s=0 ;; *) s=1 ;; esac
  for p in 0 2; do
    printf "\\x$(printf %02x $((s | p)))" | cat - "$f" > "$C/glsl_compile/$(echo "$f" | tr / _).$p"
  done
  b="$C/csi_load/$(echo "$f" | tr / _)"
  "$BIN" compile "$f" --csi "$b.v2.csi" >/dev/null 2>&1 || true
  "$BIN" compile "$f" --profile seed --csi "$b.seed.v2.csi" >/dev/null 2>&1 || true
  "$BIN" compile "$f" --profile seed --csi "$b.v1.csi" --csi-version 1 >/dev/null 2>&1 || true
  n=$((n + 1))
done < <(find shaders/glsl shaders/tests reference-images/shaders -type f \( -name '*.vert' -o -name '*.frag' \) 2>/dev/null | sort)
echo "glsl_compile: $(ls $C/glsl_compile | wc -l) seeds from $n shaders; csi_load: $(ls $C/csi_load | wc -l)"

# Scenes: JSON, separator, OBJ, separator, PNG (fuzz_targets/scene_load.rs).
SEP=$'\n--csir-fuzz-part--\n'
for png in reference-images/textures/*.png; do
  for j in reference-images/*.json; do
    { cat "$j"; printf '%s' "$SEP"; cat reference-images/meshes/cube.obj; printf '%s' "$SEP"; cat "$png"; } \
      > "$C/scene_load/$(basename "$j" .json).$(basename "$png" .png)"
  done
done
echo "scene_load: $(ls $C/scene_load | wc -l) seeds"

find tests/shader_test target/test-deps/piglit/tests/spec/glsl-1.10/execution \
  -name '*.shader_test' -size -16k 2>/dev/null | sort | head -2000 | while IFS= read -r f; do
  cp "$f" "$C/shader_test/$(echo "$f" | tr / _)"
done
echo "shader_test: $(ls $C/shader_test | wc -l) seeds"
