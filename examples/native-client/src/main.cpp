// license-cli: one step of a plugin's licensing per run, printed as one JSON line.
//
//   license-cli verify
//   license-cli activate|validate|deactivate --license KEY [--now UNIX_SECONDS]
//
// Configuration: the header the desktop UI exports (when built with -DPLE_CONFIG_HEADER=...),
// then the PLE_* environment variables (see Config::fromEnvironment). Exit codes: 0 ok,
// 2 usage, 10 license refused, 11 credential refused, 12 offline, 13 rate limited,
// 14 token rejected. No secret and no token is ever printed.
#include "ple/license_client.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#ifdef PLE_CONFIG_HEADER
#include PLE_CONFIG_HEADER
#endif

namespace {

ple::Config baseConfig() {
    ple::Config config;
#ifdef PLE_CONFIG_HEADER
    config.baseUrl = plugin_license_config::kApiBaseUrl;
    config.appId = plugin_license_config::kAppId;
    config.pluginKey = plugin_license_config::kPluginKey;
    config.pluginSecret = plugin_license_config::kPluginSecret;
    config.productId = plugin_license_config::kProductId;
    config.headerPrefix = plugin_license_config::kHeaderPrefix;
    config.publicKeyHex = plugin_license_config::PLE_PUBLIC_KEY_HEX;
#endif
    return config;
}

int exitCode(ple::Outcome outcome) {
    switch (outcome) {
        case ple::Outcome::Ok: return 0;
        case ple::Outcome::LicenseRefused: return 10;
        case ple::Outcome::AuthFailed: return 11;
        case ple::Outcome::Offline: return 12;
        case ple::Outcome::RateLimited: return 13;
        case ple::Outcome::TokenRejected: return 14;
        case ple::Outcome::BadInput: return 2;
    }
    return 1;
}

int usage() {
    std::cerr << "usage: license-cli verify\n"
                 "       license-cli activate|validate|deactivate --license KEY [--now UNIX_SECONDS]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string command = argv[1];
    std::string licenseKey;
    std::optional<long long> now;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--license" && i + 1 < argc) licenseKey = argv[++i];
        else if (arg == "--now" && i + 1 < argc) now = std::atoll(argv[++i]);
        else return usage();
    }
    try {
        ple::LicenseClient client(ple::Config::fromEnvironment(baseConfig()));
        if (now) client.setNow(*now);
        ple::Result result;
        if (command == "verify") result = client.verifyConnection();
        else if (licenseKey.empty()) return usage();
        else if (command == "activate") result = client.activate(licenseKey);
        else if (command == "validate") result = client.validate(licenseKey);
        else if (command == "deactivate") result = client.deactivate(licenseKey);
        else return usage();

        nlohmann::json line = {{"command", command},       {"outcome", ple::outcomeName(result.outcome)},
                               {"code", result.code},      {"message", result.message},
                               {"source", result.source},  {"http_status", result.httpStatus},
                               {"waited_s", result.waitedS}, {"instance_id", client.instanceId()}};
        if (result.expiresAt) line["expires_at"] = *result.expiresAt;
        if (result.graceUntil) line["grace_until"] = *result.graceUntil;
        if (result.offlineUntil) line["offline_until"] = *result.offlineUntil;
        std::cout << line.dump() << std::endl;
        return exitCode(result.outcome);
    } catch (const std::exception& error) {
        std::cerr << "license-cli: " << error.what() << '\n';
        return 1;
    }
}
