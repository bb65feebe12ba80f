//! `deprecations.rs` of the types crate: what is deprecated on the wire (endpoints, route
//! aliases, behaviours), the headers that say so, `Deprecation` (RFC 9745), `Sunset` (RFC 8594)
//! and a `Link` to the change's entry in the docs, and the notice a client reads back from them.

use crate::model::{Endpoint, Meta, Ref};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// Something the server marks deprecated in its answers: the constant's name, the item's path,
/// and its `deprecated` and `until` changes.
pub struct Wired<'m> {
    pub ident: Ident,
    pub item: String,
    pub by: &'m Ref,
    pub until: Option<&'m Ref>,
}

fn wired<'m>(prefix: &str, parts: &[&str], item: String, meta: &'m Meta) -> Option<Wired<'m>> {
    let by = meta.deprecated.as_ref()?;
    Some(Wired { ident: names::deprecation_const(prefix, parts), item, by, until: meta.until.as_ref() })
}

/// The endpoint itself, when deprecated: `ENDPOINT_<ID>`.
pub fn endpoint(e: &Endpoint) -> Option<Wired<'_>> {
    wired("endpoint", &[e.meta.rust()], format!("endpoint:{}", e.meta.id), &e.meta)
}

/// Each deprecated alias route of an endpoint: `(alias index, ALIAS_<ENDPOINT>_<ID>)`.
pub fn aliases(e: &Endpoint) -> Vec<(usize, Wired<'_>)> {
    e.aliases
        .iter()
        .enumerate()
        .filter_map(|(i, a)| wired("alias", &[e.meta.rust(), a.meta.rust()], format!("endpoint:{}.aliases.{}", e.meta.id, a.meta.id), &a.meta).map(|w| (i, w)))
        .collect()
}

/// Each deprecated behaviour of an endpoint: `BEHAVIOUR_<ENDPOINT>_<ID>`.
pub fn behaviours(e: &Endpoint) -> Vec<Wired<'_>> {
    e.behaviours
        .iter()
        .filter_map(|b| wired("behaviour", &[e.meta.rust(), b.meta.rust()], format!("endpoint:{}.behaviours.{}", e.meta.id, b.meta.id), &b.meta))
        .collect()
}

/// Every deprecated endpoint, alias and behaviour of the model.
pub fn all<'p>(plan: &'p Plan<'p>) -> Vec<Wired<'p>> {
    let mut out = Vec::new();
    for e in &plan.endpoints {
        out.extend(endpoint(e));
        out.extend(aliases(e).into_iter().map(|(_, w)| w));
        out.extend(behaviours(e));
    }
    out
}

