//! Serde round-trips of every generated type, with values the spec does not name: unknown enum
//! values, unknown flag bits, unknown fields of partially shown objects.
//!
//! Resource values are drawn from the spec itself (each field's type, optionality and
//! nullability; `tests/values/`), in their wire form; decoding into the generated type and
//! encoding again must give back the same JSON.

use crate::values;

use platform::changes;
use platform::enums::{ActivityType, GrantType, GuildFeature, IntegrationType, SubscriptionStatus};
use platform::errors::{self, ApiError, ErrorCode};
use platform::events::AuditLogEventCode;
use platform::flags::{ApplicationFlags, AttachmentFlags, ChannelFlags, IdentifyCapabilities};
use platform::gateway::Opcode;
use platform::resources::*;
use platform::{Permission, Permissions, Snowflake, StringInteger};
use platform_codegen::model::Model;
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::OnceLock;
use values::Gen;

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
        platform_codegen::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("spec/ is invalid")).model
    })
}

/// Decodes `json` as `T` and encodes it again.
fn through<T: DeserializeOwned + Serialize>(json: &Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(json.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}

type RoundTrip = fn(&Value) -> Result<Value, String>;

/// Every resource of the spec and its generated type.
const RESOURCES: &[(&str, RoundTrip)] = &[
    ("identify_payload", through::<IdentifyPayload>),
    ("activity", through::<Activity>),
    ("application", through::<Application>),
    ("attachment_request", through::<AttachmentRequest>),
    ("attachment", through::<Attachment>),
    ("channel", through::<Channel>),
    ("permission_overwrite", through::<PermissionOverwrite>),
    ("voice_channel_info", through::<VoiceChannelInfo>),
    ("audit_entry_info", through::<AuditEntryInfo>),
    ("game_stats_widget_data", through::<GameStatsWidgetData>),
    ("application_identity_profile", through::<ApplicationIdentityProfile>),
    ("interaction", through::<Interaction>),
    ("resolved_channel", through::<ResolvedChannel>),
    ("invite", through::<Invite>),
    ("partial_role", through::<PartialRole>),
    ("lobby", through::<Lobby>),
    ("lobby_member", through::<LobbyMember>),
    ("lobby_member_update", through::<LobbyMemberUpdate>),
    ("lobby_message", through::<LobbyMessage>),
    ("game_direct_message", through::<GameDirectMessage>),
    ("radio_group", through::<RadioGroup>),
    ("radio_group_option", through::<RadioGroupOption>),
    ("checkbox_group", through::<CheckboxGroup>),
    ("checkbox_group_option", through::<CheckboxGroupOption>),
    ("checkbox", through::<Checkbox>),
    ("file_upload", through::<FileUpload>),
    ("container", through::<Container>),
    ("components_embed", through::<ComponentsEmbed>),
    ("rich_presence_activity", through::<RichPresenceActivity>),
    ("rich_presence_activity_assets", through::<RichPresenceActivityAssets>),
    ("subscription", through::<Subscription>),
    ("user", through::<User>),
    ("connection", through::<Connection>),
    ("error_body", through::<platform::ErrorBody>),
];

#[test]
fn every_resource_of_the_spec_has_a_round_trip() {
    let mut ids: Vec<&str> = model().resources.iter().map(|r| r.meta.id.as_str()).collect();
    ids.push("error_body");
    let covered: Vec<&str> = RESOURCES.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, covered, "add the new resource's type to RESOURCES");
}

