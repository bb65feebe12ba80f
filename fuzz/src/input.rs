//! How a target reads the fuzzer's bytes: an archive of spec files as text, or choices that
//! pick and edit a seed spec.

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
