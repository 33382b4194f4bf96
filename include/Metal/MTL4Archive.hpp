// metalcpu: MTL4::Archive, a file of precompiled pipelines and functions.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {
class ComputePipelineState;
}

namespace MTL4 {

class BinaryFunction;
class BinaryFunctionDescriptor;
class ComputePipelineDescriptor;
class PipelineStageDynamicLinkingDescriptor;

class Archive : public NS::Referencing<Archive> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);

    BinaryFunction* newBinaryFunction(const BinaryFunctionDescriptor* descriptor, NS::Error** error);
    MTL::ComputePipelineState* newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                       NS::Error** error);
    MTL::ComputePipelineState* newComputePipelineState(
        const ComputePipelineDescriptor* descriptor,
        const PipelineStageDynamicLinkingDescriptor* dynamicLinkingDescriptor, NS::Error** error);
};

} // namespace MTL4
