#!/usr/bin/env bash
# Measures the generator and the generated server side by side with public tools, and prints
# the table of docs/benchmarks.md:
#
#   - whole processes with hyperfine: `generate` of the shipped spec; `import` + `generate` of
#     Discord's and Oxide's OpenAPI documents; `cargo progenitor` (installed from crates.io into
#     target/bench-tools) on Oxide's document; peak RSS with GNU time;
#   - a debug build of our generated client for Oxide's document against progenitor's, with
#     their dependencies built first (skipped with BENCH_BUILDS=0: it downloads and compiles
#     both clients' dependencies, several minutes);
#   - the generated router against hand-written axum routes (examples/server_cost.rs):
#     instructions per request under callgrind, allocations per request from its counting
#     allocator;
#   - the generated client's calls with its rate limiter and without (examples/client_cost.rs),
#     instructions per call under callgrind;
#   - files written by a no-op `cargo build` of the generated server.
#
# Not part of the test command: nothing here asserts a time.
#
#   ./scripts/bench.sh            # everything
#   BENCH_BUILDS=0 ./scripts/bench.sh
set -euo pipefail
trap 'echo "error: bench.sh failed at line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/target/bench-tools
mkdir -p "$tools"
export CARGO_INCREMENTAL=0

need() {
    command -v "$1" >/dev/null || { echo "error: \`$1\` is missing: $2" >&2; exit 2; }
}
if ! command -v hyperfine >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y hyperfine >/dev/null || { apt-get update >/dev/null && apt-get install -y hyperfine >/dev/null; }
fi
need hyperfine "install it (Debian: apt-get install hyperfine)"
need valgrind "install it (Debian: apt-get install valgrind)"
[ -x /usr/bin/time ] || { echo "error: GNU time (/usr/bin/time) is missing (Debian: apt-get install time)" >&2; exit 2; }

echo "building in release..." >&2
cargo build --release --locked -q -p platform-codegen --bins
cargo build --release --locked -q -p platform --example server_cost
cargo build --release --locked -q -p platform --example client_cost
gen=$root/target/release/platform-codegen
cost=$root/target/release/examples/server_cost
client_cost=$root/target/release/examples/client_cost
progenitor=$tools/progenitor/bin/cargo-progenitor
if [ ! -x "$progenitor" ]; then
    echo "installing cargo-progenitor from crates.io into $tools/progenitor..." >&2
    cargo install -q --locked cargo-progenitor --root "$tools/progenitor"
fi

# The median of a hyperfine JSON export, in milliseconds.
median_ms() {
    python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$1"
}
# Peak resident set of a shell command, in MiB (the largest of its processes, as GNU time reports
# each one it waits for: the command runs each step under its own /usr/bin/time).
peak_mib() {
    local log=$tools/rss.log
    : >"$log"
    RSS_LOG=$log bash -c "$1" >/dev/null 2>&1
    sort -n "$log" | tail -1 | awk '{ printf "%.1f", $1 / 1024 }'
}
timed() { /usr/bin/time -a -o "${RSS_LOG:-/dev/null}" -f %M "$@"; }
export -f timed

rows=()
row() { rows+=("| $1 | $2 | $3 | $4 |"); }

# 1. `generate` of the shipped spec, whole process, nothing to write.
"$gen" generate >/dev/null 2>&1
hyperfine -N -w 3 -r 30 --export-json "$tools/generate.json" "$gen generate" >/dev/null 2>&1
hyperfine -N -w 3 -r 30 --export-json "$tools/check.json" "$gen check" >/dev/null 2>&1
row '`generate`, shipped spec, whole process, median' "$(median_ms "$tools/generate.json") ms" '≤ 20 ms' "(\`check\` alone: $(median_ms "$tools/check.json") ms)"

# 2. `import` + `generate` of every artifact, Discord's document.
import_and_generate() { # document, scratch directory
    echo "rm -rf $2 && timed $gen import openapi $1 --out $2/spec && timed $gen --spec $2/spec generate --out $2/generated"
}
discord=$(import_and_generate tests/data/openapi/discord/openapi.json "$tools/discord")
hyperfine --shell bash -w 1 -r 5 --export-json "$tools/discord.json" "$discord" >/dev/null 2>&1
row '`import` + `generate`, Discord (242 operations), whole process, median' "$(median_ms "$tools/discord.json") ms" '≤ 300 ms' "peak RSS $(peak_mib "$discord") MiB (goal ≤ 100 MiB)"

# 3. Ours against `cargo progenitor` on Oxide's document.
nexus=$(import_and_generate tests/data/openapi/oxide/nexus.json "$tools/nexus")
prog="rm -rf $tools/nexus-progenitor && timed $progenitor progenitor -i tests/data/openapi/oxide/nexus.json -o $tools/nexus-progenitor -n nexus-client -v 0.1.0"
hyperfine --shell bash -w 1 -r 5 --export-json "$tools/nexus.json" "$nexus" >/dev/null 2>&1
hyperfine --shell bash -w 1 -r 5 --export-json "$tools/progenitor.json" "$prog" >/dev/null 2>&1
ours=$(median_ms "$tools/nexus.json")
theirs=$(median_ms "$tools/progenitor.json")
row '`import` + every artifact vs `cargo progenitor` (client only), Oxide `nexus.json`' "$ours ms vs $theirs ms: $(python3 -c "print('%.2f' % ($theirs / $ours))")× faster" '≥ 3× faster' "peak RSS $(peak_mib "$nexus") MiB vs $(peak_mib "$prog") MiB"

