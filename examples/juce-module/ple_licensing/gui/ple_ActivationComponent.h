// A ready activation panel: license key field (paste, trimmed), Activate, the state in words,
// Deactivate ("move my license"). Keyboard (Tab order, Return activates) and screen readers
// (every control has a title and a description; the status is announced when it changes).
#pragma once

namespace ple
{

class ActivationComponent : public juce::Component, private juce::ChangeListener
{
public:
    explicit ActivationComponent (Licensing& licensing);
    ~ActivationComponent() override;

    void paint (juce::Graphics&) override;
    void resized() override;

private:
    void changeListenerCallback (juce::ChangeBroadcaster*) override;
    void refresh();
    void activate();

    Licensing& licensing_;
    juce::Label heading_ { {}, "License" };
    juce::Label keyLabel_ { {}, "License key" };
    juce::TextEditor keyField_;
    juce::TextButton activateButton_ { "Activate" };
    juce::TextButton deactivateButton_ { "Deactivate" };
    juce::Label status_;
    LicenseStatus shown_ = LicenseStatus::unlicensed;

    JUCE_DECLARE_NON_COPYABLE_WITH_LEAK_DETECTOR (ActivationComponent)
};

}  // namespace ple