fn resource_values() -> BoxedStrategy<(usize, Value)> {
    let model = model();
    let g = Gen { model, complete: true };
    let strategies: Vec<BoxedStrategy<(usize, Value)>> = RESOURCES
        .iter()
        .enumerate()
        .map(|(i, (id, _))| {
            let value = match model.resource(id) {
                Some(r) => g.object(r, 0),
                None => g.fields_object(&model.error_body.as_ref().expect("the spec declares an error body").fields, false, 0),
            };
            value.prop_map(move |v| (i, v)).boxed()
        })
        .collect();
    proptest::strategy::Union::new(strategies).boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn every_resource_round_trips((index, json) in resource_values()) {
        let (id, round_trip) = RESOURCES[index];
        let back = round_trip(&json).map_err(|e| TestCaseError::fail(format!("{id}: {e}\n{json:#}")))?;
        prop_assert_eq!(back, json, "{}", id);
    }

    #[test]
    fn integer_enums_keep_unnamed_values(n in any::<i64>()) {
        prop_assert_eq!(through::<ActivityType>(&json!(n)), Ok(json!(n)));
        prop_assert_eq!(through::<SubscriptionStatus>(&json!(n)), Ok(json!(n)));
        prop_assert_eq!(through::<IntegrationType>(&json!(n)), Ok(json!(n)));
        prop_assert_eq!(through::<ErrorCode>(&json!(n)), Ok(json!(n)));
        prop_assert_eq!(through::<Opcode>(&json!(n)), Ok(json!(n)));
        prop_assert_eq!(through::<AuditLogEventCode>(&json!(n)), Ok(json!(n)));
        prop_assert_eq!(ActivityType::from_value(n).value(), n);
        prop_assert_eq!(ErrorCode::from_value(n).value(), n);
    }

    #[test]
    fn string_enums_keep_unnamed_values(text in "\\PC{0,24}") {
        prop_assert_eq!(through::<GuildFeature>(&json!(text)), Ok(json!(text)));
        prop_assert_eq!(through::<GrantType>(&json!(text)), Ok(json!(text)));
        let feature = GuildFeature::from(text.as_str());
        prop_assert_eq!(feature.as_str(), text.as_str());
    }

    #[test]
    fn flag_sets_keep_unknown_bits(bits in any::<u64>()) {
        prop_assert_eq!(through::<ChannelFlags>(&json!(bits)), Ok(json!(bits)));
        prop_assert_eq!(through::<IdentifyCapabilities>(&json!(bits)), Ok(json!(bits)));
        prop_assert_eq!(through::<AttachmentFlags>(&json!(bits)), Ok(json!(bits)));
        prop_assert_eq!(through::<ApplicationFlags>(&json!(bits)), Ok(json!(bits)));
        let flags = ChannelFlags::from_bits(bits);
        prop_assert_eq!(flags.bits(), bits);
        prop_assert_eq!(flags.unknown().union(flags.intersection(ChannelFlags::KNOWN)), flags);
    }

    #[test]
    fn permission_sets_and_ids_travel_as_decimal_strings(bits in any::<u64>()) {
        prop_assert_eq!(through::<Permissions>(&json!(bits.to_string())), Ok(json!(bits.to_string())));
        prop_assert_eq!(through::<Permissions>(&json!(bits)), Ok(json!(bits.to_string())), "a number is read too, and written as a string");
        prop_assert_eq!(through::<Snowflake>(&json!(bits.to_string())), Ok(json!(bits.to_string())));
        prop_assert_eq!(through::<StringInteger>(&json!(bits)), Ok(json!(bits.to_string())));
        prop_assert_eq!(bits.to_string().parse::<Snowflake>(), Ok(Snowflake(bits)));
    }
}

#[test]
fn decimal_strings_are_digits_only() {
    for text in ["", "+1", "-1", " 1", "1 ", "0x10", "18446744073709551616", "１"] {
        assert!(text.parse::<Snowflake>().is_err(), "{text:?}");
        assert!(serde_json::from_value::<Snowflake>(json!(text)).is_err(), "{text:?}");
    }
    assert!(serde_json::from_value::<Snowflake>(json!(-1)).is_err());
}

