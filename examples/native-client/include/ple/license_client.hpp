// Plugin License Emulator: a reference native client.
//
// What a plugin does to license itself: verify its credential, activate this machine, validate
// (on load and on a timer), deactivate. Every license_token the service returns is checked
// offline with the pinned public key (signature, audience, expiry, the nonce sent); the last
// good one is kept on disk so the plugin keeps working offline for a grace period.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ple {

struct Config {
    std::string baseUrl;       // e.g. http://127.0.0.1:4747
    std::string appId;         // app_... (not a secret)
    std::string pluginKey;     // pk_...  (sensitive in logs)
    std::string pluginSecret;  // sk_...  (never logged)
    std::string productId;     // prod_... (connection verification)
    std::string publicKeyHex;  // the service's Ed25519 key, pinned at build time (GET /api/license/v1/public-key)
    std::string headerPrefix = "svc";
    std::string cacheDir;      // where the last good token is kept ("" : no cache)
    std::int64_t offlineGraceS = 7 * 24 * 3600;  // how long a cached token carries the plugin offline
    long timeoutMs = 5000;
    std::int64_t maxRetryWaitS = 60;  // the longest Retry-After honoured
    std::string instanceId;    // "" : derived from the machine (stable, see machineInstanceId)

    // PLE_BASE_URL, PLE_APP_ID, PLE_PLUGIN_KEY, PLE_PLUGIN_SECRET, PLE_PRODUCT_ID,
    // PLE_PUBLIC_KEY_HEX, PLE_HEADER_PREFIX, PLE_CACHE_DIR, PLE_OFFLINE_GRACE_S, PLE_TIMEOUT_MS,
    // PLE_MAX_RETRY_WAIT_S, PLE_INSTANCE_ID; unset ones keep the values already in `base`.
    static Config fromEnvironment(Config base);
};

enum class Outcome {
    Ok,             // the call succeeded (or a valid cached token carried it offline)
    LicenseRefused, // the service answered with a licensing code other than VALID
    AuthFailed,     // the credential was refused (wrong secret, revoked, unknown product)
    Offline,        // no answer (refused, timeout, 5xx) and no usable cached token
    RateLimited,    // 429, still after waiting Retry-After
    TokenRejected,  // a license_token (fresh or cached) failed its offline checks
    BadInput        // a call the client could not even make (missing configuration)
};

struct Result {
    Outcome outcome = Outcome::BadInput;
    std::string code;        // VALID, EXPIRED, TOO_MANY_ACTIVATIONS, PRODUCT_CREDENTIAL_INVALID, ...
    std::string message;     // for a person; never holds a secret
    std::string source;      // "server" or "cache"
    int httpStatus = 0;
    std::int64_t waitedS = 0;            // Retry-After honoured before the final answer
    std::optional<std::string> expiresAt;
    std::optional<std::string> graceUntil;
    std::optional<std::int64_t> offlineUntil;  // cached token: until when it carries the plugin (unix s)
};

class LicenseClient {
public:
    explicit LicenseClient(Config config);

    // Where each call goes in a plugin: verifyConnection during development and in CI;
    // activate from the activation dialog; validate on load and on a timer; deactivate when
    // the user moves the license to another machine.
    Result verifyConnection();
    Result activate(const std::string& licenseKey);
    Result validate(const std::string& licenseKey);
    Result deactivate(const std::string& licenseKey);

    const std::string& instanceId() const { return instanceId_; }
    // The time used for token and grace checks; a test or a tool can pin it (unix seconds).
    void setNow(std::int64_t unixSeconds) { now_ = unixSeconds; }

private:
    struct Http;
    Result licensing(const std::string& action, const std::string& licenseKey, bool expectToken);
    Result fromCache(const std::string& licenseKey, Result offline);
    std::int64_t now() const;

    Config config_;
    std::string instanceId_;
    std::optional<std::int64_t> now_;
};

// A stable id for this machine and product: BLAKE2b of the OS machine id (or host name) and the
// App ID, so the same machine activates once per product and ids do not link products.
std::string machineInstanceId(const std::string& appId);

const char* outcomeName(Outcome outcome);

}  // namespace ple