/// The module's items.
pub fn emit(plan: &Plan) -> TokenStream {
    let list = all(plan);
    let consts = list.iter().map(|w| {
        let (ident, item, by) = (&w.ident, &w.item, plan.change_const(&w.by.id));
        let until = match w.until {
            Some(u) => {
                let u = plan.change_const(&u.id);
                quote!(Some(&crate::changes::#u))
            }
            None => quote!(None),
        };
        let doc = format!(" `{item}`, deprecated by change `{}`.", w.by.id);
        quote! {
            #[doc = #doc]
            pub const #ident: Deprecated = Deprecated { item: #item, by: &crate::changes::#by, until: #until };
        }
    });
    let names = list.iter().map(|w| &w.ident);
    let runtime = runtime();
    quote! {
        //! What the platform deprecates on the wire (endpoints, route aliases, behaviours), the
        //! headers that say so and the notice a client reads back from them.
        //!
        //! A deprecated answer carries `Deprecation: @<seconds>` (RFC 9745: when it was or will be
        //! deprecated), `Sunset: <HTTP-date>` (RFC 8594: when it goes away, once a dated change
        //! removes it), and `Link`s with relation `deprecation` and `sunset` to the changes'
        //! entries in the reference page. A change already in effect has no date: its
        //! `Deprecation` is `@0`, deprecated since before any date the platform gives.

        use crate::changes::{Change, Effective};
        use jiff::Timestamp;

        #(#consts)*

        /// Every deprecated endpoint, alias and behaviour, in spec order.
        pub const ALL: &[Deprecated] = &[#(#names),*];

        #runtime
    }
}

/// The spec-independent part: [`Deprecated`], the header values, and `Notice`.
fn runtime() -> TokenStream {
    quote! {
        /// Something deprecated on the wire.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Deprecated {
            /// What is deprecated, as the spec names it (`endpoint:token.behaviours.x`).
            pub item: &'static str,
            /// The change that deprecates it.
            pub by: &'static Change,
            /// The change that removes it, when one is announced.
            pub until: Option<&'static Change>,
        }

        impl Deprecated {
            /// Whether it is still there at `now`: its `until` change is not in effect yet.
            pub fn is_present(&self, now: Timestamp) -> bool {
                self.until.is_none_or(|u| !u.is_in_effect(now))
            }
        }

        /// The instant a change names in a header: its date, the epoch for a change already in
        /// effect, nothing for an unscheduled one.
        fn instant(change: &Change) -> Option<Timestamp> {
            match change.effective {
                Effective::At(at) => Some(at),
                Effective::AlreadyInEffect => Some(Timestamp::UNIX_EPOCH),
                Effective::Unscheduled => None,
            }
        }

        /// The headers of an answer that uses everything in `used`: one `Deprecation` (the
        /// earliest), one `Sunset` (the earliest dated removal) and a `Link` per change, pointing
        /// into the reference page at `docs` when the platform publishes one.
        pub fn headers(used: &[&Deprecated], docs: Option<&str>) -> Vec<(&'static str, String)> {
            let mut out = Vec::new();
            if let Some(at) = used.iter().filter_map(|d| instant(d.by)).min() {
                out.push(("deprecation", format!("@{}", at.as_second())));
            }
            if let Some(at) = used.iter().filter_map(|d| d.until.and_then(Change::effective_at)).min() {
                out.push(("sunset", jiff::fmt::rfc2822::DateTimePrinter::new().timestamp_to_rfc9110_string(&at).unwrap_or_default()));
            }
            let Some(docs) = docs else { return out };
            let mut links: Vec<String> = Vec::new();
            for d in used {
                let relations = std::iter::once(("deprecation", Some(d.by))).chain(std::iter::once(("sunset", d.until.filter(|u| u.effective_at().is_some()))));
                for (rel, change) in relations {
                    let Some(change) = change else { continue };
                    let link = format!("<{docs}#change-{}>; rel=\"{rel}\"; type=\"text/html\"", change.id);
                    if !links.contains(&link) {
                        links.push(link);
                    }
                }
            }
            out.extend(links.into_iter().map(|l| ("link", l)));
            out
        }

        /// What an answer said about deprecation, as a client reads it.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Notice {
            /// The endpoint called (`token`).
            pub endpoint: &'static str,
            /// When what was called was (or will be) deprecated: the `Deprecation` header.
            pub deprecated_at: Option<Timestamp>,
            /// When it goes away: the `Sunset` header.
            pub sunset: Option<Timestamp>,
            /// Where to read about it: the `Link` targets with relation `deprecation` or `sunset`.
            pub links: Vec<String>,
        }

        impl Notice {
            /// The notice of an answer to `endpoint` with `headers` (names in any case), when it
            /// carries a `Deprecation` or `Sunset` header.
            pub fn from_headers<'h>(endpoint: &'static str, headers: impl IntoIterator<Item = (&'h str, &'h str)>) -> Option<Self> {
                let mut notice = Notice { endpoint, deprecated_at: None, sunset: None, links: Vec::new() };
                let mut seen = false;
                for (name, value) in headers {
                    let value = value.trim();
                    if name.eq_ignore_ascii_case("deprecation") {
                        seen = true;
                        notice.deprecated_at = value.strip_prefix('@').and_then(|s| s.parse::<i64>().ok()).and_then(|s| Timestamp::from_second(s).ok());
                    } else if name.eq_ignore_ascii_case("sunset") {
                        seen = true;
                        notice.sunset = jiff::fmt::rfc2822::DateTimeParser::new().parse_timestamp(value).ok();
                    } else if name.eq_ignore_ascii_case("link") {
                        notice.links.extend(value.split(',').filter_map(deprecation_link));
                    }
                }
                seen.then_some(notice)
            }
        }

        /// The target of one `Link` value when its relation is `deprecation` or `sunset`.
        fn deprecation_link(link: &str) -> Option<String> {
            let (target, params) = link.trim().strip_prefix('<')?.split_once('>')?;
            let rel = params.split(';').filter_map(|p| p.trim().strip_prefix("rel=")).next()?.trim_matches('"');
            rel.split_whitespace().any(|r| r == "deprecation" || r == "sunset").then(|| target.to_owned())
        }
    }
}
