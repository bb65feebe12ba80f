//! Faults while `generate` writes: killed with SIGKILL at random (seeded) moments, a read-only
//! output directory, a full disk and a writer that fails part way. Every file is always either
//! its old bytes or its new bytes, a write failure exits 2 naming the file and leaves the tree as
//! it was, and a re-run completes the tree.
//!
//! The old tree is the minimal fixture's output and the new one the shapes fixture's: they share
//! most paths with different bytes, and each has files the other does not (orphans to remove,
//! files to create).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

type Tree = BTreeMap<String, Vec<u8>>;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn codegen() -> &'static str {
    env!("CARGO_BIN_EXE_platform-codegen")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Copies a fixture's spec files (not its `expected/` output).
fn copy_spec(fixture: &str, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(workspace().join("tests/fixtures").join(fixture)).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

fn generate_args<'a>(spec: &'a Path, out: &'a Path) -> [&'a str; 5] {
    ["--spec", spec.to_str().unwrap(), "--out", out.to_str().unwrap(), "generate"]
}

fn generate(spec: &Path, out: &Path) -> Output {
    Command::new(codegen()).args(generate_args(spec, out)).output().unwrap()
}

/// Every file under `dir`, temporary ones included, by `/`-separated relative path. A file or
/// directory that a running `generate` removes or renames while it is read is left out.
fn read_tree(dir: &Path) -> Tree {
    fn walk(root: &Path, dir: &Path, out: &mut Tree) {
        let Some(entries) = gone_is_none(std::fs::read_dir(dir)) else { return };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if let Some(bytes) = gone_is_none(std::fs::read(&path)) {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = Tree::new();
    if dir.is_dir() {
        walk(dir, dir, &mut out);
    }
    out
}

fn gone_is_none<T>(result: std::io::Result<T>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => panic!("{e}"),
    }
}

fn write_tree(dir: &Path, tree: &Tree) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    for (path, bytes) in tree {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

fn is_temporary(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|name| name.starts_with('.') && name.ends_with(".tmp"))
}

/// Two specs and the trees they generate.
struct Case {
    tmp: tempfile::TempDir,
    new_spec: PathBuf,
    old: Tree,
    new: Tree,
}

impl Case {
    fn new() -> Case {
        let tmp = tempfile::tempdir().unwrap();
        let (old_spec, new_spec) = (tmp.path().join("old-spec"), tmp.path().join("new-spec"));
        copy_spec("minimal", &old_spec);
        copy_spec("shapes", &new_spec);
        let tree = |spec: &Path, name: &str| {
            let out = tmp.path().join(name);
            let run = generate(spec, &out);
            assert_eq!(run.status.code(), Some(0), "{}", text(&run));
            read_tree(&out)
        };
        let (old, new) = (tree(&old_spec, "old"), tree(&new_spec, "new"));
        let shared = old.keys().filter(|p| new.contains_key(*p) && old[*p] != new[*p]).count();
        assert!(shared >= 10 && old.keys().any(|p| !new.contains_key(p)) && new.keys().any(|p| !old.contains_key(p)), "the trees must overlap and differ");
        Case { tmp, new_spec, old, new }
    }

    /// The output directory, holding the old tree.
    fn fresh_out(&self) -> PathBuf {
        let out = self.tmp.path().join("out");
        write_tree(&out, &self.old);
        out
    }

    /// Panics unless every file under `out` is the old or the new version of itself (or a
    /// temporary file, which the next run removes). Returns whether the tree is mixed.
    fn assert_each_file_old_or_new(&self, out: &Path, when: &str) -> bool {
        let tree = read_tree(out);
        for (path, bytes) in &tree {
            if is_temporary(path) {
                continue;
            }
            let old = self.old.get(path) == Some(bytes);
            let new = self.new.get(path) == Some(bytes);
            assert!(old || new, "{when}: `{path}` is neither its old nor its new version ({} bytes)", bytes.len());
        }
        tree != self.old && tree != self.new
    }

    /// A run to completion gives exactly the new tree, with no temporary file left.
    fn assert_rerun_completes(&self, out: &Path, when: &str) {
        let run = generate(&self.new_spec, out);
        assert_eq!(run.status.code(), Some(0), "{when}: the re-run fails: {}", text(&run));
        let tree = read_tree(out);
        let leftovers: Vec<&String> = tree.keys().filter(|p| is_temporary(p)).collect();
        assert!(leftovers.is_empty(), "{when}: the re-run leaves temporary files: {leftovers:?}");
        assert!(tree == self.new, "{when}: the re-run does not give the new tree");
    }
}

/// xorshift64*: the kill moments are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
    }
}

