//! Golden files: emitted text compared with the copy a test keeps, or written over it when
//! `UPDATE_EXPECT` is set. One helper for every golden test, so each says only what it emits
//! and where its goldens live.

use std::path::{Path, PathBuf};

/// Whether this run blesses (rewrites) goldens instead of comparing with them.
pub fn blessing() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some()
}

/// Compares `files` (path relative to `root`, text) with the goldens under `root`, and reports
/// goldens under `owned` (directories relative to `root`; `""` for all of it) that nothing
/// emits any more. Blessing writes what changed and removes those orphans. `test` is the name
/// of the test target, for the bless command in the failure message.
pub fn compare_tree<'a>(root: &Path, files: impl IntoIterator<Item = (&'a str, &'a str)>, owned: &[&str], test: &str) {
    let bless = blessing();
    let files: Vec<(&str, &str)> = files.into_iter().collect();
    let mut failures = Vec::new();
    for (path, text) in &files {
        let at = root.join(path);
        let golden = std::fs::read_to_string(&at).ok();
        match golden {
            Some(golden) if golden == *text => {}
            _ if bless => {
                std::fs::create_dir_all(at.parent().expect("a golden file has a directory")).expect("create the golden directory");
                std::fs::write(&at, text).expect("write the golden file");
            }
            Some(golden) => failures.push(format!("{path} differs:\n{}", first_difference(&golden, text))),
            None => failures.push(format!("{path} is missing")),
        }
    }
    for dir in owned {
        for path in files_under(root, &root.join(dir)) {
            if files.iter().any(|(p, _)| *p == path) {
                continue;
            }
            if bless {
                std::fs::remove_file(root.join(&path)).expect("remove a golden nothing emits");
            } else {
                failures.push(format!("{path} is a golden file but nothing emits it any more"));
            }
        }
    }
    assert!(failures.is_empty(), "{}\n\nrun `UPDATE_EXPECT=1 cargo test --test all {test}::` if the change is intended", failures.join("\n\n"));
}

/// Compares one text with its golden file (or blesses it).
pub fn compare_file(path: &Path, text: &str, test: &str) {
    let root = path.parent().expect("a golden file has a directory");
    let name = path.file_name().expect("a golden file has a name").to_string_lossy().into_owned();
    compare_tree(root, [(name.as_str(), text)], &[], test);
}

/// Where two texts first differ, with a few lines of each around it.
pub fn first_difference(expected: &str, actual: &str) -> String {
    let line = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    let show = |text: &str| text.lines().skip(line.saturating_sub(2)).take(5).collect::<Vec<_>>().join("\n");
    format!("at line {}\n--- golden\n{}\n+++ emitted\n{}", line + 1, show(expected), show(actual))
}

/// Every file under `dir`, as `/`-separated paths relative to `root`, sorted.
fn files_under(root: &Path, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.map(|e| e.expect("a readable directory entry")) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(root).expect("under the root").to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}
