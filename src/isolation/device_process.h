// The host's side of the device process (docs/architecture.md, "The device process"): it
// starts the process on demand, hands it the kernel libraries dispatches need, sends each
// dispatch through the calling thread's channel, and turns a fault, a hang or the end of the
// process into the error Metal gives the command buffer. A process that ends is replaced by
// the next dispatch.
#pragma once

#include "isolation/dispatch_messages.h"

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace metalcpu::jit {
class KernelLibrary;
}

namespace metalcpu::iso {

/// Where command buffers run (METALCPU_ISOLATION).
enum class Isolation {
    None,      ///< in this process
    Preferred, ///< in a device process when one can start, else in this process (unset)
    Required,  ///< in a device process; when none can start, command buffers fail
};
Isolation configuredIsolation();

/// How a dispatch sent to the device process ended without an outcome.
struct DeviceFailure {
    enum class Kind {
        Unavailable,   ///< no device process could be started
        PageFault,     ///< the kernel touched memory it may not (SIGSEGV, SIGBUS)
        StackOverflow, ///< the kernel's thread ran out of stack
        Trap,          ///< the kernel trapped (SIGILL, SIGFPE, SIGTRAP, SIGABRT, a refused system call)
        Timeout,       ///< the command buffer ran past METALCPU_GPU_TIMEOUT
        Victim,        ///< another dispatch's fault or timeout ended the process while this one ran
        Lost,          ///< the process ended for another reason (killed from outside)
    };
    DeviceFailure() = default;
    DeviceFailure(Kind kind, std::string message) : kind(kind), message(std::move(message)) {}

    Kind kind = Kind::Lost;
    std::string message; ///< for people: what happened, naming the kernel
    /// PageFault: the address touched, when the fault gave one (a general-protection fault does not).
    std::optional<std::uint64_t> address;
};

class DeviceProcess {
public:
    /// The program's device process, or nullptr when command buffers run in this process
    /// (METALCPU_ISOLATION=none, or unset and none could be started: said once in the log).
    static DeviceProcess* forExecution();

    /// What is left of a command buffer's METALCPU_GPU_TIMEOUT (nullopt: no limit). Only the
    /// time its dispatches run in the device process counts, each from when it is posted:
    /// not the process's start, nor the command buffer's waits for events.
    using TimeLeft = std::optional<std::chrono::steady_clock::duration>;

    /// Runs one dispatch whose kernel is in `library`, until it ends or `timeLeft` runs out;
    /// takes the time it ran from `timeLeft`. Thread-safe: each calling thread has a channel
    /// of its own.
    std::variant<DispatchOutcome, DeviceFailure> run(const DispatchMessage& message,
                                                     const std::shared_ptr<jit::KernelLibrary>& library,
                                                     TimeLeft& timeLeft);

    /// The running device process's id, or 0 (tests stop it from outside with it).
    pid_t pid() const;
    /// How many device processes this program has started.
    std::uint64_t generation() const;

    DeviceProcess(const DeviceProcess&) = delete;
    DeviceProcess& operator=(const DeviceProcess&) = delete;

    struct State;

private:
    DeviceProcess();
    State* state_;
};

} // namespace metalcpu::iso
