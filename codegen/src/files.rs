//! The only code that touches disk: write-if-changed, check mode and orphan removal.

use crate::emit::GeneratedFile;
use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

/// Write files, or only compare them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Write changed files and remove orphans.
    Write,
    /// Compare only; write nothing.
    Check,
}

/// What `sync` found or did, per file.
#[derive(Debug, Default)]
pub struct Report {
    /// Files whose bytes differed (written in write mode).
    pub stale: Vec<String>,
    /// Files that did not exist (created in write mode).
    pub missing: Vec<String>,
    /// Files under the output directory that no emitter produced (removed in write mode).
    pub orphans: Vec<String>,
    /// Files already up to date.
    pub unchanged: Vec<String>,
}

impl Report {
    /// Whether the output directory already matched.
    pub fn is_clean(&self) -> bool {
        self.stale.is_empty() && self.missing.is_empty() && self.orphans.is_empty()
    }

    /// One line per artifact: `types: 3 written, 2 unchanged`.
    pub fn summary(&self, files: &[GeneratedFile], mode: Mode) -> Vec<String> {
        let mut artifacts: Vec<&str> = Vec::new();
        for f in files {
            if !artifacts.contains(&f.artifact) {
                artifacts.push(f.artifact);
            }
        }
        let verb = if mode == Mode::Write { "written" } else { "stale" };
        artifacts
            .into_iter()
            .map(|a| {
                let of = |list: &[String]| files.iter().filter(|f| f.artifact == a && list.contains(&f.path)).count();
                let changed = of(&self.stale) + of(&self.missing);
                let same = of(&self.unchanged);
                if changed == 0 { format!("{a}: unchanged ({same} file{})", if same == 1 { "" } else { "s" }) } else { format!("{a}: {changed} {verb}, {same} unchanged") }
            })
            .collect()
    }
}

/// Makes `out` hold exactly `files`: in [`Mode::Write`] writes changed files atomically (temp
/// file + rename) and removes orphans; in [`Mode::Check`] only reports.
pub fn sync(out: &Path, files: &[GeneratedFile], mode: Mode) -> io::Result<Report> {
    let mut report = Report::default();
    for file in files {
        let path = out.join(&file.path);
        match std::fs::read(&path) {
            Ok(bytes) if bytes == file.contents.as_bytes() => report.unchanged.push(file.path.clone()),
            Ok(_) => report.stale.push(file.path.clone()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => report.missing.push(file.path.clone()),
            Err(e) => return Err(with_path(e, &path)),
        }
    }
    let produced: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    report.orphans = existing_files(out)?.into_iter().filter(|p| !produced.contains(p.as_str())).collect();
    if mode == Mode::Write {
        for file in files.iter().filter(|f| !report.unchanged.contains(&f.path)) {
            write_atomic(&out.join(&file.path), file.contents.as_bytes())?;
        }
        for orphan in &report.orphans {
            let path = out.join(orphan);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                // Another writer removed it first.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(with_path(e, &path)),
            }
        }
        remove_empty_dirs(out, true)?;
    }
    Ok(report)
}

fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().expect("BUG: generated paths have a parent");
    std::fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
    let name = path.file_name().expect("BUG: generated paths name a file").to_string_lossy();
    // The process id keeps concurrent writers (several build scripts of one `cargo build`) from
    // renaming each other's temporary files away.
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| with_path(e, &tmp))?;
    std::fs::rename(&tmp, path).map_err(|e| with_path(e, path))
}

/// What Cargo leaves at the top of standalone output when it builds there (the workspace's lock
/// file and target directory): the generator does not own them, so they are never orphans.
const CARGO_OWNED: &[&str] = &["Cargo.lock", "target"];

/// Every file under `root`, as sorted `/`-separated relative paths, except what Cargo owns.
fn existing_files(root: &Path) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    if root.is_dir() {
        walk(root, root, &mut out)?;
    }
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir).map_err(|e| with_path(e, dir))? {
        let path: PathBuf = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if dir == root && CARGO_OWNED.contains(&name.as_str()) {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if is_temporary(&name) {
            // A concurrent writer's file, about to be renamed into place.
        } else {
            let rel = path.strip_prefix(root).expect("BUG: walked under root");
            out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
    }
    Ok(())
}

fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// Removes empty directories under `dir`, leaving what Cargo owns at the `top` alone.
fn remove_empty_dirs(dir: &Path, top: bool) -> io::Result<bool> {
    if !dir.is_dir() {
        return Ok(false);
    }
    let mut empty = true;
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(false) };
    for entry in entries {
        let path = entry?.path();
        let cargo_owned = top && path.file_name().is_some_and(|n| CARGO_OWNED.iter().any(|c| n == *c));
        if cargo_owned || !(path.is_dir() && remove_empty_dirs(&path, false)? && std::fs::remove_dir(&path).is_ok()) {
            empty = false;
        }
    }
    Ok(empty)
}
