//! The C side's plan: the ABI every C artifact renders ([`abi::Abi`]) and the scopes its
//! identifiers meet in.

pub mod abi;
mod docs;
pub mod names;
