// Offline checks of a license token (a compact JWS, EdDSA over Ed25519) with libsodium.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ple {

struct TokenCheck {
    bool ok = false;
    std::string problem;       // why not, for a person
    nlohmann::json claims;     // the payload, when the signature held
};

struct TokenExpectations {
    std::string appId;                   // aud must name it
    std::optional<std::string> nonce;    // must be echoed, when one was sent
    std::int64_t now = 0;                // unix seconds
    bool checkExpiry = true;             // false when judging a cached token by the grace period instead
};

// Signature (alg EdDSA, typ license+jwt) against the pinned key, then aud, nonce, exp and nbf.
TokenCheck checkLicenseToken(const std::string& token, const std::string& publicKeyHex, const TokenExpectations& expect);

}  // namespace ple
