// metalcpu: ResidencySet, the allocations a queue or command buffer keeps resident.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>

namespace MTL {

class Allocation;
class Device;

class ResidencySetDescriptor : public NS::Copying<ResidencySetDescriptor> {
public:
    static ResidencySetDescriptor* alloc();
    ResidencySetDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
    NS::UInteger initialCapacity() const;
    void setInitialCapacity(NS::UInteger initialCapacity);
};

// A set of allocations; changes take effect at commit(). Required by MTL4 queues.
class ResidencySet : public NS::Referencing<ResidencySet> {
public:
    NS::String* label() const;
    Device* device() const;

    void addAllocation(const Allocation* allocation);
    void addAllocations(const Allocation* const allocations[], NS::UInteger count);
    void removeAllocation(const Allocation* allocation);
    void removeAllocations(const Allocation* const allocations[], NS::UInteger count);
    void removeAllAllocations();
    bool containsAllocation(const Allocation* anAllocation);
    void commit();

    NS::Array* allAllocations() const;
    NS::UInteger allocationCount() const;
    std::uint64_t allocatedSize() const;

    void requestResidency();
    void endResidency();
};

} // namespace MTL
