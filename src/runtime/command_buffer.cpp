#include "runtime/command_buffer.h"

#include "runtime/buffer_memory.h"

#include "exec/executor.h"
#include "isolation/device_process.h"
#include "foundation/factories.h"
#include "runtime/buffer.h"
#include "runtime/command_encoder.h"
#include "runtime/command_queue.h"
#include "runtime/debug_layer.h"
#include "runtime/errors.h"
#include "runtime/in_flight.h"
#include "runtime/log_state.h"
#include "runtime/shared_event.h"
#include "support/config.h"
#include "support/log.h"
#include "support/spin.h"
#include "validation/dispatch_counts.h"

#include <Foundation/NSAutoreleasePool.hpp>
#include <Foundation/NSError.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace metalcpu::rt {
namespace {

/// Seconds on the monotonic clock, the time base of GPUStartTime/GPUEndTime (as
/// CACurrentMediaTime() is on Apple platforms).
double now() {
    timespec time{};
    clock_gettime(CLOCK_MONOTONIC, &time);
    return double(time.tv_sec) + double(time.tv_nsec) * 1e-9;
}

/// The size of the shared-memory chunks setBytes copies are carved from.
constexpr std::uint64_t kSharedBytesChunk = 64 * 1024;

/// Chunks command buffers are done with, kept for the next ones: a chunk from the arena
/// costs a few system calls each way, a setBytes per command buffer should not.
class SharedChunks {
public:
    static SharedChunks& shared() {
        static SharedChunks* chunks = new SharedChunks; // command buffers may outlive statics
        return *chunks;
    }
    std::unique_ptr<BufferMemory> take() {
        {
            std::lock_guard lock(mutex_);
            if (!free_.empty()) {
                std::unique_ptr<BufferMemory> chunk = std::move(free_.back());
                free_.pop_back();
                return chunk;
            }
        }
        return std::make_unique<BufferMemory>(kSharedBytesChunk);
    }
    void give(std::vector<std::unique_ptr<BufferMemory>>& chunks) {
        std::lock_guard lock(mutex_);
        for (std::unique_ptr<BufferMemory>& chunk : chunks)
            if (chunk->bytes() && chunk->size() == kSharedBytesChunk && free_.size() < kKept)
                free_.push_back(std::move(chunk));
        chunks.clear();
    }

private:
    static constexpr std::size_t kKept = 64;
    std::mutex mutex_;
    std::vector<std::unique_ptr<BufferMemory>> free_;
};

} // namespace

CommandBuffer::CommandBuffer(CommandQueue* queue, bool retainReferences, MTL::CommandBufferErrorOption errorOptions,
                             LogState* logState)
    : queue_(queue), retainReferences_(retainReferences), errorOptions_(errorOptions), logState_(logState) {
    queue_->retain();
    if (logState_) logState_->retain();
}

CommandBuffer::~CommandBuffer() {
    for (StagedUse& use : stagedBuffers_) use.buffer->release(); // never executed
    if (logState_) logState_->release();
    for (NS::Object* object : keptAlive_) object->release();
    if (error_) error_->release();
    queue_->release();
}

bool CommandBuffer::mayDrainFromFallbackPool() const {
    MTL::CommandBufferStatus current = status();
    return current == MTL::CommandBufferStatusNotEnqueued || current == MTL::CommandBufferStatusCompleted ||
           current == MTL::CommandBufferStatusError;
}

Device* CommandBuffer::device() const { return queue_->device(); }

bool CommandBuffer::mayBeginEncoder(const char* selector) {
    // Both fire in Apple's driver, with or without the debug layer.
    if (isCommitted()) {
        DebugLayer::reject({"IOGPUMetalCommandBuffer", "setCurrentCommandEncoder:", 323},
                           "_status < MTLCommandBufferStatusCommitted");
        return false;
    }
    if (openEncoder_) {
        DebugLayer::reject({"MTLDebugCommandBuffer", selector, 1015},
                           "A command encoder is already encoding to this command buffer");
        return false;
    }
    return true;
}

void CommandBuffer::endEncoder(CommandEncoder* encoder) {
    if (openEncoder_ == encoder) openEncoder_ = nullptr;
}

void CommandBuffer::keepAlive(NS::Object* object) {
    if (!retainReferences_ || !object) return;
    keptAlive_.push_back(object->retain());
}

void CommandBuffer::useBuffer(Buffer* buffer, bool writes) {
    if (!buffer || !buffer->staged()) return;
    for (StagedUse& use : stagedBuffers_)
        if (use.buffer == buffer) {
            use.written |= writes;
            return;
        }
    buffer->retain();
    stagedBuffers_.push_back(StagedUse{buffer, commands_.size(), writes});
}

