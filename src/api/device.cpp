// MTL::Device itself: how a program finds it (CreateSystemDefaultDevice, CopyAllDevices, the
// device observers and notification names) and what it is (name, registry ID, location,
// MTL::Architecture). What it can do is device_capabilities.cpp, what it makes
// device_factories.cpp and device_metal4.cpp.
#include "api/settings.h"
#include "foundation/factories.h"
#include "foundation/string.h"
#include "runtime/device.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>
#include <Metal/MTLDevice.hpp>

#include <sys/utsname.h>

#include <string>

namespace metalcpu::api {
namespace {

class Architecture final : public Settings<Architecture, MTL::Architecture> {
public:
    const char* className() const override { return "MTLArchitecture"; }

    struct State {
        Property<NS::String> name;
    } state;
};

/// The device's architecture, named after the host CPU ("metalcpu_x86_64"); never freed.
MTL::Architecture* hostArchitecture() {
    static MTL::Architecture* const architecture = [] {
        auto* made = static_cast<Architecture*>(ns::make<Architecture>());
        utsname host{};
        std::string machine = uname(&host) == 0 ? host.machine : "unknown";
        made->state.name.adopt(ns::makeString("metalcpu_" + machine));
        made->makeImmortal();
        return static_cast<MTL::Architecture*>(made);
    }();
    return architecture;
}

// Apple's names for the device notifications.
constinit ns::Immortal<ns::String> deviceWasAdded{ns::String::ConstantText{},
                                                  std::string_view("MTLDeviceWasAddedNotification")};
constinit ns::Immortal<ns::String> deviceRemovalRequested{ns::String::ConstantText{},
                                                          std::string_view("MTLDeviceRemovalRequestedNotification")};
constinit ns::Immortal<ns::String> deviceWasRemoved{ns::String::ConstantText{},
                                                    std::string_view("MTLDeviceWasRemovedNotification")};

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;
using metalcpu::ns::implOf;
using Dev = metalcpu::rt::Device;

MTL::Device* MTL::CreateSystemDefaultDevice() {
    Dev* device = Dev::systemDefault();
    device->retain();
    return device;
}

NS::Array* MTL::CopyAllDevices() {
    return metalcpu::ns::makeArray({Dev::systemDefault()->asPublic()});
}

const MTL::DeviceNotificationName MTL::DeviceWasAddedNotification = &api::deviceWasAdded.value;
const MTL::DeviceNotificationName MTL::DeviceRemovalRequestedNotification = &api::deviceRemovalRequested.value;
const MTL::DeviceNotificationName MTL::DeviceWasRemovedNotification = &api::deviceWasRemoved.value;

// There is one device and it never comes or goes, so the handler is never called and there is
// no observer to remove.
NS::Array* MTL::CopyAllDevicesWithObserver(NS::Object** pOutObserver, const DeviceNotificationHandlerFunction&) {
    if (pOutObserver) *pOutObserver = nullptr;
    return CopyAllDevices();
}
#if defined(__BLOCKS__)
NS::Array* MTL::CopyAllDevicesWithObserver(NS::Object** pOutObserver, DeviceNotificationHandlerBlock) {
    if (pOutObserver) *pOutObserver = nullptr;
    return CopyAllDevices();
}
#endif
void MTL::RemoveDeviceObserver(const NS::Object*) {}

METALCPU_ALLOC_INIT(MTL::Architecture, api::Architecture)
NS::String* MTL::Architecture::name() const {
    auto* self = implOf<api::Architecture>(this);
    return self ? self->state.name.get() : nullptr;
}

// Identity: a built-in device of its own peer group.
NS::String* MTL::Device::name() const {
    static NS::String* name = metalcpu::ns::makeString(Dev::systemDefault()->name());
    return implOf<Dev>(this) ? name : nullptr;
}
std::uint64_t MTL::Device::registryID() const { return implOf<Dev>(this) ? 0x100000c0deull : 0; }
MTL::Architecture* MTL::Device::architecture() const {
    return implOf<Dev>(this) ? api::hostArchitecture() : nullptr;
}
MTL::DeviceLocation MTL::Device::location() const { return DeviceLocationBuiltIn; }
NS::UInteger MTL::Device::locationNumber() const { return 0; }
std::uint64_t MTL::Device::peerGroupID() const { return 0; }
std::uint32_t MTL::Device::peerIndex() const { return 0; }
std::uint32_t MTL::Device::peerCount() const { return 0; }
bool MTL::Device::isLowPower() const { return false; }
bool MTL::Device::lowPower() const { return false; }
bool MTL::Device::isHeadless() const { return implOf<Dev>(this) != nullptr; }
bool MTL::Device::headless() const { return implOf<Dev>(this) != nullptr; }
bool MTL::Device::isRemovable() const { return false; }
bool MTL::Device::removable() const { return false; }
bool MTL::Device::hasUnifiedMemory() const { return implOf<Dev>(this) != nullptr; }
