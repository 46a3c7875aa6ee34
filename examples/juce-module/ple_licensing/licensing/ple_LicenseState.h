// The states a plugin shows. The audio thread reads only LicenseStatus (one atomic); the UI
// reads a LicenseSnapshot with the words and the dates.
#pragma once

namespace ple
{

enum class LicenseStatus : int
{
    unlicensed,    // no license key yet: silent, the editor asks for one
    checking,      // asking the service (activation or validation under way): silent until it answers
    licensed,      // the service vouched for the license (a token that passed every offline check)
    offlineGrace,  // the service is unreachable; the last good token carries the plugin until graceUntil
    refused,       // the service said no: code and message say why (EXPIRED, REVOKED, TOO_MANY_ACTIVATIONS, ...)
    error          // could not decide: offline past the grace period, the credential refused, a token that failed its checks
};

// Plays audio: licensed, or offline inside the grace period.
constexpr bool isAudible (LicenseStatus status) noexcept
{
    return status == LicenseStatus::licensed || status == LicenseStatus::offlineGrace;
}

juce::String statusName (LicenseStatus status);  // "licensed", "offline_grace", ... (stable, for logs and tests)

struct LicenseSnapshot
{
    LicenseStatus status = LicenseStatus::unlicensed;
    juce::String code;     // the service's code (VALID, REVOKED, ...) or the module's own (OFFLINE, TOKEN_REJECTED, ...)
    juce::String message;  // for a person; never holds a secret
    juce::String licenseKey;
    juce::Time graceUntil;      // offlineGrace: until when
    juce::String licenseExpiresAt;  // the license's own expiry (RFC 3339), when it has one

    // What the state means for the user, in plain words.
    juce::String describe() const;
};

// A refusal code explained for a person (TOO_MANY_ACTIVATIONS: deactivate another computer, ...).
juce::String explainCode (const juce::String& code);

}  // namespace ple
