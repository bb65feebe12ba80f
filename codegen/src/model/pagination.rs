//! What a paginated endpoint's pagination refers to, resolved: the success answer, the member
//! holding the items, the item type, the query parameters and members the next request is made
//! from. Validation reports what does not resolve; the emitters render from what does.

use super::*;
use crate::diag::Span;
use types::Primitive;

/// The resolved pagination of one endpoint.
pub struct Paging<'m> {
    pub pagination: &'m Pagination,
    pub way: &'m PageWay,
    /// The answer holding the page.
    pub answer: PageAnswer<'m>,
    /// The member of the answer holding the items (`None`: the answer is the list).
    pub items: Option<&'m Field>,
    /// The type of one item.
    pub item: &'m TypeRef,
    /// The query parameter the way sets on the next request.
    pub param: &'m Field,
    /// The answer's member naming the next cursor (`cursor`).
    pub from: Option<&'m Field>,
    /// The items' member holding their key (`keyset`).
    pub key: Option<&'m Field>,
    /// The query parameter bounding a page's size.
    pub limit: Option<&'m Field>,
    /// The success answer's header holding the links (`link`), named as the answer names it.
    pub link: Option<Field>,
}

/// The answer a page comes in.
pub struct PageAnswer<'m> {
    /// The success response, for an endpoint that declares responses by status.
    pub status: Option<&'m StatusResponse>,
    /// Whether the body may be `null` (`T | null`).
    pub nullable: bool,
    /// Whether the answer has headers (its payload is then the body and the headers).
    pub headers: bool,
    /// The body's type, when it is a type rather than named fields.
    pub ty: Option<&'m TypeRef>,
    /// The members of the body when it is an object: named fields or a resource's.
    pub fields: Option<&'m [Field]>,
}

/// Why a pagination does not resolve: what, where, and what to do.
pub struct PagingError {
    pub message: String,
    pub span: Span,
    pub help: String,
}

fn fail<T>(span: Span, message: String, help: &str) -> Result<T, PagingError> {
    Err(PagingError { message, span, help: help.to_owned() })
}

/// `` `snowflake` `` for a field of that type.
fn type_name(f: &Field) -> String {
    f.ty.as_ref().map_or_else(|| "untyped".to_owned(), |t| format!("`{t}`"))
}

/// Whether a type is an integer.
pub fn is_integer(ty: Option<&TypeRef>) -> bool {
    matches!(ty, Some(TypeRef::Primitive(Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64)))
}

impl Model {
    /// The pagination of `e` resolved; `None` when it has none.
    pub fn paging<'m>(&'m self, e: &'m Endpoint) -> Option<Result<Paging<'m>, PagingError>> {
        let p = e.pagination.as_ref()?;
        Some(self.resolve_paging(e, p))
    }

