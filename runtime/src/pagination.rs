//! Paging through a collection: what a paginated endpoint's request knows of the page after
//! the one it got ([`Paginated`]), the description of how it pages ([`Pagination`]), the streams
//! a generated client returns (feature `client`) and the pages a mock server cuts from one
//! example item ([`mock_page`]).
//!
//! A paginated request makes the request for the next page from the page it got: it carries
//! the cursor the page names (`cursor`), the key of the page's last item (`keyset`), or the
//! offset past the page's items (`offset`). Paging ends at a page without items, at a page with
//! fewer items than the request asked for, when the page names no next cursor, and when the
//! next request would be the same as the last (a server that does not move on).

use serde_json::Value;

/// A request of a paginated endpoint, as the types crate implements it for each.
pub trait Paginated: Clone + Sized {
    /// What the endpoint answers: one page.
    type Page;
    /// One item of a page.
    type Item;
    /// How the endpoint pages.
    const PAGINATION: Pagination;

    /// The request for the page after `page` (the answer to `self`), or `None` when `page` is
    /// the last.
    fn next_page(&self, page: &Self::Page) -> Option<Self>;

    /// The items of `page`, in the order they came.
    fn into_items(page: Self::Page) -> Vec<Self::Item>;
}

/// How an endpoint pages: the way the next request is made, where the items are, and the query
/// parameter that bounds a page's size. Names are as they travel (wire names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pagination {
    /// How the next request is made.
    pub way: Way,
    /// The member of the answer that holds the items; `None` when the answer is the list itself.
    pub items: Option<&'static str>,
    /// The query parameter that says how many items a page holds at most.
    pub limit: Option<&'static str>,
}

/// How the request for the next page is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// The answer's member `from` holds the cursor of the next page, sent back as the query
    /// parameter `param`; an answer without one is the last page.
    Cursor {
        /// The query parameter.
        param: &'static str,
        /// The answer's member.
        from: &'static str,
        /// Whether the last page says so with `null` (rather than by leaving `from` out).
        null_ends: bool,
    },
    /// The member `item` of a page's last item is sent as the query parameter `param`.
    Keyset {
        /// The query parameter.
        param: &'static str,
        /// The items' member.
        item: &'static str,
        /// How keys are written, for a mock that makes them.
        key: Key,
    },
    /// The query parameter `param` counts the items before the page: the next page's is this
    /// one's plus the items it held.
    Offset {
        /// The query parameter.
        param: &'static str,
    },
    /// The answer's header `header` links the next page (RFC 8288, `rel="next"`); the query
    /// parameter `param` of its address is the next request's. No such link is the last page.
    Link {
        /// The query parameter.
        param: &'static str,
        /// The answer's header.
        header: &'static str,
    },
}

/// The address of the link of relation `next` in a `Link` header's value (RFC 8288): links
/// are `<address>` with `;`-separated parameters, several separated by commas, and `rel` may
/// list several relations (quoted, or a single bare token).
pub fn next_link(header: &str) -> Option<&str> {
    let mut rest = header;
    while let Some(open) = rest.find('<') {
        let close = open + rest[open..].find('>')?;
        let address = &rest[open + 1..close];
        let after = &rest[close + 1..];
        // The parameters run to the next link, which starts with `<` after a comma.
        let end = after.match_indices(',').map(|(c, _)| c).find(|c| after[*c..].trim_start_matches([',', ' ', '\t']).starts_with('<')).unwrap_or(after.len());
        let next = after[..end].split(';').filter_map(|p| p.split_once('=')).any(|(name, value)| {
            name.trim().eq_ignore_ascii_case("rel") && value.trim().trim_matches('"').split_ascii_whitespace().any(|r| r.eq_ignore_ascii_case("next"))
        });
        if next {
            return Some(address);
        }
        rest = &after[end..];
    }
    None
}

/// The query parameter `param` of the next page's address in a `Link` header's value, read as
/// a `T` from its text (percent-decoded): `None` without a next link or without the parameter.
pub fn link_param<T: serde::de::DeserializeOwned>(header: &str, param: &str) -> Option<T> {
    let address = next_link(header)?;
    let query = address.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or_default();
    let text = query.split('&').filter_map(|pair| pair.split_once('=').or(Some((pair, "")))).find(|(name, _)| percent_decoded(name) == param)?.1;
    let text = percent_decoded(text);
    // Text first (a string, a snowflake), then as JSON (a number).
    serde_json::from_value(Value::String(text.clone())).or_else(|_| serde_json::from_str(&text)).ok()
}

