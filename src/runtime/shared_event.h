#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLEvent.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace metalcpu::rt {

class Device;

/// Where shared-event notifications run: one helper thread per listener, running them in the
/// order they become due (Apple's listeners deliver on a dispatch queue). The thread starts
/// with the first notification; destroying the listener runs what is queued, then joins it.
class SharedEventListener final : public ns::Implements<MTL::SharedEventListener> {
public:
    /// The process-wide listener of SharedEventListener::sharedListener(); never destroyed.
    static SharedEventListener* shared();
    SharedEventListener() = default;
    ~SharedEventListener() override;

    const char* className() const override { return "MTLSharedEventListener"; }
    /// Queues `notification` to run on the listener's thread.
    void post(std::function<void()> notification);

private:
    /// What the thread uses, shared with it: a notification may drop the last reference to
    /// the listener on the listener's own thread, which then outlives the object.
    struct Worker {
        std::mutex mutex;
        std::condition_variable wake;
        std::deque<std::function<void()>> queue;
        bool stopping = false;
    };
    static void run(const std::shared_ptr<Worker>& worker);

    std::shared_ptr<Worker> worker_ = std::make_shared<Worker>();
    std::once_flag started_;
    std::thread thread_;
};

/// A 64-bit counter that command buffers and queues signal and wait on, and (for
/// MTL::SharedEvent) the program too. One class backs both MTL::Event and MTL::SharedEvent:
/// a plain event is the same counter without the host methods.
class SharedEvent final : public ns::Implements<MTL::SharedEvent> {
public:
    using Notification = std::function<void(MTL::SharedEvent*, std::uint64_t)>;

    SharedEvent(Device* device, bool shared) : device_(device), shared_(shared) {}
    ~SharedEvent() override;

    /// The event behind a public MTL::Event or MTL::SharedEvent; nullptr for nil (or
    /// another class, logged).
    static SharedEvent* of(MTL::Event* event);

    const char* className() const override { return shared_ ? "MTLSharedEvent" : "MTLEvent"; }
    std::string description() const override;
    Device* device() const { return device_; }
    Label& label() { return label_; }
    /// Whether the program made it with newSharedEvent (else newEvent).
    bool isShared() const { return shared_; }

    /// Sets the value (setSignaledValue, a queue's signalEvent), wakes the waiters it
    /// satisfies and posts the notifications that become due.
    void signal(std::uint64_t value);
    std::uint64_t value() const;
    /// Blocks until the value is at least `value`.
    void waitFor(std::uint64_t value);
    /// The same with a time limit: false when it passes first.
    bool waitFor(std::uint64_t value, std::chrono::milliseconds limit);
    /// Runs `notification` on `listener`'s thread once the value is at least `value`
    /// (straight away when it already is).
    void notify(SharedEventListener* listener, std::uint64_t value, Notification notification);

private:
    struct Pending {
        SharedEventListener* listener; ///< retained until posted
        std::uint64_t value;
        Notification notification;
    };
    /// Hands `due` to their listeners (outside the lock: a listener may be destroyed here).
    void post(std::vector<Pending> due, std::uint64_t value);

    Device* device_;
    bool shared_;
    Label label_;
    mutable std::mutex mutex_;
    std::condition_variable signaled_;
    std::uint64_t value_ = 0;
    std::vector<Pending> pending_;
};

} // namespace metalcpu::rt
