# Sourced by scripts that need the generated crates of Discord's API with its Gateway v10:
# `discord_gateway_crates DIR` imports Discord's OpenAPI document into DIR/spec, adds the spec
# files written beside the import (tests/discord_api/spec/: the Gateway and the interactions),
# and generates every crate into DIR/out. Needs `root` (the checkout) set; Cargo's output goes to
# stderr, so a caller's stdout stays its own.
discord_gateway_crates() {
  local dir=$1
  cargo build -q --locked --manifest-path "$root/Cargo.toml" -p platform-codegen >&2
  local codegen="$root/target/debug/platform-codegen"
  mkdir -p "$dir/spec"
  if ! "$codegen" import openapi "$root/tests/data/openapi/discord/openapi.json" --out "$dir/spec" >"$dir/import.log" 2>&1; then
    cat "$dir/import.log" >&2
    return 2
  fi
  cp "$root"/tests/discord_api/spec/*.yaml "$dir/spec/"
  "$codegen" --spec "$dir/spec" --out "$dir/out" generate >/dev/null
}
