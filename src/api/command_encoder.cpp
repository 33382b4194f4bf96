// MTL::CommandEncoder, MTL::ComputeCommandEncoder, MTL::BlitCommandEncoder and
// MTL::ComputePassDescriptor.
#include "api/not_yet.h"
#include "runtime/blit_command_encoder.h"
#include "runtime/command_buffer.h"
#include "runtime/command_encoder.h"
#include "runtime/compute_command_encoder.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"

#include <Metal/MTLBlitCommandEncoder.hpp>
#include <Metal/MTLComputeCommandEncoder.hpp>
#include <Metal/MTLComputePass.hpp>

using metalcpu::ns::implOf;
using Encoder = metalcpu::rt::CommandEncoder;
using Compute = metalcpu::rt::ComputeCommandEncoder;
using Blit = metalcpu::rt::BlitCommandEncoder;

NS::String* MTL::CommandEncoder::label() const {
    auto* self = implOf<Encoder>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::CommandEncoder::setLabel(const NS::String* label) {
    if (auto* self = implOf<Encoder>(this)) self->label().set(label);
}
MTL::Device* MTL::CommandEncoder::device() const {
    auto* self = implOf<Encoder>(this);
    return self ? self->commandBuffer()->device() : nullptr;
}
void MTL::CommandEncoder::endEncoding() {
    if (auto* self = implOf<Encoder>(this)) self->endEncoding();
}
// Commands of one queue run in order, so there is never anything to wait for.
void MTL::CommandEncoder::barrierAfterQueueStages(Stages, Stages) {}
void MTL::CommandEncoder::insertDebugSignpost(const NS::String*) {}
void MTL::CommandEncoder::pushDebugGroup(const NS::String*) {}
void MTL::CommandEncoder::popDebugGroup() {}

MTL::DispatchType MTL::ComputeCommandEncoder::dispatchType() const {
    auto* self = implOf<Compute>(this);
    return self ? self->dispatchType() : DispatchTypeSerial;
}
void MTL::ComputeCommandEncoder::setComputePipelineState(const ComputePipelineState* state) {
    if (auto* self = implOf<Compute>(this)) self->setPipeline(state);
}
void MTL::ComputeCommandEncoder::setBuffer(const Buffer* buffer, NS::UInteger offset, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBuffer(buffer, offset, index);
}
void MTL::ComputeCommandEncoder::setBuffer(const Buffer* buffer, NS::UInteger offset, NS::UInteger,
                                           NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBuffer(buffer, offset, index);
}
namespace {

/// Both setBuffers() overloads (strides mean nothing to a compute encoder).
void setBuffersOf(Compute* self, const MTL::Buffer* const buffers[], const NS::UInteger offsets[], NS::Range range) {
    if (!self || !buffers) return;
    for (NS::UInteger i = 0; i < range.length; ++i)
        self->setBuffer(buffers[i], offsets ? offsets[i] : 0, range.location + i);
}

} // namespace

void MTL::ComputeCommandEncoder::setBuffers(const Buffer* const buffers[], const NS::UInteger offsets[],
                                            NS::Range range) {
    setBuffersOf(implOf<Compute>(this), buffers, offsets, range);
}
void MTL::ComputeCommandEncoder::setBuffers(const Buffer* const buffers[], const NS::UInteger* offsets,
                                            const NS::UInteger*, NS::Range range) {
    setBuffersOf(implOf<Compute>(this), buffers, offsets, range);
}
void MTL::ComputeCommandEncoder::setBufferOffset(NS::UInteger offset, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBufferOffset(offset, index);
}
void MTL::ComputeCommandEncoder::setBufferOffset(NS::UInteger offset, NS::UInteger, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBufferOffset(offset, index);
}
void MTL::ComputeCommandEncoder::setBytes(const void* bytes, NS::UInteger length, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBytes(bytes, length, index);
}
void MTL::ComputeCommandEncoder::setBytes(const void* bytes, NS::UInteger length, NS::UInteger, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBytes(bytes, length, index);
}
void MTL::ComputeCommandEncoder::setThreadgroupMemoryLength(NS::UInteger length, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setThreadgroupMemoryLength(length, index);
}
void MTL::ComputeCommandEncoder::dispatchThreads(Size threadsPerGrid, Size threadsPerThreadgroup) {
    if (auto* self = implOf<Compute>(this)) self->dispatch(threadsPerGrid, threadsPerThreadgroup, true);
}
void MTL::ComputeCommandEncoder::dispatchThreadgroups(Size threadgroupsPerGrid, Size threadsPerThreadgroup) {
    if (auto* self = implOf<Compute>(this)) self->dispatch(threadgroupsPerGrid, threadsPerThreadgroup, false);
}
// Dispatches of an encoder run one after another, so every barrier is already satisfied,
// and every resource is always resident: these only check that encoding has not ended, but
// useResource(s), which also stage a buffer over the program's memory (the runtime's), and
// memoryBarrier, which ends a span of the hazard check (validation/dispatch_hazards.h).
void MTL::ComputeCommandEncoder::memoryBarrier(BarrierScope scope) {
    if (auto* self = implOf<Compute>(this); self && self->usable("memoryBarrierWithScope:"))
        self->memoryBarrier((scope & BarrierScopeBuffers) != 0);
}
void MTL::ComputeCommandEncoder::memoryBarrier(const Resource* const resources[], NS::UInteger count) {
    // Taken as a barrier over every buffer: a hazard on a buffer it leaves out is missed.
    if (auto* self = implOf<Compute>(this); self && self->usable("memoryBarrierWithResources:count:"))
        self->memoryBarrier(resources && count > 0);
}
void MTL::ComputeCommandEncoder::useResource(const Resource* resource, ResourceUsage usage) {
    if (auto* self = implOf<Compute>(this)) self->useResources(&resource, 1, usage, "useResource:usage:");
}
void MTL::ComputeCommandEncoder::useResources(const Resource* const resources[], NS::UInteger count,
                                              ResourceUsage usage) {
    if (auto* self = implOf<Compute>(this)) self->useResources(resources, count, usage, "useResources:count:usage:");
}
void MTL::ComputeCommandEncoder::useHeap(const Heap*) {
    if (auto* self = implOf<Compute>(this)) self->usable("useHeap:");
}
void MTL::ComputeCommandEncoder::useHeaps(const Heap* const[], NS::UInteger) {
    if (auto* self = implOf<Compute>(this)) self->usable("useHeaps:count:");
}

void MTL::BlitCommandEncoder::copyFromBuffer(const Buffer* sourceBuffer, NS::UInteger sourceOffset,
                                             const Buffer* destinationBuffer, NS::UInteger destinationOffset,
                                             NS::UInteger size) {
    if (auto* self = implOf<Blit>(this)) self->copy(sourceBuffer, sourceOffset, destinationBuffer, destinationOffset, size);
}
void MTL::BlitCommandEncoder::fillBuffer(const Buffer* buffer, NS::Range range, std::uint8_t value) {
    if (auto* self = implOf<Blit>(this)) self->fill(buffer, range.location, range.length, value);
}
// Shared memory needs no synchronisation between host and kernels.
void MTL::BlitCommandEncoder::synchronizeResource(const Resource*) {
    if (auto* self = implOf<Blit>(this)) self->usable("synchronizeResource:");
}

MTL::ComputePassDescriptor* MTL::ComputePassDescriptor::alloc() {
    return metalcpu::ns::make<metalcpu::rt::ComputePassDescriptor>();
}
MTL::ComputePassDescriptor* MTL::ComputePassDescriptor::computePassDescriptor() {
    return metalcpu::ns::autoreleased(alloc());
}
MTL::ComputePassDescriptor* MTL::ComputePassDescriptor::init() {
    return implOf<metalcpu::rt::ComputePassDescriptor>(this) ? this : nullptr;
}
MTL::DispatchType MTL::ComputePassDescriptor::dispatchType() const {
    auto* self = implOf<metalcpu::rt::ComputePassDescriptor>(this);
    return self ? self->dispatchType : DispatchTypeSerial;
}
void MTL::ComputePassDescriptor::setDispatchType(DispatchType dispatchType) {
    if (auto* self = implOf<metalcpu::rt::ComputePassDescriptor>(this)) self->dispatchType = dispatchType;
}
