//! The shapes fixture's generated server and client over 127.0.0.1: PATCH presence (absent,
//! `null`, value), the enum policy (open on read, strict on write) for enums, subsets and union
//! variants, recursive shapes, and every violation of a request reported at its JSON pointer.

mod shapes_common;

use serde_json::{Value, json};
use shapes_client::Error;
use shapes_client::types::endpoints::{create_document, evaluate, list_categories, poll_gateway, update_profile};
use shapes_client::types::enums::{ButtonStyle, ComponentType, Theme};
use shapes_client::types::resources::{Button, CreateDocumentBodyOwner, Negation};
use shapes_client::types::unions::{Component, Expression, GatewayPayload, Nonce};
use shapes_client::types::wire::{IndexMap, Presence};
use shapes_common::{Server, Shapes, TOKEN};

/// A raw answer: status and body as JSON.
async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.header("authorization", format!("Bot {TOKEN}")).send().await.expect("the request is answered");
    let status = response.status().as_u16();
    let text = response.text().await.expect("the body is read");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// The `(pointer, message)` of every violation in an error body.
fn violations(body: &Value) -> Vec<(String, String)> {
    let list = body["errors"].as_array().unwrap_or_else(|| panic!("an error body with violations: {body}"));
    list.iter().map(|v| (v["pointer"].as_str().unwrap().to_owned(), v["message"].as_str().unwrap().to_owned())).collect()
}

fn pointers(body: &Value) -> Vec<String> {
    violations(body).into_iter().map(|(p, _)| p).collect()
}

fn document_body() -> Value {
    json!({ "title": "Notes", "tags": ["a"], "scores": { "x": 1.5 }, "owner": { "name": "Ada" } })
}

#[tokio::test]
async fn a_patch_leaves_absent_fields_clears_null_ones_and_sets_the_others() {
    let server = Server::start(Shapes::new()).await;
    let url = server.api("/profile");
    let (status, set) = send(server.http.patch(&url).json(&json!({ "nickname": "ada", "accent_color": 255, "birthday": "1815-12-10" }))).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!((set["nickname"].clone(), set["accent_color"].clone(), set["birthday"].clone()), (json!("ada"), json!(255), json!("1815-12-10")));
    let (_, kept) = send(server.http.patch(&url).json(&json!({ "accent_color": null }))).await;
    assert_eq!(kept["nickname"], json!("ada"), "an absent field is left as it was: {kept}");
    assert_eq!(kept["accent_color"], Value::Null, "a null field is cleared, and the answer says so: {kept}");
    assert_eq!(kept["birthday"], json!("1815-12-10"));
    assert_eq!(kept["theme"], json!("dark"), "an absent defaulted field reads as its default");

    // The generated client says the same three things with `Presence`.
    let client = server.client();
    let body = update_profile::Body { nickname: Presence::Null, theme: Some(Theme::Light), ..Default::default() };
    let profile = client.update_profile(&update_profile::Request { body }).await.expect("the update is accepted");
    assert_eq!(profile.nickname, Presence::Null);
    assert_eq!(profile.accent_color, Presence::Null);
    assert_eq!(profile.birthday.value().map(ToString::to_string).as_deref(), Some("1815-12-10"));
    assert_eq!(profile.theme, Theme::Light);
}

#[tokio::test]
async fn request_values_outside_the_declared_set_are_400_at_their_pointer() {
    let server = Server::start(Shapes::new()).await;
    let mut body = document_body();
    body["components"] = json!([
        { "type": 99, "label": "from the future" },
        { "type": 2, "style": 5 },
        { "type": 2, "style": 77 },
        { "type": 1, "components": [{ "type": 4 }] }
    ]);
    body["nonce"] = json!(1.5);
    body["shapes"] = json!([{ "kind": "hexagon", "sides": 6 }]);
    let (status, answer) = send(server.http.post(server.api("/documents")).json(&body)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["code"], 50035);
    let found = violations(&answer);
    let expected = [
        ("/body/nonce", "is no variant of `nonce` (it is none of `integer`, `string`)"),
        ("/body/components/0", "is no variant of `component` (`type` is 99)"),
        ("/body/components/1/style", "must be one of `PRIMARY`, `SECONDARY`, `DANGER` (got 5)"),
        ("/body/components/2/style", "must be one of `PRIMARY`, `SECONDARY`, `DANGER` (got 77)"),
        ("/body/components/3/components/0", "is no variant of `component` (`type` is 4)"),
        ("/body/shapes/0", "is no variant of `shape` (`kind` is hexagon)"),
    ];
    for (pointer, message) in expected {
        assert!(found.contains(&(pointer.to_owned(), message.to_owned())), "no `{message}` at {pointer} in {found:?}");
    }
    assert_eq!(found.len(), expected.len(), "every violation, and only them: {found:?}");
}

