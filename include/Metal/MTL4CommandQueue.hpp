// metalcpu: MTL4::CommandQueue, which commits batches of Metal 4 command buffers.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTL4CommitFeedback.hpp"
#include "MTLDefines.hpp"

#include <cstdint>

namespace MTL {
class Device;
class Event;
class ResidencySet;
} // namespace MTL

namespace MTL4 {

class CommandBuffer;

enum CommandQueueError : NS::Integer {
    CommandQueueErrorNone = 0,
    CommandQueueErrorTimeout = 1,
    CommandQueueErrorNotPermitted = 2,
    CommandQueueErrorOutOfMemory = 3,
    CommandQueueErrorDeviceRemoved = 4,
    CommandQueueErrorAccessRevoked = 5,
    CommandQueueErrorInternal = 6,
};

// Options for one commit, chiefly feedback handlers.
class CommitOptions : public NS::Referencing<CommitOptions> {
public:
    static CommitOptions* alloc();
    CommitOptions* init();

    void addFeedbackHandler(const CommitFeedbackHandlerFunction& function);
#if defined(__BLOCKS__)
    void addFeedbackHandler(const CommitFeedbackHandler block);
#endif
};

class CommandQueueDescriptor : public NS::Copying<CommandQueueDescriptor> {
public:
    static CommandQueueDescriptor* alloc();
    CommandQueueDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
};

// A Metal 4 queue. Command buffers run in commit order; residency sets added here apply to
// every command buffer committed to it.
class CommandQueue : public NS::Referencing<CommandQueue> {
public:
    NS::String* label() const;
    MTL::Device* device() const;

    void commit(const CommandBuffer* const commandBuffers[], NS::UInteger count);
    void commit(const CommandBuffer* const commandBuffers[], NS::UInteger count, const CommitOptions* options);
    void signalEvent(const MTL::Event* event, std::uint64_t value);
    void wait(const MTL::Event* event, std::uint64_t value);

    void addResidencySet(const MTL::ResidencySet* residencySet);
    void addResidencySets(const MTL::ResidencySet* const residencySets[], NS::UInteger count);
    void removeResidencySet(const MTL::ResidencySet* residencySet);
    void removeResidencySets(const MTL::ResidencySet* const residencySets[], NS::UInteger count);
};

} // namespace MTL4
