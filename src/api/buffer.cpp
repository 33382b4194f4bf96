// MTL::Allocation, MTL::Resource and MTL::Buffer. Buffers are the only resources so far.
#include "api/unsupported.h"
#include "runtime/buffer.h"
#include "runtime/device.h"

#include <Metal/MTLBuffer.hpp>
#include <Metal/MTLResource.hpp>

using metalcpu::ns::implOf;
using Buf = metalcpu::rt::Buffer;

namespace {

/// The memory a buffer occupies (whole 16 KiB pages); zero for nil.
NS::UInteger allocatedSizeOf(const Buf* buffer) { return buffer ? buffer->allocatedSize() : 0; }

} // namespace

NS::UInteger MTL::Allocation::allocatedSize() const { return allocatedSizeOf(implOf<Buf>(this)); }

NS::String* MTL::Resource::label() const {
    auto* self = implOf<Buf>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::Resource::setLabel(const NS::String* label) {
    if (auto* self = implOf<Buf>(this)) self->label().set(label);
}
MTL::Device* MTL::Resource::device() const {
    auto* self = implOf<Buf>(this);
    return self ? self->device() : nullptr;
}
MTL::CPUCacheMode MTL::Resource::cpuCacheMode() const {
    auto* self = implOf<Buf>(this);
    return self ? static_cast<CPUCacheMode>(self->options() & 0xf) : CPUCacheModeDefaultCache;
}
MTL::StorageMode MTL::Resource::storageMode() const {
    auto* self = implOf<Buf>(this);
    return self ? self->storageMode() : StorageModeShared;
}
MTL::HazardTrackingMode MTL::Resource::hazardTrackingMode() const {
    auto* self = implOf<Buf>(this);
    if (!self) return HazardTrackingModeDefault;
    NS::UInteger mode = (self->options() >> 8) & 0x3;
    return mode == 1 ? HazardTrackingModeUntracked : HazardTrackingModeTracked;
}
MTL::ResourceOptions MTL::Resource::resourceOptions() const {
    auto* self = implOf<Buf>(this);
    return self ? self->options() : 0;
}
NS::UInteger MTL::Resource::allocatedSize() const { return allocatedSizeOf(implOf<Buf>(this)); }
MTL::Heap* MTL::Resource::heap() const { return nullptr; }
NS::UInteger MTL::Resource::heapOffset() const { return 0; }
bool MTL::Resource::isAliasable() { return false; }
void MTL::Resource::makeAliasable() {}
MTL::PurgeableState MTL::Resource::setPurgeableState(PurgeableState) {
    return implOf<Buf>(this) ? PurgeableStateNonVolatile : PurgeableState(0);
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
MTL::Texture* MTL::Buffer::newTexture(const TextureDescriptor*, NS::UInteger, NS::UInteger) {
    metalcpu::api::unsupported("MTL::Buffer::newTexture");
    return nullptr;
}
MTL::Tensor* MTL::Buffer::newTensor(const TensorDescriptor*, NS::UInteger, NS::Error**) {
    metalcpu::api::unsupported("MTL::Buffer::newTensor");
    return nullptr;
}
void MTL::Buffer::addDebugMarker(const NS::String*, NS::Range) {}
void MTL::Buffer::removeAllDebugMarkers() {}
MTL::Buffer* MTL::Buffer::remoteStorageBuffer() const { return nullptr; }
MTL::Buffer* MTL::Buffer::newRemoteBufferViewForDevice(const Device*) { return nullptr; }
MTL::BufferSparseTier MTL::Buffer::sparseBufferTier() const { return BufferSparseTierNone; }
