// metalcpu: ComputeCommandEncoder, which binds resources and dispatches kernels.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLCommandBuffer.hpp"
#include "MTLCommandEncoder.hpp"
#include "MTLDefines.hpp"
#include "MTLTypes.hpp"

#include <cstdint>

namespace MTL {

class AccelerationStructure;
class Buffer;
class ComputePipelineState;
class CounterSampleBuffer;
class Fence;
class Heap;
class IndirectCommandBuffer;
class IntersectionFunctionTable;
class Resource;
class SamplerState;
class Texture;
class VisibleFunctionTable;

// The layouts an indirect dispatch reads from its buffer.
struct DispatchThreadgroupsIndirectArguments {
    std::uint32_t threadgroupsPerGrid[3];
} __attribute__((packed));

struct DispatchThreadsIndirectArguments {
    std::uint32_t threadsPerGrid[3];
    std::uint32_t threadsPerThreadgroup[3];
} __attribute__((packed));

struct StageInRegionIndirectArguments {
    std::uint32_t stageInOrigin[3];
    std::uint32_t stageInSize[3];
} __attribute__((packed));

// Encodes compute work: set a pipeline and its arguments, then dispatch.
class ComputeCommandEncoder : public NS::Referencing<ComputeCommandEncoder, CommandEncoder> {
public:
    DispatchType dispatchType() const;

    void setComputePipelineState(const ComputePipelineState* state);

    // Buffers and inline bytes, at [[buffer(index)]]. setBytes copies the bytes at encode time.
    void setBuffer(const Buffer* buffer, NS::UInteger offset, NS::UInteger index);
    void setBuffer(const Buffer* buffer, NS::UInteger offset, NS::UInteger stride, NS::UInteger index);
    void setBuffers(const Buffer* const buffers[], const NS::UInteger offsets[], NS::Range range);
    void setBuffers(const Buffer* const buffers[], const NS::UInteger* offsets, const NS::UInteger* strides,
                    NS::Range range);
    void setBufferOffset(NS::UInteger offset, NS::UInteger index);
    void setBufferOffset(NS::UInteger offset, NS::UInteger stride, NS::UInteger index);
    void setBytes(const void* bytes, NS::UInteger length, NS::UInteger index);
    void setBytes(const void* bytes, NS::UInteger length, NS::UInteger stride, NS::UInteger index);

    // Textures at [[texture(index)]] and samplers at [[sampler(index)]].
    void setTexture(const Texture* texture, NS::UInteger index);
    void setTextures(const Texture* const textures[], NS::Range range);
    void setSamplerState(const SamplerState* sampler, NS::UInteger index);
    void setSamplerState(const SamplerState* sampler, float lodMinClamp, float lodMaxClamp, NS::UInteger index);
    void setSamplerStates(const SamplerState* const samplers[], NS::Range range);
    void setSamplerStates(const SamplerState* const samplers[], const float lodMinClamps[],
                          const float lodMaxClamps[], NS::Range range);

    // Threadgroup memory for [[threadgroup(index)]] parameters; length is a multiple of 16.
    void setThreadgroupMemoryLength(NS::UInteger length, NS::UInteger index);
    void setImageblockWidth(NS::UInteger width, NS::UInteger height);
    void setStageInRegion(Region region);
    void setStageInRegion(const Buffer* indirectBuffer, NS::UInteger indirectBufferOffset);

    void setVisibleFunctionTable(const VisibleFunctionTable* visibleFunctionTable, NS::UInteger bufferIndex);
    void setVisibleFunctionTables(const VisibleFunctionTable* const visibleFunctionTables[], NS::Range range);
    void setIntersectionFunctionTable(const IntersectionFunctionTable* intersectionFunctionTable,
                                      NS::UInteger bufferIndex);
    void setIntersectionFunctionTables(const IntersectionFunctionTable* const intersectionFunctionTables[],
                                       NS::Range range);
    void setAccelerationStructure(const AccelerationStructure* accelerationStructure, NS::UInteger bufferIndex);

    // dispatchThreads allows a partial last threadgroup; dispatchThreadgroups launches whole ones.
    void dispatchThreads(Size threadsPerGrid, Size threadsPerThreadgroup);
    void dispatchThreadgroups(Size threadgroupsPerGrid, Size threadsPerThreadgroup);
    void dispatchThreadgroups(const Buffer* indirectBuffer, NS::UInteger indirectBufferOffset,
                              Size threadsPerThreadgroup);
    void executeCommandsInBuffer(const IndirectCommandBuffer* indirectCommandBuffer, NS::Range executionRange);
    void executeCommandsInBuffer(const IndirectCommandBuffer* indirectCommandbuffer,
                                 const Buffer* indirectRangeBuffer, NS::UInteger indirectBufferOffset);

    void memoryBarrier(BarrierScope scope);
    void memoryBarrier(const Resource* const resources[], NS::UInteger count);
    void updateFence(const Fence* fence);
    void waitForFence(const Fence* fence);

    // Resources reached only through argument buffers.
    void useResource(const Resource* resource, ResourceUsage usage);
    void useResources(const Resource* const resources[], NS::UInteger count, ResourceUsage usage);
    void useHeap(const Heap* heap);
    void useHeaps(const Heap* const heaps[], NS::UInteger count);

    void sampleCountersInBuffer(const CounterSampleBuffer* sampleBuffer, NS::UInteger sampleIndex, bool barrier);
};

} // namespace MTL
