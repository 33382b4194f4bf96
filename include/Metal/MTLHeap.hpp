// metalcpu: Heap and HeapDescriptor, memory pools that buffers and textures are placed in.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLAllocation.hpp"
#include "MTLDefines.hpp"
#include "MTLResource.hpp"

namespace MTL {

class Buffer;
class Device;
class Texture;
class TextureDescriptor;

enum HeapType : NS::Integer {
    HeapTypeAutomatic = 0,
    HeapTypePlacement = 1,
    HeapTypeSparse = 2,
};

// The size, kind and storage of a heap to create.
class HeapDescriptor : public NS::Copying<HeapDescriptor> {
public:
    static HeapDescriptor* alloc();
    HeapDescriptor* init();

    HeapType type() const;
    void setType(HeapType type);
    NS::UInteger size() const;
    void setSize(NS::UInteger size);
    StorageMode storageMode() const;
    void setStorageMode(StorageMode storageMode);
    CPUCacheMode cpuCacheMode() const;
    void setCpuCacheMode(CPUCacheMode cpuCacheMode);
    HazardTrackingMode hazardTrackingMode() const;
    void setHazardTrackingMode(HazardTrackingMode hazardTrackingMode);
    ResourceOptions resourceOptions() const;
    void setResourceOptions(ResourceOptions resourceOptions);
    SparsePageSize sparsePageSize() const;
    void setSparsePageSize(SparsePageSize sparsePageSize);
    SparsePageSize maxCompatiblePlacementSparsePageSize() const;
    void setMaxCompatiblePlacementSparsePageSize(SparsePageSize maxCompatiblePlacementSparsePageSize);
};

// A pool of device memory from which resources are sub-allocated.
class Heap : public NS::Referencing<Heap, Allocation> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);

    Device* device() const;
    HeapType type() const;
    StorageMode storageMode() const;
    CPUCacheMode cpuCacheMode() const;
    HazardTrackingMode hazardTrackingMode() const;
    ResourceOptions resourceOptions() const;
    NS::UInteger size() const;
    NS::UInteger usedSize() const;
    NS::UInteger currentAllocatedSize() const;
    NS::UInteger maxAvailableSize(NS::UInteger alignment);

    Buffer* newBuffer(NS::UInteger length, ResourceOptions options);
    Buffer* newBuffer(NS::UInteger length, ResourceOptions options, NS::UInteger offset);
    Texture* newTexture(const TextureDescriptor* descriptor);
    Texture* newTexture(const TextureDescriptor* descriptor, NS::UInteger offset);

    PurgeableState setPurgeableState(PurgeableState state);
};

} // namespace MTL
