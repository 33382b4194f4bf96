#pragma once

#include "runtime/commands.h"
#include "runtime/device.h"

#include <Metal/MTLTypes.hpp>

#include <cstdint>
#include <string>

namespace metalcpu::rt {

class Buffer;
class ComputePipelineState;
class Label;
class SamplerState;
class Tensor;
class Texture;

/// What is bound at one buffer index: a buffer and an offset, or setBytes data.
struct BufferBinding {
    Buffer* buffer = nullptr;  ///< not retained; the sink keeps it alive once a dispatch uses it
    std::uint64_t offset = 0;
    void* bytes = nullptr;     ///< setBytes data, owned by the command buffer
    std::uint64_t bytesLength = 0;
    bool bound() const { return buffer || bytes; }
};

/// Everything a dispatch can read: the classic encoder's current state, or the snapshot of
/// an MTL4 argument table plus its encoder's threadgroup lengths. Pointers are not retained.
struct Bindings {
    BufferBinding buffers[Device::kMaxBufferBindings];
    std::uint64_t threadgroupLengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    Texture* textures[METALCPU_MAX_TEXTURE_BINDINGS] = {};
    SamplerState* samplers[METALCPU_MAX_SAMPLER_BINDINGS] = {};
    Tensor* tensors[Device::kMaxBufferBindings] = {}; ///< at tensor_handle parameters' buffer indices
};

/// One dispatch call of an encoder.
struct DispatchRequest {
    const char* debugClassName; ///< the encoder in debug-layer reports, e.g. "MTLDebugComputeCommandEncoder"
    const char* selector;       ///< dispatchThreads:… or dispatchThreadgroups:…
    ComputePipelineState* pipeline;
    MTL::Size grid;
    MTL::Size threadsPerThreadgroup;
    bool gridCountsThreads; ///< dispatchThreads (`grid` counts threads) or dispatchThreadgroups (groups)
    const Label* encoderLabel;   ///< names the encoder in shader-validation reports…
    std::uint64_t encoderIndex;  ///< …or, without a label, its place in the command buffer
    std::uint64_t dispatchIndex; ///< dispatches the encoder recorded before this one
    /// The encoder's dispatches a GPU may run at once with this one, up to its next barrier
    /// (val::newConcurrentSpan()); 0 in a serial encoder.
    std::uint64_t concurrentSpan;
    bool fromArgumentTable;      ///< an MTL4 encoder: Metal 4's wording for unset bindings
};

/// Turns a dispatch call and the bindings it sees into a DispatchCommand appended to `sink`:
/// grid checks, per-parameter binding with the debug layer's checks, and what shader
/// validation needs. Both compute encoders (classic and MTL4) use it. A mistake is reported
/// by the debug layer (when it is on) and recorded, so that the command buffer fails at this
/// dispatch; mistakes Metal itself does not catch drop the dispatch only when the layer
/// reported them. Returns whether a valid dispatch was recorded.
bool buildDispatch(const DispatchRequest& request, const Bindings& bindings, Device& device, CommandSink& sink);

} // namespace metalcpu::rt
