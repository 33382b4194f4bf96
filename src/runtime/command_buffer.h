#pragma once

#include "foundation/object.h"
#include "runtime/buffer_memory.h"
#include "runtime/commands.h"
#include "runtime/label.h"

#include <Metal/MTLCommandBuffer.hpp>

#include <atomic>
#include <chrono>
#include <optional>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace metalcpu::exec {
class ShaderLog;
}

namespace metalcpu::rt {

class CommandEncoder;
class CommandQueue;
class Device;
class LogState;

/// A command buffer: commands recorded by its encoders, then run on its queue's thread.
/// Status goes NotEnqueued → Enqueued → Committed → Scheduled → Completed (or Error), as
/// in Metal; handlers run on the queue's thread, inside an autorelease pool.
class CommandBuffer final : public ns::Implements<MTL::CommandBuffer>, public CommandSink {
public:
    /// `logState` (may be null) receives the os_log messages of its kernels.
    CommandBuffer(CommandQueue* queue, bool retainReferences, MTL::CommandBufferErrorOption errorOptions,
                  LogState* logState = nullptr);
    ~CommandBuffer() override;
    const char* className() const override { return "MTLCommandBuffer"; }
    /// The fallback autorelease pool must not free a command buffer still in flight.
    bool mayDrainFromFallbackPool() const override;

    CommandQueue* queue() const { return queue_; }
    Device* device() const;
    Label& label() { return label_; }
    bool retainsReferences() const { return retainReferences_; }
    MTL::CommandBufferErrorOption errorOptions() const { return errorOptions_; }

    // Encoding.
    /// Whether an encoder may start (`selector` makes it): false, reported, when one is
    /// still open or the command buffer was committed.
    bool mayBeginEncoder(const char* selector);
    /// Called by an encoder as it opens and as it ends.
    void beginEncoder(CommandEncoder* encoder) { openEncoder_ = encoder; }
    void endEncoder(CommandEncoder* encoder);
    CommandEncoder* openEncoder() const { return openEncoder_; }
    /// 0 for the first encoder made on this command buffer, then 1, ...: how shader
    /// validation names an encoder without a label.
    std::uint64_t nextEncoderIndex() { return encodersMade_++; }
    void append(Command command) override { commands_.push_back(std::move(command)); }
    /// Keeps `object` alive until the command buffer completes (unless it holds
    /// unretained references, as commandBufferWithUnretainedReferences() asks).
    void keepAlive(NS::Object* object) override;
    void useBuffer(Buffer* buffer, bool writes) override;
    /// Copies setBytes() data into storage that lives as long as the command buffer.
    void* copyBytes(const void* bytes, std::uint64_t length);

    // Submission and waiting.
    void addHandler(bool completed, std::function<void(MTL::CommandBuffer*)> handler);
    void enqueue();
    void commit();
    bool isCommitted() const { return committed_.load(std::memory_order_acquire); }
    void waitUntilScheduled();
    void waitUntilCompleted();

    MTL::CommandBufferStatus status() const { return status_.load(std::memory_order_acquire); }
    NS::Error* error() const;
    double gpuStartTime() const { return gpuStartTime_; }
    double gpuEndTime() const { return gpuEndTime_; }

    /// Runs the commands; called once, on the queue's thread.
    void execute();

private:
    void setStatus(MTL::CommandBufferStatus status);
    void runHandlers(std::vector<std::function<void(MTL::CommandBuffer*)>>& handlers);
    void fail(const std::string& message, MTL::CommandBufferError code = MTL::CommandBufferErrorInternal);
    /// Runs one dispatch; false when the command buffer must fail.
    bool runDispatch(DispatchCommand& command);
    struct DispatchRun;
    /// Runs it in the device process (src/isolation); nullopt when it runs in this one.
    std::optional<DispatchRun> runInDeviceProcess(DispatchCommand& command);
    /// Hands the messages kernels logged to the log state's handlers and/or stderr.
    void deliverShaderLog();

    CommandQueue* queue_;
    bool retainReferences_;
    MTL::CommandBufferErrorOption errorOptions_;
    Label label_;
    LogState* logState_; ///< retained; null when the queue and the descriptor have none
    /// The messages of this command buffer's kernels while it runs; null when nobody listens.
    std::unique_ptr<exec::ShaderLog> shaderLog_;

    std::vector<Command> commands_;
    std::vector<NS::Object*> keptAlive_;
    /// A staged buffer the commands use (Buffer::staged()), retained.
    struct StagedUse {
        Buffer* buffer = nullptr;
        std::size_t firstCommand = 0; ///< the index of the first command that uses it
        bool written = false;         ///< a command writes it
        bool begun = false;           ///< beginStaging() was called
    };
    std::vector<StagedUse> stagedBuffers_;
    std::deque<std::unique_ptr<unsigned char[]>> bytes_;
    /// setBytes() copies when kernels run in a device process: memory it sees, in chunks.
    std::vector<std::unique_ptr<BufferMemory>> sharedBytes_;
    std::uint64_t sharedBytesUsed_ = 0; ///< of the last chunk
    CommandEncoder* openEncoder_ = nullptr;
    std::uint64_t encodersMade_ = 0;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::atomic<MTL::CommandBufferStatus> status_{MTL::CommandBufferStatusNotEnqueued};
    std::atomic<bool> enqueued_{false};
    std::atomic<bool> committed_{false};
    std::vector<std::function<void(MTL::CommandBuffer*)>> scheduledHandlers_, completedHandlers_;
    NS::Error* error_ = nullptr;
    std::atomic<bool> finished_{false}; ///< completed and its completed handlers have run
    std::uint64_t queueNumber_ = 0; ///< its place in the queue's progress, for waitForPendingWork()
    std::uint64_t commitIndex_ = 0; ///< its place among the command buffers the process committed
    double gpuStartTime_ = 0, gpuEndTime_ = 0;
    /// What is left of METALCPU_GPU_TIMEOUT for its kernels; only a device process can stop one.
    std::optional<std::chrono::steady_clock::duration> gpuTimeLeft_; // iso::DeviceProcess::TimeLeft
    /// The error code of a dispatch that failed in the device process.
    MTL::CommandBufferError failureCode_ = MTL::CommandBufferErrorInternal;
};

} // namespace metalcpu::rt
