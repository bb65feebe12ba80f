//! C and C++ artifacts: the C ABI header, the header-only C++ wrapper and the Rust library
//! (`platform-sdk`) that implements the ABI, all rendered from one ABI plan.

mod writer;

pub(super) mod cpp;
pub(super) mod header;
pub(super) mod sdk;
