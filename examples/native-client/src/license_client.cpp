#include "ple/license_client.hpp"

#include "license_token.hpp"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <sodium.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace ple {
namespace {

using nlohmann::json;

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

// A license key becomes part of a file name: keep it to a safe alphabet.
std::string fileSafe(const std::string& text) {
    std::string out;
    for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return out;
}

std::string newNonce() {
    unsigned char bytes[16];
    randombytes_buf(bytes, sizeof bytes);
    char hex[sizeof bytes * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
    return hex;
}

struct Response {
    bool reached = false;  // a status line arrived
    long status = 0;
    std::string body;
    std::int64_t retryAfterS = 0;
    std::string transportError;
};

size_t collectBody(char* data, size_t size, size_t count, void* target) {
    static_cast<std::string*>(target)->append(data, size * count);
    return size * count;
}

size_t collectHeader(char* data, size_t size, size_t count, void* target) {
    std::string line(data, size * count);
    const std::string name = "retry-after:";
    if (line.size() > name.size()) {
        std::string lower = line.substr(0, name.size());
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == name) static_cast<Response*>(target)->retryAfterS = std::atoll(line.c_str() + name.size());
    }
    return size * count;
}

std::string messageOf(const json& body, const std::string& fallback) {
    return body.is_object() && body.contains("message") && body["message"].is_string() ? body["message"].get<std::string>() : fallback;
}

std::optional<std::string> stringField(const json& object, const char* name) {
    if (object.is_object() && object.contains(name) && object[name].is_string()) return object[name].get<std::string>();
    return std::nullopt;
}

}  // namespace

struct LicenseClient::Http {
    static Response post(const Config& config, const std::string& path, const json& body, bool credentialHeaders) {
        Response response;
        CURL* curl = curl_easy_init();
        if (!curl) {
            response.transportError = "curl could not start";
            return response;
        }
        const std::string url = config.baseUrl + path;
        const std::string payload = body.dump();
        curl_slist* headers = curl_slist_append(nullptr, "content-type: application/json");
        if (credentialHeaders) {
            const std::string p = "x-" + config.headerPrefix;
            headers = curl_slist_append(headers, (p + "-app-id: " + config.appId).c_str());
            headers = curl_slist_append(headers, (p + "-plugin-key: " + config.pluginKey).c_str());
            headers = curl_slist_append(headers, (p + "-plugin-secret: " + config.pluginSecret).c_str());
        }
        curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, payload.c_str());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, config.timeoutMs);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collectBody);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collectHeader);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
        const CURLcode code = curl_easy_perform(curl);
        if (code == CURLE_OK) {
            response.reached = true;
            curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
        } else {
            response.transportError = curl_easy_strerror(code);
        }
        curl_slist_free_all(headers);
        curl_easy_cleanup(curl);
        return response;
    }

    // 429: wait Retry-After (bounded) and try again, once; what comes back is the answer.
    static Response postHonouringRateLimits(const Config& config, const std::string& path, const json& body, bool credentialHeaders,
                                            std::int64_t& waitedS) {
        Response response = post(config, path, body, credentialHeaders);
        if (response.reached && response.status == 429) {
            // At least a second either way: a cap of 0 (or less) must not turn the wait into an instant retry.
            const std::int64_t wait = std::min<std::int64_t>(std::max<std::int64_t>(response.retryAfterS, 1),
                                                             std::max<std::int64_t>(config.maxRetryWaitS, 1));
            std::this_thread::sleep_for(std::chrono::seconds(wait));
            waitedS += wait;
            response = post(config, path, body, credentialHeaders);
        }
        return response;
    }
};

