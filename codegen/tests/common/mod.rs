//! What the generator's scratch-build tests share.

use std::path::Path;
use std::process::Command;

/// `build.rustc-workspace-wrapper="<clippy-driver>"`, for `cargo --config`: a build that is also
/// the clippy run, as `cargo clippy` runs clippy-driver, so each crate compiles once, linted on
/// the way. The lints' arguments go in [`CLIPPY_ARGS`], as `cargo clippy` passes them.
pub fn clippy_wrapper() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).args(["--print", "sysroot"]).output().expect("rustc runs");
    let driver = Path::new(String::from_utf8(out.stdout).expect("a UTF-8 sysroot").trim()).join("bin/clippy-driver");
    assert!(driver.is_file(), "{} is missing: `rustup component add clippy`", driver.display());
    format!("build.rustc-workspace-wrapper={:?}", driver.display().to_string())
}

/// `cargo clippy -- -D warnings`'s arguments for clippy-driver, as an environment variable.
pub const CLIPPY_ARGS: (&str, &str) = ("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
