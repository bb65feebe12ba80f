//! How a target reads the fuzzer's bytes: text as written (an archive of spec files, an
//! OpenAPI document), or choices that pick and edit a seed.

use crate::archive::{self, Files};
use arbitrary::Unstructured;

/// The spec files `data` stands for. An input that starts with the archive marker is an archive
/// (the seed corpus is made of them); any other input drives [`crate::mutate::spec`], and choices
/// it runs out of are read as zeros.
pub fn spec_files(data: &[u8]) -> Files {
    if data.starts_with(archive::MARKER.as_bytes()) {
        return archive::unpack(data);
    }
    let mut u = Unstructured::new(data);
    crate::mutate::spec(&mut u).unwrap_or_default()
}

/// The OpenAPI document `data` stands for. An input that starts with the archive marker is the
/// document's text, the marker line included (a YAML comment, which the importer's reader takes
/// before JSON as well as YAML); the seed corpus is made of them. Any other input drives
/// [`crate::openapi::document`].
pub fn document_text(data: &[u8]) -> String {
    if data.starts_with(archive::MARKER.as_bytes()) {
        return String::from_utf8_lossy(data).into_owned();
    }
    let mut u = Unstructured::new(data);
    crate::openapi::document(&mut u).unwrap_or_default()
}
