// metalcpu: Resource (the base of buffers, textures and tensors) and its storage options.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLAllocation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class Device;
class Heap;

enum PurgeableState : NS::UInteger {
    PurgeableStateKeepCurrent = 1,
    PurgeableStateNonVolatile = 2,
    PurgeableStateVolatile = 3,
    PurgeableStateEmpty = 4,
};

enum CPUCacheMode : NS::UInteger {
    CPUCacheModeDefaultCache = 0,
    CPUCacheModeWriteCombined = 1,
};

// Where a resource lives: Shared is host memory that kernels read and write directly.
enum StorageMode : NS::UInteger {
    StorageModeShared = 0,
    StorageModeManaged = 1,
    StorageModePrivate = 2,
    StorageModeMemoryless = 3,
};

enum HazardTrackingMode : NS::UInteger {
    HazardTrackingModeDefault = 0,
    HazardTrackingModeUntracked = 1,
    HazardTrackingModeTracked = 2,
};

enum SparsePageSize : NS::Integer {
    SparsePageSize16 = 101,
    SparsePageSize64 = 102,
    SparsePageSize256 = 103,
};

enum BufferSparseTier : NS::Integer {
    BufferSparseTierNone = 0,
    BufferSparseTier1 = 1,
};

enum TextureSparseTier : NS::Integer {
    TextureSparseTierNone = 0,
    TextureSparseTier1 = 1,
    TextureSparseTier2 = 2,
};

// Bit fields combining a CPU cache mode (bits 0-3), a storage mode (bits 4-7) and a hazard
// tracking mode (bits 8-9); the constants OR together.
using ResourceOptions = NS::UInteger;
enum : ResourceOptions {
    ResourceCPUCacheModeDefaultCache = 0x0,
    ResourceCPUCacheModeWriteCombined = 0x1,
    ResourceStorageModeShared = 0x0,
    ResourceStorageModeManaged = 0x10,
    ResourceStorageModePrivate = 0x20,
    ResourceStorageModeMemoryless = 0x30,
    ResourceHazardTrackingModeDefault = 0x0,
    ResourceHazardTrackingModeUntracked = 0x100,
    ResourceHazardTrackingModeTracked = 0x200,
    ResourceOptionCPUCacheModeDefault [[deprecated("use MTL::ResourceCPUCacheModeDefaultCache instead")]] =
        ResourceCPUCacheModeDefaultCache,
    ResourceOptionCPUCacheModeWriteCombined [[deprecated("use MTL::ResourceCPUCacheModeWriteCombined instead")]] =
        ResourceCPUCacheModeWriteCombined,
};

// Memory that kernels can access: buffers, textures and tensors derive from it.
class Resource : public NS::Referencing<Resource, Allocation> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);

    Device* device() const;
    CPUCacheMode cpuCacheMode() const;
    StorageMode storageMode() const;
    HazardTrackingMode hazardTrackingMode() const;
    ResourceOptions resourceOptions() const;
    NS::UInteger allocatedSize() const;

    Heap* heap() const;
    NS::UInteger heapOffset() const;
    bool isAliasable();
    void makeAliasable();

    PurgeableState setPurgeableState(PurgeableState state);
};

} // namespace MTL
