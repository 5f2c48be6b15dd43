#!/usr/bin/env bash
# Fetch piglit's GLSL tests from Debian's `piglit` package into the test cache, unless
# they are already there. Called by scripts/test-deps.sh; the piglit corpus tests
# (tests/piglit_corpus.rs, tests/piglit_gl33_corpus.rs, tests/piglit_compiler.rs) and
# `csir-render shader-test` read them from there.
#
#   $CSIR_CACHE/piglit/VERSION                       the package version (written last)
#   $CSIR_CACHE/piglit/LAYOUT                        what was unpacked (see below)
#   $CSIR_CACHE/piglit/tests/spec/glsl-X/...          hand-written tests
#   $CSIR_CACHE/piglit/generated_tests/spec/glsl-X/...  generated tests
#   $CSIR_CACHE/piglit/{tests,generated_tests}/spec/**/*.shader_test
#
# for X in 1.10 1.20 1.30 1.40 1.50 3.30 es-1.00 es-3.00 the whole spec folders
# (execution, compiler and linker tests), and of every other spec folder the
# `.shader_test` files (the whole shader_runner corpus) but those of
# generated_tests/spec/glsl-4.20 and generated_tests/spec/arb_vertex_attrib_64bit
# (18,096 generated double-precision tests, 1.8 GB unpacked, all needing GL 4.x: none is
# in the GL 3.3 selection of docs/conformance.md). About 90 MB unpacked. The package is downloaded with `apt-get download` (its
# dependencies are not needed) and only those files are unpacked. A cache written by an
# older version of this script (no LAYOUT file, or another layout) is fetched again.
# $CSIR_CACHE defaults to target/test-deps.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${CSIR_CACHE:-target/test-deps}"
dest="$cache/piglit"
layout="glsl-folders+spec-shader_test"
if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/LAYOUT" 2>/dev/null)" = "$layout" ]; then
  echo "fetch-piglit: piglit $(cat "$dest/VERSION") already in $dest"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

download() { (cd "$work" && apt-get download piglit >/dev/null 2>&1); }
if ! download; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "fetch-piglit: 'apt-get download piglit' failed; as root, run: apt-get update" >&2
    exit 1
  fi
  echo "fetch-piglit: updating the package lists"
  apt-get update -qq
  download || { echo "fetch-piglit: 'apt-get download piglit' failed" >&2; exit 1; }
fi
deb="$(ls "$work"/piglit_*.deb)"
version="$(dpkg-deb -f "$deb" Version)"
echo "fetch-piglit: unpacking the GLSL and shader_test files of piglit $version into $dest"

versions=(1.10 1.20 1.30 1.40 1.50 3.30 es-1.00 es-3.00)
patterns=()
for v in "${versions[@]}"; do
  patterns+=("./usr/lib/*/piglit/tests/spec/glsl-$v/*" "./usr/lib/*/piglit/generated_tests/spec/glsl-$v/*")
done
# Every shader_runner script of the spec folders (`*` matches `/` here).
patterns+=("./usr/lib/*/piglit/tests/spec/*.shader_test" "./usr/lib/*/piglit/generated_tests/spec/*.shader_test")
mkdir -p "$work/root"
# Not every version has both folders: tar reports the patterns that match nothing.
dpkg-deb --fsys-tarfile "$deb" |
  tar -x -C "$work/root" --wildcards --wildcards-match-slash \
    --exclude='*/generated_tests/spec/glsl-4.20/*' \
    --exclude='*/generated_tests/spec/arb_vertex_attrib_64bit/*' \
    "${patterns[@]}" 2>/dev/null || true
root="$(echo "$work"/root/usr/lib/*/piglit)"
if [ ! -d "$root/tests/spec/glsl-1.10" ]; then
  echo "fetch-piglit: the package holds no tests/spec/glsl-1.10" >&2
  exit 1
fi

mkdir -p "$cache"
rm -rf "$dest.partial"
mkdir "$dest.partial"
mv "$root/tests" "$root/generated_tests" "$dest.partial/"
echo "$layout" >"$dest.partial/LAYOUT"
echo "$version" >"$dest.partial/VERSION"
rm -rf "$dest"
mv "$dest.partial" "$dest"
echo "fetch-piglit: $(find "$dest" -name '*.shader_test' | wc -l) .shader_test files in $dest"
