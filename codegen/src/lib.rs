//! The platform generator: `load -> model -> validate -> emit -> files`.
//!
//! The spec under `spec/` is loaded into spanned raw structures ([`load`]), lowered into the
//! typed model ([`model`]), checked rule by rule ([`validate`]), turned into artifacts by pure
//! emitters ([`emit`]) and written by the one module that touches disk ([`files`]).

pub mod diag;
pub mod load;
