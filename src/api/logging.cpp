// Shader logging: MTL::LogStateDescriptor (settings), MTL::LogState, which metalcpu cannot make
// yet (Device::newLogState logs once and returns nullptr), and the function logs of a command
// buffer (CommandBuffer::logs() returns nullptr, so FunctionLog and its debug location only
// ever see nil).
#include "api/settings.h"
#include "foundation/string.h"

#include <Metal/MTLFunctionLog.hpp>
#include <Metal/MTLLogState.hpp>

namespace metalcpu::api {
namespace {

class LogStateDescriptor final : public Settings<LogStateDescriptor, MTL::LogStateDescriptor> {
public:
    const char* className() const override { return "MTLLogStateDescriptor"; }

    // Apple's defaults: debug messages and up, into a 1 MB buffer.
    struct State {
        MTL::LogLevel level = MTL::LogLevelDebug;
        NS::Integer bufferSize = 1024 * 1024;
    } state;
};

// Apple's name for the domain of log state errors.
constinit ns::Immortal<ns::String> logStateErrorDomain{ns::String::ConstantText{},
                                                       std::string_view("MTLLogStateErrorDomain")};

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::LogStateDescriptor;

NS::String* const MTL::LogStateErrorDomain = &metalcpu::api::logStateErrorDomain.value;

METALCPU_ALLOC_INIT(MTL::LogStateDescriptor, Descriptor)
METALCPU_VALUE(MTL::LogStateDescriptor, Descriptor, MTL::LogLevel, level, setLevel, level)
METALCPU_VALUE(MTL::LogStateDescriptor, Descriptor, NS::Integer, bufferSize, setBufferSize, bufferSize)

// No LogState, FunctionLog or FunctionLogDebugLocation exists yet (see above).
void MTL::LogState::addLogHandler(const LogHandlerFunction&) {}
#if defined(__BLOCKS__)
void MTL::LogState::addLogHandler(void (^)(NS::String*, NS::String*, LogLevel, NS::String*)) {}
#endif

NS::String* MTL::FunctionLogDebugLocation::functionName() const { return nullptr; }
NS::URL* MTL::FunctionLogDebugLocation::URL() const { return nullptr; }
NS::UInteger MTL::FunctionLogDebugLocation::line() const { return 0; }
NS::UInteger MTL::FunctionLogDebugLocation::column() const { return 0; }

MTL::FunctionLogType MTL::FunctionLog::type() const { return {}; }
NS::String* MTL::FunctionLog::encoderLabel() const { return nullptr; }
MTL::Function* MTL::FunctionLog::function() const { return nullptr; }
MTL::FunctionLogDebugLocation* MTL::FunctionLog::debugLocation() const { return nullptr; }
