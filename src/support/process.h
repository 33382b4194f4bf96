#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::support {

/// Bounds a child process runs under; 0 means no bound. The child runs in a process group
/// of its own, so that a timeout ends it together with everything it started.
struct ProcessLimits {
    unsigned timeoutSeconds = 0;         ///< then the whole process group is killed (SIGKILL)
    std::uint64_t addressSpaceBytes = 0; ///< RLIMIT_AS of the child (inherited by its children)
    std::uint64_t fileSizeBytes = 0;     ///< RLIMIT_FSIZE: the largest file it may write
    std::size_t outputBytes = 0;         ///< output kept; the rest is read, counted and dropped
};

/// What a finished child process left behind.
struct ProcessResult {
    bool started = false;        ///< false when the program could not be run at all
    int exitCode = -1;           ///< the exit status, or -1 when killed by a signal
    int signal = 0;              ///< the signal that ended it, 0 when it exited
    bool timedOut = false;       ///< killed at ProcessLimits::timeoutSeconds
    std::string output;          ///< standard output and standard error, interleaved
    std::uint64_t droppedBytes = 0; ///< output beyond ProcessLimits::outputBytes, not kept
};

/// Runs `argv` (argv[0] is looked up in PATH) in `workingDirectory` (empty: ours), waits
/// for it and captures its output, within `limits`. `environment` holds NAME=VALUE entries
/// that the child gets instead of, or besides, this process's. The child is always waited
/// for (no zombie is left). Never throws.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory = {},
                         const ProcessLimits& limits = {}, const std::vector<std::string>& environment = {});

/// The executable `name` names: itself when it contains a slash, else the first match in
/// PATH (or /usr/bin:/bin). Empty when there is none.
std::string findProgram(const std::string& name);

/// `argv` as one shell-quoted line, for error messages.
std::string commandLine(const std::vector<std::string>& argv);

} // namespace metalcpu::support
