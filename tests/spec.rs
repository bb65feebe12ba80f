//! The shipped spec: valid, complete, and carrying every value of the source as data.

use platform_codegen::model::coverage::coverage;
use platform_codegen::{Loaded, load_spec};
use serde_json::Value;
use std::path::Path;

fn shipped() -> Loaded {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    match load_spec(&dir, "spec") {
        Ok(loaded) => loaded,
        Err(platform_codegen::LoadError::Invalid { sources, diagnostics }) => {
            panic!("{}", platform_codegen::diag::render_text(&sources, &diagnostics, false))
        }
        Err(platform_codegen::LoadError::Io(e)) => panic!("{e}"),
    }
}

fn dump() -> Value {
    serde_json::to_value(&shipped().model).unwrap()
}

fn find<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array().unwrap().iter().find(|x| x["id"] == id).unwrap_or_else(|| panic!("no `{id}` in the dump"))
}

#[test]
fn shipped_spec_is_valid_without_warnings() {
    let loaded = shipped();
    let text = platform_codegen::diag::render_text(&loaded.sources, &loaded.warnings, false);
    assert!(loaded.warnings.is_empty(), "{text}");
}

#[test]
fn fixture_spec_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal");
    let loaded = load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid"));
    assert_eq!(loaded.model.platform.name, "Widget Cloud");
}

#[test]
fn permissions_carry_bits_as_numbers() {
    let m = dump();
    for (id, bit) in [("CREATE_GUILD_EXPRESSIONS", 43), ("CREATE_EVENTS", 44), ("SET_VOICE_CHANNEL_STATUS", 48), ("PIN_MESSAGES", 51), ("BYPASS_SLOWMODE", 52)]
    {
        assert_eq!(find(&m["permissions"], id)["bit"], bit, "{id}");
    }
    let unknown = [
        "ADMINISTRATOR",
        "MANAGE_GUILD",
        "KICK_MEMBERS",
        "VIEW_CHANNEL",
        "MANAGE_CHANNELS",
        "MANAGE_MESSAGES",
        "MANAGE_THREADS",
        "MANAGE_GUILD_EXPRESSIONS",
        "MANAGE_EVENTS",
        "READ_MESSAGE_HISTORY",
    ];
    for id in unknown {
        let p = find(&m["permissions"], id);
        assert!(p.get("bit").is_none(), "{id}");
        assert_eq!(p["not_shown"][0]["facet"], "bit", "{id}");
    }
}

#[test]
fn errors_limits_and_flags_carry_their_numbers() {
    let m = dump();
    for (id, code) in [("search_index_not_ready", 110000), ("message_content_unreadable", 160014), ("account_merge_banned", 530017)] {
        assert_eq!(find(&m["errors"], id)["code"], code, "{id}");
    }
    assert_eq!(find(&m["errors"], "invalid_grant")["oauth_error"], "invalid_grant");
    assert_eq!(find(&m["errors"], "shard_required")["status"], 400);
    let upload = find(&m["limits"], "default_file_upload_size");
    assert_eq!((upload["max"].clone(), upload["unit"].clone(), upload["previous"][0]["value"].clone()), (20.into(), "MiB".into(), 10.into()));
    let menus = find(&m["limits"], "context_menu_commands");
    assert_eq!((menus["max"].clone(), menus["previous"][0]["value"].clone()), (15.into(), 5.into()));
    for (id, max) in [
        ("voice_channel_status_length", 500),
        ("lobby_messages_returned", 200),
        ("lobby_members_per_bulk_request", 25),
        ("file_upload_component_file_count", 10),
    ] {
        assert_eq!(find(&m["limits"], id)["max"], max, "{id}");
    }
    assert_eq!(find(&m["limits"], "shard_parameter")["max"]["field"], "get_gateway_bot.max_concurrency");
    let channel_flags = find(&m["flags"], "channel_flags");
    assert_eq!(find(&channel_flags["values"], "CHANNEL_OBFUSCATED")["bit"], 17);
    assert_eq!(find(&m["opcodes"], "request_channel_info")["code"], 43);
    assert_eq!(find(&m["events"], "VOICE_CHANNEL_STATUS_UPDATE")["code"], 192);
    assert_eq!(find(&m["events"], "VOICE_CHANNEL_STATUS_DELETE")["code"], 193);
    let status = find(&m["enums"], "subscription_status");
    assert_eq!(find(&status["values"], "INACTIVE")["value"], 1);
    assert_eq!(find(&status["values"], "ENDING")["value"], 2);
}

