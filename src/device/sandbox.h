// The confinement a device process enters before it runs any kernel: whatever a kernel does,
// the host program's memory and the user's files stay out of its reach (docs/architecture.md,
// "The device process").
#pragma once

#include <string>

namespace metalcpu::device {

/// What the sandbox put in place on this machine.
struct SandboxReport {
    int landlockAbi = 0;  ///< the Landlock ABI used; 0 when the kernel has none
    bool seccomp = false; ///< whether the system-call filter is in place
    /// For people: the layers this machine lacks (empty when every layer is in place).
    std::string missing;
};

/// Confines the calling process for good: no new privileges, no core dumps, Landlock
/// (no file opened by path, no network, no signals or abstract sockets outside the process)
/// where the kernel has it, and a system-call filter that allows only what a device process
/// needs (memory, threads, futexes, the descriptors it already holds, time). Call while the
/// process has a single thread: threads made later inherit it. false with the reason in
/// `error` when a layer the machine offers could not be entered.
bool enterSandbox(SandboxReport* report, std::string* error);

} // namespace metalcpu::device
