//! `oneOf` and `anyOf`: tagged unions (a discriminator, or a member every branch fixes) and
//! untagged ones in an order that reads each value as the right variant.

use super::*;

impl Importer<'_> {
    /// A union item from `oneOf`/`anyOf`: tagged when every variant is an object with a
    /// required constant member of the same name (OpenAPI's `discriminator`, or inferred), else
    /// tried in order.
    pub(in crate::import) fn union_item(
        &mut self,
        cx: &mut Diagnostics,
        obj: &Map<String, Value>,
        pointer: &str,
        id: String,
        site: &Site,
        used: &mut Used,
    ) -> spec::Union {
        let (key, list) = alternatives(obj).unwrap_or(("oneOf", Vec::new()));
        used.mark(key);
        used.mark("type");
        used.mark("nullable");
        let explicit = used.take(obj, "discriminator").and_then(|d| d.get("propertyName")).and_then(Value::as_str).map(str::to_owned);
        let tag = self.discriminator(&list, explicit.as_deref());
        let mut variants: IndexMap<String, Field> = IndexMap::new();
        let mut places = Vec::new();
        let usite = Site { path: vec![id.clone()], file: site.file.clone() };
        for (i, schema) in &list {
            let at = format!("{pointer}/{key}/{i}");
            let mut name = self.variant_name(schema, tag.as_ref().map(|t| t.field.as_str()));
            if variants.contains_key(&name) || name.is_empty() {
                name = format!("{name}_{i}");
            }
            let mut f = self.field(cx, schema, &at, &usite.child(&name));
            if f.nullable && tag.is_some() {
                f.nullable = false;
            }
            // A variant is a whole value, never absent: a default has nothing to fill in.
            if let Some(d) = f.default.take() {
                f.notes.push(format!("The document gives it the default `{d}`."));
            }
            variants.insert(name, f);
            places.push(at);
        }
        let mut meta = Meta { id, ..Default::default() };
        if tag.is_none() {
            variants = self.untagged_order(cx, variants, &places, &mut meta);
        } else {
            self.tagged.insert(meta.id.clone(), (pointer.to_owned(), places));
        }
        let discriminator = tag.map(|t| spec::Discriminator { field: t.field, ty: t.ty });
        self.item_annotations(obj, used, &mut meta);
        let gaps = self.leftovers(cx, obj, pointer, used);
        meta.not_shown.extend(gaps);
        spec::Union { meta, discriminator, variants }
    }

    /// The variants of an untagged union in the order the spec tries them. `oneOf`/`anyOf` has
    /// no order, but the spec tries variants in order and keeps the first that decodes, so
    /// variants with constraints of their own go first, then specific types, then text, then
    /// `json`; a variant that an earlier unconstrained one decodes whole (the same type, or two
    /// texts) would never be chosen, and is left out with its pointer.
    pub(in crate::import) fn untagged_order(
        &mut self,
        cx: &mut Diagnostics,
        variants: IndexMap<String, Field>,
        places: &[String],
        meta: &mut Meta,
    ) -> IndexMap<String, Field> {
        let mut list: Vec<(String, Field, String)> =
            variants.into_iter().enumerate().map(|(i, (n, f))| (n, f, places.get(i).cloned().unwrap_or_default())).collect();
        list.sort_by_key(|(_, f, _)| variant_rank(f));
        let mut kept: IndexMap<String, Field> = IndexMap::new();
        for (name, f, at) in list {
            let shadowed = !narrowed(&f) && kept.values().any(|earlier| !narrowed(earlier) && shadows(earlier, &f));
            if shadowed {
                let what = format!("variant `{name}`, which an earlier variant decodes whole");
                let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, "details", &what, "an untagged union keeps the first variant that decodes");
                meta.not_shown.push(gap);
                continue;
            }
            kept.insert(name, f);
        }
        kept
    }

    /// Once every resource is written: a tagged union whose variants do not all carry its
    /// discriminator as a constant member of the discriminator's type (a member retyped, its
    /// constant not mapped, a variant that is no resource) cannot be decoded by its tag, so it
    /// becomes an untagged union, and the discriminator is left out with its pointer.
    pub(in crate::import) fn settle_tagged_unions(&mut self, cx: &mut Diagnostics) {
        let mut broken = Vec::new();
        for (path, file) in &self.files {
            for (i, u) in file.unions.iter().enumerate() {
                let Some(d) = &u.discriminator else { continue };
                let carried = u.variants.values().all(|v| {
                    let member =
                        v.ty.as_deref().and_then(|t| t.strip_prefix("object<")).and_then(|t| t.strip_suffix('>')).and_then(|id| self.member(id, &d.field, 0));
                    member.is_some_and(|f| f.ty.as_deref() == Some(d.ty.as_str()) && !f.nullable && (v.tag.is_some() || f.constant.is_some()))
                });
                if !carried {
                    broken.push((path.clone(), i));
                }
            }
        }
        for (path, i) in broken {
            let u = &mut self.files[&path].unions[i];
            let (field, variants) = (u.discriminator.take().map(|d| d.field).unwrap_or_default(), std::mem::take(&mut u.variants));
            let id = u.meta.id.clone();
            let (pointer, places) = self.tagged.get(&id).cloned().unwrap_or_default();
            let mut meta = std::mem::take(&mut self.files[&path].unions[i].meta);
            let what = format!("discriminator `{field}`, which not every variant carries as a constant of one type");
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                &pointer,
                "details",
                &what,
                "a tagged union's variants each hold the tag; the union is tried in order instead",
            );
            meta.not_shown.push(gap);
            let variants = variants.into_iter().map(|(n, mut f)| {
                f.tag = None;
                (n, f)
            });
            let variants = self.untagged_order(cx, variants.collect(), &places, &mut meta);
            let u = &mut self.files[&path].unions[i];
            u.meta = meta;
            u.variants = variants;
        }
    }

    /// The member `name` of resource `id` or of a resource it extends.
    pub(in crate::import) fn member(&self, id: &str, name: &str, depth: usize) -> Option<&Field> {
        let r = self.files.values().flat_map(|f| &f.resources).find(|r| r.meta.id == id)?;
        if let Some(f) = r.fields.get(name) {
            return Some(f);
        }
        if depth > 16 {
            return None;
        }
        r.extends.iter().find_map(|base| self.member(base, name, depth + 1))
    }

    /// The name of a union variant: the component it refers to, its tag, its title, or its type.
    pub(in crate::import) fn variant_name(&self, schema: &Value, tag_field: Option<&str>) -> String {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str)
            && let Some(p) = local_pointer(r)
            && p.starts_with("/components/schemas/")
        {
            let name = last_token(&p);
            return self.component_id(&name).unwrap_or_else(|| case::snake(&name));
        }
        if let Some(field) = tag_field
            && let Some(c) = self.const_of(schema, field)
        {
            let text = match c {
                Value::String(s) => s,
                other => other.to_string(),
            };
            return case::snake(&text);
        }
        if let Some(t) = schema.get("title").and_then(Value::as_str) {
            return case::snake(t);
        }
        match schema.as_object().map(type_list).unwrap_or_default().iter().find(|t| **t != "null") {
            Some(t) => (*t).to_owned(),
            None => "variant".to_owned(),
        }
    }

    /// The constant a required member `field` of an object schema has (`const`, an `enum` of
    /// one value, or either behind a single `allOf`).
    pub(in crate::import) fn const_of(&self, schema: &Value, field: &str) -> Option<Value> {
        let s = self.resolved(schema);
        let required = s.get("required").and_then(Value::as_array).is_some_and(|l| l.iter().any(|v| v == field));
        let member = s.get("properties")?.get(field)?;
        if !required || admits_null(member) {
            return None;
        }
        member.get("const").cloned().or_else(|| member.get("enum").and_then(Value::as_array).filter(|l| l.len() == 1).map(|l| l[0].clone()))
    }

    /// The discriminator of a list of variants, when every variant carries a distinct constant
    /// in the same required member.
    pub(in crate::import) fn discriminator(&self, list: &[(usize, &Value)], explicit: Option<&str>) -> Option<Tag> {
        let first = self.resolved(list.first()?.1);
        let candidates: Vec<String> = match explicit {
            Some(name) => vec![name.to_owned()],
            None => first.get("properties")?.as_object()?.keys().cloned().collect(),
        };
        'candidate: for field in candidates {
            let mut seen: Vec<Value> = Vec::new();
            for (_, v) in list {
                let obj = self.resolved(v);
                if type_list(obj.as_object()?).iter().any(|t| *t != "object" && *t != "null") {
                    return None;
                }
                match self.const_of(v, &field) {
                    Some(c) if !seen.contains(&c) => seen.push(c),
                    _ => continue 'candidate,
                }
            }
            let ty = if let Some(e) = self.common_enum(list, &field) {
                format!("enum<{e}>")
            } else if seen.iter().all(Value::is_string) {
                "string".to_owned()
            } else if seen.iter().all(|v| v.is_i64() || v.is_u64()) {
                "integer".to_owned()
            } else {
                continue;
            };
            return Some(Tag { field, ty });
        }
        None
    }

    /// The enum component every variant's member `field` refers to, if they all refer to one.
    pub(in crate::import) fn common_enum(&self, list: &[(usize, &Value)], field: &str) -> Option<String> {
        let mut found: Option<String> = None;
        for (_, v) in list {
            let member = self.resolved(v).get("properties")?.get(field)?;
            let r = member.get("$ref").or_else(|| member.get("allOf").and_then(|a| a.get(0)).and_then(|p| p.get("$ref")))?.as_str()?;
            let name = last_token(&local_pointer(r)?);
            let Some(Component::Enum(id)) = self.components.get(&name) else { return None };
            match &found {
                Some(f) if f != id => return None,
                _ => found = Some(id.clone()),
            }
        }
        found
    }
}

/// The discriminator found for a union.
pub(in crate::import) struct Tag {
    field: String,
    ty: String,
}

/// Where an untagged variant goes: constrained, specific, text, `json`.
pub(in crate::import) fn variant_rank(f: &Field) -> u8 {
    match base_type(f) {
        _ if narrowed(f) => 0,
        "json" => 3,
        t if is_text(t) => 2,
        _ => 1,
    }
}

/// Whether every value of `later` also decodes as `earlier` (both unconstrained).
pub(in crate::import) fn shadows(earlier: &Field, later: &Field) -> bool {
    let (e, l) = (base_type(earlier), base_type(later));
    let string_only = is_text(l) || ["timestamp", "date", "uuid", "bytes"].contains(&l) || l.starts_with("enum<");
    e == l || e == "json" || (is_text(e) && string_only)
}
