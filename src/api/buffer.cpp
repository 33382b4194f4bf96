// MTL::Allocation, MTL::Resource (buffers and textures, through their common core) and MTL::Buffer.
#include "runtime/buffer.h"
#include "runtime/device.h"
#include "runtime/resource_core.h"

#include <Metal/MTLBuffer.hpp>
#include <Metal/MTLResource.hpp>

using metalcpu::ns::implOf;
using Buf = metalcpu::rt::Buffer;
using Res = metalcpu::rt::ResourceCore;

namespace {

/// The memory a resource occupies (whole 16 KiB pages); zero for nil.
NS::UInteger allocatedSizeOf(const Res* resource) { return resource ? resource->allocatedSize() : 0; }

} // namespace

NS::UInteger MTL::Allocation::allocatedSize() const { return allocatedSizeOf(implOf<Res>(this)); }

NS::String* MTL::Resource::label() const {
    auto* self = implOf<Res>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::Resource::setLabel(const NS::String* label) {
    if (auto* self = implOf<Res>(this)) self->label().set(label);
}
MTL::Device* MTL::Resource::device() const {
    auto* self = implOf<Res>(this);
    return self ? self->device() : nullptr;
}
MTL::CPUCacheMode MTL::Resource::cpuCacheMode() const {
    auto* self = implOf<Res>(this);
    return self ? static_cast<CPUCacheMode>(self->options() & 0xf) : CPUCacheModeDefaultCache;
}
MTL::StorageMode MTL::Resource::storageMode() const {
    auto* self = implOf<Res>(this);
    return self ? self->storageMode() : StorageModeShared;
}
MTL::HazardTrackingMode MTL::Resource::hazardTrackingMode() const {
    auto* self = implOf<Res>(this);
    if (!self) return HazardTrackingModeDefault;
    NS::UInteger mode = (self->options() >> 8) & 0x3;
    return mode == 1 ? HazardTrackingModeUntracked : HazardTrackingModeTracked;
}
MTL::ResourceOptions MTL::Resource::resourceOptions() const {
    auto* self = implOf<Res>(this);
    return self ? self->options() : 0;
}
NS::UInteger MTL::Resource::allocatedSize() const { return allocatedSizeOf(implOf<Res>(this)); }
MTL::Heap* MTL::Resource::heap() const { return nullptr; }
NS::UInteger MTL::Resource::heapOffset() const { return 0; }
bool MTL::Resource::isAliasable() { return false; }
void MTL::Resource::makeAliasable() {}
MTL::PurgeableState MTL::Resource::setPurgeableState(PurgeableState) {
    return implOf<Res>(this) ? PurgeableStateNonVolatile : PurgeableState(0);
}

NS::UInteger MTL::Buffer::length() const {
    auto* self = implOf<Buf>(this);
    return self ? self->length() : 0;
}
void* MTL::Buffer::contents() {
    auto* self = implOf<Buf>(this);
    return self ? self->contents() : nullptr;
}
// Host and kernels share memory, so there is nothing to flush.
void MTL::Buffer::didModifyRange(NS::Range) {}
MTL::GPUAddress MTL::Buffer::gpuAddress() const {
    auto* self = implOf<Buf>(this);
    return self ? reinterpret_cast<GPUAddress>(self->memory()) : 0;
}
// Buffer::newTensor is in tensors.cpp, with the tensor descriptor it reads.
void MTL::Buffer::addDebugMarker(const NS::String*, NS::Range) {}
void MTL::Buffer::removeAllDebugMarkers() {}
MTL::Buffer* MTL::Buffer::remoteStorageBuffer() const { return nullptr; }
MTL::Buffer* MTL::Buffer::newRemoteBufferViewForDevice(const Device*) { return nullptr; }
MTL::BufferSparseTier MTL::Buffer::sparseBufferTier() const { return BufferSparseTierNone; }
