//! `patterns.rs`: the spec's string patterns, compiled once.

use proc_macro2::TokenStream;
use quote::quote;

/// Each pattern of the spec compiled once, and the check that matches it.
pub fn emit(patterns: &[String]) -> TokenStream {
    let statics = patterns.iter().enumerate().map(|(i, regex)| {
        let name = quote::format_ident!("PATTERN_{i}");
        let doc = format!(" `{regex}`.");
        quote! {
            #[doc = #doc]
            pub static #name: LazyLock<Regex> = LazyLock::new(|| Regex::new(#regex).expect("BUG: platform-codegen compiled this pattern"));
        }
    });
    quote! {
        //! The spec's string patterns, each compiled once, on first use (the generator compiled
        //! each with the same `regex` crate, so none fails here).

        use crate::validation::Violation;
        use regex::Regex;
        use std::sync::LazyLock;

        #(#statics)*

        /// A text matches `regex` somewhere (patterns are not anchored unless they say so).
        pub fn check(out: &mut Vec<Violation>, pointer: &crate::validation::Pointer<'_>, value: &str, regex: &Regex, source: &str) {
            if !regex.is_match(value) {
                out.push(Violation::new(pointer, format!("must match the pattern `{source}`")));
            }
        }
    }
}
