// metalcpu: MTL4::ComputeCommandEncoder: dispatches, copies and fills in Metal 4.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTL4CommandEncoder.hpp"
#include "MTL4Counters.hpp"
#include "MTLBlitCommandEncoder.hpp"
#include "MTLCommandEncoder.hpp"
#include "MTLDefines.hpp"
#include "MTLGPUAddress.hpp"
#include "MTLTensor.hpp"
#include "MTLTypes.hpp"

#include <cstdint>

namespace MTL {
class Buffer;
class ComputePipelineState;
class IndirectCommandBuffer;
class Texture;
} // namespace MTL

namespace MTL4 {

class ArgumentTable;
class CounterHeap;

// Compute work in Metal 4. Resources are bound through an ArgumentTable, not set one by one;
// indirect dispatches read their arguments from a GPU address.
class ComputeCommandEncoder : public NS::Referencing<ComputeCommandEncoder, CommandEncoder> {
public:
    MTL::Stages stages();

    void setComputePipelineState(const MTL::ComputePipelineState* state);
    void setArgumentTable(const ArgumentTable* argumentTable);
    void setThreadgroupMemoryLength(NS::UInteger length, NS::UInteger index);
    void setImageblockWidth(NS::UInteger width, NS::UInteger height);

    void dispatchThreads(MTL::Size threadsPerGrid, MTL::Size threadsPerThreadgroup);
    void dispatchThreads(MTL::GPUAddress indirectBuffer);
    void dispatchThreadgroups(MTL::Size threadgroupsPerGrid, MTL::Size threadsPerThreadgroup);
    void dispatchThreadgroups(MTL::GPUAddress indirectBuffer, MTL::Size threadsPerThreadgroup);
    void executeCommandsInBuffer(const MTL::IndirectCommandBuffer* indirectCommandBuffer, NS::Range executionRange);
    void executeCommandsInBuffer(const MTL::IndirectCommandBuffer* indirectCommandbuffer,
                                 MTL::GPUAddress indirectRangeBuffer);

    void copyFromBuffer(const MTL::Buffer* sourceBuffer, NS::UInteger sourceOffset,
                        const MTL::Buffer* destinationBuffer, NS::UInteger destinationOffset, NS::UInteger size);
    void copyFromBuffer(const MTL::Buffer* sourceBuffer, NS::UInteger sourceOffset, NS::UInteger sourceBytesPerRow,
                        NS::UInteger sourceBytesPerImage, MTL::Size sourceSize, const MTL::Texture* destinationTexture,
                        NS::UInteger destinationSlice, NS::UInteger destinationLevel, MTL::Origin destinationOrigin);
    void copyFromBuffer(const MTL::Buffer* sourceBuffer, NS::UInteger sourceOffset, NS::UInteger sourceBytesPerRow,
                        NS::UInteger sourceBytesPerImage, MTL::Size sourceSize, const MTL::Texture* destinationTexture,
                        NS::UInteger destinationSlice, NS::UInteger destinationLevel, MTL::Origin destinationOrigin,
                        MTL::BlitOption options);
    void copyFromTexture(const MTL::Texture* sourceTexture, const MTL::Texture* destinationTexture);
    void copyFromTexture(const MTL::Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         const MTL::Texture* destinationTexture, NS::UInteger destinationSlice,
                         NS::UInteger destinationLevel, NS::UInteger sliceCount, NS::UInteger levelCount);
    void copyFromTexture(const MTL::Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         MTL::Origin sourceOrigin, MTL::Size sourceSize, const MTL::Texture* destinationTexture,
                         NS::UInteger destinationSlice, NS::UInteger destinationLevel, MTL::Origin destinationOrigin);
    void copyFromTexture(const MTL::Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         MTL::Origin sourceOrigin, MTL::Size sourceSize, const MTL::Buffer* destinationBuffer,
                         NS::UInteger destinationOffset, NS::UInteger destinationBytesPerRow,
                         NS::UInteger destinationBytesPerImage);
    void copyFromTexture(const MTL::Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         MTL::Origin sourceOrigin, MTL::Size sourceSize, const MTL::Buffer* destinationBuffer,
                         NS::UInteger destinationOffset, NS::UInteger destinationBytesPerRow,
                         NS::UInteger destinationBytesPerImage, MTL::BlitOption options);
    void copyFromTensor(const MTL::Tensor* sourceTensor, const MTL::TensorExtents* sourceOrigin,
                        const MTL::TensorExtents* sourceDimensions, const MTL::Tensor* destinationTensor,
                        const MTL::TensorExtents* destinationOrigin, const MTL::TensorExtents* destinationDimensions);
    void copyFromTensor(const MTL::Tensor* sourceTensor, const MTL::TensorExtents* sourceOrigin,
                        const MTL::TensorExtents* sourceDimensions, MTL::TensorPlaneType sourcePlane,
                        const MTL::Tensor* destinationTensor, const MTL::TensorExtents* destinationOrigin,
                        const MTL::TensorExtents* destinationDimensions, MTL::TensorPlaneType destinationPlane);
    void fillBuffer(const MTL::Buffer* buffer, NS::Range range, std::uint8_t value);
    void generateMipmaps(const MTL::Texture* texture);
    void optimizeContentsForCPUAccess(const MTL::Texture* texture);
    void optimizeContentsForCPUAccess(const MTL::Texture* texture, NS::UInteger slice, NS::UInteger level);
    void optimizeContentsForGPUAccess(const MTL::Texture* texture);
    void optimizeContentsForGPUAccess(const MTL::Texture* texture, NS::UInteger slice, NS::UInteger level);

    void copyIndirectCommandBuffer(const MTL::IndirectCommandBuffer* source, NS::Range sourceRange,
                                   const MTL::IndirectCommandBuffer* destination, NS::UInteger destinationIndex);
    void optimizeIndirectCommandBuffer(const MTL::IndirectCommandBuffer* indirectCommandBuffer, NS::Range range);
    void resetCommandsInBuffer(const MTL::IndirectCommandBuffer* buffer, NS::Range range);

    void writeTimestamp(TimestampGranularity granularity, const CounterHeap* counterHeap, NS::UInteger index);
};

} // namespace MTL4
