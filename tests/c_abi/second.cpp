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
    CHECK(!platformpp::AuthorizationArgs::nullobj);
    CHECK(!platformpp::AuthorizationCodeChallenge::nullobj);
    CHECK(!platformpp::UserApplicationProfile::nullobj);
    CHECK(!platformpp::GuildChannel::nullobj);
    CHECK(!platformpp::VoiceSettings::nullobj);
    CHECK(!platformpp::MessageHandle::nullobj);
    CHECK(!platformpp::ClientCreateOptions::nullobj);

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
    platformpp::ClientCreateOptions copy = options;
    options.SetCpuAffinityMask(std::nullopt);
    CHECK(!options.CpuAffinityMask() && copy.CpuAffinityMask() == std::uint64_t{0x3});
    return failures;
}
