//! The reference implementation of [`platform_server::Api`]: an in-memory platform that acts out
//! the seed's behaviour for every routed endpoint, seeded from a world file (`world.yaml` beside
//! this file documents its tokens).
//!
//! - Get Current User Connections hides new launcher and publisher connections, existing
//!   launcher ones from 2026-09-22 and legacy publisher ones from 2026-07-10.
//! - Get Guild Channels returns the channels the caller cannot view obfuscated (the channel's
//!   case `obfuscated`: name `___hidden___`, `CHANNEL_OBFUSCATED`, one overwrite for @everyone),
//!   and omits them from 2026-11-16. The source states obfuscation for the Gateway only and says
//!   nothing of these channels over HTTP before that date: obfuscating them here is this
//!   server's choice, made so the case can be exercised end to end.
//! - Create or Join Lobby joins the lobby with the given secret, or creates one (with that secret,
//!   if any: a lobby created without one can be joined by no secret).
//! - Lobby messages are for members only; reading returns the 200 most recent, newest first.
//! - Bulk lobby members adds, updates or removes members in one request.
//! - Set Voice Channel Status stores the status (its permission rule runs in the router, asking
//!   [`Reference`] for the caller's permissions and whether its user is in the voice channel).
//! - The token endpoint exchanges codes and refresh tokens, rotating refresh tokens, and answers
//!   `invalid_grant` for a revoked, reused or unknown grant. Refreshing a provisional account's
//!   OIDC refresh token works, and the answer carries the grant's deprecation headers.

use platform_server::types::auth::{CredentialRef, Intent, Scope, TokenKind};
use platform_server::types::clock::FixedClock;
use platform_server::types::deprecations;
use platform_server::types::endpoints::{
    bulk_update_lobby_members, create_or_join_lobby, get_current_user_connections, get_guild_channels, get_lobby_messages, send_lobby_message,
    set_voice_channel_status, token,
};
use platform_server::types::enums::{GrantType, GuildFeature};
use platform_server::types::errors::{self, ApiError};
use platform_server::types::flags::ChannelFlags;
use platform_server::types::limits;
use platform_server::types::permissions::Permission;
use platform_server::types::placeholders::Placeholders;
use platform_server::types::resources::{Channel, Connection, Lobby, LobbyMember, LobbyMessage, PermissionOverwrite};
use platform_server::types::validation::Violation;
use platform_server::types::wire::{Presence, Snowflake};
use platform_server::{Api, Call, Granted, Operation, Options, RuleContext, granted};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The world the server starts with when none is given.
pub const DEFAULT_WORLD: &str = include_str!("world.yaml");

/// Seconds an access token is valid, as the token endpoint reports it.
const ACCESS_TOKEN_LIFETIME: i64 = 7 * 24 * 60 * 60;

/// The world file: what exists before the first request.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct World {
    /// The application every lobby and grant belongs to.
    pub application: Application,
    /// Tokens and whom they authenticate.
    pub credentials: Vec<CredentialEntry>,
    /// Guilds with their channels and members' permissions.
    #[serde(default)]
    pub guilds: Vec<Guild>,
    /// Connections per user id.
    #[serde(default)]
    pub connections: BTreeMap<u64, Vec<ConnectionEntry>>,
    /// Refresh tokens the token endpoint accepts (unless revoked).
    #[serde(default)]
    pub refresh_tokens: Vec<Grant>,
    /// Authorization codes the token endpoint accepts once.
    #[serde(default)]
    pub authorization_codes: Vec<CodeGrant>,
    /// Additional display names of lobby members, per user id, as the game backend set them.
    #[serde(default)]
    pub additional_names: BTreeMap<u64, String>,
}

/// The application.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Application {
    /// Its id.
    pub id: u64,
    /// Its client credentials as presented in `Authorization: Basic <client_token>`.
    pub client_token: String,
}

