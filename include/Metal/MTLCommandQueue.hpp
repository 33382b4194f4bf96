// metalcpu: CommandQueue, which runs command buffers in commit order.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class CommandBuffer;
class CommandBufferDescriptor;
class Device;
class LogState;
class ResidencySet;

// A serial queue of command buffers on one device.
class CommandQueue : public NS::Referencing<CommandQueue> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    Device* device() const;

    // The command buffer is autoreleased, not owned by the caller.
    CommandBuffer* commandBuffer();
    CommandBuffer* commandBuffer(const CommandBufferDescriptor* descriptor);
    CommandBuffer* commandBufferWithUnretainedReferences();

    void addResidencySet(const ResidencySet* residencySet);
    void addResidencySets(const ResidencySet* const residencySets[], NS::UInteger count);
    void removeResidencySet(const ResidencySet* residencySet);
    void removeResidencySets(const ResidencySet* const residencySets[], NS::UInteger count);

    void insertDebugCaptureBoundary();
};

// Options for Device::newCommandQueue(descriptor).
class CommandQueueDescriptor : public NS::Copying<CommandQueueDescriptor> {
public:
    static CommandQueueDescriptor* alloc();
    CommandQueueDescriptor* init();

    NS::UInteger maxCommandBufferCount() const;
    void setMaxCommandBufferCount(NS::UInteger maxCommandBufferCount);
    LogState* logState() const;
    void setLogState(const LogState* logState);
};

} // namespace MTL
