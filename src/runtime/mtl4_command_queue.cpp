#include "runtime/mtl4_command_queue.h"

#include "foundation/factories.h"
#include "runtime/command_buffer.h"
#include "runtime/command_queue.h"
#include "runtime/debug_layer.h"
#include "runtime/errors.h"
#include "runtime/mtl4_command_buffer.h"
#include "runtime/shared_event.h"

#include <Foundation/NSError.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>

namespace metalcpu::rt {
namespace {

constexpr const char* kClass = "MTL4DebugCommandQueue";
constexpr const char* kCommit = "commit:count:options:";

/// The command buffers of one commit, until the last completes and the handlers run.
class CommitGroup {
public:
    CommitGroup(std::vector<Mtl4CommandQueue::FeedbackHandler> handlers, std::size_t count)
        : handlers_(std::move(handlers)), remaining_(count) {}
    ~CommitGroup() {
        if (error_) error_->release();
    }

    void completed(CommandBuffer& buffer) {
        {
            std::lock_guard lock(mutex_);
            start_ = std::min(start_, buffer.gpuStartTime());
            end_ = std::max(end_, buffer.gpuEndTime());
            if (!error_ && buffer.error()) error_ = buffer.error()->retain();
            if (--remaining_ != 0) return;
        }
        deliver(handlers_, error_, start_, end_);
    }

    /// Calls `handlers` with one feedback object.
    static void deliver(const std::vector<Mtl4CommandQueue::FeedbackHandler>& handlers, NS::Error* error,
                        double start, double end) {
        if (handlers.empty()) return;
        MTL4::CommitFeedback* feedback = ns::make<Mtl4CommitFeedback>(error, start, end);
        for (const auto& handler : handlers) handler(feedback);
        ns::implOf<Mtl4CommitFeedback>(feedback)->release();
    }

private:
    std::vector<Mtl4CommandQueue::FeedbackHandler> handlers_;
    std::mutex mutex_;
    std::size_t remaining_;
    double start_ = std::numeric_limits<double>::max();
    double end_ = 0;
    NS::Error* error_ = nullptr; ///< retained
};

} // namespace

Mtl4CommitFeedback::Mtl4CommitFeedback(NS::Error* error, double start, double end)
    : error_(error), start_(start), end_(end) {
    if (error_) error_->retain();
}

Mtl4CommitFeedback::~Mtl4CommitFeedback() {
    if (error_) error_->release();
}

Mtl4CommandQueue::Mtl4CommandQueue(Device* device)
    : device_(device), queue_(ns::implOf<rt::CommandQueue>(ns::make<rt::CommandQueue>(device, 64))) {}

Mtl4CommandQueue::~Mtl4CommandQueue() { queue_->release(); }

void Mtl4CommandQueue::commit(const MTL4::CommandBuffer* const* buffers, std::uint64_t count,
                              std::vector<FeedbackHandler> feedbackHandlers) {
    // All are checked before any runs, so a refused commit runs nothing.
    std::vector<Mtl4CommandBuffer*> committed;
    std::string problem;
    unsigned line = 0;
    auto refuse = [&](unsigned where, std::string text) {
        line = where;
        problem = std::move(text);
    };
    for (std::uint64_t i = 0; i < count && problem.empty(); ++i) {
        const std::string at = "(at index " + std::to_string(i) + ")";
        Mtl4CommandBuffer* buffer = buffers ? ns::implOf<Mtl4CommandBuffer>(buffers[i]) : nullptr;
        auto earlier = std::find(committed.begin(), committed.end(), buffer);
        if (!buffer) refuse(400, "Command buffer cannot be nil " + at + ".");
        else if (earlier != committed.end())
            refuse(404, "Command buffer (found at indices " + std::to_string(earlier - committed.begin()) + " and " +
                            std::to_string(i) + ") can only be committed once.");
        else if (buffer->state() == Mtl4CommandBuffer::State::Committed)
            refuse(408, "Command buffer has already been committed. Call beginCommandBufferWithAllocator to reuse "
                        "the command buffer " + at + ".");
        else if (buffer->state() != Mtl4CommandBuffer::State::Ended)
            refuse(412, "endCommandBuffer must be called before committing the command buffer " + at + ".");
        else if (buffer->allocatorWasReset())
            refuse(416, "Command allocator for command buffer " + at +
                            " was reset or released before the command buffer was committed.");
        committed.push_back(buffer);
    }
    if (!problem.empty()) {
        DebugLayer::reject({kClass, kCommit, line}, problem);
        NS::Error* error = ns::makeError(kCommandBufferErrorDomain, MTL::CommandBufferErrorInvalidResource, problem);
        CommitGroup::deliver(feedbackHandlers, error, 0, 0);
        error->release();
        return;
    }
    if (count == 0) return CommitGroup::deliver(feedbackHandlers, nullptr, 0, 0);
    auto group = std::make_shared<CommitGroup>(std::move(feedbackHandlers), committed.size());
    for (Mtl4CommandBuffer* buffer : committed) {
        auto* inner = ns::implOf<CommandBuffer>(
            queue_->commandBuffer(true, MTL::CommandBufferErrorOptionNone, buffer->logState()));
        inner->label().set(buffer->label().get());
        buffer->checkResidency(residencySets_);
        buffer->moveInto(*inner);
        inner->addHandler(true, [group](MTL::CommandBuffer* done) {
            group->completed(*ns::implOf<CommandBuffer>(done));
        });
        inner->commit();
    }
}

void Mtl4CommandQueue::signalEvent(const MTL::Event* event, std::uint64_t value) {
    if (SharedEvent* target = SharedEvent::of(const_cast<MTL::Event*>(event)))
        commitAlone(SignalEventCommand{target, value}, event);
    else DebugLayer::reject({kClass, "signalEvent:value:", 520}, "event must not be nil.");
}

void Mtl4CommandQueue::wait(const MTL::Event* event, std::uint64_t value) {
    if (SharedEvent* target = SharedEvent::of(const_cast<MTL::Event*>(event)))
        commitAlone(WaitEventCommand{target, value}, event);
    else DebugLayer::reject({kClass, "waitForEvent:value:", 530}, "event must not be nil.");
}

void Mtl4CommandQueue::commitAlone(Command command, const MTL::Event* event) {
    // Through the classic queue, so it keeps its place between the commits around it.
    auto* inner = ns::implOf<rt::CommandBuffer>(queue_->commandBuffer(true, MTL::CommandBufferErrorOptionNone));
    inner->append(std::move(command));
    inner->keepAlive(const_cast<MTL::Event*>(event));
    inner->commit();
}

} // namespace metalcpu::rt
