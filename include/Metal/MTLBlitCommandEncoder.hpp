// metalcpu: BlitCommandEncoder, which copies and fills buffers, textures and tensors.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLCommandEncoder.hpp"
#include "MTLDefines.hpp"
#include "MTLTensor.hpp"
#include "MTLTypes.hpp"

#include <cstdint>

namespace MTL {

class Buffer;
class CounterSampleBuffer;
class Fence;
class IndirectCommandBuffer;
class Resource;
class Texture;

using BlitOption = NS::UInteger;
enum : BlitOption {
    BlitOptionNone = 0,
    BlitOptionDepthFromDepthStencil = 1,
    BlitOptionStencilFromDepthStencil = 1 << 1,
    BlitOptionRowLinearPVRTC = 1 << 2,
};

// Encodes copies, fills and other data-movement commands.
class BlitCommandEncoder : public NS::Referencing<BlitCommandEncoder, CommandEncoder> {
public:
    void copyFromBuffer(const Buffer* sourceBuffer, NS::UInteger sourceOffset, const Buffer* destinationBuffer,
                        NS::UInteger destinationOffset, NS::UInteger size);
    void copyFromBuffer(const Buffer* sourceBuffer, NS::UInteger sourceOffset, NS::UInteger sourceBytesPerRow,
                        NS::UInteger sourceBytesPerImage, Size sourceSize, const Texture* destinationTexture,
                        NS::UInteger destinationSlice, NS::UInteger destinationLevel, Origin destinationOrigin);
    void copyFromBuffer(const Buffer* sourceBuffer, NS::UInteger sourceOffset, NS::UInteger sourceBytesPerRow,
                        NS::UInteger sourceBytesPerImage, Size sourceSize, const Texture* destinationTexture,
                        NS::UInteger destinationSlice, NS::UInteger destinationLevel, Origin destinationOrigin,
                        BlitOption options);

    void copyFromTexture(const Texture* sourceTexture, const Texture* destinationTexture);
    void copyFromTexture(const Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         const Texture* destinationTexture, NS::UInteger destinationSlice,
                         NS::UInteger destinationLevel, NS::UInteger sliceCount, NS::UInteger levelCount);
    void copyFromTexture(const Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         Origin sourceOrigin, Size sourceSize, const Texture* destinationTexture,
                         NS::UInteger destinationSlice, NS::UInteger destinationLevel, Origin destinationOrigin);
    void copyFromTexture(const Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         Origin sourceOrigin, Size sourceSize, const Buffer* destinationBuffer,
                         NS::UInteger destinationOffset, NS::UInteger destinationBytesPerRow,
                         NS::UInteger destinationBytesPerImage);
    void copyFromTexture(const Texture* sourceTexture, NS::UInteger sourceSlice, NS::UInteger sourceLevel,
                         Origin sourceOrigin, Size sourceSize, const Buffer* destinationBuffer,
                         NS::UInteger destinationOffset, NS::UInteger destinationBytesPerRow,
                         NS::UInteger destinationBytesPerImage, BlitOption options);

    void copyFromTensor(const Tensor* sourceTensor, const TensorExtents* sourceOrigin,
                        const TensorExtents* sourceDimensions, const Tensor* destinationTensor,
                        const TensorExtents* destinationOrigin, const TensorExtents* destinationDimensions);
    void copyFromTensor(const Tensor* sourceTensor, const TensorExtents* sourceOrigin,
                        const TensorExtents* sourceDimensions, TensorPlaneType sourcePlane,
                        const Tensor* destinationTensor, const TensorExtents* destinationOrigin,
                        const TensorExtents* destinationDimensions, TensorPlaneType destinationPlane);

    void fillBuffer(const Buffer* buffer, NS::Range range, std::uint8_t value);
    void generateMipmaps(const Texture* texture);

    void synchronizeResource(const Resource* resource);
    void synchronizeTexture(const Texture* texture, NS::UInteger slice, NS::UInteger level);
    void optimizeContentsForCPUAccess(const Texture* texture);
    void optimizeContentsForCPUAccess(const Texture* texture, NS::UInteger slice, NS::UInteger level);
    void optimizeContentsForGPUAccess(const Texture* texture);
    void optimizeContentsForGPUAccess(const Texture* texture, NS::UInteger slice, NS::UInteger level);
    void getTextureAccessCounters(const Texture* texture, Region region, NS::UInteger mipLevel, NS::UInteger slice,
                                  bool resetCounters, const Buffer* countersBuffer,
                                  NS::UInteger countersBufferOffset);
    void resetTextureAccessCounters(const Texture* texture, Region region, NS::UInteger mipLevel,
                                    NS::UInteger slice);

    void copyIndirectCommandBuffer(const IndirectCommandBuffer* source, NS::Range sourceRange,
                                   const IndirectCommandBuffer* destination, NS::UInteger destinationIndex);
    void optimizeIndirectCommandBuffer(const IndirectCommandBuffer* indirectCommandBuffer, NS::Range range);
    void resetCommandsInBuffer(const IndirectCommandBuffer* buffer, NS::Range range);

    void updateFence(const Fence* fence);
    void waitForFence(const Fence* fence);

    void sampleCountersInBuffer(const CounterSampleBuffer* sampleBuffer, NS::UInteger sampleIndex, bool barrier);
    void resolveCounters(const CounterSampleBuffer* sampleBuffer, NS::Range range, const Buffer* destinationBuffer,
                         NS::UInteger destinationOffset);
};

} // namespace MTL
