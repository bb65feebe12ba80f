//! `diff`'s verdict for Rust, checked against an independent oracle: cargo-semver-checks.
//!
//! For each case of a fixed sample of `tests/diff/` (one per kind of Rust consequence: a field, a
//! value, a variant, a status, an endpoint, an event added or removed, a type or a presence
//! changed), the old and the new spec are generated, one after the other, into the same scratch
//! workspace (so what did not change is not compiled again), the rustdoc JSON of each generated
//! crate is written, and `cargo semver-checks check-release --release-type minor` compares the
//! two. `diff` must call the case breaking for Rust exactly when the tool finds a breaking
//! change in some crate, or the case is listed in [`BLIND`] with the reason the tool cannot see
//! it. `scripts/semver-checks.sh` runs every case of the catalogue the same way.
//!
//! The tool is installed by the test command (`scripts/test.sh`, into the Cargo home); the test
//! fails when it is missing (set `CARGO_SEMVER_CHECKS` to use another copy).

use crate::diff_cases;

use diff_cases::{catalogue, diff_says_breaking, repo};
use platform_specgen::harness::{self, Source};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cases checked on every run: each is a kind of edit a platform makes, and together they
/// take both sides of every Rust rule the evolution design decides.
const SAMPLE: &[&str] = &[
    "field-added",
    "request-field-added-required",
    "field-removed",
    "field-type-changed",
    "field-presence-changed",
    "enum-value-added",
    "enum-value-removed",
    "union-variant-added",
    "union-variant-added+accessor",
    "response-status-added",
    "item-added",
    "item-added+endpoint",
    "endpoint-routed",
    "item-removed",
    "gateway-event-added",
    "webhook-event-added",
    "field-wire-name-changed",
    "endpoint-body-format-added",
    "change-removed",
    "flag-bit-changed",
];

/// Cases whose Rust break the tool cannot see, with the reason.
const BLIND: &[(&str, &str)] = &[
    (
        "field-type-generalized",
        "`i32` becoming `i64` is a type change of a public field and of `new`'s and the setter's `impl Into<T>`, which cargo-semver-checks 0.51 does not compare",
    ),
    (
        "map-key-type-changed",
        "a map's key type is a type change of a public field and of `impl Into<T>` parameters, which cargo-semver-checks 0.51 does not compare",
    ),
    (
        "map-value-type-changed",
        "a map's value type is a type change of a public field and of `impl Into<T>` parameters, which cargo-semver-checks 0.51 does not compare",
    ),
    (
        "field-became-non-nullable",
        "`Option<String>` becoming `String` is a type change of a public field, and the struct's derived `Default` gives way to `new`: cargo-semver-checks 0.51 sees neither",
    ),
    ("union-variant-type-changed", "a tuple variant's field type (`Integer(i64)` to `Integer(f64)`), which cargo-semver-checks 0.51 does not compare"),
    (
        "flags-width-changed",
        "`u64` becoming `u32` in the flag set's tuple field and in `from_bits` and `bits`, types cargo-semver-checks 0.51 does not compare",
    ),
    ("field-type-changed", "cargo-semver-checks 0.51 does not compare the types of public fields, nor the `T` of a setter's `impl Into<T>`"),
    (
        "field-presence-changed",
        "`T` becoming `Option<T>` is a type change of a public field and of a setter's `impl Into<T>`, which cargo-semver-checks 0.51 does not compare",
    ),
];

/// The crates whose public API callers write against (the runtime is the same on both sides).
const CRATES: &[&str] = &["types", "server", "client"];

/// The cargo-semver-checks binary: `CARGO_SEMVER_CHECKS` (the test command sets it to the copy
/// it installs), else the one on `PATH`.
fn tool() -> PathBuf {
    wait_for_install();
    let path = std::env::var_os("CARGO_SEMVER_CHECKS").map(PathBuf::from).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).map(|d| d.join("cargo-semver-checks")).find(|p| p.is_file())
    });
    match path {
        Some(path) if path.is_file() => path,
        _ => panic!("cargo-semver-checks is not installed: run ./scripts/test.sh, which installs it, or set CARGO_SEMVER_CHECKS"),
    }
}

/// Waits while the test command installs the tool beside the tests: it holds the file
/// `CARGO_SEMVER_CHECKS_LOCK` names locked until the install ends (a file never locked, or
/// none, does not wait).
#[allow(clippy::incompatible_msrv, reason = "the tests run on the test command's toolchain; the rust-version is the crates' users'")]
fn wait_for_install() {
    let Some(lock) = std::env::var_os("CARGO_SEMVER_CHECKS_LOCK") else { return };
    let Ok(file) = std::fs::File::open(&lock) else { return };
    if let Err(e) = file.lock_shared() {
        panic!("cannot wait for the install of cargo-semver-checks (a shared lock on {}): {e}", Path::new(&lock).display());
    }
}

