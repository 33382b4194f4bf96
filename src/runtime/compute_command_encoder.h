#pragma once

#include "runtime/command_encoder.h"
#include "runtime/commands.h"
#include "validation/dispatch_validation.h"

#include <Metal/MTLComputeCommandEncoder.hpp>

#include <cstdint>
#include <string>

namespace metalcpu::rt {

class Buffer;
class CommandBuffer;
class SamplerState;
class Texture;
class ComputePipelineState;

/// A compute encoder: keeps the current bindings and turns each dispatch into a
/// DispatchCommand with a snapshot of them, as Metal does. Calls are checked as they are
/// made, as Metal's debug layer checks them (debug_layer.h).
class ComputeCommandEncoder final : public ns::Implements<MTL::ComputeCommandEncoder, CommandEncoder> {
public:
    ComputeCommandEncoder(CommandBuffer* commandBuffer, MTL::DispatchType dispatchType);
    const char* className() const override { return "MTLComputeCommandEncoder"; }

    MTL::DispatchType dispatchType() const { return dispatchType_; }

    void setPipeline(const MTL::ComputePipelineState* pipeline);
    void setBuffer(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t index);
    void setBufferOffset(std::uint64_t offset, std::uint64_t index);
    void setBytes(const void* bytes, std::uint64_t length, std::uint64_t index);
    void setThreadgroupMemoryLength(std::uint64_t length, std::uint64_t index);
    void setTexture(const MTL::Texture* texture, std::uint64_t index);
    void setSamplerState(const MTL::SamplerState* sampler, std::uint64_t index);
    /// dispatchThreads (`threadsPerGrid` counts threads) or dispatchThreadgroups (it counts groups).
    void dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads);

private:
    /// What shader validation needs to know about the binding of a buffer parameter.
    val::BufferBinding checkedBinding(const mc_param& param) const;
    /// Binds zeroed memory to the buffer arguments of `kernel` that have nothing bound, for a
    /// plain run when the checked flavour (`why` it is unavailable) cannot guard them.
    void bindStandIns(const mc_kernel& kernel, DispatchCommand& command, const std::string& why);

    struct Binding {
        Buffer* buffer = nullptr;          ///< not retained; the command buffer retains it at dispatch
        std::uint64_t offset = 0;
        void* bytes = nullptr;             ///< setBytes data, owned by the command buffer
        std::uint64_t bytesLength = 0;
        bool bound() const { return buffer || bytes; }
    };

    MTL::DispatchType dispatchType_;
    ComputePipelineState* pipeline_ = nullptr;
    std::uint64_t index_ = 0;          ///< among the command buffer's encoders
    std::uint64_t dispatchesMade_ = 0; ///< dispatches recorded so far
    Binding buffers_[31];
    std::uint64_t threadgroupLengths_[31] = {};
    Texture* textures_[METALCPU_MAX_TEXTURE_BINDINGS] = {};      ///< not retained, as buffers_
    SamplerState* samplers_[METALCPU_MAX_SAMPLER_BINDINGS] = {}; ///< not retained, as buffers_
};

} // namespace metalcpu::rt
