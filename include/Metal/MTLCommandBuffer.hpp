// metalcpu: CommandBuffer, a unit of work submitted to a queue, and its status and errors.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>
#include <functional>

namespace MTL {

class BlitCommandEncoder;
class CommandBuffer;
class CommandQueue;
class ComputeCommandEncoder;
class ComputePassDescriptor;
class Device;
class Event;
class LogContainer;
class LogState;
class ResidencySet;

// NotEnqueued -> Enqueued -> Committed -> Scheduled -> Completed, or Error.
enum CommandBufferStatus : NS::UInteger {
    CommandBufferStatusNotEnqueued = 0,
    CommandBufferStatusEnqueued = 1,
    CommandBufferStatusCommitted = 2,
    CommandBufferStatusScheduled = 3,
    CommandBufferStatusCompleted = 4,
    CommandBufferStatusError = 5,
};

// The codes of CommandBuffer::error().
enum CommandBufferError : NS::UInteger {
    CommandBufferErrorNone = 0,
    CommandBufferErrorInternal = 1,
    CommandBufferErrorTimeout = 2,
    CommandBufferErrorPageFault = 3,
    CommandBufferErrorBlacklisted = 4,
    CommandBufferErrorAccessRevoked = 4,
    CommandBufferErrorNotPermitted = 7,
    CommandBufferErrorOutOfMemory = 8,
    CommandBufferErrorInvalidResource = 9,
    CommandBufferErrorMemoryless = 10,
    CommandBufferErrorDeviceRemoved = 11,
    CommandBufferErrorStackOverflow = 12,
};

enum CommandEncoderErrorState : NS::Integer {
    CommandEncoderErrorStateUnknown = 0,
    CommandEncoderErrorStateCompleted = 1,
    CommandEncoderErrorStateAffected = 2,
    CommandEncoderErrorStatePending = 3,
    CommandEncoderErrorStateFaulted = 4,
};

// Serial: dispatches of an encoder run one after another. Concurrent: they may overlap unless
// separated by a memory barrier.
enum DispatchType : NS::UInteger {
    DispatchTypeSerial = 0,
    DispatchTypeConcurrent = 1,
};

using CommandBufferErrorOption = NS::UInteger;
enum : CommandBufferErrorOption {
    CommandBufferErrorOptionNone = 0,
    CommandBufferErrorOptionEncoderExecutionStatus = 1,
};

#if defined(__BLOCKS__)
using CommandBufferHandler = void (^)(CommandBuffer*);
#endif
using HandlerFunction = std::function<void(CommandBuffer*)>;

// Options for CommandQueue::commandBuffer(descriptor).
class CommandBufferDescriptor : public NS::Copying<CommandBufferDescriptor> {
public:
    static CommandBufferDescriptor* alloc();
    CommandBufferDescriptor* init();

    bool retainedReferences() const;
    void setRetainedReferences(bool retainedReferences);
    CommandBufferErrorOption errorOptions() const;
    void setErrorOptions(CommandBufferErrorOption errorOptions);
    LogState* logState() const;
    void setLogState(const LogState* logState);
};

// Per-encoder status in the user info of a failed command buffer's error.
class CommandBufferEncoderInfo : public NS::Referencing<CommandBufferEncoderInfo> {
public:
    NS::String* label() const;
    NS::Array* debugSignposts() const;
    CommandEncoderErrorState errorState() const;
};

// A list of encoded commands. Encode, commit(), then wait or use a completed handler.
class CommandBuffer : public NS::Referencing<CommandBuffer> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    Device* device() const;
    CommandQueue* commandQueue() const;
    bool retainedReferences() const;
    CommandBufferErrorOption errorOptions() const;

    // Encoders are autoreleased; call endEncoding() before starting another one.
    ComputeCommandEncoder* computeCommandEncoder();
    ComputeCommandEncoder* computeCommandEncoder(DispatchType dispatchType);
    ComputeCommandEncoder* computeCommandEncoder(const ComputePassDescriptor* computePassDescriptor);
    BlitCommandEncoder* blitCommandEncoder();

    void encodeSignalEvent(const Event* event, std::uint64_t value);
    void encodeWait(const Event* event, std::uint64_t value);
    void useResidencySet(const ResidencySet* residencySet);
    void useResidencySets(const ResidencySet* const residencySets[], NS::UInteger count);

    // Handlers must be added before commit().
    void addScheduledHandler(const HandlerFunction& function);
    void addCompletedHandler(const HandlerFunction& function);
#if defined(__BLOCKS__)
    void addScheduledHandler(const CommandBufferHandler block);
    void addCompletedHandler(const CommandBufferHandler block);
#endif

    void enqueue();
    void commit();
    void waitUntilScheduled();
    void waitUntilCompleted();

    CommandBufferStatus status() const;
    NS::Error* error() const;
    LogContainer* logs() const;
    CFTimeInterval kernelStartTime() const;
    CFTimeInterval kernelEndTime() const;
    CFTimeInterval GPUStartTime() const;
    CFTimeInterval GPUEndTime() const;

    void pushDebugGroup(const NS::String* string);
    void popDebugGroup();
};

} // namespace MTL
