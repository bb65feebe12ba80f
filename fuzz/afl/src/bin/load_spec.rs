//! `load_spec` under AFL++: loader, validator, diagnostics and every emitter.

fn main() {
    afl::fuzz!(|data: &[u8]| platform_fuzz::targets::load_spec(data));
}
