// Synchronisation objects: MTL::Event, MTL::SharedEvent and its listener and handle, and
// MTL::Fence. metalcpu cannot make them yet (Device::newEvent, newSharedEvent, newFence and the
// listener's alloc and sharedListener log once and return nullptr), so their methods only ever
// see nil. Encoders and command buffers accept the nil events and fences and do nothing.
#include "api/not_yet.h"

#include <Metal/MTLEvent.hpp>
#include <Metal/MTLFence.hpp>

NS::String* MTL::Event::label() const { return nullptr; }
void MTL::Event::setLabel(const NS::String*) {}
MTL::Device* MTL::Event::device() const { return nullptr; }

MTL::SharedEventListener* MTL::SharedEventListener::alloc() {
    metalcpu::api::cannotMake("MTL::SharedEventListener::alloc");
    return nullptr;
}
MTL::SharedEventListener* MTL::SharedEventListener::sharedListener() {
    metalcpu::api::cannotMake("MTL::SharedEventListener::sharedListener");
    return nullptr;
}
MTL::SharedEventListener* MTL::SharedEventListener::init() { return nullptr; }

MTL::SharedEventHandle* MTL::SharedEventHandle::alloc() {
    metalcpu::api::cannotMake("MTL::SharedEventHandle::alloc");
    return nullptr;
}
MTL::SharedEventHandle* MTL::SharedEventHandle::init() { return nullptr; }
NS::String* MTL::SharedEventHandle::label() const { return nullptr; }

std::uint64_t MTL::SharedEvent::signaledValue() const { return 0; }
void MTL::SharedEvent::setSignaledValue(std::uint64_t) {}
bool MTL::SharedEvent::waitUntilSignaledValue(std::uint64_t, std::uint64_t) { return false; }
void MTL::SharedEvent::notifyListener(const SharedEventListener*, std::uint64_t,
                                     const SharedEventNotificationFunction&) {}
#if defined(__BLOCKS__)
void MTL::SharedEvent::notifyListener(const SharedEventListener*, std::uint64_t, const SharedEventNotificationBlock) {}
#endif
MTL::SharedEventHandle* MTL::SharedEvent::newSharedEventHandle() { return nullptr; }

NS::String* MTL::Fence::label() const { return nullptr; }
void MTL::Fence::setLabel(const NS::String*) {}
MTL::Device* MTL::Fence::device() const { return nullptr; }
