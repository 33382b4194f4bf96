// metalcpu: per-buffer pipeline options (mutability) and shader validation.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

enum Mutability : NS::UInteger {
    MutabilityDefault = 0,
    MutabilityMutable = 1,
    MutabilityImmutable = 2,
};

enum ShaderValidation : NS::Integer {
    ShaderValidationDefault = 0,
    ShaderValidationEnabled = 1,
    ShaderValidationDisabled = 2,
};

// Options for one buffer binding of a pipeline.
class PipelineBufferDescriptor : public NS::Copying<PipelineBufferDescriptor> {
public:
    static PipelineBufferDescriptor* alloc();
    PipelineBufferDescriptor* init();

    Mutability mutability() const;
    void setMutability(Mutability mutability);
};

// The buffer descriptors of a pipeline, indexed by [[buffer(n)]].
class PipelineBufferDescriptorArray : public NS::Referencing<PipelineBufferDescriptorArray> {
public:
    static PipelineBufferDescriptorArray* alloc();
    PipelineBufferDescriptorArray* init();

    PipelineBufferDescriptor* object(NS::UInteger bufferIndex);
    void setObject(const PipelineBufferDescriptor* buffer, NS::UInteger bufferIndex);
};

} // namespace MTL