void* CommandBuffer::copyBytes(const void* bytes, std::uint64_t length) {
    // 16-byte aligned, like Metal's inline constant data: plain new[] already is, and a
    // plain new[] is what unique_ptr's delete[] matches.
    static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 16, "setBytes copies need 16-byte alignment");
    std::size_t rounded = static_cast<std::size_t>((length + 15) / 16 * 16 + 16);
    unsigned char* copy = nullptr;
    if (BufferMemory::sharedWithDevice()) {
        // Where the device process sees it: carved from chunks of shared memory.
        if (sharedBytes_.empty() || !sharedBytes_.back()->bytes() ||
            sharedBytesUsed_ + rounded > sharedBytes_.back()->size()) {
            sharedBytes_.push_back(rounded <= kSharedBytesChunk ? SharedChunks::shared().take()
                                                                 : std::make_unique<BufferMemory>(rounded));
            sharedBytesUsed_ = 0;
        }
        if (std::uint8_t* chunk = sharedBytes_.back()->bytes()) {
            copy = chunk + sharedBytesUsed_;
            sharedBytesUsed_ += rounded;
            std::memset(copy, 0, rounded); // a chunk used before holds old bytes
        } else {
            // A copy elsewhere would fault in the kernel: the command buffer fails here.
            append(InvalidCommand{"setBytes: no memory the device process shares is left for " +
                                  std::to_string(length) + " bytes"});
        }
    }
    if (!copy) {
        bytes_.push_back(std::unique_ptr<unsigned char[]>(new unsigned char[rounded]()));
        copy = bytes_.back().get();
    }
    if (bytes && length) std::memcpy(copy, bytes, static_cast<std::size_t>(length));
    return copy;
}

void CommandBuffer::addHandler(bool completed, std::function<void(MTL::CommandBuffer*)> handler) {
    std::lock_guard lock(mutex_);
    if (isCommitted()) {
        support::log().error("add{}Handler after commit: the handler will not be called",
                             completed ? "Completed" : "Scheduled");
        return;
    }
    (completed ? completedHandlers_ : scheduledHandlers_).push_back(std::move(handler));
}

void CommandBuffer::setStatus(MTL::CommandBufferStatus status) {
    {
        std::lock_guard lock(mutex_);
        status_.store(status, std::memory_order_release);
    }
    changed_.notify_all();
}

void CommandBuffer::enqueue() {
    if (enqueued_.exchange(true)) return;
    setStatus(MTL::CommandBufferStatusEnqueued);
    queueNumber_ = queue_->enqueue(this);
}

void CommandBuffer::commit() {
    // Both fire in Apple's driver, with or without the debug layer. Without it, metalcpu
    // ignores the second commit and ends the open encoder.
    if (isCommitted()) {
        DebugLayer::reject({"IOGPUMetalCommandBuffer", "validate", 214}, "commit an already committed command buffer");
        return;
    }
    if (openEncoder_) {
        DebugLayer::reject({"_MTLCommandBuffer", "commit", 691}, "commit command buffer with uncommitted encoder");
        openEncoder_->endEncoding();
    }
    enqueue();
    setStatus(MTL::CommandBufferStatusCommitted);
    // Counted before the queue's thread can see it committed, so it cannot finish uncounted.
    commitIndex_ = queue_->progress().commit(queueNumber_);
    committed_.store(true, std::memory_order_release);
    queue_->commit(this);
}

void CommandBuffer::waitUntilScheduled() {
    if (!isCommitted()) {
        support::log().warn("waitUntilScheduled on a command buffer that was not committed: returning at once");
        return;
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return status() >= MTL::CommandBufferStatusScheduled; });
}

void CommandBuffer::waitUntilCompleted() {
    if (!isCommitted()) {
        support::log().warn("waitUntilCompleted on a command buffer that was not committed: returning at once");
        return;
    }
    // The next buffer of an idle queue runs here: handing it to the queue's thread and its
    // end back costs two wake-ups, 75-85 us each on a loaded machine (bench/README.md).
    if (queue_->runOnCaller(this)) return;
    // A short command buffer run in this process is done before a sleeping thread could be
    // woken: spin first. With a device process its channel spins instead; spinning here too
    // would take the cores its threads need.
    constexpr auto kSpin = std::chrono::microseconds(30);
    if (!BufferMemory::sharedWithDevice() &&
        support::spinFor(kSpin, [&] { return finished_.load(std::memory_order_acquire); }))
        return;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return finished_.load(std::memory_order_acquire); });
}

NS::Error* CommandBuffer::error() const {
    std::lock_guard lock(mutex_);
    return error_;
}

void CommandBuffer::fail(const std::string& message, MTL::CommandBufferError code) {
    std::string label = label_.text();
    support::log().error("command buffer{} failed: {}", label.empty() ? "" : " '" + label + "'", message);
    std::lock_guard lock(mutex_);
    if (!error_) error_ = ns::makeError(kCommandBufferErrorDomain, code, message);
}

