// Metal 4 command objects: MTL4::CommandQueue, CommandBuffer, CommandAllocator, the compute
// encoder, ArgumentTable and CommitFeedback (src/runtime/mtl4_*.h). Render and machine-learning
// encoders, counter heaps and indirect command buffers are not built: methods that would use
// them do nothing, and the compute encoder's commands that would skip real work (texture
// copies, indirect dispatch, indirect command buffers, mipmaps) log once as not yet.
// Residency sets on queues and command buffers feed API validation's residency check
// (runtime/mtl4_residency.h). Descriptors and CommitOptions are settings holders
// (metal4_descriptors.cpp).
#include "api/metal4_descriptors.h"
#include "api/not_yet.h"
#include "api/tensor_extents.h"
#include "runtime/log_state.h"
#include "runtime/mtl4_argument_table.h"
#include "runtime/mtl4_command_allocator.h"
#include "runtime/mtl4_command_buffer.h"
#include "runtime/mtl4_command_queue.h"
#include "runtime/mtl4_compute_command_encoder.h"

#include <Metal/MTL4ArgumentTable.hpp>
#include <Metal/MTL4CommandAllocator.hpp>
#include <Metal/MTL4CommandBuffer.hpp>
#include <Metal/MTL4CommandEncoder.hpp>
#include <Metal/MTL4CommandQueue.hpp>
#include <Metal/MTL4CommitFeedback.hpp>
#include <Metal/MTL4ComputeCommandEncoder.hpp>
#include <Metal/MTL4Counters.hpp>

using metalcpu::api::notYet;
using metalcpu::ns::implOf;
using Table = metalcpu::rt::Mtl4ArgumentTable;
using Allocator = metalcpu::rt::Mtl4CommandAllocator;
using Buffer4 = metalcpu::rt::Mtl4CommandBuffer;
using Encoder4 = metalcpu::rt::Mtl4ComputeCommandEncoder;
using Queue4 = metalcpu::rt::Mtl4CommandQueue;
using Feedback = metalcpu::rt::Mtl4CommitFeedback;

