#!/usr/bin/env bash
# Coverage-guided fuzzing of the generator's entry points with AFL++ through `cargo afl`, on the
# stable toolchain. Each target runs for SECONDS (default 600) from a seed corpus built out of the
# repository (the shipped spec, every fixture, the diagnostics corpus, fuzz/corpus/<target>/,
# fuzz/crashes/<target>/); crashes and hangs over 2 s are copied to target/fuzz/found/<target>/
# and make the script exit 1. AFL's own output lives under target/fuzz/out/ and is removed at the
# end; the figures it printed are kept in target/fuzz/<target>.stats.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: load_spec
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(load_spec)
export CARGO_INCREMENTAL=0

command -v cargo-afl >/dev/null 2>&1 || cargo install --locked cargo-afl
# Builds AFL++ itself once per toolchain; a second call only says it is already built.
cargo afl config --build >/dev/null 2>&1 || true
help=$(cargo afl fuzz -h 2>&1 || true)
[[ $help == *afl-fuzz* ]] || { echo "error: AFL++ is not built; run \`cargo afl config --build\`" >&2; exit 2; }

root=$PWD
export CARGO_TARGET_DIR="$root/target/fuzz"
status=0
for target in "${targets[@]}"; do
  (cd fuzz/afl && cargo afl build --release --locked --bin "$target")
  seeds="$CARGO_TARGET_DIR/seeds/$target"
  out="$CARGO_TARGET_DIR/out/$target"
  rm -rf "$seeds" "$out"
  mkdir -p "$(dirname "$out")"
  CARGO_TARGET_DIR="$root/target" cargo run -q --locked -p platform-fuzz --bin seed_corpus -- "$target" "$seeds"
  echo "fuzzing $target for ${seconds}s"
  # -t: an input running over 2 s is a hang; -m: over 1 GiB of memory is a crash.
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    AFL_SKIP_CRASHES=1 AFL_IGNORE_SEED_PROBLEMS=1 \
    cargo afl fuzz -i "$seeds" -o "$out" -t 2000 -m 1024 -V "$seconds" -- "$CARGO_TARGET_DIR/release/$target" \
    > "$CARGO_TARGET_DIR/$target.log" 2>&1 || { echo "afl-fuzz failed; see $CARGO_TARGET_DIR/$target.log" >&2; tail -20 "$CARGO_TARGET_DIR/$target.log" >&2; exit 2; }
  stats="$out/default/fuzzer_stats"
  cp "$stats" "$CARGO_TARGET_DIR/$target.stats"
  grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|edges_found|total_edges|saved_crashes|saved_hangs|peak_rss_mb) ' "$stats" | sed "s/^/$target: /"
  found="$CARGO_TARGET_DIR/found/$target"
  mkdir -p "$found"
  for kind in crashes hangs; do
    for f in "$out/default/$kind"/id:*; do
      [ -e "$f" ] || continue
      cp "$f" "$found/$kind-$(sha1sum "$f" | cut -c1-16)"
      status=1
    done
  done
  rm -rf "$out" "$seeds"
  rmdir "$(dirname "$out")" "$(dirname "$seeds")" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    echo "$target: findings copied to $found; fix them, then move each to fuzz/crashes/$target/" >&2
  fi
done
exit "$status"
