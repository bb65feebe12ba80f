//! Deprecation on the wire, over a real socket on 127.0.0.1: the fixture spec's generated server
//! answers a deprecated endpoint, a deprecated alias route and a call that used a deprecated
//! behaviour with `Deprecation` (RFC 9745), `Sunset` (RFC 8594, once a dated change removes the
//! item) and `Link` headers to the changes' entries in the reference page; the generated client
//! hands each answer's notice to its `on_deprecation` handler. The shipped spec's deprecated
//! grant is exercised the same way in `round_trip.rs`.
//!
//! The fixture (`tests/fixtures/minimal/api.yaml`): `count_widgets` deprecated by a change already
//! in effect, with no removal; `rename_widget`'s alias `POST /widgets/{id}/rename` deprecated on
//! 2025-06-01 and removed on 2031-01-01; `list_widgets`'s behaviour `oldest_first` deprecated on
//! 2030-03-01.

use std::sync::{Arc, Mutex};
use widget_client::Client;
use widget_server::types::auth::{Credential, CredentialRef};
use widget_server::types::clock::FixedClock;
use widget_server::types::deprecations::{self, Notice};
use widget_server::types::endpoints::{count_widgets, export_widgets, list_widgets, rename_widget};
use widget_server::types::enums::WidgetKind;
use widget_server::types::errors::ApiError;
use widget_server::types::permissions::Permission;
use widget_server::types::placeholders::Placeholders;
use widget_server::types::resources::Widget;
use widget_server::{Api, Call, Granted, Options, RuleContext, granted};

const BOT: &str = "widget-bot";

/// A platform of one widget, whose list is oldest first when no page is asked for (the
/// deprecated behaviour, which it reports).
struct Widgets;

fn widget(label: &str) -> Widget {
    Widget::new(7, label, WidgetKind::Small)
}

impl Api for Widgets {
    type Caller = ();

    async fn authenticate(&self, credential: CredentialRef<'_>) -> Option<()> {
        (credential.token == BOT).then_some(())
    }

    async fn permissions(&self, _: &RuleContext<'_, ()>) -> Result<Vec<Permission>, ApiError> {
        Ok(vec![Permission::ViewWidget, Permission::EditWidget])
    }

    async fn caller_owns_widget(&self, _: &RuleContext<'_, ()>) -> Result<bool, ApiError> {
        Ok(true)
    }

    async fn rename_widget(&self, call: Call<'_, (), rename_widget::Request, (), Granted<granted::RenameWidget>>) -> Result<Widget, ApiError> {
        Ok(widget(&call.input.body.label))
    }

    async fn list_widgets(&self, call: Call<'_, (), list_widgets::Request, list_widgets::Gates>) -> Result<Vec<Widget>, ApiError> {
        if call.input.query.page.is_none() {
            call.deprecations.used(&deprecations::BEHAVIOUR_LIST_WIDGETS_OLDEST_FIRST);
        }
        Ok(vec![widget("first")])
    }

    async fn count_widgets(&self, _: Call<'_, (), count_widgets::Request>) -> Result<count_widgets::Response, ApiError> {
        Ok(count_widgets::Response::new(1))
    }

    async fn export_widgets(&self, _: Call<'_, (), export_widgets::Request>) -> Result<String, ApiError> {
        Ok("id,label\n7,first\n".to_owned())
    }
}

/// The fixture's server on 127.0.0.1 with the clock fixed at `now`.
struct Server {
    placeholders: Placeholders,
    http: reqwest::Client,
}

