namespace ple
{

juce::File LicensingConfig::cacheFile() const
{
    const auto product = (productFolder.isNotEmpty() ? productFolder : appId);
    return juce::File::getSpecialLocation (juce::File::userApplicationDataDirectory)
        .getChildFile (juce::File::createLegalFileName (vendorFolder))
        .getChildFile (juce::File::createLegalFileName (product))
        .getChildFile ("license.json");
}

bool LicensingConfig::isComplete() const
{
    return baseUrl.isNotEmpty() && appId.isNotEmpty() && pluginKey.isNotEmpty() && pluginSecret.isNotEmpty()
        && publicKeyHex.length() == 64;
}

}  // namespace ple
