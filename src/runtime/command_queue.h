#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLCommandBuffer.hpp>
#include <Metal/MTLCommandQueue.hpp>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace metalcpu::rt {

class CommandBuffer;
class Device;
class LogState;
class QueueProgress;

/// A command queue: command buffers run one after another, in the order they were
/// enqueued (commit() enqueues when enqueue() was not called). Each queue has one thread
/// that sleeps until a command buffer is ready and then runs it through the executor; a thread
/// that waits for the next one may run it instead (runOnCaller()).
class CommandQueue final : public ns::Implements<MTL::CommandQueue> {
public:
    CommandQueue(Device* device, std::uint64_t maxCommandBufferCount);
    ~CommandQueue() override;
    const char* className() const override { return "MTLCommandQueue"; }

    Device* device() const { return device_; }
    Label& label() { return label_; }

    /// A new autoreleased command buffer.
    /// `logState` (the command buffer descriptor's) wins over the queue's.
    MTL::CommandBuffer* commandBuffer(bool retainReferences, MTL::CommandBufferErrorOption errorOptions,
                                      LogState* logState = nullptr);
    /// The log state of the queue's descriptor, shared by its command buffers (retained).
    void setLogState(LogState* logState);

    /// Reserves the command buffer's place in the queue (enqueue()): returns its number in the
    /// queue's progress.
    std::uint64_t enqueue(CommandBuffer* buffer);
    /// Marks it ready to run (commit()).
    void commit(CommandBuffer* buffer);
    /// How far the queue has committed and finished its command buffers.
    QueueProgress& progress();
    /// Runs `buffer` on the calling thread, when kernels run in this process and it is the
    /// next the queue would run with nothing of the queue running: for a thread about to wait
    /// for it (waitUntilCompleted), which otherwise waits for the queue's thread to be
    /// scheduled, then to be scheduled again itself. False when it is not to be run here.
    bool runOnCaller(CommandBuffer* buffer);

private:
    struct Shared;
    static void run(std::shared_ptr<Shared> shared);
    Device* device_;
    Label label_;
    LogState* logState_ = nullptr;
    std::shared_ptr<Shared> shared_;
};

} // namespace metalcpu::rt
