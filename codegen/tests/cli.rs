//! The command line contract: exit codes, check mode, and nothing lost on a broken spec.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_platform-codegen")).args(args).current_dir(dir).output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy_dir(&path, &target) } else { std::fs::copy(&path, &target).map(drop).unwrap() }
    }
}

#[test]
fn check_exits_0_on_the_shipped_spec() {
    let out = run(&["check"], &workspace());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn check_exits_1_on_an_invalid_spec_with_a_located_diagnostic() {
    let case = workspace().join("tests/diagnostics/e0102_unresolved_permission");
    let out = run(&["--spec", case.to_str().unwrap(), "check"], &workspace());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[E0102]: unknown permission `PIN_MESAGES`"), "{stderr}");
    assert!(stderr.contains("spec.yaml:9:11"), "{stderr}");
    assert!(stderr.contains("help: did you mean `PIN_MESSAGES`?"), "{stderr}");
}

#[test]
fn check_exits_2_on_usage_and_io_errors() {
    let out = run(&["--spec", "/nonexistent/spec", "check"], &workspace());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = run(&["frobnicate"], &workspace());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn json_format_gives_one_object_per_line() {
    let case = workspace().join("tests/diagnostics/e0103_duplicate_bit");
    let out = run(&["--spec", case.to_str().unwrap(), "--format", "json", "check"], &workspace());
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["code"], "E0103");
    assert_eq!(lines[0]["location"]["line"], 7);
}

#[test]
fn an_invalid_spec_never_touches_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("spec");
    let out_dir = tmp.path().join("generated");
    copy_dir(&workspace().join("tests/fixtures/minimal"), &spec);
    std::fs::remove_dir_all(spec.join("expected")).ok();
    let args = ["--spec", spec.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "generate"];
    let first = run(&args, tmp.path());
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let before = std::fs::read(out_dir.join("model.json")).unwrap();
    std::fs::write(spec.join("broken.yaml"), "permissions:\n  - { id: VIEW_WIDGET, bit: 99 }\n").unwrap();
    let second = run(&args, tmp.path());
    assert_eq!(second.status.code(), Some(1), "{}", text(&second));
    assert_eq!(std::fs::read(out_dir.join("model.json")).unwrap(), before, "a broken spec changed generated/");
}

#[test]
fn generate_check_lists_stale_missing_and_orphan_files_and_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("spec");
    copy_dir(&workspace().join("tests/fixtures/minimal"), &spec);
    std::fs::remove_dir_all(spec.join("expected")).ok();
    let out_dir = tmp.path().join("generated");
    let base = ["--spec", spec.to_str().unwrap(), "--out", out_dir.to_str().unwrap()];
    let generate = |extra: &[&str]| run(&[&base[..], &["generate"], extra].concat(), tmp.path());
    assert_eq!(generate(&[]).status.code(), Some(0));
    assert_eq!(generate(&["--check"]).status.code(), Some(0), "fresh output must pass --check");
    std::fs::write(out_dir.join("model.json"), "{}\n").unwrap();
    std::fs::write(out_dir.join("orphan.txt"), "left over\n").unwrap();
    let out = generate(&["--check"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stale: ") && stderr.contains("model.json"), "{stderr}");
    assert!(stderr.contains("orphan: ") && stderr.contains("orphan.txt"), "{stderr}");
    assert!(stderr.contains("cargo run -p platform-codegen -- generate"), "{stderr}");
    assert_eq!(std::fs::read_to_string(out_dir.join("model.json")).unwrap(), "{}\n", "--check must not write");
    assert_eq!(generate(&[]).status.code(), Some(0));
    assert!(!out_dir.join("orphan.txt").exists(), "orphans are removed");
    let mtime = std::fs::metadata(out_dir.join("model.json")).unwrap().modified().unwrap();
    assert_eq!(generate(&[]).status.code(), Some(0));
    assert_eq!(std::fs::metadata(out_dir.join("model.json")).unwrap().modified().unwrap(), mtime, "unchanged files are not rewritten");
}

#[test]
fn dump_and_coverage_describe_the_model() {
    let out = run(&["dump"], &workspace());
    assert_eq!(out.status.code(), Some(0));
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(model["platform"]["prefixes"]["c_type"], "Platform_");
    let out = run(&["coverage"], &workspace());
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("http_api: ") && stdout.contains("total: "), "{stdout}");
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git").args(args).current_dir(dir).output().expect("git runs (the timeline guard reads revisions with it)");
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
}

