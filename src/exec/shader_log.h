#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace metalcpu::exec {

/// One os_log message of a kernel, formatted.
struct ShaderLogMessage {
    std::uint32_t level = 0; ///< an MTLLogLevel
    std::string subsystem;
    std::string category;
    std::string text;
};

/// The messages kernels log during one command buffer (the runtime makes one per command
/// buffer that logs, and sets Dispatch::log). Thread-safe: every worker appends; the
/// messages of one kernel thread stay in the order it logged them, since one worker runs it.
class ShaderLog {
public:
    /// Keeps messages of `minimumLevel` and above while their bytes (subsystem, category
    /// and text) fit in `capacity`; the ones that do not fit are dropped, as Metal drops
    /// messages that overflow a log state's buffer.
    ShaderLog(std::uint32_t minimumLevel, std::uint64_t capacity) : minimumLevel_(minimumLevel), capacity_(capacity) {}

    void record(std::uint32_t level, const char* subsystem, const char* category, const char* format,
                const mc_log_argument* args, std::uint32_t argCount);

    /// The messages kept so far, oldest first; empties the log.
    std::vector<ShaderLogMessage> take();
    std::uint64_t dropped() const;

    std::uint32_t minimumLevel() const { return minimumLevel_; }
    /// Bytes of messages the log still takes.
    std::uint64_t remainingCapacity() const;
    /// Adds messages kept by another log of the same command buffer (a device process's),
    /// and the ones it dropped.
    void absorb(std::vector<ShaderLogMessage> messages, std::uint64_t dropped);

private:
    const std::uint32_t minimumLevel_;
    const std::uint64_t capacity_;
    mutable std::mutex mutex_;
    std::vector<ShaderLogMessage> messages_;
    std::uint64_t used_ = 0;
    std::uint64_t dropped_ = 0;
};

/// Formats an os_log message as printf would. The format and the arguments come from kernel
/// code, so nothing is trusted: %n is printed, not executed; a conversion without an
/// argument prints "<missing>"; each argument is converted to what its conversion wants;
/// strings are read up to kMaxStringArgument bytes.
std::string formatShaderLogMessage(const char* format, const mc_log_argument* args, std::uint32_t argCount);

inline constexpr std::size_t kMaxStringArgument = 4096;

} // namespace metalcpu::exec
