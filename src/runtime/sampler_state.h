#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <metalcpu/kernel_abi.h>

#include <cstdint>

#include <Metal/MTLSampler.hpp>

namespace metalcpu::rt {

class Device;

/// An immutable sampler state: the mc_sampler kernels bound to it read.
class SamplerState final : public ns::Implements<MTL::SamplerState> {
public:
    SamplerState(Device* device, const mc_sampler& state, const NS::String* label);

    const char* className() const override { return "MTLSamplerState"; }

    Device* device() const { return device_; }
    Label& label() { return label_; }
    ~SamplerState() override;

    /// What kernels bound to this sampler see.
    const mc_sampler* kernelView() const { return &state_; }
    /// gpuResourceID(): the address of a copy of kernelView() that kernels reach through an
    /// argument buffer (ResourceDescriptors); 0 when there was no memory for one.
    std::uint64_t resourceID() const { return resourceId_; }

private:
    Device* device_;
    mc_sampler state_;
    Label label_;
    std::uint64_t resourceId_ = 0;
};

} // namespace metalcpu::rt