/// A repository holding a copy of the shipped spec, committed.
fn repository_with_the_shipped_spec() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&workspace().join("spec"), &tmp.path().join("spec"));
    git(tmp.path(), &["init", "-q"]);
    git(tmp.path(), &["add", "spec"]);
    git(tmp.path(), &["-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "spec"]);
    tmp
}

#[test]
fn the_timeline_guard_refuses_an_unannounced_break_and_accepts_it_announced() {
    let repo = repository_with_the_shipped_spec();
    let channel = repo.path().join("spec/resources/channel.yaml");
    let yaml = std::fs::read_to_string(&channel).unwrap();
    let start = yaml.find("      id:\n").expect("the channel has an id");
    let end = yaml.find("      application_id:\n").expect("then its application id");
    std::fs::write(&channel, format!("{}{}", &yaml[..start], &yaml[end..])).unwrap();

    let out = run(&["diff", "--against", "HEAD"], repo.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("error[field-removed]: field `channel.id` is removed"), "{stdout}");
    assert!(
        stdout.contains("kind: removal") && stdout.contains("affects: [resource:channel]"),
        "the help drafts the entry (naming the resource: the field is gone):\n{stdout}"
    );

    let changes = repo.path().join("spec/changes.yaml");
    let mut yaml = std::fs::read_to_string(&changes).unwrap();
    yaml.push_str(
        "  - id: channel-id-removed\n    part: http_api\n    effective: already_in_effect\n    kind: removal\n    summary: The channel field id is removed.\n    affects:\n      - resource:channel\n",
    );
    std::fs::write(&changes, yaml).unwrap();
    let out = run(&["diff", "--against", "HEAD"], repo.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("announced[field-removed]") && stdout.contains("announced by change `channel-id-removed`"), "{stdout}");
}

#[test]
fn diff_reads_directories_and_revisions_and_prints_json() {
    let repo = repository_with_the_shipped_spec();
    let out = run(&["diff", "HEAD", "spec", "--format", "json"], repo.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(out.stdout.is_empty(), "no difference, no line: {}", text(&out));
    let case = workspace().join("tests/diff/field-removed");
    let (old, new) = (case.join("old"), case.join("new"));
    let out = run(&["--format", "json", "diff", old.to_str().unwrap(), new.to_str().unwrap()], &workspace());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let finding: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(finding["rule"], "field-removed");
    assert_eq!(finding["audiences"]["wire"], "breaking");
    let out = run(&["diff", "no-such-revision"], repo.path());
    assert_eq!(out.status.code(), Some(2), "an unreadable side is exit 2: {}", text(&out));
}

#[test]
fn as_of_gives_the_platform_of_one_day() {
    let before = run(&["dump", "--as-of", "2026-02-22"], &workspace());
    let after = run(&["dump", "--as-of", "2026-02-23"], &workspace());
    assert_eq!(before.status.code(), Some(0), "{}", text(&before));
    let rule = |out: &Output| {
        let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rules = model["permission_rules"].as_array().unwrap().clone();
        rules.into_iter().find(|r| r["id"] == "pin_messages").unwrap()["variants"].clone()
    };
    assert_eq!(rule(&before), serde_json::json!([{ "rule": { "permission": "MANAGE_MESSAGES" } }]));
    assert_eq!(rule(&after), serde_json::json!([{ "rule": { "permission": "PIN_MESSAGES" } }]));

    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("published");
    let out = run(&["--out", out_dir.to_str().unwrap(), "generate", "--as-of", "2026-02-22"], &workspace());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let openapi = std::fs::read_to_string(out_dir.join("openapi.json")).unwrap();
    assert!(openapi.contains("MANAGE_MESSAGES") && !openapi.contains("pin-messages-required"), "the document of 2026-02-22 knows nothing later");
    let refused = run(&["generate", "--as-of", "2026-02-22"], &workspace());
    assert_eq!(refused.status.code(), Some(2), "--as-of never writes over generated/: {}", text(&refused));
}

/// `mock` serves the spec's mock in its own place: a signal sent to `platform-codegen mock`
/// stops the server, and nothing it started is left holding the port. Its build honours
/// `CARGO_TARGET_DIR` (here the scratch target directory the test suite shares).
#[cfg(unix)]
#[test]
fn mock_stops_on_sigterm_and_leaves_nothing_running() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;
    let scratch = platform_specgen::harness::test_scratch_target();
    let out = tempfile::tempdir().unwrap();
    // The repository's lock file: the versions the scratch target directory already holds.
    std::fs::create_dir_all(out.path().join("workspace")).unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), out.path().join("workspace/Cargo.lock")).unwrap();
    let spec = workspace().join("tests/fixtures/minimal");
    let mut mock = Command::new(env!("CARGO_BIN_EXE_platform-codegen"));
    mock.args(["--spec", spec.to_str().unwrap(), "--out", out.path().to_str().unwrap(), "mock", "--listen", "127.0.0.1:0"]).current_dir(workspace());
    // The settings of the suite's other scratch builds, whose compiled dependencies it reuses.
    let mut child = platform_specgen::harness::scratch_settings(&mut mock, &scratch).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let address = loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("the mock exited before it listened: {:?}\n{seen}", child.wait());
        }
        seen.push_str(&line);
        if let Some(rest) = line.trim().strip_prefix("mock server listening on http://") {
            break rest.to_owned();
        }
    };
    assert!(scratch.join("debug").read_dir().is_ok(), "the build used CARGO_TARGET_DIR");
    let mut stream = std::net::TcpStream::connect(&address).expect("the mock accepts a connection");
    stream.write_all(b"GET /nowhere HTTP/1.1\r\nHost: mock\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(!status.success(), "the mock ends on SIGTERM: {status:?}");
    assert!(std::net::TcpStream::connect(&address).is_err(), "nothing is left listening on {address} after SIGTERM");
}
