#include "runtime/compute_command_encoder.h"

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/dispatch_builder.h"
#include "runtime/sampler_state.h"
#include "runtime/tensor.h"
#include "runtime/texture.h"

#include "validation/dispatch_hazards.h"

namespace metalcpu::rt {
namespace {

constexpr std::uint64_t kBindings = Device::kMaxBufferBindings;
constexpr std::uint64_t kThreadgroupBindings = METALCPU_MAX_THREADGROUP_BINDINGS;

// Apple's names for the checks' places in debug-layer reports (DebugLayer::Site). Metal's
// debug layer reports setBytes under the selector with the attribute stride, whichever
// form the program called.
constexpr const char* kClass = "MTLDebugComputeCommandEncoder";
constexpr const char* kSetBuffer = "setBuffer:offset:atIndex:";
constexpr const char* kSetBufferOffset = "setBufferOffset:atIndex:";
constexpr const char* kSetBytes = "setBytes:length:attributeStride:atIndex:";
constexpr const char* kSetThreadgroupMemory = "setThreadgroupMemoryLength:atIndex:";
constexpr const char* kSetTexture = "setTexture:atIndex:";
constexpr const char* kSetSamplerState = "setSamplerState:atIndex:";

std::string indexText(std::uint64_t index, std::uint64_t limit) {
    return "index(" + std::to_string(index) + ") must be < " + std::to_string(limit) + ".";
}

std::string offsetText(std::uint64_t offset, std::uint64_t length) {
    return "offset(" + std::to_string(offset) + ") must be < [buffer length](" + std::to_string(length) + ").";
}

} // namespace

ComputeCommandEncoder::ComputeCommandEncoder(CommandBuffer* commandBuffer, MTL::DispatchType dispatchType)
    : Implements(commandBuffer, kClass), dispatchType_(dispatchType), index_(commandBuffer->nextEncoderIndex()),
      concurrentSpan_(dispatchType == MTL::DispatchTypeConcurrent ? val::newConcurrentSpan() : 0) {}

void ComputeCommandEncoder::memoryBarrier(bool ordersBuffers) {
    // Dispatches after the barrier see what those before it stored: a new span.
    if (concurrentSpan_ != 0 && ordersBuffers) concurrentSpan_ = val::newConcurrentSpan();
}

void ComputeCommandEncoder::setPipeline(const MTL::ComputePipelineState* pipeline) {
    if (!usable("setComputePipelineState:")) return;
    pipeline_ = ns::implOf<ComputePipelineState>(pipeline);
}

void ComputeCommandEncoder::setBuffer(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t index) {
    if (!usable(kSetBuffer)) return;
    if (index >= kBindings) return DebugLayer::reject({kClass, kSetBuffer, 363}, indexText(index, kBindings));
    Buffer* bound = ns::implOf<Buffer>(buffer);
    if (bound && offset >= bound->length() &&
        DebugLayer::report({kClass, kSetBuffer, 366}, offsetText(offset, bound->length())))
        return;
    bindings_.buffers[index] = BufferBinding{bound, offset, nullptr, 0};
}

void ComputeCommandEncoder::setBufferOffset(std::uint64_t offset, std::uint64_t index) {
    if (!usable(kSetBufferOffset)) return;
    if (index >= kBindings) return DebugLayer::reject({kClass, kSetBufferOffset, 389}, indexText(index, kBindings));
    const Buffer* bound = bindings_.buffers[index].buffer;
    if (bound && offset >= bound->length() &&
        DebugLayer::report({kClass, kSetBufferOffset, 392}, offsetText(offset, bound->length())))
        return;
    bindings_.buffers[index].offset = offset;
}

void ComputeCommandEncoder::setBytes(const void* bytes, std::uint64_t length, std::uint64_t index) {
    if (!usable(kSetBytes)) return;
    if (index >= kBindings) return DebugLayer::reject({kClass, kSetBytes, 397}, indexText(index, kBindings));
    if (length > Device::kMaxSetBytesLength &&
        DebugLayer::report({kClass, kSetBytes, 400}, "length(" + std::to_string(length) + ") must be <= " +
                                                         std::to_string(Device::kMaxSetBytesLength) + "."))
        return;
    bindings_.buffers[index] = BufferBinding{nullptr, 0, commandBuffer_->copyBytes(bytes, length), length};
}

void ComputeCommandEncoder::setThreadgroupMemoryLength(std::uint64_t length, std::uint64_t index) {
    if (!usable(kSetThreadgroupMemory)) return;
    if (index >= kThreadgroupBindings)
        return DebugLayer::reject({kClass, kSetThreadgroupMemory, 810}, indexText(index, kThreadgroupBindings));
    const std::string lengthText = "length(" + std::to_string(length) + ")";
    if (length > Device::kMaxThreadgroupMemoryLength &&
        DebugLayer::report({kClass, kSetThreadgroupMemory, 814},
                           lengthText + " must be <= " + std::to_string(Device::kMaxThreadgroupMemoryLength) + "."))
        return;
    if (length % 16 != 0 &&
        DebugLayer::report({kClass, kSetThreadgroupMemory, 817}, lengthText + " must be a multiple of 16 bytes."))
        return;
    bindings_.threadgroupLengths[index] = length;
}

void ComputeCommandEncoder::setTexture(const MTL::Texture* texture, std::uint64_t index) {
    if (!usable(kSetTexture)) return;
    if (index >= METALCPU_MAX_TEXTURE_BINDINGS)
        return DebugLayer::reject({kClass, kSetTexture, 420}, indexText(index, METALCPU_MAX_TEXTURE_BINDINGS));
    bindings_.textures[index] = ns::implOf<Texture>(texture);
}

void ComputeCommandEncoder::setSamplerState(const MTL::SamplerState* sampler, std::uint64_t index) {
    if (!usable(kSetSamplerState)) return;
    if (index >= METALCPU_MAX_SAMPLER_BINDINGS)
        return DebugLayer::reject({kClass, kSetSamplerState, 455}, indexText(index, METALCPU_MAX_SAMPLER_BINDINGS));
    bindings_.samplers[index] = ns::implOf<SamplerState>(sampler);
}

namespace {

/// The buffer whose memory a kernel reaches through `resource`: the buffer itself, a
/// texture's (its root's, for a view), a tensor's; null for one with memory of its own.
Buffer* memoryOf(const MTL::Resource* resource) {
    ns::ObjectBase* object = ns::ObjectBase::from(resource);
    if (auto* buffer = dynamic_cast<Buffer*>(object)) return buffer;
    if (auto* texture = dynamic_cast<Texture*>(object)) return texture->memoryBuffer();
    if (auto* tensor = dynamic_cast<Tensor*>(object)) return tensor->buffer();
    return nullptr;
}

} // namespace

void ComputeCommandEncoder::useResources(const MTL::Resource* const resources[], std::uint64_t count,
                                         MTL::ResourceUsage usage, const char* selector) {
    if (!usable(selector) || !resources) return;
    const bool writes = (usage & MTL::ResourceUsageWrite) != 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        Buffer* buffer = memoryOf(resources[i]);
        if (!buffer) continue;
        commandBuffer_->keepAlive(buffer->asPublicClass());
        commandBuffer_->useBuffer(buffer, writes);
    }
}

void ComputeCommandEncoder::dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads) {
    const char* selector =
        gridCountsThreads ? "dispatchThreads:threadsPerThreadgroup:" : "dispatchThreadgroups:threadsPerThreadgroup:";
    if (!usable(selector)) return;
    const DispatchRequest request{kClass, selector, pipeline_, grid, threadsPerThreadgroup, gridCountsThreads,
                                  &rt::CommandEncoder::label(), index_, dispatchesMade_, concurrentSpan_, false};
    if (buildDispatch(request, bindings_, *commandBuffer_->device(), *commandBuffer_)) ++dispatchesMade_;
}

} // namespace metalcpu::rt
