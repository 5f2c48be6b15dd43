#!/usr/bin/env bash
# Re-measure piglit's GLSL execution tests and record the result: rewrites
# tests/piglit/baseline.json (passes per directory, which the piglit corpus test holds
# main to), tests/piglit/allowed-failures.txt (the tests that render a wrong pixel) and
# the measured table of docs/conformance.md; and for piglit's compiler tests
# tests/piglit/compiler-baseline.json, tests/piglit/compiler-failures.txt and their
# table; and for the GL 3.3 selection of the whole corpus tests/piglit/gl33-baseline.json,
# tests/piglit/gl33-allowed-failures.txt and its table. Run it after a change that makes more tests pass, then review `git diff` (the
# lists should only shrink) and commit the files with the change. docs/conformance.md,
# "The GLSL execution corpus" and "Compiler tests".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-piglit.sh
CSIR_PIGLIT_WRITE_BASELINE=1 cargo test --test piglit_corpus --test piglit_dialects --test piglit_compiler --test piglit_gl33_corpus -- --nocapture
git --no-pager diff --stat -- tests/piglit docs/conformance.md
