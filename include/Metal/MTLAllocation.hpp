// metalcpu: Allocation, the base of everything that occupies device memory.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

// Memory owned by a resource, heap or pipeline; what residency sets track.
class Allocation : public NS::Referencing<Allocation> {
public:
    NS::UInteger allocatedSize() const;
};

} // namespace MTL
