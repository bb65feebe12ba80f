//! `errors.rs`: error codes, the errors of the spec, the error body and `ApiError`.
//!
//! `ApiError` is what both sides hold; the body is what the wire carries. The body's fields are
//! the spec's, filled by name: `code`, `message`, `errors` (violations), `missing` (what a
//! caller lacks) and `error` (the OAuth2 error); any other field gets its default.

use super::docs::{docs, meta_notes};
use super::fields::struct_tokens;
use crate::emit::rust::shared::int;
use crate::model::types::Primitive;
use crate::model::{Error, Field, TypeRef, ViolationTree};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The id of the error whose code errors without one carry; 0 when the spec has none.
pub const GENERAL_ERROR: &str = "general_error";

/// `errors.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let (codes, oauth, defs, body) = (error_codes(plan), oauth_errors(plan), error_defs(plan), error_body(plan));
    let (api_error, traits) = (api_error(plan), api_error_traits());
    quote! {
        //! Errors: the platform's error codes, every error the spec names, the JSON error body and
        //! [`ApiError`], which the server renders and the client reads back.

        use crate::validation::Violation;
        use std::fmt;

        #codes
        #oauth
        #defs
        #body
        #api_error
        #traits
    }
}

/// `ErrorDef`, one constant per error, `ALL` and `GENERAL_CODE`.
fn error_defs(plan: &Plan) -> TokenStream {
    let defs = plan.errors.iter().map(|e| error_const(plan, e));
    let all = plan.errors.iter().map(names::error_const);
    let general = int(plan.errors.iter().find(|e| e.meta.id == GENERAL_ERROR).and_then(|e| e.code).unwrap_or(0));
    quote! {
        /// An error the spec names: its code, status and the condition that raises it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct ErrorDef {
            /// The stable id.
            pub id: &'static str,
            /// The display name.
            pub name: &'static str,
            /// The numeric code, when it has one.
            pub code: Option<ErrorCode>,
            /// The OAuth2 error code (RFC 6749 §5.2), for errors of the authorization server.
            pub oauth_error: Option<&'static str>,
            /// The HTTP status, when known.
            pub status: Option<u16>,
            /// When it is raised.
            pub condition: &'static str,
            /// The message, when the source gives it.
            pub message: Option<&'static str>,
            /// The endpoints that return it, by id.
            pub endpoints: &'static [&'static str],
        }

        #(#defs)*

        /// Every error the spec names, in spec order.
        pub const ALL: &[&ErrorDef] = &[#(&#all),*];

        /// The code carried by errors that have none of their own.
        pub const GENERAL_CODE: ErrorCode = ErrorCode::from_value(#general);
    }
}

/// The `ApiError` struct and its inherent methods.
fn api_error(plan: &Plan) -> TokenStream {
    let (builders, reads) = (api_error_builders(), api_error_reads(plan));
    quote! {
        /// An error response: status, code, message, and what exactly was wrong.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct ApiError {
            /// The HTTP status.
            pub status: u16,
            /// The platform's error code.
            pub code: ErrorCode,
            /// A human-readable message.
            pub message: String,
            /// Every constraint the request broke, each at a JSON pointer.
            pub violations: Vec<Violation>,
            /// What the caller lacks (permissions, intents, scopes, conditions).
            pub missing: Vec<String>,
            /// The OAuth2 error code, on the authorization server's endpoints.
            pub oauth_error: Option<OAuthError>,
        }

        impl ApiError {
            #builders
            #reads
        }
    }
}

