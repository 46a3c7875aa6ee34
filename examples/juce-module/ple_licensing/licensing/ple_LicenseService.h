// The platform's /api/license/v1 over juce::URL (curl on Linux, the OS stack on macOS and
// Windows). Blocking: called on the Licensing worker thread only, never the audio or message thread.
#pragma once

namespace ple
{

struct ServiceAnswer
{
    bool reached = false;  // an HTTP status arrived (false: refused, timeout, DNS, ...)
    int status = 0;
    juce::var body;        // the parsed JSON answer (undefined when none)
    int retryAfterS = 0;   // from Retry-After on a 429 or 503
};

class LicenseService
{
public:
    explicit LicenseService (LicensingConfig config);

    // POST /api/license/v1/<action> with the product credential headers.
    ServiceAnswer post (const juce::String& action, const juce::var& body) const;

    // From another thread: aborts the call in flight and refuses later ones (the plugin is closing;
    // its destructor must not wait for a slow network).
    void cancel() const;

    const LicensingConfig& config() const noexcept { return config_; }

private:
    LicensingConfig config_;
    mutable juce::CriticalSection lock_;
    mutable juce::WebInputStream* current_ = nullptr;
    mutable bool cancelled_ = false;
};

// A stable id for this computer and product: BLAKE2b of juce::SystemStats::getUniqueDeviceID()
// and the App ID, so reinstalling does not use a second activation and ids do not link products.
juce::String machineInstanceId (const juce::String& appId);

// 16 random bytes as hex, for the nonce a token must echo.
juce::String newNonce();

}  // namespace ple
