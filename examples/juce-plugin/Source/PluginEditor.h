#pragma once

#include "PluginProcessor.h"

class LicensedGainEditor : public juce::AudioProcessorEditor
{
public:
    explicit LicensedGainEditor (LicensedGainProcessor&);

    void paint (juce::Graphics&) override;
    void resized() override;

private:
    juce::Label title_ { {}, "PLE Licensed Gain" };
    juce::Label caption_ { {}, "A gain that stays silent until it is licensed." };
    ple::ActivationComponent activation_;

    JUCE_DECLARE_NON_COPYABLE_WITH_LEAK_DETECTOR (LicensedGainEditor)
};
