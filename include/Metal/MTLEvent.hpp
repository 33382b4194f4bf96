// metalcpu: Event and SharedEvent, counters that command buffers signal and wait on.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>
#include <functional>

namespace MTL {

class Device;
class SharedEvent;

#if defined(__BLOCKS__)
using SharedEventNotificationBlock = void (^)(SharedEvent* pEvent, std::uint64_t value);
#endif
using SharedEventNotificationFunction = std::function<void(SharedEvent* pEvent, std::uint64_t value)>;

// Synchronises command buffers on one device.
class Event : public NS::Referencing<Event> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    Device* device() const;
};

// Where SharedEvent notifications are delivered.
class SharedEventListener : public NS::Referencing<SharedEventListener> {
public:
    static SharedEventListener* alloc();
    static SharedEventListener* sharedListener();
    SharedEventListener* init();
};

// A handle that lets another process open the same SharedEvent.
class SharedEventHandle : public NS::SecureCoding<SharedEventHandle> {
public:
    static SharedEventHandle* alloc();
    SharedEventHandle* init();

    NS::String* label() const;
};

// An event whose value the CPU can read, set and wait for.
class SharedEvent : public NS::Referencing<SharedEvent, Event> {
public:
    std::uint64_t signaledValue() const;
    void setSignaledValue(std::uint64_t signaledValue);
    bool waitUntilSignaledValue(std::uint64_t value, std::uint64_t milliseconds);

    void notifyListener(const SharedEventListener* listener, std::uint64_t value,
                        const SharedEventNotificationFunction& function);
#if defined(__BLOCKS__)
    void notifyListener(const SharedEventListener* listener, std::uint64_t value,
                        const SharedEventNotificationBlock block);
#endif

    SharedEventHandle* newSharedEventHandle();
};

} // namespace MTL