/// Waits until a temporary file appears under `out` (the run is writing), for at most `limit`.
fn wait_for_writing(out: &Path, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit && !read_tree(out).keys().any(|p| is_temporary(p)) {
        std::thread::sleep(Duration::from_micros(200));
    }
}

#[test]
fn generate_killed_at_random_moments_leaves_each_file_old_or_new() {
    let case = Case::new();
    let out = case.fresh_out();
    let start = Instant::now();
    case.assert_rerun_completes(&out, "an uninterrupted run");
    let full = start.elapsed();
    let mut rng = Rng(0x6b69_6c6c_0001);
    let (mut killed, mut mixed) = (0, 0);
    for round in 0..16 {
        let out = case.fresh_out();
        let mut child = Command::new(codegen()).args(generate_args(&case.new_spec, &out)).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        // Even rounds kill at any moment of the run; odd ones once it has begun writing, so that
        // most kills land between the first temporary file and the last rename.
        if round % 2 == 1 {
            wait_for_writing(&out, full * 3);
            std::thread::sleep(Duration::from_micros(rng.below(3_000)));
        } else {
            std::thread::sleep(Duration::from_micros(rng.below(full.as_micros() as u64 * 6 / 5)));
        }
        child.kill().unwrap();
        let status = child.wait().unwrap();
        killed += usize::from(status.code().is_none());
        let when = format!("round {round} (killed: {})", status.code().is_none());
        mixed += usize::from(case.assert_each_file_old_or_new(&out, &when));
        case.assert_rerun_completes(&out, &when);
    }
    eprintln!("16 runs: {killed} killed before they finished, {mixed} left a tree part old and part new");
    assert!(killed >= 4, "only {killed} of 16 runs were killed before finishing: the kill moments miss the run");
}

/// Runs `script` with `sh` in a new user and mount namespace (root inside it, mounts private to
/// it), or `None` when this system does not allow one.
fn in_mount_namespace(script: &str, args: &[&str]) -> Option<Output> {
    let probe = Command::new("unshare").args(["-rm", "true"]).output();
    if !probe.is_ok_and(|p| p.status.success()) {
        return None;
    }
    Some(Command::new("unshare").args(["-rm", "sh", "-c", script, "sh"]).args(args).output().unwrap())
}

/// Whether this process can write where permissions say it cannot (root).
fn bypasses_permissions(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(dir).unwrap().uid() == 0
}

/// Asserts a failed run: exit 2, an error naming a file of the new tree, the tree unchanged.
fn assert_failed_cleanly(case: &Case, run: &Output, out: &Path, tree_after: &Tree, what: &str) {
    assert_eq!(run.status.code(), Some(2), "{what}: {}", text(run));
    let stderr = String::from_utf8_lossy(&run.stderr);
    let named = case.new.keys().find(|p| stderr.contains(&format!("cannot write `{}`", out.join(p).display())));
    assert!(named.is_some(), "{what}: the error names no file it could not write: {stderr}");
    assert!(tree_after == &case.old, "{what}: a failed run changed the tree (or left temporary files)");
}

#[test]
fn a_read_only_output_directory_exits_2_and_changes_nothing() {
    let case = Case::new();
    let out = case.fresh_out();
    let args = generate_args(&case.new_spec, &out);
    let run = if bypasses_permissions(&out) {
        // Root writes through file permissions; a read-only mount stops it.
        let script = r#"out="$1"; shift; mount --bind "$out" "$out" && mount -o remount,bind,ro "$out" && exec "$@""#;
        let args: Vec<&str> = [out.to_str().unwrap(), codegen()].into_iter().chain(args).collect();
        in_mount_namespace(script, &args).expect("as root, a read-only output directory needs `unshare -rm` (util-linux) to mount one")
    } else {
        set_read_only(&out, true);
        let run = Command::new(codegen()).args(args).output().unwrap();
        set_read_only(&out, false);
        run
    };
    assert_failed_cleanly(&case, &run, &out, &read_tree(&out), "read-only");
    case.assert_rerun_completes(&out, "after the read-only run");
}