impl Server {
    async fn start(now: &str) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
        let origin = format!("http://{}", listener.local_addr().expect("a local address"));
        let placeholders = Placeholders::at_origin(&origin);
        let options = Options::default().with_placeholders(placeholders.clone()).with_clock(FixedClock::parse(now).expect("an RFC 3339 instant"));
        let router = widget_server::router_with(Widgets, options);
        tokio::spawn(async move { axum::serve(listener, router).await.expect("the server runs") });
        Server { placeholders, http: reqwest::Client::new() }
    }

    /// A client that keeps every notice it is handed.
    fn client(&self) -> (Client, Arc<Mutex<Vec<Notice>>>) {
        let seen: Arc<Mutex<Vec<Notice>>> = Arc::default();
        let sink = seen.clone();
        let client = Client::with_http(self.http.clone(), self.placeholders.clone()).with_credential(Credential::bot(BOT));
        (client.on_deprecation(move |n| sink.lock().unwrap().push(n.clone())), seen)
    }

    /// Sends `method path` (a path of the HTTP API) with the bot's credential and a JSON body.
    async fn raw(&self, method: reqwest::Method, path: &str, body: Option<&str>) -> Answer {
        let mut request = self.http.request(method, format!("{}{path}", self.placeholders.api_url)).header("authorization", format!("Bot {BOT}"));
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body.to_owned());
        }
        let response = request.send().await.expect("an answer");
        let header = |name: &str| response.headers().get_all(name).iter().map(|v| v.to_str().expect("ASCII").to_owned()).collect::<Vec<_>>();
        Answer { status: response.status().as_u16(), deprecation: header("deprecation"), sunset: header("sunset"), link: header("link") }
    }

    /// The link to a change's entry in the reference page.
    fn entry(&self, change: &str, rel: &str) -> String {
        format!("<{}#change-{change}>; rel=\"{rel}\"; type=\"text/html\"", self.placeholders.docs_url)
    }
}

#[derive(Debug)]
struct Answer {
    status: u16,
    deprecation: Vec<String>,
    sunset: Vec<String>,
    link: Vec<String>,
}

/// `@<seconds>` of midnight UTC on `day`, as `Deprecation` carries it.
fn at(day: &str) -> String {
    let ts: jiff::Timestamp = format!("{day}T00:00:00Z").parse().expect("a day");
    format!("@{}", ts.as_second())
}

#[tokio::test]
async fn a_deprecated_endpoint_says_so_in_every_answer_without_a_sunset() {
    let server = Server::start("2026-01-01T00:00:00Z").await;
    let answer = server.raw(reqwest::Method::GET, "/widget-count", None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.deprecation, ["@0"], "deprecated by a change already in effect");
    assert!(answer.sunset.is_empty(), "no change removes it");
    assert_eq!(answer.link, [server.entry("count-widgets-deprecated", "deprecation")]);

    let (client, seen) = server.client();
    #[allow(deprecated)] // The method is deprecated for its callers; this test is one on purpose.
    let count = client.count_widgets().await.unwrap();
    assert_eq!(count.count, 1);
    let notice = seen.lock().unwrap().pop().expect("the client handed over the notice");
    assert_eq!(notice.endpoint, "count_widgets");
    assert_eq!(notice.deprecated_at, Some(jiff::Timestamp::UNIX_EPOCH));
    assert_eq!(notice.sunset, None);
    assert_eq!(notice.links, [format!("{}#change-count-widgets-deprecated", server.placeholders.docs_url)]);

    // Refused answers say so too: the caller learns it is using something deprecated either way.
    let refused = server.http.get(format!("{}/widget-count", server.placeholders.api_url)).send().await.unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.headers().get("deprecation").map(|v| v.to_str().unwrap()), Some("@0"));
}