NS::String* MTL4::ArgumentTable::label() const {
    auto* self = implOf<Table>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL4::ArgumentTable::device() const {
    auto* self = implOf<Table>(this);
    return self ? self->device() : nullptr;
}
void MTL4::ArgumentTable::setAddress(MTL::GPUAddress address, NS::UInteger index) {
    if (auto* self = implOf<Table>(this)) self->setAddress(address, 0, index);
}
void MTL4::ArgumentTable::setAddress(MTL::GPUAddress address, NS::UInteger stride, NS::UInteger index) {
    if (auto* self = implOf<Table>(this)) self->setAddress(address, stride, index);
}
void MTL4::ArgumentTable::setResource(MTL::ResourceID id, NS::UInteger index) {
    if (auto* self = implOf<Table>(this)) self->setResource(id, index);
}
void MTL4::ArgumentTable::setTexture(MTL::ResourceID id, NS::UInteger index) {
    if (auto* self = implOf<Table>(this)) self->setTexture(id, index);
}
void MTL4::ArgumentTable::setSamplerState(MTL::ResourceID id, NS::UInteger index) {
    if (auto* self = implOf<Table>(this)) self->setSamplerState(id, index);
}

NS::String* MTL4::CommandAllocator::label() const {
    auto* self = implOf<Allocator>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL4::CommandAllocator::device() const {
    auto* self = implOf<Allocator>(this);
    return self ? self->device() : nullptr;
}
std::uint64_t MTL4::CommandAllocator::allocatedSize() {
    auto* self = implOf<Allocator>(this);
    return self ? self->allocatedSize() : 0;
}
void MTL4::CommandAllocator::reset() {
    if (auto* self = implOf<Allocator>(this)) self->reset();
}

NS::String* MTL4::CommandBuffer::label() const {
    auto* self = implOf<Buffer4>(this);
    return self ? self->label().get() : nullptr;
}
void MTL4::CommandBuffer::setLabel(const NS::String* label) {
    if (auto* self = implOf<Buffer4>(this)) self->label().set(label);
}
MTL::Device* MTL4::CommandBuffer::device() const {
    auto* self = implOf<Buffer4>(this);
    return self ? self->device() : nullptr;
}
void MTL4::CommandBuffer::beginCommandBuffer(const CommandAllocator* allocator) {
    if (auto* self = implOf<Buffer4>(this)) self->begin(const_cast<CommandAllocator*>(allocator), nullptr);
}
void MTL4::CommandBuffer::beginCommandBuffer(const CommandAllocator* allocator, const CommandBufferOptions* options) {
    if (auto* self = implOf<Buffer4>(this))
        self->begin(const_cast<CommandAllocator*>(allocator),
                    options ? implOf<metalcpu::rt::LogState>(options->logState()) : nullptr);
}
void MTL4::CommandBuffer::endCommandBuffer() {
    if (auto* self = implOf<Buffer4>(this)) self->end();
}
MTL4::ComputeCommandEncoder* MTL4::CommandBuffer::computeCommandEncoder() {
    auto* self = implOf<Buffer4>(this);
    return self ? self->computeCommandEncoder() : nullptr;
}
void MTL4::CommandBuffer::useResidencySet(const MTL::ResidencySet* set) {
    if (auto* self = implOf<Buffer4>(this)) self->useResidencySets(&set, 1);
}
void MTL4::CommandBuffer::useResidencySets(const MTL::ResidencySet* const* sets, NS::UInteger count) {
    if (auto* self = implOf<Buffer4>(this)) self->useResidencySets(sets, count);
}
void MTL4::CommandBuffer::writeTimestampIntoHeap(const CounterHeap*, NS::UInteger) {}
void MTL4::CommandBuffer::resolveCounterHeap(const CounterHeap*, NS::Range, const BufferRange, const MTL::Fence*,
                                             const MTL::Fence*) {}
void MTL4::CommandBuffer::pushDebugGroup(const NS::String*) {}
void MTL4::CommandBuffer::popDebugGroup() {}

NS::String* MTL4::CommandEncoder::label() const {
    auto* self = implOf<Encoder4>(this);
    return self ? self->label().get() : nullptr;
}
void MTL4::CommandEncoder::setLabel(const NS::String* label) {
    if (auto* self = implOf<Encoder4>(this)) self->label().set(label);
}
MTL4::CommandBuffer* MTL4::CommandEncoder::commandBuffer() const {
    auto* self = implOf<Encoder4>(this);
    return self ? self->commandBuffer()->asPublicClass() : nullptr;
}
// A queue runs its commands one after another, so there is never anything to wait for.
void MTL4::CommandEncoder::barrierAfterQueueStages(MTL::Stages, MTL::Stages, VisibilityOptions) {}
void MTL4::CommandEncoder::barrierAfterStages(MTL::Stages, MTL::Stages, VisibilityOptions) {}
void MTL4::CommandEncoder::barrierAfterEncoderStages(MTL::Stages afterStages, MTL::Stages beforeStages,
                                                     VisibilityOptions) {
    if (auto* self = implOf<Encoder4>(this)) self->barrierAfterEncoderStages(afterStages, beforeStages);
}
void MTL4::CommandEncoder::updateFence(const MTL::Fence*, MTL::Stages) {}
void MTL4::CommandEncoder::waitForFence(const MTL::Fence*, MTL::Stages) {}
void MTL4::CommandEncoder::endEncoding() {
    if (auto* self = implOf<Encoder4>(this)) self->endEncoding();
}
void MTL4::CommandEncoder::insertDebugSignpost(const NS::String*) {}
void MTL4::CommandEncoder::pushDebugGroup(const NS::String*) {}
void MTL4::CommandEncoder::popDebugGroup() {}

MTL::Stages MTL4::ComputeCommandEncoder::stages() {
    return implOf<Encoder4>(this) ? MTL::Stages(MTL::StageDispatch | MTL::StageBlit) : MTL::Stages{};
}
void MTL4::ComputeCommandEncoder::setComputePipelineState(const MTL::ComputePipelineState* state) {
    if (auto* self = implOf<Encoder4>(this)) self->setPipeline(state);
}
void MTL4::ComputeCommandEncoder::setArgumentTable(const ArgumentTable* table) {
    if (auto* self = implOf<Encoder4>(this)) self->setArgumentTable(table);
}
void MTL4::ComputeCommandEncoder::setThreadgroupMemoryLength(NS::UInteger length, NS::UInteger index) {
    if (auto* self = implOf<Encoder4>(this)) self->setThreadgroupMemoryLength(length, index);
}
void MTL4::ComputeCommandEncoder::setImageblockWidth(NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::dispatchThreads(MTL::Size threadsPerGrid, MTL::Size threadsPerThreadgroup) {
    if (auto* self = implOf<Encoder4>(this)) self->dispatch(threadsPerGrid, threadsPerThreadgroup, true);
}
void MTL4::ComputeCommandEncoder::dispatchThreads(MTL::GPUAddress) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::dispatchThreads(indirectBuffer)");
}
void MTL4::ComputeCommandEncoder::dispatchThreadgroups(MTL::Size threadgroupsPerGrid, MTL::Size threadsPerThreadgroup) {
    if (auto* self = implOf<Encoder4>(this)) self->dispatch(threadgroupsPerGrid, threadsPerThreadgroup, false);
}
void MTL4::ComputeCommandEncoder::dispatchThreadgroups(MTL::GPUAddress, MTL::Size) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::dispatchThreadgroups(indirectBuffer)");
}
void MTL4::ComputeCommandEncoder::executeCommandsInBuffer(const MTL::IndirectCommandBuffer*, NS::Range) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::executeCommandsInBuffer");
}
void MTL4::ComputeCommandEncoder::executeCommandsInBuffer(const MTL::IndirectCommandBuffer*, MTL::GPUAddress) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::executeCommandsInBuffer");
}
void MTL4::ComputeCommandEncoder::copyFromBuffer(const MTL::Buffer* source, NS::UInteger sourceOffset,
                                                 const MTL::Buffer* destination, NS::UInteger destinationOffset,
                                                 NS::UInteger size) {
    if (auto* self = implOf<Encoder4>(this)) self->copy(source, sourceOffset, destination, destinationOffset, size);
}
// Copies between buffers and textures, and between textures, need texture commands the
// command buffers do not run yet: each logs once.
void MTL4::ComputeCommandEncoder::copyFromBuffer(const MTL::Buffer*, NS::UInteger, NS::UInteger, NS::UInteger,
                                                 MTL::Size, const MTL::Texture*, NS::UInteger, NS::UInteger,
                                                 MTL::Origin) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromBuffer(toTexture)");
}
void MTL4::ComputeCommandEncoder::copyFromBuffer(const MTL::Buffer*, NS::UInteger, NS::UInteger, NS::UInteger,
                                                 MTL::Size, const MTL::Texture*, NS::UInteger, NS::UInteger,
                                                 MTL::Origin, MTL::BlitOption) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromBuffer(toTexture)");
}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, const MTL::Texture*) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromTexture");
}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, const MTL::Texture*,
                                                  NS::UInteger, NS::UInteger, NS::UInteger, NS::UInteger) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromTexture");
}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, MTL::Origin,
                                                  MTL::Size, const MTL::Texture*, NS::UInteger, NS::UInteger,
                                                  MTL::Origin) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromTexture");
}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, MTL::Origin,
                                                  MTL::Size, const MTL::Buffer*, NS::UInteger, NS::UInteger,
                                                  NS::UInteger) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromTexture(toBuffer)");
}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, MTL::Origin,
                                                  MTL::Size, const MTL::Buffer*, NS::UInteger, NS::UInteger,
                                                  NS::UInteger, MTL::BlitOption) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromTexture(toBuffer)");
}
void MTL4::ComputeCommandEncoder::copyFromTensor(const MTL::Tensor* sourceTensor, const MTL::TensorExtents* sourceOrigin,
                                                 const MTL::TensorExtents* sourceDimensions,
                                                 const MTL::Tensor* destinationTensor,
                                                 const MTL::TensorExtents* destinationOrigin,
                                                 const MTL::TensorExtents* destinationDimensions) {
    using metalcpu::api::sliceValues;
    if (auto* self = implOf<Encoder4>(this))
        self->copyTensor(sourceTensor, sliceValues(sourceOrigin), sliceValues(sourceDimensions), destinationTensor,
                         sliceValues(destinationOrigin), sliceValues(destinationDimensions));
}
// Tensors have a data plane only (auxiliary planes are refused when tensors are made).
void MTL4::ComputeCommandEncoder::copyFromTensor(const MTL::Tensor* sourceTensor, const MTL::TensorExtents* sourceOrigin,
                                                 const MTL::TensorExtents* sourceDimensions,
                                                 MTL::TensorPlaneType sourcePlane, const MTL::Tensor* destinationTensor,
                                                 const MTL::TensorExtents* destinationOrigin,
                                                 const MTL::TensorExtents* destinationDimensions,
                                                 MTL::TensorPlaneType destinationPlane) {
    if (sourcePlane != MTL::TensorPlaneTypeData || destinationPlane != MTL::TensorPlaneTypeData)
        return notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyFromTensor(auxiliary plane)");
    copyFromTensor(sourceTensor, sourceOrigin, sourceDimensions, destinationTensor, destinationOrigin,
                   destinationDimensions);
}
void MTL4::ComputeCommandEncoder::fillBuffer(const MTL::Buffer* buffer, NS::Range range, std::uint8_t value) {
    if (auto* self = implOf<Encoder4>(this)) self->fill(buffer, range.location, range.length, value);
}
void MTL4::ComputeCommandEncoder::generateMipmaps(const MTL::Texture*) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::generateMipmaps");
}
void MTL4::ComputeCommandEncoder::optimizeContentsForCPUAccess(const MTL::Texture*) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForCPUAccess(const MTL::Texture*, NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForGPUAccess(const MTL::Texture*) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForGPUAccess(const MTL::Texture*, NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::copyIndirectCommandBuffer(const MTL::IndirectCommandBuffer*, NS::Range,
                                                            const MTL::IndirectCommandBuffer*, NS::UInteger) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::copyIndirectCommandBuffer");
}
void MTL4::ComputeCommandEncoder::optimizeIndirectCommandBuffer(const MTL::IndirectCommandBuffer*, NS::Range) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::optimizeIndirectCommandBuffer");
}
void MTL4::ComputeCommandEncoder::resetCommandsInBuffer(const MTL::IndirectCommandBuffer*, NS::Range) {
    notYet<Encoder4>(this, "MTL4::ComputeCommandEncoder::resetCommandsInBuffer");
}
void MTL4::ComputeCommandEncoder::writeTimestamp(TimestampGranularity, const CounterHeap*, NS::UInteger) {}

