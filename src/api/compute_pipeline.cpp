// MTL::ComputePipelineState and MTL::ComputePipelineDescriptor.
#include "api/not_yet.h"
#include "runtime/compute_pipeline.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"

#include <Metal/MTLComputePipeline.hpp>

using metalcpu::ns::implOf;
using Pipeline = metalcpu::rt::ComputePipelineState;
using Descriptor = metalcpu::rt::ComputePipelineDescriptor;

NS::String* MTL::ComputePipelineState::label() const {
    auto* self = implOf<Pipeline>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL::ComputePipelineState::device() const {
    auto* self = implOf<Pipeline>(this);
    return self ? self->device() : nullptr;
}
NS::UInteger MTL::ComputePipelineState::maxTotalThreadsPerThreadgroup() const {
    auto* self = implOf<Pipeline>(this);
    return self ? self->maxTotalThreadsPerThreadgroup() : 0;
}
NS::UInteger MTL::ComputePipelineState::threadExecutionWidth() const {
    auto* self = implOf<Pipeline>(this);
    return self ? self->device()->threadExecutionWidth() : 0;
}
NS::UInteger MTL::ComputePipelineState::staticThreadgroupMemoryLength() const {
    auto* self = implOf<Pipeline>(this);
    return self ? self->staticThreadgroupMemoryLength() : 0;
}
MTL::Size MTL::ComputePipelineState::requiredThreadsPerThreadgroup() const {
    auto* self = implOf<Pipeline>(this);
    return self ? self->requiredThreadsPerThreadgroup() : MTL::Size(0, 0, 0);
}
NS::UInteger MTL::ComputePipelineState::imageblockMemoryLength(Size) { return 0; }
MTL::ResourceID MTL::ComputePipelineState::gpuResourceID() const {
    MTL::ResourceID id{};
    id._impl = reinterpret_cast<std::uint64_t>(implOf<Pipeline>(this));
    return id;
}
MTL::ShaderValidation MTL::ComputePipelineState::shaderValidation() const {
    const Pipeline* self = implOf<Pipeline>(this);
    if (!self) return ShaderValidationDefault;
    return self->validated() ? ShaderValidationEnabled : ShaderValidationDisabled;
}
bool MTL::ComputePipelineState::supportIndirectCommandBuffers() const { return false; }
MTL::ComputePipelineReflection* MTL::ComputePipelineState::reflection() const { return nullptr; }

MTL::ComputePipelineDescriptor* MTL::ComputePipelineDescriptor::alloc() { return metalcpu::ns::make<Descriptor>(); }
MTL::ComputePipelineDescriptor* MTL::ComputePipelineDescriptor::init() {
    return implOf<Descriptor>(this) ? this : nullptr;
}
NS::String* MTL::ComputePipelineDescriptor::label() const {
    auto* self = implOf<Descriptor>(this);
    return self ? self->label.get() : nullptr;
}
void MTL::ComputePipelineDescriptor::setLabel(const NS::String* label) {
    if (auto* self = implOf<Descriptor>(this)) self->label.set(label);
}
MTL::Function* MTL::ComputePipelineDescriptor::computeFunction() const {
    auto* self = implOf<Descriptor>(this);
    return self ? self->computeFunction : nullptr;
}
void MTL::ComputePipelineDescriptor::setComputeFunction(const Function* computeFunction) {
    if (auto* self = implOf<Descriptor>(this)) metalcpu::rt::assignRetained(self->computeFunction, computeFunction);
}

#define METALCPU_PROPERTY(getter, setter, Type, field)                          \
    Type MTL::ComputePipelineDescriptor::getter() const {                       \
        auto* self = implOf<Descriptor>(this);                                  \
        return self ? self->field : Type{};                                     \
    }                                                                           \
    void MTL::ComputePipelineDescriptor::setter(Type value) {                   \
        if (auto* self = implOf<Descriptor>(this)) self->field = value;         \
    }
METALCPU_PROPERTY(maxTotalThreadsPerThreadgroup, setMaxTotalThreadsPerThreadgroup, NS::UInteger,
                  maxTotalThreadsPerThreadgroup)
METALCPU_PROPERTY(requiredThreadsPerThreadgroup, setRequiredThreadsPerThreadgroup, MTL::Size,
                  requiredThreadsPerThreadgroup)
METALCPU_PROPERTY(threadGroupSizeIsMultipleOfThreadExecutionWidth,
                  setThreadGroupSizeIsMultipleOfThreadExecutionWidth, bool,
                  threadGroupSizeIsMultipleOfThreadExecutionWidth)
METALCPU_PROPERTY(shaderValidation, setShaderValidation, MTL::ShaderValidation, shaderValidation)
METALCPU_PROPERTY(supportIndirectCommandBuffers, setSupportIndirectCommandBuffers, bool, supportIndirectCommandBuffers)
METALCPU_PROPERTY(supportAddingBinaryFunctions, setSupportAddingBinaryFunctions, bool, supportAddingBinaryFunctions)
METALCPU_PROPERTY(maxCallStackDepth, setMaxCallStackDepth, NS::UInteger, maxCallStackDepth)
#undef METALCPU_PROPERTY

void MTL::ComputePipelineDescriptor::reset() {
    if (auto* self = implOf<Descriptor>(this)) self->reset();
}
