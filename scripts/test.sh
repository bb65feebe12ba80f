#!/usr/bin/env bash
# Runs every test of the project on a fresh machine, installing what the tests need first:
# Debian packages (C/C++ compilers, valgrind, Chromium, wrk for the load test, util-linux's
# unshare for the full-disk test) with apt-get, Python tools (OpenAPI validator, schemathesis,
# feed parser, JSON Schema validator) into .venv, the AsyncAPI parser (npm) into
# tools/asyncapi/node_modules. Tests never skip a
# missing tool: they fail and say so.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pair in gcc:gcc g++:g++ valgrind:valgrind chromium:chromium wrk:wrk unshare:util-linux; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need_apt+=("${pair#*:}")
done
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

# Reinstalled whenever the requirements change: the copy in .venv records what was installed.
if ! cmp -s scripts/requirements-test.txt .venv/requirements-test.txt; then
  echo "installing Python test tools into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-test.txt
  cp scripts/requirements-test.txt .venv/requirements-test.txt
fi
export PATH="$PWD/.venv/bin:$PATH"

# The AsyncAPI initiative's parser, into tools/asyncapi/node_modules at the locked versions;
# reinstalled whenever the lock file changes.
command -v npm >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; apt-get install -y -qq --no-install-recommends nodejs npm; }
if ! cmp -s tools/asyncapi/package-lock.json tools/asyncapi/node_modules/.package-lock.copy; then
  echo "installing the AsyncAPI parser into tools/asyncapi/node_modules"
  npm ci --prefix tools/asyncapi --no-audit --no-fund --silent
  cp tools/asyncapi/package-lock.json tools/asyncapi/node_modules/.package-lock.copy
fi
# A test run builds once; incremental caches would only double what it writes under target/.
export CARGO_INCREMENTAL=0

# cargo-semver-checks, the oracle of tests/semver.rs, at a fixed version, into the Cargo home's
# bin directory like any Cargo tool (so a machine that has run the tests once has it),
# unoptimised and without debug info: `--debug`, and its dependencies at `opt-level = 0` too,
# which its manifest's dev profile raises to 3 (a config setting overrides the manifest's). The
# tool reads the rustdoc JSON of small crates, where optimising buys little: measured side by
# side on 2 cores, the build took 562 s with optimised dependencies and 180 s without, and the
# semver test 144 s and 181 s with each. It is built in the background once the workspace is
# (the workspace build keeps both cores busy by itself), beside the tests, and only the test that
# needs it waits: the install holds the file `CARGO_SEMVER_CHECKS_LOCK` names locked (flock)
# until it ends, and tests/semver.rs takes a shared lock on it before it looks for the tool.
semver_checks_version=0.51.0
semver_checks="${CARGO_HOME:-$HOME/.cargo}/bin/cargo-semver-checks"
export CARGO_SEMVER_CHECKS="$semver_checks"
semver_checks_pid=
semver_checks_log=target/cargo-semver-checks-install.log
export CARGO_SEMVER_CHECKS_LOCK="$PWD/target/cargo-semver-checks.lock"
install_semver_checks() {
  if ! "$semver_checks" semver-checks --version 2>/dev/null | grep -qx "cargo-semver-checks $semver_checks_version"; then
    echo "installing cargo-semver-checks $semver_checks_version (in the background)"
    # Locked here, before the install starts, so no test can find the file unlocked too early;
    # the background install inherits the descriptor, and the lock goes when it exits.
    exec 9>"$CARGO_SEMVER_CHECKS_LOCK"
    flock --exclusive 9
    CARGO_PROFILE_DEV_DEBUG=false \
      cargo install --quiet --locked --force --debug --config 'profile.dev.package."*".opt-level=0' \
        cargo-semver-checks --version "$semver_checks_version" \
      > "$semver_checks_log" 2>&1 &
    semver_checks_pid=$!
    exec 9>&-
  fi
}