    fn resolve_paging<'m>(&'m self, e: &'m Endpoint, p: &'m Pagination) -> Result<Paging<'m>, PagingError> {
        let id = &e.meta.id;
        let way = match p.ways.as_slice() {
            [one] => one,
            [] => return fail(p.span, format!("the pagination of `{id}` names no way to the next page"), "give one of `cursor`, `keyset`, `offset` or `link`"),
            [_, second, ..] => {
                return fail(second.param().span, format!("the pagination of `{id}` names more than one way to the next page"), "keep one of them");
            }
        };
        let query = |name: &Text, what: &str| {
            e.query.iter().find(|f| f.name == name.id).ok_or_else(|| {
                let known: Vec<String> = e.query.iter().map(|f| format!("`{}`", f.name)).collect();
                let known = if known.is_empty() { "it has none".to_owned() } else { format!("it has {}", known.join(", ")) };
                PagingError {
                    message: format!("`{}` is not a query parameter of `{id}`", name.id),
                    span: name.span,
                    help: format!("name the query parameter that carries {what}, or declare it under `query` ({known})"),
                }
            })
        };
        let param = query(way.param(), "the next page's position")?;
        let limit = p.limit.as_ref().map(|l| query(l, "the page size")).transpose()?;
        if let (Some(l), Some(name)) = (limit, &p.limit)
            && !is_integer(l.ty.as_ref())
        {
            return fail(name.span, format!("the page size `{}` of `{id}` is not an integer", name.id), "name an integer query parameter");
        }
        let answer = self.page_answer(e, p)?;
        let (items, list) = match &p.items {
            Some(name) => {
                let Some(fields) = answer.fields else {
                    return fail(name.span, format!("the answer of `{id}` is not an object with members"), "remove `items` when the answer is the list itself");
                };
                let Some(f) = fields.iter().find(|f| f.name == name.id) else {
                    return fail(name.span, format!("the answer of `{id}` has no member `{}`", name.id), "name the member that holds the items");
                };
                (Some(f), f.ty.as_ref())
            }
            None => (None, answer.ty),
        };
        let Some(TypeRef::Array(item)) = list else {
            let at = p.items.as_ref().map_or(p.span, |i| i.span);
            return fail(at, format!("the items of `{id}` are not a list"), "name the member holding an `array<...>` in `items`, or answer with the list");
        };
        let (mut from, mut key, mut link) = (None, None, None);
        match way {
            PageWay::Cursor { from: name, .. } => {
                let Some(f) = answer.fields.and_then(|fields| fields.iter().find(|f| f.name == name.id)) else {
                    return fail(name.span, format!("the answer of `{id}` has no member `{}`", name.id), "name the member holding the next page's cursor");
                };
                if !f.may_be_absent() && !f.nullable {
                    return fail(
                        name.span,
                        format!("the cursor `{}` of `{id}` is always there", name.id),
                        "the last page leaves it out or sends `null`: make it `optional` or `nullable`",
                    );
                }
                if f.ty != param.ty {
                    let message = format!("the cursor `{}` of `{id}` is {}, its parameter `{}` is {}", name.id, type_name(f), param.name, type_name(param));
                    return fail(name.span, message, "give the member and the parameter one type: the next request sends the cursor as it came");
                }
                from = Some(f);
            }
            PageWay::Keyset { item: name, .. } => {
                let fields = match item.as_ref() {
                    TypeRef::Object(r) => self.resource(r).map(|r| r.fields.as_slice()),
                    _ => None,
                };
                let Some(f) = fields.and_then(|fields| fields.iter().find(|f| f.name == name.id)) else {
                    return fail(name.span, format!("the items of `{id}` have no member `{}`", name.id), "name the items' member holding their key");
                };
                if f.ty != param.ty {
                    let message =
                        format!("the key `{}` of `{id}`'s items is {}, its parameter `{}` is {}", name.id, type_name(f), param.name, type_name(param));
                    return fail(name.span, message, "give the member and the parameter one type: the next request sends the key as it came");
                }
                key = Some(f);
            }
            PageWay::Offset { param: name } => {
                if !is_integer(param.ty.as_ref()) {
                    return fail(name.span, format!("the offset `{}` of `{id}` is not an integer", name.id), "name an integer query parameter");
                }
            }
            PageWay::Link { param: name, header } => {
                let scalar = matches!(&param.ty, Some(TypeRef::Primitive(p)) if !matches!(p, Primitive::File | Primitive::Csv | Primitive::Json));
                if !scalar {
                    return fail(
                        name.span,
                        format!("the link parameter `{}` of `{id}` is {}", name.id, type_name(param)),
                        "name a query parameter of a scalar type: it is read from the link's text",
                    );
                }
                let headers = answer.status.and_then(|s| self.response_of(&s.response)).map(|r| self.header_fields(r)).unwrap_or_default();
                let Some(h) = headers.into_iter().find(|h| h.name == header.id) else {
                    return fail(
                        header.span,
                        format!("the success answer of `{id}` has no header `{}`", header.id),
                        "declare the answer's `Link` header (`link: { wire_name: Link, type: string, optional: true }`) and name it",
                    );
                };
                if h.ty != Some(TypeRef::Primitive(Primitive::String)) {
                    return fail(header.span, format!("the link header `{}` of `{id}` is {}", header.id, type_name(&h)), "give the header `type: string`");
                }
                link = Some(h);
            }
        }
        Ok(Paging { pagination: p, way, answer, items, item, param, from, key, limit, link })
    }

    /// The one success answer of a paginated endpoint, with a JSON body.
    fn page_answer<'m>(&'m self, e: &'m Endpoint, p: &'m Pagination) -> Result<PageAnswer<'m>, PagingError> {
        let id = &e.meta.id;
        let object = |ty: Option<&'m TypeRef>| match ty {
            Some(TypeRef::Object(r)) => self.resource(r).map(|r| r.fields.as_slice()),
            _ => None,
        };
        if !e.has_status_responses() {
            if !e.response_fields.is_empty() {
                return Ok(PageAnswer { status: None, nullable: false, headers: false, ty: None, fields: Some(&e.response_fields) });
            }
            let ty = e.response.as_ref().filter(|_| e.response_format == "json");
            return Ok(PageAnswer { status: None, nullable: false, headers: false, ty, fields: object(ty) });
        }
        let [only] = e.success_responses()[..] else {
            return fail(p.span, format!("`{id}` has more than one success answer, or none"), "a paginated endpoint answers one success status");
        };
        let Some(r) = self.response_of(&only.response).filter(|r| r.body_kind() == BodyKind::Json) else {
            return fail(p.span, format!("the success answer of `{id}` has no JSON body"), "a page is a JSON body");
        };
        let fields = if r.fields.is_empty() { object(r.ty.as_ref()) } else { Some(r.fields.as_slice()) };
        Ok(PageAnswer { status: Some(only), nullable: r.nullable, headers: !r.headers.is_empty(), ty: r.ty.as_ref(), fields })
    }
}