NS::String* MTL4::CommandQueue::label() const {
    auto* self = implOf<Queue4>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL4::CommandQueue::device() const {
    auto* self = implOf<Queue4>(this);
    return self ? self->device() : nullptr;
}
void MTL4::CommandQueue::commit(const CommandBuffer* const* buffers, NS::UInteger count) {
    if (auto* self = implOf<Queue4>(this)) self->commit(buffers, count, {});
}
void MTL4::CommandQueue::commit(const CommandBuffer* const* buffers, NS::UInteger count,
                                const CommitOptions* options) {
    if (auto* self = implOf<Queue4>(this)) self->commit(buffers, count, metalcpu::api::feedbackHandlersOf(options));
}
void MTL4::CommandQueue::signalEvent(const MTL::Event* event, std::uint64_t value) {
    if (auto* self = implOf<Queue4>(this)) self->signalEvent(event, value);
}
void MTL4::CommandQueue::wait(const MTL::Event* event, std::uint64_t value) {
    if (auto* self = implOf<Queue4>(this)) self->wait(event, value);
}
void MTL4::CommandQueue::addResidencySet(const MTL::ResidencySet* set) {
    if (auto* self = implOf<Queue4>(this)) self->residencySets().add(&set, 1);
}
void MTL4::CommandQueue::addResidencySets(const MTL::ResidencySet* const* sets, NS::UInteger count) {
    if (auto* self = implOf<Queue4>(this)) self->residencySets().add(sets, count);
}
void MTL4::CommandQueue::removeResidencySet(const MTL::ResidencySet* set) {
    if (auto* self = implOf<Queue4>(this)) self->residencySets().remove(&set, 1);
}
void MTL4::CommandQueue::removeResidencySets(const MTL::ResidencySet* const* sets, NS::UInteger count) {
    if (auto* self = implOf<Queue4>(this)) self->residencySets().remove(sets, count);
}

NS::Error* MTL4::CommitFeedback::error() const {
    auto* self = implOf<Feedback>(this);
    return self ? self->error() : nullptr;
}
CFTimeInterval MTL4::CommitFeedback::GPUStartTime() const {
    auto* self = implOf<Feedback>(this);
    return self ? self->gpuStartTime() : 0;
}
CFTimeInterval MTL4::CommitFeedback::GPUEndTime() const {
    auto* self = implOf<Feedback>(this);
    return self ? self->gpuEndTime() : 0;
}

NS::String* MTL4::CounterHeap::label() const { return nullptr; }
void MTL4::CounterHeap::setLabel(const NS::String*) {}
MTL4::CounterHeapType MTL4::CounterHeap::type() const { return {}; }
NS::UInteger MTL4::CounterHeap::count() const { return 0; }
NS::Data* MTL4::CounterHeap::resolveCounterRange(NS::Range) { return nullptr; }
void MTL4::CounterHeap::invalidateCounterRange(NS::Range) {}
