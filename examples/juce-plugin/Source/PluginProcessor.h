// A gain whose output is silent until it is licensed. The license key is part of the plugin's
// state, so a host's saved project reopens licensed.
#pragma once

#include <juce_audio_processors/juce_audio_processors.h>

#include "PluginConfig.h"

class LicensedGainProcessor : public juce::AudioProcessor
{
public:
    LicensedGainProcessor();
    ~LicensedGainProcessor() override;

    void prepareToPlay (double sampleRate, int samplesPerBlock) override;
    void releaseResources() override {}
    bool isBusesLayoutSupported (const BusesLayout& layouts) const override;
    void processBlock (juce::AudioBuffer<float>&, juce::MidiBuffer&) override;
    using AudioProcessor::processBlock;

    juce::AudioProcessorEditor* createEditor() override;
    bool hasEditor() const override { return true; }

    const juce::String getName() const override { return JucePlugin_Name; }
    bool acceptsMidi() const override { return false; }
    bool producesMidi() const override { return false; }
    bool isMidiEffect() const override { return false; }
    double getTailLengthSeconds() const override { return 0.0; }

    int getNumPrograms() override { return 1; }
    int getCurrentProgram() override { return 0; }
    void setCurrentProgram (int) override {}
    const juce::String getProgramName (int) override { return "Default"; }
    void changeProgramName (int, const juce::String&) override {}

    void getStateInformation (juce::MemoryBlock& destData) override;
    void setStateInformation (const void* data, int sizeInBytes) override;

    ple::Licensing& licensing() noexcept { return licensing_; }

private:
    ple::Licensing licensing_ { exampleLicensingConfig() };
    juce::AudioParameterFloat* gain_ = nullptr;
    juce::SmoothedValue<float> smoothedGain_;

    JUCE_DECLARE_NON_COPYABLE_WITH_LEAK_DETECTOR (LicensedGainProcessor)
};
