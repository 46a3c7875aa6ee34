namespace ple
{
namespace
{

juce::String stringField (const juce::var& object, const char* name)
{
    const auto value = object.getProperty (name, {});
    return value.isString() ? value.toString() : juce::String();
}

}  // namespace

Licensing::Licensing (LicensingConfig config)
    : juce::Thread ("ple licensing"), config_ (std::move (config)), service_ (config_)
{
}

Licensing::~Licensing()
{
    removeAllChangeListeners();
    signalThreadShouldExit();
    wakeRenderWaiting();
    // A call in flight is aborted, so closing the plugin never waits for the network.
    service_.cancel();
    notify();
    stopThread (config_.timeoutMs + 2000);
}

void Licensing::start (const juce::String& licenseKeyFromState)
{
    started_ = true;
    queue (Job::validate, licenseKeyFromState.trim());
}

void Licensing::startIfIdle()
{
    if (! started_.exchange (true)) queue (Job::validate, {});
}
void Licensing::activate (const juce::String& licenseKey) { queue (Job::activate, licenseKey.trim()); }
void Licensing::deactivate() { queue (Job::deactivate, licenseKey()); }
void Licensing::checkNow() { queue (Job::validate, licenseKey()); }

LicenseSnapshot Licensing::snapshot() const
{
    const juce::ScopedLock scope (lock_);
    return snapshot_;
}

juce::String Licensing::licenseKey() const
{
    const juce::ScopedLock scope (lock_);
    return snapshot_.licenseKey;
}

void Licensing::queue (Job job, const juce::String& licenseKey)
{
    const auto somethingToCheck = hasSomethingToCheck (job, licenseKey);
    {
        const juce::ScopedLock scope (lock_);
        pending_ = job;
        pendingKey_ = licenseKey;
        // Checking from now on (not from when the worker gets to it): the editor, the host and a
        // render see at once that an answer is coming. A licensed plugin keeps playing while it
        // re-checks; one with nothing to check stays unlicensed (a host saving the state of a
        // freshly inserted plugin never reads `checking` for it).
        if (somethingToCheck && ! ple::isAudible (snapshot_.status))
        {
            snapshot_.status = LicenseStatus::checking;
            if (licenseKey.isNotEmpty()) snapshot_.licenseKey = licenseKey;
            setStatus (LicenseStatus::checking);
        }
    }
    notifyListeners();
    if (! isThreadRunning()) startThread();
    notify();
}

// No key (typed, or from the host's project) and no license saved on this computer: the service
// has nothing to answer about.
bool Licensing::hasSomethingToCheck (Job job, const juce::String& licenseKey) const
{
    return licenseKey.isNotEmpty() || (job == Job::validate && readCache().has_value());
}

void Licensing::run()
{
    instanceId_ = machineInstanceId (config_.appId);
    while (! threadShouldExit())
    {
        Job job = Job::none;
        juce::String key;
        juce::Time due;
        {
            const juce::ScopedLock scope (lock_);
            std::swap (job, pending_);
            key = pendingKey_;
            due = nextCheck_;
            if (job == Job::none && due.toMilliseconds() != 0 && juce::Time::getCurrentTime() >= due)
            {
                job = Job::validate;
                key = snapshot_.licenseKey;
            }
        }
        if (job == Job::none)
        {
            const auto untilDue = due.toMilliseconds() == 0 ? -1 : juce::jmax<juce::int64> (1, (due - juce::Time::getCurrentTime()).inMilliseconds());
            wait (static_cast<int> (juce::jmin<juce::int64> (untilDue < 0 ? 3600000 : untilDue, 3600000)));
            continue;
        }
        runJob (job, key);
    }
}

void Licensing::runJob (Job job, juce::String licenseKey)
{
    if (! config_.isComplete())
    {
        refuse (LicenseStatus::error, licenseKey, "CONFIGURATION", "the plugin was built without its licensing configuration (base URL, credential, public key)");
        return;
    }
    if (job == Job::validate && licenseKey.isEmpty())
        if (const auto cached = readCache()) licenseKey = cached->licenseKey;
    if (licenseKey.isEmpty())
    {
        LicenseSnapshot none;
        publish (none, juce::RelativeTime());
        return;
    }
    if (! isAudible())
    {
        auto checking = snapshot();
        checking.status = LicenseStatus::checking;
        checking.licenseKey = licenseKey;
        checking.code = {};
        checking.message = {};
        publish (checking, juce::RelativeTime());
    }

    const auto nonce = newNonce();
    auto* body = new juce::DynamicObject();
    const juce::var bodyVar (body);
    body->setProperty ("license_key", licenseKey);
    body->setProperty ("instance_id", instanceId_);

    if (job == Job::deactivate)
    {
        const auto answer = call ("deactivate", bodyVar);
        if (answer.reached && answer.status == 200)
        {
            config_.cacheFile().deleteFile();
            LicenseSnapshot none;
            none.code = "DEACTIVATED";
            none.message = "deactivated on this computer";
            publish (none, juce::RelativeTime());
        }
        else if (! answer.reached || answer.status >= 500)
            refuse (LicenseStatus::error, licenseKey, "OFFLINE", "could not reach the license server to deactivate; try again when online");
        else
            refuse (LicenseStatus::error, licenseKey, stringField (answer.body, "error"), stringField (answer.body, "message"));
        return;
    }

    body->setProperty ("nonce", nonce);
    if (job == Job::activate)
    {
        body->setProperty ("instance_name", juce::SystemStats::getComputerName());
        body->setProperty ("platform", juce::SystemStats::getOperatingSystemName());
    }
    const auto action = job == Job::activate ? juce::String ("activate") : juce::String ("validate");
    const auto answer = call (action, bodyVar);

    if (! answer.reached || answer.status >= 500)
    {
        offline (licenseKey, answer.reached ? "the license server answered " + juce::String (answer.status) : "the license server cannot be reached");
        if (answer.retryAfterS > 0) publish (snapshot(), juce::RelativeTime::seconds (answer.retryAfterS));
        return;
    }
    if (answer.status == 429)
    {
        offline (licenseKey, "the license server is rate limiting");
        auto limited = snapshot();
        if (! ple::isAudible (limited.status)) limited.code = "RATE_LIMITED";
        publish (limited, juce::RelativeTime::seconds (juce::jmax (1, answer.retryAfterS)));
        return;
    }
    const auto code = stringField (answer.body, "code").isNotEmpty() ? stringField (answer.body, "code") : stringField (answer.body, "error");
    const auto message = stringField (answer.body, "message");
    if (answer.status == 401)
    {
        refuse (LicenseStatus::error, licenseKey, code.isNotEmpty() ? code : "UNAUTHORIZED", message);
        return;
    }
    if (answer.status >= 400)
    {
        if (answer.status != 409) config_.cacheFile().deleteFile();  // refused for good: no offline life left
        refuse (LicenseStatus::refused, licenseKey, code, message);
        return;
    }
    if (job == Job::validate && ! static_cast<bool> (answer.body.getProperty ("valid", false)))
    {
        if (code == "NOT_ACTIVATED")
        {
            // A key restored from a project opened on another computer: activate it here.
            runJob (Job::activate, licenseKey);
            return;
        }
        config_.cacheFile().deleteFile();
        refuse (LicenseStatus::refused, licenseKey, code, message);
        return;
    }
    answerWithToken (answer, licenseKey, nonce);
}

// 429: Retry-After waited out once (bounded), then the second answer stands.
ServiceAnswer Licensing::call (const juce::String& action, const juce::var& body)
{
    if (! waitOutRateLimit()) return {};
    auto answer = service_.post (action, body);
    if (answer.reached && answer.status == 429)
    {
        holdRequestsAfter (answer);
        if (! waitOutRateLimit()) return answer;
        answer = service_.post (action, body);
        if (answer.reached && answer.status == 429) holdRequestsAfter (answer);
    }
    return answer;
}

// No request before the platform's Retry-After (at most maxRetryWaitS), whichever job asks next:
// this call's retry, or a job queued meanwhile (start() from a restored project, checkNow()).
void Licensing::holdRequestsAfter (const ServiceAnswer& rateLimited)
{
    const auto waitS = juce::jlimit (1, juce::jmax (1, config_.maxRetryWaitS), rateLimited.retryAfterS);
    requestsHeldUntil_ = std::chrono::steady_clock::now() + std::chrono::seconds (waitS);
}

// Waits until requestsHeldUntil_ (a monotonic clock: a system clock set back does not stretch it).
// Only the plugin closing ends it early. queue() notifies this thread for every job, and that
// signal stays set while the worker is busy: one wait() returned at once (the retry left about
// 100 ms after the 429), and a job queued meanwhile cut it short too. False: the thread is to exit.
bool Licensing::waitOutRateLimit()
{
    while (! threadShouldExit())
    {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds> (requestsHeldUntil_ - std::chrono::steady_clock::now()).count();
        if (left <= 0) return true;
        wait (static_cast<int> (juce::jmin<juce::int64> (left, 60000)));  // in slices: wait() takes an int
    }
    return false;
}

void Licensing::answerWithToken (const ServiceAnswer& answer, const juce::String& licenseKey, const juce::String& nonce)
{
    const auto token = stringField (answer.body, "license_token");
    const auto check = checkLicenseToken (token, config_.publicKeyHex, { config_.appId, nonce });
    if (! check.ok)
    {
        refuse (LicenseStatus::error, licenseKey, "TOKEN_REJECTED", "license token rejected: " + check.problem);
        return;
    }
    writeCache ({ licenseKey, token, nonce });
    LicenseSnapshot licensed;
    licensed.status = LicenseStatus::licensed;
    licensed.code = "VALID";
    licensed.licenseKey = licenseKey;
    licensed.licenseExpiresAt = stringField (answer.body.getProperty ("license", {}), "expires_at");
    publish (licensed, config_.revalidateEvery);
}

// The service cannot be reached: the last good token carries the plugin for the grace period,
// counted from when the service issued it; its signature, audience and nonce are checked again.
void Licensing::offline (const juce::String& licenseKey, const juce::String& why)
{
    const auto cached = readCache();
    if (! cached || cached->licenseKey != licenseKey)
    {
        refuse (LicenseStatus::error, licenseKey, "OFFLINE", why + "; no saved license on this computer");
        return;
    }
    const auto check = checkLicenseToken (cached->token, config_.publicKeyHex, { config_.appId, cached->nonce });
    if (! check.ok)
    {
        refuse (LicenseStatus::error, licenseKey, "TOKEN_REJECTED", "the saved license token was rejected: " + check.problem);
        return;
    }
    const auto until = juce::Time (check.issuedAtS * 1000) + config_.offlineGrace;
    if (juce::Time::getCurrentTime() >= until)
    {
        refuse (LicenseStatus::error, licenseKey, "OFFLINE",
                why + "; the offline grace period ended on " + until.toString (true, true, false, true));
        return;
    }
    LicenseSnapshot grace;
    grace.status = LicenseStatus::offlineGrace;
    grace.code = "OFFLINE";
    grace.message = why;
    grace.licenseKey = licenseKey;
    grace.graceUntil = until;
    publish (grace, config_.retryOfflineEvery);
}

void Licensing::refuse (LicenseStatus status, const juce::String& licenseKey, const juce::String& code, const juce::String& message)
{
    LicenseSnapshot refused;
    refused.status = status;
    refused.licenseKey = licenseKey;
    refused.code = code;
    refused.message = message;
    publish (refused, code == "OFFLINE" || code == "RATE_LIMITED" ? config_.retryOfflineEvery : juce::RelativeTime());
}

void Licensing::publish (LicenseSnapshot next, juce::RelativeTime checkAgainIn)
{
    bool decided = false;
    {
        const juce::ScopedLock scope (lock_);
        snapshot_ = std::move (next);
        nextCheck_ = checkAgainIn.inMilliseconds() > 0 ? juce::Time::getCurrentTime() + checkAgainIn : juce::Time();
        setStatus (snapshot_.status);
        decided = snapshot_.status != LicenseStatus::checking;
    }
    if (decided) wakeRenderWaiting();
    notifyListeners();
}

// The count goes up before the status is stored (release): a render that reads `checking` reads
// the count of that check or a later one.
void Licensing::setStatus (LicenseStatus next)
{
    if (next == LicenseStatus::checking && status_.load (std::memory_order_relaxed) != LicenseStatus::checking)
        checksBegun_.fetch_add (1, std::memory_order_release);
    status_.store (next, std::memory_order_release);
}

// Taking the mutex between the status store and the notify means a render that has just found
// `checking` is either already waiting (and woken) or has not yet tested the status (and reads
// the decision): no wake-up is lost.
void Licensing::wakeRenderWaiting()
{
    {
        const std::lock_guard<std::mutex> guard (decisionMutex_);
    }
    decided_.notify_all();
}

// Only a non-realtime render gets here (isAudible (true) found `checking`): that thread may block,
// the host renders faster than real time and waits for it. The realtime path never takes it.
bool Licensing::awaitDecision() noexcept
{
    const auto check = checksBegun_.load (std::memory_order_acquire);
    // This check's wait ran out already: the rest of the render follows the status, unwaited.
    if (check == abandonedCheck_.load (std::memory_order_relaxed)) return ple::isAudible (status());
    nonRealtimeWaits_.fetch_add (1, std::memory_order_relaxed);
    try
    {
        std::unique_lock<std::mutex> lock (decisionMutex_);
        const auto decided = decided_.wait_for (lock, std::chrono::milliseconds (juce::jmax<juce::int64> (0, config_.nonRealtimeWait.inMilliseconds())),
                                                [this] { return status() != LicenseStatus::checking || threadShouldExit(); });
        if (! decided) abandonedCheck_.store (check, std::memory_order_relaxed);
    }
    catch (const std::system_error&)
    {
        // The mutex could not be taken (resource exhaustion): render with the status as it is.
    }
    return ple::isAudible (status());
}

// A plugin loaded by a tool with no message loop (JUCE's LV2 manifest helper, a scanner) has no
// MessageManager: nothing to notify, and creating one from this thread would be wrong.
void Licensing::notifyListeners()
{
    if (juce::MessageManager::getInstanceWithoutCreating() != nullptr) sendChangeMessage();
}

std::optional<Licensing::Cached> Licensing::readCache() const
{
    const auto file = config_.cacheFile();
    if (! file.existsAsFile()) return std::nullopt;
    const auto json = juce::JSON::parse (file.loadFileAsString());
    Cached cached { stringField (json, "license_key"), stringField (json, "license_token"), stringField (json, "nonce") };
    if (cached.licenseKey.isEmpty()) return std::nullopt;
    return cached;
}

// Written whole to a temporary file and moved into place: a crash never leaves half a file.
void Licensing::writeCache (const Cached& cached) const
{
    auto* object = new juce::DynamicObject();
    const juce::var json (object);
    object->setProperty ("license_key", cached.licenseKey);
    object->setProperty ("license_token", cached.token);
    object->setProperty ("nonce", cached.nonce);
    const auto file = config_.cacheFile();
    file.getParentDirectory().createDirectory();
    juce::TemporaryFile temporary (file);
    if (temporary.getFile().replaceWithText (juce::JSON::toString (json, true) + "\n")) temporary.overwriteTargetFileWithTemporary();
}

}  // namespace ple
