// MTL::ResidencySetDescriptor (settings) and MTL::ResidencySet (rt::ResidencySet). Every
// allocation is always resident on a CPU: sets only record membership (staged, then
// committed), which API validation of the Metal 4 command model reads; requestResidency and
// endResidency do nothing.
#include "api/settings.h"
#include "foundation/factories.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/residency_set.h"
#include "runtime/resource_core.h"

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
using metalcpu::ns::implOf;

METALCPU_ALLOC_INIT(MTL::ResidencySetDescriptor, Descriptor)
METALCPU_OBJECT(MTL::ResidencySetDescriptor, Descriptor, NS::String, label, setLabel, label)
METALCPU_VALUE(MTL::ResidencySetDescriptor, Descriptor, NS::UInteger, initialCapacity, setInitialCapacity,
               initialCapacity)

using Set = metalcpu::rt::ResidencySet;
using Res = metalcpu::rt::ResourceCore;

MTL::ResidencySet* MTL::Device::newResidencySet(const ResidencySetDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* device = implOf<metalcpu::rt::Device>(this);
    if (!device) return nullptr;
    auto* made = static_cast<Set*>(metalcpu::ns::make<Set>(device));
    if (auto* settings = implOf<Descriptor>(descriptor)) made->label().set(settings->state.label.get());
    return made;
}

NS::String* MTL::ResidencySet::label() const {
    auto* self = implOf<Set>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL::ResidencySet::device() const {
    auto* self = implOf<Set>(this);
    return self ? self->device() : nullptr;
}
void MTL::ResidencySet::addAllocation(const Allocation* allocation) {
    if (auto* self = implOf<Set>(this)) self->add(implOf<Res>(allocation));
}
void MTL::ResidencySet::addAllocations(const Allocation* const allocations[], NS::UInteger count) {
    auto* self = implOf<Set>(this);
    if (!self || !allocations) return;
    for (NS::UInteger i = 0; i < count; ++i) self->add(implOf<Res>(allocations[i]));
}
void MTL::ResidencySet::removeAllocation(const Allocation* allocation) {
    if (auto* self = implOf<Set>(this)) self->remove(implOf<Res>(allocation));
}
void MTL::ResidencySet::removeAllocations(const Allocation* const allocations[], NS::UInteger count) {
    auto* self = implOf<Set>(this);
    if (!self || !allocations) return;
    for (NS::UInteger i = 0; i < count; ++i) self->remove(implOf<Res>(allocations[i]));
}
void MTL::ResidencySet::removeAllAllocations() {
    if (auto* self = implOf<Set>(this)) self->removeAll();
}
bool MTL::ResidencySet::containsAllocation(const Allocation* anAllocation) {
    auto* self = implOf<Set>(this);
    auto* allocation = implOf<Res>(anAllocation);
    return self && allocation && self->contains(allocation);
}
void MTL::ResidencySet::commit() {
    if (auto* self = implOf<Set>(this)) self->commit();
}
NS::Array* MTL::ResidencySet::allAllocations() const {
    auto* self = implOf<Set>(this);
    if (!self) return nullptr;
    std::vector<NS::Object*> objects;
    for (Res* allocation : self->committed()) objects.push_back(allocation->asPublic());
    return metalcpu::ns::autoreleased(metalcpu::ns::makeArray(objects));
}
NS::UInteger MTL::ResidencySet::allocationCount() const {
    auto* self = implOf<Set>(this);
    return self ? self->committed().size() : 0;
}
std::uint64_t MTL::ResidencySet::allocatedSize() const { return metalcpu::ns::call<Set>(this, &Set::allocatedSize); }
// CPU memory is always resident.
void MTL::ResidencySet::requestResidency() {}
void MTL::ResidencySet::endResidency() {}