Config Config::fromEnvironment(Config base) {
    auto set = [](std::string& field, const char* name) {
        const std::string value = env(name);
        if (!value.empty()) field = value;
    };
    set(base.baseUrl, "PLE_BASE_URL");
    set(base.appId, "PLE_APP_ID");
    set(base.pluginKey, "PLE_PLUGIN_KEY");
    set(base.pluginSecret, "PLE_PLUGIN_SECRET");
    set(base.productId, "PLE_PRODUCT_ID");
    set(base.publicKeyHex, "PLE_PUBLIC_KEY_HEX");
    set(base.headerPrefix, "PLE_HEADER_PREFIX");
    set(base.cacheDir, "PLE_CACHE_DIR");
    set(base.instanceId, "PLE_INSTANCE_ID");
    if (!env("PLE_OFFLINE_GRACE_S").empty()) base.offlineGraceS = std::atoll(env("PLE_OFFLINE_GRACE_S").c_str());
    if (!env("PLE_TIMEOUT_MS").empty()) base.timeoutMs = std::atol(env("PLE_TIMEOUT_MS").c_str());
    if (!env("PLE_MAX_RETRY_WAIT_S").empty()) base.maxRetryWaitS = std::atoll(env("PLE_MAX_RETRY_WAIT_S").c_str());
    while (!base.baseUrl.empty() && base.baseUrl.back() == '/') base.baseUrl.pop_back();
    return base;
}

LicenseClient::LicenseClient(Config config) : config_(std::move(config)) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
    curl_global_init(CURL_GLOBAL_DEFAULT);
    instanceId_ = config_.instanceId.empty() ? machineInstanceId(config_.appId) : config_.instanceId;
}

