//! The typed model at work without a server: dated changes and their gates, permission rules on
//! both sides of their dates and on each branch of their conditions, run-time checks, limits,
//! state machines, commands, credentials and the authorization server metadata.

use platform::auth::{CredentialRef, Intent, Scope, TokenKind};
use platform::changes::{self, Effective};
use platform::endpoints::{get_current_user_guilds, get_guild_channels};
use platform::placeholders::Placeholders;
use platform::rules::{self, Condition, Facts, PermissionRule, SpecVocabulary};
use platform::states::{AccountLink, AccountLinkTransition, ChannelVisibility, ChannelVisibilityTransition};
use platform::validation::Validate;
use platform::{Credential, Permission, commands, errors, limits};
use platform_codegen::model::Effective as SpecEffective;

fn at(instant: &str) -> jiff::Timestamp {
    instant.parse().expect("an RFC 3339 instant")
}

/// What a caller holds, for evaluating rules without a server.
#[derive(Default)]
struct Holds {
    permissions: Vec<Permission>,
    conditions: Vec<Condition>,
    intents: Vec<Intent>,
    scopes: Vec<Scope>,
}

impl Holds {
    fn permissions(list: &[Permission]) -> Self {
        Self { permissions: list.to_vec(), ..Self::default() }
    }
}

impl Facts<SpecVocabulary> for Holds {
    fn has_permission(&self, p: Permission) -> bool {
        self.permissions.contains(&p)
    }
    fn holds(&self, c: Condition) -> bool {
        self.conditions.contains(&c)
    }
    fn has_intent(&self, i: Intent) -> bool {
        self.intents.contains(&i)
    }
    fn has_scope(&self, s: Scope) -> bool {
        self.scopes.contains(&s)
    }
}

fn missing(rule: &PermissionRule, now: &str, holds: &Holds) -> Vec<String> {
    rule.missing(at(now), holds).iter().map(ToString::to_string).collect()
}

