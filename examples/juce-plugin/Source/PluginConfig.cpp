// The only file that sees the exported header: a new credential rebuilds this file alone.
#include "PluginConfig.h"

#ifdef PLE_CONFIG_HEADER
 #include PLE_CONFIG_HEADER
#else
namespace plugin_license_config
{
inline constexpr const char* kApiBaseUrl = "http://127.0.0.1:4747";
inline constexpr const char* kAppId = "app_CiSynth00000000000000001";
inline constexpr const char* kPluginKey = "pk_CiSynthPluginKey00000000000001";
inline constexpr const char* kPluginSecret = "sk_CiSynthPluginSecret000000000000001";
inline constexpr const char* kProductId = "prod_demo_synth";
}  // namespace plugin_license_config
#endif

#ifndef PLE_PUBLIC_KEY_HEX
// Qualified lookup finds a PLE_PUBLIC_KEY_HEX the header declared in its namespace first; only
// when it declared none does it look through this using-directive and find the empty fallback.
namespace ple_header_fallback
{
inline constexpr const char* PLE_PUBLIC_KEY_HEX = "";
}
namespace plugin_license_config
{
using namespace ple_header_fallback;
}
#endif

ple::LicensingConfig exampleLicensingConfig()
{
    auto config = PLE_LICENSING_CONFIG_FROM_HEADER (plugin_license_config);
    // The key the plugin pins (GET /api/license/v1/public-key): a macro from the exported header
    // or -DPLE_PUBLIC_KEY_HEX=..., else the header's constant of that name, else none.
#ifdef PLE_PUBLIC_KEY_HEX
    config.publicKeyHex = PLE_PUBLIC_KEY_HEX;
#else
    config.publicKeyHex = plugin_license_config::PLE_PUBLIC_KEY_HEX;
#endif
    config.vendorFolder = "PLE Examples";
    config.productFolder = "PLE Licensed Gain";
    // The tests shorten how long a non-realtime render waits for a check (default 10 s) to see
    // it give up against a server that does not answer.
    if (const auto waitMs = juce::SystemStats::getEnvironmentVariable ("PLE_EXAMPLE_NONREALTIME_WAIT_MS", {}); waitMs.isNotEmpty())
        config.nonRealtimeWait = juce::RelativeTime::milliseconds (waitMs.getIntValue());
    return config;
}