/// `ApiError::new` and the `with_*` builders.
fn api_error_builders() -> TokenStream {
    quote! {
        /// The error `def` names, with its status (400 when the spec shows none) and its
        /// message (else its condition).
        pub fn new(def: &ErrorDef) -> Self {
            Self {
                status: def.status.unwrap_or(400),
                code: def.code.unwrap_or(GENERAL_CODE),
                message: def.message.unwrap_or(def.condition).to_owned(),
                violations: Vec::new(),
                missing: Vec::new(),
                oauth_error: def.oauth_error.map(OAuthError::from),
            }
        }

        /// Replaces the message.
        pub fn with_message(mut self, message: impl Into<String>) -> Self {
            self.message = message.into();
            self
        }

        /// Replaces the status.
        pub fn with_status(mut self, status: u16) -> Self {
            self.status = status;
            self
        }

        /// Sets the violations.
        pub fn with_violations(mut self, violations: Vec<Violation>) -> Self {
            self.violations = violations;
            self
        }

        /// Sets what the caller lacks.
        pub fn with_missing(mut self, missing: Vec<String>) -> Self {
            self.missing = missing;
            self
        }

        /// The message followed by `violations`, when there are some (`message: a; b`): how a
        /// body with no member for them still says them.
        pub fn message_with<V: fmt::Display>(&self, violations: &[V]) -> String {
            if violations.is_empty() {
                return self.message.clone();
            }
            let said: Vec<String> = violations.iter().map(ToString::to_string).collect();
            format!("{}: {}", self.message, said.join("; "))
        }
    }
}

/// `ApiError::is`, `to_body` and `from_body`.
fn api_error_reads(plan: &Plan) -> TokenStream {
    let fields = body_fields(plan);
    let (to_body, from_body) = body_conversions(plan, &fields);
    // A body with none of the fields `ApiError` reads is not read at all.
    let body_param = if fields.iter().any(|f| known(plan, f).is_some()) { quote!(body) } else { quote!(_body) };
    quote! {
        /// Whether this is the error `def` names: same code, or same OAuth2 error, or (for
        /// an error with neither) same status with the general code.
        pub fn is(&self, def: &ErrorDef) -> bool {
            match (def.code, def.oauth_error) {
                (Some(code), _) => self.code == code,
                (None, Some(oauth)) => self.oauth_error.as_ref().is_some_and(|e| e.as_str() == oauth),
                (None, None) => self.code == GENERAL_CODE && def.status == Some(self.status),
            }
        }

        /// The JSON body that carries the error.
        pub fn to_body(&self) -> ErrorBody {
            #to_body
        }

        /// The error a response with `status` and `body` carries.
        pub fn from_body(status: u16, #body_param: ErrorBody) -> Self {
            #from_body
        }
    }
}

/// `Display`, `Error` and `From<&ErrorDef>` for `ApiError`.
fn api_error_traits() -> TokenStream {
    quote! {
        impl fmt::Display for ApiError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} (status {}, code {})", self.message, self.status, self.code.value())?;
                for v in &self.violations {
                    write!(f, "; {v}")?;
                }
                if !self.missing.is_empty() {
                    write!(f, "; missing {}", self.missing.join(", "))?;
                }
                Ok(())
            }
        }

        impl std::error::Error for ApiError {}

        impl From<&ErrorDef> for ApiError {
            fn from(def: &ErrorDef) -> Self {
                Self::new(def)
            }
        }
    }
}

fn coded<'p>(plan: &'p Plan<'p>) -> Vec<(&'p Error, Ident, i64)> {
    plan.errors.iter().filter_map(|e| Some((e, names::error_variant(e), e.code?))).collect()
}

fn error_codes(plan: &Plan) -> TokenStream {
    let coded = coded(plan);
    let other = plan.error_catch_all();
    let variants = coded.iter().map(|(e, ident, n)| {
        let doc = docs(Some(&condition_doc(e)), &[format!("Code `{n}`, error `{}`.", e.meta.id)]);
        quote!(#doc #ident,)
    });
    let idents: Vec<&Ident> = coded.iter().map(|(_, i, _)| i).collect();
    let numbers: Vec<TokenStream> = coded.iter().map(|(_, _, n)| int(*n)).collect();
    let consts: Vec<Ident> = coded.iter().map(|(e, _, _)| names::error_const(e)).collect();
    let from_value = super::enums::from_value_body(&idents, &numbers, &other);
    quote! {
        /// A numeric error code of the platform; codes the spec does not name are kept as received.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            #(#variants)*
            /// A code the spec does not name.
            #other(i64),
        }

        impl ErrorCode {
            /// Every code the spec names, in spec order.
            pub const KNOWN: &'static [Self] = &[#(Self::#idents),*];

            /// The number on the wire.
            pub const fn value(self) -> i64 {
                match self {
                    #(Self::#idents => #numbers,)*
                    Self::#other(value) => value,
                }
            }

            /// The code for a wire number.
            pub const fn from_value(value: i64) -> Self {
                #from_value
            }

            /// The error the spec names with this code.
            pub const fn def(self) -> Option<&'static ErrorDef> {
                match self {
                    #(Self::#idents => Some(&#consts),)*
                    Self::#other(_) => None,
                }
            }
        }

        impl serde::Serialize for ErrorCode {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.value())
            }
        }

        impl<'de> serde::Deserialize<'de> for ErrorCode {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <i64 as serde::Deserialize>::deserialize(deserializer).map(Self::from_value)
            }
        }
    }
}

