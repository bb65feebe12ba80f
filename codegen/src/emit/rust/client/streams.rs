//! Client methods of endpoints whose success is a stream (server-sent events, JSON Lines): the
//! request is sent by `open_<method>`, which answers with the body unread; the method reads the
//! streamed status's body as typed events as it comes, and any other status as `exchange` does.
//! A resumable stream's reconnections call `open_<method>` again with the last event id.

use super::exchange;
use crate::emit::rust::shared::framing_tokens;
use crate::emit::rust::types::responses;
use crate::model::Endpoint;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// `open_<method>` and `<method>` of a streaming endpoint.
pub fn methods(plan: &Plan, e: &Endpoint) -> TokenStream {
    let (streamed, response) = plan.stream_of(e).expect("BUG: called for a streaming endpoint");
    let framing = framing_tokens(response.framing().expect("BUG: a stream has a framing"));
    let (name, open) = (names::client_method(e), names::client_open_method(e));
    let module = names::endpoint_module(e);
    let status = crate::emit::rust::shared::int(i64::from(streamed.status().expect("BUG: validation parses every status").codes().0));
    let (_, response_names, path) = responses::resolve_at(plan, streamed, quote!(endpoint::), quote!(types::responses::));
    let codec = &response_names.codec;
    // The answer's head, which the streamed response's headers are read from.
    let head = (!response.headers.is_empty()).then(|| quote!(let answer = Answer { status: #status, headers: response.headers().clone(), bytes: Vec::new() };));
    let several = e.success_responses().len() > 1;
    let success = exchange::success_value(plan, streamed, several);
    let others = exchange::decode_by_status_but(plan, e, Some(streamed));
    let reopen = match e.last_event_header() {
        Some(header) => {
            let ident = names::field(header);
            quote! {
                let (owned, request) = (client.clone(), request.clone());
                let reopen: types::stream::Reopen = Box::new(move |last| {
                    let (client, mut request) = (owned.clone(), request.clone());
                    request.headers.#ident = Some(last);
                    Box::pin(async move {
                        let response = client.#open(&request).await.map_err(|e| e.to_string())?;
                        match response.status().as_u16() {
                            #status => Ok(types::stream::Reopened::Body(types::stream::chunks(response))),
                            204 => Ok(types::stream::Reopened::Over),
                            other => Err(format!("the stream answered {other}")),
                        }
                    })
                });
                let reopen = Some((reopen, types::stream::Resume { attempts: client.retry.attempts.saturating_sub(1), wait: client.retry.initial }));
            }
        }
        None => quote!(let reopen = None;),
    };
    let call = super::call_impl(
        e,
        quote! {
            let response = client.#open(request).await?;
            if response.status().as_u16() == #status {
                #head
                #reopen
                let events = types::stream::read(types::stream::chunks(response), #framing, #path #codec, reopen);
                return Ok(#success);
            }
            let answer = Answer::read(response).await?;
            #others
        },
    );
    let open_doc = format!(" Sends the request of [`Client::{name}`] and returns the answer with its body unread.");
    let (prepared, sent) = (exchange::prepared(plan, e), exchange::sent(e));
    quote! {
        impl Client {
            #[doc = #open_doc]
            async fn #open(&self, request: &types::endpoints::#module::Request) -> Result<reqwest::Response, Error> {
                use types::endpoints::#module as endpoint;
                let client = self;
                #prepared
                client.exchange_head(#sent, true).await
            }
        }

        #call
    }
}
