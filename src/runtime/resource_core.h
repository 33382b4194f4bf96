#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLResource.hpp>

#include <cstdint>

namespace metalcpu::rt {

class Device;

/// What buffers and textures share as MTL::Resource: the device, the resource options
/// (storage and CPU cache modes, hazard tracking) and the label. The core of both
/// implementation classes, so MTL::Resource's methods reach either through one cast.
class ResourceCore : public ns::ObjectBase {
public:
    ResourceCore(Device* device, MTL::ResourceOptions options) : device_(device), options_(options) {}

    Device* device() const { return device_; }
    MTL::ResourceOptions options() const { return options_; }
    MTL::StorageMode storageMode() const { return static_cast<MTL::StorageMode>((options_ >> 4) & 0xf); }
    Label& label() { return label_; }
    const Label& label() const { return label_; }
    /// The memory the resource occupies, in whole pages.
    virtual std::uint64_t allocatedSize() const = 0;

private:
    Device* device_;
    MTL::ResourceOptions options_;
    Label label_;
};

} // namespace metalcpu::rt
