#include "runtime/device.h"

#include "runtime/buffer.h"
#include "runtime/command_queue.h"
#include "runtime/debug_layer.h"
#include <metalcpu/kernel_abi.h>
#include "support/config.h"
#include "support/files.h"
#include "support/log.h"
#include "validation/settings.h"
#include "validation/startup.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <unistd.h>

namespace metalcpu::rt {
namespace {

std::string cpuModel() {
    std::string info = support::readFile("/proc/cpuinfo").value_or("");
    std::string::size_type at = info.find("model name");
    if (at == std::string::npos) return "CPU";
    at = info.find(':', at);
    std::string::size_type end = info.find('\n', at);
    std::string model = info.substr(at + 1, end - at - 1);
    while (!model.empty() && model.front() == ' ') model.erase(model.begin());
    return model;
}

std::uint64_t physicalMemory() {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return (pages > 0 && pageSize > 0) ? std::uint64_t(pages) * std::uint64_t(pageSize) : (std::uint64_t(8) << 30);
}

} // namespace

Device::Device() {
    name_ = "metalcpu " + cpuModel();
    std::uint64_t memory = physicalMemory();
    // Apple silicon reports about three quarters of memory as the working set and lets a
    // single buffer take about half.
    workingSetSize_ = memory / 4 * 3;
    maxBufferLength_ = memory / 2;
    // A misspelt METALCPU_ variable or a value that cannot be used is said before anything runs.
    support::warnAboutConfiguration();
    if (static_cast<int>(threadExecutionWidth()) != support::config().simdWidth)
        support::warnOnce("METALCPU_SIMD_WIDTH=" + std::to_string(support::config().simdWidth) +
                          " is not a power of two from 4 to " + std::to_string(METALCPU_MAX_SIMD_WIDTH) + "; using 32");
    // Metal reads the shader-validation switches when the device is created.
    val::startShaderValidation(val::shaderValidationSettings());
    DebugLayer::configure();
    emulation_ = GpuEmulation::fromConfig();
}

Device* Device::systemDefault() {
    // Leaked on purpose: the device outlives every object that points at it.
    static Device* device = new Device;
    return device;
}

std::string Device::description() const { return "<MTLDevice: " + name_ + ">"; }

std::uint32_t Device::threadExecutionWidth() const {
    // A power of two from 4 (a quad) to 64 (METALCPU_MAX_SIMD_WIDTH); anything else is Apple's 32.
    const int width = support::config().simdWidth;
    const bool valid = width >= 4 && width <= METALCPU_MAX_SIMD_WIDTH && (width & (width - 1)) == 0;
    return valid ? static_cast<std::uint32_t>(width) : 32u;
}

bool Device::supportsFamily(MTL::GPUFamily family) const {
    // An Apple GPU of the emulated family (METALCPU_GPU_FAMILY): AppleN up to it, and the
    // families every Apple7+ GPU has, Metal 4 included (tensors, the MTL4 command model).
    if (family >= MTL::GPUFamilyApple1 && family <= MTL::GPUFamilyApple10)
        return static_cast<std::uint32_t>(family) <= emulation_.family;
    switch (family) {
    case MTL::GPUFamilyMac2: case MTL::GPUFamilyCommon1: case MTL::GPUFamilyCommon2:
    case MTL::GPUFamilyCommon3: case MTL::GPUFamilyMetal3: case MTL::GPUFamilyMetal4:
        return true;
    default:
        return false;
    }
}

bool Device::validBufferLength(std::uint64_t length) const {
    constexpr const char* kClass = "MTLDebugDevice";
    constexpr const char* kSelector = "validateNewBufferArgs:options:";
    if (length == 0) {
        DebugLayer::reject({kClass, kSelector, 365}, "Cannot create buffer of zero length.");
        return false;
    }
    if (length > maxBufferLength_) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(length));
        DebugLayer::reject({kClass, kSelector, 366}, std::string("newBufferWith*:length ") + hex + " must not exceed " +
                                                         std::to_string(maxBufferLength_ >> 20) + " MB.");
        return false;
    }
    return true;
}

MTL::Buffer* Device::newBuffer(std::uint64_t length, MTL::ResourceOptions options) {
    if (!validBufferLength(length)) return nullptr;
    MTL::Buffer* buffer = ns::make<Buffer>(this, length, options);
    if (!ns::implOf<Buffer>(buffer)->memory()) {
        buffer->release();
        support::log().error("newBuffer: out of memory for {} bytes", length);
        return nullptr;
    }
    return buffer;
}

MTL::Buffer* Device::newBuffer(const void* bytes, std::uint64_t length, MTL::ResourceOptions options) {
    if (!bytes) {
        // Metal has nothing to copy from; the buffer would silently hold zeros instead of data.
        DebugLayer::reject({"MTLDebugDevice", "newBufferWithBytes:length:options:", 409}, "pointer must not be nil.");
        return nullptr;
    }
    MTL::Buffer* buffer = newBuffer(length, options);
    if (buffer) std::memcpy(ns::implOf<Buffer>(buffer)->memory(), bytes, static_cast<size_t>(length));
    return buffer;
}

MTL::Buffer* Device::newBufferNoCopy(void* bytes, std::uint64_t length, MTL::ResourceOptions options,
                                     std::function<void(void*, std::uint64_t)> deallocator) {
    if (!bytes) {
        DebugLayer::reject({"MTLDebugDevice", "newBufferWithBytesNoCopy:length:options:deallocator:", 412},
                           "pointer must not be nil.");
        return nullptr;
    }
    if (!validBufferLength(length)) return nullptr;
    MTL::Buffer* buffer = ns::make<Buffer>(this, bytes, length, options, std::move(deallocator));
    if (!ns::implOf<Buffer>(buffer)->memory()) {
        buffer->release();
        support::log().error("newBufferWithBytesNoCopy: no memory the device process shares for {} bytes", length);
        return nullptr;
    }
    return buffer;
}

MTL::CommandQueue* Device::newCommandQueue(std::uint64_t maxCommandBufferCount) {
    return ns::make<CommandQueue>(this, maxCommandBufferCount);
}

} // namespace metalcpu::rt
