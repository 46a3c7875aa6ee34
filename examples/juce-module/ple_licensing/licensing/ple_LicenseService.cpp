namespace ple
{

LicenseService::LicenseService (LicensingConfig config) : config_ (std::move (config)) {}

ServiceAnswer LicenseService::post (const juce::String& action, const juce::var& body) const
{
    ServiceAnswer answer;
    const auto prefix = "x-" + config_.headerPrefix.toLowerCase();
    const auto headers = "Content-Type: application/json\r\n"
                       + prefix + "-app-id: " + config_.appId + "\r\n"
                       + prefix + "-plugin-key: " + config_.pluginKey + "\r\n"
                       + prefix + "-plugin-secret: " + config_.pluginSecret;
    const auto url = juce::URL (config_.baseUrl.trimCharactersAtEnd ("/") + "/api/license/v1/" + action)
                         .withPOSTData (juce::JSON::toString (body, true));
    juce::WebInputStream stream (url, true);
    stream.withExtraHeaders (headers).withConnectionTimeout (config_.timeoutMs).withNumRedirectsToFollow (0);
    {
        const juce::ScopedLock scope (lock_);
        if (cancelled_) return answer;
        current_ = &stream;
    }
    const auto connected = stream.connect (nullptr);
    if (connected && stream.getStatusCode() != 0)
    {
        answer.reached = true;
        answer.status = stream.getStatusCode();
        answer.retryAfterS = stream.getResponseHeaders().getValue ("Retry-After", "0").getIntValue();
        answer.body = juce::JSON::parse (stream.readEntireStreamAsString());
        // JUCE 7's curl backend (Linux) loses the first response header: its header callback drops
        // the status line and parseHttpHeaders skips the first line as if it were one. A 429 whose
        // Retry-After came first reads as 0 here; the contract's error body says the same number.
        if (answer.status == 429 && answer.retryAfterS <= 0)
            answer.retryAfterS = static_cast<int> (answer.body.getProperty ("retryAfter", 0));
    }
    const juce::ScopedLock scope (lock_);
    current_ = nullptr;
    return answer;
}

void LicenseService::cancel() const
{
    const juce::ScopedLock scope (lock_);
    cancelled_ = true;
    if (current_ != nullptr) current_->cancel();
}

juce::String machineInstanceId (const juce::String& appId)
{
    if (sodium_init() < 0) return "ple-unknown";
    const auto input = (juce::SystemStats::getUniqueDeviceID() + "\n" + appId).toStdString();
    unsigned char digest[16];
    crypto_generichash (digest, sizeof digest, reinterpret_cast<const unsigned char*> (input.data()), input.size(), nullptr, 0);
    char hex[sizeof digest * 2 + 1];
    sodium_bin2hex (hex, sizeof hex, digest, sizeof digest);
    return "ple-" + juce::String (hex);
}

juce::String newNonce()
{
    unsigned char bytes[16];
    randombytes_buf (bytes, sizeof bytes);
    char hex[sizeof bytes * 2 + 1];
    sodium_bin2hex (hex, sizeof hex, bytes, sizeof bytes);
    return hex;
}

}  // namespace ple
