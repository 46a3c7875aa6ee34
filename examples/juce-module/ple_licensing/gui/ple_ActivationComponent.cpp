namespace ple
{
namespace
{

juce::Colour statusColour (LicenseStatus status)
{
    switch (status)
    {
        // Light tones: readable (WCAG AA) on the dark default look and feel.
        case LicenseStatus::licensed:     return juce::Colour (0xff81c784);
        case LicenseStatus::offlineGrace: return juce::Colour (0xffffb74d);
        case LicenseStatus::refused:
        case LicenseStatus::error:        return juce::Colour (0xffef9a9a);
        case LicenseStatus::unlicensed:
        case LicenseStatus::checking:     break;
    }
    return juce::Colour (0xffcfd8dc);
}

}  // namespace

ActivationComponent::ActivationComponent (Licensing& licensing) : licensing_ (licensing)
{
    setTitle ("License activation");
    setFocusContainerType (FocusContainerType::keyboardFocusContainer);

    heading_.setFont (juce::Font (18.0f, juce::Font::bold));
    addAndMakeVisible (heading_);

    keyLabel_.attachToComponent (&keyField_, false);
    addAndMakeVisible (keyLabel_);
    keyField_.setTitle ("License key");
    keyField_.setDescription ("Paste the license key from your purchase e-mail or account, then press Activate.");
    keyField_.setTextToShowWhenEmpty ("XXXXX-XXXXX-XXXXX-XXXXX-XXXXX", juce::Colours::grey);
    keyField_.setSelectAllWhenFocused (true);
    keyField_.setEscapeAndReturnKeysConsumed (false);
    keyField_.onReturnKey = [this] { activate(); };
    keyField_.setExplicitFocusOrder (1);
    addAndMakeVisible (keyField_);

    activateButton_.setDescription ("Activate this license on this computer");
    activateButton_.onClick = [this] { activate(); };
    activateButton_.setExplicitFocusOrder (2);
    addAndMakeVisible (activateButton_);

    deactivateButton_.setDescription ("Deactivate on this computer, to move the license to another one");
    deactivateButton_.onClick = [this] { licensing_.deactivate(); };
    deactivateButton_.setExplicitFocusOrder (3);
    addAndMakeVisible (deactivateButton_);

    status_.setTitle ("License status");
    status_.setJustificationType (juce::Justification::topLeft);
    status_.setMinimumHorizontalScale (1.0f);
    addAndMakeVisible (status_);

    licensing_.addChangeListener (this);
    refresh();
}

ActivationComponent::~ActivationComponent() { licensing_.removeChangeListener (this); }

void ActivationComponent::activate()
{
    const auto key = keyField_.getText().trim();
    if (key.isEmpty())
    {
        keyField_.grabKeyboardFocus();
        return;
    }
    licensing_.activate (key);
}

void ActivationComponent::changeListenerCallback (juce::ChangeBroadcaster*) { refresh(); }

void ActivationComponent::refresh()
{
    const auto snapshot = licensing_.snapshot();
    const auto words = snapshot.describe();
    status_.setText (words, juce::dontSendNotification);
    status_.setDescription (words);
    status_.setColour (juce::Label::textColourId, statusColour (snapshot.status));
    if (! keyField_.hasKeyboardFocus (true) && snapshot.licenseKey.isNotEmpty()) keyField_.setText (snapshot.licenseKey, false);

    const auto busy = snapshot.status == LicenseStatus::checking;
    activateButton_.setEnabled (! busy && ! isAudible (snapshot.status));
    deactivateButton_.setEnabled (! busy && isAudible (snapshot.status));
    keyField_.setReadOnly (isAudible (snapshot.status));

    if (snapshot.status != shown_)
    {
        shown_ = snapshot.status;
        // Screen readers hear the new state without moving focus.
        if (auto* handler = status_.getAccessibilityHandler()) handler->postAnnouncement (words, juce::AccessibilityHandler::AnnouncementPriority::medium);
    }
    repaint();
}

void ActivationComponent::paint (juce::Graphics& g)
{
    g.fillAll (findColour (juce::ResizableWindow::backgroundColourId).brighter (0.05f));
    g.setColour (statusColour (shown_));
    g.fillRect (getLocalBounds().removeFromLeft (4));
}

void ActivationComponent::resized()
{
    auto area = getLocalBounds().reduced (16, 12);
    area.removeFromLeft (4);
    heading_.setBounds (area.removeFromTop (26));
    area.removeFromTop (22);  // the key label sits above the field
    keyField_.setBounds (area.removeFromTop (28));
    area.removeFromTop (8);
    auto buttons = area.removeFromTop (28);
    activateButton_.setBounds (buttons.removeFromLeft (110));
    buttons.removeFromLeft (8);
    deactivateButton_.setBounds (buttons.removeFromLeft (110));
    area.removeFromTop (8);
    status_.setBounds (area);
}

}  // namespace ple
