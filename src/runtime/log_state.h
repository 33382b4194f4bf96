#pragma once

#include "exec/shader_log.h"
#include "foundation/object.h"

#include <Metal/MTLLogState.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace metalcpu::rt {

/// MTL::LogState: the level and buffer size messages are kept at, and the handlers they go
/// to. Attached to a command queue or command buffer through its descriptor.
class LogState final : public ns::Implements<MTL::LogState> {
public:
    LogState(MTL::LogLevel level, std::uint64_t bufferSize) : level_(level), bufferSize_(bufferSize) {}
    const char* className() const override { return "MTLLogState"; }

    /// Smallest buffer Device::newLogState accepts (MTLLogStateErrorInvalidSize below it).
    static constexpr std::uint64_t kMinimumBufferSize = 1024;

    void addHandler(MTL::LogHandlerFunction handler);
    /// A log for one command buffer with this state's level and buffer size.
    std::unique_ptr<exec::ShaderLog> makeLog() const;
    /// Calls every handler for every message, in order, on the calling thread.
    void deliver(const std::vector<exec::ShaderLogMessage>& messages);

private:
    const MTL::LogLevel level_;
    const std::uint64_t bufferSize_;
    std::mutex mutex_;
    std::vector<MTL::LogHandlerFunction> handlers_;
};

/// Logging without a LogState, as Apple's MTL_LOG_LEVEL, MTL_LOG_BUFFER_SIZE and
/// MTL_LOG_TO_STDERR ask: a log for each command buffer when one of them is set, else null.
std::unique_ptr<exec::ShaderLog> makeEnvironmentLog();
/// Whether messages also go to stderr (MTL_LOG_TO_STDERR=1).
bool logsToStderr();
/// Prints each message as one line on stderr.
void printToStderr(const std::vector<exec::ShaderLogMessage>& messages);

} // namespace metalcpu::rt
