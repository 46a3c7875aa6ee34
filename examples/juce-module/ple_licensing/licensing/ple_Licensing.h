// A plugin's license, kept by one worker thread: activation, validation on load and on a timer,
// deactivation, the offline grace period. The audio thread reads one atomic; the editor reads a
// snapshot and listens for changes (ChangeBroadcaster: called back on the message thread).
//
//   ple::Licensing licensing { PLE_LICENSING_CONFIG_FROM_HEADER (plugin_license_config) };
//   licensing.start (keyFromState);                       // setStateInformation
//   licensing.startIfIdle();                              // prepareToPlay, the editor
//   if (! licensing.isAudible (isNonRealtime())) buffer.clear();   // processBlock
//   ple::ActivationComponent panel { licensing };         // the editor
#pragma once

namespace ple
{

class Licensing : public juce::ChangeBroadcaster, private juce::Thread
{
public:
    explicit Licensing (LicensingConfig config);
    ~Licensing() override;

    // Audio thread: wait-free, no lock, no allocation.
    bool isAudible() const noexcept { return ple::isAudible (status()); }
    LicenseStatus status() const noexcept { return status_.load (std::memory_order_acquire); }

    // processBlock: isAudible (isNonRealtime()), asked again every block (a host switches between
    // realtime and a render from one block to the next). Realtime, or no check in progress: the
    // one atomic load above. A non-realtime render (a bounce, an export, a freewheeling engine)
    // that meets a check in progress waits for its decision, at most config.nonRealtimeWait, and
    // once per check: past the bound it renders silence without waiting again for that check.
    bool isAudible (bool nonRealtime) noexcept
    {
        const auto now = status();
        if (! nonRealtime || now != LicenseStatus::checking) return ple::isAudible (now);
        return awaitDecision();
    }
    // How many times processBlock took the waiting path above (tests and diagnostics).
    int nonRealtimeWaits() const noexcept { return nonRealtimeWaits_.load (std::memory_order_relaxed); }

    // Any other thread. start() takes the key a host restored from the plugin's state ("" : the
    // license this computer last activated for the product, if any) and validates it.
    void start (const juce::String& licenseKeyFromState);
    // start ("") unless started already: from prepareToPlay or the editor, so that merely
    // instantiating the plugin (a host's scan) touches no network.
    void startIfIdle();
    void activate (const juce::String& licenseKey);  // the key as typed or pasted (trimmed here)
    void deactivate();                                // "move my license to another computer"
    void checkNow();

    LicenseSnapshot snapshot() const;
    juce::String licenseKey() const;

private:
    enum class Job { none, validate, activate, deactivate };
    struct Cached { juce::String licenseKey, token, nonce; };

    void run() override;
    void queue (Job job, const juce::String& licenseKey);
    void runJob (Job job, juce::String licenseKey);
    ServiceAnswer call (const juce::String& action, const juce::var& body);
    void holdRequestsAfter (const ServiceAnswer& rateLimited);
    bool waitOutRateLimit();
    void answerWithToken (const ServiceAnswer& answer, const juce::String& licenseKey, const juce::String& nonce);
    void offline (const juce::String& licenseKey, const juce::String& why);
    void refuse (LicenseStatus status, const juce::String& licenseKey, const juce::String& code, const juce::String& message);
    void publish (LicenseSnapshot next, juce::RelativeTime checkAgainIn);
    void setStatus (LicenseStatus next);  // with lock_ held
    void wakeRenderWaiting();
    bool awaitDecision() noexcept;
    bool hasSomethingToCheck (Job job, const juce::String& licenseKey) const;
    void notifyListeners();

    std::optional<Cached> readCache() const;
    void writeCache (const Cached& cached) const;

    const LicensingConfig config_;
    const LicenseService service_;
    std::atomic<LicenseStatus> status_ { LicenseStatus::unlicensed };
    std::atomic<bool> started_ { false };
    static_assert (std::atomic<LicenseStatus>::is_always_lock_free, "the audio thread reads the status without a lock");

    // A non-realtime render waiting for a decision (never the realtime path): checksBegun_ counts
    // the times the status entered `checking`; abandonedCheck_ is the check whose wait ran out.
    std::atomic<juce::uint32> checksBegun_ { 0 };
    std::atomic<juce::uint32> abandonedCheck_ { 0 };
    std::atomic<int> nonRealtimeWaits_ { 0 };
    std::mutex decisionMutex_;
    std::condition_variable decided_;

    mutable juce::CriticalSection lock_;
    LicenseSnapshot snapshot_;
    Job pending_ = Job::none;
    juce::String pendingKey_;
    juce::Time nextCheck_;
    juce::String instanceId_;  // worker thread only
    std::chrono::steady_clock::time_point requestsHeldUntil_ {};  // worker thread only: a 429's Retry-After

    JUCE_DECLARE_NON_COPYABLE_WITH_LEAK_DETECTOR (Licensing)
};

}  // namespace ple
