// metalcpu: LogState, which routes messages that kernels print with os_log.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <functional>

namespace MTL {

enum LogLevel : NS::Integer {
    LogLevelUndefined = 0,
    LogLevelDebug = 1,
    LogLevelInfo = 2,
    LogLevelNotice = 3,
    LogLevelError = 4,
    LogLevelFault = 5,
};

enum LogStateError : NS::UInteger {
    LogStateErrorInvalidSize = 1,
    LogStateErrorInvalid = 2,
};

// The error domain of log state creation errors (codes are LogStateError).
extern NS::String* const LogStateErrorDomain;

using LogHandlerFunction = std::function<void(NS::String* subsystem, NS::String* category, LogLevel logLevel,
                                              NS::String* message)>;

// Receives shader log messages; attach it with CommandQueueDescriptor or CommandBufferDescriptor.
class LogState : public NS::Referencing<LogState> {
public:
    void addLogHandler(const LogHandlerFunction& handler);
#if defined(__BLOCKS__)
    void addLogHandler(void (^block)(NS::String*, NS::String*, LogLevel, NS::String*));
#endif
};

class LogStateDescriptor : public NS::Copying<LogStateDescriptor> {
public:
    static LogStateDescriptor* alloc();
    LogStateDescriptor* init();

    LogLevel level() const;
    void setLevel(LogLevel level);
    NS::Integer bufferSize() const;
    void setBufferSize(NS::Integer bufferSize);
};

} // namespace MTL
