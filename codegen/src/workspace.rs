//! The Cargo workspace around an output directory, and what it says about it.
//!
//! A workspace that keeps generated crates as members names the spec and the output directory
//! in its root manifest:
//!
//! ```toml
//! [workspace.metadata.platform-codegen]
//! spec = "spec"
//! out = "generated"
//! ```
//!
//! That declaration is the only thing that makes output [`Layout::Anchored`] (crates whose build
//! scripts regenerate it), and the only thing a build script trusts before it writes: the
//! workspace Cargo builds the crate in must name exactly the directory the crate sits in. A
//! crate copied anywhere else, or packaged, finds no such declaration and writes nothing.

use std::io;
use std::path::{Path, PathBuf};

/// Where the generated crates live, in Cargo's terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// On their own: a generated `Cargo.toml` workspace root lists the crates, so `cargo build`
    /// in the output directory builds them all; no crate has a build script.
    #[default]
    Standalone,
    /// Members of the workspace whose `[workspace.metadata.platform-codegen]` names the output
    /// directory (see [`crate::workspace`]): each crate's build script regenerates the output
    /// when the spec changes, using the `platform-codegen` of `[workspace.dependencies]`.
    Anchored,
}

/// The metadata table that anchors generated output in a workspace.
pub const METADATA: &str = "platform-codegen";

/// A workspace's declaration of its spec and output directories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The directory of the workspace's root `Cargo.toml`.
    pub root: PathBuf,
    /// The spec directory as the manifest writes it, relative to `root`.
    pub spec: String,
    /// The output directory as the manifest writes it, relative to `root`.
    pub out: String,
}

impl Anchor {
    /// The spec directory.
    pub fn spec_dir(&self) -> PathBuf {
        self.root.join(&self.spec)
    }

    /// The output directory.
    pub fn out_dir(&self) -> PathBuf {
        self.root.join(&self.out)
    }

    /// Whether `dir` is the output directory this anchor names.
    pub fn names_out(&self, dir: &Path) -> bool {
        same_dir(&self.out_dir(), dir)
    }
}

/// The workspace that encloses `dir`, as Cargo finds it: the nearest `Cargo.toml`, from `dir`
/// upwards, with a `[workspace]` table. Returns its anchor when it declares one.
///
/// Generated manifests never set `package.workspace`, so for them the nearest root is the one
/// Cargo builds them in.
pub fn find(dir: &Path) -> io::Result<Option<Anchor>> {
    let start = std::path::absolute(dir)?;
    for candidate in start.ancestors() {
        let manifest = candidate.join("Cargo.toml");
        let text = match std::fs::read_to_string(&manifest) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", manifest.display()))),
        };
        let doc: toml::Table = text.parse().map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", manifest.display())))?;
        let Some(workspace) = doc.get("workspace").and_then(toml::Value::as_table) else { continue };
        return anchor_of(candidate, workspace).map_err(|why| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", manifest.display())));
    }
    Ok(None)
}

/// Reads `[workspace.metadata.platform-codegen]`; an incomplete declaration is an error rather
/// than no declaration, so a typo cannot silently turn regeneration off.
fn anchor_of(root: &Path, workspace: &toml::Table) -> Result<Option<Anchor>, String> {
    let Some(table) = workspace.get("metadata").and_then(|m| m.get(METADATA)) else { return Ok(None) };
    let key = |name: &str| {
        table
            .get(name)
            .and_then(toml::Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("`[workspace.metadata.{METADATA}]` needs `{name}`, a directory relative to the workspace root"))
    };
    Ok(Some(Anchor { root: root.to_path_buf(), spec: key("spec")?, out: key("out")? }))
}

/// The layout of output written to `out`: anchored when the enclosing workspace names `out`,
/// standalone otherwise.
pub fn layout_for(out: &Path) -> io::Result<Layout> {
    Ok(match find(out)? {
        Some(anchor) if anchor.names_out(out) => Layout::Anchored,
        _ => Layout::Standalone,
    })
}

/// Whether two paths name one directory: compared canonically when both exist, as absolute
/// paths otherwise (an output directory may not exist yet).
pub fn same_dir(a: &Path, b: &Path) -> bool {
    let normal = |p: &Path| p.canonicalize().or_else(|_| std::path::absolute(p).map(|p| lexical(&p))).unwrap_or_else(|_| p.to_path_buf());
    normal(a) == normal(b)
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("Cargo.toml"), text).unwrap();
    }

    #[test]
    fn the_nearest_workspace_decides() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(root, "[workspace]\n\n[workspace.metadata.platform-codegen]\nspec = \"spec\"\nout = \"generated\"\n");
        let anchor = find(&root.join("generated/types")).unwrap().expect("the root declares an anchor");
        assert!(anchor.names_out(&root.join("generated")));
        assert!(anchor.names_out(&root.join("./x/../generated")));
        assert_eq!(layout_for(&root.join("generated")).unwrap(), Layout::Anchored);
        assert_eq!(layout_for(&root.join("elsewhere")).unwrap(), Layout::Standalone);
        // A nearer workspace root without the declaration hides the outer one.
        write(&root.join("nested"), "[workspace]\n");
        assert_eq!(find(&root.join("nested/generated")).unwrap(), None);
    }

    #[test]
    fn an_incomplete_declaration_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "[workspace]\n\n[workspace.metadata.platform-codegen]\nspec = \"spec\"\n");
        let e = find(tmp.path()).unwrap_err();
        assert!(e.to_string().contains("needs `out`"), "{e}");
    }
}