fn oauth_errors(plan: &Plan) -> TokenStream {
    let named: Vec<(&Error, Ident, &str)> = plan.errors.iter().filter_map(|e| Some((e, names::oauth_variant(e)?, e.oauth_error.as_deref()?))).collect();
    let variants = named.iter().map(|(e, ident, _)| {
        let doc = docs(Some(&condition_doc(e)), &[format!("Error `{}`.", e.meta.id)]);
        quote!(#doc #ident,)
    });
    let idents: Vec<&Ident> = named.iter().map(|(_, i, _)| i).collect();
    let texts: Vec<&str> = named.iter().map(|(_, _, t)| *t).collect();
    let from_text = if named.is_empty() {
        quote!(Self::Unknown(text.to_owned()))
    } else {
        quote! {
            match text {
                #(#texts => Self::#idents,)*
                other => Self::Unknown(other.to_owned()),
            }
        }
    };
    quote! {
        /// An OAuth2 error code (RFC 6749 §5.2); codes the spec does not name are kept as received.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum OAuthError {
            #(#variants)*
            /// A code the spec does not name.
            Unknown(String),
        }

        impl OAuthError {
            /// The text on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#idents => #texts,)*
                    Self::Unknown(text) => text,
                }
            }
        }

        impl From<&str> for OAuthError {
            fn from(text: &str) -> Self {
                #from_text
            }
        }

        impl fmt::Display for OAuthError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    }
}

