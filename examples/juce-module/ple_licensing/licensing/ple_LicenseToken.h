// Offline checks of a license token (a compact JWS, EdDSA over Ed25519) with libsodium: the same
// checks as the reference native client (examples/native-client/src/license_token.cpp).
#pragma once

namespace ple
{

struct TokenExpectations
{
    juce::String appId;  // aud must name it
    juce::String nonce;  // must be echoed ("" : none was sent)
};

struct TokenCheck
{
    bool ok = false;
    juce::String problem;  // why not, for a person
    juce::var claims;      // the payload, when the signature held
    juce::int64 issuedAtS = 0;
};

// Signature (alg EdDSA, typ license+jwt) against the pinned key, then aud and the nonce.
// Time is judged by the caller: a fresh token is fresh because it echoes this call's nonce
// (a wrong clock on the user's computer must not refuse a paying user online); a cached token
// counts its offline grace from iat.
TokenCheck checkLicenseToken (const juce::String& token, const juce::String& publicKeyHex, const TokenExpectations& expect);

}  // namespace ple
