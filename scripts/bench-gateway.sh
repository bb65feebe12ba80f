#!/usr/bin/env bash
# Decoding Discord Gateway v10 dispatch frames, side by side in one criterion run: the crates
# generated for Discord's API and Gateway against `twilight-model` (a dependency of this bench
# only, never of the project's build or tests). Prints allocations per event, then criterion's
# times and events per second.
#
#   ./scripts/bench-gateway.sh [criterion arguments]
#
# The generated crates and the bench crate live under target/gateway-bench; the bench itself is
# tools/gateway-bench/decode.rs, the frames tools/gateway-bench/frames.jsonl.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/target/gateway-bench"
export CARGO_TARGET_DIR="$root/target"
export CARGO_INCREMENTAL=0
. "$root/scripts/lib/discord-gateway.sh"
discord_gateway_crates "$dir"
mkdir -p "$dir/bench"
cat > "$dir/bench/Cargo.toml" <<TOML
# Written by scripts/bench-gateway.sh.
[package]
name = "gateway-bench"
version = "0.1.0"
edition = "2024"
publish = false

[[bench]]
name = "gateway_decode"
path = "$root/tools/gateway-bench/decode.rs"
harness = false

[dependencies]
criterion = { version = "0.7", default-features = false, features = ["cargo_bench_support"] }
discord-types = { path = "../out/types" }
serde = "1"
serde_json = { version = "1", features = ["preserve_order"] }
twilight-model = "0.17"

[profile.bench]
debug = 1

[workspace]
TOML
[ -f "$dir/bench/Cargo.lock" ] || cp "$root/Cargo.lock" "$dir/bench/Cargo.lock"
cargo bench -q --manifest-path "$dir/bench/Cargo.toml" --bench gateway_decode -- "$@"
