//! The generated client calls operations of the imported Discord API's mock server over
//! 127.0.0.1, and decodes every answer into its typed response.

use discord_api_tests::Mock;
use discord_client::types::endpoints;

#[test]
fn the_client_calls_operations_of_the_mock_and_decodes_every_answer() {
    let mock = Mock::start();
    let client = mock.client();
    let calls = mock.block_on(async {
        let mut calls: Vec<(&str, usize)> = Vec::new();
        // One operation with a request of default values (snowflake `0` in the path, no query):
        // its answer decoded, or the test fails naming the operation.
        // Each part at its default; the hidden `from_fields` takes them in order, where
        // `Request::new` would take each path parameter of each operation by name.
        macro_rules! default_part {
            ($part:ident) => {
                Default::default()
            };
        }
        macro_rules! call {
            ($op:ident { $($part:ident),* }) => {
                call!(client, calls, $op { $($part),* })
            };
            ($c:ident, $v:ident, $op:ident { $($part:ident),* }) => {{
                let request = endpoints::$op::Request::from_fields($(default_part!($part)),*);
                match $c.send(&request).await {
                    Ok(answer) => $v.push((stringify!($op), format!("{answer:?}").len())),
                    Err(e) => panic!("`{}` failed: {e:?}", stringify!($op)),
                }
            }};
        }
        call!(get_my_application {});
        call!(get_application { path });
        call!(list_application_commands { path, query });
        call!(get_application_command { path });
        call!(list_application_emojis { path });
        call!(get_application_emoji { path });
        call!(get_entitlements { path, query });
        call!(get_entitlement { path });
        call!(list_guild_application_commands { path, query });
        call!(get_guild_application_command { path });
        call!(get_application_role_connections_metadata { path });
        call!(get_channel { path });
        call!(list_channel_invites { path });
        call!(list_messages { path, query });
        call!(list_pins { path, query });
        call!(get_message { path });
        call!(list_thread_members { path, query });
        call!(get_thread_member { path, query });
        call!(list_public_archived_threads { path, query });
        call!(list_channel_webhooks { path });
        call!(get_gateway {});
        call!(get_bot_gateway {});
        call!(get_guild { path, query });
        call!(list_guild_audit_log_entries { path, query });
        call!(list_auto_moderation_rules { path });
        call!(get_auto_moderation_rule { path });
        call!(list_guild_bans { path, query });
        call!(get_guild_ban { path });
        call!(list_guild_channels { path });
        call!(list_guild_emojis { path });
        call!(get_guild_emoji { path });
        call!(list_guild_integrations { path });
        call!(list_guild_invites { path });
        call!(list_guild_members { path, query });
        call!(get_guild_member { path });
        call!(get_guild_preview { path });
        call!(list_guild_voice_regions { path });
        call!(list_guild_roles { path });
        call!(get_guild_role { path });
        call!(list_guild_scheduled_events { path, query });
        call!(get_guild_scheduled_event { path, query });
        call!(list_guild_stickers { path });
        call!(get_guild_sticker { path });
        call!(get_active_guild_threads { path });
        call!(get_guild_webhooks { path });
        call!(get_guild_welcome_screen { path });
        call!(get_guild_widget_settings { path });
        call!(get_guild_widget { path });
        call!(get_public_keys {});
        call!(get_soundboard_default_sounds {});
        call!(get_stage_instance { path });
        call!(list_sticker_packs {});
        call!(get_sticker { path });
        call!(get_my_user {});
        call!(list_my_connections {});
        call!(list_my_guilds { query });
        call!(get_user { path });
        call!(list_voice_regions {});
        call!(get_webhook { path });
        calls
    });
    assert!(calls.len() >= 30, "only {} operations were called", calls.len());
    // Every answer decoded into a value that says something (not an empty body).
    for (op, size) in &calls {
        assert!(*size > 2, "`{op}` answered nothing");
    }
}
