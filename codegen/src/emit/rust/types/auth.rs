//! `placeholders.rs` (addresses) and `auth.rs` (scopes, intents, token kinds, credentials and the
//! authorization server metadata).

use super::docs::{docs, meta_docs, meta_notes, summary};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `placeholders.rs`.
pub fn placeholders(plan: &Plan) -> TokenStream {
    let list = &plan.platform.placeholders;
    let idents: Vec<Ident> = list.iter().map(names::placeholder).collect();
    let ids: Vec<&str> = list.iter().map(|p| p.meta.id.as_str()).collect();
    let patterns: Vec<String> = ids.iter().map(|id| format!("{{{id}}}")).collect();
    let examples: Vec<String> = list.iter().map(|p| p.example.clone().unwrap_or_default()).collect();
    let field_docs = list.iter().map(|p| {
        let mut notes = meta_notes(plan, &p.meta);
        if let Some(e) = &p.example {
            notes.push(format!("Defaults to the spec's example `{e}`."));
        }
        docs(Some(&summary(&p.meta)), &notes)
    });
    // A spec without placeholders has an empty struct, derived `Default`, and nothing to match.
    let (derive_default, default_impl, id_param, get) = if list.is_empty() {
        (quote!(, Default), None, quote!(_id), quote!(None))
    } else {
        let default_impl = quote! {
            impl Default for Placeholders {
                fn default() -> Self {
                    Self { #(#idents: #examples.to_owned(),)* }
                }
            }
        };
        let get = quote! {
            match id {
                #(#ids => Some(&self.#idents),)*
                _ => None,
            }
        };
        (quote!(), Some(default_impl), quote!(id), get)
    };
    let substitute = if list.is_empty() { quote!(text.to_owned()) } else { quote!(text #(.replace(#patterns, &self.#idents))*) };
    let origin_fn = (!list.is_empty()).then(|| {
        quote! {
            /// Each placeholder's example with its scheme and authority replaced by `origin`
            /// (`http://127.0.0.1:5555`), keeping the example's path.
            pub fn at_origin(origin: &str) -> Self {
                let examples = Self::default();
                Self { #(#idents: join(origin, path_of(&examples.#idents)),)* }
            }
        }
    });
    let join_fn = (!list.is_empty()).then(|| {
        quote! {
            fn join(origin: &str, path: &str) -> String {
                format!("{}{path}", origin.trim_end_matches('/'))
            }
        }
    });
    quote! {
        //! The addresses the spec writes as `{placeholders}`, and their substitution.

        /// The value of every placeholder of the spec.
        #[derive(Clone, Debug, PartialEq, Eq #derive_default)]
        pub struct Placeholders {
            #( #field_docs pub #idents: String, )*
        }

        #default_impl

        impl Placeholders {
            /// The value of the placeholder with this id.
            pub fn get(&self, #id_param: &str) -> Option<&str> {
                #get
            }

            /// `text` with every `{placeholder}` replaced by its value.
            pub fn substitute(&self, text: &str) -> String {
                #substitute
            }

            #origin_fn
        }

        /// The path of a URL: what follows its scheme and authority, without a trailing slash
        /// (`http://host:8080/api/` gives `/api`).
        pub fn path_of(url: &str) -> &str {
            let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
            let path = after_scheme.find('/').map_or("", |i| &after_scheme[i..]);
            path.trim_end_matches('/')
        }

        #join_fn
    }
}

/// A closed `Copy` enum of spec names with `as_str`, `Display`, `FromStr` and `Serialize`.
fn name_enum(name: &Ident, kind: &str, doc: &str, variants: &[(Ident, String, TokenStream)], extra: TokenStream) -> TokenStream {
    let idents: Vec<&Ident> = variants.iter().map(|(i, _, _)| i).collect();
    let ids: Vec<&String> = variants.iter().map(|(_, id, _)| id).collect();
    let docs = variants.iter().map(|(_, _, d)| d);
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #( #docs #idents, )*
        }

        impl #name {
            /// Every value, in spec order.
            pub const ALL: &'static [Self] = &[#(Self::#idents),*];

            /// The spec's spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    #(Self::#idents => #ids,)*
                }
            }

            #extra
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for #name {
            type Err = crate::wire::UnknownName;

            // The error type by name: a variant named `Err` would make `Self::Err` ambiguous.
            fn from_str(name: &str) -> Result<Self, crate::wire::UnknownName> {
                Self::ALL.iter().copied().find(|v| v.as_str() == name).ok_or_else(|| crate::wire::UnknownName { kind: #kind, name: name.to_owned() })
            }
        }

        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    }
}

/// `auth.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let scopes = scopes(plan);
    let intents = intents(plan);
    let tokens = token_kinds(plan);
    let server = authorization_server(plan);
    quote! {
        //! Authorization vocabulary: scopes, scope sets, intents, token kinds, credentials and the
        //! authorization server metadata.

        #scopes
        #intents
        #tokens
        #server
    }
}

