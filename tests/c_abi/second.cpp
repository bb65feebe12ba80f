// The second translation unit: platformpp.h included twice in one program links with no
// duplicate symbols, and `nullobj` and the constants are the same objects here.
#include "platformpp.h"

#include "checks.hpp"

#include <string>
#include <vector>

namespace {

int failures = 0;

platformpp::AuthorizationArgs MakeArgs(const std::string& scopes) {
    platformpp::AuthorizationArgs args;
    args.SetScopes(scopes);
    return args;
}

}  // namespace

int RunSecondTranslationUnit() {
    // Only AuthorizationArgs has a nullobj: the spec lists it for no other class.
    CHECK(!platformpp::AuthorizationArgs::nullobj);

    // Copying nullobj gives another invalid object whose accessors return defaults.
    platformpp::AuthorizationArgs invalid = platformpp::AuthorizationArgs::nullobj;
    CHECK(!invalid && invalid.Scopes().empty() && !invalid.State());

    // Objects made here and copied by value keep their values.
    std::vector<platformpp::AuthorizationArgs> made;
    made.push_back(MakeArgs(std::string(platformpp::ScopeSetDefaultPresenceScopes)));
    made.push_back(made.front());
    CHECK(made.back().Scopes() == platformpp::ScopeSetDefaultPresenceScopes);

    platformpp::ClientCreateOptions options;
    options.SetCpuAffinityMask(0x3);
    CHECK(options.CpuAffinityMask() == std::uint64_t{0x3});
    options.SetCpuAffinityMask(std::nullopt);
    CHECK(!options.CpuAffinityMask());
    return failures;
}
