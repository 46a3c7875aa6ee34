// What a plugin tells the module: where the service is, its product credential (from the header
// the desktop UI exports), the public key it pins, and how patient to be offline.
#pragma once

namespace ple
{

struct LicensingConfig
{
    juce::String baseUrl;       // e.g. http://127.0.0.1:4747 (the emulator) or the platform's URL
    juce::String appId;         // app_...  (not a secret; the tokens' audience)
    juce::String pluginKey;     // pk_...   (sensitive in logs)
    juce::String pluginSecret;  // sk_...   (never shown, never logged)
    juce::String productId;     // prod_...
    juce::String publicKeyHex;  // the service's Ed25519 key, pinned at build time (GET /api/license/v1/public-key)
    juce::String headerPrefix { "svc" };

    // Where the last good token is kept: <user application data>/<vendorFolder>/<productFolder>/license.json
    // (~/.config on Linux, ~/Library on macOS, %APPDATA% on Windows).
    juce::String vendorFolder { "PluginLicenseEmulator" };
    juce::String productFolder;  // "" : the App ID

    // How long the last good token carries the plugin when the service cannot be reached,
    // counted from when the service issued it.
    juce::RelativeTime offlineGrace = juce::RelativeTime::days (7);
    // How often a running plugin validates again (hours, not seconds).
    juce::RelativeTime revalidateEvery = juce::RelativeTime::hours (6);
    // After a failed attempt (offline, 5xx), when to try again unless Retry-After says otherwise.
    juce::RelativeTime retryOfflineEvery = juce::RelativeTime::minutes (5);
    int timeoutMs = 5000;
    // A non-realtime render (a bounce, an export) that reaches processBlock while a check is in
    // progress waits this long at most for its decision (once per check), then follows it.
    juce::RelativeTime nonRealtimeWait = juce::RelativeTime::seconds (10);
    int maxRetryWaitS = 60;  // the longest Retry-After waited out inside one call

    juce::File cacheFile() const;
    bool isComplete() const;
};

}  // namespace ple

// The header the desktop UI exports (Credentials > Export > C++ header) declares its values in a
// namespace; one line turns them into a config (the public key is set beside it, see the README):
//   auto config = PLE_LICENSING_CONFIG_FROM_HEADER (plugin_license_config);
#define PLE_LICENSING_CONFIG_FROM_HEADER(ns)                                                   \
    [] {                                                                                       \
        ::ple::LicensingConfig c;                                                              \
        c.baseUrl = ns::kApiBaseUrl;                                                           \
        c.appId = ns::kAppId;                                                                  \
        c.pluginKey = ns::kPluginKey;                                                          \
        c.pluginSecret = ns::kPluginSecret;                                                    \
        c.productId = ns::kProductId;                                                          \
        return c;                                                                              \
    }()
