// metalcpu: ArgumentEncoder, which writes resources into argument buffers.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class AccelerationStructure;
class Buffer;
class ComputePipelineState;
class Device;
class IndirectCommandBuffer;
class IntersectionFunctionTable;
class SamplerState;
class Texture;
class VisibleFunctionTable;

// The stride value that means "use the stride declared in the pipeline".
constexpr NS::UInteger AttributeStrideStatic = NS::UIntegerMax;

// Encodes buffers, textures, samplers and pipelines into an argument buffer, in the layout a
// kernel's argument-buffer parameter expects.
class ArgumentEncoder : public NS::Referencing<ArgumentEncoder> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    Device* device() const;

    NS::UInteger encodedLength() const;
    NS::UInteger alignment() const;

    void setArgumentBuffer(const Buffer* argumentBuffer, NS::UInteger offset);
    void setArgumentBuffer(const Buffer* argumentBuffer, NS::UInteger startOffset, NS::UInteger arrayElement);

    void setBuffer(const Buffer* buffer, NS::UInteger offset, NS::UInteger index);
    void setBuffers(const Buffer* const buffers[], const NS::UInteger offsets[], NS::Range range);
    void setTexture(const Texture* texture, NS::UInteger index);
    void setTextures(const Texture* const textures[], NS::Range range);
    void setSamplerState(const SamplerState* sampler, NS::UInteger index);
    void setSamplerStates(const SamplerState* const samplers[], NS::Range range);
    void setComputePipelineState(const ComputePipelineState* pipeline, NS::UInteger index);
    void setComputePipelineStates(const ComputePipelineState* const pipelines[], NS::Range range);
    void setIndirectCommandBuffer(const IndirectCommandBuffer* indirectCommandBuffer, NS::UInteger index);
    void setIndirectCommandBuffers(const IndirectCommandBuffer* const buffers[], NS::Range range);
    void setAccelerationStructure(const AccelerationStructure* accelerationStructure, NS::UInteger index);
    void setVisibleFunctionTable(const VisibleFunctionTable* visibleFunctionTable, NS::UInteger index);
    void setVisibleFunctionTables(const VisibleFunctionTable* const visibleFunctionTables[], NS::Range range);
    void setIntersectionFunctionTable(const IntersectionFunctionTable* intersectionFunctionTable,
                                      NS::UInteger index);
    void setIntersectionFunctionTables(const IntersectionFunctionTable* const intersectionFunctionTables[],
                                       NS::Range range);

    void* constantData(NS::UInteger index);
    ArgumentEncoder* newArgumentEncoder(NS::UInteger index);
};

} // namespace MTL