void CommandBuffer::runHandlers(std::vector<std::function<void(MTL::CommandBuffer*)>>& handlers) {
    std::vector<std::function<void(MTL::CommandBuffer*)>> taken;
    {
        std::lock_guard lock(mutex_);
        taken.swap(handlers);
    }
    if (taken.empty()) return;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    for (auto& handler : taken) handler(this);
    pool->release();
}

namespace {

/// The error code of a command buffer whose dispatch a device process could not finish.
MTL::CommandBufferError errorCode(iso::DeviceFailure::Kind kind) {
    switch (kind) {
    case iso::DeviceFailure::Kind::PageFault: return MTL::CommandBufferErrorPageFault;
    case iso::DeviceFailure::Kind::StackOverflow: return MTL::CommandBufferErrorStackOverflow;
    case iso::DeviceFailure::Kind::Timeout: return MTL::CommandBufferErrorTimeout;
    default: return MTL::CommandBufferErrorInternal;
    }
}

} // namespace

/// What running one dispatch gave, wherever it ran.
struct CommandBuffer::DispatchRun {
    exec::DispatchResult result;
    std::vector<validation::ShaderValidationReport> reports;
    bool pageFaulted = false;
    std::optional<std::uint64_t> faultAddress; ///< of a device process's page fault, when it gave one
};

std::optional<CommandBuffer::DispatchRun> CommandBuffer::runInDeviceProcess(DispatchCommand& command) {
    iso::DeviceProcess* device = iso::DeviceProcess::forExecution();
    if (!device || !command.library) return std::nullopt;
    val::DispatchValidation* validation = command.validation.get();
    iso::DispatchMessage message;
    message.dispatch = &command.dispatch;
    message.validation = validation;
    message.commandBufferIndex = commitIndex_;
    if (shaderLog_) message.log = iso::DispatchMessage::Log{shaderLog_->minimumLevel(), shaderLog_->remainingCapacity()};
    auto ran = device->run(message, command.library, gpuTimeLeft_);
    DispatchRun run;
    if (auto* failure = std::get_if<iso::DeviceFailure>(&ran)) {
        if (failure->kind == iso::DeviceFailure::Kind::Unavailable &&
            iso::configuredIsolation() == iso::Isolation::Preferred)
            return std::nullopt; // said once in the log; this process runs it
        run.result = {false, failure->message};
        run.faultAddress = failure->address;
        failureCode_ = errorCode(failure->kind);
        return run;
    }
    iso::DispatchOutcome& outcome = std::get<iso::DispatchOutcome>(ran);
    if (shaderLog_) shaderLog_->absorb(std::move(outcome.log), outcome.logDropped);
    run.result = std::move(outcome.result);
    if (validation && outcome.validated) {
        validation->addBindingReports(outcome.findings); // found when encoded, not by the device's twin
        const std::vector<validation::ShaderValidationReport>& reports = outcome.findings.reports;
        if (validation->settings().abortOnFault && validation->reportsToUser() && !reports.empty()) {
            // MTL_SHADER_VALIDATION_ABORT_ON_FAULT: the program stops at the first report,
            // printed once, before delivering would print them all.
            std::fputs(reports.front().text().c_str(), stderr);
            std::fflush(stderr);
            std::abort();
        }
        validation->deliver(outcome.findings);
        run.reports = std::move(outcome.findings.reports);
        run.pageFaulted = outcome.pageFaulted;
    }
    return run;
}

bool CommandBuffer::runDispatch(DispatchCommand& command) {
    val::DispatchValidation* validation = command.validation.get();
    val::dispatchExecuted(validation && validation->reportsToUser());
    command.dispatch.observer = validation;
    command.dispatch.log = shaderLog_.get();
    failureCode_ = MTL::CommandBufferErrorInternal;
    std::optional<DispatchRun> ran = runInDeviceProcess(command);
    if (!ran) {
        if (command.guardInThisProcess) {
            // Null bound to an argument is safe only where a device process contains faults.
            command.guardInThisProcess(command);
            validation = command.validation.get();
            command.dispatch.observer = validation;
        }
        ran.emplace();
        if (validation) validation->begin(command.dispatch.parameters, commitIndex_);
        ran->result = exec::Executor::shared().run(command.dispatch);
        if (validation) {
            ran->reports = validation->finish();
            ran->pageFaulted = validation->pageFaulted();
        }
    }
    if (!ran->result.ok) {
        if (failureCode_ == MTL::CommandBufferErrorPageFault)
            ran->result.error = describeFault(ran->result.error, command.dispatch.kernelName, command.faultSuspects,
                                              ran->faultAddress);
        fail(ran->result.error, failureCode_);
        return false;
    }
    if (!validation) return true;
    const std::vector<validation::ShaderValidationReport>& reports = ran->reports;
    if (ran->pageFaulted) {
        // An access a GPU would fault on: let through by MTL_SHADER_VALIDATION_FAIL_MODE=allow,
        // or made through an argument with nothing bound.
        std::string message = kPageFaultError;
        for (const validation::ShaderValidationReport& report : reports)
            if (report.kind == validation::ReportKind::NullBuffer) {
                message = unboundAccess(report.kernel, argumentText(report.argumentName, "buffer", report.bindingIndex));
                break;
            }
        fail(message, MTL::CommandBufferErrorPageFault);
        return false;
    }
    if (!reports.empty() && validation->settings().failCommandBuffer) {
        std::string message = "shader validation reported " + std::to_string(reports.size()) +
                              (reports.size() == 1 ? " invalid access" : " invalid accesses") +
                              " (METALCPU_SHADER_VALIDATION_FAILS_COMMAND_BUFFER=1):\n";
        for (const validation::ShaderValidationReport& report : reports) message += report.text();
        fail(message);
        return false;
    }
    return true;
}

