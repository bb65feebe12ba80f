//! The spec as the macros see it: parsed once per process and reloaded only when a spec file
//! changes, because rust-analyzer keeps one proc-macro process alive across edits.

use crate::{LoadError, Loaded, diag, load_spec};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// What identifies a spec directory's contents cheaply: every file with its length and mtime.
type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

struct Entry {
    dir: PathBuf,
    fingerprint: Fingerprint,
    loaded: Arc<Result<Loaded, String>>,
}

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The loaded spec in `dir`, or the rendered diagnostics (plain text) when it is invalid.
pub fn spec(dir: &Path) -> Arc<Result<Loaded, String>> {
    let fingerprint = fingerprint(dir);
    // A panic while holding the lock poisons it; the cache is only a cache, so start afresh.
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| {
        let mut guard = poisoned.into_inner();
        guard.clear();
        guard
    });
    if let Some(entry) = cache.iter().find(|e| e.dir == dir && e.fingerprint == fingerprint) {
        return entry.loaded.clone();
    }
    let loaded = Arc::new(load(dir));
    cache.retain(|e| e.dir != dir);
    cache.push(Entry { dir: dir.to_path_buf(), fingerprint, loaded: loaded.clone() });
    loaded
}

fn load(dir: &Path) -> Result<Loaded, String> {
    match load_spec(dir, "spec") {
        Ok(loaded) => Ok(loaded),
        Err(LoadError::Io(e)) => Err(format!("cannot read the platform spec: {e}")),
        Err(LoadError::Invalid { sources, diagnostics }) => {
            let lines: Vec<String> = diagnostics.iter().map(|d| diag::to_plain(&sources, d)).collect();
            Err(format!("the platform spec is invalid:\n{}", lines.join("\n")))
        }
    }
}

fn fingerprint(dir: &Path) -> Fingerprint {
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Fingerprint) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if let Ok(meta) = entry.metadata() {
            out.push((path, meta.len(), meta.modified().ok()));
        }
    }
}
