// metalcpu: MTL4::CommandBuffer, a reusable command buffer committed through an MTL4 queue.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLAccelerationStructureTypes.hpp"
#include "MTLDefines.hpp"

namespace MTL {
class Device;
class Fence;
class LogState;
class ResidencySet;
} // namespace MTL

namespace MTL4 {

class CommandAllocator;
class ComputeCommandEncoder;
class CounterHeap;

class CommandBufferOptions : public NS::Copying<CommandBufferOptions> {
public:
    static CommandBufferOptions* alloc();
    CommandBufferOptions* init();

    MTL::LogState* logState() const;
    void setLogState(const MTL::LogState* logState);
};

// Encode between beginCommandBuffer() and endCommandBuffer(), one encoder at a time, then
// commit with MTL4::CommandQueue::commit.
class CommandBuffer : public NS::Referencing<CommandBuffer> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    MTL::Device* device() const;

    void beginCommandBuffer(const CommandAllocator* allocator);
    void beginCommandBuffer(const CommandAllocator* allocator, const CommandBufferOptions* options);
    void endCommandBuffer();

    ComputeCommandEncoder* computeCommandEncoder();

    void useResidencySet(const MTL::ResidencySet* residencySet);
    void useResidencySets(const MTL::ResidencySet* const residencySets[], NS::UInteger count);

    void writeTimestampIntoHeap(const CounterHeap* counterHeap, NS::UInteger index);
    void resolveCounterHeap(const CounterHeap* counterHeap, NS::Range range, const BufferRange bufferRange,
                            const MTL::Fence* fenceToWait, const MTL::Fence* fenceToUpdate);

    void pushDebugGroup(const NS::String* string);
    void popDebugGroup();
};

} // namespace MTL4
