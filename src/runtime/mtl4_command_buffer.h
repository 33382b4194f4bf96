#pragma once

#include "foundation/object.h"
#include "runtime/commands.h"
#include "runtime/label.h"
#include "runtime/mtl4_residency.h"

#include <Metal/MTL4CommandBuffer.hpp>

#include <cstdint>
#include <vector>

namespace metalcpu::rt {

class CommandBuffer;
class Device;
class LogState;
class Mtl4CommandAllocator;
class Mtl4ComputeCommandEncoder;

/// An MTL4 command buffer: records between beginCommandBuffer and endCommandBuffer, with
/// one encoder open at a time; an MTL4 queue's commit hands the commands to a classic
/// command buffer (moveInto), which runs them. It can then begin again.
class Mtl4CommandBuffer final : public ns::Implements<MTL4::CommandBuffer>, public CommandSink {
public:
    enum class State { Idle, Begun, Ended, Committed };

    explicit Mtl4CommandBuffer(Device* device) : device_(device) {}
    ~Mtl4CommandBuffer() override;
    const char* className() const override { return "MTL4CommandBuffer"; }

    Device* device() const { return device_; }
    Label& label() { return label_; }
    State state() const { return state_; }

    /// `logState` (may be null) receives the os_log messages of its kernels.
    void begin(MTL4::CommandAllocator* allocator, LogState* logState);
    void end();
    /// A new autoreleased encoder, or nullptr (reported) when the state forbids one.
    MTL4::ComputeCommandEncoder* computeCommandEncoder();
    void endEncoder(Mtl4ComputeCommandEncoder* encoder);
    std::uint64_t nextEncoderIndex() { return encodersMade_++; }

    void append(Command command) override;
    void keepAlive(NS::Object* object) override;
    void useBuffer(Buffer* buffer, bool writes) override;
    /// The command the next append() records.
    std::size_t nextCommand() const { return commands_.size(); }

    /// useResidencySet(s): for this recording (beginCommandBuffer forgets them).
    void useResidencySets(const MTL::ResidencySet* const* sets, std::uint64_t count) { residencySets_.add(sets, count); }
    /// What the dispatch recorded as command `command` reads, for the residency check.
    ResidencyUses& residencyUses() { return residencyUses_; }
    /// API validation at commit: fails (reported) each dispatch that uses an allocation in no
    /// committed residency set of this command buffer or of `queueSets`.
    void checkResidency(const ResidencySets& queueSets) { residencyUses_.check(residencySets_, queueSets, commands_); }

    /// The allocator was reset while this command buffer still depended on it.
    void noteAllocatorReset() { allocatorReset_ = true; }
    bool allocatorWasReset() const { return allocatorReset_; }
    LogState* logState() const { return logState_; }
    /// Hands the recorded commands and kept objects to `target` and marks this committed.
    void moveInto(rt::CommandBuffer& target);

private:
    void releaseRecording();

    Device* device_;
    Label label_;
    State state_ = State::Idle;
    Mtl4CommandAllocator* allocator_ = nullptr; ///< retained from begin to commit
    LogState* logState_ = nullptr;              ///< retained
    Mtl4ComputeCommandEncoder* openEncoder_ = nullptr;
    std::uint64_t encodersMade_ = 0;
    bool allocatorReset_ = false;
    std::vector<Command> commands_;
    std::vector<NS::Object*> keptAlive_; ///< retained
    /// The staged buffers the commands use (kept alive by keptAlive_), with the command that
    /// uses each.
    struct StagedUse {
        std::size_t command = 0;
        Buffer* buffer = nullptr;
        bool writes = false;
    };
    std::vector<StagedUse> stagedUses_;
    ResidencySets residencySets_;
    ResidencyUses residencyUses_; ///< noted only while API validation is on
};

} // namespace metalcpu::rt
