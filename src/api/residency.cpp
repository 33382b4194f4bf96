// MTL::ResidencySetDescriptor (settings) and MTL::ResidencySet, which metalcpu cannot make yet:
// Device::newResidencySet logs once and returns nullptr. Every allocation is always resident
// on a CPU, so the places that take residency sets (queues, command buffers) accept and ignore
// them.
#include "api/settings.h"

#include <Foundation/NSString.hpp>
#include <Metal/MTLResidencySet.hpp>

namespace metalcpu::api {
namespace {

class ResidencySetDescriptor final : public Settings<ResidencySetDescriptor, MTL::ResidencySetDescriptor> {
public:
    const char* className() const override { return "MTLResidencySetDescriptor"; }

    struct State {
        Property<NS::String> label;
        NS::UInteger initialCapacity = 0;
    } state;
};

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::ResidencySetDescriptor;

METALCPU_ALLOC_INIT(MTL::ResidencySetDescriptor, Descriptor)
METALCPU_OBJECT(MTL::ResidencySetDescriptor, Descriptor, NS::String, label, setLabel, label)
METALCPU_VALUE(MTL::ResidencySetDescriptor, Descriptor, NS::UInteger, initialCapacity, setInitialCapacity,
               initialCapacity)

// No ResidencySet exists yet (see above).
NS::String* MTL::ResidencySet::label() const { return nullptr; }
MTL::Device* MTL::ResidencySet::device() const { return nullptr; }
void MTL::ResidencySet::addAllocation(const Allocation*) {}
void MTL::ResidencySet::addAllocations(const Allocation* const[], NS::UInteger) {}
void MTL::ResidencySet::removeAllocation(const Allocation*) {}
void MTL::ResidencySet::removeAllocations(const Allocation* const[], NS::UInteger) {}
void MTL::ResidencySet::removeAllAllocations() {}
bool MTL::ResidencySet::containsAllocation(const Allocation*) { return false; }
void MTL::ResidencySet::commit() {}
NS::Array* MTL::ResidencySet::allAllocations() const { return nullptr; }
NS::UInteger MTL::ResidencySet::allocationCount() const { return 0; }
std::uint64_t MTL::ResidencySet::allocatedSize() const { return 0; }
void MTL::ResidencySet::requestResidency() {}
void MTL::ResidencySet::endResidency() {}