/// A token and its holder.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CredentialEntry {
    /// A name for humans.
    pub name: String,
    /// `bot` or `bearer`.
    pub kind: String,
    /// The token.
    pub token: String,
    /// The user id it acts as (a bot's own user for a bot token).
    pub user: u64,
    /// The scopes of a bearer token.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The intents of the bot's app.
    #[serde(default)]
    pub intents: Vec<String>,
}

/// A guild.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guild {
    /// Its id (also the id of its @everyone role).
    pub id: u64,
    /// Its features (`PRUNE_REQUIRES_ADMIN`).
    #[serde(default)]
    pub features: Vec<String>,
    /// Guild-wide permissions per user id.
    #[serde(default)]
    pub members: BTreeMap<u64, Vec<String>>,
    /// Its channels.
    #[serde(default)]
    pub channels: Vec<ChannelEntry>,
}

/// A channel of a guild.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelEntry {
    /// Its id.
    pub id: u64,
    /// Its name.
    pub name: String,
    /// The application it belongs to, if any.
    #[serde(default)]
    pub application_id: Option<u64>,
    /// Whether it is a voice channel.
    #[serde(default)]
    pub voice: bool,
    /// User ids connected to it (voice channels).
    #[serde(default)]
    pub connected: Vec<u64>,
    /// Per user id, permissions that replace the guild-wide ones in this channel.
    #[serde(default)]
    pub overrides: BTreeMap<u64, Vec<String>>,
}

/// What kind of service a connection is to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Service {
    /// A game launcher.
    Launcher,
    /// A game publisher.
    Publisher,
    /// Anything else.
    Other,
}

/// When a connection was made, relative to the withdrawal of launcher and publisher connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Created {
    /// After it: never returned.
    New,
    /// Before it: returned until its dated change.
    Existing,
}

/// A connection of a user.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionEntry {
    /// The account id on the service.
    pub id: String,
    /// The account name.
    pub name: String,
    /// The service (`steam`).
    #[serde(rename = "type")]
    pub service_type: String,
    /// The kind of service.
    pub service: Service,
    /// When it was made.
    pub created: Created,
}

/// A refresh token.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grant {
    /// The token.
    pub token: String,
    /// The user it was issued to.
    pub user: u64,
    /// The scopes it grants.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// Whether it was revoked (a ban deletes every token).
    #[serde(default)]
    pub revoked: bool,
    /// Whether OIDC server-side authentication issued it to a provisional account: refreshing
    /// it works, and the answer says the grant is deprecated for it.
    #[serde(default)]
    pub provisional_oidc: bool,
}

/// An authorization code.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeGrant {
    /// The code.
    pub code: String,
    /// The user who authorized.
    pub user: u64,
    /// The code verifier its challenge was made from, if any.
    #[serde(default)]
    pub verifier: Option<String>,
    /// The scopes it grants.
    #[serde(default)]
    pub scopes: Vec<String>,
}

/// Who a request comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// A bot or a user, by user id.
    Account {
        /// The user id.
        user: u64,
        /// Whether it is the app's bot.
        bot: bool,
        /// The scopes of its token.
        scopes: Vec<Scope>,
        /// The intents of its app.
        intents: Vec<Intent>,
    },
    /// The application, by its client credentials (token endpoint only).
    Application,
}

impl Caller {
    /// The user id, for a bot or a user; client credentials act for no user.
    fn user(&self) -> Result<u64, ApiError> {
        match self {
            Self::Account { user, .. } => Ok(*user),
            Self::Application => Err(ApiError::new(&errors::UNAUTHORIZED).with_message("client credentials authenticate only at the token endpoint")),
        }
    }
}

/// A lobby as stored.
#[derive(Clone, Debug)]
struct LobbyState {
    id: u64,
    secret: Option<String>,
    members: Vec<LobbyMember>,
    messages: Vec<LobbyMessage>,
}

/// What requests change.
#[derive(Debug)]
struct State {
    tokens: Vec<(TokenKind, String, Caller)>,
    refresh_tokens: Vec<Grant>,
    codes: Vec<CodeGrant>,
    lobbies: Vec<LobbyState>,
    voice_status: BTreeMap<u64, String>,
    next_id: u64,
}

