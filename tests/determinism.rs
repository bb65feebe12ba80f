//! Output depends on the spec alone: not on run, file creation order or hash seeds.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
use std::path::{Path, PathBuf};

fn generate(dir: &Path) -> Vec<GeneratedFile> {
    let loaded = platform_codegen::load_spec(dir, "spec").unwrap_or_else(|_| panic!("{} is invalid", dir.display()));
    emit_all(&loaded.model, &EmitOptions::default())
}

fn spec_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { out.extend(spec_files(&path)) } else { out.push(path) }
    }
    out.sort();
    out
}

#[test]
fn two_runs_give_the_same_bytes() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    assert_eq!(generate(&spec), generate(&spec));
}

#[test]
fn output_does_not_depend_on_the_order_files_were_created_in() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let copy = tempfile::tempdir().unwrap();
    // Create the files in reverse order so directory listing order differs from the original.
    for path in spec_files(&spec).into_iter().rev() {
        let target = copy.path().join(path.strip_prefix(&spec).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&path, &target).unwrap();
    }
    assert_eq!(generate(&spec), generate(copy.path()));
}

#[test]
fn output_has_no_host_specific_text() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let root = env!("CARGO_MANIFEST_DIR");
    for file in generate(&spec) {
        assert!(!file.contents.contains(root), "{} contains the checkout path", file.path);
        assert!(!file.contents.contains("\r\n"), "{} has CRLF line ends", file.path);
        assert!(file.contents.ends_with('\n') && !file.contents.ends_with("\n\n"), "{} must end with exactly one newline", file.path);
        assert!(file.contents.contains("@generated"), "{} has no @generated notice", file.path);
    }
}
