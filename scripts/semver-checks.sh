#!/usr/bin/env bash
# `diff`'s Rust verdict against cargo-semver-checks for every case of tests/diff/ (or the cases
# named as arguments) (the test
# command checks a fixed sample of them: tests/semver.rs). Needs the copy of cargo-semver-checks
# that scripts/test.sh installs (into the Cargo home, on PATH), or CARGO_SEMVER_CHECKS.
set -euo pipefail
cd "$(dirname "$0")/.."
# With case names as arguments, those cases alone.
cases=$(IFS=,; echo "$*")
SEMVER_CHECKS_ALL=1 SEMVER_CHECKS_CASES="$cases" exec cargo test --locked --test all semver:: -- --nocapture
