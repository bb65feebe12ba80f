#!/usr/bin/env bash
# Generates fifty random valid specs (every construct of the format, names drawn to break
# identifiers), builds every crate the generator makes of them in one scratch workspace with
# warnings denied, compiles their C and C++ headers with strict warnings, and prints the
# figures recorded in docs/random-specs.md. The scratch sources are removed on success; the
# compiled dependencies stay in target/scratch, which the test suite shares.
#
#   scripts/random-specs.sh [COUNT] [FIRST_SEED]
#
# A failing seed is printed; `cargo run -p platform-specgen --bin random-specs -- --count 1
# --seed <seed>` builds it alone.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-50}"
seed="${2:-1}"
command -v gcc >/dev/null && command -v g++ >/dev/null || { echo "error: gcc and g++ are needed; ./scripts/test.sh installs them" >&2; exit 1; }
cargo build -q --locked -p platform-specgen --bin random-specs
exec target/debug/random-specs --count "$count" --seed "$seed"
