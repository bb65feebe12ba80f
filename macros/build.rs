//! Points the macros at the workspace's `spec/` and re-runs when it changes, so a downstream
//! crate needs no spec file of its own.

fn main() {
    let manifest = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let spec = manifest.join("../spec");
    let spec = spec.canonicalize().unwrap_or(spec);
    println!("cargo::rerun-if-changed={}", spec.display());
    println!("cargo::rustc-env=PLATFORM_SPEC_DIR={}", spec.display());
}