fn set_read_only(dir: &Path, read_only: bool) {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            set_read_only(&path, read_only);
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(if read_only { 0o555 } else { 0o755 })).unwrap();
}

/// Bytes a tree takes on tmpfs: whole 4 KiB pages per file.
fn pages(tree: &Tree) -> u64 {
    tree.values().map(|b| (b.len() as u64).div_ceil(4096).max(1) * 4096).sum()
}

#[test]
fn a_full_disk_exits_2_and_changes_nothing_and_a_rerun_with_room_completes() {
    let case = Case::new();
    let out = case.fresh_out();
    let snapshots = (case.tmp.path().join("after-full"), case.tmp.path().join("after-room"));
    // Room for the old tree and a few pages more: staging the new one runs out part way.
    let size = pages(&case.old) + 8 * 4096;
    let script = r#"out="$1" full="$2" room="$3" size="$4"; shift 4
        saved=$(mktemp -d) && cp -a "$out/." "$saved/" &&
        mount -t tmpfs -o "size=$size" tmpfs "$out" && cp -a "$saved/." "$out/" || exit 99
        "$@" 2>"$full.stderr"; echo $? >"$full.code"; cp -a "$out/." "$full/"
        mount -o remount,size=64m "$out" && "$@" >/dev/null 2>&1; cp -a "$out/." "$room/""#;
    for dir in [&snapshots.0, &snapshots.1] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let size = size.to_string();
    let args: Vec<&str> = [out.to_str().unwrap(), snapshots.0.to_str().unwrap(), snapshots.1.to_str().unwrap(), size.as_str(), codegen()]
        .into_iter()
        .chain(generate_args(&case.new_spec, &out))
        .collect();
    let Some(ran) = in_mount_namespace(script, &args) else {
        eprintln!("no mount namespace here: the full disk is simulated by a file size limit instead");
        return a_write_limit_exits_2_and_changes_nothing(&case);
    };
    assert_eq!(ran.status.code(), Some(0), "the tmpfs script: {}", text(&ran));
    let code: i32 = std::fs::read_to_string(snapshots.0.with_extension("code")).unwrap().trim().parse().unwrap();
    let stderr = std::fs::read(snapshots.0.with_extension("stderr")).unwrap();
    let run = Output { status: exit_status(code), stdout: Vec::new(), stderr };
    assert_failed_cleanly(&case, &run, &out, &read_tree(&snapshots.0), "full tmpfs");
    assert!(String::from_utf8_lossy(&run.stderr).contains("No space left on device"), "{}", text(&run));
    assert!(read_tree(&snapshots.1) == case.new, "the re-run with room does not give the new tree");
}

fn exit_status(code: i32) -> std::process::ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    std::process::ExitStatus::from_raw(code << 8)
}

/// A writer that fails part way, with no privilege needed: a file size limit (`ulimit -f`) makes
/// every write past 4 KiB fail with "File too large", as a disk filling up would.
fn a_write_limit_exits_2_and_changes_nothing(case: &Case) {
    let out = case.fresh_out();
    let script = r#"trap '' XFSZ; ulimit -f 8 && exec "$@""#;
    let run = Command::new("sh").args(["-c", script, "sh", codegen()]).args(generate_args(&case.new_spec, &out)).output().unwrap();
    assert_failed_cleanly(case, &run, &out, &read_tree(&out), "file size limit");
    assert!(String::from_utf8_lossy(&run.stderr).contains("File too large"), "{}", text(&run));
    case.assert_rerun_completes(&out, "after the file size limit");
}

#[test]
fn a_writer_failing_part_way_exits_2_and_changes_nothing() {
    a_write_limit_exits_2_and_changes_nothing(&Case::new());
}
