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
                if changed == 0 {
                    format!("{a}: unchanged ({same} file{})", if same == 1 { "" } else { "s" })
                } else {
                    format!("{a}: {changed} {verb}, {same} unchanged")
                }
            })
            .collect()
    }
}

/// Makes `out` hold exactly `files`: in [`Mode::Write`] writes changed files and removes
/// orphans; in [`Mode::Check`] only reports.
///
/// Writing is two-phase so that a failure leaves the tree as it was and a killed run leaves each
/// file old or new: every changed file is first written beside its destination as a temporary
/// file, and only when all of them are written are they renamed into place (a rename within a
/// directory replaces the file whole). A write that fails (a full disk, a read-only directory)
/// removes the temporary files written so far and names the file it could not write.
/// Temporary files that a killed run left behind are removed by the next one.
pub fn sync(out: &Path, files: &[GeneratedFile], mode: Mode) -> io::Result<Report> {
    let mut report = Report::default();
    for file in files {
        // Validation keeps spec-derived names (header names) plain; a path leaving `out` would
        // still be refused rather than written.
        let inside = Path::new(&file.path).components().all(|c| matches!(c, std::path::Component::Normal(_)));
        if !inside {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("refusing to write `{}` outside `{}`", file.path, out.display())));
        }
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
        remove_abandoned_temporaries(out)?;
        let changed: Vec<&GeneratedFile> = files.iter().filter(|f| !report.unchanged.contains(&f.path)).collect();
        for (tmp, path) in stage(out, &changed)? {
            std::fs::rename(&tmp, &path).map_err(|e| cannot_write(e, &path))?;
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

fn cannot_write(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("cannot write `{}`: {e}", path.display()))
}

/// Writes each file to a temporary file beside its destination; returns (temporary,
/// destination) pairs. On a failure, removes what it wrote (files and the directories it
/// created) and returns the error naming the destination.
fn stage(out: &Path, files: &[&GeneratedFile]) -> io::Result<Vec<(PathBuf, PathBuf)>> {
    let mut staged = Vec::new();
    let mut created_dirs = Vec::new();
    for file in files {
        let path = out.join(&file.path);
        match write_temporary(&path, file.contents.as_bytes(), &mut created_dirs) {
            Ok(tmp) => staged.push((tmp, path)),
            Err(e) => {
                for (tmp, _) in &staged {
                    let _ = std::fs::remove_file(tmp);
                }
                for dir in created_dirs.iter().rev() {
                    let _ = std::fs::remove_dir(dir);
                }
                return Err(cannot_write(e, &path));
            }
        }
    }
    Ok(staged)
}

/// Writes `bytes` to `.<name>.<pid>.tmp` beside `path`, creating missing directories (recorded
/// in `created`, outermost first). A partly written temporary file is removed.
fn write_temporary(path: &Path, bytes: &[u8], created: &mut Vec<PathBuf>) -> io::Result<PathBuf> {
    let dir = path.parent().expect("BUG: generated paths have a parent");
    let missing: Vec<PathBuf> = dir.ancestors().take_while(|d| !d.exists()).map(Path::to_path_buf).collect();
    created.extend(missing.into_iter().rev());
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().expect("BUG: generated paths name a file").to_string_lossy();
    // The process id keeps concurrent writers (several build scripts of one `cargo build`) from
    // renaming each other's temporary files away.
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    if let Err(e) = std::fs::write(&tmp, bytes) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(tmp)
}

/// Removes temporary files under `root` whose writer is no longer running: a run killed
/// between writing and renaming leaves them. A writer still running (a concurrent build script)
/// keeps its own. Whether a process runs is read from `/proc`; where there is none, temporary
/// files are left alone.
fn remove_abandoned_temporaries(root: &Path) -> io::Result<()> {
    if !root.is_dir() || !Path::new("/proc/self").exists() {
        return Ok(());
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| with_path(e, &dir))? {
            let path = entry?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_dir() {
                stack.push(path);
            } else if writer_of(&name).is_some_and(|pid| !Path::new("/proc").join(pid.to_string()).exists()) {
                match std::fs::remove_file(&path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(with_path(e, &path)),
                }
            }
        }
    }
    Ok(())
}

/// The process id in a temporary file's name `.<name>.<pid>.tmp`.
fn writer_of(name: &str) -> Option<u32> {
    if !is_temporary(name) {
        return None;
    }
    name.strip_suffix(".tmp")?.rsplit('.').next()?.parse().ok()
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
