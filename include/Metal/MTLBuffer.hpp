// metalcpu: Buffer, linear memory that kernels read and write.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLGPUAddress.hpp"
#include "MTLResource.hpp"

namespace MTL {

class Device;
class Tensor;
class TensorDescriptor;
class Texture;
class TextureDescriptor;

// A buffer. For shared storage, contents() is the memory kernels use; gpuAddress() is the
// address kernels see and MTL4 argument tables bind.
class Buffer : public NS::Referencing<Buffer, Resource> {
public:
    NS::UInteger length() const;
    void* contents();
    void didModifyRange(NS::Range range);
    GPUAddress gpuAddress() const;

    Texture* newTexture(const TextureDescriptor* descriptor, NS::UInteger offset, NS::UInteger bytesPerRow);
    Tensor* newTensor(const TensorDescriptor* descriptor, NS::UInteger offset, NS::Error** error);

    void addDebugMarker(const NS::String* marker, NS::Range range);
    void removeAllDebugMarkers();

    Buffer* remoteStorageBuffer() const;
    Buffer* newRemoteBufferViewForDevice(const Device* device);
    BufferSparseTier sparseBufferTier() const;
};

} // namespace MTL
