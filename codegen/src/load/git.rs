//! Reads a spec as it was at a git revision, so `diff --against HEAD~1` compares the spec on
//! disk with the committed one without checking anything out.
//!
//! It runs the `git` command (`ls-tree`, then `show` per file) in the spec directory's
//! repository; the files come back in sorted path order, named `REV:spec/file.yaml`.

use super::IoError;
use std::path::Path;
use std::process::Command;

/// The `*.yaml` files under `dir` (a directory of a git work tree) at revision `rev`, as
/// `(display path, text)` in sorted path order. `display_root` names `dir` (`spec`).
pub fn files_at(dir: &Path, rev: &str, display_root: &str) -> Result<Vec<(String, String)>, IoError> {
    let listing = git(dir, &["ls-tree", "-r", "-z", "--name-only", rev, "--", "."])?;
    let mut paths: Vec<&str> = listing.split('\0').filter(|p| p.ends_with(".yaml") || p.ends_with(".yml")).collect();
    if paths.is_empty() {
        return Err(IoError(format!("revision `{rev}` has no `*.yaml` files under `{}`", dir.display())));
    }
    paths.sort_unstable();
    let root = format!("{rev}:{}", display_root.trim_end_matches('/'));
    paths
        .into_iter()
        .map(|p| {
            let text = git(dir, &["show", &format!("{rev}:./{p}")])?;
            Ok((super::display_path(&root, Path::new(p)), text))
        })
        .collect()
}

fn git(dir: &Path, args: &[&str]) -> Result<String, IoError> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| IoError(format!("cannot run `git` (needed to read a spec at a revision): {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(IoError(format!("`git {}` failed in `{}`: {}", args.join(" "), dir.display(), stderr.trim())));
    }
    String::from_utf8(out.stdout).map_err(|_| IoError(format!("`git {}` printed something that is not UTF-8", args.join(" "))))
}
