#!/usr/bin/env bash
# Install what the tests need beyond crates.io, only where it is missing, and say what
# was done. Idempotent: a second run changes nothing. Run by scripts/test.sh.
#
# Debian packages are installed with apt-get (as root, as CI runs; otherwise the script
# stops and prints the apt-get command to run). Downloaded corpora go to the cache
# folder $CSIR_CACHE (default: target/test-deps), which `cargo clean` removes.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests need (binary name → package).
declare -A packages=(
  [virgl_test_server]=virgl-server   # tests/virgl_parity.rs: the VirGL host
)

# Debian packages the tests need (shared library → package): EGL and Mesa's llvmpipe
# for tests/gl_backend.rs (`--backend gl`; docs/gl-backend.md).
declare -A libraries=(
  [libEGL.so.1]=libegl1             # glvnd's EGL loader
  [libEGL_mesa.so.0]=libegl-mesa0   # Mesa's EGL
  [swrast_dri.so]=libgl1-mesa-dri   # Mesa's software drivers: llvmpipe, softpipe
)

missing=()
for bin in "${!packages[@]}"; do
  command -v "$bin" >/dev/null 2>&1 || missing+=("${packages[$bin]}")
done
for lib in "${!libraries[@]}"; do
  ldconfig -p 2>/dev/null | grep -q "/$lib\$" \
    || find /usr/lib /usr/lib64 -name "$lib" -print -quit 2>/dev/null | grep -q . \
    || missing+=("${libraries[$lib]}")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-deps: missing Debian packages: ${missing[*]}" >&2
    echo "test-deps: install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "test-deps: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Corpora, fetched into the cache when missing.
scripts/fetch-piglit.sh
