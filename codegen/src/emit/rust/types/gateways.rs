//! `gateways.rs`: per gateway, the union of its dispatch events (a variant per event the spec
//! names, one that keeps any other with its raw payload), its commands, and the constant that
//! describes the session protocol to the runtime's session client and hub.

use super::docs::docs;
use super::events::has_payload;
use super::literals::{member_path as path, millis, optional, unsuffixed};
use crate::model::Ref;
use crate::model::gateway::{CloseCode, Gateway};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};

/// `gateways.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let gateways = plan.sessions().map(|g| gateway(plan, g));
    quote! {
        //! Gateways: the events each dispatches, the commands a client sends, and the session
        //! protocol the session client (in the client crate) and the hub (in the server crate)
        //! both speak.

        use crate::session;
        use serde_json::value::RawValue;

        #(#gateways)*
    }
}

fn gateway(plan: &Plan, g: &Gateway) -> TokenStream {
    let (union, constant) = (names::gateway_event(g), names::gateway_const(g));
    let catch_all = names::gateway_catch_all(g, &plan.events);
    let mut variants = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut names_of = Vec::new();
    for (name, event) in plan.gateway_events(g) {
        let variant = names::event_variant(event);
        let doc = docs(Some(&format!("The event `{}`, dispatched as `{name}`.", event.meta.id)), &[]);
        if has_payload(event) {
            let payload = names::event_payload(event);
            variants.push(quote!(#doc #variant(Box<crate::events::#payload>),));
            reads.push(quote!(#name => serde::Deserialize::deserialize(data).map(Self::#variant),));
            writes.push(quote!(Self::#variant(payload) => (#name, serde_json::value::to_raw_value(payload)?),));
        } else {
            variants.push(quote!(#doc #variant(Box<RawValue>),));
            reads.push(quote!(#name => serde::Deserialize::deserialize(data).map(Self::#variant),));
            writes.push(quote!(Self::#variant(raw) => (#name, raw.clone()),));
        }
        names_of.push(quote!(Self::#variant(_) => #name,));
    }
    let union_doc = docs(Some(&format!("An event the gateway `{}` dispatches.", g.meta.id)), &[]);
    let const_doc = format!(" The session protocol of the gateway `{}`.", g.meta.id);
    let commands = g.commands.iter().map(|c| command(plan, g, c));
    let check = check(plan, g);
    let description = description(plan, g);
    quote! {
        #union_doc
        #[derive(Clone, Debug)]
        #[non_exhaustive]
        pub enum #union {
            #(#variants)*
            /// An event the spec does not name, with its payload as it came.
            #catch_all {
                /// Its name.
                name: String,
                /// Its payload.
                raw: Box<RawValue>,
            },
        }

        impl #union {
            /// The event's name, as the envelope writes it.
            pub fn name(&self) -> &str {
                match self {
                    #(#names_of)*
                    Self::#catch_all { name, .. } => name,
                }
            }
        }

        impl session::GatewayEvent for #union {
            fn decode_from<'de, D: serde::Deserializer<'de>>(name: &str, data: D) -> Result<Self, D::Error> {
                match name {
                    #(#reads)*
                    _ => Ok(Self::#catch_all { name: name.to_owned(), raw: serde::Deserialize::deserialize(data)? }),
                }
            }

            fn encode(&self) -> Result<(String, Box<RawValue>), serde_json::Error> {
                let (name, data) = match self {
                    #(#writes)*
                    Self::#catch_all { name, raw } => (name.as_str(), raw.clone()),
                };
                Ok((name.to_owned(), data))
            }
        }

        #(#commands)*

        #check

        #[doc = #const_doc]
        pub const #constant: session::Protocol = #description;
    }
}

/// A command's payload is a command of its opcode, answered by its reply event where it has one.
fn command(plan: &Plan, g: &Gateway, c: &Ref) -> TokenStream {
    let op = plan.opcode(&c.id);
    let code = unsuffixed(op.code as u64);
    let reply = op.reply.as_ref().and_then(|r| g.events.iter().find(|e| e.event.id == r.id)).map(|e| e.name.as_str());
    let reply = optional(reply.map(|r| quote!(#r)));
    if op.fields.is_empty() && !super::fields::keeps_extra(&op.meta.not_shown) {
        return TokenStream::new();
    }
    let payload = names::opcode_payload(op);
    quote! {
        impl session::Command for crate::gateway::#payload {
            const OPCODE: u8 = #code;
            const REPLY: Option<&'static str> = #reply;

            fn violations(&self) -> Vec<crate::validation::Violation> {
                crate::validation::Validate::validate(self)
            }
        }
    }
}

/// The server's check of each command's payload: decoded as its payload struct, then validated.
fn check(plan: &Plan, g: &Gateway) -> TokenStream {
    let function = names::gateway_check(g);
    let reads = |op: &crate::model::Opcode| !op.fields.is_empty() || super::fields::keeps_extra(&op.meta.not_shown);
    let arms = g.commands.iter().map(|c| {
        let op = plan.opcode(&c.id);
        let code = unsuffixed(op.code as u64);
        if !reads(op) {
            return quote!(#code => Some(Vec::new()),);
        }
        let payload = names::opcode_payload(op);
        quote! {
            #code => Some(match serde_json::from_str::<crate::gateway::#payload>(data.get()) {
                Ok(payload) => crate::validation::Validate::validate(&payload),
                Err(e) => vec![crate::validation::Violation::new("", e.to_string())],
            }),
        }
    });
    let doc = format!(
        " The check of the gateway `{}`'s commands as a server receives them: `None` for an opcode that is no command, else every violation.",
        g.meta.id
    );
    // A gateway without commands has nothing to match, and one whose commands carry no payload
    // reads no data.
    if g.commands.is_empty() {
        return quote! {
            #[doc = #doc]
            pub fn #function(_opcode: u8, _data: &RawValue) -> Option<Vec<crate::validation::Violation>> {
                None
            }
        };
    }
    let data = if g.commands.iter().any(|c| reads(plan.opcode(&c.id))) { quote!(data) } else { quote!(_data) };
    quote! {
        #[doc = #doc]
        pub fn #function(opcode: u8, #data: &RawValue) -> Option<Vec<crate::validation::Violation>> {
            match opcode {
                #(#arms)*
                _ => None,
            }
        }
    }
}

/// The `Protocol` literal.
fn description(plan: &Plan, g: &Gateway) -> TokenStream {
    let id = &g.meta.id;
    let query = g.query.iter().map(|(k, v)| quote!((#k, #v)));
    let compression = optional(g.compression.as_ref().map(|c| {
        let parameter = &c.parameter.id;
        // Validation admits the compressions the runtime speaks: zlib-stream.
        let offered = c.offered.iter().map(|_| quote!(session::Compression::ZlibStream));
        quote!((#parameter, &[#(#offered),*]))
    }));
    let e = g.envelope.as_ref().expect("BUG: a session gateway has an envelope");
    let (opcode, data, sequence, event) = (&e.opcode.id, &e.data.id, &e.sequence.id, &e.event.id);
    let roles = g.roles.as_ref().expect("BUG: a session gateway has roles");
    let code = |r: &Ref| unsuffixed(plan.opcode(&r.id).code as u64);
    let (dispatch, heartbeat, heartbeat_ack, hello, identify, resume) =
        (code(&roles.dispatch), code(&roles.heartbeat), code(&roles.heartbeat_ack), code(&roles.hello), code(&roles.identify), code(&roles.resume));
    let reconnect = optional(roles.reconnect.as_ref().map(|r| code(r).into_token_stream()));
    let invalid_session = optional(roles.invalid_session.as_ref().map(|r| code(r).into_token_stream()));
    let heartbeat_interval = path(g.heartbeat_interval.as_ref().expect("BUG: a session gateway has a heartbeat interval"));
    let identify_token = path(g.identify_token.as_ref().expect("BUG: a session gateway has an identify token"));
    let ready = g.ready.as_ref().expect("BUG: a session gateway has a ready event");
    let (ready_event, session_id) = (&ready.event.id, path(&ready.session_id));
    let resume_url = optional(ready.resume_url.as_ref().map(path));
    let r = g.resume.as_ref().expect("BUG: a session gateway has a resume");
    let (token, resume_session, resume_sequence) = (&r.token.id, &r.session_id.id, &r.sequence.id);
    let resumed = optional(r.resumed.as_ref().map(|x| {
        let x = &x.id;
        quote!(#x)
    }));
    let closes = g.close_codes.iter().map(close);
    // A code no one listed is taken for a passing failure, as WebSocket's own 1006 is.
    let unknown = policy(g.unknown_close.as_ref().map_or("resume", |p| p.id.as_str()));
    // 4000 is the first code of a protocol's own range: a close a server reads as "not ended".
    let resume_close = unsuffixed(u64::from(g.resume_close.unwrap_or(4000)));
    let send_limit = optional(g.send_limit.as_ref().map(|l| {
        let frames = unsuffixed(u64::from(l.frames));
        let per = millis(l.per_seconds);
        quote!(session::SendLimit { commands: #frames, per: #per })
    }));
    let identify_per = millis(g.identify_limit.as_ref().map_or(0.0, |l| l.per_seconds));
    quote! {
        session::Protocol {
            id: #id,
            query: &[#(#query),*],
            compression: #compression,
            envelope: session::Envelope { opcode: #opcode, data: #data, sequence: #sequence, event: #event },
            opcodes: session::Opcodes {
                dispatch: #dispatch,
                heartbeat: #heartbeat,
                heartbeat_ack: #heartbeat_ack,
                hello: #hello,
                identify: #identify,
                resume: #resume,
                reconnect: #reconnect,
                invalid_session: #invalid_session,
            },
            heartbeat_interval: #heartbeat_interval,
            identify_token: #identify_token,
            ready: session::Ready { event: #ready_event, session_id: #session_id, resume_url: #resume_url },
            resume: session::Resume { token: #token, session_id: #resume_session, sequence: #resume_sequence, resumed: #resumed },
            close_codes: &[#(#closes),*],
            unknown_close: #unknown,
            resume_close: #resume_close,
            send_limit: #send_limit,
            identify_limit: session::IdentifyLimit { per: #identify_per },
        }
    }
}

fn close(c: &CloseCode) -> TokenStream {
    let (code, name) = (unsuffixed(u64::from(c.code)), &c.name);
    let policy = policy(&c.policy.id);
    let cause = optional(c.cause.as_ref().map(|x| {
        let variant = camel(&x.id);
        quote!(session::Cause::#variant)
    }));
    quote!(session::CloseCode { code: #code, name: #name, policy: #policy, cause: #cause })
}

fn policy(id: &str) -> TokenStream {
    let variant = camel(id);
    quote!(session::Policy::#variant)
}

/// A runtime variant from the format's snake_case word (`session_timed_out`).
fn camel(id: &str) -> Ident {
    let word: String = id.split('_').map(|w| w[..1].to_ascii_uppercase() + &w[1..]).collect();
    format_ident!("{word}")
}