#[tokio::test]
async fn constraints_of_every_shape_are_checked_together() {
    let server = Server::start(Shapes::new()).await;
    let body = json!({
        "title": "no punctuation allowed!",
        "tags": ["a", "B", "a", ""],
        "scores": { "x": 101, "y": -1 },
        "owner": { "name": "" },
        "nonce": "a nonce of more than twenty-five characters",
        "shapes": [{ "kind": "circle", "radius": 0 }, { "kind": "rect", "width": 1000.75, "height": 1000 }],
        "components": [{ "type": 3, "custom_id": "", "options": ["a", "a"] }]
    });
    let (status, answer) = send(server.http.post(server.api("/documents")).json(&body)).await;
    assert_eq!(status, 400, "{answer}");
    let mut found = pointers(&answer);
    found.sort();
    let mut expected = vec![
        "/body/title",
        "/body/tags/1",
        "/body/tags/2",
        "/body/tags/3",
        "/body/tags/3",
        "/body/scores/x",
        "/body/scores/y",
        "/body/owner/name",
        "/body/nonce",
        "/body/shapes/0/radius",
        "/body/shapes/1/width",
        "/body/shapes/1/height",
        "/body/components/0/custom_id",
        "/body/components/0/options/1",
    ];
    expected.sort_unstable();
    assert_eq!(found, expected, "{answer}");
}

#[tokio::test]
async fn the_client_refuses_to_send_what_the_server_would_refuse() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client();
    let link = Button { r#type: ComponentType::Button, style: ButtonStyle::Link, label: None, url: Some("not a uri".to_owned()), emoji: None };
    let unknown = Component::Unknown { tag: ComponentType::TextInput, raw: json!({ "type": 4 }) };
    let body = create_document::Body {
        title: "Notes".to_owned(),
        tags: Vec::new(),
        scores: IndexMap::new(),
        owner: CreateDocumentBodyOwner { name: "Ada".to_owned() },
        nonce: Some(Nonce::String("n".to_owned())),
        components: Some(vec![Component::Button(link), unknown]),
        shapes: None,
    };
    let Err(Error::Invalid(found)) = client.create_document(&create_document::Request { body }).await else { panic!("the client sends it") };
    let found: Vec<&str> = found.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(found, ["/body/components/0/style", "/body/components/0/url", "/body/components/1"]);
}

#[tokio::test]
async fn clients_keep_what_a_newer_server_sends() {
    let server = Server::start(Shapes::new().with_newer_payloads()).await;
    let payloads = server.client().poll_gateway(&poll_gateway::Request {}).await.expect("the payloads are read");
    assert!(matches!(payloads[0], GatewayPayload::Hello(_)), "{payloads:?}");
    let GatewayPayload::Unknown { tag, raw } = &payloads[2] else { panic!("an unknown payload is kept: {payloads:?}") };
    assert_eq!((*tag, raw), (99, &json!({ "op": 99, "shard": [0, 1] })));
    assert_eq!(serde_json::to_value(&payloads[2]).unwrap(), json!({ "op": 99, "shard": [0, 1] }), "it writes back as it came");
}

#[tokio::test]
async fn recursive_shapes_travel_both_ways() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client();
    let mut expression = Expression::Literal(2.5);
    for _ in 0..5 {
        expression = Expression::Negation(Box::new(Negation { operand: Box::new(expression) }));
    }
    let value = client.evaluate(&evaluate::Request { body: expression }).await.expect("evaluated");
    assert_eq!(value, -2.5);
    let categories = client.list_categories(&list_categories::Request {}).await.expect("listed");
    assert_eq!(categories[1].parent.as_deref().map(|p| p.name.as_str()), Some("All"));
}

#[tokio::test]
async fn a_value_of_the_wrong_shape_is_400_at_its_pointer() {
    let server = Server::start(Shapes::new()).await;
    let mut body = document_body();
    body["scores"] = json!({ "x": "high" });
    let (status, answer) = send(server.http.post(server.api("/documents")).json(&body)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(pointers(&answer), ["/body/scores/x"]);
    let (status, answer) = send(server.http.get(server.api("/documents/not-a-uuid"))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(pointers(&answer), ["/path/document.id"]);
    let (status, answer) = send(server.http.get(server.api("/documents/00000000-0000-0000-0000-000000000001?locale=xx"))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(violations(&answer), [("/query/locale".to_owned(), "is not a value of `locale` (got xx)".to_owned())]);
    let (status, found) = send(server.http.get(server.api("/documents/00000000-0000-0000-0000-000000000001?locale=fr"))).await;
    assert_eq!((status, found["title"].clone()), (200, json!("First")));
}
