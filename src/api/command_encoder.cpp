// MTL::CommandEncoder, MTL::ComputeCommandEncoder, MTL::BlitCommandEncoder and
// MTL::ComputePassDescriptor.
#include "api/unsupported.h"
#include "runtime/blit_command_encoder.h"
#include "runtime/command_buffer.h"
#include "runtime/compute_command_encoder.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"

#include <Metal/MTLBlitCommandEncoder.hpp>
#include <Metal/MTLComputeCommandEncoder.hpp>
#include <Metal/MTLComputePass.hpp>

using metalcpu::ns::ObjectBase;
using metalcpu::ns::implOf;
using Compute = metalcpu::rt::ComputeCommandEncoder;
using Blit = metalcpu::rt::BlitCommandEncoder;

namespace {

/// The label storage and command buffer of either kind of encoder.
metalcpu::rt::Label* labelOf(const MTL::CommandEncoder* encoder) {
    ObjectBase* base = ObjectBase::from(encoder);
    if (auto* compute = dynamic_cast<Compute*>(base)) return &compute->label();
    if (auto* blit = dynamic_cast<Blit*>(base)) return &blit->label();
    return nullptr;
}

metalcpu::rt::CommandBuffer* commandBufferOf(const MTL::CommandEncoder* encoder) {
    ObjectBase* base = ObjectBase::from(encoder);
    if (auto* compute = dynamic_cast<Compute*>(base)) return compute->commandBuffer();
    if (auto* blit = dynamic_cast<Blit*>(base)) return blit->commandBuffer();
    return nullptr;
}

} // namespace

NS::String* MTL::CommandEncoder::label() const {
    metalcpu::rt::Label* label = labelOf(this);
    return label ? label->get() : nullptr;
}
void MTL::CommandEncoder::setLabel(const NS::String* label) {
    if (metalcpu::rt::Label* storage = labelOf(this)) storage->set(label);
}
MTL::Device* MTL::CommandEncoder::device() const {
    metalcpu::rt::CommandBuffer* buffer = commandBufferOf(this);
    return buffer ? buffer->device() : nullptr;
}
void MTL::CommandEncoder::endEncoding() {
    ObjectBase* base = ObjectBase::from(this);
    if (auto* compute = dynamic_cast<Compute*>(base)) compute->endEncoding();
    else if (auto* blit = dynamic_cast<Blit*>(base)) blit->endEncoding();
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
    setBuffer(buffer, offset, index);
}
void MTL::ComputeCommandEncoder::setBuffers(const Buffer* const buffers[], const NS::UInteger offsets[],
                                            NS::Range range) {
    auto* self = implOf<Compute>(this);
    if (!self || !buffers) return;
    for (NS::UInteger i = 0; i < range.length; ++i)
        self->setBuffer(buffers[i], offsets ? offsets[i] : 0, range.location + i);
}
void MTL::ComputeCommandEncoder::setBuffers(const Buffer* const buffers[], const NS::UInteger* offsets,
                                            const NS::UInteger*, NS::Range range) {
    setBuffers(buffers, offsets, range);
}
void MTL::ComputeCommandEncoder::setBufferOffset(NS::UInteger offset, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBufferOffset(offset, index);
}
void MTL::ComputeCommandEncoder::setBufferOffset(NS::UInteger offset, NS::UInteger, NS::UInteger index) {
    setBufferOffset(offset, index);
}
void MTL::ComputeCommandEncoder::setBytes(const void* bytes, NS::UInteger length, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setBytes(bytes, length, index);
}
void MTL::ComputeCommandEncoder::setBytes(const void* bytes, NS::UInteger length, NS::UInteger, NS::UInteger index) {
    setBytes(bytes, length, index);
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
// Dispatches of an encoder run one after another, so every barrier is already satisfied.
void MTL::ComputeCommandEncoder::memoryBarrier(BarrierScope) {}
void MTL::ComputeCommandEncoder::memoryBarrier(const Resource* const[], NS::UInteger) {}
// Every resource is always resident.
void MTL::ComputeCommandEncoder::useResource(const Resource*, ResourceUsage) {}
void MTL::ComputeCommandEncoder::useResources(const Resource* const[], NS::UInteger, ResourceUsage) {}
void MTL::ComputeCommandEncoder::useHeap(const Heap*) {}
void MTL::ComputeCommandEncoder::useHeaps(const Heap* const[], NS::UInteger) {}

void MTL::BlitCommandEncoder::copyFromBuffer(const Buffer* sourceBuffer, NS::UInteger sourceOffset,
                                             const Buffer* destinationBuffer, NS::UInteger destinationOffset,
                                             NS::UInteger size) {
    if (auto* self = implOf<Blit>(this)) self->copy(sourceBuffer, sourceOffset, destinationBuffer, destinationOffset, size);
}
void MTL::BlitCommandEncoder::fillBuffer(const Buffer* buffer, NS::Range range, std::uint8_t value) {
    if (auto* self = implOf<Blit>(this)) self->fill(buffer, range.location, range.length, value);
}
// Shared memory needs no synchronisation between host and kernels.
void MTL::BlitCommandEncoder::synchronizeResource(const Resource*) {}

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
