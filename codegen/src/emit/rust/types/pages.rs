//! The `Paginated` implementation of a paginated endpoint's `Request`, in its module of
//! `endpoints.rs`: how the request for the next page is made from a page, and the page's items.
//! The streams that follow it are the runtime's (`pagination::pages`, `pagination::items`).

use crate::emit::rust::shared::type_tokens;
use crate::model::types::Primitive;
use crate::model::{Endpoint, Field, PageWay, Paging, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// `impl Paginated for Request`, for a routed endpoint whose pagination resolves.
pub fn paginated(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let paging = plan.paging(e)?.ok().filter(|_| e.is_routed())?;
    let page = if e.has_status_responses() { quote!(Success) } else { quote!(Response) };
    let item = item_type(plan, &paging);
    let description = description(&paging);
    let next = next_request(plan, &paging);
    let into_items = into_items(&paging);
    Some(quote! {
        impl crate::pagination::Paginated for Request {
            type Page = #page;
            type Item = #item;
            const PAGINATION: crate::pagination::Pagination = #description;

            fn next_page(&self, page: &#page) -> Option<Self> {
                #next
            }

            fn into_items(page: #page) -> Vec<#item> {
                #into_items
            }
        }
    })
}

/// The type of one item: the list's element, `Option` of it when elements may be `null`.
fn item_type(plan: &Plan, p: &Paging) -> TokenStream {
    let ty = type_tokens(plan, p.item, &quote!(crate));
    if nullable_elements(p) { quote!(Option<#ty>) } else { ty }
}

fn nullable_elements(p: &Paging) -> bool {
    p.items.and_then(|f| f.items.as_ref()).is_some_and(|i| i.nullable)
}

/// The `Pagination` constant: the way, with wire names.
fn description(p: &Paging) -> TokenStream {
    let way = match p.way {
        PageWay::Cursor { .. } => {
            let (param, from) = (p.param.wire(), p.from.map_or("", |f| f.wire()));
            let null_ends = p.from.is_some_and(|f| f.nullable);
            quote!(crate::pagination::Way::Cursor { param: #param, from: #from, null_ends: #null_ends })
        }
        PageWay::Keyset { .. } => {
            let (param, item) = (p.param.wire(), p.key.map_or("", |f| f.wire()));
            let key = match p.param.ty {
                Some(TypeRef::Primitive(Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64)) => quote!(Number),
                Some(TypeRef::Primitive(Primitive::Snowflake | Primitive::StringInteger)) => quote!(Digits),
                Some(TypeRef::Primitive(Primitive::Uuid)) => quote!(Uuid),
                _ => quote!(Text),
            };
            quote!(crate::pagination::Way::Keyset { param: #param, item: #item, key: crate::pagination::Key::#key })
        }
        PageWay::Offset { .. } => {
            let param = p.param.wire();
            quote!(crate::pagination::Way::Offset { param: #param })
        }
        PageWay::Link { .. } => {
            let (param, header) = (p.param.wire(), p.link.as_ref().map_or("", |f| f.wire()));
            quote!(crate::pagination::Way::Link { param: #param, header: #header })
        }
    };
    let items = option_str(p.items.map(Field::wire));
    let limit = option_str(p.limit.map(Field::wire));
    quote!(crate::pagination::Pagination { way: #way, items: #items, limit: #limit })
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    }
}

/// An expression reading a page, and whether it is an `Option` of what it reads.
struct Read {
    expr: TokenStream,
    optional: bool,
}

impl Read {
    /// The page's body, by reference (`by_ref`) or by value.
    fn body(p: &Paging, by_ref: bool) -> Self {
        let expr = match (p.answer.headers, by_ref) {
            (true, true) => quote!(&page.body),
            (true, false) => quote!(page.body),
            (false, _) => quote!(page),
        };
        match (p.answer.nullable, by_ref) {
            (true, true) => Read { expr: quote!(Option::as_ref(#expr)), optional: true },
            (optional, _) => Read { expr, optional },
        }
    }

    /// Member `f` of what is read, by reference or by value, whatever its presence.
    fn member(self, f: &Field, by_ref: bool) -> Self {
        let ident = names::field(f);
        let plain = f.defaulted() || (!f.may_be_absent() && !f.nullable);
        let of = |x: TokenStream| match (plain, f.three_state(), by_ref) {
            (true, _, true) => quote!(&#x.#ident),
            (true, _, false) | (false, false, false) => quote!(#x.#ident),
            (false, true, true) => quote!(#x.#ident.value()),
            (false, true, false) => quote!(#x.#ident.into_option().flatten()),
            (false, false, true) => quote!(#x.#ident.as_ref()),
        };
        let expr = match (self.optional, plain) {
            (false, _) => of(self.expr),
            (true, true) => {
                let read = of(quote!(b));
                let e = self.expr;
                quote!(#e.map(|b| #read))
            }
            (true, false) => {
                let read = of(quote!(b));
                let e = self.expr;
                quote!(#e.and_then(|b| #read))
            }
        };
        Read { expr, optional: self.optional || !plain }
    }

    /// The value read, ending the calling function with `None` when there is none.
    fn required(self) -> TokenStream {
        let e = self.expr;
        if self.optional { quote!(#e?) } else { e }
    }
}

/// The page's items as a slice, empty when the page holds none.
fn list(p: &Paging) -> TokenStream {
    let mut read = Read::body(p, true);
    if let Some(f) = p.items {
        read = read.member(f, true);
    }
    let e = read.expr;
    if read.optional { quote!(#e.map_or(&[][..], Vec::as_slice)) } else { quote!(Vec::as_slice(#e)) }
}

/// The items of a page taken by value.
fn into_items(p: &Paging) -> TokenStream {
    let mut read = Read::body(p, false);
    if let Some(f) = p.items {
        read = read.member(f, false);
    }
    let e = read.expr;
    if read.optional { quote!(#e.unwrap_or_default()) } else { e }
}

/// The statements making the request for the next page from `self`, `page` and `items`.
fn next_request(plan: &Plan, p: &Paging) -> TokenStream {
    let param = names::field(p.param);
    let limit = p.limit.map_or_else(|| quote!(None), |l| as_u64(l, &names::field(l)));
    let value = match p.way {
        PageWay::Cursor { .. } => {
            let from = Read::body(p, true).member(p.from.expect("BUG: a resolved cursor has its member"), true).required();
            quote!(Clone::clone(#from))
        }
        PageWay::Keyset { .. } => {
            let last = if nullable_elements(p) { quote!(items.last()?.as_ref()?) } else { quote!(items.last()?) };
            let key = Read { expr: quote!(last), optional: false }.member(p.key.expect("BUG: a resolved keyset has its key"), true).required();
            quote!({
                let last = #last;
                Clone::clone(#key)
            })
        }
        PageWay::Offset { .. } => {
            let ty = p.param.ty.as_ref().map_or_else(|| quote!(i64), |t| type_tokens(plan, t, &quote!(crate)));
            let current =
                if p.param.defaulted() || !p.param.may_be_absent() { quote!(self.query.#param) } else { quote!(self.query.#param.unwrap_or_default()) };
            quote!(#current.checked_add(<#ty>::try_from(items.len()).ok()?)?)
        }
        PageWay::Link { .. } => {
            let header =
                Read { expr: quote!(page.headers), optional: false }.member(p.link.as_ref().expect("BUG: a resolved link has its header"), true).required();
            let wire = p.param.wire();
            quote!(crate::pagination::link_param(#header, #wire)?)
        }
    };
    let ends = match p.way {
        // A cursor API may answer an empty page that names a next one (a filtered scan); a
        // linked page is the last when it links no next one.
        PageWay::Cursor { .. } | PageWay::Link { .. } => None,
        _ => {
            let list = list(p);
            let item = item_type(plan, p);
            Some(quote! {
                let items: &[#item] = #list;
                if crate::pagination::ends(items.len(), #limit) {
                    return None;
                }
            })
        }
    };
    let set = if p.param.three_state() {
        quote!(crate::wire::Presence::Value(value))
    } else if p.param.defaulted() || !p.param.may_be_absent() {
        quote!(value)
    } else {
        quote!(Some(value))
    };
    quote! {
        #ends
        let value = #value;
        let mut next = self.clone();
        next.query.#param = #set;
        // A server that names the same position again would be asked for the same page forever.
        (next.query.#param != self.query.#param).then_some(next)
    }
}

/// The request's page size as `Option<u64>`.
fn as_u64(f: &Field, ident: &proc_macro2::Ident) -> TokenStream {
    if f.defaulted() || !f.may_be_absent() {
        quote!(u64::try_from(self.query.#ident).ok())
    } else {
        quote!(self.query.#ident.and_then(|n| u64::try_from(n).ok()))
    }
}
