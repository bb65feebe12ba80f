//! The rules of `diff`, each with a stable id printed with every finding, so a team can name
//! the rule it discusses (oasdiff's `checker/` rule ids, buf's rule names, smithy-diff's
//! evaluators). The rules themselves live with their check functions, one module per concern
//! (`rules/{items,access,shapes,values,unions,http,messages,events,sdk,platform,timeline}.rs`);
//! this module lists them.

use super::Severity;
use super::rules::{access, events, fields, gateways, http, items, messages, platform, sdk, shapes, timeline, unions, values};
use serde::Serialize;

/// One rule of the catalogue.
#[derive(Debug, Serialize)]
pub struct RuleDef {
    /// Stable kebab-case id, never reused.
    pub id: &'static str,
    /// The concern it belongs to (`shapes`, `http`, ...).
    pub group: &'static str,
    /// When it fires, in one sentence.
    pub summary: &'static str,
    /// The kinds of change entry that announce a finding of this rule. `correction` (the spec
    /// was wrong, the platform did not change) announces any claimable finding.
    pub kinds: &'static [&'static str],
    /// Whether a change entry can claim it at all: a rewrite of history cannot be announced.
    pub claimable: bool,
    /// The severity when no audience breaks.
    pub otherwise: Severity,
    /// The closest rule of the tools this catalogue follows.
    pub anchor: &'static str,
}

impl RuleDef {
    /// Whether a change of `kind` announces a finding of this rule.
    pub fn accepts(&self, kind: &str) -> bool {
        self.claimable && (kind == "correction" || self.kinds.contains(&kind))
    }
}

/// Every rule, grouped by concern.
pub static CATALOGUE: &[&RuleDef] = &[
    &items::ITEM_ADDED,
    &items::ITEM_REMOVED,
    &items::ITEM_DEPRECATED,
    &items::ITEM_EDITED,
    &access::PERMISSION_BIT_CHANGED,
    &access::PERMISSION_RENAMED,
    &access::PERMISSION_RULE_ADDED,
    &access::PERMISSION_RULE_REMOVED,
    &access::PERMISSION_RULE_TIGHTENED,
    &access::PERMISSION_RULE_LOOSENED,
    &access::PERMISSION_RULE_ENDPOINT_ADDED,
    &access::PERMISSION_RULE_ENDPOINT_REMOVED,
    &access::INTENT_BECAME_PRIVILEGED,
    &access::TOKEN_KIND_SCHEME_CHANGED,
    &access::ENDPOINT_AUTH_NARROWED,
    &access::ENDPOINT_AUTH_WIDENED,
    &access::ENDPOINT_SCOPE_ADDED,
    &access::ENDPOINT_SCOPE_REMOVED,
    &shapes::FIELD_ADDED,
    &shapes::REQUEST_FIELD_ADDED_REQUIRED,
    &shapes::FIELD_REMOVED,
    &shapes::FIELD_RENAMED,
    &values::FIELD_TYPE_CHANGED,
    &values::FIELD_TYPE_GENERALIZED,
    &values::FIELD_TYPE_SPECIALIZED,
    &values::MAP_KEY_TYPE_CHANGED,
    &values::MAP_VALUE_TYPE_CHANGED,
    &shapes::FIELD_BECAME_OPTIONAL,
    &shapes::FIELD_BECAME_REQUIRED,
    &values::FIELD_BECAME_NULLABLE,
    &values::FIELD_BECAME_NON_NULLABLE,
    &values::FIELD_PRESENCE_CHANGED,
    &shapes::FIELD_WIRE_NAME_CHANGED,
    &shapes::FIELD_REQUIRED_WHEN_ADDED,
    &shapes::FIELD_SCOPE_REQUIRED,
    &values::FIELD_DEFAULT_CHANGED,
    &values::FIELD_DEFAULT_ADDED,
    &values::FIELD_DEFAULT_REMOVED,
    &values::REQUEST_MAX_DECREASED,
    &values::REQUEST_MIN_INCREASED,
    &values::REQUEST_BOUND_ADDED,
    &values::REQUEST_BOUND_LOOSENED,
    &values::RESPONSE_BOUND_LOOSENED,
    &values::FIELD_PATTERN_ADDED,
    &values::FIELD_PATTERN_CHANGED,
    &values::FIELD_CONSTANT_CHANGED,
    &values::FIELD_ENUM_SUBSET_NARROWED,
    &values::FIELD_ENUM_SUBSET_WIDENED,
    &shapes::RESOURCE_DIRECTION_CHANGED,
    &shapes::RESOURCE_EXTENDS_CHANGED,
    &unions::UNION_VARIANT_ADDED,
    &unions::UNION_VARIANT_REMOVED,
    &unions::UNION_VARIANT_TYPE_CHANGED,
    &unions::UNION_VARIANT_TAG_CHANGED,
    &unions::UNION_DISCRIMINATOR_CHANGED,
    &unions::UNION_VARIANTS_REORDERED,
    &shapes::ENUM_REPR_CHANGED,
    &shapes::ENUM_VALUE_ADDED,
    &shapes::ENUM_VALUE_REMOVED,
    &shapes::ENUM_VALUE_RENUMBERED,
    &shapes::ENUM_VALUE_RENAMED,
    &shapes::FLAGS_REPR_CHANGED,
    &shapes::FLAGS_WIDTH_CHANGED,
    &shapes::FLAG_ADDED,
    &shapes::FLAG_REMOVED,
    &shapes::FLAG_BIT_CHANGED,
    &shapes::FLAG_RENAMED,
    &http::ENDPOINT_METHOD_CHANGED,
    &http::ENDPOINT_PATH_CHANGED,
    &http::ENDPOINT_UNROUTED,
    &http::ENDPOINT_ROUTED,
    &http::ENDPOINT_PAGINATION_REMOVED,
    &http::ENDPOINT_PAGINATION_CHANGED,
    &http::ENDPOINT_PAGINATION_ADDED,
    &http::ENDPOINT_RESPONSE_CHANGED,
    &http::ENDPOINT_BODY_FORMAT_CHANGED,
    &http::ENDPOINT_BODY_FORMAT_ADDED,
    &http::ENDPOINT_BODY_FORMAT_REMOVED,
    &http::ENDPOINT_RESPONSE_FORMAT_CHANGED,
    &messages::RESPONSE_STATUS_ADDED,
    &messages::RESPONSE_STATUS_REMOVED,
    &messages::RESPONSE_BODY_CHANGED,
    &messages::STREAM_EVENT_ADDED,
    &messages::STREAM_EVENT_REMOVED,
    &messages::STREAM_EVENT_CHANGED,
    &fields::RESPONSE_HEADER_ADDED,
    &fields::RESPONSE_HEADER_REMOVED,
    &fields::REQUEST_HEADER_ADDED_REQUIRED,
    &fields::REQUEST_HEADER_REMOVED,
    &http::BEHAVIOUR_ADDED,
    &http::BEHAVIOUR_REMOVED,
    &http::BEHAVIOUR_GATE_CHANGED,
    &http::ERROR_CODE_CHANGED,
    &http::ERROR_STATUS_CHANGED,
    &http::ERROR_OAUTH_ERROR_CHANGED,
    &http::ENDPOINT_ERROR_ADDED,
    &events::EVENT_CODE_CHANGED,
    &events::EVENT_CHANNEL_CHANGED,
    &events::OPCODE_CODE_CHANGED,
    &events::OPCODE_DIRECTION_CHANGED,
    &events::WEBHOOK_EVENT_ADDED,
    &events::WEBHOOK_EVENT_REMOVED,
    &events::WEBHOOK_EVENT_NAME_CHANGED,
    &events::WEBHOOK_DELIVERY_CHANGED,
    &events::WEBHOOK_POLICY_CHANGED,
    &gateways::GATEWAY_EVENT_ADDED,
    &gateways::GATEWAY_EVENT_REMOVED,
    &gateways::GATEWAY_EVENT_NAME_CHANGED,
    &gateways::GATEWAY_COMMAND_CHANGED,
    &gateways::GATEWAY_PROTOCOL_CHANGED,
    &gateways::GATEWAY_CLOSE_CODE_CHANGED,
    &gateways::GATEWAY_LIMIT_CHANGED,
    &sdk::COMMAND_RENAMED,
    &sdk::ALIAS_REMOVED,
    &sdk::COMMAND_SCOPE_ADDED,
    &sdk::SDK_CALL_SIGNATURE_CHANGED,
    &platform::LIMIT_DECREASED,
    &platform::LIMIT_INCREASED,
    &platform::LIMIT_UNIT_CHANGED,
    &platform::CONSTANT_VALUE_CHANGED,
    &platform::PREFIX_CHANGED,
    &timeline::CHANGE_ADDED,
    &timeline::CHANGE_REMOVED,
    &timeline::CHANGE_HISTORY_REWRITTEN,
    &timeline::CHANGE_RESCHEDULED,
    &timeline::CHANGE_RETROACTIVE,
    &timeline::CHANGE_SUMMARY_EDITED,
];