void CommandBuffer::deliverShaderLog() {
    if (!shaderLog_) return;
    std::vector<exec::ShaderLogMessage> messages = shaderLog_->take();
    if (const std::uint64_t dropped = shaderLog_->dropped())
        support::log().warn("shader log: {} message{} did not fit the log buffer and {} dropped", dropped,
                            dropped == 1 ? "" : "s", dropped == 1 ? "was" : "were");
    shaderLog_.reset();
    if (logState_) logState_->deliver(messages);
    if (!logState_ || logsToStderr()) printToStderr(messages);
}

void CommandBuffer::execute() {
    gpuStartTime_ = now();
    // Checked by support/config.cpp (a value that is not a number of seconds became the default).
    static const double limit = std::strtod(support::config().gpuTimeout.c_str(), nullptr); // 0: none
    if (limit > 0)
        gpuTimeLeft_ = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(limit));
    shaderLog_ = logState_ ? logState_->makeLog() : makeEnvironmentLog();
    setStatus(MTL::CommandBufferStatusScheduled);
    runHandlers(scheduledHandlers_);

    bool failed = false;
    for (std::size_t index = 0; index < commands_.size() && !failed; ++index) {
        Command& command = commands_[index];
        // The program's memory behind bytesNoCopy buffers reaches kernels through copies,
        // made when the first command that uses each runs: after the event waits before it.
        for (StagedUse& use : stagedBuffers_)
            if (use.firstCommand == index) {
                use.buffer->beginStaging();
                use.begun = true;
            }
        if (auto* dispatch = std::get_if<DispatchCommand>(&command)) {
            if (!dispatch->encodeError.empty()) {
                fail(dispatch->encodeError);
                failed = true;
                continue;
            }
            if (!runDispatch(*dispatch)) failed = true;
        } else if (auto* copy = std::get_if<CopyCommand>(&command)) {
            std::memmove(copy->destination->memory() + copy->destinationOffset,
                         copy->source->memory() + copy->sourceOffset, static_cast<std::size_t>(copy->size));
        } else if (auto* fill = std::get_if<FillCommand>(&command)) {
            std::memset(fill->buffer->memory() + fill->offset, fill->value, static_cast<std::size_t>(fill->length));
        } else if (auto* invalid = std::get_if<InvalidCommand>(&command)) {
            fail(invalid->error);
            failed = true;
        } else if (auto* signal = std::get_if<SignalEventCommand>(&command)) {
            signal->event->signal(signal->value);
        } else if (auto* wait = std::get_if<WaitEventCommand>(&command)) {
            wait->event->waitFor(wait->value);
        }
    }
    for (StagedUse& use : stagedBuffers_) {
        if (use.begun) use.buffer->endStaging(use.written);
        use.buffer->release();
    }
    stagedBuffers_.clear();
    gpuEndTime_ = now();
    deliverShaderLog();
    commands_.clear();
    bytes_.clear();
    SharedChunks::shared().give(sharedBytes_);
    for (NS::Object* object : keptAlive_) object->release();
    keptAlive_.clear();

    // Handlers run before waiters wake, so a program that waits sees their effects.
    {
        std::lock_guard lock(mutex_);
        status_.store(failed ? MTL::CommandBufferStatusError : MTL::CommandBufferStatusCompleted,
                      std::memory_order_release);
    }
    runHandlers(completedHandlers_);
    {
        std::lock_guard lock(mutex_);
        finished_.store(true, std::memory_order_release);
    }
    changed_.notify_all();
    queue_->progress().finish(queueNumber_);
}

} // namespace metalcpu::rt
