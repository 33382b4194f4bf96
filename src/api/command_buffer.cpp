// MTL::CommandBuffer and MTL::CommandBufferDescriptor.
#include "runtime/blit_command_encoder.h"
#include "runtime/command_buffer.h"
#include "runtime/command_queue.h"
#include "runtime/compute_command_encoder.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"

#include <Metal/MTLCommandBuffer.hpp>

using metalcpu::ns::implOf;
using Cb = metalcpu::rt::CommandBuffer;

NS::String* MTL::CommandBuffer::label() const {
    auto* self = implOf<Cb>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::CommandBuffer::setLabel(const NS::String* label) {
    if (auto* self = implOf<Cb>(this)) self->label().set(label);
}
MTL::Device* MTL::CommandBuffer::device() const {
    auto* self = implOf<Cb>(this);
    return self ? self->device() : nullptr;
}
MTL::CommandQueue* MTL::CommandBuffer::commandQueue() const {
    auto* self = implOf<Cb>(this);
    return self ? self->queue() : nullptr;
}
bool MTL::CommandBuffer::retainedReferences() const {
    auto* self = implOf<Cb>(this);
    return self && self->retainsReferences();
}
MTL::CommandBufferErrorOption MTL::CommandBuffer::errorOptions() const {
    auto* self = implOf<Cb>(this);
    return self ? self->errorOptions() : CommandBufferErrorOptionNone;
}

MTL::ComputeCommandEncoder* MTL::CommandBuffer::computeCommandEncoder(DispatchType dispatchType) {
    auto* self = implOf<Cb>(this);
    if (!self) return nullptr;
    MTL::ComputeCommandEncoder* encoder = metalcpu::ns::make<metalcpu::rt::ComputeCommandEncoder>(self, dispatchType);
    auto* made = implOf<metalcpu::rt::ComputeCommandEncoder>(encoder);
    if (!self->beginEncoder(made, "computeCommandEncoder")) {
        made->endEncoding(); // so that releasing it does not complain again
        encoder->release();
        return nullptr;
    }
    return metalcpu::ns::autoreleased(encoder);
}
MTL::ComputeCommandEncoder* MTL::CommandBuffer::computeCommandEncoder() {
    return computeCommandEncoder(DispatchTypeSerial);
}
MTL::ComputeCommandEncoder* MTL::CommandBuffer::computeCommandEncoder(const ComputePassDescriptor* descriptor) {
    auto* settings = implOf<metalcpu::rt::ComputePassDescriptor>(descriptor);
    return computeCommandEncoder(settings ? settings->dispatchType : DispatchTypeSerial);
}
MTL::BlitCommandEncoder* MTL::CommandBuffer::blitCommandEncoder() {
    auto* self = implOf<Cb>(this);
    if (!self) return nullptr;
    MTL::BlitCommandEncoder* encoder = metalcpu::ns::make<metalcpu::rt::BlitCommandEncoder>(self);
    auto* made = implOf<metalcpu::rt::BlitCommandEncoder>(encoder);
    if (!self->beginEncoder(made, "blitCommandEncoder")) {
        made->endEncoding();
        encoder->release();
        return nullptr;
    }
    return metalcpu::ns::autoreleased(encoder);
}

void MTL::CommandBuffer::addScheduledHandler(const HandlerFunction& function) {
    if (auto* self = implOf<Cb>(this)) self->addHandler(false, function);
}
void MTL::CommandBuffer::addCompletedHandler(const HandlerFunction& function) {
    if (auto* self = implOf<Cb>(this)) self->addHandler(true, function);
}
void MTL::CommandBuffer::enqueue() {
    if (auto* self = implOf<Cb>(this)) self->enqueue();
}
void MTL::CommandBuffer::commit() {
    if (auto* self = implOf<Cb>(this)) self->commit();
}
void MTL::CommandBuffer::waitUntilScheduled() {
    if (auto* self = implOf<Cb>(this)) self->waitUntilScheduled();
}
void MTL::CommandBuffer::waitUntilCompleted() {
    if (auto* self = implOf<Cb>(this)) self->waitUntilCompleted();
}
MTL::CommandBufferStatus MTL::CommandBuffer::status() const {
    auto* self = implOf<Cb>(this);
    return self ? self->status() : CommandBufferStatusNotEnqueued;
}
NS::Error* MTL::CommandBuffer::error() const {
    auto* self = implOf<Cb>(this);
    return self ? self->error() : nullptr;
}
MTL::LogContainer* MTL::CommandBuffer::logs() const { return nullptr; }
CFTimeInterval MTL::CommandBuffer::kernelStartTime() const { return GPUStartTime(); }
CFTimeInterval MTL::CommandBuffer::kernelEndTime() const { return GPUEndTime(); }
CFTimeInterval MTL::CommandBuffer::GPUStartTime() const {
    auto* self = implOf<Cb>(this);
    return self ? self->gpuStartTime() : 0;
}
CFTimeInterval MTL::CommandBuffer::GPUEndTime() const {
    auto* self = implOf<Cb>(this);
    return self ? self->gpuEndTime() : 0;
}
void MTL::CommandBuffer::pushDebugGroup(const NS::String*) {}
void MTL::CommandBuffer::popDebugGroup() {}

MTL::CommandBufferDescriptor* MTL::CommandBufferDescriptor::alloc() {
    return metalcpu::ns::make<metalcpu::rt::CommandBufferDescriptor>();
}
MTL::CommandBufferDescriptor* MTL::CommandBufferDescriptor::init() {
    return implOf<metalcpu::rt::CommandBufferDescriptor>(this) ? this : nullptr;
}
bool MTL::CommandBufferDescriptor::retainedReferences() const {
    auto* self = implOf<metalcpu::rt::CommandBufferDescriptor>(this);
    return self && self->retainedReferences;
}
void MTL::CommandBufferDescriptor::setRetainedReferences(bool retainedReferences) {
    if (auto* self = implOf<metalcpu::rt::CommandBufferDescriptor>(this)) self->retainedReferences = retainedReferences;
}
MTL::CommandBufferErrorOption MTL::CommandBufferDescriptor::errorOptions() const {
    auto* self = implOf<metalcpu::rt::CommandBufferDescriptor>(this);
    return self ? self->errorOptions : CommandBufferErrorOptionNone;
}
void MTL::CommandBufferDescriptor::setErrorOptions(CommandBufferErrorOption errorOptions) {
    if (auto* self = implOf<metalcpu::rt::CommandBufferDescriptor>(this)) self->errorOptions = errorOptions;
}
