#include "runtime/descriptors.h"

namespace metalcpu::rt {

CommandBufferDescriptor::~CommandBufferDescriptor() {
    if (logState) logState->release();
}

ns::ObjectBase* CommandBufferDescriptor::copy() const {
    auto* made = ns::implOf<CommandBufferDescriptor>(ns::make<CommandBufferDescriptor>());
    made->retainedReferences = retainedReferences;
    made->errorOptions = errorOptions;
    assignRetained(made->logState, logState);
    return made;
}

CommandQueueDescriptor::~CommandQueueDescriptor() {
    if (logState) logState->release();
}

ns::ObjectBase* CommandQueueDescriptor::copy() const {
    auto* made = ns::implOf<CommandQueueDescriptor>(ns::make<CommandQueueDescriptor>());
    made->maxCommandBufferCount = maxCommandBufferCount;
    assignRetained(made->logState, logState);
    return made;
}

ns::ObjectBase* ComputePassDescriptor::copy() const {
    auto* made = ns::implOf<ComputePassDescriptor>(ns::make<ComputePassDescriptor>());
    made->dispatchType = dispatchType;
    return made;
}

ComputePipelineDescriptor::~ComputePipelineDescriptor() {
    if (computeFunction) computeFunction->release();
}

ns::ObjectBase* ComputePipelineDescriptor::copy() const {
    auto* made = ns::implOf<ComputePipelineDescriptor>(ns::make<ComputePipelineDescriptor>());
    made->label.set(label.get());
    assignRetained(made->computeFunction, computeFunction);
    made->maxTotalThreadsPerThreadgroup = maxTotalThreadsPerThreadgroup;
    made->requiredThreadsPerThreadgroup = requiredThreadsPerThreadgroup;
    made->threadGroupSizeIsMultipleOfThreadExecutionWidth = threadGroupSizeIsMultipleOfThreadExecutionWidth;
    made->shaderValidation = shaderValidation;
    made->supportIndirectCommandBuffers = supportIndirectCommandBuffers;
    made->supportAddingBinaryFunctions = supportAddingBinaryFunctions;
    made->maxCallStackDepth = maxCallStackDepth;
    return made;
}

void ComputePipelineDescriptor::reset() {
    label.set(static_cast<const NS::String*>(nullptr));
    assignRetained(computeFunction, static_cast<const MTL::Function*>(nullptr));
    maxTotalThreadsPerThreadgroup = 0;
    requiredThreadsPerThreadgroup = MTL::Size(0, 0, 0);
    threadGroupSizeIsMultipleOfThreadExecutionWidth = false;
    shaderValidation = MTL::ShaderValidationDefault;
    supportIndirectCommandBuffers = false;
    supportAddingBinaryFunctions = false;
    maxCallStackDepth = 1;
}

} // namespace metalcpu::rt
