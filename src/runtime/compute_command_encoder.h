#pragma once

#include "runtime/command_encoder.h"
#include "runtime/dispatch_builder.h"

#include <Metal/MTLComputeCommandEncoder.hpp>

#include <cstdint>
#include <string>

namespace metalcpu::rt {

class CommandBuffer;
class ComputePipelineState;

/// A compute encoder: keeps the current bindings and turns each dispatch into a
/// DispatchCommand with a snapshot of them, as Metal does (buildDispatch). Calls are checked
/// as they are made, as Metal's debug layer checks them (debug_layer.h).
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
    /// useResource(s): kernels reach these through addresses held in other buffers (argument
    /// buffers). Every resource is resident here; one over the program's own memory
    /// (bytesNoCopy, Buffer::staged()) is staged for the dispatches after the call, as a
    /// bound one is for its dispatch.
    void useResources(const MTL::Resource* const resources[], std::uint64_t count, MTL::ResourceUsage usage,
                      const char* selector);
    /// dispatchThreads (`threadsPerGrid` counts threads) or dispatchThreadgroups (it counts groups).
    void dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads);
    /// memoryBarrier: in a concurrent encoder, when it orders buffers (`ordersBuffers`), the
    /// dispatches after it no longer overlap those before it (the hazard check's spans). A
    /// serial encoder's dispatches are ordered already.
    void memoryBarrier(bool ordersBuffers);

private:
    MTL::DispatchType dispatchType_;
    ComputePipelineState* pipeline_ = nullptr;
    std::uint64_t index_ = 0;          ///< among the command buffer's encoders
    std::uint64_t dispatchesMade_ = 0; ///< dispatches recorded so far
    std::uint64_t concurrentSpan_;     ///< DispatchRequest::concurrentSpan of the next dispatch
    Bindings bindings_; ///< what the next dispatch binds
};

} // namespace metalcpu::rt
