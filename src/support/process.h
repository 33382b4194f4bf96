#pragma once

#include <string>
#include <vector>

namespace metalcpu::support {

/// What a finished child process left behind.
struct ProcessResult {
    bool started = false; ///< false when the program could not be run at all
    int exitCode = -1;    ///< the exit status, or -1 when killed by a signal
    std::string output;   ///< standard output and standard error, interleaved
};

/// Runs `argv` (argv[0] is looked up in PATH) in `workingDirectory` (empty: ours), waits
/// for it and captures its output. Never throws.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory = {});

/// `argv` as one shell-quoted line, for error messages.
std::string commandLine(const std::vector<std::string>& argv);

} // namespace metalcpu::support
