#!/usr/bin/env bash
# Re-measure piglit's GLSL execution tests and record the result: rewrites
# tests/piglit/baseline.json (passes per directory, which the piglit corpus test holds
# main to), tests/piglit/allowed-failures.txt (the tests that render a wrong pixel) and
# the measured table of docs/conformance.md. Run it after a change that makes more tests
# pass, then review `git diff` (the allow-list should only shrink) and commit the three
# files with the change. docs/conformance.md, "The GLSL execution corpus".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-piglit.sh
CSIR_PIGLIT_WRITE_BASELINE=1 cargo test --test piglit_corpus --test piglit_dialects -- --nocapture
git --no-pager diff --stat -- tests/piglit docs/conformance.md
