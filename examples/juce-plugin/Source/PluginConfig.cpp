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

ple::LicensingConfig exampleLicensingConfig()
{
    auto config = PLE_LICENSING_CONFIG_FROM_HEADER (plugin_license_config);
#ifdef PLE_PUBLIC_KEY_HEX
    // From the exported header, or -DPLE_PUBLIC_KEY_HEX=... (GET /api/license/v1/public-key).
    config.publicKeyHex = PLE_PUBLIC_KEY_HEX;
#endif
    config.vendorFolder = "PLE Examples";
    config.productFolder = "PLE Licensed Gain";
    return config;
}
