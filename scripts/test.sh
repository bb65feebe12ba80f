#!/usr/bin/env bash
# Runs every test of the project on a fresh machine, installing what the tests need first:
# Debian packages (C/C++ compilers, valgrind, Chromium) with apt-get, Python tools (OpenAPI
# validator, schemathesis) into .venv. Tests never skip a missing tool: they fail and say so.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pair in gcc:gcc g++:g++ valgrind:valgrind chromium:chromium; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need_apt+=("${pair#*:}")
done
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

if [ ! -x .venv/bin/schemathesis ] || [ ! -x .venv/bin/openapi-spec-validator ]; then
  echo "installing Python test tools into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-test.txt
fi
export PATH="$PWD/.venv/bin:$PATH"

# Drift first: `cargo build` of the workspace regenerates generated/ from spec/, so the
# committed tree is compared before anything else is built.
cargo run -q --locked -p platform-codegen -- generate --check
# One build of everything, reused by every step below.
cargo build --workspace --all-targets --locked
cargo test --workspace --locked --no-fail-fast
# The downstream example uses every macro; it builds above and checks its own results when run.
cargo run -q --locked -p platform-downstream-example
cargo clippy --workspace --all-targets --locked -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
