// Metal 4 command objects: MTL4::CommandQueue, CommandBuffer, CommandAllocator, the encoders,
// ArgumentTable, CommitFeedback and CounterHeap. metalcpu cannot make them yet (the Device
// factories log once and return nullptr), so their methods only ever see nil. Their descriptors
// and CommitOptions are settings holders (metal4_descriptors.cpp).
#include "api/not_yet.h"

#include <Metal/MTL4ArgumentTable.hpp>
#include <Metal/MTL4CommandAllocator.hpp>
#include <Metal/MTL4CommandBuffer.hpp>
#include <Metal/MTL4CommandEncoder.hpp>
#include <Metal/MTL4CommandQueue.hpp>
#include <Metal/MTL4CommitFeedback.hpp>
#include <Metal/MTL4ComputeCommandEncoder.hpp>
#include <Metal/MTL4Counters.hpp>

NS::String* MTL4::ArgumentTable::label() const { return nullptr; }
MTL::Device* MTL4::ArgumentTable::device() const { return nullptr; }
void MTL4::ArgumentTable::setAddress(MTL::GPUAddress, NS::UInteger) {}
void MTL4::ArgumentTable::setAddress(MTL::GPUAddress, NS::UInteger, NS::UInteger) {}
void MTL4::ArgumentTable::setResource(MTL::ResourceID, NS::UInteger) {}
void MTL4::ArgumentTable::setTexture(MTL::ResourceID, NS::UInteger) {}
void MTL4::ArgumentTable::setSamplerState(MTL::ResourceID, NS::UInteger) {}

NS::String* MTL4::CommandAllocator::label() const { return nullptr; }
MTL::Device* MTL4::CommandAllocator::device() const { return nullptr; }
std::uint64_t MTL4::CommandAllocator::allocatedSize() { return 0; }
void MTL4::CommandAllocator::reset() {}

NS::String* MTL4::CommandBuffer::label() const { return nullptr; }
void MTL4::CommandBuffer::setLabel(const NS::String*) {}
MTL::Device* MTL4::CommandBuffer::device() const { return nullptr; }
void MTL4::CommandBuffer::beginCommandBuffer(const CommandAllocator*) {}
void MTL4::CommandBuffer::beginCommandBuffer(const CommandAllocator*, const CommandBufferOptions*) {}
void MTL4::CommandBuffer::endCommandBuffer() {}
MTL4::ComputeCommandEncoder* MTL4::CommandBuffer::computeCommandEncoder() { return nullptr; }
void MTL4::CommandBuffer::useResidencySet(const MTL::ResidencySet*) {}
void MTL4::CommandBuffer::useResidencySets(const MTL::ResidencySet* const*, NS::UInteger) {}
void MTL4::CommandBuffer::writeTimestampIntoHeap(const CounterHeap*, NS::UInteger) {}
void MTL4::CommandBuffer::resolveCounterHeap(const CounterHeap*, NS::Range, const BufferRange, const MTL::Fence*,
                                             const MTL::Fence*) {}
void MTL4::CommandBuffer::pushDebugGroup(const NS::String*) {}
void MTL4::CommandBuffer::popDebugGroup() {}

NS::String* MTL4::CommandEncoder::label() const { return nullptr; }
void MTL4::CommandEncoder::setLabel(const NS::String*) {}
MTL4::CommandBuffer* MTL4::CommandEncoder::commandBuffer() const { return nullptr; }
void MTL4::CommandEncoder::barrierAfterQueueStages(MTL::Stages, MTL::Stages, VisibilityOptions) {}
void MTL4::CommandEncoder::barrierAfterStages(MTL::Stages, MTL::Stages, VisibilityOptions) {}
void MTL4::CommandEncoder::barrierAfterEncoderStages(MTL::Stages, MTL::Stages, VisibilityOptions) {}
void MTL4::CommandEncoder::updateFence(const MTL::Fence*, MTL::Stages) {}
void MTL4::CommandEncoder::waitForFence(const MTL::Fence*, MTL::Stages) {}
void MTL4::CommandEncoder::endEncoding() {}
void MTL4::CommandEncoder::insertDebugSignpost(const NS::String*) {}
void MTL4::CommandEncoder::pushDebugGroup(const NS::String*) {}
void MTL4::CommandEncoder::popDebugGroup() {}

