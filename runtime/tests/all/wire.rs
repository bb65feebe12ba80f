//! Wire primitives: what each reads and writes, and what it refuses.

use platform_codegen_runtime::wire::{Bytes, Presence, Snowflake, StringInteger, Uuid, encode_path_segment, members, parse_decimal};

#[test]
fn snowflakes_are_decimal_text_and_read_from_numbers_too() {
    assert_eq!(serde_json::to_string(&Snowflake(u64::MAX)).unwrap(), "\"18446744073709551615\"");
    assert_eq!(serde_json::from_str::<Snowflake>("\"42\"").unwrap(), Snowflake(42));
    assert_eq!(serde_json::from_str::<Snowflake>("42").unwrap(), Snowflake(42));
    assert_eq!(serde_json::from_str::<StringInteger>("\"7\"").unwrap(), StringInteger(7));
    for refused in ["\"18446744073709551616\"", "\"-1\"", "\"1e3\"", "\"\"", "-1", "1.5", "null"] {
        assert!(serde_json::from_str::<Snowflake>(refused).is_err(), "{refused} is not a snowflake");
    }
}

#[test]
fn decimal_parsing_says_why() {
    assert_eq!(parse_decimal("0"), Ok(0));
    assert_eq!(parse_decimal("007"), Ok(7));
    assert_eq!(parse_decimal("18446744073709551615"), Ok(u64::MAX));
    for refused in ["", "+1", "-1", " 1", "1 ", "18446744073709551616", "99999999999999999999", "1.0", "١"] {
        assert!(parse_decimal(refused).is_err(), "{refused:?} is not decimal digits");
    }
    let error = parse_decimal("12a").unwrap_err().to_string();
    assert!(error.contains("12a"), "the error names the text: {error}");
}

#[test]
fn presence_keeps_absent_null_and_a_value_apart() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Patch {
        #[serde(default, skip_serializing_if = "Presence::is_absent")]
        nick: Presence<String>,
    }
    let cases = [("{}", Presence::Absent), ("{\"nick\":null}", Presence::Null), ("{\"nick\":\"a\"}", Presence::Value("a".to_owned()))];
    for (text, nick) in cases {
        let read: Patch = serde_json::from_str(text).unwrap();
        assert_eq!(read, Patch { nick });
        assert_eq!(serde_json::to_string(&read).unwrap(), text, "written back as read");
    }
}

#[test]
fn a_list_presence_is_made_from_an_array_or_a_vec() {
    let from_array: Presence<Vec<u8>> = [1, 2].into();
    let from_vec: Presence<Vec<u8>> = vec![1, 2].into();
    assert_eq!(from_array, from_vec);
    assert_eq!(from_array, Presence::Value(vec![1, 2]));
    let empty: Presence<Vec<u8>> = [].into();
    assert_eq!(empty, Presence::Value(Vec::new()), "an empty list is a value, not absent");
}

#[test]
fn uuids_and_bytes_round_trip_as_text() {
    let text = "\"67e55044-10b1-426f-9247-bb680e5fe0c8\"";
    let uuid: Uuid = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&uuid).unwrap(), text);
    assert!(serde_json::from_str::<Uuid>("\"67e55044-10b1-426f-9247\"").is_err());
    let bytes: Bytes = serde_json::from_str("\"aGk=\"").unwrap();
    assert_eq!(bytes, Bytes(b"hi".to_vec()));
    assert!(serde_json::from_str::<Bytes>("\"not base64!\"").is_err());
}

#[test]
fn path_segments_are_percent_encoded() {
    assert_eq!(encode_path_segment("a b/c"), "a%20b%2Fc");
    assert_eq!(encode_path_segment("plain-text_1.2~"), "plain-text_1.2~");
}

/// A struct as the generator writes its reading: a required member, an optional one that
/// refuses `null`, and, when `closed`, no member it does not list.
#[derive(Debug, PartialEq)]
struct Pair {
    id: u64,
    note: Option<String>,
    extra: serde_json::Map<String, serde_json::Value>,
}

