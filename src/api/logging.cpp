// Shader logging: MTL::LogStateDescriptor (settings), Device::newLogState and
// MTL::LogState (runtime/log_state.h), and the function logs of a command buffer
// (CommandBuffer::logs() returns nullptr, so FunctionLog and its debug location only ever
// see nil).
#include "api/blocks.h"
#include "api/settings.h"
#include "foundation/factories.h"
#include "foundation/string.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/log_state.h"

#include <Metal/MTLDevice.hpp>

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

MTL::LogState* MTL::Device::newLogState(const LogStateDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    if (!metalcpu::ns::implOf<metalcpu::rt::Device>(this)) return nullptr;
    const auto* settings = metalcpu::ns::implOf<Descriptor>(descriptor);
    const Descriptor::State state = settings ? settings->state : Descriptor::State{};
    if (state.bufferSize < static_cast<NS::Integer>(metalcpu::rt::LogState::kMinimumBufferSize)) {
        if (error)
            *error = metalcpu::ns::autoreleased(metalcpu::ns::makeError(
                "MTLLogStateErrorDomain", LogStateErrorInvalidSize,
                "Log buffer size " + std::to_string(state.bufferSize) + " is invalid: it must be at least " +
                    std::to_string(metalcpu::rt::LogState::kMinimumBufferSize) + " bytes"));
        return nullptr;
    }
    if (state.level < LogLevelUndefined || state.level > LogLevelFault) {
        if (error)
            *error = metalcpu::ns::autoreleased(metalcpu::ns::makeError(
                "MTLLogStateErrorDomain", LogStateErrorInvalid,
                "Log level " + std::to_string(state.level) + " is not an MTLLogLevel"));
        return nullptr;
    }
    return metalcpu::ns::make<metalcpu::rt::LogState>(state.level, static_cast<std::uint64_t>(state.bufferSize));
}

void MTL::LogState::addLogHandler(const LogHandlerFunction& handler) {
    if (auto* self = metalcpu::ns::implOf<metalcpu::rt::LogState>(this)) self->addHandler(handler);
}
#if defined(__BLOCKS__)
void MTL::LogState::addLogHandler(void (^block)(NS::String*, NS::String*, LogLevel, NS::String*)) {
    addLogHandler(LogHandlerFunction(metalcpu::api::functionOf(block)));
}
#endif

// No FunctionLog or FunctionLogDebugLocation exists yet (see above).

NS::String* MTL::FunctionLogDebugLocation::functionName() const { return nullptr; }
NS::URL* MTL::FunctionLogDebugLocation::URL() const { return nullptr; }
NS::UInteger MTL::FunctionLogDebugLocation::line() const { return 0; }
NS::UInteger MTL::FunctionLogDebugLocation::column() const { return 0; }

MTL::FunctionLogType MTL::FunctionLog::type() const { return {}; }
NS::String* MTL::FunctionLog::encoderLabel() const { return nullptr; }
MTL::Function* MTL::FunctionLog::function() const { return nullptr; }
MTL::FunctionLogDebugLocation* MTL::FunctionLog::debugLocation() const { return nullptr; }
