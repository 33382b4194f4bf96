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

namespace {

/// A new compute encoder on `commandBuffer`, or nullptr (reported) when it may not start
/// one; `selector` names the method in the report.
MTL::ComputeCommandEncoder* newComputeEncoder(const MTL::CommandBuffer* commandBuffer, MTL::DispatchType dispatchType,
                                              const char* selector) {
    auto* self = implOf<Cb>(commandBuffer);
    if (!self || !self->mayBeginEncoder(selector)) return nullptr;
    return metalcpu::ns::autoreleased(metalcpu::ns::make<metalcpu::rt::ComputeCommandEncoder>(self, dispatchType));
}

} // namespace

MTL::ComputeCommandEncoder* MTL::CommandBuffer::computeCommandEncoder(DispatchType dispatchType) {
    return newComputeEncoder(this, dispatchType, "computeCommandEncoderWithDispatchType:");
}
MTL::ComputeCommandEncoder* MTL::CommandBuffer::computeCommandEncoder() {
    return newComputeEncoder(this, DispatchTypeSerial, "computeCommandEncoder");
}
MTL::ComputeCommandEncoder* MTL::CommandBuffer::computeCommandEncoder(const ComputePassDescriptor* descriptor) {
    auto* settings = implOf<metalcpu::rt::ComputePassDescriptor>(descriptor);
    return newComputeEncoder(this, settings ? settings->dispatchType : DispatchTypeSerial,
                             "computeCommandEncoderWithDescriptor:");
}
MTL::BlitCommandEncoder* MTL::CommandBuffer::blitCommandEncoder() {
    auto* self = implOf<Cb>(this);
    if (!self || !self->mayBeginEncoder("blitCommandEncoder")) return nullptr;
    return metalcpu::ns::autoreleased(metalcpu::ns::make<metalcpu::rt::BlitCommandEncoder>(self));
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
CFTimeInterval MTL::CommandBuffer::kernelStartTime() const {
    auto* self = implOf<Cb>(this);
    return self ? self->gpuStartTime() : 0;
}
CFTimeInterval MTL::CommandBuffer::kernelEndTime() const {
    auto* self = implOf<Cb>(this);
    return self ? self->gpuEndTime() : 0;
}
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
