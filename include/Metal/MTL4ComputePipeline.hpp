// metalcpu: MTL4::ComputePipelineDescriptor, built into an MTL::ComputePipelineState by MTL4::Compiler.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTL4PipelineState.hpp"
#include "MTLDefines.hpp"
#include "MTLTypes.hpp"

namespace MTL4 {

class FunctionDescriptor;
class StaticLinkingDescriptor;

class ComputePipelineDescriptor : public NS::Copying<ComputePipelineDescriptor, PipelineDescriptor> {
public:
    static ComputePipelineDescriptor* alloc();
    ComputePipelineDescriptor* init();

    FunctionDescriptor* computeFunctionDescriptor() const;
    void setComputeFunctionDescriptor(const FunctionDescriptor* computeFunctionDescriptor);

    NS::UInteger maxTotalThreadsPerThreadgroup() const;
    void setMaxTotalThreadsPerThreadgroup(NS::UInteger maxTotalThreadsPerThreadgroup);
    MTL::Size requiredThreadsPerThreadgroup() const;
    void setRequiredThreadsPerThreadgroup(MTL::Size requiredThreadsPerThreadgroup);
    bool threadGroupSizeIsMultipleOfThreadExecutionWidth() const;
    void setThreadGroupSizeIsMultipleOfThreadExecutionWidth(bool threadGroupSizeIsMultipleOfThreadExecutionWidth);

    StaticLinkingDescriptor* staticLinkingDescriptor() const;
    void setStaticLinkingDescriptor(const StaticLinkingDescriptor* staticLinkingDescriptor);
    bool supportBinaryLinking() const;
    void setSupportBinaryLinking(bool supportBinaryLinking);
    IndirectCommandBufferSupportState supportIndirectCommandBuffers() const;
    void setSupportIndirectCommandBuffers(IndirectCommandBufferSupportState supportIndirectCommandBuffers);

    void reset();
};

} // namespace MTL4
