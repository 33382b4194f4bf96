// MTL::CommandQueue and MTL::CommandQueueDescriptor.
#include "runtime/command_queue.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"
#include "runtime/log_state.h"

#include <Metal/MTLCommandQueue.hpp>

using metalcpu::ns::implOf;
using Queue = metalcpu::rt::CommandQueue;

NS::String* MTL::CommandQueue::label() const {
    auto* self = implOf<Queue>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::CommandQueue::setLabel(const NS::String* label) {
    if (auto* self = implOf<Queue>(this)) self->label().set(label);
}
MTL::Device* MTL::CommandQueue::device() const {
    auto* self = implOf<Queue>(this);
    return self ? self->device() : nullptr;
}
MTL::CommandBuffer* MTL::CommandQueue::commandBuffer() {
    auto* self = implOf<Queue>(this);
    return self ? self->commandBuffer(true, CommandBufferErrorOptionNone) : nullptr;
}
MTL::CommandBuffer* MTL::CommandQueue::commandBuffer(const CommandBufferDescriptor* descriptor) {
    auto* self = implOf<Queue>(this);
    if (!self) return nullptr;
    auto* settings = implOf<metalcpu::rt::CommandBufferDescriptor>(descriptor);
    return settings ? self->commandBuffer(settings->retainedReferences, settings->errorOptions,
                                          implOf<metalcpu::rt::LogState>(settings->logState))
                    : self->commandBuffer(true, CommandBufferErrorOptionNone);
}
MTL::CommandBuffer* MTL::CommandQueue::commandBufferWithUnretainedReferences() {
    auto* self = implOf<Queue>(this);
    return self ? self->commandBuffer(false, CommandBufferErrorOptionNone) : nullptr;
}
void MTL::CommandQueue::insertDebugCaptureBoundary() {}

MTL::CommandQueueDescriptor* MTL::CommandQueueDescriptor::alloc() {
    return metalcpu::ns::make<metalcpu::rt::CommandQueueDescriptor>();
}
MTL::CommandQueueDescriptor* MTL::CommandQueueDescriptor::init() {
    return implOf<metalcpu::rt::CommandQueueDescriptor>(this) ? this : nullptr;
}
NS::UInteger MTL::CommandQueueDescriptor::maxCommandBufferCount() const {
    auto* self = implOf<metalcpu::rt::CommandQueueDescriptor>(this);
    return self ? self->maxCommandBufferCount : 0;
}
void MTL::CommandQueueDescriptor::setMaxCommandBufferCount(NS::UInteger maxCommandBufferCount) {
    if (auto* self = implOf<metalcpu::rt::CommandQueueDescriptor>(this))
        self->maxCommandBufferCount = maxCommandBufferCount;
}
