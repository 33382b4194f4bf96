// metalcpu: compute pipelines: ComputePipelineDescriptor, ComputePipelineState and reflection.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLAllocation.hpp"
#include "MTLDefines.hpp"
#include "MTLPipeline.hpp"
#include "MTLTypes.hpp"

namespace MTL {

class Device;
class Function;
class FunctionHandle;
class IntersectionFunctionTable;
class IntersectionFunctionTableDescriptor;
class LinkedFunctions;
class StageInputOutputDescriptor;
class VisibleFunctionTable;
class VisibleFunctionTableDescriptor;

} // namespace MTL

namespace MTL4 {
class BinaryFunction;
}

namespace MTL {

// The reflection data a pipeline was asked for with PipelineOptionBindingInfo and friends.
class ComputePipelineReflection : public NS::Referencing<ComputePipelineReflection> {
public:
    static ComputePipelineReflection* alloc();
    ComputePipelineReflection* init();

    NS::Array* bindings() const;
    NS::Array* arguments() const;
};

// Everything needed to build a compute pipeline beyond the kernel function itself.
class ComputePipelineDescriptor : public NS::Copying<ComputePipelineDescriptor> {
public:
    static ComputePipelineDescriptor* alloc();
    ComputePipelineDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
    Function* computeFunction() const;
    void setComputeFunction(const Function* computeFunction);

    NS::UInteger maxTotalThreadsPerThreadgroup() const;
    void setMaxTotalThreadsPerThreadgroup(NS::UInteger maxTotalThreadsPerThreadgroup);
    Size requiredThreadsPerThreadgroup() const;
    void setRequiredThreadsPerThreadgroup(Size requiredThreadsPerThreadgroup);
    bool threadGroupSizeIsMultipleOfThreadExecutionWidth() const;
    void setThreadGroupSizeIsMultipleOfThreadExecutionWidth(bool threadGroupSizeIsMultipleOfThreadExecutionWidth);

    PipelineBufferDescriptorArray* buffers() const;
    StageInputOutputDescriptor* stageInputDescriptor() const;
    void setStageInputDescriptor(const StageInputOutputDescriptor* stageInputDescriptor);
    ShaderValidation shaderValidation() const;
    void setShaderValidation(ShaderValidation shaderValidation);
    bool supportIndirectCommandBuffers() const;
    void setSupportIndirectCommandBuffers(bool supportIndirectCommandBuffers);

    NS::Array* binaryArchives() const;
    void setBinaryArchives(const NS::Array* binaryArchives);
    NS::Array* insertLibraries() const;
    void setInsertLibraries(const NS::Array* insertLibraries);
    NS::Array* preloadedLibraries() const;
    void setPreloadedLibraries(const NS::Array* preloadedLibraries);
    LinkedFunctions* linkedFunctions() const;
    void setLinkedFunctions(const LinkedFunctions* linkedFunctions);
    bool supportAddingBinaryFunctions() const;
    void setSupportAddingBinaryFunctions(bool supportAddingBinaryFunctions);
    NS::UInteger maxCallStackDepth() const;
    void setMaxCallStackDepth(NS::UInteger maxCallStackDepth);

    void reset();
};

// A compiled compute kernel, ready to dispatch. Programs size threadgroups from
// maxTotalThreadsPerThreadgroup() and threadExecutionWidth().
class ComputePipelineState : public NS::Referencing<ComputePipelineState, Allocation> {
public:
    NS::String* label() const;
    Device* device() const;

    NS::UInteger maxTotalThreadsPerThreadgroup() const;
    NS::UInteger threadExecutionWidth() const;
    NS::UInteger staticThreadgroupMemoryLength() const;
    Size requiredThreadsPerThreadgroup() const;
    NS::UInteger imageblockMemoryLength(Size imageblockDimensions);

    ResourceID gpuResourceID() const;
    ShaderValidation shaderValidation() const;
    bool supportIndirectCommandBuffers() const;
    ComputePipelineReflection* reflection() const;

    FunctionHandle* functionHandle(const NS::String* name);
    FunctionHandle* functionHandle(const MTL4::BinaryFunction* function);
    FunctionHandle* functionHandle(const Function* function);
    ComputePipelineState* newComputePipelineStateWithBinaryFunctions(const NS::Array* additionalBinaryFunctions,
                                                                     NS::Error** error);
    ComputePipelineState* newComputePipelineState(const NS::Array* functions, NS::Error** error);
    VisibleFunctionTable* newVisibleFunctionTable(const VisibleFunctionTableDescriptor* descriptor);
    IntersectionFunctionTable* newIntersectionFunctionTable(const IntersectionFunctionTableDescriptor* descriptor);
};

} // namespace MTL