/// `%XX` escapes decoded; an escape that is not one is kept as written.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `Link` header a mock answers a link-paginated request with: the next page's address,
/// relative to the request's (its query parameter the next page's position), while one is
/// left of the [`MOCK_ITEMS`]; `None` on the last page and for other ways.
pub fn mock_link<Q: serde::Serialize>(query: &Q, pagination: &Pagination) -> Option<String> {
    let Way::Link { param, .. } = pagination.way else { return None };
    let query = serde_json::to_value(query).ok()?;
    let start = query.get(param).and_then(as_index).unwrap_or(0).min(MOCK_ITEMS);
    let end = start.saturating_add(page_size(&query, pagination)).min(MOCK_ITEMS);
    (end < MOCK_ITEMS).then(|| format!("<?{param}={end}>; rel=\"next\""))
}

/// The page size a request asks a mock for.
fn page_size(query: &Value, pagination: &Pagination) -> usize {
    pagination.limit.and_then(|l| query.get(l)).and_then(as_index).filter(|n| *n > 0).unwrap_or(MOCK_PAGE)
}

/// How the keys of a keyset are written on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A JSON number.
    Number,
    /// A decimal number written as a string (a snowflake).
    Digits,
    /// A UUID.
    Uuid,
    /// Any other string.
    Text,
}

/// Whether a page that held `count` items ends the collection for a request that asked for
/// `limit` items per page: an empty page does, and so does one the server did not fill.
pub fn ends(count: usize, limit: Option<u64>) -> bool {
    count == 0 || limit.is_some_and(|l| (count as u64) < l)
}

/// The items a mock serves for a paginated endpoint: this many, cut into pages.
pub const MOCK_ITEMS: usize = 25;

/// The page size a mock uses when the request names none.
pub const MOCK_PAGE: usize = 10;

/// Cuts the page `query` asks for out of a collection made from the first item of `example`
/// (an answer of the endpoint, as JSON), as a mock server answers: [`MOCK_ITEMS`] items told
/// apart by their keys, the same at every call, so that a client paging through them sees each
/// once. An example without an item is served as it is.
pub fn mock_page(mut example: Value, query: &Value, pagination: &Pagination) -> Value {
    let Some(list) = items_of(&mut example, pagination.items) else { return example };
    let Some(template) = list.first().cloned() else { return example };
    let collection: Vec<Value> = (0..MOCK_ITEMS).map(|i| keyed(&template, pagination.way, i)).collect();
    let start = match pagination.way {
        Way::Cursor { param, .. } | Way::Offset { param } | Way::Link { param, .. } => query.get(param).and_then(as_index).unwrap_or(0),
        Way::Keyset { param, item, .. } => match query.get(param).filter(|v| !v.is_null()) {
            Some(after) => collection.iter().position(|x| x.get(item).is_some_and(|k| key_order(k, after).is_gt())).unwrap_or(MOCK_ITEMS),
            None => 0,
        },
    };
    let size = page_size(query, pagination);
    let start = start.min(MOCK_ITEMS);
    let end = start.saturating_add(size).min(MOCK_ITEMS);
    *list = collection[start..end].to_vec();
    if let (Way::Cursor { from, null_ends, .. }, Value::Object(answer)) = (pagination.way, &mut example) {
        match (end < MOCK_ITEMS, null_ends) {
            (true, _) => _ = answer.insert(from.to_owned(), Value::String(end.to_string())),
            (false, true) => _ = answer.insert(from.to_owned(), Value::Null),
            (false, false) => _ = answer.shift_remove(from),
        }
    }
    example
}

/// [`mock_page`] for typed values: the page `query` asks for, cut from `example` through JSON;
/// `example` itself when either does not travel as JSON, or the page does not read back.
pub fn mock_page_of<T, Q>(example: T, query: &Q, pagination: &Pagination) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
    Q: serde::Serialize,
{
    let (Ok(json), Ok(query)) = (serde_json::to_value(&example), serde_json::to_value(query)) else { return example };
    serde_json::from_value(mock_page(json, &query, pagination)).unwrap_or(example)
}