/// The catalogue as a Markdown table (`docs/diff.md` carries it, and a test keeps it in step):
/// id, concern, when it fires, the change kinds that announce it, and the closest rule of the
/// tools it follows.
pub fn markdown() -> String {
    let mut out = String::from("| rule | concern | fires when | announced by | closest rule elsewhere |\n|---|---|---|---|---|\n");
    for r in CATALOGUE {
        let kinds = if r.claimable {
            let mut kinds: Vec<&str> = r.kinds.to_vec();
            if !kinds.contains(&"correction") {
                kinds.push("correction");
            }
            kinds.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        } else {
            "cannot be announced".to_owned()
        };
        out.push_str(&format!("| `{}` | {} | {} | {kinds} | {} |\n", r.id, r.group, r.summary.replace('|', "\\|"), r.anchor.replace('|', "\\|")));
    }
    out
}

/// The rule with this id.
pub fn rule(id: &str) -> Option<&'static RuleDef> {
    CATALOGUE.iter().copied().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_kinds_are_change_kinds() {
        let kinds = ["addition", "removal", "rename", "requirement", "shape", "behavior", "deprecation", "correction"];
        for (i, r) in CATALOGUE.iter().enumerate() {
            assert!(r.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", r.id);
            assert!(CATALOGUE[..i].iter().all(|o| o.id != r.id), "duplicate rule id {}", r.id);
            assert!(r.kinds.iter().all(|k| kinds.contains(k)), "{}: {:?}", r.id, r.kinds);
            assert!(r.claimable || r.kinds.is_empty(), "{}", r.id);
            assert!(!r.summary.ends_with('.') && !r.anchor.is_empty(), "{}", r.id);
        }
    }
}
