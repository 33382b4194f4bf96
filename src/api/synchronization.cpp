// Synchronisation objects: MTL::Event and MTL::SharedEvent (both rt::SharedEvent), the
// listener that runs shared-event notifications, the handle (not yet: it shares an event
// with another process) and MTL::Fence (not yet: Device::newFence logs once and returns
// nullptr, and encoders accept nil fences and do nothing).
#include "api/blocks.h"
#include "api/not_yet.h"
#include "runtime/device.h"
#include "runtime/shared_event.h"

#include <Metal/MTLEvent.hpp>
#include <Metal/MTLFence.hpp>

#include <chrono>

using metalcpu::ns::implOf;
using Ev = metalcpu::rt::SharedEvent;
using Listener = metalcpu::rt::SharedEventListener;

NS::String* MTL::Event::label() const {
    auto* self = implOf<Ev>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::Event::setLabel(const NS::String* label) {
    if (auto* self = implOf<Ev>(this)) self->label().set(label);
}
MTL::Device* MTL::Event::device() const {
    auto* self = implOf<Ev>(this);
    return self ? self->device() : nullptr;
}

MTL::SharedEventListener* MTL::SharedEventListener::alloc() { return metalcpu::ns::make<Listener>(); }
MTL::SharedEventListener* MTL::SharedEventListener::sharedListener() { return Listener::shared(); }
MTL::SharedEventListener* MTL::SharedEventListener::init() { return implOf<Listener>(this) ? this : nullptr; }

MTL::SharedEventHandle* MTL::SharedEventHandle::alloc() {
    metalcpu::api::cannotMake("MTL::SharedEventHandle::alloc");
    return nullptr;
}
MTL::SharedEventHandle* MTL::SharedEventHandle::init() { return nullptr; }
NS::String* MTL::SharedEventHandle::label() const { return nullptr; }

std::uint64_t MTL::SharedEvent::signaledValue() const { return metalcpu::ns::call<Ev>(this, &Ev::value); }
void MTL::SharedEvent::setSignaledValue(std::uint64_t signaledValue) {
    if (auto* self = implOf<Ev>(this)) self->signal(signaledValue);
}
bool MTL::SharedEvent::waitUntilSignaledValue(std::uint64_t value, std::uint64_t milliseconds) {
    auto* self = implOf<Ev>(this);
    if (!self) return false;
    // Beyond what chrono counts in milliseconds without overflow: wait without a limit.
    constexpr std::uint64_t kForever = std::uint64_t(1) << 60;
    if (milliseconds >= kForever) {
        self->waitFor(value);
        return true;
    }
    return self->waitFor(value, std::chrono::milliseconds(milliseconds));
}
void MTL::SharedEvent::notifyListener(const SharedEventListener* listener, std::uint64_t value,
                                     const SharedEventNotificationFunction& function) {
    auto* self = implOf<Ev>(this);
    auto* target = implOf<Listener>(listener);
    if (self && target && function) self->notify(target, value, function);
}
#if defined(__BLOCKS__)
void MTL::SharedEvent::notifyListener(const SharedEventListener* listener, std::uint64_t value,
                                     const SharedEventNotificationBlock block) {
    notifyListener(listener, value, SharedEventNotificationFunction(metalcpu::api::functionOf(block)));
}
#endif
// Sharing an event with another process needs a handle metalcpu cannot make yet.
MTL::SharedEventHandle* MTL::SharedEvent::newSharedEventHandle() {
    metalcpu::api::notYet<Ev>(this, "MTL::SharedEvent::newSharedEventHandle");
    return nullptr;
}

NS::String* MTL::Fence::label() const { return nullptr; }
void MTL::Fence::setLabel(const NS::String*) {}
MTL::Device* MTL::Fence::device() const { return nullptr; }
