#pragma once

#include "foundation/object.h"
#include "runtime/commands.h"
#include "runtime/label.h"
#include "runtime/mtl4_residency.h"

#include <Metal/MTL4CommandQueue.hpp>
#include <Metal/MTL4CommitFeedback.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace NS {
class Error;
}

namespace metalcpu::rt {

class CommandQueue;
class Device;

/// What a commit's feedback handlers receive: the first error of its command buffers and
/// the span of their GPU times.
class Mtl4CommitFeedback final : public ns::Implements<MTL4::CommitFeedback> {
public:
    Mtl4CommitFeedback(NS::Error* error, double start, double end); ///< retains `error`
    ~Mtl4CommitFeedback() override;
    const char* className() const override { return "MTL4CommitFeedback"; }
    NS::Error* error() const { return error_; }
    double gpuStartTime() const { return start_; }
    double gpuEndTime() const { return end_; }

private:
    NS::Error* error_;
    double start_, end_;
};

/// An MTL4 command queue on a classic one: commit() turns each MTL4 command buffer into an
/// internal classic command buffer (its thread, ordering, shader log, validation and
/// timestamps are the classic queue's) and calls the commit's feedback handlers once the
/// last of them has completed.
class Mtl4CommandQueue final : public ns::Implements<MTL4::CommandQueue> {
public:
    using FeedbackHandler = std::function<void(MTL4::CommitFeedback*)>;

    explicit Mtl4CommandQueue(Device* device);
    ~Mtl4CommandQueue() override;
    const char* className() const override { return "MTL4CommandQueue"; }

    Device* device() const { return device_; }
    Label& label() { return label_; }

    /// Commits `count` command buffers, all or (reported) none of them.
    void commit(const MTL4::CommandBuffer* const* buffers, std::uint64_t count,
                std::vector<FeedbackHandler> feedbackHandlers);
    /// Sets `event` to `value` once the work committed before has run.
    void signalEvent(const MTL::Event* event, std::uint64_t value);
    /// Work committed after this waits until `event` reaches `value`.
    void wait(const MTL::Event* event, std::uint64_t value);
    /// addResidencySet(s) and removeResidencySet(s): every later commit uses them.
    ResidencySets& residencySets() { return residencySets_; }

private:
    /// Commits an internal command buffer holding only `command` (which uses `event`).
    void commitAlone(Command command, const MTL::Event* event);

    Device* device_;
    Label label_;
    rt::CommandQueue* queue_; ///< the classic queue that runs the work (owned)
    ResidencySets residencySets_;
};

} // namespace metalcpu::rt
