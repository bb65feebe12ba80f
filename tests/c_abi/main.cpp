// Every class of platformpp.h from C++: copy, move, self-assignment through an alias, assignment
// from nullobj, optional set and clear, std::vector growth, use of a moved-from object, and, for
// the classes whose value semantics the spec does not list, that the wrapper gives them none.
// Links with second.cpp, which includes the header too. Exits 0 when every check holds.
#include "platformpp.h"

#include "checks.hpp"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

int failures = 0;

using platformpp::AuthorizationArgs;
using platformpp::AuthorizationCodeChallenge;

static_assert(!std::is_convertible_v<AuthorizationArgs, bool>, "operator bool is explicit");
static_assert(std::is_nothrow_move_constructible_v<AuthorizationArgs>, "moves never throw");
static_assert(std::is_nothrow_move_assignable_v<AuthorizationArgs>, "moves never throw");
static_assert(std::is_copy_constructible_v<AuthorizationArgs>, "copies are deep");
static_assert(std::is_nothrow_swappable_v<AuthorizationArgs>, "swap never throws");
static_assert(sizeof(AuthorizationArgs) == sizeof(void*), "one pointer wide");

AuthorizationArgs Filled() {
    AuthorizationArgs args;
    args.SetClientId(std::uint64_t{42});
    args.SetScopes(platformpp::ScopeSetDefaultCommunicationScopes);
    args.SetState(std::string("state\0x", 7));  // an embedded NUL must survive
    args.SetNonce("nonce");
    args.SetCodeChallenge(AuthorizationCodeChallenge());
    args.SetIntegrationType(static_cast<platformpp::IntegrationType>(3));
    args.SetCustomSchemeParam("game-scheme");
    return args;
}

bool HoldsFilled(const AuthorizationArgs& args) {
    return args && args.ClientId() == std::uint64_t{42} && args.Scopes() == platformpp::ScopeSetDefaultCommunicationScopes &&
           args.State() == std::string("state\0x", 7) && args.Nonce() == "nonce" && args.CodeChallenge().has_value() &&
           args.IntegrationType() == static_cast<platformpp::IntegrationType>(3) &&
           args.CustomSchemeParam() == "game-scheme";
}

void CheckCopyAndMove() {
    AuthorizationArgs original = Filled();
    AuthorizationArgs copy(original);
    CHECK(HoldsFilled(copy) && HoldsFilled(original));
    copy.SetNonce("changed");
    CHECK(original.Nonce() == "nonce");  // copies are deep

    AuthorizationArgs moved(std::move(original));
    CHECK(HoldsFilled(moved));
    // The moved-from object is invalid, and using it is defined: defaults out, writes ignored.
    CHECK(!original);
    CHECK(original.Scopes().empty() && !original.State() && !original.ClientId() && !original.CodeChallenge());
    original.SetState("ignored");
    CHECK(!original.State());
    AuthorizationArgs copy_of_invalid(original);
    CHECK(!copy_of_invalid);

    original = moved;  // copy-assignment into a moved-from object
    CHECK(HoldsFilled(original));
    AuthorizationArgs target;
    target = std::move(moved);
    CHECK(HoldsFilled(target) && !moved);
}

void CheckSelfAssignment() {
    AuthorizationArgs args = Filled();
    AuthorizationArgs& alias = args;
    args = alias;
    CHECK(HoldsFilled(args));
    args = std::move(alias);
    CHECK(HoldsFilled(args));
}

void CheckNullobj() {
    AuthorizationArgs args = Filled();
    args = AuthorizationArgs::nullobj;
    CHECK(!args);
    CHECK(args.Scopes().empty() && !args.Nonce());
    args = Filled();
    CHECK(HoldsFilled(args));
}

void CheckOptionals() {
    AuthorizationArgs args = Filled();
    args.SetClientId(std::nullopt);
    args.SetState(std::nullopt);
    args.SetNonce(std::nullopt);
    args.SetCodeChallenge(std::nullopt);
    args.SetIntegrationType(std::nullopt);
    args.SetCustomSchemeParam(std::nullopt);
    CHECK(!args.ClientId() && !args.State() && !args.Nonce() && !args.CodeChallenge() && !args.IntegrationType() &&
          !args.CustomSchemeParam());
    AuthorizationCodeChallenge challenge;
    AuthorizationCodeChallenge taken(std::move(challenge));
    args.SetCodeChallenge(std::move(challenge));  // a moved-from, invalid object unsets too
    CHECK(!args.CodeChallenge());
    args.SetCodeChallenge(std::move(taken));
    CHECK(args.CodeChallenge().has_value());
    args.SetState(std::string("again"));
    CHECK(args.State() == "again");
}

void CheckVectorGrowth() {
    std::vector<AuthorizationArgs> all;
    for (int i = 0; i < 64; ++i) {
        AuthorizationArgs args;
        args.SetScopes(std::to_string(i));
        all.push_back(args);
    }
    all.erase(all.begin(), all.begin() + 32);
    all.insert(all.begin(), AuthorizationArgs::nullobj);
    CHECK(all.size() == 33 && !all.front());
    for (std::size_t i = 1; i < all.size(); ++i) {
        CHECK(all[i].Scopes() == std::to_string(i + 31));
    }
}

// The spec lists `move` alone for AuthorizationCodeChallenge (AuthorizationArgs returns one by
// value): it moves, and does not copy.
static_assert(!std::is_copy_constructible_v<AuthorizationCodeChallenge>, "no copy: the spec lists move only");
static_assert(!std::is_copy_assignable_v<AuthorizationCodeChallenge>, "no copy: the spec lists move only");
static_assert(std::is_nothrow_move_constructible_v<AuthorizationCodeChallenge>, "moves never throw");
static_assert(std::is_nothrow_move_assignable_v<AuthorizationCodeChallenge>, "moves never throw");
static_assert(!std::is_constructible_v<bool, AuthorizationCodeChallenge>, "no bool: the spec does not list it");

void CheckMoveOnly() {
    AuthorizationCodeChallenge first;
    AuthorizationCodeChallenge second(std::move(first));
    first = std::move(second);
    std::vector<AuthorizationCodeChallenge> all;
    for (int i = 0; i < 16; ++i) {
        all.emplace_back();
    }
    CHECK(all.size() == 16);
}

// Classes whose value semantics the spec does not state get none: they neither copy nor move,
// and have no bool conversion; they are made and destroyed in place.
template <class T>
void CheckNoSemantics() {
    static_assert(!std::is_copy_constructible_v<T> && !std::is_copy_assignable_v<T>, "no copy");
    static_assert(!std::is_move_constructible_v<T> && !std::is_move_assignable_v<T>, "no move");
    static_assert(!std::is_constructible_v<bool, T>, "no bool");
    static_assert(sizeof(T) == sizeof(void*), "one pointer wide");
    const T object;
    (void)object;
}

}  // namespace

int main() {
    CHECK(platformpp::AbiCompatible());
    CheckCopyAndMove();
    CheckSelfAssignment();
    CheckNullobj();
    CheckOptionals();
    CheckVectorGrowth();
    CheckMoveOnly();
    CheckNoSemantics<platformpp::UserApplicationProfile>();
    CheckNoSemantics<platformpp::GuildChannel>();
    CheckNoSemantics<platformpp::VoiceSettings>();
    CheckNoSemantics<platformpp::MessageHandle>();
    CheckNoSemantics<platformpp::ClientCreateOptions>();
    const int total = failures + RunSecondTranslationUnit();
    if (total != 0) {
        std::fprintf(stderr, "%d check(s) failed\n", total);
        return 1;
    }
    return 0;
}
