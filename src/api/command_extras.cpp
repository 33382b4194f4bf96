// The command queue and command buffer methods beyond command_queue.cpp and
// command_buffer.cpp: residency sets (every allocation is always resident on a CPU, so they are
// accepted and ignored), the log states of the descriptors, event signals and waits, the block
// overloads of the handlers, and MTL::CommandBufferEncoderInfo, which appears in command buffer
// errors metalcpu does not report yet.
#include "api/blocks.h"
#include "foundation/string.h"
#include "runtime/command_buffer.h"
#include "runtime/descriptors.h"
#include "runtime/shared_event.h"

#include <Metal/MTLCommandBuffer.hpp>
#include <Metal/MTLCommandQueue.hpp>
#include <Metal/MTLDevice.hpp>

namespace metalcpu::api {
namespace {

// Apple's name for the user-info key of encoder information in command buffer errors.
constinit ns::Immortal<ns::String> encoderInfoErrorKey{ns::String::ConstantText{},
                                                       std::string_view("MTLCommandBufferEncoderInfoErrorKey")};

} // namespace
} // namespace metalcpu::api

NS::String* const MTL::CommandBufferEncoderInfoErrorKey = &metalcpu::api::encoderInfoErrorKey.value;

void MTL::CommandQueue::addResidencySet(const ResidencySet*) {}
void MTL::CommandQueue::addResidencySets(const ResidencySet* const[], NS::UInteger) {}
void MTL::CommandQueue::removeResidencySet(const ResidencySet*) {}
void MTL::CommandQueue::removeResidencySets(const ResidencySet* const[], NS::UInteger) {}

MTL::LogState* MTL::CommandQueueDescriptor::logState() const {
    auto* self = metalcpu::ns::implOf<metalcpu::rt::CommandQueueDescriptor>(this);
    return self ? self->logState : nullptr;
}
void MTL::CommandQueueDescriptor::setLogState(const LogState* logState) {
    if (auto* self = metalcpu::ns::implOf<metalcpu::rt::CommandQueueDescriptor>(this))
        metalcpu::rt::assignRetained(self->logState, logState);
}

MTL::LogState* MTL::CommandBufferDescriptor::logState() const {
    auto* self = metalcpu::ns::implOf<metalcpu::rt::CommandBufferDescriptor>(this);
    return self ? self->logState : nullptr;
}
void MTL::CommandBufferDescriptor::setLogState(const LogState* logState) {
    if (auto* self = metalcpu::ns::implOf<metalcpu::rt::CommandBufferDescriptor>(this))
        metalcpu::rt::assignRetained(self->logState, logState);
}

namespace {

/// encodeSignalEvent/encodeWait: `command` runs between the encoders before and after it.
void encodeEvent(MTL::CommandBuffer* buffer, const MTL::Event* event, metalcpu::rt::Command command,
                 const char* selector) {
    auto* self = metalcpu::ns::implOf<metalcpu::rt::CommandBuffer>(buffer);
    if (!self || !event || !self->mayBeginEncoder(selector)) return;
    self->keepAlive(const_cast<MTL::Event*>(event));
    self->append(std::move(command));
}

} // namespace

void MTL::CommandBuffer::encodeSignalEvent(const Event* event, std::uint64_t value) {
    if (auto* target = metalcpu::rt::SharedEvent::of(const_cast<Event*>(event)))
        encodeEvent(this, event, metalcpu::rt::SignalEventCommand{target, value}, "encodeSignalEvent:value:");
}
void MTL::CommandBuffer::encodeWait(const Event* event, std::uint64_t value) {
    if (auto* target = metalcpu::rt::SharedEvent::of(const_cast<Event*>(event)))
        encodeEvent(this, event, metalcpu::rt::WaitEventCommand{target, value}, "encodeWaitForEvent:value:");
}
void MTL::CommandBuffer::useResidencySet(const ResidencySet*) {}
void MTL::CommandBuffer::useResidencySets(const ResidencySet* const[], NS::UInteger) {}
#if defined(__BLOCKS__)
void MTL::CommandBuffer::addScheduledHandler(const CommandBufferHandler block) {
    if (metalcpu::ns::implOf<metalcpu::rt::CommandBuffer>(this))
        addScheduledHandler(HandlerFunction(metalcpu::api::functionOf(block)));
}
void MTL::CommandBuffer::addCompletedHandler(const CommandBufferHandler block) {
    if (metalcpu::ns::implOf<metalcpu::rt::CommandBuffer>(this))
        addCompletedHandler(HandlerFunction(metalcpu::api::functionOf(block)));
}
#endif

// No CommandBufferEncoderInfo exists yet (see above).
NS::String* MTL::CommandBufferEncoderInfo::label() const { return nullptr; }
NS::Array* MTL::CommandBufferEncoderInfo::debugSignposts() const { return nullptr; }
MTL::CommandEncoderErrorState MTL::CommandBufferEncoderInfo::errorState() const {
    return CommandEncoderErrorStateUnknown;
}
