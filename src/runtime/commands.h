#pragma once

#include "exec/dispatch.h"
#include "runtime/buffer_memory.h"
#include "runtime/fault_cause.h"
#include "validation/dispatch_validation.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace NS {
class Object;
}

namespace metalcpu::jit {
class KernelLibrary;
}

namespace metalcpu::rt {

class Buffer;
class SharedEvent;

/// A kernel dispatch, with everything bound at the moment it was encoded. `encodeError`
/// holds the reason when the dispatch was invalid; the command buffer fails there.
struct DispatchCommand {
    exec::Dispatch dispatch;
    std::string encodeError;
    /// What a page fault of this dispatch is charged to, known when it was encoded (the
    /// arguments' memory, those that are null, misaligned offsets): the fault's message
    /// otherwise names only an address.
    FaultSuspects faultSuspects;
    /// Set when the pipeline is validated (shader validation).
    std::shared_ptr<val::DispatchValidation> validation;
    /// Zeroed memory bound to arguments nothing was bound to, when the guard that would run the
    /// kernel's checked flavour for them cannot (ComputeCommandEncoder::bindStandIns).
    std::shared_ptr<BufferMemory> standInMemory;
    /// The library holding dispatch.kernel, kept loaded while the dispatch waits to run (a
    /// device process loads it to run the kernel).
    std::shared_ptr<jit::KernelLibrary> library;
    /// Set when the plain kernel runs with null for the one buffer argument with nothing bound
    /// (a fault of it near address 0 is charged to it: faultSuspects.null; docs/validation.md,
    /// "Arguments with nothing bound, validation off"): when the dispatch runs in this process
    /// after all (no device process), switches it to the guard that needs none, the kernel's
    /// checked flavour.
    std::function<void(DispatchCommand&)> guardInThisProcess;
};

/// BlitCommandEncoder::copyFromBuffer.
struct CopyCommand {
    Buffer* source;
    std::uint64_t sourceOffset;
    Buffer* destination;
    std::uint64_t destinationOffset;
    std::uint64_t size;
};

/// BlitCommandEncoder::fillBuffer.
struct FillCommand {
    Buffer* buffer;
    std::uint64_t offset;
    std::uint64_t length;
    std::uint8_t value;
};

/// A command that could not be encoded; the command buffer fails when it gets there.
struct InvalidCommand {
    std::string error;
};

/// Sets an event's value once the commands before it have run (MTL4 queue signalEvent,
/// CommandBuffer::encodeSignalEvent). The command buffer keeps the event alive.
struct SignalEventCommand {
    SharedEvent* event;
    std::uint64_t value;
};

/// Holds the queue until an event's value reaches `value` (MTL4 queue wait,
/// CommandBuffer::encodeWait): later commands of the queue run after the signal.
struct WaitEventCommand {
    SharedEvent* event;
    std::uint64_t value;
};

using Command =
    std::variant<DispatchCommand, CopyCommand, FillCommand, InvalidCommand, SignalEventCommand, WaitEventCommand>;

/// Where encoders record: a classic command buffer, or an MTL4 command buffer that hands its
/// commands to the queue at commit.
class CommandSink {
public:
    virtual void append(Command command) = 0;
    /// Keeps `object` alive until the commands that use it have run.
    virtual void keepAlive(NS::Object* object) = 0;
    /// A buffer the command about to be appended reads, or `writes` (after keepAlive()): a
    /// buffer over the program's own memory that kernels see through a copy
    /// (Buffer::staged()) is copied in when the first command using it runs, and back after
    /// the command buffer when a command wrote it.
    virtual void useBuffer(Buffer* buffer, bool writes) = 0;

protected:
    ~CommandSink() = default;
};

} // namespace metalcpu::rt
