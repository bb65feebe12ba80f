//! Form bodies (`application/x-www-form-urlencoded`): name=value pairs, a list written as its
//! name repeated (`tag=a&tag=b`), as HTML forms send them and as OpenAPI's default `form` style
//! with `explode` reads them. A member left out or `None` is no pair.
//!
//! On `serde_html_form` (the reader axum-extra's `Form` uses): `serde_urlencoded` reads no
//! repeated names into a list and writes no list, so every list member of a form was refused.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The text of a form body.
pub fn to_text<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    serde_html_form::to_string(value).map_err(|e| e.to_string())
}

/// A form body read into `T`; the error in words.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    serde_html_form::from_bytes(bytes).map_err(|e| e.to_string())
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

    #[test]
    fn a_value_of_the_wrong_kind_is_an_error_not_a_panic() {
        assert!(from_bytes::<Body>(b"name=x&tags=seven").is_err());
        assert!(from_bytes::<Body>(b"tags=1").is_err());
        // Bytes that are not UTF-8 after decoding: read lossily or refused, never a panic.
        let _ = from_bytes::<Body>(b"name=%FF%FE&tags=1");
    }
}
