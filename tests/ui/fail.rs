//! The proc macros' compile-fail cases: each `fail/*.rs` fails to compile with exactly the
//! diagnostics of its `.stderr` (bless with `UPDATE_EXPECT=1`). The pass cases are test targets
//! of this crate; this file also holds their list to `pass/`.
//!
//! The cases are checked by rustc directly, against the libraries the workspace's own build
//! made. `cargo build --workspace --all-targets --message-format=json` names them; after the test
//! command's build it has nothing left to do. A project of their own, as trybuild makes, would
//! build its whole dependency tree again with other flags: about four minutes of a cold run on
//! two cores, for cases that take a second each.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates the cases name, as `extern` crates. Each must be built once by the workspace's
/// build: a registry crate its proc macros also use may be built twice (once for them), and
/// which copy the workspace's libraries link is not something Cargo says.
const CRATES: &[&str] = &["platform", "platform_server", "widget_types", "widget_client", "serde"];

/// This crate's directory: the cases are compiled from here, so diagnostics say `fail/x.rs`.
fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The compiler of the toolchain that runs this test (Cargo's sibling), which built the libraries.
fn rustc() -> PathBuf {
    let cargo = PathBuf::from(std::env::var_os("CARGO").expect("the test runs under cargo, which sets CARGO"));
    let sibling = cargo.with_file_name(format!("rustc{}", std::env::consts::EXE_SUFFIX));
    if sibling.is_file() { sibling } else { PathBuf::from("rustc") }
}

/// The libraries the cases link: each crate of [`CRATES`] with its compiled `.rlib`.
struct Libraries {
    externs: Vec<(&'static str, PathBuf)>,
    /// Where their own dependencies are (`-L dependency=`).
    deps: PathBuf,
}

/// Asks Cargo for the workspace build's libraries (building whatever is stale first).
fn libraries() -> Libraries {
    let out = Command::new(std::env::var_os("CARGO").expect("CARGO"))
        .args(["build", "--workspace", "--all-targets", "--message-format=json"])
        .args(platform_specgen::harness::Clippy::inherited_args())
        .current_dir(here())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "the workspace does not build:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut found: Vec<(&'static str, PathBuf)> = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if message["reason"] != "compiler-artifact" || !message["target"]["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == "lib")) {
            continue;
        }
        let name = message["target"]["name"].as_str().unwrap_or_default().replace('-', "_");
        let Some(krate) = CRATES.iter().find(|c| **c == name) else { continue };
        let rlibs = message["filenames"].as_array().into_iter().flatten().filter_map(|f| f.as_str()).filter(|f| f.ends_with(".rlib"));
        for rlib in rlibs {
            if !found.iter().any(|(c, p)| c == krate && p == Path::new(rlib)) {
                found.push((krate, PathBuf::from(rlib)));
            }
        }
    }
    for krate in CRATES {
        let paths: Vec<_> = found.iter().filter(|(c, _)| c == krate).map(|(_, p)| p.display().to_string()).collect();
        assert!(paths.len() == 1, "the workspace build made {} libraries of `{krate}`, the cases need one: {paths:?}", paths.len());
    }
    let deps = found[0].1.parent().expect("a library lives in deps/").to_path_buf();
    Libraries { externs: found, deps }
}

/// The cases of `dir`, sorted.
fn cases(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(here().join(dir))
        .unwrap_or_else(|e| panic!("{dir}/: {e}"))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| Path::new(dir).join(p.file_name().expect("a file name")))
        .collect();
    out.sort();
    out
}

/// rustc checking one case (`--emit=metadata`: no code is generated).
fn check(libraries: &Libraries, case: &Path, out: &Path) -> std::process::Output {
    let stem = case.file_stem().expect("a file name").to_string_lossy().into_owned();
    let mut cmd = Command::new(rustc());
    cmd.current_dir(here())
        .args(["--edition=2024", "--crate-type=bin", "--color=never", "--diagnostic-width=140"])
        .arg(format!("--crate-name={stem}"))
        .arg("--emit=metadata")
        .arg("-L")
        .arg(format!("dependency={}", libraries.deps.display()));
    for (krate, rlib) in &libraries.externs {
        cmd.arg("--extern").arg(format!("{krate}={}", rlib.display()));
    }
    cmd.arg(case).arg("-o").arg(out.join(&stem));
    cmd.output().expect("rustc runs")
}

/// rustc's diagnostics without its closing summary lines, which count rather than say, and
/// without the spaces it leaves at the end of a message's empty lines.
fn normalized(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let summary = |line: &str| {
        line.starts_with("error: aborting due to")
            || line.starts_with("For more information about")
            || line.starts_with("Some errors have detailed explanations")
            || (line.starts_with("warning: ") && line.ends_with(" emitted"))
    };
    let kept: Vec<&str> = text.lines().filter(|l| !summary(l)).map(str::trim_end).collect();
    format!("{}\n", kept.join("\n").trim_end())
}

/// Runs `check` over every case on as many threads as the machine runs at once.
fn each_case(cases: &[PathBuf], check: impl Fn(&Path) -> Option<String> + Sync) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut failures = Vec::new();
                    while let Some(case) = cases.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        failures.extend(check(case));
                    }
                    failures
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a case thread")).collect()
    })
}

#[test]
fn fail_cases_give_their_diagnostics() {
    let libraries = libraries();
    let out = tempfile::tempdir().expect("a scratch directory");
    let fail = cases("fail");
    assert!(!fail.is_empty(), "no cases under fail/");
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let failures = each_case(&fail, |case| {
        let checked = check(&libraries, case, out.path());
        if checked.status.success() {
            return Some(format!("{} compiles, and should not", case.display()));
        }
        let actual = normalized(&checked.stderr);
        let expected_path = here().join(case.with_extension("stderr"));
        if bless {
            std::fs::write(&expected_path, &actual).expect("write the expected diagnostics");
            return None;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        (expected != actual)
            .then(|| format!("{} gives other diagnostics than {}:\n--- expected\n{expected}\n--- actual\n{actual}", case.display(), expected_path.display()))
    });
    assert!(failures.is_empty(), "{}\n(re-bless the expected diagnostics with UPDATE_EXPECT=1)", failures.join("\n\n"));
}

/// Every `pass/*.rs` is a test target of this crate, so the build compiles it and `cargo test`
/// runs it: a case added to the directory but not to `Cargo.toml` would never run.
#[test]
fn every_pass_case_is_a_test_target() {
    let manifest = std::fs::read_to_string(here().join("Cargo.toml")).expect("Cargo.toml");
    let missing: Vec<String> =
        cases("pass").iter().map(|case| case.display().to_string()).filter(|case| !manifest.contains(&format!("path = \"{case}\""))).collect();
    assert!(missing.is_empty(), "pass cases that are not test targets in tests/ui/Cargo.toml (add a `[[test]]` with `harness = false`): {missing:?}");
}
