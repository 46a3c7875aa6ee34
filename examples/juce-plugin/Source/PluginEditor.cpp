#include "PluginEditor.h"

LicensedGainEditor::LicensedGainEditor (LicensedGainProcessor& gainProcessor)
    : AudioProcessorEditor (gainProcessor), activation_ (gainProcessor.licensing())
{
    title_.setFont (juce::Font (22.0f, juce::Font::bold));
    addAndMakeVisible (title_);
    addAndMakeVisible (caption_);
    addAndMakeVisible (activation_);
    setSize (520, 330);
}

void LicensedGainEditor::paint (juce::Graphics& g) { g.fillAll (getLookAndFeel().findColour (juce::ResizableWindow::backgroundColourId)); }

void LicensedGainEditor::resized()
{
    auto area = getLocalBounds().reduced (16);
    title_.setBounds (area.removeFromTop (30));
    caption_.setBounds (area.removeFromTop (24));
    area.removeFromTop (8);
    activation_.setBounds (area);
}
