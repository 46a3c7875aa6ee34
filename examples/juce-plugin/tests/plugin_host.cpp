// ple-plugin-host: a headless host for the example's tests. It loads the built plugin through
// JUCE's AudioPluginFormatManager (VST3 or LV2), optionally restores a saved state and/or puts a
// license key into the plugin's state (as a saved project would hold it), waits until the
// plugin's license settles, feeds a 440 Hz sine and prints one JSON line:
//   {"loaded":true,"status":"licensed","status_at_start":"licensed","rms_in":0.35,"rms_out":0.35,
//    "leading_silence":0,"render_waits":0,"render_ms":3}
//
//   ple-plugin-host --format VST3|LV2 --plugin PATH_OR_URI [--lv2-bundle DIR] [--state-in FILE]
//                   [--license-key KEY] [--state-out FILE] [--settle-ms 20000] [--expect silent|audible]
//                   [--render realtime|offline] [--at-load] [--license-key-later KEY [--later-ms 1500]]
// --lv2-bundle links the bundle into ~/.lv2 first (JUCE's LV2 format finds plugins by URI there).
// --render offline renders as a bounce does (setNonRealtime: VST3's kOffline, LV2's freewheeling
// port); --at-load starts the render right after prepareToPlay, without waiting for the license
// (then "status" is the one after the render). status_at_start is the state's status just before
// the first block; leading_silence counts the output's silent samples before its first sound;
// render_waits is the state's renderWaits after the render. --license-key-later puts KEY into the
// plugin's state as --license-key does, --later-ms after prepareToPlay (not with --at-load),
// whatever the license is doing then (another project restored into the running plugin: start()
// again); the license then settles for that key. later_key_at: the moment just before it went in
// (ms since the epoch, the system clock).
// Exit codes: 0 ran (and met --expect), 1 --expect not met, 2 usage, 3 the plugin did not load.
#include <juce_audio_processors/juce_audio_processors.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <optional>

namespace
{

constexpr double sampleRate = 48000.0;
constexpr int blockSize = 512;

// The plugin's own state ("VC2!" + <LicensedGain .../>) sits inside the format's state: VST3 as
// JUCE base64 in <IComponent>, LV2 as a base64 literal in the Turtle. Finds it and lets `edit`
// change it (or just read it); returns the format's state with the edit applied.
using Edit = std::function<void (juce::XmlElement&)>;

std::optional<juce::MemoryBlock> editPluginState (const juce::MemoryBlock& data, const Edit& edit);

std::optional<juce::String> editBase64 (const juce::String& text, const Edit& edit)
{
    juce::MemoryBlock decoded;
    if (! decoded.fromBase64Encoding (text.trim()) || decoded.getSize() < 8) return std::nullopt;
    auto edited = editPluginState (decoded, edit);
    if (! edited) return std::nullopt;
    return edited->toBase64Encoding();
}

std::optional<juce::MemoryBlock> editPluginState (const juce::MemoryBlock& data, const Edit& edit)
{
    if (auto xml = juce::AudioProcessor::getXmlFromBinary (data.getData(), static_cast<int> (data.getSize())))
    {
        bool found = false;
        if (xml->hasTagName ("LicensedGain"))
        {
            edit (*xml);
            found = true;
        }
        else
        {
            for (auto* child : xml->getChildIterator())
            {
                if (auto replaced = editBase64 (child->getAllSubText(), edit))
                {
                    child->deleteAllTextElements();
                    child->addTextElement (*replaced);
                    found = true;
                }
            }
        }
        if (! found) return std::nullopt;
        juce::MemoryBlock out;
        juce::AudioProcessor::copyXmlToBinary (*xml, out);
        return out;
    }
    // LV2: Turtle text; the plugin's state is one of its quoted literals.
    auto text = data.toString();
    int start = 0;
    while ((start = text.indexOfChar (start, '"')) >= 0)
    {
        const auto end = text.indexOfChar (start + 1, '"');
        if (end < 0) break;
        if (auto replaced = editBase64 (text.substring (start + 1, end), edit))
        {
            text = text.replaceSection (start + 1, end - start - 1, *replaced);
            juce::MemoryBlock out;
            out.append (text.toRawUTF8(), text.getNumBytesAsUTF8());
            return out;
        }
        start = end + 1;
    }
    return std::nullopt;
}

juce::String stateAttribute (juce::AudioPluginInstance& plugin, const juce::String& name)
{
    juce::MemoryBlock state;
    plugin.getStateInformation (state);
    juce::String value = "unknown";
    editPluginState (state, [&value, &name] (juce::XmlElement& xml) { value = xml.getStringAttribute (name, "unknown"); });
    return value;
}

juce::String licenseStatusOf (juce::AudioPluginInstance& plugin) { return stateAttribute (plugin, "licenseStatus"); }

double rms (const juce::AudioBuffer<float>& buffer)
{
    double sum = 0.0;
    for (int channel = 0; channel < buffer.getNumChannels(); ++channel)
        for (int i = 0; i < buffer.getNumSamples(); ++i) sum += static_cast<double> (buffer.getSample (channel, i)) * buffer.getSample (channel, i);
    return std::sqrt (sum / juce::jmax (1, buffer.getNumChannels() * buffer.getNumSamples()));
}

juce::String argument (const juce::StringArray& args, const juce::String& name)
{
    const auto index = args.indexOf (name);
    return index >= 0 && index + 1 < args.size() ? args[index + 1] : juce::String();
}

int fail (int code, const juce::String& message)
{
    auto* line = new juce::DynamicObject();
    const juce::var json (line);
    line->setProperty ("loaded", false);
    line->setProperty ("error", message);
    std::cout << juce::JSON::toString (json, true) << std::endl;
    return code;
}

}  // namespace