fn scopes(plan: &Plan) -> TokenStream {
    let variants: Vec<(Ident, String, TokenStream)> = plan
        .scopes
        .iter()
        .map(|s| {
            let mut notes = meta_notes(plan, &s.meta);
            if let Some(a) = &s.availability {
                notes.push(format!("Availability: {a}"));
            }
            if s.expands {
                notes.push("Expands automatically to the scopes the integration needs.".to_owned());
            }
            (names::scope_variant(s), s.meta.id.clone(), docs(Some(&summary(&s.meta)), &notes))
        })
        .collect();
    let expanding: Vec<&Ident> = plan.scopes.iter().zip(&variants).filter(|(s, _)| s.expands).map(|(_, v)| &v.0).collect();
    let expands = quote! {
        /// Whether the scope expands automatically to the scopes the integration needs.
        pub const fn expands(self) -> bool {
            matches!(self, #(Self::#expanding)|*)
        }
    };
    let expands = if expanding.is_empty() {
        quote! {
            /// Whether the scope expands automatically to the scopes the integration needs.
            pub const fn expands(self) -> bool {
                false
            }
        }
    } else {
        expands
    };
    let scope_enum = name_enum(&quote::format_ident!("Scope"), "scope", " An OAuth2 scope the spec names.", &variants, expands);
    let sets = plan.scope_sets.iter().map(|set| {
        let name = names::scope_set_const(set);
        let id = &set.meta.id;
        let members = set.scopes.iter().map(|s| plan.scope_variant(&s.id));
        let call = match &set.call {
            Some(c) => quote!(Some(#c)),
            None => quote!(None),
        };
        let doc = meta_docs(plan, &set.meta);
        quote! {
            #doc
            pub const #name: ScopeSet = ScopeSet { id: #id, scopes: &[#(Scope::#members),*], call: #call };
        }
    });
    quote! {
        #scope_enum

        /// A named list of scopes.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct ScopeSet {
            /// The stable id.
            pub id: &'static str,
            /// The scopes, in order.
            pub scopes: &'static [Scope],
            /// The SDK call that returns the set, if any.
            pub call: Option<&'static str>,
        }

        impl ScopeSet {
            /// The scopes as OAuth2 writes them: space-separated (`openid sdk.social_layer`).
            pub fn to_scope_string(&self) -> String {
                self.scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
            }
        }

        #(#sets)*
    }
}

fn intents(plan: &Plan) -> TokenStream {
    let variants: Vec<(Ident, String, TokenStream)> =
        plan.intents.iter().map(|i| (names::intent_variant(i), i.meta.id.clone(), meta_docs(plan, &i.meta))).collect();
    let privileged: Vec<&Ident> = plan.intents.iter().zip(&variants).filter(|(i, _)| i.privileged).map(|(_, v)| &v.0).collect();
    let body = if privileged.is_empty() { quote!(false) } else { quote!(matches!(self, #(Self::#privileged)|*)) };
    let extra = quote! {
        /// Whether apps must be approved for the intent.
        pub const fn privileged(self) -> bool {
            #body
        }
    };
    name_enum(&quote::format_ident!("Intent"), "intent", " A Gateway intent the spec names.", &variants, extra)
}

fn token_kinds(plan: &Plan) -> TokenStream {
    let variants: Vec<(Ident, String, TokenStream)> =
        plan.token_kinds.iter().map(|k| (names::token_kind_variant(k), k.meta.id.clone(), meta_docs(plan, &k.meta))).collect();
    let scheme_arms = plan.token_kinds.iter().zip(&variants).map(|(k, (v, _, _))| match &k.scheme {
        Some(s) => quote!(Self::#v => Some(#s)),
        None => quote!(Self::#v => None),
    });
    let extra = quote! {
        /// The `Authorization` header scheme that presents the token, when known.
        pub const fn scheme(self) -> Option<&'static str> {
            match self {
                #(#scheme_arms,)*
            }
        }
    };
    // A spec without token kinds has no credential to read (and a `TokenKind` with no value).
    let from_header = if plan.token_kinds.is_empty() {
        quote! {
            let _ = (value, accepted);
            None
        }
    } else {
        // A server reads one for every request. Header values are ASCII (`HeaderValue::to_str`),
        // so the token is checked for whitespace byte by byte, character by character only
        // when it holds more than ASCII.
        quote! {
            let value = value.trim();
            if let Some((scheme, token)) = value.split_once(' ') {
                let token = token.trim();
                let spaced = if token.is_ascii() { token.bytes().any(|b| matches!(b, b'\t'..=b'\r' | b' ')) } else { token.contains(char::is_whitespace) };
                let kind = accepted.iter().copied().find(|k| k.scheme().is_some_and(|s| s.eq_ignore_ascii_case(scheme)));
                if let Some(kind) = kind.filter(|_| !token.is_empty() && !spaced) {
                    return Some(Self { kind, token });
                }
            }
            let bare = accepted.iter().copied().find(|k| k.scheme().is_none())?;
            (!value.is_empty()).then_some(Self { kind: bare, token: value })
        }
    };
    let kind_enum = name_enum(&quote::format_ident!("TokenKind"), "token kind", " A kind of token the platform accepts.", &variants, extra);
    let constructors = plan.token_kinds.iter().zip(&variants).map(|(k, (v, id, _))| {
        let f = names::token_kind_constructor(k);
        let doc = crate::emit::rust::format::led_lines("", &format!("A credential of kind `{id}`."));
        let header = match &k.scheme {
            Some(scheme) => format!(" It is sent as `Authorization: {scheme} <token>`."),
            None => {
                " The kind has no scheme word: `token` is the whole `Authorization` header value, so a scheme the platform expects (`Bot <token>`) goes in it."
                    .to_owned()
            }
        };
        quote! {
            #(#[doc = #doc])*
            #[doc = ""]
            #[doc = #header]
            pub fn #f(token: impl Into<String>) -> Self {
                Self::new(TokenKind::#v, token)
            }
        }
    });
    quote! {
        #kind_enum

        /// A token of some kind, as presented in the `Authorization` header.
        ///
        /// `Debug` never prints the token, so credentials can be logged safely.
        #[derive(Clone, PartialEq, Eq)]
        pub struct Credential {
            /// What kind of token it is.
            pub kind: TokenKind,
            /// The token itself.
            pub token: String,
        }

        impl Credential {
            /// A credential of `kind`.
            pub fn new(kind: TokenKind, token: impl Into<String>) -> Self {
                Self { kind, token: token.into() }
            }

            #(#constructors)*

            /// The `Authorization` header value: `Bot abc` for a kind with a scheme, the token
            /// itself for one without.
            pub fn header_value(&self) -> Option<String> {
                Some(match self.kind.scheme() {
                    Some(scheme) => format!("{scheme} {}", self.token),
                    None => self.token.clone(),
                })
            }

            /// Reads an `Authorization` header value presenting one of the `accepted` kinds, as
            /// [`CredentialRef::from_header`] does, and keeps the token.
            pub fn from_header(value: &str, accepted: &[TokenKind]) -> Option<Self> {
                CredentialRef::from_header(value, accepted).map(Self::from)
            }
        }

        impl std::fmt::Debug for Credential {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("Credential").field("kind", &self.kind).field("token", &"<redacted>").finish()
            }
        }

        /// A credential as a request presents it, its token borrowed from the `Authorization`
        /// header: what a server reads for every request, without copying the token.
        ///
        /// `Debug` never prints the token either; `Credential::from` keeps one.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct CredentialRef<'a> {
            /// What kind of token it is.
            pub kind: TokenKind,
            /// The token itself.
            pub token: &'a str,
        }

        impl<'a> CredentialRef<'a> {
            /// Reads an `Authorization` header value presenting one of the `accepted` kinds.
            /// Schemes compare without regard to case (RFC 9110 §11.1); the token is one word. A
            /// value no accepted scheme names is the token of an accepted kind without one.
            pub fn from_header(value: &'a str, accepted: &[TokenKind]) -> Option<Self> {
                #from_header
            }
        }

        impl<'a> From<&'a Credential> for CredentialRef<'a> {
            fn from(credential: &'a Credential) -> Self {
                Self { kind: credential.kind, token: &credential.token }
            }
        }

        impl From<CredentialRef<'_>> for Credential {
            fn from(credential: CredentialRef<'_>) -> Self {
                Self::new(credential.kind, credential.token)
            }
        }

        impl std::fmt::Debug for CredentialRef<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("CredentialRef").field("kind", &self.kind).field("token", &"<redacted>").finish()
            }
        }
    }
}

