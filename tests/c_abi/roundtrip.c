/*
 * Every function of cplatform.h, called from C: set every field, clone, drop twice, read every
 * field back from the clone, free strings twice, clear the optionals, call through dropped and
 * NULL handles. Exits 0 when every check holds; prints each failed check.
 */
#include "cplatform.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                                    \
    do {                                                                                    \
        if (!(condition)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

static Platform_StringView view_of(const char *text, size_t size) {
    Platform_StringView view;
    view.ptr = (const uint8_t *)text;
    view.size = size;
    return view;
}

static Platform_StringView view(const char *text) {
    return view_of(text, strlen(text));
}

/* Bytes and size match, and the library NUL-terminated the copy. */
static int equals_bytes(Platform_String string, const char *expected, size_t size) {
    return string.ptr != NULL && string.size == size && memcmp(string.ptr, expected, size) == 0 && string.ptr[size] == 0;
}

static int equals(Platform_String string, const char *expected) {
    return equals_bytes(string, expected, strlen(expected));
}

static void check_abi_version(void) {
    uint32_t expected = ((uint32_t)PLATFORM_ABI_VERSION_MAJOR << 16) | (uint32_t)PLATFORM_ABI_VERSION_MINOR;
    CHECK(Platform_GetAbiVersion() == expected);
}

/* Constants relate as the spec says: scope sets are their scopes joined by spaces. */
static void check_constants(void) {
    CHECK(strcmp(PLATFORM_SCOPE_SET_DEFAULT_COMMUNICATION_SCOPES, PLATFORM_SCOPE_OPENID " " PLATFORM_SCOPE_SDK_SOCIAL_LAYER) == 0);
    CHECK(strcmp(PLATFORM_SCOPE_SET_DEFAULT_PRESENCE_SCOPES, PLATFORM_SCOPE_OPENID " " PLATFORM_SCOPE_SDK_SOCIAL_LAYER_PRESENCE) == 0);
    CHECK((PLATFORM_PERMISSION_PIN_MESSAGES & (PLATFORM_PERMISSION_PIN_MESSAGES - 1)) == 0);
    CHECK((PLATFORM_CHANNEL_FLAGS_CHANNEL_OBFUSCATED & PLATFORM_IDENTIFY_CAPABILITIES_PRIVATE_CHANNEL_OBFUSCATION) == 0);
}

static void fill(Platform_AuthorizationArgs *args) {
    static const char state_bytes[] = {'s', 0, 't'}; /* an embedded NUL must survive */
    Platform_StringView state = view_of(state_bytes, sizeof state_bytes);
    Platform_StringView nonce = view("nonce-1");
    Platform_StringView scheme = view("game-scheme");
    uint64_t client_id = UINT64_C(1234567890123456789);
    Platform_IntegrationType integration = 7; /* the values are not shown, so any is kept */
    Platform_AuthorizationCodeChallenge challenge;

    Platform_AuthorizationArgs_SetClientId(args, &client_id);
    Platform_AuthorizationArgs_SetScopes(args, view(PLATFORM_SCOPE_SET_DEFAULT_COMMUNICATION_SCOPES));
    Platform_AuthorizationArgs_SetState(args, &state);
    Platform_AuthorizationArgs_SetNonce(args, &nonce);
    Platform_AuthorizationCodeChallenge_Init(&challenge);
    Platform_AuthorizationArgs_SetCodeChallenge(args, &challenge);
    Platform_AuthorizationCodeChallenge_Drop(&challenge); /* the field holds its own copy */
    Platform_AuthorizationArgs_SetIntegrationType(args, &integration);
    Platform_AuthorizationArgs_SetCustomSchemeParam(args, &scheme);
}

static void check_filled(const Platform_AuthorizationArgs *args) {
    static const char state_bytes[] = {'s', 0, 't'};
    Platform_String string = {NULL, 0};
    uint64_t client_id = 0;
    Platform_IntegrationType integration = 0;
    Platform_AuthorizationCodeChallenge challenge = {NULL};

    CHECK(Platform_AuthorizationArgs_ClientId(args, &client_id) && client_id == UINT64_C(1234567890123456789));
    Platform_AuthorizationArgs_Scopes(args, &string);
    CHECK(equals(string, PLATFORM_SCOPE_SET_DEFAULT_COMMUNICATION_SCOPES));
    Platform_String_Free(&string);
    Platform_String_Free(&string); /* idempotent: the first call zeroed it */
    CHECK(string.ptr == NULL && string.size == 0);
    CHECK(Platform_AuthorizationArgs_State(args, &string) && equals_bytes(string, state_bytes, sizeof state_bytes));
    Platform_String_Free(&string);
    CHECK(Platform_AuthorizationArgs_Nonce(args, &string) && equals(string, "nonce-1"));
    Platform_Free(string.ptr);
    CHECK(Platform_AuthorizationArgs_CodeChallenge(args, &challenge) && challenge.opaque != NULL);
    Platform_AuthorizationCodeChallenge_Drop(&challenge);
    CHECK(challenge.opaque == NULL);
    CHECK(Platform_AuthorizationArgs_IntegrationType(args, &integration) && integration == 7);
    CHECK(Platform_AuthorizationArgs_CustomSchemeParam(args, &string) && equals(string, "game-scheme"));
    Platform_String_Free(&string);
}

static void check_cleared(const Platform_AuthorizationArgs *args) {
    Platform_String untouched = {NULL, 42};
    uint64_t client_id = 99;
    Platform_IntegrationType integration = 99;
    Platform_AuthorizationCodeChallenge challenge = {NULL};

    CHECK(!Platform_AuthorizationArgs_ClientId(args, &client_id) && client_id == 99);
    CHECK(!Platform_AuthorizationArgs_State(args, &untouched) && untouched.size == 42);
    CHECK(!Platform_AuthorizationArgs_Nonce(args, &untouched) && untouched.size == 42);
    CHECK(!Platform_AuthorizationArgs_CodeChallenge(args, &challenge) && challenge.opaque == NULL);
    CHECK(!Platform_AuthorizationArgs_IntegrationType(args, &integration) && integration == 99);
    CHECK(!Platform_AuthorizationArgs_CustomSchemeParam(args, &untouched) && untouched.size == 42);
}

static void clear(Platform_AuthorizationArgs *args) {
    Platform_AuthorizationCodeChallenge empty = {NULL};
    Platform_AuthorizationArgs_SetClientId(args, NULL);
    Platform_AuthorizationArgs_SetState(args, NULL);
    Platform_AuthorizationArgs_SetNonce(args, NULL);
    Platform_AuthorizationArgs_SetCodeChallenge(args, &empty); /* an empty handle unsets too */
    Platform_AuthorizationArgs_SetIntegrationType(args, NULL);
    Platform_AuthorizationArgs_SetCustomSchemeParam(args, NULL);
}

static void check_authorization_args(void) {
    Platform_AuthorizationArgs args;
    Platform_AuthorizationArgs copy;
    Platform_AuthorizationArgs from_empty;
    Platform_String scopes = {NULL, 0};

    Platform_AuthorizationArgs_Init(&args);
    CHECK(args.opaque != NULL);
    check_cleared(&args); /* a new object has every optional unset */
    Platform_AuthorizationArgs_Scopes(&args, &scopes);
    CHECK(equals(scopes, ""));
    Platform_String_Free(&scopes);

    fill(&args);
    Platform_AuthorizationArgs_Clone(&copy, &args);
    Platform_AuthorizationArgs_Drop(&args);
    Platform_AuthorizationArgs_Drop(&args); /* idempotent */
    CHECK(args.opaque == NULL);
    check_filled(&copy);

    /* A dropped handle: setters do nothing, getters report nothing, clones are empty. */
    fill(&args);
    check_cleared(&args);
    Platform_AuthorizationArgs_Scopes(&args, &scopes);
    CHECK(scopes.ptr == NULL && scopes.size == 0);
    Platform_AuthorizationArgs_Clone(&from_empty, &args);
    CHECK(from_empty.opaque == NULL);

    /* NULL handles are no-ops too. */
    Platform_AuthorizationArgs_Drop(NULL);
    Platform_AuthorizationArgs_Init(NULL);
    CHECK(!Platform_AuthorizationArgs_State(NULL, &scopes));
    Platform_AuthorizationArgs_SetScopes(NULL, view("ignored"));

    /* A NULL view of size 0 is the empty string. */
    Platform_AuthorizationArgs_SetScopes(&copy, view_of(NULL, 0));
    Platform_AuthorizationArgs_Scopes(&copy, &scopes);
    CHECK(equals(scopes, ""));
    Platform_String_Free(&scopes);

    clear(&copy);
    check_cleared(&copy);
    Platform_AuthorizationArgs_Drop(&copy);
}

static void check_client_create_options(void) {
    Platform_ClientCreateOptions options;
    Platform_ClientCreateOptions copy;
    uint64_t mask = UINT64_C(0xF0);
    uint64_t read = 0;

    Platform_ClientCreateOptions_Init(&options);
    CHECK(!Platform_ClientCreateOptions_CpuAffinityMask(&options, &read));
    Platform_ClientCreateOptions_SetCpuAffinityMask(&options, &mask);
    Platform_ClientCreateOptions_Clone(&copy, &options);
    Platform_ClientCreateOptions_SetCpuAffinityMask(&options, NULL);
    CHECK(!Platform_ClientCreateOptions_CpuAffinityMask(&options, &read));
    CHECK(Platform_ClientCreateOptions_CpuAffinityMask(&copy, &read) && read == mask);
    CHECK(Platform_ClientCreateOptions_CpuAffinityMask(&copy, NULL)); /* NULL out: presence only */
    Platform_ClientCreateOptions_Drop(&options);
    Platform_ClientCreateOptions_Drop(&copy);
}

/* Opaque classes have only their lifecycle; the same checks for each. */
#define CHECK_LIFECYCLE(Class, Init, Clone, Drop) \
    do {                                          \
        Class object;                             \
        Class copy;                               \
        Init(&object);                            \
        CHECK(object.opaque != NULL);             \
        Clone(&copy, &object);                    \
        CHECK(copy.opaque != NULL);               \
        Drop(&object);                            \
        Drop(&object);                            \
        CHECK(object.opaque == NULL);             \
        Clone(&object, &object);                  \
        CHECK(object.opaque == NULL);             \
        Drop(&copy);                              \
    } while (0)

static void check_opaque_classes(void) {
    CHECK_LIFECYCLE(Platform_AuthorizationCodeChallenge, Platform_AuthorizationCodeChallenge_Init,
                    Platform_AuthorizationCodeChallenge_Clone, Platform_AuthorizationCodeChallenge_Drop);
    CHECK_LIFECYCLE(Platform_UserApplicationProfile, Platform_UserApplicationProfile_Init,
                    Platform_UserApplicationProfile_Clone, Platform_UserApplicationProfile_Drop);
    CHECK_LIFECYCLE(Platform_GuildChannel, Platform_GuildChannel_Init, Platform_GuildChannel_Clone,
                    Platform_GuildChannel_Drop);
    CHECK_LIFECYCLE(Platform_VoiceSettings, Platform_VoiceSettings_Init, Platform_VoiceSettings_Clone,
                    Platform_VoiceSettings_Drop);
    CHECK_LIFECYCLE(Platform_MessageHandle, Platform_MessageHandle_Init, Platform_MessageHandle_Clone,
                    Platform_MessageHandle_Drop);
}

int main(void) {
    check_abi_version();
    check_constants();
    check_authorization_args();
    check_client_create_options();
    check_opaque_classes();
    if (failures != 0) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    return 0;
}
