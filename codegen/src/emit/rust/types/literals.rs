//! Values written in the spec (`default`, `const`) as Rust expressions of the field's type, and
//! the small literals the runtime's descriptions are written with (member paths, optional
//! values, durations).

use crate::emit::rust::shared::int;
use crate::model::types::Primitive;
use crate::model::{Field, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::Value;

/// The Rust expression of a field's default: a literal of its type whose array elements are
/// `Option`s when its `items` are nullable.
pub fn default_tokens(plan: &Plan, f: &Field, ty: &TypeRef, value: &Value, root: &TokenStream) -> TokenStream {
    match (ty, f.items.as_ref()) {
        (TypeRef::Array(inner), Some(items)) if items.nullable => {
            let list = value.as_array().expect("BUG: a validated array literal is an array");
            let items = list.iter().map(|v| {
                if v.is_null() {
                    quote!(None)
                } else {
                    let t = literal_tokens(plan, inner, v, root);
                    quote!(Some(#t))
                }
            });
            quote!(vec![#(#items),*])
        }
        _ => literal_tokens(plan, ty, value, root),
    }
}

/// The Rust expression of a literal of type `ty`. Validation has checked that the literal fits
/// (`check_literal_values`), so a mismatch here is a bug.
pub fn literal_tokens(plan: &Plan, ty: &TypeRef, value: &Value, root: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::Primitive(p) => primitive(*p, value, root),
        TypeRef::Enum(id) => {
            let name = plan.enum_type(id);
            let v = plan.enum_value_of(id, value).expect("BUG: a validated enum literal names a value");
            let variant = names::enum_variant(v);
            quote!(#root::enums::#name::#variant)
        }
        TypeRef::Flags(id) => {
            let name = plan.flags_type(id);
            let bits = Literal::u64_unsuffixed(value.as_u64().expect("BUG: a validated flags literal is an integer"));
            quote!(#root::flags::#name::from_bits(#bits))
        }
        TypeRef::Array(inner) => {
            let items = value.as_array().expect("BUG: a validated array literal is an array").iter().map(|v| literal_tokens(plan, inner, v, root));
            quote!(vec![#(#items),*])
        }
        other => unreachable!("BUG: validation admits no literal of type `{other}`"),
    }
}

fn primitive(p: Primitive, value: &Value, root: &TokenStream) -> TokenStream {
    let text = || value.as_str().expect("BUG: a validated text literal is a string");
    let decimal = || value.as_u64().or_else(|| value.as_str().and_then(|s| s.parse().ok())).expect("BUG: a validated decimal literal");
    match p {
        Primitive::Boolean => {
            let b = value.as_bool().expect("BUG: a validated boolean literal");
            quote!(#b)
        }
        Primitive::Integer | Primitive::Int32 | Primitive::Uint32 => int(value.as_i64().expect("BUG: a validated integer literal")),
        Primitive::Uint64 => {
            let n = Literal::u64_unsuffixed(value.as_u64().expect("BUG: a validated uint64 literal"));
            quote!(#n)
        }
        Primitive::Number => {
            let n = Literal::f64_unsuffixed(value.as_f64().expect("BUG: a validated number literal"));
            quote!(#n)
        }
        Primitive::Float32 => {
            let n = Literal::f32_unsuffixed(value.as_f64().expect("BUG: a validated number literal") as f32);
            quote!(#n)
        }
        Primitive::String | Primitive::Url | Primitive::Email | Primitive::Csv => {
            let s = text();
            quote!(#s.to_owned())
        }
        Primitive::Snowflake => {
            let n = Literal::u64_unsuffixed(decimal());
            quote!(#root::wire::Snowflake(#n))
        }
        Primitive::StringInteger => {
            let n = Literal::u64_unsuffixed(decimal());
            quote!(#root::wire::StringInteger(#n))
        }
        Primitive::Timestamp => {
            let t: jiff::Timestamp = text().parse().expect("BUG: a validated timestamp literal");
            let (seconds, nanos) = (int(t.as_second()), int(i64::from(t.subsec_nanosecond())));
            quote!(#root::clock::Timestamp::constant(#seconds, #nanos))
        }
        Primitive::Date => {
            let d: jiff::civil::Date = text().parse().expect("BUG: a validated date literal");
            let (y, m, dd) = (int(i64::from(d.year())), int(i64::from(d.month())), int(i64::from(d.day())));
            quote!(#root::wire::Date::constant(#y, #m, #dd))
        }
        Primitive::Uuid => {
            let hex: String = text().chars().filter(|c| *c != '-').collect();
            let n = u128::from_str_radix(&hex, 16).expect("BUG: a validated uuid literal");
            let n = Literal::u128_unsuffixed(n);
            quote!(#root::wire::Uuid(#n))
        }
        Primitive::Null => quote!(()),
        Primitive::Json => {
            let json = value.to_string();
            quote!(serde_json::from_str(#json).expect("BUG: the spec's literal is JSON"))
        }
        Primitive::Bytes | Primitive::File => unreachable!("BUG: validation admits no literal of type `{}`", p.name()),
    }
}

/// A parameter, part or header read into an `Option` (`None` when absent), as its field declares
/// it: a `Presence` for a field that may be absent or `null` (text on the wire is never `null`),
/// the spec's default in place of absence for a defaulted one, else unchanged.
pub fn as_declared(plan: &Plan, f: &Field, root: &TokenStream, value: TokenStream) -> TokenStream {
    match (&f.ty, &f.default) {
        _ if f.three_state() => quote!(#root::wire::Presence::from(#value.map(Some))),
        (Some(ty), Some(d)) if f.defaulted() => {
            let default = default_tokens(plan, f, ty, &d.value, root);
            // A literal or a unit variant costs nothing to make (and clippy asks for it eagerly);
            // anything built by a call is made only when the value is absent.
            if default.to_string().contains('(') { quote!(#value.unwrap_or_else(|| #default)) } else { quote!(#value.unwrap_or(#default)) }
        }
        _ => value,
    }
}

/// A member path as the runtime reads it: `&["event", "type"]`.
pub fn member_path(m: &crate::model::Member) -> TokenStream {
    let names = &m.path;
    quote!(&[#(#names),*])
}

/// `Some(value)` or `None`.
pub fn optional(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(v) => quote!(Some(#v)),
        None => quote!(None),
    }
}

/// A duration of `seconds`, in whole milliseconds.
pub fn millis(seconds: f64) -> TokenStream {
    // Validation keeps the seconds positive and finite; a duration is never negative.
    let ms = unsuffixed((seconds * 1000.0).round() as u64);
    quote!(std::time::Duration::from_millis(#ms))
}

/// An integer literal without a suffix, typed by where it stands.
pub fn unsuffixed(n: u64) -> Literal {
    Literal::u64_unsuffixed(n)
}
