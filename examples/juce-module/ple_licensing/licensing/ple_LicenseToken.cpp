namespace ple
{
namespace
{

std::optional<juce::MemoryBlock> base64url (const juce::String& text)
{
    const auto utf8 = text.toStdString();
    juce::MemoryBlock out (utf8.size() + 1);
    size_t length = 0;
    if (sodium_base642bin (static_cast<unsigned char*> (out.getData()), out.getSize(), utf8.data(), utf8.size(), nullptr, &length,
                           nullptr, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
        return std::nullopt;
    out.setSize (length);
    return out;
}

juce::var jsonPart (const juce::String& part)
{
    const auto bytes = base64url (part);
    if (! bytes) return {};
    const auto parsed = juce::JSON::parse (bytes->toString());
    return parsed.isObject() ? parsed : juce::var();
}

TokenCheck refuse (const juce::String& problem)
{
    TokenCheck check;
    check.problem = problem;
    return check;
}

bool audienceNames (const juce::var& aud, const juce::String& appId)
{
    if (aud.isString()) return aud.toString() == appId;
    if (const auto* list = aud.getArray())
        for (const auto& entry : *list)
            if (entry.isString() && entry.toString() == appId) return true;
    return false;
}

}  // namespace

TokenCheck checkLicenseToken (const juce::String& token, const juce::String& publicKeyHex, const TokenExpectations& expect)
{
    if (sodium_init() < 0) return refuse ("libsodium could not start");
    const auto parts = juce::StringArray::fromTokens (token, ".", "");
    if (parts.size() != 3 || token.containsChar (' ')) return refuse ("not a compact JWS");

    unsigned char key[crypto_sign_PUBLICKEYBYTES];
    size_t keyLength = 0;
    const auto hex = publicKeyHex.toStdString();
    if (sodium_hex2bin (key, sizeof key, hex.data(), hex.size(), nullptr, &keyLength, nullptr) != 0 || keyLength != sizeof key)
        return refuse ("the pinned public key is not 32 bytes of hex");

    const auto header = jsonPart (parts[0]);
    if (header["alg"].toString() != "EdDSA" || header["typ"].toString() != "license+jwt") return refuse ("not an EdDSA license+jwt");
    const auto signature = base64url (parts[2]);
    if (! signature || signature->getSize() != crypto_sign_BYTES) return refuse ("bad signature encoding");
    const auto signingInput = (parts[0] + "." + parts[1]).toStdString();
    if (crypto_sign_verify_detached (static_cast<const unsigned char*> (signature->getData()),
                                     reinterpret_cast<const unsigned char*> (signingInput.data()), signingInput.size(), key) != 0)
        return refuse ("signature does not verify with the pinned key");

    const auto claims = jsonPart (parts[1]);
    if (! claims.isObject()) return refuse ("unreadable claims");
    if (! audienceNames (claims["aud"], expect.appId)) return refuse ("issued for another App ID");
    if (expect.nonce.isNotEmpty() && claims["nonce"].toString() != expect.nonce) return refuse ("nonce does not match the one sent");
    const auto iat = static_cast<juce::int64> (claims["iat"]);
    const auto exp = static_cast<juce::int64> (claims["exp"]);
    if (iat <= 0 || exp <= iat) return refuse ("no usable iat/exp");

    TokenCheck check;
    check.ok = true;
    check.claims = claims;
    check.issuedAtS = iat;
    return check;
}

}  // namespace ple
