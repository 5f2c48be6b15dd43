#!/usr/bin/env bash
# The project's test command (README.md, "Run the tests"); CI (.ci/run) runs exactly this.
#
# 1. scripts/test-deps.sh installs what the tests need that cargo cannot fetch
#    (Debian packages, the piglit corpus) when it is missing;
# 2. the whole workspace's tests run with CSIR_REQUIRE_TEST_DEPS=1, so a test that
#    needs one of those dependencies fails when it is missing instead of skipping.
#
# Extra arguments go to `cargo test` (for example a test name filter).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/test-deps.sh
export CSIR_REQUIRE_TEST_DEPS=1
cargo test --workspace --no-fail-fast "$@"
