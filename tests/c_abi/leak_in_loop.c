/*
 * Negative control: leaks 100 handles from a helper function. LeakSanitizer and valgrind must
 * both report it; a harness that passes this program cannot see leaks. (LSan scans
 * conservatively and can miss a single leak in main, hence the loop.)
 */
#include "cplatform.h"

static void leak_one(void) {
    static const char scopes[] = "openid";
    Platform_AuthorizationArgs args;
    Platform_StringView view;
    view.ptr = (const uint8_t *)scopes;
    view.size = sizeof scopes - 1;
    Platform_AuthorizationArgs_Init(&args);
    Platform_AuthorizationArgs_SetScopes(&args, view);
    /* No Drop: the handle leaks. */
}

int main(void) {
    int i;
    for (i = 0; i < 100; i++) {
        leak_one();
    }
    return 0;
}
