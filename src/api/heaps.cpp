// MTL::HeapDescriptor (settings) and MTL::Heap, which metalcpu cannot make yet:
// Device::newHeap logs once and returns nullptr, so a Heap's methods only ever see nil.
#include "api/settings.h"

#include <Metal/MTLHeap.hpp>

namespace metalcpu::api {
namespace {

class HeapDescriptor final : public Settings<HeapDescriptor, MTL::HeapDescriptor> {
public:
    const char* className() const override { return "MTLHeapDescriptor"; }

    // Apple's defaults: an automatic heap of private memory with 16 KB sparse pages.
    struct State {
        MTL::HeapType type = MTL::HeapTypeAutomatic;
        NS::UInteger size = 0;
        ResourceModes modes{.storageMode = MTL::StorageModePrivate};
        MTL::SparsePageSize sparsePageSize = MTL::SparsePageSize16;
        MTL::SparsePageSize maxCompatiblePlacementSparsePageSize = MTL::SparsePageSize16;
    } state;
};

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::HeapDescriptor;

METALCPU_ALLOC_INIT(MTL::HeapDescriptor, Descriptor)
METALCPU_VALUE(MTL::HeapDescriptor, Descriptor, MTL::HeapType, type, setType, type)
METALCPU_VALUE(MTL::HeapDescriptor, Descriptor, NS::UInteger, size, setSize, size)
METALCPU_RESOURCE_MODES(MTL::HeapDescriptor, Descriptor)
METALCPU_VALUE(MTL::HeapDescriptor, Descriptor, MTL::SparsePageSize, sparsePageSize, setSparsePageSize, sparsePageSize)
METALCPU_VALUE(MTL::HeapDescriptor, Descriptor, MTL::SparsePageSize, maxCompatiblePlacementSparsePageSize,
               setMaxCompatiblePlacementSparsePageSize, maxCompatiblePlacementSparsePageSize)

// No Heap exists yet (see above).
NS::String* MTL::Heap::label() const { return nullptr; }
void MTL::Heap::setLabel(const NS::String*) {}
MTL::Device* MTL::Heap::device() const { return nullptr; }
MTL::HeapType MTL::Heap::type() const { return HeapTypeAutomatic; }
MTL::StorageMode MTL::Heap::storageMode() const { return StorageModeShared; }
MTL::CPUCacheMode MTL::Heap::cpuCacheMode() const { return CPUCacheModeDefaultCache; }
MTL::HazardTrackingMode MTL::Heap::hazardTrackingMode() const { return HazardTrackingModeDefault; }
MTL::ResourceOptions MTL::Heap::resourceOptions() const { return 0; }
NS::UInteger MTL::Heap::size() const { return 0; }
NS::UInteger MTL::Heap::usedSize() const { return 0; }
NS::UInteger MTL::Heap::currentAllocatedSize() const { return 0; }
NS::UInteger MTL::Heap::maxAvailableSize(NS::UInteger) { return 0; }
MTL::Buffer* MTL::Heap::newBuffer(NS::UInteger, ResourceOptions) { return nullptr; }
MTL::Buffer* MTL::Heap::newBuffer(NS::UInteger, ResourceOptions, NS::UInteger) { return nullptr; }
MTL::Texture* MTL::Heap::newTexture(const TextureDescriptor*) { return nullptr; }
MTL::Texture* MTL::Heap::newTexture(const TextureDescriptor*, NS::UInteger) { return nullptr; }
MTL::PurgeableState MTL::Heap::setPurgeableState(PurgeableState) { return PurgeableState(0); }