#[test]
fn every_row_of_the_http_api_is_an_endpoint() {
    let m = dump();
    let endpoints = m["endpoints"].as_array().unwrap();
    assert!(endpoints.len() >= 26, "{} endpoints", endpoints.len());
    let routed: Vec<(String, String)> = endpoints
        .iter()
        .filter(|e| e.get("method").is_some() && e.get("path").is_some())
        .map(|e| (e["method"].as_str().unwrap().to_owned(), e["path"].as_str().unwrap().to_owned()))
        .collect();
    for (method, path) in [
        ("GET", "/users/@me/connections"),
        ("GET", "/guilds/{guild.id}/channels"),
        ("PUT", "/lobbies"),
        ("POST", "/lobbies/{lobby.id}/messages"),
        ("GET", "/lobbies/{lobby.id}/messages"),
        ("POST", "/lobbies/{lobby.id}/members/bulk"),
        ("PUT", "/channels/{channel.id}/voice-status"),
    ] {
        assert!(routed.contains(&(method.to_owned(), path.to_owned())), "{method} {path} is not routed");
    }
    let token = find(&m["endpoints"], "token");
    assert_eq!(token["path"], "/oauth2/token");
    assert!(token["assumed"]["method"].is_string(), "the token endpoint's method is an assumption");
    for unrouted in ["get_current_user_guilds", "get_gateway_bot", "search_guild_messages", "forward_message"] {
        let e = find(&m["endpoints"], unrouted);
        let facets: Vec<&str> = e["not_shown"].as_array().unwrap().iter().map(|g| g["facet"].as_str().unwrap()).collect();
        assert!(facets.contains(&"method") && facets.contains(&"path"), "{unrouted}: {facets:?}");
    }
}

#[test]
fn the_timeline_has_every_dated_change() {
    let m = dump();
    let dates: Vec<&str> = m["changes"].as_array().unwrap().iter().map(|c| c["effective"].as_str().unwrap()).collect();
    for date in ["2026-02-23", "2026-07-10", "2026-09-22", "2026-11-16", "already_in_effect", "unscheduled"] {
        assert!(dates.contains(&date), "no change effective {date}");
    }
    assert!(dates.iter().filter(|d| **d == "already_in_effect").count() >= 11);
    let pin = find(&m["permission_rules"], "pin_messages");
    assert_eq!(pin["variants"][0]["until"], "pin-messages-required");
    assert_eq!(pin["variants"][1]["since"], "pin-messages-required");
}

#[test]
fn every_release_identifier_is_kept() {
    let m = dump();
    let ids: Vec<&str> = m["releases"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 26);
    assert_eq!(find(&m["releases"], "1.10.19337")["version"], serde_json::json!([1, 10, 19337]));
    assert_eq!(find(&m["releases"], "1.5.12211")["version"], serde_json::json!([1, 5, 12211]));
    assert_eq!(m["release_policy"]["minor_releases_per_year"], 3);
}

#[test]
fn coverage_counts_the_gaps_of_every_part() {
    let loaded = shipped();
    let cov = coverage(&loaded.model);
    let parts = cov.by_part(&loaded.model);
    for part in ["http_api", "gateway", "social_sdk", "authorization_server"] {
        assert!(parts.iter().any(|(p, gaps, _)| p == part && *gaps > 0), "no gap counted for {part}: {parts:?}");
    }
    for item in ["endpoint:get_gateway_bot", "permission:ADMINISTRATOR", "class:AuthorizationCodeChallenge", "enum:IntegrationType"] {
        assert!(cov.gaps.iter().any(|g| g.item == item), "{item} is not a counted gap");
    }
    assert!(cov.assumptions.iter().any(|a| a.item == "endpoint:token" && a.facet == "method"));
}