std::int64_t LicenseClient::now() const {
    if (now_) return *now_;
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Result LicenseClient::verifyConnection() {
    Result result;
    result.source = "server";
    const json body = {{"productId", config_.productId}, {"appId", config_.appId}, {"pluginKey", config_.pluginKey}, {"pluginSecret", config_.pluginSecret}};
    const Response response = Http::postHonouringRateLimits(config_, "/api/plugin-connections/verify", body, false, result.waitedS);
    result.httpStatus = static_cast<int>(response.status);
    const json answer = json::parse(response.body, nullptr, false);
    if (!response.reached || response.status >= 500) {
        result.outcome = Outcome::Offline;
        result.message = response.reached ? "the service answered " + std::to_string(response.status) : response.transportError;
    } else if (response.status == 429) {
        result.outcome = Outcome::RateLimited;
        result.message = messageOf(answer, "rate limited");
    } else if (response.status == 200) {
        result.outcome = Outcome::Ok;
        result.code = "VERIFIED";
        result.message = "the App ID, plugin key and plugin secret belong together";
    } else {
        result.outcome = Outcome::AuthFailed;
        result.code = stringField(answer, "reason").value_or(stringField(answer, "error").value_or("HTTP_" + std::to_string(response.status)));
        result.message = messageOf(answer, "verification failed");
    }
    return result;
}

Result LicenseClient::activate(const std::string& licenseKey) { return licensing("activate", licenseKey, true); }
Result LicenseClient::validate(const std::string& licenseKey) { return licensing("validate", licenseKey, true); }
Result LicenseClient::deactivate(const std::string& licenseKey) { return licensing("deactivate", licenseKey, false); }

Result LicenseClient::licensing(const std::string& action, const std::string& licenseKey, bool expectToken) {
    Result result;
    result.source = "server";
    if (config_.baseUrl.empty() || config_.appId.empty() || config_.pluginKey.empty() || config_.pluginSecret.empty()) {
        result.message = "missing configuration: base URL, App ID, plugin key and plugin secret are all needed";
        return result;
    }
    const std::string nonce = newNonce();
    json body = {{"license_key", licenseKey}, {"instance_id", instanceId_}};
    if (expectToken) body["nonce"] = nonce;
    const Response response = Http::postHonouringRateLimits(config_, "/api/license/v1/" + action, body, true, result.waitedS);
    result.httpStatus = static_cast<int>(response.status);
    if (!response.reached || response.status >= 500) {
        result.outcome = Outcome::Offline;
        result.message = response.reached ? "the service answered " + std::to_string(response.status) : response.transportError;
        return action == "validate" ? fromCache(licenseKey, result) : result;
    }
    const json answer = json::parse(response.body, nullptr, false);
    if (response.status == 429) {
        result.outcome = Outcome::RateLimited;
        result.code = "RATE_LIMITED";
        result.message = messageOf(answer, "rate limited");
        return result;
    }
    if (response.status == 401) {
        result.outcome = Outcome::AuthFailed;
        result.code = stringField(answer, "error").value_or("HTTP_401");
        result.message = messageOf(answer, "the product credential was refused");
        return result;
    }
    if (response.status >= 400) {
        result.outcome = Outcome::LicenseRefused;
        result.code = stringField(answer, "error").value_or("HTTP_" + std::to_string(response.status));
        result.message = messageOf(answer, "refused");
        return result;
    }
    const json license = answer.value("license", json::object());
    result.expiresAt = stringField(license, "expires_at");
    result.graceUntil = stringField(license, "grace_until");
    result.code = stringField(answer, "code").value_or("OK");
    result.message = messageOf(answer, "");
    if (action == "validate" && !answer.value("valid", false)) {
        result.outcome = Outcome::LicenseRefused;
        return result;
    }
    if (!expectToken) {
        result.outcome = Outcome::Ok;
        result.code = "DEACTIVATED";
        if (!config_.cacheDir.empty()) std::filesystem::remove(std::filesystem::path(config_.cacheDir) / ("license-" + fileSafe(licenseKey) + ".json"));
        return result;
    }
    const std::string token = answer.value("license_token", "");
    const TokenCheck check = checkLicenseToken(token, config_.publicKeyHex, {config_.appId, nonce, now(), true});
    if (!check.ok) {
        result.outcome = Outcome::TokenRejected;
        result.message = "license token rejected: " + check.problem;
        return result;
    }
    if (!config_.cacheDir.empty()) {
        std::filesystem::create_directories(config_.cacheDir);
        const auto path = std::filesystem::path(config_.cacheDir) / ("license-" + fileSafe(licenseKey) + ".json");
        const auto temporary = path.string() + ".tmp";
        {
            std::ofstream file(temporary, std::ios::trunc);
            file << json{{"license_token", token}, {"nonce", nonce}}.dump() << '\n';
        }
        std::filesystem::rename(temporary, path);
    }
    result.outcome = Outcome::Ok;
    return result;
}

// The service cannot be reached: the last good token carries the plugin for the grace period,
// counted from when the service issued it; its signature, audience and nonce are checked again.
Result LicenseClient::fromCache(const std::string& licenseKey, Result offline) {
    if (config_.cacheDir.empty()) return offline;
    std::ifstream file(std::filesystem::path(config_.cacheDir) / ("license-" + fileSafe(licenseKey) + ".json"));
    if (!file) {
        offline.message += "; no cached license token";
        return offline;
    }
    const json cached = json::parse(file, nullptr, false);
    const std::string token = cached.is_object() ? cached.value("license_token", "") : "";
    const std::string nonce = cached.is_object() ? cached.value("nonce", "") : "";
    const TokenCheck check = checkLicenseToken(token, config_.publicKeyHex, {config_.appId, nonce, now(), false});
    if (!check.ok) {
        offline.outcome = Outcome::TokenRejected;
        offline.message += "; cached license token rejected: " + check.problem;
        return offline;
    }
    const std::int64_t until = check.claims.value("iat", std::int64_t{0}) + config_.offlineGraceS;
    offline.offlineUntil = until;
    offline.source = "cache";
    if (now() > until) {
        offline.message += "; the cached license token is past the offline grace period";
        return offline;
    }
    offline.outcome = Outcome::Ok;
    offline.code = "VALID";
    offline.message = "offline: the cached license token carries the plugin (" + offline.message + ")";
    return offline;
}

const char* outcomeName(Outcome outcome) {
    switch (outcome) {
        case Outcome::Ok: return "ok";
        case Outcome::LicenseRefused: return "license_refused";
        case Outcome::AuthFailed: return "auth_failed";
        case Outcome::Offline: return "offline";
        case Outcome::RateLimited: return "rate_limited";
        case Outcome::TokenRejected: return "token_rejected";
        case Outcome::BadInput: return "bad_input";
    }
    return "unknown";
}

}  // namespace ple