fn authorization_server(plan: &Plan) -> TokenStream {
    let Some(server) = &plan.authorization_server else { return TokenStream::new() };
    let issuer = &server.issuer;
    let entries = server.metadata.iter().map(|(key, value)| {
        let value = json_tokens(value);
        quote!(doc.insert(#key.to_owned(), #value);)
    });
    let notes: Vec<String> = server.notes.iter().cloned().chain(server.assumed.iter().map(|(k, r)| format!("Assumed `{k}`: {r}"))).collect();
    let doc = docs(Some("The authorization server metadata (RFC 8414) and OpenID configuration document, with the placeholders filled in."), &notes);
    quote! {
        /// The issuer identifier, with its placeholders unfilled.
        pub const ISSUER: &str = #issuer;

        #doc
        pub fn authorization_server_metadata(placeholders: &crate::placeholders::Placeholders) -> serde_json::Value {
            let mut doc = serde_json::Map::new();
            doc.insert("issuer".to_owned(), serde_json::Value::String(placeholders.substitute(ISSUER)));
            #(#entries)*
            serde_json::Value::Object(doc)
        }
    }
}

/// A JSON value as an expression; strings have their placeholders filled in.
fn json_tokens(value: &serde_json::Value) -> TokenStream {
    use serde_json::Value;
    match value {
        Value::Null => quote!(serde_json::Value::Null),
        Value::Bool(b) => quote!(serde_json::Value::Bool(#b)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                quote!(serde_json::Value::from(#i))
            } else if let Some(u) = n.as_u64() {
                quote!(serde_json::Value::from(#u))
            } else {
                let f = n.as_f64().unwrap_or_default();
                quote!(serde_json::Value::from(#f))
            }
        }
        Value::String(s) => quote!(serde_json::Value::String(placeholders.substitute(#s))),
        Value::Array(items) => {
            let items = items.iter().map(json_tokens);
            quote!(serde_json::Value::Array(vec![#(#items),*]))
        }
        Value::Object(map) => {
            let entries = map.iter().map(|(k, v)| {
                let v = json_tokens(v);
                quote!(map.insert(#k.to_owned(), #v);)
            });
            quote!({
                let mut map = serde_json::Map::new();
                #(#entries)*
                serde_json::Value::Object(map)
            })
        }
    }
}
