//! `rate_limits.rs`: the spec's rate limits as the runtime's `ratelimit::Policy`, which the
//! client's limiter follows and the mock server enforces.

use crate::model::RateLimits;
use proc_macro2::TokenStream;
use quote::quote;

/// The module, for a spec that gives rate limits.
pub fn emit(r: &RateLimits) -> TokenStream {
    let header = |role: &str| match r.header(role) {
        Some(name) => {
            let lower = name.to_ascii_lowercase();
            quote!(Some(#lower))
        }
        None => quote!(None),
    };
    let (limit, remaining, reset, reset_after, bucket, scope, global_header) =
        (header("limit"), header("remaining"), header("reset"), header("reset_after"), header("bucket"), header("scope"), header("global"));
    let member = |m: Option<&crate::model::Text>| match m {
        Some(m) => {
            let m = &m.id;
            quote!(Some(#m))
        }
        None => quote!(None),
    };
    let (retry_after, global_member) = (member(r.retry_after_member.as_ref()), member(r.global_member.as_ref()));
    let global = match &r.global {
        Some(g) => {
            let (requests, millis) = (g.requests, (g.per_seconds * 1000.0).round().clamp(1.0, u64::MAX as f64) as u64);
            quote!(Some(crate::ratelimit::Global { requests: #requests, per: std::time::Duration::from_millis(#millis) }))
        }
        None => quote!(None),
    };
    let exempt = r.exempt.iter().map(|e| e.id.as_str());
    let major = r.major_params.iter().map(|p| p.id.as_str());
    let doc = r
        .description
        .as_deref()
        .map_or_else(|| " How the platform limits the rate of calls.".to_owned(), |d| format!(" {}", d.lines().next().unwrap_or_default()));
    quote! {
        //! The platform's rate limits, as the client's limiter follows them and the mock server
        //! enforces them.

        #[doc = #doc]
        pub const POLICY: crate::ratelimit::Policy = crate::ratelimit::Policy {
            headers: crate::ratelimit::Headers {
                limit: #limit,
                remaining: #remaining,
                reset: #reset,
                reset_after: #reset_after,
                bucket: #bucket,
                scope: #scope,
                global: #global_header,
            },
            retry_after_member: #retry_after,
            global_member: #global_member,
            global: #global,
            exempt: &[#(#exempt),*],
            major: &[#(#major),*],
        };
    }
}