#[tokio::test]
async fn an_alias_route_is_deprecated_with_its_sunset_and_the_endpoints_own_route_is_not() {
    let server = Server::start("2026-01-01T00:00:00Z").await;
    let body = Some(r#"{"label":"renamed"}"#);
    let alias = server.raw(reqwest::Method::POST, "/widgets/7/rename", body).await;
    assert_eq!(alias.status, 200, "the alias answers as the endpoint");
    assert_eq!(alias.deprecation, [at("2025-06-01")]);
    assert_eq!(alias.sunset, ["Wed, 01 Jan 2031 00:00:00 GMT"], "an HTTP-date (RFC 9110), as RFC 8594 asks");
    assert_eq!(alias.link, [server.entry("rename-route-deprecated", "deprecation"), server.entry("rename-route-removed", "sunset")]);

    let own = server.raw(reqwest::Method::PATCH, "/widgets/7", body).await;
    assert_eq!(own.status, 200);
    assert!(own.deprecation.is_empty() && own.sunset.is_empty() && own.link.is_empty(), "{own:?}");
    let (client, seen) = server.client();
    let request = rename_widget::Request::new(7, rename_widget::Body::new("again"));
    assert_eq!(client.send(&request).await.unwrap().label, "again");
    assert!(seen.lock().unwrap().is_empty(), "the client calls the endpoint's own route");
}

#[tokio::test]
async fn an_alias_route_is_gone_from_its_sunset_on() {
    let before = Server::start("2030-12-31T23:59:59Z").await;
    let body = Some(r#"{"label":"renamed"}"#);
    assert_eq!(before.raw(reqwest::Method::POST, "/widgets/7/rename", body).await.status, 200);
    let after = Server::start("2031-01-01T00:00:00Z").await;
    let gone = after.raw(reqwest::Method::POST, "/widgets/7/rename", body).await;
    assert_eq!(gone.status, 404);
    assert!(gone.deprecation.is_empty(), "a route that is gone is not deprecated any more");
    assert_eq!(after.raw(reqwest::Method::PATCH, "/widgets/7", body).await.status, 200, "the endpoint stays");
}

#[tokio::test]
async fn a_behaviour_the_handler_reports_is_announced_before_its_deprecation_date() {
    let server = Server::start("2026-01-01T00:00:00Z").await;
    let oldest_first = server.raw(reqwest::Method::GET, "/widgets", None).await;
    assert_eq!(oldest_first.status, 200);
    assert_eq!(oldest_first.deprecation, [at("2030-03-01")], "a future date: it will be deprecated then (RFC 9745 §2.1)");
    assert!(oldest_first.sunset.is_empty());
    assert_eq!(oldest_first.link, [server.entry("oldest-first-deprecated", "deprecation")]);
    let paged = server.raw(reqwest::Method::GET, "/widgets?page=0", None).await;
    assert!(paged.deprecation.is_empty() && paged.link.is_empty(), "a call that does not use it is not told: {paged:?}");

    let (client, seen) = server.client();
    client.list_widgets().await.unwrap();
    let notice = seen.lock().unwrap().pop().expect("a notice");
    assert_eq!((notice.endpoint, notice.deprecated_at), ("list_widgets", Some("2030-03-01T00:00:00Z".parse().unwrap())));
}

#[test]
fn the_header_values_follow_their_rfcs() {
    let used = [&deprecations::ALIAS_RENAME_WIDGET_RENAME_ROUTE, &deprecations::ENDPOINT_COUNT_WIDGETS];
    let headers = deprecations::headers(&used, Some("https://example.com/docs/"));
    // One Deprecation (the earliest), one Sunset (the earliest dated removal), a Link per change.
    assert_eq!(headers[0], ("deprecation", "@0".to_owned()));
    assert_eq!(headers[1], ("sunset", "Wed, 01 Jan 2031 00:00:00 GMT".to_owned()));
    assert_eq!(headers.iter().filter(|(n, _)| *n == "link").count(), 3);
    let notice = Notice::from_headers("rename_widget", headers.iter().map(|(n, v)| (*n, v.as_str()))).expect("a notice");
    assert_eq!(notice.links.len(), 3);
    assert_eq!(notice.sunset, Some("2031-01-01T00:00:00Z".parse().unwrap()));
    assert_eq!(Notice::from_headers("x", [("link", "<https://example.com/>; rel=\"next\"")]), None, "only Deprecation or Sunset makes a notice");
    assert!(deprecations::headers(&used, None).iter().all(|(n, _)| *n != "link"), "no reference page, no link");
}
