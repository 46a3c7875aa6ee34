#include "PluginProcessor.h"

#include "PluginEditor.h"

LicensedGainProcessor::LicensedGainProcessor()
    : AudioProcessor (BusesProperties()
                          .withInput ("Input", juce::AudioChannelSet::stereo(), true)
                          .withOutput ("Output", juce::AudioChannelSet::stereo(), true))
{
    addParameter (gain_ = new juce::AudioParameterFloat (juce::ParameterID { "gain", 1 }, "Gain", juce::NormalisableRange<float> (-24.0f, 12.0f), 0.0f,
                                                         juce::AudioParameterFloatAttributes().withLabel ("dB")));
}

LicensedGainProcessor::~LicensedGainProcessor() = default;

void LicensedGainProcessor::prepareToPlay (double sampleRate, int)
{
    // No key from a host's project: the license this computer last activated, if any.
    licensing_.startIfIdle();
    smoothedGain_.reset (sampleRate, 0.02);
    smoothedGain_.setCurrentAndTargetValue (juce::Decibels::decibelsToGain (gain_->get()));
}

bool LicensedGainProcessor::isBusesLayoutSupported (const BusesLayout& layouts) const
{
    const auto out = layouts.getMainOutputChannelSet();
    return (out == juce::AudioChannelSet::mono() || out == juce::AudioChannelSet::stereo()) && layouts.getMainInputChannelSet() == out;
}

void LicensedGainProcessor::processBlock (juce::AudioBuffer<float>& buffer, juce::MidiBuffer&)
{
    juce::ScopedNoDenormals noDenormals;
    for (auto channel = getTotalNumInputChannels(); channel < getTotalNumOutputChannels(); ++channel)
        buffer.clear (channel, 0, buffer.getNumSamples());

    // Realtime: one atomic load (no lock, no allocation, no network on the audio thread). A
    // bounce or an export (isNonRealtime(), asked every block) waits for a check in progress,
    // bounded, so that it does not start silent.
    if (! licensing_.isAudible (isNonRealtime()))
    {
        buffer.clear();
        return;
    }
    smoothedGain_.setTargetValue (juce::Decibels::decibelsToGain (gain_->get()));
    if (smoothedGain_.isSmoothing())
    {
        for (int i = 0; i < buffer.getNumSamples(); ++i)
        {
            const auto g = smoothedGain_.getNextValue();
            for (int channel = 0; channel < buffer.getNumChannels(); ++channel) buffer.getWritePointer (channel)[i] *= g;
        }
    }
    else
    {
        buffer.applyGain (smoothedGain_.getTargetValue());
    }
}

juce::AudioProcessorEditor* LicensedGainProcessor::createEditor()
{
    licensing_.startIfIdle();
    return new LicensedGainEditor (*this);
}

// <LicensedGain gain="0" licenseKey="..." licenseStatus="licensed" renderWaits="0"/>: the key
// comes back with the project; the status, and how often a non-realtime render waited for a
// check, are for hosts and tests to read (never restored).
void LicensedGainProcessor::getStateInformation (juce::MemoryBlock& destData)
{
    juce::XmlElement state ("LicensedGain");
    state.setAttribute ("gain", static_cast<double> (gain_->get()));
    state.setAttribute ("licenseKey", licensing_.licenseKey());
    state.setAttribute ("licenseStatus", ple::statusName (licensing_.status()));
    state.setAttribute ("renderWaits", licensing_.nonRealtimeWaits());
    copyXmlToBinary (state, destData);
}

void LicensedGainProcessor::setStateInformation (const void* data, int sizeInBytes)
{
    const auto state = getXmlFromBinary (data, sizeInBytes);
    if (state == nullptr || ! state->hasTagName ("LicensedGain")) return;
    *gain_ = static_cast<float> (state->getDoubleAttribute ("gain", 0.0));
    const auto key = state->getStringAttribute ("licenseKey").trim();
    if (key.isNotEmpty() && key != licensing_.licenseKey()) licensing_.start (key);
}

juce::AudioProcessor* JUCE_CALLTYPE createPluginFilter() { return new LicensedGainProcessor(); }
