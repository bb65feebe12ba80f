//! Wire primitives: what each reads and writes, and what it refuses.

use platform_codegen_runtime::wire::{Bytes, Presence, Snowflake, StringInteger, Uuid, encode_path_segment, parse_decimal};

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