# 4. Debug build of the two generated clients, dependencies built first: the build after touching
# the generated sources (ours: the types and client crates; theirs: the one crate).
if [ "${BENCH_BUILDS:-1}" != 0 ]; then
    bash -c "$nexus" >/dev/null 2>&1
    bash -c "$prog" >/dev/null 2>&1
    # The crate progenitor writes sits under this repository's workspace: it is one of its own.
    printf '\n[workspace]\n' >>"$tools/nexus-progenitor/Cargo.toml"
    ours_dir=$tools/nexus/generated
    theirs_dir=$tools/nexus-progenitor
    export CARGO_TARGET_DIR=$tools/client-builds
    (cd "$ours_dir" && cargo build -q -p "$(sed -n 's/^name = "\(.*\)"/\1/p' client/Cargo.toml)")
    (cd "$theirs_dir" && cargo build -q)
    client=$(sed -n 's/^name = "\(.*\)"/\1/p' "$ours_dir/client/Cargo.toml")
    hyperfine --shell bash -w 0 -r 3 --export-json "$tools/build-ours.json" \
        --prepare "touch $ours_dir/types/src/lib.rs $ours_dir/client/src/lib.rs" \
        "cd $ours_dir && cargo build -q -p $client" >/dev/null 2>&1
    hyperfine --shell bash -w 0 -r 3 --export-json "$tools/build-theirs.json" \
        --prepare "touch $theirs_dir/src/lib.rs" "cd $theirs_dir && cargo build -q" >/dev/null 2>&1
    unset CARGO_TARGET_DIR
    ours=$(median_ms "$tools/build-ours.json")
    theirs=$(median_ms "$tools/build-theirs.json")
    row 'debug build, our generated client (types + client) vs progenitor'"'"'s, `nexus.json`, dependencies prebuilt' "$ours ms vs $theirs ms: $(python3 -c "print('%.2f' % ($ours / $theirs))")×" '≤ 1.0×' ''
fi

# 5. and 6. The generated router against hand-written axum routes, per request.
instructions() { # side, route, requests
    local out=$tools/callgrind.out
    valgrind --tool=callgrind --callgrind-out-file="$out" "$cost" "$1" "$2" "$3" >/dev/null 2>&1
    sed -n 's/^summary: \([0-9]*\).*/\1/p' "$out"
}
# Instructions of serving `requests` requests: the run minus the same run that builds the
# requests and drops them, so start-up and building the requests cancel out.
per_request() { # side, route
    local n=2000
    echo $(( ($(instructions "$1" "$2" $n) - $(instructions none "$2" $n)) / n ))
}
# One run of the counting allocator: "<allocations per request> <largest block in bytes>".
allocations() { "$cost" "$1" "$2" 10000 | sed -n 's/.*: \([0-9.]*\) allocations per request, the largest \([0-9]*\) bytes.*/\1 \2/p'; }
for route in put get; do
    generated=$(per_request generated $route)
    hand=$(per_request hand $route)
    name=$([ $route = put ] && echo 'PUT Set Voice Channel Status' || echo 'GET Get Current User Connections')
    row "instructions per request, $name" "$generated vs $hand hand-written: $(python3 -c "print('%.2f' % ($generated / $hand))")×" '≤ 1.1×' ''
    read -r generated_allocations generated_largest <<<"$(allocations generated $route)"
    read -r hand_allocations hand_largest <<<"$(allocations hand $route)"
    row "allocations per request, $name" "$generated_allocations vs $hand_allocations hand-written" '≤ hand-written + 2' \
        "largest block $generated_largest vs $hand_largest bytes (glibc's per-thread cache serves up to 1,032)"
done

# 6b. The client's rate limiter, per call: the same calls with and without it, the in-process
# mock server included in both (examples/client_cost.rs).
client_instructions() { # side, calls
    local out=$tools/callgrind-client.out
    valgrind --tool=callgrind --callgrind-out-file="$out" "$client_cost" "$1" "$2" >/dev/null 2>&1
    sed -n 's/^summary: \([0-9]*\).*/\1/p' "$out"
}
calls=300
start_up=$(client_instructions none $calls)
limited=$(( ($(client_instructions limited $calls) - start_up) / calls ))
plain=$(( ($(client_instructions plain $calls) - start_up) / calls ))
row 'instructions per call, shapes client `GET /notes/{id}` with its rate limiter vs without (loopback, the mock server in the same process)' "$limited vs $plain: $(python3 -c "print('%.3f' % ($limited / $plain))")×" '' "the limiter's own cost: $((limited - plain)) per call"

# 7. A no-op `cargo build` writes nothing under generated/.
cargo build -q --locked -p platform-server
stamp=$tools/noop.stamp
touch "$stamp"
sleep 1
cargo build -q --locked -p platform-server
written=$(find generated -newer "$stamp" -type f | wc -l)
row 'files written by a no-op `cargo build` (no spec change)' "$written" '0' ''

echo "| figure | measured | goal | notes |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
