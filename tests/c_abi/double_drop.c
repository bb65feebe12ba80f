/*
 * Negative control: copying a handle struct by value makes an alias, and dropping both frees the
 * object twice. AddressSanitizer and valgrind must both report it.
 */
#include "cplatform.h"

int main(void) {
    static const char scopes[] = "openid";
    Platform_AuthorizationArgs args;
    Platform_AuthorizationArgs alias;
    Platform_StringView view;
    view.ptr = (const uint8_t *)scopes;
    view.size = sizeof scopes - 1;
    Platform_AuthorizationArgs_Init(&args);
    Platform_AuthorizationArgs_SetScopes(&args, view);
    alias = args; /* an alias, not a copy */
    Platform_AuthorizationArgs_Drop(&args);
    Platform_AuthorizationArgs_Drop(&alias);
    return 0;
}
