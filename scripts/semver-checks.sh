#!/usr/bin/env bash
# `diff`'s Rust verdict against cargo-semver-checks for every case of tests/diff/ (the test
# command checks a fixed sample of them: tests/semver.rs). Needs the copy of cargo-semver-checks
# that scripts/test.sh installs (into the Cargo home, on PATH), or CARGO_SEMVER_CHECKS.
set -euo pipefail
cd "$(dirname "$0")/.."
SEMVER_CHECKS_ALL=1 exec cargo test --locked --test semver -- --nocapture
