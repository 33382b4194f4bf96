#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLCommandBuffer.hpp>
#include <Metal/MTLCommandQueue.hpp>
#include <Metal/MTLComputePass.hpp>
#include <Metal/MTLComputePipeline.hpp>
#include <Metal/MTLLibrary.hpp>
#include <Metal/MTLLogState.hpp>

namespace metalcpu::rt {

/// Keeps a retained reference in a descriptor field, releasing the previous one.
template <class T>
void assignRetained(T*& slot, const T* value) {
    T* retained = value ? const_cast<T*>(value)->retain() : nullptr;
    if (slot) slot->release();
    slot = retained;
}

/// MTL::CommandBufferDescriptor: plain settings copied into a new command buffer.
class CommandBufferDescriptor final : public ns::Implements<MTL::CommandBufferDescriptor> {
public:
    const char* className() const override { return "MTLCommandBufferDescriptor"; }
    ~CommandBufferDescriptor() override;
    ns::ObjectBase* copy() const override;
    bool retainedReferences = true;
    MTL::CommandBufferErrorOption errorOptions = MTL::CommandBufferErrorOptionNone;
    MTL::LogState* logState = nullptr; ///< retained
};

/// MTL::CommandQueueDescriptor.
class CommandQueueDescriptor final : public ns::Implements<MTL::CommandQueueDescriptor> {
public:
    const char* className() const override { return "MTLCommandQueueDescriptor"; }
    ~CommandQueueDescriptor() override;
    ns::ObjectBase* copy() const override;
    NS::UInteger maxCommandBufferCount = 64;
    MTL::LogState* logState = nullptr; ///< retained
};

/// MTL::ComputePassDescriptor.
class ComputePassDescriptor final : public ns::Implements<MTL::ComputePassDescriptor> {
public:
    const char* className() const override { return "MTLComputePassDescriptor"; }
    ns::ObjectBase* copy() const override;
    MTL::DispatchType dispatchType = MTL::DispatchTypeSerial;
};

/// MTL::ComputePipelineDescriptor: the function plus the pipeline's settings.
class ComputePipelineDescriptor final : public ns::Implements<MTL::ComputePipelineDescriptor> {
public:
    ~ComputePipelineDescriptor() override;
    const char* className() const override { return "MTLComputePipelineDescriptor"; }
    ns::ObjectBase* copy() const override;
    void reset();

    Label label;
    MTL::Function* computeFunction = nullptr; ///< retained
    NS::UInteger maxTotalThreadsPerThreadgroup = 0;
    MTL::Size requiredThreadsPerThreadgroup = MTL::Size(0, 0, 0);
    bool threadGroupSizeIsMultipleOfThreadExecutionWidth = false;
    MTL::ShaderValidation shaderValidation = MTL::ShaderValidationDefault;
    bool supportIndirectCommandBuffers = false;
    bool supportAddingBinaryFunctions = false;
    NS::UInteger maxCallStackDepth = 1;
};

} // namespace metalcpu::rt
