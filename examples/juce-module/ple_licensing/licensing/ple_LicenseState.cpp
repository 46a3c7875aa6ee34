namespace ple
{

juce::String statusName (LicenseStatus status)
{
    switch (status)
    {
        case LicenseStatus::unlicensed:   return "unlicensed";
        case LicenseStatus::checking:     return "checking";
        case LicenseStatus::licensed:     return "licensed";
        case LicenseStatus::offlineGrace: return "offline_grace";
        case LicenseStatus::refused:      return "refused";
        case LicenseStatus::error:        return "error";
    }
    return "error";
}

juce::String explainCode (const juce::String& code)
{
    if (code == "NOT_FOUND")              return "This license key does not exist. Check it for typos, or copy it again from your account.";
    if (code == "EXPIRED")                return "This license has expired. Renew it in your account, then check again.";
    if (code == "TRIAL_EXPIRED")          return "The trial has ended. Buy a license to keep using the plugin.";
    if (code == "SUSPENDED")              return "This license is suspended (often a payment problem). Check your account.";
    if (code == "REVOKED")                return "This license was revoked and no longer works. Contact support if this is a mistake.";
    if (code == "NOT_ACTIVATED")          return "This license is not activated on this computer. Press Activate.";
    if (code == "PRODUCT_SCOPE_MISMATCH") return "This license key is for another product.";
    if (code == "TOO_MANY_ACTIVATIONS")
        return "This license is already active on as many computers as it allows. Open the plugin on a computer "
               "you no longer use and press Deactivate (or deactivate it in your account), then activate here again.";
    if (code == "RATE_LIMITED")           return "The license server is busy. The plugin will try again by itself.";
    if (code == "OFFLINE")                return "The license server cannot be reached. Check your internet connection.";
    if (code == "TOKEN_REJECTED")         return "The license answer could not be verified. Check your connection and try again.";
    if (code.startsWith ("PRODUCT_CREDENTIAL") || code.startsWith ("CREDENTIAL") || code == "UNAUTHORIZED")
        return "This copy of the plugin could not identify itself to the license server. Update the plugin, or contact support.";
    return {};
}

juce::String LicenseSnapshot::describe() const
{
    switch (status)
    {
        case LicenseStatus::unlicensed:
            return "Not activated. Enter your license key and press Activate. The plugin is silent until then.";
        case LicenseStatus::checking:
            return "Checking your license...";
        case LicenseStatus::licensed:
            return licenseExpiresAt.isNotEmpty() ? "Licensed (until " + licenseExpiresAt.substring (0, 10) + ")." : "Licensed.";
        case LicenseStatus::offlineGrace:
            return "Licensed, offline: the license server cannot be reached. The plugin keeps working until "
                 + graceUntil.toString (true, true, false, true) + "; connect before then.";
        case LicenseStatus::refused:
        case LicenseStatus::error:
        {
            const auto words = explainCode (code);
            return (status == LicenseStatus::refused ? "Not licensed: " : "Not licensed (the plugin is silent): ")
                 + (words.isNotEmpty() ? words : message);
        }
    }
    return {};
}

}  // namespace ple
