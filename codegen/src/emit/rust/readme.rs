//! The client's `README.md` (after the title every crate's README has, `emit::cargo`): a quick
//! start written from the spec (its addresses, a credential of a kind the endpoint takes, one
//! call, the error), which the client's crate docs include, so rustdoc compiles it as a doctest.

use super::shared::lib_ident;
use crate::model::Endpoint;
use crate::plan::rust::{Plan, names};

/// The client's README after its title: the quick start, and what a call returns.
pub fn client(plan: &Plan) -> String {
    let crate_name = lib_ident(plan, "client");
    let mut text = String::from("## Quick start\n\n```rust,no_run\n");
    text.push_str(&quick_start(plan, &crate_name.to_string()));
    text.push_str("```\n\n");
    text.push_str(
        "A call returns what the endpoint answers when it succeeds. Every failure is one `Error`: a\n\
         request that breaks a declared constraint is refused before it is sent (`Error::Invalid`),\n\
         and every error status, declared or not, is `Error::Api` with the status, the headers, the\n\
         body as it came, the platform's error read from it, and the body the endpoint declares for\n\
         that status decoded.\n",
    );
    text
}

/// The quick start's code: a client at the spec's addresses, with a credential the chosen
/// endpoint accepts, calling it once.
fn quick_start(plan: &Plan, krate: &str) -> String {
    let endpoint = quick_start_endpoint(plan);
    // An endpoint with no `auth` accepts every kind: the spec's first.
    let credential = endpoint.and_then(|e| match e.token_kinds().next() {
        Some(k) => plan.token_kinds.iter().find(|t| t.meta.id == k.id),
        None if e.auth.is_empty() => plan.token_kinds.first(),
        None => None,
    });
    let mut uses = vec![format!("use {krate}::types::placeholders::Placeholders;"), format!("use {krate}::{{Client, Error}};")];
    if credential.is_some() {
        uses.push(format!("use {krate}::types::auth::Credential;"));
    }
    uses.sort();
    let mut code = uses.join("\n");
    code.push_str("\n\nasync fn run() -> Result<(), Error> {\n    // The platform's addresses as the spec gives them (`Placeholders` holds each).\n");
    match credential {
        Some(kind) => {
            let constructor = names::token_kind_constructor(kind);
            code.push_str(&format!("    let client = Client::new(Placeholders::default()).with_credential(Credential::{constructor}(\"token\"));\n"));
        }
        None => code.push_str("    let client = Client::new(Placeholders::default());\n"),
    }
    if let Some(e) = endpoint {
        let method = names::client_method(e);
        code.push_str("    // One call, checked against the spec before it is sent; `?` passes any failure on.\n");
        code.push_str(&format!("    let answer = client.{method}().await?;\n"));
        code.push_str("    println!(\"{answer:?}\");\n");
    } else {
        code.push_str("    println!(\"{client:?}\");\n");
    }
    code.push_str("    Ok(())\n}\n");
    code
}

/// The endpoint the quick start calls: the first routed, not deprecated one whose request has
/// a default value (a `GET` if there is one), so its method takes no argument the spec does not
/// give.
fn quick_start_endpoint<'p>(plan: &'p Plan<'p>) -> Option<&'p Endpoint> {
    let callable: Vec<&Endpoint> = plan
        .routed_endpoints()
        .filter(|e| e.meta.deprecated.is_none() && e.meta.until.is_none() && super::types::endpoints::request_is_default(plan, e))
        .collect();
    callable.iter().find(|e| e.method.as_ref().is_some_and(|m| m.id == "GET")).or(callable.first()).copied()
}