MTL::Stages MTL4::ComputeCommandEncoder::stages() { return {}; }
void MTL4::ComputeCommandEncoder::setComputePipelineState(const MTL::ComputePipelineState*) {}
void MTL4::ComputeCommandEncoder::setArgumentTable(const ArgumentTable*) {}
void MTL4::ComputeCommandEncoder::setThreadgroupMemoryLength(NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::setImageblockWidth(NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::dispatchThreads(MTL::Size, MTL::Size) {}
void MTL4::ComputeCommandEncoder::dispatchThreads(MTL::GPUAddress) {}
void MTL4::ComputeCommandEncoder::dispatchThreadgroups(MTL::Size, MTL::Size) {}
void MTL4::ComputeCommandEncoder::dispatchThreadgroups(MTL::GPUAddress, MTL::Size) {}
void MTL4::ComputeCommandEncoder::executeCommandsInBuffer(const MTL::IndirectCommandBuffer*, NS::Range) {}
void MTL4::ComputeCommandEncoder::executeCommandsInBuffer(const MTL::IndirectCommandBuffer*, MTL::GPUAddress) {}
void MTL4::ComputeCommandEncoder::copyFromBuffer(const MTL::Buffer*, NS::UInteger, const MTL::Buffer*, NS::UInteger,
                                                 NS::UInteger) {}
void MTL4::ComputeCommandEncoder::copyFromBuffer(const MTL::Buffer*, NS::UInteger, NS::UInteger, NS::UInteger,
                                                 MTL::Size, const MTL::Texture*, NS::UInteger, NS::UInteger,
                                                 MTL::Origin) {}
void MTL4::ComputeCommandEncoder::copyFromBuffer(const MTL::Buffer*, NS::UInteger, NS::UInteger, NS::UInteger,
                                                 MTL::Size, const MTL::Texture*, NS::UInteger, NS::UInteger,
                                                 MTL::Origin, MTL::BlitOption) {}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, const MTL::Texture*) {}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, const MTL::Texture*,
                                                  NS::UInteger, NS::UInteger, NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, MTL::Origin,
                                                  MTL::Size, const MTL::Texture*, NS::UInteger, NS::UInteger,
                                                  MTL::Origin) {}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, MTL::Origin,
                                                  MTL::Size, const MTL::Buffer*, NS::UInteger, NS::UInteger,
                                                  NS::UInteger) {}
void MTL4::ComputeCommandEncoder::copyFromTexture(const MTL::Texture*, NS::UInteger, NS::UInteger, MTL::Origin,
                                                  MTL::Size, const MTL::Buffer*, NS::UInteger, NS::UInteger,
                                                  NS::UInteger, MTL::BlitOption) {}
void MTL4::ComputeCommandEncoder::copyFromTensor(const MTL::Tensor*, const MTL::TensorExtents*,
                                                 const MTL::TensorExtents*, const MTL::Tensor*,
                                                 const MTL::TensorExtents*, const MTL::TensorExtents*) {}
void MTL4::ComputeCommandEncoder::copyFromTensor(const MTL::Tensor*, const MTL::TensorExtents*,
                                                 const MTL::TensorExtents*, MTL::TensorPlaneType, const MTL::Tensor*,
                                                 const MTL::TensorExtents*, const MTL::TensorExtents*,
                                                 MTL::TensorPlaneType) {}
void MTL4::ComputeCommandEncoder::fillBuffer(const MTL::Buffer*, NS::Range, std::uint8_t) {}
void MTL4::ComputeCommandEncoder::generateMipmaps(const MTL::Texture*) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForCPUAccess(const MTL::Texture*) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForCPUAccess(const MTL::Texture*, NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForGPUAccess(const MTL::Texture*) {}
void MTL4::ComputeCommandEncoder::optimizeContentsForGPUAccess(const MTL::Texture*, NS::UInteger, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::copyIndirectCommandBuffer(const MTL::IndirectCommandBuffer*, NS::Range,
                                                            const MTL::IndirectCommandBuffer*, NS::UInteger) {}
void MTL4::ComputeCommandEncoder::optimizeIndirectCommandBuffer(const MTL::IndirectCommandBuffer*, NS::Range) {}
void MTL4::ComputeCommandEncoder::resetCommandsInBuffer(const MTL::IndirectCommandBuffer*, NS::Range) {}
void MTL4::ComputeCommandEncoder::writeTimestamp(TimestampGranularity, const CounterHeap*, NS::UInteger) {}

NS::String* MTL4::CommandQueue::label() const { return nullptr; }
MTL::Device* MTL4::CommandQueue::device() const { return nullptr; }
void MTL4::CommandQueue::commit(const CommandBuffer* const*, NS::UInteger) {}
void MTL4::CommandQueue::commit(const CommandBuffer* const*, NS::UInteger, const CommitOptions*) {}
void MTL4::CommandQueue::signalEvent(const MTL::Event*, std::uint64_t) {}
void MTL4::CommandQueue::wait(const MTL::Event*, std::uint64_t) {}
void MTL4::CommandQueue::addResidencySet(const MTL::ResidencySet*) {}
void MTL4::CommandQueue::addResidencySets(const MTL::ResidencySet* const*, NS::UInteger) {}
void MTL4::CommandQueue::removeResidencySet(const MTL::ResidencySet*) {}
void MTL4::CommandQueue::removeResidencySets(const MTL::ResidencySet* const*, NS::UInteger) {}

NS::Error* MTL4::CommitFeedback::error() const { return nullptr; }
CFTimeInterval MTL4::CommitFeedback::GPUStartTime() const { return 0; }
CFTimeInterval MTL4::CommitFeedback::GPUEndTime() const { return 0; }

NS::String* MTL4::CounterHeap::label() const { return nullptr; }
void MTL4::CounterHeap::setLabel(const NS::String*) {}
MTL4::CounterHeapType MTL4::CounterHeap::type() const { return {}; }
NS::UInteger MTL4::CounterHeap::count() const { return 0; }
NS::Data* MTL4::CounterHeap::resolveCounterRange(NS::Range) { return nullptr; }
void MTL4::CounterHeap::invalidateCounterRange(NS::Range) {}
