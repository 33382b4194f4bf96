// GPU frame capture: MTL::CaptureDescriptor (settings), and MTL::CaptureManager and
// MTL::CaptureScope, which metalcpu cannot make: there is no capture tool, so
// sharedCaptureManager() and alloc() log once and return nullptr, and the manager's and
// scopes' methods only ever see nil (startCapture returns false).
#include "api/not_yet.h"
#include "api/settings.h"
#include "runtime/errors.h"

#include <Foundation/NSURL.hpp>
#include <Metal/MTLCaptureManager.hpp>

namespace metalcpu::api {
namespace {

class CaptureDescriptor final : public Settings<CaptureDescriptor, MTL::CaptureDescriptor> {
public:
    const char* className() const override { return "MTLCaptureDescriptor"; }

    struct State {
        Property<NS::Object, Keep::Retain> captureObject;
        MTL::CaptureDestination destination = MTL::CaptureDestinationDeveloperTools;
        Property<NS::URL> outputURL;
    } state;
};

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::CaptureDescriptor;

METALCPU_ALLOC_INIT(MTL::CaptureDescriptor, Descriptor)
NS::Object* MTL::CaptureDescriptor::captureObject() const {
    auto* self = metalcpu::ns::implOf<Descriptor>(this);
    return self ? self->state.captureObject.get() : nullptr;
}
void MTL::CaptureDescriptor::setCaptureObject(NS::Object* captureObject) {
    if (auto* self = metalcpu::ns::implOf<Descriptor>(this)) self->state.captureObject.set(captureObject);
}
METALCPU_VALUE(MTL::CaptureDescriptor, Descriptor, MTL::CaptureDestination, destination, setDestination, destination)
METALCPU_OBJECT(MTL::CaptureDescriptor, Descriptor, NS::URL, outputURL, setOutputURL, outputURL)

// No CaptureManager or CaptureScope exists (see above).
MTL::CaptureManager* MTL::CaptureManager::sharedCaptureManager() {
    metalcpu::api::cannotMake("MTL::CaptureManager::sharedCaptureManager");
    return nullptr;
}
MTL::CaptureManager* MTL::CaptureManager::alloc() {
    metalcpu::api::cannotMake("MTL::CaptureManager::alloc");
    return nullptr;
}
MTL::CaptureManager* MTL::CaptureManager::init() { return nullptr; }
MTL::CaptureScope* MTL::CaptureManager::newCaptureScope(const Device*) { return nullptr; }
MTL::CaptureScope* MTL::CaptureManager::newCaptureScope(const CommandQueue*) { return nullptr; }
MTL::CaptureScope* MTL::CaptureManager::newCaptureScope(const MTL4::CommandQueue*) { return nullptr; }
MTL::CaptureScope* MTL::CaptureManager::defaultCaptureScope() const { return nullptr; }
void MTL::CaptureManager::setDefaultCaptureScope(const CaptureScope*) {}
bool MTL::CaptureManager::supportsDestination(CaptureDestination) { return false; }
bool MTL::CaptureManager::startCapture(const CaptureDescriptor*, NS::Error** error) { metalcpu::rt::clearError(error); return false; }
void MTL::CaptureManager::startCapture(const Device*) {}
void MTL::CaptureManager::startCapture(const CommandQueue*) {}
void MTL::CaptureManager::startCapture(const CaptureScope*) {}
void MTL::CaptureManager::stopCapture() {}
bool MTL::CaptureManager::isCapturing() const { return false; }

NS::String* MTL::CaptureScope::label() const { return nullptr; }
void MTL::CaptureScope::setLabel(const NS::String*) {}
MTL::Device* MTL::CaptureScope::device() const { return nullptr; }
MTL::CommandQueue* MTL::CaptureScope::commandQueue() const { return nullptr; }
void MTL::CaptureScope::beginScope() {}
void MTL::CaptureScope::endScope() {}