#[test]
fn every_change_is_in_effect_exactly_from_its_date() {
    let spec =
        platform_codegen::load_spec(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec"), "spec").unwrap_or_else(|_| panic!("spec/ is invalid"));
    assert_eq!(changes::ALL.len(), spec.model.changes.len());
    for (change, from_spec) in changes::ALL.iter().zip(&spec.model.changes) {
        assert_eq!(change.id, from_spec.meta.id);
        match (change.effective, from_spec.effective) {
            (Effective::At(instant), SpecEffective::Date(date)) => {
                assert_eq!(instant, date.to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp(), "{}: 00:00 UTC", change.id);
                assert!(!change.is_in_effect(instant - jiff::SignedDuration::from_secs(1)), "{}", change.id);
                assert!(change.is_in_effect(instant), "{}", change.id);
            }
            (Effective::AlreadyInEffect, SpecEffective::AlreadyInEffect) => assert!(change.is_in_effect(at("1970-01-01T00:00:00Z"))),
            (Effective::Unscheduled, SpecEffective::Unscheduled) => assert!(!change.is_in_effect(at("2999-01-01T00:00:00Z"))),
            (ours, theirs) => panic!("{}: {ours:?} against {theirs:?}", change.id),
        }
    }
    assert!(changes::PIN_MESSAGES_REQUIRED.is_in_effect(at("2026-02-23T00:00:00Z")));
    assert!(!changes::PIN_MESSAGES_REQUIRED.is_in_effect(at("2026-02-22T23:59:59Z")));
    assert_eq!(changes::by_id("guild-channels-omit-unviewable"), Some(&changes::GUILD_CHANNELS_OMIT_UNVIEWABLE));
}

#[test]
fn endpoint_gates_follow_their_changes() {
    assert!(!get_guild_channels::Gates::at(at("2026-11-15T23:59:59Z")).omit_unviewable_channels);
    assert!(get_guild_channels::Gates::at(at("2026-11-16T00:00:00Z")).omit_unviewable_channels);
}

#[test]
fn the_rules_dated_2026_02_23_apply_their_old_form_before_and_their_new_form_after() {
    let (before, after) = ("2026-02-22T23:59:59Z", "2026-02-23T00:00:00Z");
    let cases: [(&PermissionRule, &[Permission], &str, &str); 4] = [
        (&rules::PIN_MESSAGES, &[Permission::ManageMessages], "PIN_MESSAGES", "MANAGE_MESSAGES"),
        (&rules::BYPASS_SLOWMODE, &[Permission::ManageThreads], "BYPASS_SLOWMODE", "any of (MANAGE_MESSAGES, MANAGE_CHANNELS, MANAGE_THREADS)"),
        (&rules::CREATE_GUILD_EXPRESSIONS, &[Permission::ManageGuildExpressions], "CREATE_GUILD_EXPRESSIONS", "MANAGE_GUILD_EXPRESSIONS"),
        (&rules::CREATE_EVENTS, &[Permission::ManageEvents], "CREATE_EVENTS", "MANAGE_EVENTS"),
    ];
    for (rule, old_permissions, new_permission, old_requirement) in cases {
        let old = Holds::permissions(old_permissions);
        assert!(missing(rule, before, &old).is_empty(), "{}: the old form suffices before", rule.id);
        assert_eq!(missing(rule, after, &old), [new_permission], "{}: and no longer after", rule.id);
        let new = Holds::permissions(&[new_permission.parse().unwrap()]);
        assert!(missing(rule, after, &new).is_empty(), "{}", rule.id);
        assert_eq!(missing(rule, before, &new), [old_requirement], "{}: before, only the old form counts", rule.id);
    }
    assert!(rules::BYPASS_SLOWMODE.applies_to.includes(false) && !rules::BYPASS_SLOWMODE.applies_to.includes(true), "users only");
    assert!(rules::CREATE_EVENTS.applies_to.includes(true) && !rules::CREATE_EVENTS.applies_to.includes(false), "bots only");
}

#[test]
fn guild_prune_asks_the_guild_feature() {
    let now = "2026-01-01T00:00:00Z";
    let feature = Condition::GuildHasFeature { feature: "PRUNE_REQUIRES_ADMIN" };
    let managers = Holds::permissions(&[Permission::ManageGuild, Permission::KickMembers]);
    assert!(missing(&rules::GUILD_PRUNE, now, &managers).is_empty());
    let with_feature = Holds { conditions: vec![feature], ..Holds::permissions(&[Permission::ManageGuild, Permission::KickMembers]) };
    assert_eq!(missing(&rules::GUILD_PRUNE, now, &with_feature), ["ADMINISTRATOR"]);
    let admin = Holds { conditions: vec![feature], ..Holds::permissions(&[Permission::Administrator]) };
    assert!(missing(&rules::GUILD_PRUNE, now, &admin).is_empty());
    assert_eq!(missing(&rules::GUILD_PRUNE, now, &Holds::default()), ["MANAGE_GUILD", "KICK_MEMBERS"]);
    assert_eq!(feature.to_string(), "guild_has_feature(PRUNE_REQUIRES_ADMIN)");
}

#[test]
fn target_users_access_takes_the_inviter_or_manage_guild() {
    let now = "2026-01-01T00:00:00Z";
    let inviter = Holds { conditions: vec![Condition::CallerIsInviter], ..Holds::default() };
    assert!(missing(&rules::TARGET_USERS_ACCESS, now, &inviter).is_empty());
    assert!(missing(&rules::TARGET_USERS_ACCESS, now, &Holds::permissions(&[Permission::ManageGuild])).is_empty());
    assert_eq!(missing(&rules::TARGET_USERS_ACCESS, now, &Holds::default()), ["any of (caller_is_inviter, MANAGE_GUILD)"]);
}

#[test]
fn search_needs_the_message_content_intent_and_forwarding_readable_content() {
    let now = "2026-01-01T00:00:00Z";
    let history = Holds::permissions(&[Permission::ReadMessageHistory]);
    assert_eq!(missing(&rules::SEARCH_GUILD_MESSAGES, now, &history), ["intent MESSAGE_CONTENT"]);
    let both = Holds { intents: vec![Intent::MessageContent], ..Holds::permissions(&[Permission::ReadMessageHistory]) };
    assert!(missing(&rules::SEARCH_GUILD_MESSAGES, now, &both).is_empty());
    assert_eq!(missing(&rules::FORWARD_MESSAGE, now, &Holds::default()), ["app_can_read_message_content"]);
    let readable = Holds { conditions: vec![Condition::AppCanReadMessageContent], ..Holds::default() };
    assert!(missing(&rules::FORWARD_MESSAGE, now, &readable).is_empty());
}

#[test]
fn set_voice_channel_status_needs_manage_channels_only_when_not_connected() {
    let now = "2026-01-01T00:00:00Z";
    let status = Holds::permissions(&[Permission::SetVoiceChannelStatus]);
    assert_eq!(missing(&rules::SET_VOICE_CHANNEL_STATUS, now, &status), ["MANAGE_CHANNELS"]);
    let connected = Holds { conditions: vec![Condition::BotConnectedToVoiceChannel], ..Holds::permissions(&[Permission::SetVoiceChannelStatus]) };
    assert!(missing(&rules::SET_VOICE_CHANNEL_STATUS, now, &connected).is_empty());
}

fn guilds(shard: Option<i64>) -> get_current_user_guilds::Request {
    let mut request = get_current_user_guilds::Request::default();
    request.query.shard = shard;
    request
}

#[test]
fn shard_is_checked_against_max_concurrency_and_required_for_large_bot_sharding() {
    let runtime = get_current_user_guilds::Runtime { get_gateway_bot_max_concurrency: Some(4), large_bot_sharding: false };
    assert!(guilds(Some(3)).validate().is_empty() && guilds(Some(3)).validate_runtime(&runtime).is_empty());
    let over = guilds(Some(4)).validate_runtime(&runtime);
    assert_eq!(over.iter().map(ToString::to_string).collect::<Vec<_>>(), ["/query/shard: must be less than 4 (got 4)"]);
    let under = guilds(Some(-1)).validate();
    assert_eq!(under.iter().map(ToString::to_string).collect::<Vec<_>>(), ["/query/shard: must be at least 0 (got -1)"]);
    assert!(guilds(None).validate_runtime(&runtime).is_empty(), "optional without large bot sharding");
    let large = get_current_user_guilds::Runtime { large_bot_sharding: true, ..runtime };
    assert_eq!(guilds(None).validate_runtime(&large)[0].message, "is required when large_bot_sharding");
    let unknown = get_current_user_guilds::Runtime::default();
    assert!(guilds(Some(1_000)).validate_runtime(&unknown).is_empty(), "no bound known, no check");
}

#[test]
fn limits_are_typed_constants() {
    assert_eq!(limits::DEFAULT_FILE_UPLOAD_SIZE.upper_bytes(), Some(20 * 1024 * 1024));
    assert_eq!(limits::DEFAULT_FILE_UPLOAD_SIZE.previous[0].value, 10);
    assert_eq!(limits::DEFAULT_FILE_UPLOAD_SIZE.previous[0].until.id, "default-upload-limit-20mib");
    assert_eq!(limits::VOICE_CHANNEL_STATUS_LENGTH.upper(), Some(500));
    assert_eq!(limits::LOBBY_MEMBERS_PER_BULK_REQUEST.upper(), Some(25));
    assert_eq!(limits::FILE_UPLOAD_COMPONENT_FILE_COUNT.lower(), Some(0));
    assert_eq!(limits::SHARD_PARAMETER.max, Some(limits::Bound::Field { endpoint: "get_gateway_bot", field: "max_concurrency", offset: -1 }));
}

#[test]
fn transitions_return_the_side_effects_the_spec_lists() {
    let (next, effects) = AccountLink::Linked.apply(AccountLinkTransition::AccountBan).unwrap();
    assert_eq!(next, AccountLink::UnmergedProvisional);
    assert_eq!(effects.iter().map(|e| e.id).collect::<Vec<_>>(), ["tokens_deleted", "merge_refused_while_banned"]);
    assert_eq!(effects[1].error.and_then(|e| e.code).map(|c| c.value()), Some(530017));
    let (visible, effects) = ChannelVisibility::Obfuscated.apply(ChannelVisibilityTransition::ChannelBecomesVisible).unwrap();
    assert_eq!(visible, ChannelVisibility::NotObfuscated);
    assert_eq!(effects[0].event, Some(platform::events::EventKind::ChannelUpdate));
    let refused = ChannelVisibility::NotObfuscated.apply(ChannelVisibilityTransition::ChannelBecomesVisible).unwrap_err();
    assert_eq!(refused.to_string(), "transition `channel_becomes_visible` leaves from `obfuscated`, not from `not_obfuscated`");
}

#[test]
fn commands_answer_to_their_former_names_until_removed() {
    let now = at("2026-01-01T00:00:00Z");
    let renamed = commands::Command::GetActivityInstanceConnectedParticipants;
    assert_eq!(commands::Command::from_name("getActivityInstanceConnectedParticipants", now), Some(renamed));
    assert_eq!(commands::Command::from_name("getInstanceConnectedParticipants", now), Some(renamed), "the removal is unscheduled");
    assert_eq!(commands::Command::GetRelationships.scopes(), [Scope::RelationshipsRead]);
}

#[test]
fn credentials_read_their_header_and_never_print_their_token() {
    let all = TokenKind::ALL;
    assert_eq!(Credential::from_header("Bot abc", all), Some(Credential::bot("abc")));
    assert_eq!(Credential::from_header("bearer abc", all), Some(Credential::bearer("abc")));
    assert_eq!(Credential::from_header("Bearer abc", &[TokenKind::Bot]), None);
    assert_eq!(Credential::from_header("Bot a b", all), None);
    // The server's reading borrows the token from the header value.
    let value = String::from("  Bot  abc ");
    let presented = CredentialRef::from_header(&value, all).expect("a bot token");
    assert_eq!((presented.kind, presented.token), (TokenKind::Bot, "abc"));
    assert!(std::ptr::eq(presented.token.as_ptr(), value[7..].as_ptr()), "the token is borrowed, not copied");
    assert_eq!(Credential::from(presented), Credential::bot("abc"));
    assert_eq!(CredentialRef::from(&Credential::bot("abc")), presented);
    for spaced in ["Bot a\u{b}b", "Bot a\tb", "Bot a\u{a0}b", "Bot é\u{2003}b", "Bot "] {
        assert_eq!(CredentialRef::from_header(spaced, &[TokenKind::Bot]), None, "{spaced:?} is no one-word token");
    }
    assert_eq!(CredentialRef::from_header("Bot é", &[TokenKind::Bot]).map(|c| c.token), Some("é"), "a token past ASCII is a word");
    assert!(!format!("{presented:?}").contains("abc"));
    assert_eq!(Credential::bot("abc").header_value().as_deref(), Some("Bot abc"));
    assert!(!format!("{:?}", Credential::bearer("secret-token")).contains("secret-token"));
    assert_eq!(platform::auth::DEFAULT_COMMUNICATION_SCOPES.to_scope_string(), "openid sdk.social_layer");
}

#[test]
fn server_metadata_names_the_issuer_under_auth_url() {
    let placeholders = Placeholders::at_origin("http://127.0.0.1:5555");
    assert_eq!(placeholders.base_url, "http://127.0.0.1:5555/api");
    let doc = platform::auth::authorization_server_metadata(&placeholders);
    assert_eq!(doc["issuer"], "http://127.0.0.1:5555");
    assert_eq!(doc["authorization_response_iss_parameter_supported"], true);
    assert_eq!(doc["token_endpoint"], "http://127.0.0.1:5555/oauth2/token");
    assert!(errors::ALL.iter().any(|e| e.oauth_error == Some("invalid_grant")));
}

#[test]
fn the_presence_update_case_names_its_conditions_and_checks_the_omission() {
    use platform::enums::ActivityType;
    use platform::events::PresenceUpdate;
    use platform::resources::Activity;
    let activity = |kind: ActivityType| Activity::new(kind);
    let conditions = PresenceUpdate::CUSTOM_STATUS_OMITTED.conditions();
    assert_eq!(
        conditions.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["profile_privacy(FRIENDS_ONLY)", "profile_privacy(FRIENDS_AND_SMALL_SERVERS_ONLY)", "guild_larger_than_profile_privacy_size"]
    );
    // Friends & Small Servers Only omits the custom status only in a guild of more than 200 members.
    let small_servers = Holds { conditions: vec![Condition::ProfilePrivacy { setting: "FRIENDS_AND_SMALL_SERVERS_ONLY" }], ..Holds::default() };
    assert!(!PresenceUpdate::CUSTOM_STATUS_OMITTED.missing(&small_servers).is_empty());
    let large_guild = Holds {
        conditions: vec![Condition::ProfilePrivacy { setting: "FRIENDS_AND_SMALL_SERVERS_ONLY" }, Condition::GuildLargerThanProfilePrivacySize],
        ..Holds::default()
    };
    assert!(PresenceUpdate::CUSTOM_STATUS_OMITTED.missing(&large_guild).is_empty());
    assert_eq!(limits::PROFILE_PRIVACY_GUILD_SIZE.lower(), Some(201), "more than 200 members");

    let with_custom = PresenceUpdate::new(vec![activity(ActivityType::Unknown(0)), activity(ActivityType::Custom)]);
    let broken = with_custom.check_custom_status_omitted();
    assert_eq!(broken.len(), 1);
    assert_eq!(broken[0].pointer, "/activities/1/type");
    let without = PresenceUpdate::new(vec![activity(ActivityType::Unknown(0))]);
    assert!(without.check_custom_status_omitted().is_empty());
}

#[test]
fn bounded_responses_check_their_item_count_and_csv_columns() {
    use platform::endpoints::{get_lobby_messages, get_target_users};
    use platform::resources::LobbyMessage;
    let message = LobbyMessage::new(1, 2, 3, "hi");
    assert!(get_lobby_messages::check_response(&vec![message.clone(); 200]).is_empty());
    let over = get_lobby_messages::check_response(&vec![message; 201]);
    assert_eq!(over[0].message, "must have at most 200 items (got 201)");

    assert!(get_target_users::check_response(&"user_id\n1\n2\n".to_owned()).is_empty());
    let wrong = get_target_users::check_response(&"id\n1\nalice\n".to_owned());
    let pointers: Vec<&str> = wrong.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/0", "/2/0"], "{wrong:?}");
}