# The project's own Rust is rustfmt-clean (rustfmt.toml); generated files are prettyplease's.
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo fmt --all --check

# One build of everything, reused by every step below. The generated crates' build scripts would
# regenerate generated/ from spec/ (compiling the generator a second time, in a target directory
# of their own, since Cargo holds this one); here they compile the committed tree as it is, which
# the drift check below then compares with what the generator makes. tests/rebuild.rs and the
# scratch builds check what the build scripts do, without this switch.
export PLATFORM_CODEGEN_NO_REGENERATE=1
# That build is also the clippy run (`-D warnings`): clippy-driver compiles the workspace's own
# crates as their wrapper, which is how `cargo clippy` runs it too, so each crate is compiled
# once, linted on the way, instead of built for the tests and checked again for the lints.
# Every cargo command below that compiles passes the same settings, or it would rebuild.
clippy_driver="$(rustc --print sysroot)/bin/clippy-driver"
[ -x "$clippy_driver" ] || rustup component add clippy
linted=(--config "build.rustc-workspace-wrapper=\"$clippy_driver\"")
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
cargo build "${linted[@]}" --workspace --all-targets --locked
# The programs that build made: the generator (`cargo run -p` would build it again with the
# features of that package alone) and the reference server, which the tests that serve it
# would otherwise ask Cargo for, waiting on the target directory's lock while the generator's
# tests build Discord's crates in it (PLATFORM_REFERENCE_SERVER, read by tests/openapi.rs and
# tests/load.rs).
built=$(cargo build "${linted[@]}" -q --locked --workspace --all-targets --message-format=json)
executable() { sed -n "s/.*\"executable\":\"\([^\"]*\/$1\)\".*/\1/p" <<<"$built"; }
generator=$(executable platform-codegen)
[ -x "$generator" ] || { echo "error: the workspace build made no platform-codegen binary" >&2; exit 1; }
PLATFORM_REFERENCE_SERVER=$(executable reference_server)
[ -x "$PLATFORM_REFERENCE_SERVER" ] || { echo "error: the workspace build made no reference_server example" >&2; exit 1; }
export PLATFORM_REFERENCE_SERVER
# Build scripts that regenerate (the rebuild test's copy of this workspace) run this generator,
# built from the same sources, instead of compiling it again in a target directory of their own
# (about 140 CPU-seconds); the workspace's own build scripts do not read it while
# PLATFORM_CODEGEN_NO_REGENERATE is set. A plain `cargo test` leaves it unset, and they compile it.
export PLATFORM_CODEGEN="$generator"
# Started now, its build fills the cores the drift check and the timeline guard leave idle.
install_semver_checks

# Drift: the committed generated/ is what the spec and the generator make.
"$generator" generate --check