impl<'de> members::FromMembers<'de> for Pair {
    const NAME: &'static str = "Pair";
    const MEMBERS: &'static [&'static str] = &["id", "note"];

    fn from_members<A: serde::de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut id: Option<u64> = None;
        let mut note: Option<String> = None;
        let mut extra = serde_json::Map::new();
        while let Some(key) = map.next_key::<members::Key<'de>>()? {
            match key.as_str() {
                "id" => members::take(&mut map, &mut id, "id")?,
                "note" => members::take(&mut map, &mut note, "note")?,
                _ => members::keep(&mut map, &mut extra, key)?,
            }
        }
        Ok(Self { id: members::required(id, "id")?, note, extra })
    }
}

impl<'de> serde::Deserialize<'de> for Pair {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        members::deserialize(deserializer)
    }
}

/// [`Pair`] without the map of other members, refusing them.
#[derive(Debug, PartialEq)]
struct Closed {
    id: u64,
}

impl<'de> members::FromMembers<'de> for Closed {
    const NAME: &'static str = "Closed";
    const MEMBERS: &'static [&'static str] = &["id"];

    fn from_members<A: serde::de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut id: Option<u64> = None;
        while let Some(key) = map.next_key::<members::Key<'de>>()? {
            match key.as_str() {
                "id" => members::take(&mut map, &mut id, "id")?,
                _ => return Err(members::unknown(&key, Self::MEMBERS)),
            }
        }
        Ok(Self { id: members::required(id, "id")? })
    }
}

impl<'de> serde::Deserialize<'de> for Closed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        members::deserialize(deserializer)
    }
}

/// A struct without fields that refuses every member.
#[derive(Debug, PartialEq)]
struct Nothing;

impl<'de> members::FromMembers<'de> for Nothing {
    const NAME: &'static str = "Nothing";
    const MEMBERS: &'static [&'static str] = &[];

    fn from_members<A: serde::de::MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        members::others(map, None, true)?;
        Ok(Self)
    }
}

impl<'de> serde::Deserialize<'de> for Nothing {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        members::deserialize(deserializer)
    }
}

fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
    serde_json::from_str::<T>(text).unwrap_err().to_string()
}

#[test]
fn a_struct_reads_its_members_in_any_order_and_keeps_the_others() {
    let read: Pair = serde_json::from_str(r#"{"x":[1],"note":"hi","id":7}"#).unwrap();
    let extra = serde_json::json!({"x": [1]}).as_object().cloned().unwrap();
    assert_eq!(read, Pair { id: 7, note: Some("hi".into()), extra });
    // A name with an escape is no longer a slice of the input: read all the same.
    let escaped: Pair = serde_json::from_str(r#"{"\u0069d":7}"#).unwrap();
    assert_eq!(escaped.id, 7);
    // From a JSON tree (how a union reads its variants) and from a reader (owned names).
    let tree = serde_json::json!({"id": 7, "note": "hi"});
    assert_eq!(<Pair as serde::Deserialize>::deserialize(&tree).unwrap().note.as_deref(), Some("hi"));
    assert_eq!(serde_json::from_reader::<_, Pair>(&br#"{"id":7}"#[..]).unwrap().id, 7);
}

#[test]
fn a_struct_refuses_what_serde_derive_refused_in_its_words() {
    assert_eq!(error::<Pair>(r#"{"note":"hi"}"#), "missing field `id` at line 1 column 13");
    assert_eq!(error::<Pair>(r#"{"id":1,"id":2}"#), "duplicate field `id` at line 1 column 12");
    assert!(
        error::<Pair>(r#"{"id":1,"note":null}"#).starts_with("invalid type: null, expected a string"),
        "an optional member that is not nullable refuses null"
    );
    assert!(error::<Pair>("[7]").starts_with("invalid type: sequence, expected struct Pair"), "a struct is read from a map only");
    assert!(error::<Pair>("7").starts_with("invalid type: integer `7`, expected struct Pair"));
    assert_eq!(error::<Closed>(r#"{"id":1,"other":2}"#), "unknown field `other`, expected `id` at line 1 column 15");
    assert_eq!(error::<Nothing>(r#"{"a":1}"#), "unknown field `a`, there are no fields at line 1 column 4");
    assert_eq!(serde_json::from_str::<Nothing>("{}").unwrap(), Nothing);
}

#[test]
fn a_struct_reads_a_form_body() {
    let read: Pair = platform_codegen_runtime::form::from_bytes(b"id=7&note=a+b&other=x").unwrap();
    assert_eq!((read.id, read.note.as_deref()), (7, Some("a b")));
    assert_eq!(read.extra.get("other"), Some(&serde_json::json!("x")));
}
