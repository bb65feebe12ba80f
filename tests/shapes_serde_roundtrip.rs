//! Serde round trips of every generated type of the shapes fixture (`tests/fixtures/shapes/`):
//! a value decoded from its wire form encodes and decodes back equal, and, when every defaulted
//! field is present, writes back byte for byte. Values are drawn from the spec (see
//! `tests/values/`), with unknown enum values and union variants among them; dedicated tests
//! pin that an unknown variant and an unknown enum value survive exactly.

use crate::values;

use platform_codegen::model::{Field, Model, Response};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use shapes_types::endpoints::{
    amend_feedback, browse_notes, create_document, create_note, delete_note, get_archive, get_attachment, get_document, get_note, get_note_export, get_status,
    import_notes, list_archived_notes, list_notes, list_tags, search_notes, send_feedback, update_profile, upload_attachment, watch_notes,
};
use shapes_types::enums::{ComponentType, Locale, Theme};
use shapes_types::resources::*;
use shapes_types::responses::{ClientErrorBody, ListingRefusedBody, RateLimitedBody, RateLimitedHeaders};
use shapes_types::unions::*;
use std::sync::OnceLock;
use values::Gen;

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shapes");
        platform_codegen::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the shapes fixture is invalid")).model
    })
}

/// Decodes `json` as `T`, encodes and decodes again: the two values are equal, and the second
/// encoding equals the first. Returns the first encoding.
fn round_trip<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(json: &Value) -> Result<Value, String> {
    let first: T = serde_json::from_value(json.clone()).map_err(|e| format!("decode: {e}"))?;
    let encoded = serde_json::to_value(&first).map_err(|e| format!("encode: {e}"))?;
    let second: T = serde_json::from_value(encoded.clone()).map_err(|e| format!("decode again: {e}\n{encoded:#}"))?;
    if first != second {
        return Err(format!("decoded values differ:\n{first:?}\n{second:?}"));
    }
    let again = serde_json::to_value(&second).map_err(|e| format!("encode again: {e}"))?;
    if again != encoded {
        return Err(format!("encodings differ:\n{encoded:#}\n{again:#}"));
    }
    Ok(encoded)
}

type RoundTrip = fn(&Value) -> Result<Value, String>;

