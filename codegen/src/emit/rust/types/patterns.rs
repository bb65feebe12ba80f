//! `patterns.rs`: the spec's string patterns, compiled once.

use crate::model::Engine;
use crate::plan::rust::PlannedPattern;
use proc_macro2::TokenStream;
use quote::quote;

/// Each pattern of the spec compiled once, a function that matches it, and the check.
pub fn emit(patterns: &[PlannedPattern]) -> TokenStream {
    let items = patterns.iter().enumerate().map(|(i, p)| {
        let name = quote::format_ident!("PATTERN_{i}");
        let matches = quote::format_ident!("matches_{i}");
        let regex = &p.regex;
        let doc = format!(" `{regex}`.");
        let matches_doc = format!(" Whether a text matches [`{name}`] somewhere.");
        match p.engine {
            Engine::Linear => quote! {
                #[doc = #doc]
                pub static #name: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(#regex).expect("BUG: platform-codegen compiled this pattern"));

                #[doc = #matches_doc]
                pub fn #matches(value: &str) -> bool {
                    #name.is_match(value)
                }
            },
            // A text whose match would backtrack past the engine's limit is taken as not
            // matching: a validator fails closed rather than spend unbounded time.
            Engine::Backtracking => quote! {
                #[doc = #doc]
                ///
                /// It needs look-around or backreferences, so `fancy-regex` matches it.
                pub static #name: LazyLock<fancy_regex::Regex> = LazyLock::new(|| fancy_regex::Regex::new(#regex).expect("BUG: platform-codegen compiled this pattern"));

                #[doc = #matches_doc]
                /// A text that would take the engine past its backtracking limit does not.
                pub fn #matches(value: &str) -> bool {
                    #name.is_match(value).unwrap_or(false)
                }
            },
        }
    });
    quote! {
        //! The spec's string patterns, each compiled once, on first use (the generator compiled
        //! each with the same engine, so none fails here): `regex`, or `fancy-regex` for those
        //! with look-around or backreferences.

        use crate::validation::Violation;
        use std::sync::LazyLock;

        #(#items)*

        /// A violation unless the text matched the pattern `source` (patterns are not anchored
        /// unless they say so).
        pub fn check(out: &mut Vec<Violation>, pointer: &crate::validation::Pointer<'_>, matched: bool, source: &str) {
            if !matched {
                out.push(Violation::new(pointer, format!("must match the pattern `{source}`")));
            }
        }
    }
}

/// Whether any pattern needs `fancy-regex`, and whether any needs `regex`.
pub fn engines(patterns: &[PlannedPattern]) -> (bool, bool) {
    (patterns.iter().any(|p| p.engine == Engine::Linear), patterns.iter().any(|p| p.engine == Engine::Backtracking))
}
