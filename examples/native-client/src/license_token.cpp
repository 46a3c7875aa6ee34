#include "license_token.hpp"

#include <sodium.h>

#include <vector>

namespace ple {
namespace {

std::optional<std::vector<unsigned char>> base64url(const std::string& text) {
    std::vector<unsigned char> out(text.size());
    size_t length = 0;
    if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &length, nullptr,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0) {
        return std::nullopt;
    }
    out.resize(length);
    return out;
}

std::optional<nlohmann::json> jsonPart(const std::string& part) {
    auto bytes = base64url(part);
    if (!bytes) return std::nullopt;
    auto parsed = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
    return parsed;
}

TokenCheck refuse(std::string problem) {
    TokenCheck check;
    check.problem = std::move(problem);
    return check;
}

bool audienceNames(const nlohmann::json& aud, const std::string& appId) {
    if (aud.is_string()) return aud.get<std::string>() == appId;
    if (aud.is_array()) {
        for (const auto& entry : aud) {
            if (entry.is_string() && entry.get<std::string>() == appId) return true;
        }
    }
    return false;
}

}  // namespace

TokenCheck checkLicenseToken(const std::string& token, const std::string& publicKeyHex, const TokenExpectations& expect) {
    if (sodium_init() < 0) return refuse("libsodium could not start");
    const auto first = token.find('.');
    const auto second = first == std::string::npos ? std::string::npos : token.find('.', first + 1);
    if (second == std::string::npos || token.find('.', second + 1) != std::string::npos) return refuse("not a compact JWS");

    unsigned char key[crypto_sign_PUBLICKEYBYTES];
    size_t keyLength = 0;
    if (sodium_hex2bin(key, sizeof key, publicKeyHex.data(), publicKeyHex.size(), nullptr, &keyLength, nullptr) != 0 ||
        keyLength != sizeof key) {
        return refuse("the pinned public key is not 32 bytes of hex");
    }
    const auto header = jsonPart(token.substr(0, first));
    if (!header) return refuse("unreadable header");
    if (header->value("alg", "") != "EdDSA" || header->value("typ", "") != "license+jwt") return refuse("not an EdDSA license+jwt");
    const auto signature = base64url(token.substr(second + 1));
    if (!signature || signature->size() != crypto_sign_BYTES) return refuse("bad signature encoding");
    const std::string signingInput = token.substr(0, second);
    if (crypto_sign_verify_detached(signature->data(), reinterpret_cast<const unsigned char*>(signingInput.data()),
                                    signingInput.size(), key) != 0) {
        return refuse("signature does not verify with the pinned key");
    }
    const auto claims = jsonPart(token.substr(first + 1, second - first - 1));
    if (!claims) return refuse("unreadable claims");
    if (!audienceNames(claims->value("aud", nlohmann::json()), expect.appId)) return refuse("issued for another App ID");
    if (expect.nonce && claims->value("nonce", "") != *expect.nonce) return refuse("nonce does not match the one sent");
    const auto exp = claims->value("exp", std::int64_t{0});
    const auto nbf = claims->value("nbf", std::int64_t{0});
    if (expect.checkExpiry && exp <= expect.now) return refuse("expired");
    if (nbf > expect.now + 60) return refuse("not valid yet");
    TokenCheck check;
    check.ok = true;
    check.claims = *claims;
    return check;
}

}  // namespace ple