/// Every generated serde type of the fixture: resources (inline ones too), unions (inline ones
/// too), the structs of endpoint parts, response bodies and headers (named and per status), and
/// the error body, by where their shape is in the spec.
const TYPES: &[(&str, RoundTrip)] = &[
    ("resource:action_row", round_trip::<ActionRow>),
    ("resource:button", round_trip::<Button>),
    ("resource:circle", round_trip::<Circle>),
    ("resource:rect", round_trip::<Rect>),
    ("resource:hello", round_trip::<Hello>),
    ("resource:heartbeat", round_trip::<Heartbeat>),
    ("resource:negation", round_trip::<Negation>),
    ("resource:category", round_trip::<Category>),
    ("resource:entity", round_trip::<Entity>),
    ("resource:document", round_trip::<Document>),
    ("resource:profile", round_trip::<Profile>),
    ("resource:button_emoji", round_trip::<ButtonEmoji>),
    ("resource:document_owner_address", round_trip::<DocumentOwnerAddress>),
    ("resource:document_owner", round_trip::<DocumentOwner>),
    ("resource:component_select", round_trip::<ComponentSelect>),
    ("resource:create_document_body_owner", round_trip::<CreateDocumentBodyOwner>),
    ("union:component", round_trip::<Component>),
    ("union:shape", round_trip::<Shape>),
    ("union:gateway_payload", round_trip::<GatewayPayload>),
    ("union:nonce", round_trip::<Nonce>),
    ("union:title_filter", round_trip::<TitleFilter>),
    ("union:expression", round_trip::<Expression>),
    ("union:document_revision", round_trip::<DocumentRevision>),
    ("body:create_document", round_trip::<create_document::Body>),
    ("path:get_document", round_trip::<get_document::Path>),
    ("query:get_document", round_trip::<get_document::Query>),
    ("body:update_profile", round_trip::<update_profile::Body>),
    ("resource:note", round_trip::<Note>),
    ("resource:note_draft", round_trip::<NoteDraft>),
    ("resource:import_meta", round_trip::<ImportMeta>),
    ("resource:user", round_trip::<User>),
    ("resource:stream_credentials", round_trip::<StreamCredentials>),
    ("resource:stream_session", round_trip::<StreamSession>),
    ("path:get_note", round_trip::<get_note::Path>),
    ("query:list_notes", round_trip::<list_notes::Query>),
    ("query:list_tags", round_trip::<list_tags::Query>),
    ("headers:list_notes", round_trip::<list_notes::Headers>),
    ("query:search_notes", round_trip::<search_notes::Query>),
    ("query:list_archived_notes", round_trip::<list_archived_notes::Query>),
    ("query:browse_notes", round_trip::<browse_notes::Query>),
    ("headers:send_feedback", round_trip::<send_feedback::Headers>),
    ("headers:watch_notes", round_trip::<watch_notes::Headers>),
    ("body:create_note", round_trip::<create_note::Fields>),
    ("path:upload_attachment", round_trip::<upload_attachment::Path>),
    ("path:get_attachment", round_trip::<get_attachment::Path>),
    ("path:delete_note", round_trip::<delete_note::Path>),
    ("body:amend_feedback", round_trip::<amend_feedback::Fields>),
    ("path:get_archive", round_trip::<get_archive::Path>),
    ("path:get_note_export", round_trip::<get_note_export::Path>),
    ("resource:feedback", round_trip::<Feedback>),
    ("response:rate_limited", round_trip::<RateLimitedBody>),
    ("response_headers:rate_limited", round_trip::<RateLimitedHeaders>),
    ("response:client_error", round_trip::<ClientErrorBody>),
    ("response:listing_refused", round_trip::<ListingRefusedBody>),
    ("response:get_status.5XX", round_trip::<get_status::ServerErrorBody>),
    ("response_headers:get_status.5XX", round_trip::<get_status::ServerErrorHeaders>),
    ("response_headers:get_note.200", round_trip::<get_note::OkHeaders>),
    ("response_headers:list_notes.200", round_trip::<list_notes::OkHeaders>),
    ("response_headers:browse_notes.200", round_trip::<browse_notes::OkHeaders>),
    ("response_headers:create_note.201", round_trip::<create_note::CreatedHeaders>),
    ("response:import_notes.202", round_trip::<import_notes::AcceptedBody>),
    ("response_headers:import_notes.202", round_trip::<import_notes::AcceptedHeaders>),
    ("response_headers:get_attachment.303", round_trip::<get_attachment::SeeOtherHeaders>),
    ("error_body", round_trip::<shapes_types::errors::ErrorBody>),
];

/// Every response of the fixture that is a struct of fields or headers, by where it is
/// declared: `rate_limited` (named) or `get_status.5XX` (an endpoint's status).
fn responses(model: &'static Model) -> Vec<(String, &'static Response)> {
    let mut out: Vec<(String, &Response)> = model.responses.iter().map(|r| (r.id.clone(), &r.response)).collect();
    for e in &model.endpoints {
        for r in &e.responses {
            if let platform_codegen::model::ResponseUse::Inline(inline) = &r.response {
                out.push((format!("{}.{}", e.meta.id, r.status.id), &**inline));
            }
        }
    }
    out
}