# The timeline guard: the spec on disk may differ from the previous commit's only in ways its
# change entries announce. A shallow clone is deepened by one commit; a history with a single
# commit has no previous spec, and the guard says so instead of passing quietly.
timeline_guard() {
  if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "error: the timeline guard compares spec/ with the previous commit, but this is not a git work tree" >&2
    return 1
  fi
  if ! git rev-parse -q --verify 'HEAD~1^{commit}' >/dev/null && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    echo "timeline guard: shallow clone; fetching the previous commit"
    if ! git fetch -q --deepen=1; then
      echo "error: the timeline guard needs the previous commit, and this shallow clone cannot fetch it; clone with history (git fetch --unshallow)" >&2
      return 1
    fi
  fi
  if ! git rev-parse -q --verify 'HEAD~1^{commit}' >/dev/null; then
    echo "################################################################################"
    echo "# timeline guard NOT RUN: HEAD has no parent commit, so there is no previous"
    echo "# spec to compare spec/ with. Every later commit is checked."
    echo "################################################################################"
    return 0
  fi
  echo "timeline guard: diff --against HEAD~1"
  "$generator" diff --against HEAD~1
}
timeline_guard
# The tests run as three Cargo processes side by side: the generator's package, the semver
# oracle, and the rest. The run keeps both cores busy from the workspace build to the end (a
# CPU sample every 10 s of a cold run: 97-100% busy), so the processes only decide what is left
# for the end, when one alone may leave a core idle (one crate compiling, one Python process
# serving schemathesis, a chain of rustdoc runs). The oracle (tests/semver.rs, a module of the
# root package's test binary) is a process of its own: in that binary its name sorts late, so
# it started last and ran alone at the end; alone it starts as soon as cargo-semver-checks is
# installed, and the root package's binary skips it by name. Cargo's locks order the nested
# builds that share a target directory. The generator's tests (Discord's crates, the import
# sample) build in `target/` for minutes at a time, the rest in `target/scratch`. The
# generator's tests and the oracle write to logs, shown in full when they end.
semver_oracle=semver::
cargo test "${linted[@]}" --locked --no-fail-fast --workspace --exclude platform-codegen -- --skip "$semver_oracle" &
other_tests=$!
oracle_log=target/tests-semver-oracle.log
cargo test "${linted[@]}" --locked --no-fail-fast -p platform --test all -- "$semver_oracle" > "$oracle_log" 2>&1 &
oracle_tests=$!
generator_log=target/tests-platform-codegen.log
cargo test "${linted[@]}" --locked --no-fail-fast -p platform-codegen > "$generator_log" 2>&1 &
generator_tests=$!
# The API docs build, warnings denied, as soon as one of them ends, beside the others. It
# documents the crates people read (the generator, its runtime, the macros, the root crate, the
# generated crates and the fixtures' expected ones), not the test tools (specgen, fuzz, the UI
# cases, the downstream example), whose documentation only would need the generator's library
# checked once more (clippy lints them with `-D warnings` in the workspace build). With the
# workspace build's wrapper, the proc macros and build scripts it needs are that build's.
declare -A exit_of
wait -n -p first "$other_tests" "$generator_tests" "$oracle_tests" || exit_of[$first]=$?
doc_status=0
RUSTDOCFLAGS="-D warnings" cargo doc "${linted[@]}" --workspace --no-deps --locked \
  --exclude platform-specgen --exclude platform-fuzz --exclude platform-ui --exclude platform-downstream-example || doc_status=$?
for job in "$other_tests" "$generator_tests" "$oracle_tests"; do
  [ "$job" = "$first" ] || wait "$job" || exit_of[$job]=$?
done
status=${exit_of[$other_tests]:-0} generator_status=${exit_of[$generator_tests]:-0} oracle_status=${exit_of[$oracle_tests]:-0}
echo "==== the semver oracle (run beside the others; $oracle_log) ===="
cat "$oracle_log"
# The other tests skip the oracle by name: a filter that matches no test would drop it in silence.
if ! grep -Eq '^running [1-9][0-9]* tests?$' "$oracle_log"; then
  echo "error: no test of tests/all.rs matches \`$semver_oracle\`: the semver oracle did not run" >&2
  oracle_status=1
fi
echo "==== the tests of platform-codegen (run beside the others; $generator_log) ===="
cat "$generator_log"
semver_checks_status=0
if [ -n "$semver_checks_pid" ] && ! wait "$semver_checks_pid"; then
  semver_checks_status=1
  cat "$semver_checks_log" >&2
  echo "error: cargo-semver-checks $semver_checks_version did not install (tests/semver.rs needs it)" >&2
fi
if [ "$status" -ne 0 ] || [ "$generator_status" -ne 0 ] || [ "$oracle_status" -ne 0 ] || [ "$doc_status" -ne 0 ] || [ "$semver_checks_status" -ne 0 ]; then
  echo "error: failed: platform-codegen's tests exit $generator_status; the semver oracle exit $oracle_status; the other tests exit $status; cargo doc exit $doc_status" >&2
  exit 1
fi
