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
    juce::StringPairArray responseHeaders;
    int status = 0;
    const auto url = juce::URL (config_.baseUrl.trimCharactersAtEnd ("/") + "/api/license/v1/" + action)
                         .withPOSTData (juce::JSON::toString (body, true));
    const auto options = juce::URL::InputStreamOptions (juce::URL::ParameterHandling::inPostData)
                             .withExtraHeaders (headers)
                             .withConnectionTimeoutMs (config_.timeoutMs)
                             .withNumRedirectsToFollow (0)
                             .withResponseHeaders (&responseHeaders)
                             .withStatusCode (&status);
    auto stream = url.createInputStream (options);
    if (stream == nullptr || status == 0) return answer;
    answer.reached = true;
    answer.status = status;
    answer.body = juce::JSON::parse (stream->readEntireStreamAsString());
    answer.retryAfterS = responseHeaders.getValue ("Retry-After", "0").getIntValue();
    return answer;
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