#[test]
fn named_values_decode_to_their_variants() {
    assert_eq!(serde_json::from_value::<ActivityType>(json!(4)).unwrap(), ActivityType::Custom);
    assert_eq!(serde_json::from_value::<ActivityType>(json!(0)).unwrap(), ActivityType::Unknown(0));
    assert_eq!(serde_json::from_value::<SubscriptionStatus>(json!(1)).unwrap(), SubscriptionStatus::Inactive);
    assert_eq!(serde_json::from_value::<SubscriptionStatus>(json!(2)).unwrap(), SubscriptionStatus::Ending);
    assert_eq!(serde_json::from_value::<GuildFeature>(json!("PRUNE_REQUIRES_ADMIN")).unwrap(), GuildFeature::PruneRequiresAdmin);
    assert_eq!(serde_json::from_value::<ErrorCode>(json!(110000)).unwrap(), ErrorCode::SearchIndexNotReady);
    assert_eq!(serde_json::from_value::<Opcode>(json!(43)).unwrap(), Opcode::RequestChannelInfo);
    assert_eq!(serde_json::from_value::<AuditLogEventCode>(json!(193)).unwrap(), AuditLogEventCode::VoiceChannelStatusDelete);
    assert_eq!(serde_json::to_value(ChannelFlags::CHANNEL_OBFUSCATED).unwrap(), json!(1 << 17));
    assert_eq!(format!("{:?}", ChannelFlags::from_bits((1 << 17) | 1)), "ChannelFlags(CHANNEL_OBFUSCATED | 0x1)");
}

#[test]
fn absent_and_null_are_different_fields() {
    let absent: Channel = serde_json::from_value(json!({ "id": "1", "name": "a", "flags": 0, "permission_overwrites": [] })).unwrap();
    let null: Channel = serde_json::from_value(json!({ "id": "1", "name": "a", "flags": 0, "permission_overwrites": [], "application_id": null })).unwrap();
    assert_eq!((absent.application_id, null.application_id), (platform::wire::Presence::Absent, platform::wire::Presence::Null));
    assert!(!serde_json::to_value(&absent).unwrap().as_object().unwrap().contains_key("application_id"));
    assert_eq!(serde_json::to_value(&null).unwrap()["application_id"], Value::Null);
}

#[test]
fn every_error_renders_and_reads_back() {
    for def in errors::ALL {
        let error = ApiError::new(def);
        let body = serde_json::to_value(error.to_body()).unwrap();
        let back = ApiError::from_body(error.status, serde_json::from_value(body.clone()).unwrap());
        assert_eq!(back, error, "{}: {body}", def.id);
        assert!(back.is(def), "{}", def.id);
        assert_eq!(body["code"], json!(def.code.map_or(0, ErrorCode::value)), "{}: an error without a code carries 0", def.id);
    }
    let coded: Vec<i64> = errors::ALL.iter().filter_map(|d| d.code).map(ErrorCode::value).collect();
    for code in [110000, 160014, 530017, 50035, 50013, 40001] {
        assert!(coded.contains(&code), "{code}");
    }
    let grant = ApiError::new(&errors::INVALID_GRANT).to_body();
    assert_eq!(grant.error.as_deref(), Some("invalid_grant"));
}

#[test]
fn permissions_are_const_and_bitless_permissions_have_no_bit() {
    const PINS_AND_STATUS: Permissions = Permissions::PIN_MESSAGES.union(Permissions::from_bits(1 << 48));
    assert_eq!(PINS_AND_STATUS.bits(), (1 << 51) | (1 << 48));
    assert_eq!(PINS_AND_STATUS.permissions().collect::<Vec<_>>(), [Permission::SetVoiceChannelStatus, Permission::PinMessages]);
    assert_eq!(Permission::ManageChannels.bit(), None);
    assert_eq!(Permission::ManageChannels.set(), None);
    assert!(!Permissions::from_bits(u64::MAX).has(Permission::ManageChannels));
    assert_eq!("PIN_MESSAGES".parse::<Permission>(), Ok(Permission::PinMessages));
    assert!("PIN".parse::<Permission>().is_err());
    assert_eq!(serde_json::to_value(PINS_AND_STATUS).unwrap(), json!(((1u64 << 51) | (1 << 48)).to_string()));
    assert_eq!(changes::ALL.len(), model().changes.len());
}
