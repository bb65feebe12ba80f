#!/usr/bin/env bash
# A server under sustained load on loopback: wrk sends a mix of valid and malformed requests
# (scripts/load/mix.lua) while scripts/load/abuse.py streams bodies past the upload cap and sends
# request bodies and heads too slowly. The server's resident memory is sampled every tenth of a
# second. The server is the reference server (`reference`: the in-memory platform) or the
# generated mock served by it (`mock`: `reference_server --mock`), with the same options and
# connection loop.
#
#   scripts/load.sh [SECONDS] [MAX_REQUESTS] [reference|mock]
#                                                defaults: 300 s, 50 million requests, reference
#
# Prints the figures and one `LOAD_SUMMARY {json}` line; exits 1 when any answer was a 5xx, a
# slow sender was not cut within the timeout, or resident memory grew more than 10% after the
# warm-up (the first fifth of the run). SERVER_BIN names a built reference server; otherwise it
# is built (debug profile) first.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
max_requests=${2:-50000000}
server=${3:-reference}
case "$server" in
  reference) server_args=() ;;
  mock) server_args=(--mock) ;;
  *) echo "error: the server is \`reference\` or \`mock\`, not \`$server\`" >&2; exit 2 ;;
esac
timeout_ms=2000
connections=32
threads=2
command -v wrk >/dev/null || { echo "error: wrk is not installed (Debian package \`wrk\`; scripts/test.sh installs it)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "error: python3 is not installed" >&2; exit 2; }

if [ -z "${SERVER_BIN:-}" ]; then
  # Under scripts/test.sh (CLIPPY_ARGS set) the workspace was built with clippy-driver as its
  # wrapper: build the same way, or every crate of the server compiles again without it.
  wrapper=()
  if [ -n "${CLIPPY_ARGS:-}" ]; then
    wrapper=(--config "build.rustc-workspace-wrapper=\"$(rustc --print sysroot)/bin/clippy-driver\"")
  fi
  cargo build -q --locked "${wrapper[@]}" --workspace --example reference_server
  SERVER_BIN=target/debug/examples/reference_server
fi
work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# glibc raises its mmap threshold to the size of the largest block freed so far: once a refused
# 20 MiB body has been freed, the next ones come from the heap, which glibc keeps, and the
# resident floor jumps by 20 MiB once and stays there. A fixed threshold keeps large buffers in
# mmap and returns them on free, so that resident memory shows what the server holds on to.
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 \
  "$SERVER_BIN" "${server_args[@]}" --listen 127.0.0.1:0 --header-timeout-ms "$timeout_ms" --body-timeout-ms "$timeout_ms" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
origin=$(sed -n 's/^listening on \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$work/server.out")
[ -n "$origin" ] || { echo "error: the server did not start" >&2; cat "$work/server.err" >&2; exit 2; }
echo "load: the $server server, $seconds s against $origin ($SERVER_BIN), $connections connections, at most $max_requests requests"

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status"; }
( while kill -0 "$server_pid" 2>/dev/null; do echo "$(date +%s.%N) $(rss)"; sleep 0.1; done ) >"$work/rss" 2>/dev/null &
sampler=$!

python3 scripts/load/abuse.py "${origin#http://}" "$seconds" "$timeout_ms" 20971520 >"$work/abuse.out" 2>"$work/abuse.err" &
abuse=$!
LOAD_MAX_REQUESTS=$max_requests LOAD_THREADS=$threads \
  wrk -t "$threads" -c "$connections" -d "${seconds}s" --timeout 10s --latency -s scripts/load/mix.lua "$origin" >"$work/wrk.out" 2>&1 || true
wait "$abuse" || true
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
alive=true
kill -0 "$server_pid" 2>/dev/null || alive=false

sed -n '/Latency Distribution/,/requests in/p' "$work/wrk.out"
python3 - "$work" "$seconds" "$alive" "$server" <<'PY'
import json, sys
work, seconds, alive, server = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "true", sys.argv[4]
def line(path, tag):
    for l in open(path):
        if l.startswith(tag + " "):
            return json.loads(l[len(tag) + 1:])
    sys.exit(f"error: no {tag} line in {path}:\n" + open(path).read()[-2000:])
wrk = line(f"{work}/wrk.out", "LOAD_RESULT")
abuse = line(f"{work}/abuse.out", "LOAD_ABUSE")
samples = [(float(t), int(r)) for t, r in (l.split() for l in open(f"{work}/rss") if len(l.split()) == 2)]
start = samples[0][0]
warm = start + seconds / 5
after = [r for t, r in samples if t >= warm]
# The floor (least sample) of the first and of the last tenth after the warm-up: a body of up to
# 20 MiB is held while it is refused, so single samples swing by tens of MiB; what the server
# keeps between requests is the floor, and a leak raises it.
k = max(3, len(after) // 10)
baseline, final = min(after[:k]), min(after[-k:])
growth = (final - baseline) / baseline
abuse_5xx = sum(v for s, v in abuse["status"].items() if s.isdigit() and int(s) >= 500)
summary = {
    "server": server, "seconds": seconds, "requests": wrk["requests"], "requests_per_s": round(wrk["requests"] / (wrk["duration_us"] / 1e6)),
    "p50_ms": wrk["p50_us"] / 1000, "p90_ms": wrk["p90_us"] / 1000, "p99_ms": wrk["p99_us"] / 1000, "max_ms": wrk["max_us"] / 1000,
    "status": {k: wrk["status_" + k] for k in ("2xx", "3xx", "4xx", "5xx", "other")},
    "socket_errors": {k: wrk["errors_" + k] for k in ("connect", "read", "write", "timeout")},
    "abuse": abuse, "rss_kib": {"warm": baseline, "end": final, "peak": max(r for _, r in samples), "growth_pct": round(growth * 100, 1), "samples": len(samples)},
    "server_alive": alive,
}
step = max(1, len(samples) // 30)
print("resident memory, MiB: " + " ".join(f"{r / 1024:.0f}" for _, r in samples[::step]))
print("LOAD_SUMMARY " + json.dumps(summary, sort_keys=True))
problems = []
if wrk["status_5xx"] or abuse_5xx:
    problems.append(f"{wrk['status_5xx'] + abuse_5xx} answers were 5xx")
if abuse["uncut"]:
    problems.append(f"{abuse['uncut']} slow senders were not cut within the timeout")
if abuse["failures"]:
    problems.append("abuse: " + "; ".join(abuse["failures"]))
if growth > 0.10:
    problems.append(f"resident memory grew {growth:.1%} after the warm-up ({baseline} -> {final} KiB)")
if not alive:
    problems.append("the server died")
for p in problems:
    print("error: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