/// The list of items of an answer.
fn items_of<'a>(answer: &'a mut Value, member: Option<&str>) -> Option<&'a mut Vec<Value>> {
    let list = match member {
        Some(m) => answer.get_mut(m)?,
        None => answer,
    };
    list.as_array_mut()
}

/// Item number `i` of a mock's collection: `template` with its key set to the `i`th key (for a
/// keyset, the key member; otherwise an `id` member, where the item has one, so that the items
/// are told apart).
fn keyed(template: &Value, way: Way, i: usize) -> Value {
    let mut item = template.clone();
    let Value::Object(fields) = &mut item else { return item };
    let (member, key) = match way {
        Way::Keyset { item, key, .. } => (item, key),
        _ => match fields.get("id") {
            Some(Value::Number(_)) => ("id", Key::Number),
            Some(Value::String(s)) if s.len() == 36 && s.bytes().filter(|b| *b == b'-').count() == 4 => ("id", Key::Uuid),
            Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => ("id", Key::Digits),
            Some(Value::String(_)) => ("id", Key::Text),
            _ => return item,
        },
    };
    let n = i as u64 + 1;
    let value = match key {
        Key::Number => Value::from(n),
        Key::Digits => Value::String((1_000_000_000_000_000_000 + n).to_string()),
        Key::Uuid => Value::String(format!("00000000-0000-4000-8000-{n:012}")),
        Key::Text => Value::String(format!("k{n:08}")),
    };
    fields.insert(member.to_owned(), value);
    item
}