int main (int argc, char** argv)
{
    juce::ScopedJuceInitialiser_GUI juce;
    juce::StringArray args;
    for (int i = 1; i < argc; ++i) args.add (argv[i]);
    const auto formatName = argument (args, "--format");
    const auto pluginPath = argument (args, "--plugin");
    if (formatName.isEmpty() || pluginPath.isEmpty()) return fail (2, "usage: --format VST3|LV2 --plugin PATH_OR_URI");
    const auto settleMs = argument (args, "--settle-ms").isNotEmpty() ? argument (args, "--settle-ms").getIntValue() : 20000;

    if (const auto bundle = argument (args, "--lv2-bundle"); bundle.isNotEmpty())
    {
        const auto link = juce::File ("~/.lv2").getChildFile (juce::File (bundle).getFileName());
        link.getParentDirectory().createDirectory();
        if (! link.exists() && ! juce::File (bundle).createSymbolicLink (link, false)) return fail (2, "cannot link " + bundle + " into ~/.lv2");
    }

    juce::AudioPluginFormatManager formats;
    formats.addFormat (new juce::VST3PluginFormat());
    formats.addFormat (new juce::LV2PluginFormat());
    juce::AudioPluginFormat* format = nullptr;
    for (auto* candidate : formats.getFormats())
        if (candidate->getName() == formatName) format = candidate;
    if (format == nullptr) return fail (2, "unknown format " + formatName);

    juce::OwnedArray<juce::PluginDescription> types;
    format->findAllTypesForFile (types, pluginPath);
    if (types.isEmpty()) return fail (3, "no plugin found at " + pluginPath);
    juce::String error;
    auto plugin = formats.createPluginInstance (*types[0], sampleRate, blockSize, error);
    if (plugin == nullptr) return fail (3, "the plugin did not load: " + error);

    plugin->setPlayConfigDetails (2, 2, sampleRate, blockSize);

    if (const auto stateIn = argument (args, "--state-in"); stateIn.isNotEmpty())
    {
        juce::MemoryBlock saved;
        if (! juce::File (stateIn).loadFileAsData (saved)) return fail (2, "cannot read " + stateIn);
        plugin->setStateInformation (saved.getData(), static_cast<int> (saved.getSize()));
    }
    const auto putKey = [&plugin] (const juce::String& key)
    {
        juce::MemoryBlock current;
        plugin->getStateInformation (current);
        const auto withKey = editPluginState (current, [&key] (juce::XmlElement& xml) { xml.setAttribute ("licenseKey", key); });
        if (! withKey) return false;
        plugin->setStateInformation (withKey->getData(), static_cast<int> (withKey->getSize()));
        return true;
    };
    if (const auto key = argument (args, "--license-key"); key.isNotEmpty() && ! putKey (key))
        return fail (3, "the plugin's state holds no LicensedGain element");
    const auto laterKey = argument (args, "--license-key-later");
    const auto laterMs = argument (args, "--later-ms").isNotEmpty() ? argument (args, "--later-ms").getIntValue() : 1500;
    juce::int64 laterKeyAt = 0;

    const auto render = argument (args, "--render").isNotEmpty() ? argument (args, "--render") : juce::String ("realtime");
    if (render != "realtime" && render != "offline") return fail (2, "--render realtime|offline");
    // Before prepareToPlay, as a host starting a bounce: VST3 gets kOffline in its process setup
    // and every process call, LV2 its freewheeling port in every run.
    plugin->setNonRealtime (render == "offline");
    const auto atLoad = args.contains ("--at-load");

    // As a host opening a project: the state first, then prepareToPlay.
    plugin->prepareToPlay (sampleRate, blockSize);

    // The license settles on the plugin's worker thread; the message loop runs meanwhile.
    juce::String status;
    if (! atLoad)
    {
        const auto prepared = juce::Time::getMillisecondCounter();
        const auto deadline = prepared + static_cast<juce::uint32> (settleMs);
        while (true)
        {
            if (laterKey.isNotEmpty() && laterKeyAt == 0 && juce::Time::getMillisecondCounter() - prepared >= static_cast<juce::uint32> (laterMs))
            {
                laterKeyAt = juce::Time::currentTimeMillis();
                if (! putKey (laterKey)) return fail (3, "the plugin's state holds no LicensedGain element");
            }
            status = licenseStatusOf (*plugin);
            const auto forLaterKey = laterKey.isEmpty() || (laterKeyAt != 0 && stateAttribute (*plugin, "licenseKey") == laterKey);
            if (status != "checking" && status != "unknown" && forLaterKey) break;
            if (juce::Time::getMillisecondCounter() > deadline) break;
            juce::MessageManager::getInstance()->runDispatchLoopUntil (50);
        }
        // A status with no key yet may still turn into "checking": give the worker one more look.
        juce::MessageManager::getInstance()->runDispatchLoopUntil (200);
        status = licenseStatusOf (*plugin);
    }
    const auto statusAtStart = licenseStatusOf (*plugin);

    juce::AudioBuffer<float> buffer (2, blockSize);
    juce::AudioBuffer<float> input (2, blockSize);
    juce::MidiBuffer midi;
    // A quarter turn in, so that the very first input sample is not zero.
    double phase = juce::MathConstants<double>::halfPi, inSum = 0.0, outSum = 0.0;
    int measured = 0, leadingSilence = -1;
    const auto renderStarted = juce::Time::getMillisecondCounterHiRes();
    for (int block = 0; block < 100; ++block)
    {
        for (int i = 0; i < blockSize; ++i)
        {
            const auto sample = static_cast<float> (0.5 * std::sin (phase));
            phase += juce::MathConstants<double>::twoPi * 440.0 / sampleRate;
            for (int channel = 0; channel < 2; ++channel) input.setSample (channel, i, sample);
        }
        buffer.makeCopyOf (input, true);
        plugin->processBlock (buffer, midi);
        for (int i = 0; i < blockSize && leadingSilence < 0; ++i)
            if (buffer.getSample (0, i) != 0.0f || buffer.getSample (1, i) != 0.0f) leadingSilence = block * blockSize + i;
        if (block >= 10)
        {
            inSum += rms (input);
            outSum += rms (buffer);
            ++measured;
        }
    }
    const auto renderMs = juce::Time::getMillisecondCounterHiRes() - renderStarted;
    if (leadingSilence < 0) leadingSilence = 100 * blockSize;  // silent throughout
    plugin->releaseResources();
    if (atLoad) status = licenseStatusOf (*plugin);
    const auto renderWaits = stateAttribute (*plugin, "renderWaits").getIntValue();

    if (const auto stateOut = argument (args, "--state-out"); stateOut.isNotEmpty())
    {
        juce::MemoryBlock saved;
        plugin->getStateInformation (saved);
        juce::File (stateOut).replaceWithData (saved.getData(), saved.getSize());
    }

    auto* line = new juce::DynamicObject();
    const juce::var json (line);
    line->setProperty ("loaded", true);
    line->setProperty ("format", formatName);
    line->setProperty ("status", status);
    line->setProperty ("status_at_start", statusAtStart);
    line->setProperty ("rms_in", inSum / measured);
    line->setProperty ("rms_out", outSum / measured);
    line->setProperty ("leading_silence", leadingSilence);
    line->setProperty ("render_waits", renderWaits);
    line->setProperty ("render_ms", juce::roundToInt (renderMs));
    if (laterKeyAt != 0) line->setProperty ("later_key_at", laterKeyAt);
    std::cout << juce::JSON::toString (json, true) << std::endl;
    plugin = nullptr;

    const auto expect = argument (args, "--expect");
    const auto heard = outSum / measured > 0.5 * inSum / measured;
    const auto quiet = outSum == 0.0;
    if (expect == "audible") return heard ? 0 : 1;
    if (expect == "silent") return quiet ? 0 : 1;
    return 0;
}
