//! A directory's files by content, for the tests that compare trees.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
pub fn contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.insert(path.strip_prefix(dir).expect("under the directory").to_owned(), bytes);
            }
        }
    }
    out
}