fn error_const(plan: &Plan, e: &Error) -> TokenStream {
    let name = names::error_const(e);
    let id = &e.meta.id;
    let display = &e.meta.name;
    let opt_str = |v: Option<&str>| match v {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    };
    let code = match e.code {
        Some(_) => {
            let v = names::error_variant(e);
            quote!(Some(ErrorCode::#v))
        }
        None => quote!(None),
    };
    let oauth = opt_str(e.oauth_error.as_deref());
    let status = match e.status {
        Some(s) => {
            let s = int(i64::from(s));
            quote!(Some(#s))
        }
        None => quote!(None),
    };
    let condition = &e.condition;
    let message = opt_str(e.message.as_deref());
    let endpoints = e.endpoints.iter().map(|r| r.id.as_str());
    let doc = docs(Some(&condition_doc(e)), &meta_notes(plan, &e.meta));
    quote! {
        #doc
        pub const #name: ErrorDef = ErrorDef {
            id: #id,
            name: #display,
            code: #code,
            oauth_error: #oauth,
            status: #status,
            condition: #condition,
            message: #message,
            endpoints: &[#(#endpoints),*],
        };
    }
}

/// The fields of the error body: the spec's, or `code` and `message` when it declares none.
pub(crate) fn body_fields(plan: &Plan) -> Vec<Field> {
    match &plan.error_body {
        Some(b) => b.fields.clone(),
        None => ["code", "message"]
            .into_iter()
            .map(|name| Field {
                name: name.to_owned(),
                ty: Some(if name == "code" { TypeRef::Primitive(Primitive::Integer) } else { TypeRef::Primitive(Primitive::String) }),
                ..Field::default()
            })
            .collect(),
    }
}

fn error_body(plan: &Plan) -> TokenStream {
    let (description, notes) = match &plan.error_body {
        Some(b) => {
            let mut notes: Vec<String> =
                b.not_shown.iter().map(|g| format!("Not shown by the source: {}.", g.detail.clone().unwrap_or_else(|| format!("`{}`", g.facet)))).collect();
            notes.extend(b.assumed.iter().map(|(k, r)| format!("Assumed `{k}`: {r}")));
            (b.description.clone().unwrap_or_else(|| "The JSON body of an error response.".to_owned()), notes)
        }
        None => ("The JSON body of an error response (the spec declares none; this is the default shape).".to_owned(), Vec::new()),
    };
    struct_tokens(plan, &format_ident!("ErrorBody"), docs(Some(&description), &notes), &body_fields(plan), false)
}

/// How a known field is filled from an `ApiError` and read back.
enum Known {
    Code,
    Message,
    Errors,
    /// Violations nested by field (see `ViolationTree`), in an optional field.
    Tree(ViolationTree),
    Missing,
    OAuth,
    /// The HTTP status, which the response's own status gives back.
    Status,
}

fn known(plan: &Plan, f: &Field) -> Option<Known> {
    // A field with three states or a typed default is not one an error fills: its type is not
    // the `Option` or value the conversions read and write.
    if f.three_state() || f.defaulted() {
        return None;
    }
    let ty = f.ty.as_ref()?;
    let is = |p: Primitive| *ty == TypeRef::Primitive(p);
    match f.name.as_str() {
        "code" if is(Primitive::Integer) => Some(Known::Code),
        "message" if is(Primitive::String) => Some(Known::Message),
        "errors" if is(Primitive::Json) => Some(Known::Errors),
        "missing" if *ty == TypeRef::Array(Box::new(TypeRef::Primitive(Primitive::String))) => Some(Known::Missing),
        "error" if is(Primitive::String) => Some(Known::OAuth),
        "status" if is(Primitive::Integer) || is(Primitive::Int32) => Some(Known::Status),
        _ if f.may_be_absent() || f.nullable => plan.violation_tree(ty).map(Known::Tree),
        _ => None,
    }
}

/// A closure giving the `code` of a violation's item in a tree: the violation's own when it
/// has one of the item's type, else the error's code.
fn tree_code(tree: &ViolationTree) -> TokenStream {
    match tree.code {
        None => quote!(|_: &crate::validation::Violation| None),
        Some(Primitive::String) => quote! {
            |v: &crate::validation::Violation| Some(serde_json::Value::from(v.code.clone().unwrap_or_else(|| self.code.value().to_string())))
        },
        Some(_) => quote! {
            |v: &crate::validation::Violation| Some(serde_json::Value::from(v.code.as_deref().and_then(|c| c.parse::<i64>().ok()).unwrap_or(self.code.value())))
        },
    }
}

/// The bodies of `ApiError::to_body` and `ApiError::from_body`.
fn body_conversions(plan: &Plan, fields: &[Field]) -> (TokenStream, TokenStream) {
    let optional = |f: &Field| f.may_be_absent() || f.nullable;
    // A body with no member for the violations says them in its message, so a refusal names
    // every one whatever shape the spec gives its errors.
    let has_list = fields.iter().any(|f| matches!(known(plan, f), Some(Known::Errors)));
    // The first tree takes the violations (what it cannot hold is said in the message).
    let tree = fields.iter().find_map(|f| match known(plan, f) {
        Some(Known::Tree(tree)) if !has_list => Some((f.name.as_str(), tree)),
        _ => None,
    });
    // The violations the message says: none beside a list, what a tree leaves out, else all.
    let said = match (has_list, &tree) {
        (true, _) => None,
        (false, Some(_)) => Some(quote!(unplaced)),
        (false, None) => Some(quote!(self.violations)),
    };
    let to = fields.iter().map(|f| {
        let ident = names::field(f);
        let value = match known(plan, f) {
            Some(Known::Code) => quote!(self.code.value()),
            Some(Known::Message) if said.is_some() => quote!(self.message_with(&#said)),
            Some(Known::Message) => quote!(self.message.clone()),
            Some(Known::Errors) => quote!(serde_json::to_value(&self.violations).unwrap_or_default()),
            // Read as the field's union; `None` when empty, or should it not read.
            Some(Known::Tree(_)) if tree.as_ref().is_some_and(|(name, _)| *name == f.name) => {
                return quote! {
                    #ident: Some(tree).filter(|t| t.as_object().is_some_and(|t| !t.is_empty())).and_then(|t| serde_json::from_value(t).ok()),
                };
            }
            Some(Known::Tree(_)) => return quote!(#ident: None,),
            Some(Known::Missing) => quote!(self.missing.clone()),
            Some(Known::OAuth) => quote!(self.oauth_error.as_ref().map(|e| e.as_str().to_owned())),
            Some(Known::Status) => quote!(self.status.into()),
            // The spec's default stands in for an absent value; `Presence` starts absent.
            None if f.defaulted() => {
                let default = names::default_fn(f);
                return quote!(#ident: ErrorBody::#default(),);
            }
            None if optional(f) && !f.three_state() => return quote!(#ident: None,),
            None => return quote!(#ident: Default::default(),),
        };
        let value = match known(plan, f) {
            Some(Known::OAuth) if optional(f) => value,
            Some(Known::OAuth) => quote!(#value.unwrap_or_default()),
            Some(Known::Errors) if optional(f) => quote!((!self.violations.is_empty()).then(|| #value)),
            Some(Known::Missing) if optional(f) => quote!((!self.missing.is_empty()).then(|| #value)),
            _ if optional(f) => quote!(Some(#value)),
            _ => value,
        };
        quote!(#ident: #value,)
    });
    let read = |kind: Known| fields.iter().find(|f| known(plan, f).is_some_and(|k| std::mem::discriminant(&k) == std::mem::discriminant(&kind)));
    // Each known field read back: `(optional form, required form)`.
    let take = |kind: Known, optional_form: fn(TokenStream) -> TokenStream, required_form: fn(TokenStream) -> TokenStream| {
        read(kind).map(|f| {
            let ident = names::field(f);
            if optional(f) { optional_form(quote!(body.#ident)) } else { required_form(quote!(body.#ident)) }
        })
    };
    let code = take(Known::Code, |a| quote!(#a.map(ErrorCode::from_value).unwrap_or(GENERAL_CODE)), |a| quote!(ErrorCode::from_value(#a)));
    let message = take(Known::Message, |a| quote!(#a.unwrap_or_default()), |a| a);
    // The first field that carries violations, a list or a tree.
    let violations = fields.iter().find_map(|f| {
        let ident = names::field(f);
        match known(plan, f)? {
            Known::Errors if optional(f) => Some(quote!(body.#ident.and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default())),
            Known::Errors => Some(quote!(serde_json::from_value(body.#ident).unwrap_or_default())),
            Known::Tree(tree) => {
                let leaf = &tree.leaf;
                Some(quote! {
                    body.#ident
                        .map(|t| crate::validation::violations_from_tree(&serde_json::to_value(t).unwrap_or_default(), #leaf))
                        .unwrap_or_default()
                })
            }
            _ => None,
        }
    });
    let missing = take(Known::Missing, |a| quote!(#a.unwrap_or_default()), |a| a);
    let oauth = take(
        Known::OAuth,
        |a| quote!(#a.filter(|e| !e.is_empty()).map(|e| OAuthError::from(e.as_str()))),
        |a| quote!((!#a.is_empty()).then(|| OAuthError::from(#a.as_str()))),
    );
    let or = |t: Option<TokenStream>, d: TokenStream| t.unwrap_or(d);
    let code = or(code, quote!(GENERAL_CODE));
    let message = or(message, quote!(String::new()));
    let violations = or(violations, quote!(Vec::new()));
    let missing = or(missing, quote!(Vec::new()));
    let oauth = or(oauth, quote!(None));
    let prelude = tree.as_ref().map(|(_, tree)| {
        let (leaf, code) = (&tree.leaf, tree_code(tree));
        quote!(let (tree, unplaced) = crate::validation::violation_tree(&self.violations, #leaf, #code);)
    });
    (
        quote!(#prelude ErrorBody { #(#to)* }),
        quote!(Self { status, code: #code, message: #message, violations: #violations, missing: #missing, oauth_error: #oauth }),
    )
}

/// The condition an error's docs start with; the error's id where the spec leaves it blank.
fn condition_doc(e: &crate::model::Error) -> String {
    if e.condition.trim().is_empty() { format!("The error `{}`.", e.meta.id) } else { e.condition.clone() }
}