/// A response's headers as fields, named as in its headers struct.
fn header_fields(model: &'static Model, r: &Response) -> &'static [Field] {
    let fields: Vec<Field> = r.headers.iter().map(|h| model.header_field(h).expect("a fixture header")).collect();
    Box::leak(fields.into_boxed_slice())
}

/// The shapes the fixture generates a type for, named as in [`TYPES`].
fn generated_shapes(model: &'static Model) -> Vec<String> {
    let mut out: Vec<String> = model.resources.iter().map(|r| format!("resource:{}", r.meta.id)).collect();
    out.extend(model.unions.iter().map(|u| format!("union:{}", u.meta.id)));
    for e in &model.endpoints {
        for (part, fields) in [("body", &e.body), ("path", &e.path_params), ("query", &e.query), ("headers", &e.headers)] {
            if !fields.is_empty() {
                out.push(format!("{part}:{}", e.meta.id));
            }
        }
    }
    for (at, r) in responses(model) {
        if !r.fields.is_empty() {
            out.push(format!("response:{at}"));
        }
        if !r.headers.is_empty() {
            out.push(format!("response_headers:{at}"));
        }
    }
    out.push("error_body".to_owned());
    out.sort();
    out
}

#[test]
fn every_generated_type_of_the_fixture_has_a_round_trip() {
    let mut covered: Vec<String> = TYPES.iter().map(|(id, _)| (*id).to_owned()).collect();
    covered.sort();
    assert_eq!(generated_shapes(model()), covered, "add the new type to TYPES");
}

/// A value of one of [`TYPES`], in its wire form.
fn values(complete: bool) -> BoxedStrategy<(usize, Value)> {
    let model = model();
    let g = Gen { model, complete };
    let strategies: Vec<BoxedStrategy<(usize, Value)>> = TYPES
        .iter()
        .enumerate()
        .map(|(i, (id, _))| {
            let (kind, name) = id.split_once(':').unwrap_or((id, ""));
            let endpoint = || model.endpoint(name).expect("a fixture endpoint");
            let value = match kind {
                "resource" => g.object(model.resource(name).expect("a fixture resource"), 0),
                "union" => g.union(model.union(name).expect("a fixture union"), 0),
                "body" => g.fields_object(&endpoint().body, false, 0),
                "path" => g.fields_object(&endpoint().path_params, false, 0),
                "query" => g.fields_object(&endpoint().query, false, 0),
                "headers" => g.fields_object(&endpoint().headers, false, 0),
                "response" | "response_headers" => {
                    let (_, r) = responses(model).into_iter().find(|(at, _)| at == name).expect("a fixture response");
                    if kind == "response" { g.fields_object(&r.fields, false, 0) } else { g.fields_object(header_fields(model, r), false, 0) }
                }
                _ => g.fields_object(&model.error_body.as_ref().expect("an error body").fields, false, 0),
            };
            value.prop_map(move |v| (i, v)).boxed()
        })
        .collect();
    proptest::strategy::Union::new(strategies).boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn every_type_decodes_encodes_and_decodes_back_equal((index, json) in values(false)) {
        let (id, round_trip) = TYPES[index];
        round_trip(&json).map_err(|e| TestCaseError::fail(format!("{id}: {e}\n{json:#}")))?;
    }

    #[test]
    fn every_type_writes_back_what_it_read((index, json) in values(true)) {
        let (id, round_trip) = TYPES[index];
        let back = round_trip(&json).map_err(|e| TestCaseError::fail(format!("{id}: {e}\n{json:#}")))?;
        prop_assert_eq!(back, json, "{}", id);
    }
}

#[test]
fn an_unknown_variant_survives_with_its_tag_anywhere() {
    for json in [json!({ "type": 4, "placeholder": "type here", "style": 1 }), json!({ "placeholder": "type here", "style": 1, "type": 4 })] {
        let component: Component = serde_json::from_value(json.clone()).unwrap();
        assert!(matches!(&component, Component::Unknown { tag: ComponentType::TextInput, raw } if *raw == json), "{component:?}");
        assert_eq!(serde_json::to_value(&component).unwrap(), json, "written back as it came, entries in order");
    }
    let newer = json!({ "type": 42, "items": [1, 2] });
    let component: Component = serde_json::from_value(newer.clone()).unwrap();
    assert!(matches!(&component, Component::Unknown { tag, .. } if tag.value() == 42));
    assert_eq!(serde_json::to_value(&component).unwrap(), newer);
    let shape: Shape = serde_json::from_value(json!({ "sides": 6, "kind": "hexagon" })).unwrap();
    assert_eq!(shape, Shape::Unknown { tag: "hexagon".to_owned(), raw: json!({ "sides": 6, "kind": "hexagon" }) });
    let nonce: Nonce = serde_json::from_value(json!([1])).unwrap();
    assert_eq!(nonce, Nonce::Unknown(json!([1])));
}

#[test]
fn a_known_tag_after_other_entries_decodes_its_variant() {
    let json = json!({ "label": "Go", "style": 1, "type": 2 });
    let component: Component = serde_json::from_value(json.clone()).unwrap();
    let Component::Button(button) = &component else { panic!("a button: {component:?}") };
    assert_eq!(button.label.as_deref(), Some("Go"));
    assert_eq!(serde_json::to_value(&component).unwrap(), json!({ "type": 2, "style": 1, "label": "Go" }), "written in field order");
    let error = serde_json::from_value::<Component>(json!({ "style": 1 })).unwrap_err().to_string();
    assert!(error.contains("missing field `type`"), "{error}");
    let error = serde_json::from_value::<Component>(json!({ "type": 2, "style": "big" })).unwrap_err().to_string();
    assert!(error.contains("invalid type"), "{error}");
}

/// A field every variant has is read through the enum, `Unknown` included where it keeps it
/// (a tagged union's tag).
#[test]
fn a_field_every_variant_has_reads_whatever_the_variant() {
    let button: Component = serde_json::from_value(json!({ "type": 2, "style": 1 })).unwrap();
    assert_eq!(button.r#type(), Some(&ComponentType::Button));
    let newer: Component = serde_json::from_value(json!({ "type": 4, "style": 1 })).unwrap();
    assert_eq!(newer.r#type(), Some(&ComponentType::TextInput), "the tag of a variant the spec does not name");
    let rect: Shape = serde_json::from_value(json!({ "kind": "rect", "width": 2, "height": 3 })).unwrap();
    let hexagon: Shape = serde_json::from_value(json!({ "kind": "hexagon" })).unwrap();
    assert_eq!((rect.kind().map(String::as_str), hexagon.kind().map(String::as_str)), (Some("rect"), Some("hexagon")));
}

#[test]
fn unknown_enum_values_survive() {
    let profile: Profile = serde_json::from_value(json!({ "theme": "sepia", "locale": "pt" })).unwrap();
    assert_eq!((profile.theme.clone(), profile.locale.clone()), (Theme::from("sepia"), Some(Locale::from("pt"))));
    assert!(!profile.theme.is_known());
    let back = serde_json::to_value(&profile).unwrap();
    assert_eq!((back["theme"].clone(), back["locale"].clone()), (json!("sepia"), json!("pt")));
    let button: Button = serde_json::from_value(json!({ "type": 77, "style": 99 })).unwrap();
    assert_eq!((button.r#type.value(), button.style.value()), (77, 99));
    assert_eq!(serde_json::to_value(&button).unwrap(), json!({ "type": 77, "style": 99 }));
}

#[test]
fn presence_tells_absent_null_and_a_value_apart() {
    use shapes_types::wire::Presence;
    let absent: Profile = serde_json::from_value(json!({})).unwrap();
    let null: Profile = serde_json::from_value(json!({ "nickname": null })).unwrap();
    let value: Profile = serde_json::from_value(json!({ "nickname": "ada" })).unwrap();
    assert_eq!([absent.nickname.clone(), null.nickname.clone(), value.nickname.clone()], [Presence::Absent, Presence::Null, Presence::Value("ada".to_owned())]);
    assert!(serde_json::to_value(&absent).unwrap().get("nickname").is_none(), "absent stays absent");
    assert_eq!(serde_json::to_value(&null).unwrap()["nickname"], Value::Null);
    assert_eq!((absent.theme, absent.volume), (Theme::Dark, 0.5), "an absent defaulted field reads as its default");
    assert_eq!(Profile::default().theme, Theme::Dark, "and so does Default");
}

#[test]
fn scalar_formats_read_and_write_their_text() {
    let document: Document = serde_json::from_value(json!({
        "id": "0123ABCD-0000-4000-8000-00000000000F", "created_at": "2024-05-01T12:00:00Z", "title": "t", "tags": [], "scores": {},
        "owner": { "name": "n" }, "schema_version": 2, "published": "2024-02-29", "checksum": "aGVsbG8=",
        "views_by_user": { "80351110224678912": 3 }, "summaries": { "fr": "résumé" }, "weights": [0.5, null], "revision": null
    }))
    .unwrap();
    assert_eq!(document.id.0, 0x0123abcd_0000_4000_8000_00000000000f);
    assert_eq!(document.checksum.as_ref().map(|b| b.0.as_slice()), Some(&b"hello"[..]));
    assert_eq!(document.revision, Some(DocumentRevision::Null));
    let back = serde_json::to_value(&document).unwrap();
    assert_eq!(back["id"], json!("0123abcd-0000-4000-8000-00000000000f"), "written in lower case");
    assert_eq!((back["published"].clone(), back["checksum"].clone()), (json!("2024-02-29"), json!("aGVsbG8=")));
    assert_eq!(back["views_by_user"], json!({ "80351110224678912": 3 }));
    assert!(serde_json::from_value::<Document>(json!({ "id": "not-a-uuid" })).is_err());
}