/// A query value read as a position: a number, or a number written as text.
fn as_index(v: &Value) -> Option<usize> {
    match v {
        Value::Number(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// The order of two keys: whole numbers (JSON numbers, or decimal digits written as text, as
/// snowflakes are) by value, whatever their size; other numbers by value, other strings as text.
fn key_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    let whole = |v: &Value| match v {
        Value::Number(n) if n.is_u64() => Some(n.to_string()),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            let trimmed = s.trim_start_matches('0');
            Some(if trimmed.is_empty() { "0".to_owned() } else { trimmed.to_owned() })
        }
        _ => None,
    };
    if let (Some(x), Some(y)) = (whole(a), whole(b)) {
        return (x.len(), &x).cmp(&(y.len(), &y));
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64().unwrap_or(0.0).total_cmp(&y.as_f64().unwrap_or(0.0)),
        _ => a.as_str().unwrap_or_default().cmp(b.as_str().unwrap_or_default()),
    }
}

/// The stream traits: what a paginated endpoint's stream is, and how it is read.
#[cfg(feature = "client")]
pub use futures_util::{Stream, StreamExt, TryStreamExt};
#[cfg(feature = "client")]
pub use streams::{items, pages};

#[cfg(feature = "client")]
mod streams {
    use super::Paginated;
    use futures_util::{Stream, TryStreamExt, stream};
    use std::future::Future;

    /// The pages of a paginated endpoint from the one `first` asks for, each fetched by `fetch`
    /// when the stream is polled past the one before. A failure is the stream's last item.
    pub fn pages<R, E, F, Fut>(first: R, fetch: F) -> impl Stream<Item = Result<R::Page, E>>
    where
        R: Paginated,
        F: FnMut(R) -> Fut,
        Fut: Future<Output = Result<R::Page, E>>,
    {
        stream::unfold((Some(first), fetch), |(request, mut fetch)| async move {
            let request = request?;
            match fetch(request.clone()).await {
                Ok(page) => {
                    let next = request.next_page(&page);
                    Some((Ok(page), (next, fetch)))
                }
                Err(e) => Some((Err(e), (None, fetch))),
            }
        })
    }

    /// The items of every page [`pages`] fetches, in order.
    pub fn items<R, E, F, Fut>(first: R, fetch: F) -> impl Stream<Item = Result<R::Item, E>>
    where
        R: Paginated,
        F: FnMut(R) -> Fut,
        Fut: Future<Output = Result<R::Page, E>>,
    {
        pages(first, fetch).map_ok(|page| stream::iter(R::into_items(page).into_iter().map(Ok))).try_flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_next_link_is_found_among_others() {
        let github = r#"<https://api.example.com/items?page=1>; rel="prev", <https://api.example.com/items?per_page=2&page=3>; rel="next last""#;
        assert_eq!(next_link(github), Some("https://api.example.com/items?per_page=2&page=3"));
        assert_eq!(link_param::<i64>(github, "page"), Some(3));
        let bare = r#"<?cursor=a%2Bb%3D>; title="one, two"; rel=next"#;
        assert_eq!(link_param::<String>(bare, "cursor").as_deref(), Some("a+b="));
        assert_eq!(next_link(r#"<https://x/?page=1>; rel="prev""#), None);
        assert_eq!(link_param::<i64>(r#"<https://x/?other=1>; rel="next""#, "page"), None);
    }

    #[test]
    fn a_mock_links_each_page_but_the_last() {
        let pagination = Pagination { way: Way::Link { param: "page", header: "Link" }, items: None, limit: Some("per_page") };
        assert_eq!(mock_link(&json!({ "per_page": 10 }), &pagination).as_deref(), Some(r#"<?page=10>; rel="next""#));
        assert_eq!(mock_link(&json!({ "page": 20, "per_page": 10 }), &pagination), None);
    }

    const KEYSET: Pagination = Pagination { way: Way::Keyset { param: "after", item: "id", key: Key::Digits }, items: None, limit: Some("limit") };
    const CURSOR: Pagination =
        Pagination { way: Way::Cursor { param: "page_token", from: "next_page", null_ends: true }, items: Some("items"), limit: Some("limit") };

    /// Every id a mock serves, paging as a client would.
    fn walk(pagination: &Pagination, example: Value, step: impl Fn(&Value, &Value) -> Option<Value>) -> Vec<Value> {
        let mut seen = Vec::new();
        let mut query = json!({ "limit": 7 });
        loop {
            let page = mock_page(example.clone(), &query, pagination);
            let list = match pagination.items {
                Some(m) => page[m].as_array().unwrap().clone(),
                None => page.as_array().unwrap().clone(),
            };
            seen.extend(list.iter().map(|i| i["id"].clone()));
            if ends(list.len(), Some(7)) {
                return seen;
            }
            match step(&page, &list.last().unwrap()["id"]) {
                Some(next) => query = next,
                None => return seen,
            }
        }
    }

    #[test]
    fn a_keyset_mock_serves_every_item_once_in_key_order() {
        let seen = walk(&KEYSET, json!([{ "id": "5", "name": "x" }]), |_, last| Some(json!({ "limit": 7, "after": last })));
        assert_eq!(seen.len(), MOCK_ITEMS);
        let mut sorted = seen.clone();
        sorted.sort_by(key_order);
        sorted.dedup();
        assert_eq!(sorted, seen, "distinct and ascending");
    }

    #[test]
    fn a_cursor_mock_names_the_next_page_until_the_last() {
        let example = json!({ "items": [{ "id": 1 }], "next_page": null });
        let seen = walk(&CURSOR, example, |page, _| page["next_page"].as_str().map(|c| json!({ "limit": 7, "page_token": c })));
        assert_eq!(seen.len(), MOCK_ITEMS);
        assert_eq!(seen.iter().map(Value::to_string).collect::<std::collections::BTreeSet<_>>().len(), MOCK_ITEMS, "ids told apart: {seen:?}");
        let last = mock_page(json!({ "items": [{ "id": 1 }] }), &json!({ "page_token": "20", "limit": 7 }), &CURSOR);
        assert_eq!(last["next_page"], Value::Null);
        assert_eq!(last["items"].as_array().unwrap().len(), 5);
    }

    #[test]
    fn an_example_without_items_is_served_as_it_is_and_odd_queries_do_not_panic() {
        assert_eq!(mock_page(json!([]), &json!({}), &KEYSET), json!([]));
        assert_eq!(mock_page(json!({ "other": 1 }), &json!({}), &CURSOR), json!({ "other": 1 }));
        let past = mock_page(json!([{ "id": "1" }]), &json!({ "after": "99999999999999999999999" }), &KEYSET);
        assert_eq!(past, json!([]));
        let huge = mock_page(json!({ "items": [{ "id": 1 }] }), &json!({ "page_token": "18446744073709551615", "limit": 0 }), &CURSOR);
        assert_eq!(huge["items"], json!([]));
        assert!(ends(0, None) && ends(3, Some(5)) && !ends(5, Some(5)) && !ends(1, None));
    }
}
