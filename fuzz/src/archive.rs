//! A spec of several files as one byte string: each file opens with a `#~ <path>` line.
//!
//! The marker is a YAML comment, so a single file without markers is still a spec (named
//! `spec/spec.yaml`), and byte-level mutations of an archive stay readable YAML most of the time.

/// The line prefix that opens a file.
pub const MARKER: &str = "#~ ";

/// Spec files as `(display path, text)`, the shape `load_spec_texts` takes.
pub type Files = Vec<(String, String)>;

/// Packs files into one archive.
pub fn pack(files: &[(String, String)]) -> Vec<u8> {
    let mut out = String::new();
    for (path, text) in files {
        out.push_str(MARKER);
        out.push_str(path);
        out.push('\n');
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// One document as an input of the importer's target: a marker line naming it (a comment to the
/// YAML reader, which reads JSON too), then its text.
pub fn document(name: &str, text: &str) -> Vec<u8> {
    format!("{MARKER}{name}\n{text}").into_bytes()
}

/// Unpacks an archive. Invalid UTF-8 becomes U+FFFD (the loader reads text); a path is kept to
/// a plain relative name so that no input names a file outside the spec.
pub fn unpack(bytes: &[u8]) -> Files {
    let text = String::from_utf8_lossy(bytes);
    let mut files: Files = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix(MARKER) {
            files.extend(current.take());
            current = Some((clean_path(name.trim_end()), String::new()));
            continue;
        }
        current.get_or_insert_with(|| ("spec/spec.yaml".to_owned(), String::new())).1.push_str(line);
    }
    files.extend(current);
    files
}

fn clean_path(name: &str) -> String {
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || "._-/".contains(*c)).take(64).collect();
    let name = name.trim_matches('/').replace("..", "_");
    if name.is_empty() { "spec/unnamed.yaml".to_owned() } else { format!("spec/{}", name.trim_start_matches("spec/")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_unpacks_to_its_files() {
        let files = vec![("spec/a.yaml".to_owned(), "a: 1\n".to_owned()), ("spec/b/c.yaml".to_owned(), "b: 2".to_owned())];
        let back = unpack(&pack(&files));
        assert_eq!(back, vec![("spec/a.yaml".to_owned(), "a: 1\n".to_owned()), ("spec/b/c.yaml".to_owned(), "b: 2\n".to_owned())]);
    }

    #[test]
    fn text_without_markers_is_one_file_and_paths_stay_inside() {
        assert_eq!(unpack(b"x: 1\n"), vec![("spec/spec.yaml".to_owned(), "x: 1\n".to_owned())]);
        assert_eq!(unpack(b"#~ ../../etc/passwd\n")[0].0, "spec/_/_/etc/passwd");
    }
}