impl State {
    /// A new snowflake id.
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

/// The reference platform.
#[derive(Debug)]
pub struct Reference {
    world: World,
    state: Mutex<State>,
}

impl Reference {
    /// A platform seeded from `world`; every permission, scope and intent name must be the spec's.
    pub fn new(world: World) -> Result<Self, String> {
        check_names(&world)?;
        let tokens = world
            .credentials
            .iter()
            .map(|c| {
                let kind = c.kind.parse::<TokenKind>().map_err(|e| e.to_string())?;
                let caller = Caller::Account { user: c.user, bot: kind == TokenKind::Bot, scopes: parse_all(&c.scopes)?, intents: parse_all(&c.intents)? };
                Ok((kind, c.token.clone(), caller))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let state = State {
            tokens,
            refresh_tokens: world.refresh_tokens.clone(),
            codes: world.authorization_codes.clone(),
            lobbies: Vec::new(),
            voice_status: BTreeMap::new(),
            next_id: 1 << 40,
        };
        Ok(Self { world, state: Mutex::new(state) })
    }

    /// A platform seeded from a world file's text.
    pub fn from_yaml(text: &str) -> Result<Self, String> {
        let world: World = serde_saphyr::from_str(text).map_err(|e| format!("invalid world file: {e}"))?;
        Self::new(world)
    }

    /// Revokes every token and refresh token of `user`, as an account ban does.
    pub fn revoke_user(&self, user: u64) {
        let mut state = self.state();
        state.tokens.retain(|(_, _, c)| !matches!(c, Caller::Account { user: u, .. } if *u == user));
        state.refresh_tokens.iter_mut().filter(|g| g.user == user).for_each(|g| g.revoked = true);
    }

    /// The status last set on a voice channel.
    pub fn voice_status(&self, channel: u64) -> Option<String> {
        self.state().voice_status.get(&channel).cloned()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panicking request cannot leave the state half-written: every change is one assignment.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn guild(&self, id: Snowflake) -> Result<&Guild, ApiError> {
        self.world.guilds.iter().find(|g| g.id == id.get()).ok_or_else(|| ApiError::new(&errors::UNKNOWN_GUILD))
    }

    fn channel(&self, id: Snowflake) -> Result<(&Guild, &ChannelEntry), ApiError> {
        self.world
            .guilds
            .iter()
            .find_map(|g| g.channels.iter().find(|c| c.id == id.get()).map(|c| (g, c)))
            .ok_or_else(|| ApiError::new(&errors::UNKNOWN_CHANNEL))
    }

    /// The guild an operation acts in, when it acts in one.
    fn operation_guild(&self, operation: &Operation) -> Option<&Guild> {
        match operation {
            Operation::GetGuildChannels(path) => self.guild(path.guild_id).ok(),
            Operation::SetVoiceChannelStatus(path) => self.channel(path.channel_id).ok().map(|(g, _)| g),
            _ => None,
        }
    }

    /// A user's permissions in a guild, or in one of its channels.
    fn permissions_in(&self, user: u64, guild: &Guild, channel: Option<&ChannelEntry>) -> Vec<Permission> {
        let names = channel.and_then(|c| c.overrides.get(&user)).or_else(|| guild.members.get(&user));
        names.map(|n| parse_all(n).unwrap_or_default()).unwrap_or_default()
    }

    /// A lobby the caller is a member of: 404 when it does not exist, 403 when not a member.
    fn member_lobby(state: &mut State, lobby: Snowflake, user: u64) -> Result<&mut LobbyState, ApiError> {
        let lobby = state.lobbies.iter_mut().find(|l| l.id == lobby.get()).ok_or_else(|| ApiError::new(&errors::UNKNOWN_LOBBY))?;
        if lobby.members.iter().any(|m| m.id.get() == user) {
            Ok(lobby)
        } else {
            Err(ApiError::new(&errors::MISSING_ACCESS).with_message("the caller is not a member of the lobby"))
        }
    }

    fn lobby(&self, state: &LobbyState) -> Lobby {
        Lobby::new(state.id, self.world.application.id, state.members.clone())
    }

    /// Issues an access token and a refresh token for `user`; the refresh token of a
    /// provisional account's OIDC authentication stays one when rotated.
    fn issue(&self, state: &mut State, user: u64, scopes: Vec<String>, provisional_oidc: bool) -> token::Response {
        let n = state.id();
        let (access, refresh) = (format!("access-{n}"), format!("refresh-{n}"));
        let caller = Caller::Account { user, bot: false, scopes: parse_all(&scopes).unwrap_or_default(), intents: Vec::new() };
        state.tokens.push((TokenKind::Bearer, access.clone(), caller));
        state.refresh_tokens.push(Grant { token: refresh.clone(), user, scopes: scopes.clone(), revoked: false, provisional_oidc });
        token::Response::new(access, "Bearer").expires_in(ACCESS_TOKEN_LIFETIME).refresh_token(refresh).scope(scopes.join(" "))
    }

    fn obfuscated(guild: &Guild, channel: &ChannelEntry) -> Channel {
        Channel::new(channel.id, Channel::OBFUSCATED_NAME, ChannelFlags::CHANNEL_OBFUSCATED, vec![PermissionOverwrite::new(guild.id, 0)])
            .application_id(Presence::Null)
    }

    fn visible(channel: &ChannelEntry) -> Channel {
        let overwrites = channel.overrides.keys().map(|user| PermissionOverwrite::new(*user, 1));
        Channel::new(channel.id, channel.name.clone(), ChannelFlags::empty(), overwrites.collect::<Vec<_>>())
            .application_id(channel.application_id.map_or(Presence::Absent, |a| Presence::Value(Snowflake(a))))
    }
}

/// Every permission, scope and intent of the world is one the spec names.
fn check_names(world: &World) -> Result<(), String> {
    for g in &world.guilds {
        g.members.values().try_for_each(|p| parse_all::<Permission>(p).map(drop))?;
        for c in &g.channels {
            c.overrides.values().try_for_each(|p| parse_all::<Permission>(p).map(drop))?;
        }
    }
    world.refresh_tokens.iter().try_for_each(|g| parse_all::<Scope>(&g.scopes).map(drop))?;
    world.authorization_codes.iter().try_for_each(|g| parse_all::<Scope>(&g.scopes).map(drop))
}

fn parse_all<T: std::str::FromStr>(names: &[String]) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    names.iter().map(|n| n.parse::<T>().map_err(|e| e.to_string())).collect()
}

fn invalid(pointer: &str, message: &str) -> ApiError {
    ApiError::new(&errors::INVALID_FORM_BODY).with_violations(vec![Violation::new(pointer, message)])
}

fn invalid_grant(message: &str) -> ApiError {
    ApiError::new(&errors::INVALID_GRANT).with_message(message)
}

impl Api for Reference {
    type Caller = Caller;

    async fn authenticate(&self, credential: CredentialRef<'_>) -> Option<Caller> {
        if credential.kind == TokenKind::Client {
            return (credential.token == self.world.application.client_token).then_some(Caller::Application);
        }
        self.state().tokens.iter().find(|(kind, token, _)| *kind == credential.kind && *token == credential.token).map(|(_, _, c)| c.clone())
    }

    async fn permissions(&self, cx: &RuleContext<'_, Caller>) -> Result<Vec<Permission>, ApiError> {
        let user = cx.caller.user()?;
        match cx.operation {
            Operation::SetVoiceChannelStatus(path) => self.channel(path.channel_id).map(|(g, c)| self.permissions_in(user, g, Some(c))),
            Operation::GetGuildChannels(path) => self.guild(path.guild_id).map(|g| self.permissions_in(user, g, None)),
            _ => Ok(Vec::new()),
        }
    }

    async fn intents(&self, cx: &RuleContext<'_, Caller>) -> Result<Vec<Intent>, ApiError> {
        Ok(match cx.caller {
            Caller::Account { intents, .. } => intents.clone(),
            Caller::Application => Vec::new(),
        })
    }

    async fn scopes(&self, cx: &RuleContext<'_, Caller>) -> Result<Vec<Scope>, ApiError> {
        Ok(match cx.caller {
            Caller::Account { scopes, .. } => scopes.clone(),
            Caller::Application => Vec::new(),
        })
    }

    async fn guild_has_feature(&self, cx: &RuleContext<'_, Caller>, feature: GuildFeature) -> Result<bool, ApiError> {
        let guild = self.operation_guild(cx.operation);
        Ok(guild.is_some_and(|g| g.features.iter().any(|f| GuildFeature::from(f.as_str()) == feature)))
    }

    async fn bot_connected_to_voice_channel(&self, cx: &RuleContext<'_, Caller>) -> Result<bool, ApiError> {
        let user = cx.caller.user()?;
        match cx.operation {
            Operation::SetVoiceChannelStatus(path) => self.channel(path.channel_id).map(|(_, c)| c.connected.contains(&user)),
            _ => Ok(false),
        }
    }

    async fn caller_is_inviter(&self, _cx: &RuleContext<'_, Caller>) -> Result<bool, ApiError> {
        // The world has no invites: no routed endpoint creates one.
        Ok(false)
    }

    async fn app_can_read_message_content(&self, cx: &RuleContext<'_, Caller>) -> Result<bool, ApiError> {
        Ok(matches!(cx.caller, Caller::Account { intents, .. } if intents.contains(&Intent::MessageContent)))
    }

    async fn large_bot_sharding(&self, _cx: &RuleContext<'_, Caller>) -> Result<bool, ApiError> {
        // The world's app runs one shard.
        Ok(false)
    }

    async fn get_current_user_connections(
        &self,
        call: Call<'_, Caller, get_current_user_connections::Request, get_current_user_connections::Gates>,
    ) -> Result<get_current_user_connections::Response, ApiError> {
        let user = call.caller.user()?;
        let gates = call.gates;
        let returned = |c: &&ConnectionEntry| match (c.service, c.created) {
            (Service::Other, _) => true,
            (Service::Launcher | Service::Publisher, Created::New) => false,
            (Service::Launcher, Created::Existing) => !gates.existing_launcher_connections_hidden,
            (Service::Publisher, Created::Existing) => !gates.legacy_publisher_connections_hidden,
        };
        let connections = self.world.connections.get(&user).map(Vec::as_slice).unwrap_or_default();
        Ok(connections.iter().filter(returned).map(|c| Connection::new(c.id.clone(), c.name.clone(), c.service_type.clone())).collect())
    }

    async fn get_guild_channels(
        &self,
        call: Call<'_, Caller, get_guild_channels::Request, get_guild_channels::Gates>,
    ) -> Result<get_guild_channels::Response, ApiError> {
        let user = call.caller.user()?;
        let guild = self.guild(call.input.path.guild_id)?;
        let mut channels = Vec::new();
        for channel in &guild.channels {
            if self.permissions_in(user, guild, Some(channel)).contains(&Permission::ViewChannel) {
                channels.push(Self::visible(channel));
            } else if !call.gates.omit_unviewable_channels {
                channels.push(Self::obfuscated(guild, channel));
            }
        }
        Ok(channels)
    }

    async fn create_or_join_lobby(&self, call: Call<'_, Caller, create_or_join_lobby::Request>) -> Result<create_or_join_lobby::Response, ApiError> {
        let user = call.caller.user()?;
        let secret = call.input.body.secret;
        let mut state = self.state();
        let joined = secret.as_ref().and_then(|s| state.lobbies.iter().position(|l| l.secret.as_ref() == Some(s)));
        let index = match joined {
            Some(i) => i,
            None => {
                let id = state.id();
                state.lobbies.push(LobbyState { id, secret, members: Vec::new(), messages: Vec::new() });
                state.lobbies.len() - 1
            }
        };
        let lobby = &mut state.lobbies[index];
        if !lobby.members.iter().any(|m| m.id.get() == user) {
            lobby.members.push(LobbyMember::new(user));
        }
        Ok(self.lobby(&state.lobbies[index]))
    }

    async fn send_lobby_message(&self, call: Call<'_, Caller, send_lobby_message::Request>) -> Result<send_lobby_message::Response, ApiError> {
        let user = call.caller.user()?;
        let mut state = self.state();
        let id = state.id();
        let lobby = Self::member_lobby(&mut state, call.input.path.lobby_id, user)?;
        let mut message = LobbyMessage::new(id, lobby.id, user, call.input.body.content);
        message.additional_name = self.world.additional_names.get(&user).cloned();
        lobby.messages.push(message.clone());
        Ok(message)
    }

    async fn get_lobby_messages(&self, call: Call<'_, Caller, get_lobby_messages::Request>) -> Result<get_lobby_messages::Response, ApiError> {
        let user = call.caller.user()?;
        let mut state = self.state();
        let lobby = Self::member_lobby(&mut state, call.input.path.lobby_id, user)?;
        let most = limits::LOBBY_MESSAGES_RETURNED.upper().and_then(|n| usize::try_from(n).ok()).unwrap_or(usize::MAX);
        Ok(lobby.messages.iter().rev().take(most).cloned().collect())
    }

    async fn bulk_update_lobby_members(
        &self,
        call: Call<'_, Caller, bulk_update_lobby_members::Request>,
    ) -> Result<bulk_update_lobby_members::Response, ApiError> {
        call.caller.user()?;
        let mut state = self.state();
        let lobby = state.lobbies.iter_mut().find(|l| l.id == call.input.path.lobby_id.get()).ok_or_else(|| ApiError::new(&errors::UNKNOWN_LOBBY))?;
        for entry in call.input.body {
            lobby.members.retain(|m| m.id != entry.id || entry.remove_member != Some(true));
            if entry.remove_member == Some(true) {
                continue;
            }
            match lobby.members.iter_mut().find(|m| m.id == entry.id) {
                Some(member) => member.metadata = entry.metadata.or(member.metadata.take()),
                None => {
                    let mut member = LobbyMember::new(entry.id);
                    member.metadata = entry.metadata;
                    lobby.members.push(member);
                }
            }
        }
        Ok(lobby.members.clone())
    }

    // The router evaluated the endpoint's permission rule before this runs: the `Granted` proof
    // in the call's type says so, and `#[endpoint]` checks it is there.
    #[platform::endpoint(set_voice_channel_status)]
    async fn set_voice_channel_status(
        &self,
        call: Call<'_, Caller, set_voice_channel_status::Request, (), Granted<granted::SetVoiceChannelStatus>>,
    ) -> Result<set_voice_channel_status::Response, ApiError> {
        let (_, channel) = self.channel(call.input.path.channel_id)?;
        if !channel.voice {
            return Err(invalid("/path/channel.id", "is not a voice channel"));
        }
        self.state().voice_status.insert(channel.id, call.input.body.status);
        Ok(())
    }

    async fn token(&self, call: Call<'_, Caller, token::Request>) -> Result<token::Response, ApiError> {
        if call.caller != Caller::Application {
            return Err(ApiError::new(&errors::UNAUTHORIZED).with_message("the token endpoint takes the application's client credentials"));
        }
        let body = call.input.body;
        let mut state = self.state();
        match body.grant_type {
            GrantType::RefreshToken => {
                let presented = body.refresh_token.ok_or_else(|| invalid("/body/refresh_token", "is required for the refresh_token grant"))?;
                let index = state.refresh_tokens.iter().position(|g| g.token == presented && !g.revoked);
                let grant = index.map(|i| state.refresh_tokens.remove(i)).ok_or_else(|| invalid_grant("the refresh token is unknown, used or revoked"))?;
                if grant.provisional_oidc {
                    call.deprecations.used(&deprecations::BEHAVIOUR_TOKEN_PROVISIONAL_OIDC_REFRESH);
                }
                Ok(self.issue(&mut state, grant.user, grant.scopes, grant.provisional_oidc))
            }
            GrantType::AuthorizationCode => {
                let presented = body.code.ok_or_else(|| invalid("/body/code", "is required for the authorization_code grant"))?;
                let index = state.codes.iter().position(|g| g.code == presented).ok_or_else(|| invalid_grant("the authorization code is unknown or used"))?;
                if state.codes[index].verifier.as_ref().is_some_and(|v| Some(v) != body.code_verifier.as_ref()) {
                    return Err(invalid_grant("the code verifier does not match the code challenge"));
                }
                let grant = state.codes.remove(index);
                Ok(self.issue(&mut state, grant.user, grant.scopes, false))
            }
            GrantType::Unknown(other) => Err(invalid("/body/grant_type", &format!("`{other}` is not a supported grant type"))),
            other => Err(invalid("/body/grant_type", &format!("`{other}` is not a supported grant type"))),
        }
    }
}

/// The router over `reference` (shared, so its owner can still look at it), addressed at
/// `origin` (`http://127.0.0.1:8080`), with every request at `now` when given. Beside the
/// platform's routes it serves the reference page and its changelog feeds where `docs_url`
/// places them, so the `Link` of a deprecation header leads somewhere.
pub fn router(reference: Arc<Reference>, origin: &str, now: Option<FixedClock>) -> axum::Router {
    router_with_body_timeout(reference, origin, now, platform_server::DEFAULT_BODY_TIMEOUT)
}

/// [`router`], waiting at most `body_timeout` for a request body.
pub fn router_with_body_timeout(reference: Arc<Reference>, origin: &str, now: Option<FixedClock>, body_timeout: std::time::Duration) -> axum::Router {
    let placeholders = Placeholders::at_origin(origin);
    let docs = docs_router(&placeholders);
    platform_server::router_with(reference, options(placeholders, now, body_timeout)).merge(docs)
}

/// The generated mock (every credential accepted, each endpoint's first success answered with
/// example values) with the options and the reference page [`router_with_body_timeout`] gives
/// the reference platform, so the two can be served and driven alike.
pub fn mock_router(origin: &str, now: Option<FixedClock>, body_timeout: std::time::Duration) -> axum::Router {
    let placeholders = Placeholders::at_origin(origin);
    let docs = docs_router(&placeholders);
    platform_server::mock::router_with(options(placeholders, now, body_timeout)).merge(docs)
}

/// The server's options: placeholders addressed at the served origin, the body timeout, and the
/// clock fixed at `now` when given.
fn options(placeholders: Placeholders, now: Option<FixedClock>, body_timeout: std::time::Duration) -> Options {
    let options = Options::default().with_placeholders(placeholders).with_body_timeout(body_timeout);
    match now {
        Some(clock) => options.with_clock(clock),
        None => options,
    }
}

/// The generated reference page at the path of `docs_url`, and the feeds beside it.
fn docs_router(placeholders: &Placeholders) -> axum::Router {
    use axum::http::header::CONTENT_TYPE;
    use axum::routing::get;
    let page = platform_server::types::placeholders::path_of(&placeholders.docs_url).to_owned();
    let dir = page.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
    let file = |content_type: &'static str, body: &'static str| get(move || async move { ([(CONTENT_TYPE, content_type)], body) });
    axum::Router::new()
        .route(&page, file("text/html; charset=utf-8", include_str!("../../generated/docs/index.html")))
        .route(&format!("{dir}/changelog.json"), file("application/feed+json", include_str!("../../generated/docs/changelog.json")))
        .route(&format!("{dir}/changelog.xml"), file("application/atom+xml", include_str!("../../generated/docs/changelog.xml")))
}