/// The rustdoc JSON of every crate of the spec in `spec`, generated into `root` (the same
/// directory for every side), copied to `into`. One `cargo doc` documents the three crates, so
/// the server's and the client's run side by side once the types crate is checked.
fn rustdoc(root: &Path, target: &Path, spec: &Path, into: &Path) -> Result<Documented, String> {
    let members = harness::prepare(root, &[Source::Spec(spec.to_owned())]);
    harness::write_workspace(root, &members, &repo());
    std::fs::create_dir_all(into).expect("create the rustdoc directory");
    let member = &members[0];
    let packages: Vec<(&str, &String)> = CRATES
        .iter()
        .map(|c| {
            let index = platform_codegen::emit::cargo::CRATES.iter().position(|x| x == c).expect("a generated crate");
            (*c, &member.packages[index])
        })
        .collect();
    let written = |package: &str| target.join("doc").join(format!("{}.json", package.replace('-', "_")));
    // The other side's files must not pass for this one's, should rustdoc not write them.
    for (_, package) in &packages {
        let _ = std::fs::remove_file(written(package));
    }
    let features = api_features(member);
    let mut args = vec!["doc", "--no-deps", "--features", features.as_str()];
    args.extend(packages.iter().flat_map(|(_, p)| ["-p", p.as_str()]));
    let rustdoc = json_rustdoc(target);
    let env = [("RUSTDOC", rustdoc.to_str().expect("a UTF-8 path")), ("RUSTDOCFLAGS", "-Zunstable-options --output-format json")];
    let out = harness::cargo_with(root, target, &args, &env);
    if !out.status.success() {
        return Err(format!("rustdoc JSON of {}:\n{}", spec.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(packages
        .iter()
        .map(|(c, package)| {
            let (from, copy) = (written(package), into.join(format!("{}.json", package.replace('-', "_"))));
            std::fs::copy(&from, &copy).unwrap_or_else(|e| panic!("rustdoc wrote no {}: {e}", from.display()));
            ((*c).to_owned(), copy)
        })
        .collect())
}

/// A rustdoc that may take unstable options (`--output-format json`): the toolchain's, run with
/// `RUSTC_BOOTSTRAP=1`. Given to rustdoc alone, not to the whole `cargo doc`: the build scripts
/// of dependencies (proc-macro2's among them) watch that variable, and the dependencies this
/// build shares with every other scratch build would be compiled again by each build after a
/// change of it, one way and back.
fn json_rustdoc(target: &Path) -> PathBuf {
    let path = target.join("rustdoc-json");
    let toolchain = std::env::var("RUSTDOC").unwrap_or_else(|_| "rustdoc".to_owned());
    let script = format!("#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec {toolchain:?} \"$@\"\n");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(script.as_str()) {
        // Written beside and renamed into place: tests running at once may be executing it.
        use std::os::unix::fs::PermissionsExt;
        let fresh = target.join(format!("rustdoc-json.{}.{:?}", std::process::id(), std::thread::current().id()));
        std::fs::write(&fresh, script).expect("write the rustdoc wrapper");
        std::fs::set_permissions(&fresh, std::fs::Permissions::from_mode(0o755)).expect("make the rustdoc wrapper executable");
        std::fs::rename(&fresh, &path).expect("put the rustdoc wrapper in place");
    }
    path
}

/// Every feature of the member's crates that adds API, as `--features` takes them
/// (`shapes-client/webhooks,...`): all but the TLS ones (`rustls`, `gateway-rustls`), which
/// choose a transport and add no item, and would compile a TLS stack with its C library (for
/// rustdoc, in check mode) for nothing.
fn api_features(member: &harness::Member) -> String {
    let mut out = Vec::new();
    for (krate, package) in platform_codegen::emit::cargo::CRATES.iter().zip(&member.packages) {
        if !CRATES.contains(krate) {
            continue;
        }
        let manifest = std::fs::read_to_string(member.out.join(krate).join("Cargo.toml")).expect("a generated manifest");
        let table = manifest.split("\n[features]\n").nth(1).map_or("", |rest| rest.split("\n[").next().unwrap_or(rest));
        let names = table.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once(" = ")).map(|(name, _)| name.trim());
        out.extend(names.filter(|n| *n != "default" && !n.ends_with("rustls")).map(|n| format!("{package}/{n}")));
    }
    out.join(",")
}

/// A spec directory by its content: every file's path under it and bytes.
type SpecKey = std::collections::BTreeMap<PathBuf, Vec<u8>>;

/// The rustdoc JSON file of each crate of a spec, by the crate's name in [`CRATES`].
type Documented = Vec<(String, PathBuf)>;

/// The breaking changes cargo-semver-checks finds between two rustdoc JSON files, in its words
/// (empty when none).
fn semver_checks(tool: &Path, old: &Path, new: &Path) -> String {
    let out = Command::new(tool)
        .args(["semver-checks", "check-release", "--release-type", "minor", "--color", "never", "--baseline-rustdoc"])
        .arg(old)
        .arg("--current-rustdoc")
        .arg(new)
        .output()
        .expect("cargo-semver-checks runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Breaking changes found: a non-zero exit with a report of each failed lint.
    match out.status.code() {
        Some(0) => String::new(),
        Some(_) if text.contains("--- failure ") => text,
        _ => panic!("cargo-semver-checks failed to compare {} and {}:\n{text}", old.display(), new.display()),
    }
}

/// Compares each case's verdict; the disagreements, in words.
fn disagreements(cases: &[&str]) -> Vec<String> {
    let tool = tool();
    let target = harness::test_scratch_target();
    std::fs::create_dir_all(&target).expect("create the scratch target directory");
    let scratch = tempfile::tempdir_in(&target).expect("a scratch directory");
    let root = scratch.path().join("ws");
    let mut out = Vec::new();
    // Cases that start from, or end at, the same spec share its rustdoc JSON.
    let mut documented: HashMap<SpecKey, Documented> = HashMap::new();
    for name in cases {
        let case = diff_cases::case(name);
        let ours = diff_says_breaking(&case, |a| a.rust);
        let json = scratch.path().join("json").join(name);
        // A side whose crates do not build is a failure of its own, and the other cases go on.
        let mut side = |which: &str| -> Result<Documented, String> {
            let key = crate::tree::contents(&case.join(which));
            if let Some(done) = documented.get(&key) {
                return Ok(done.clone());
            }
            let written = rustdoc(&root, &target, &case.join(which), &json.join(which))?;
            documented.insert(key, written.clone());
            Ok(written)
        };
        let sides = side("old").and_then(|old| Ok((old, side("new")?)));
        let (old, new) = match sides {
            Ok(sides) => sides,
            Err(e) => {
                out.push(format!("{name}: {e}"));
                continue;
            }
        };
        let found: Vec<String> = old
            .iter()
            .zip(&new)
            .map(|((c, a), (_, b))| (c, semver_checks(&tool, a, b)))
            .filter(|(_, t)| !t.is_empty())
            .map(|(c, t)| format!("[{c}] {t}"))
            .collect();
        let theirs = !found.is_empty();
        let blind = BLIND.iter().find(|(c, _)| c == name);
        match (ours, theirs, blind) {
            (a, b, None) if a == b => {}
            (true, false, Some(_)) => {}
            _ => out.push(format!(
                "{name}: diff says {} for Rust, cargo-semver-checks {}{}",
                if ours { "breaking" } else { "compatible" },
                if theirs { "finds:\n" } else { "finds nothing" },
                found.join("\n")
            )),
        }
    }
    out
}

#[test]
fn diff_and_cargo_semver_checks_agree_on_the_sample() {
    let all = std::env::var_os("SEMVER_CHECKS_ALL").is_some();
    // `SEMVER_CHECKS_CASES=a,b` checks those cases alone (`scripts/semver-checks.sh a b`).
    let chosen = std::env::var("SEMVER_CHECKS_CASES").ok().filter(|c| !c.is_empty());
    let cases: Vec<String> = match (&chosen, all) {
        (Some(list), _) => list.split(',').map(str::to_owned).collect(),
        (None, true) => catalogue(),
        (None, false) => SAMPLE.iter().map(|s| (*s).to_owned()).collect(),
    };
    for (case, _) in BLIND {
        assert!(cases.iter().any(|c| c == case) || !all || chosen.is_some(), "{case} is blind but not a case");
    }
    let names: Vec<&str> = cases.iter().map(String::as_str).collect();
    let found = disagreements(&names);
    assert!(found.is_empty(), "{} of {} cases disagree or do not build:\n\n{}", found.len(), names.len(), found.join("\n\n"));
}
