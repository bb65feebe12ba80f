//! Form bodies (`application/x-www-form-urlencoded`): name=value pairs, a list written as its
//! name repeated (`tag=a&tag=b`), as HTML forms send them and as OpenAPI's default `form` style
//! with `explode` reads them. A member left out or `None` is no pair.
//!
//! On `serde_html_form` (the reader axum-extra's `Form` uses): `serde_urlencoded` reads no
//! repeated names into a list and writes no list, so every list member of a form was refused.

use serde::Serialize;
use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, MapAccess, Visitor};
use std::fmt;

/// The text of a form body.
pub fn to_text<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    serde_html_form::to_string(value).map_err(|e| e.to_string())
}

/// A form body read into `T`; the error in words.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    from_bytes_with_lists(bytes, &[])
}

/// A form body read into `T`, each of `lists` (members' names) read as an empty list when no
/// pair names it. A form has no spelling for an empty list (`to_text` writes none of its name),
/// so a required list member would otherwise refuse the very body that writes it empty; the
/// names come from the generator, which knows which members are required lists.
pub fn from_bytes_with_lists<T: DeserializeOwned>(bytes: &[u8], lists: &[&str]) -> Result<T, String> {
    let reader = serde_html_form::Deserializer::from_bytes(bytes);
    T::deserialize(WithLists { inner: reader, lists }).map_err(|e| e.to_string())
}

/// A form reader that adds the absent members of `lists`, after the pairs, as empty lists.
struct WithLists<'a, D> {
    inner: D,
    lists: &'a [&'a str],
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for WithLists<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_map(Filled { visitor, lists: self.lists })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The visitor of the form's pairs, given them with the absent lists added.
struct Filled<'a, V> {
    visitor: V,
    lists: &'a [&'a str],
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Filled<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<V::Value, M::Error> {
        self.visitor.visit_map(FilledMap { map, lists: self.lists, seen: Vec::new(), added: None })
    }
}

/// The pairs, then each list of `lists` no pair named, valued as an empty list.
struct FilledMap<'a, M> {
    map: M,
    lists: &'a [&'a str],
    seen: Vec<&'a str>,
    /// Past the pairs: how many of `lists` were looked at.
    added: Option<usize>,
}

impl<'de, M: MapAccess<'de>> MapAccess<'de> for FilledMap<'_, M> {
    type Error = M::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, M::Error> {
        if self.added.is_none() {
            if let Some(key) = self.map.next_key::<String>()? {
                if let Some(list) = self.lists.iter().find(|l| **l == key) {
                    self.seen.push(list);
                }
                return seed.deserialize(key.into_deserializer()).map(Some);
            }
            self.added = Some(0);
        }
        let start = self.added.unwrap_or(0);
        let next = self.lists[start.min(self.lists.len())..].iter().position(|l| !self.seen.contains(l));
        let Some(offset) = next else {
            self.added = Some(self.lists.len());
            return Ok(None);
        };
        self.added = Some(start + offset + 1);
        seed.deserialize(self.lists[start + offset].into_deserializer()).map(Some)
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, M::Error> {
        match self.added {
            None => self.map.next_value_seed(seed),
            Some(_) => seed.deserialize(EmptyList::<M::Error>(std::marker::PhantomData)),
        }
    }
}

/// The value of an absent list member: a list of nothing.
struct EmptyList<E>(std::marker::PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for EmptyList<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_seq(de::value::SeqDeserializer::<_, E>::new(std::iter::empty::<String>()))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// A query string of `pairs`: each name with its values, one value as `name=value`, several as
/// one comma-separated list (`style: comma`) whose items are encoded one by one, so a comma
/// inside an item travels as `%2C` and the separators as commas.
pub fn query_text(pairs: &[(&str, Vec<String>)]) -> String {
    let encode = |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
    let pair = |(name, values): &(&str, Vec<String>)| format!("{}={}", encode(name), values.iter().map(|v| encode(v)).collect::<Vec<_>>().join(","));
    pairs.iter().map(pair).collect::<Vec<_>>().join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Body {
        name: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tags: Vec<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    }

    #[test]
    fn a_list_is_its_name_repeated_both_ways() {
        let body = Body { name: "a b".into(), tags: vec![1, 2], note: None };
        let text = to_text(&body).unwrap();
        assert_eq!(text, "name=a+b&tags=1&tags=2");
        assert_eq!(from_bytes::<Body>(text.as_bytes()).unwrap(), body);
    }

    #[test]
    fn a_single_pair_is_a_list_of_one_and_an_absent_member_none() {
        let body: Body = from_bytes(b"tags=7&name=x").unwrap();
        assert_eq!(body, Body { name: "x".into(), tags: vec![7], note: None });
    }

    #[test]
    fn a_comma_list_encodes_its_items_and_not_its_separators() {
        let pairs = [("tags", vec!["a,b".to_owned(), "c d".to_owned()]), ("id", vec!["1".to_owned()]), ("id", vec!["2".to_owned()])];
        assert_eq!(query_text(&pairs), "tags=a%2Cb,c+d&id=1&id=2");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Required {
        name: String,
        tags: Vec<u32>,
        #[serde(default)]
        note: Option<String>,
    }

    #[test]
    fn a_required_list_written_empty_reads_back_empty_when_named_as_a_list() {
        let body = Required { name: "x".into(), tags: Vec::new(), note: None };
        let text = to_text(&body).unwrap();
        assert_eq!(text, "name=x", "an empty list has no pair");
        assert!(from_bytes::<Required>(text.as_bytes()).is_err(), "serde alone wants the member");
        assert_eq!(from_bytes_with_lists::<Required>(text.as_bytes(), &["tags"]).unwrap(), body);
        let given: Required = from_bytes_with_lists(b"tags=1&name=y&tags=2", &["tags"]).unwrap();
        assert_eq!(given.tags, [1, 2], "a named list given pairs reads them");
        assert!(from_bytes_with_lists::<Required>(b"tags=1", &["tags"]).is_err(), "a member that is no list is still required");
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_an_error_not_a_panic() {
        assert!(from_bytes::<Body>(b"name=x&tags=seven").is_err());
        assert!(from_bytes::<Body>(b"tags=1").is_err());
        // Bytes that are not UTF-8 after decoding: read lossily or refused, never a panic.
        let _ = from_bytes::<Body>(b"name=%FF%FE&tags=1");
    }
}
