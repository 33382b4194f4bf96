#include "runtime/log_state.h"

#include "foundation/factories.h"
#include "support/config.h"
#include "support/log.h"

#include <Foundation/NSAutoreleasePool.hpp>

#include <cstdio>
#include <string>

namespace metalcpu::rt {
namespace {

/// MTL_LOG_LEVEL: Apple's names (MTLLogLevelDebug ...), the short ones (debug ...) or 1 to 5.
MTL::LogLevel environmentLevel() {
    const std::string& text = support::config().mtlLogLevel;
    if (text.empty()) return MTL::LogLevelDebug;
    static const char* const names[] = {"undefined", "debug", "info", "notice", "error", "fault"};
    std::string name = text.rfind("MTLLogLevel", 0) == 0 ? text.substr(11) : text;
    for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    for (int level = 1; level <= 5; ++level)
        if (name == names[level] || name == std::to_string(level)) return static_cast<MTL::LogLevel>(level);
    // Read for every command buffer: said once.
    support::warnOnce("MTL_LOG_LEVEL=" + text + " is not a log level (MTLLogLevelDebug ... MTLLogLevelFault); using debug");
    return MTL::LogLevelDebug;
}

} // namespace

void LogState::addHandler(MTL::LogHandlerFunction handler) {
    if (!handler) return;
    std::lock_guard lock(mutex_);
    handlers_.push_back(std::move(handler));
}

std::unique_ptr<exec::ShaderLog> LogState::makeLog() const {
    return std::make_unique<exec::ShaderLog>(static_cast<std::uint32_t>(level_), bufferSize_);
}

void LogState::deliver(const std::vector<exec::ShaderLogMessage>& messages) {
    std::vector<MTL::LogHandlerFunction> handlers;
    {
        std::lock_guard lock(mutex_);
        handlers = handlers_;
    }
    if (handlers.empty() || messages.empty()) return;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    for (const exec::ShaderLogMessage& message : messages) {
        NS::String* subsystem = ns::makeString(message.subsystem);
        NS::String* category = ns::makeString(message.category);
        NS::String* text = ns::makeString(message.text);
        for (const MTL::LogHandlerFunction& handler : handlers)
            handler(subsystem, category, static_cast<MTL::LogLevel>(message.level), text);
        text->release();
        category->release();
        subsystem->release();
    }
    pool->release();
}

std::unique_ptr<exec::ShaderLog> makeEnvironmentLog() {
    const support::Config& config = support::config();
    if (config.mtlLogLevel.empty() && config.mtlLogBufferSize <= 0 && !config.mtlLogToStderr) return nullptr;
    const std::uint64_t size = config.mtlLogBufferSize > 0 ? static_cast<std::uint64_t>(config.mtlLogBufferSize)
                                                          : std::uint64_t(1024 * 1024);
    return std::make_unique<exec::ShaderLog>(static_cast<std::uint32_t>(environmentLevel()), size);
}

bool logsToStderr() { return support::config().mtlLogToStderr != 0; }

void printToStderr(const std::vector<exec::ShaderLogMessage>& messages) {
    std::string text;
    for (const exec::ShaderLogMessage& message : messages) text += message.text + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

} // namespace metalcpu::rt
