#pragma once

#include "support/confinement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace metalcpu::support {

/// Bounds a child process runs under; 0 means no bound. The child runs in a process group
/// of its own, so that a timeout ends it together with everything it started.
struct ProcessLimits {
    unsigned timeoutSeconds = 0;         ///< wall time; then the whole process group is killed (SIGKILL)
    /// CPU time the process group may use, all its processes together (those it has waited
    /// for included); then it is killed as at the timeout. Unlike wall time, it does not run
    /// out on a machine busy with other work.
    unsigned cpuSeconds = 0;
    std::uint64_t addressSpaceBytes = 0; ///< RLIMIT_AS of the child (inherited by its children)
    std::uint64_t fileSizeBytes = 0;     ///< RLIMIT_FSIZE: the largest file it may write
    std::size_t outputBytes = 0;         ///< output kept; the rest is read, counted and dropped
    /// When set, the child is confined to these files (support/confinement.h); a child that
    /// cannot be confined is not run.
    std::optional<FileAccess> files;
};

/// What a finished child process left behind.
struct ProcessResult {
    bool started = false;        ///< false when the program could not be run (or confined) at all
    int exitCode = -1;           ///< the exit status, or -1 when killed by a signal
    int signal = 0;              ///< the signal that ended it, 0 when it exited
    bool timedOut = false;       ///< killed at ProcessLimits::timeoutSeconds
    bool outOfCpuTime = false;   ///< killed at ProcessLimits::cpuSeconds
    std::string output;          ///< standard output and standard error, interleaved
    std::uint64_t droppedBytes = 0; ///< output beyond ProcessLimits::outputBytes, not kept
};

/// Runs `argv` (argv[0] is looked up in PATH) in `workingDirectory` (empty: ours), waits
/// for it and captures its output, within `limits`. `environment` holds NAME=VALUE entries
/// that the child gets instead of, or besides, this process's. The child inherits no
/// descriptor but its standard ones, and is always waited for (no zombie is left), whatever
/// this process does with SIGCHLD. Never throws.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory = {},
                         const ProcessLimits& limits = {}, const std::vector<std::string>& environment = {});

/// fork() for a child that this process waits for itself (waitChild()): as long as it does
/// not exec (which gives it SIGCHLD back), its end raises no SIGCHLD, so neither SIGCHLD set
/// to SIG_IGN (which would reap it at once, its status lost) nor another thread's
/// waitpid(-1) can take its status first. Like after fork(), the child of a multithreaded
/// process may make async-signal-safe calls only.
pid_t forkWaitable();

/// Waits for a child of forkWaitable(): its wait status, or -1.
int waitChild(pid_t pid);

/// The executable `name` names: itself when it contains a slash, else the first match in
/// PATH (or /usr/bin:/bin). Empty when there is none.
std::string findProgram(const std::string& name);

/// `argv` as one shell-quoted line, for error messages.
std::string commandLine(const std::vector<std::string>& argv);

} // namespace metalcpu::support
