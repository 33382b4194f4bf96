// metalcpu: Metal 4 command allocators, the memory that command buffers encode into.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>

namespace MTL {
class Device;
}

namespace MTL4 {

class CommandAllocatorDescriptor : public NS::Copying<CommandAllocatorDescriptor> {
public:
    static CommandAllocatorDescriptor* alloc();
    CommandAllocatorDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
};

// Backing memory for encoded commands; reset() recycles it once the GPU is done with it.
class CommandAllocator : public NS::Referencing<CommandAllocator> {
public:
    NS::String* label() const;
    MTL::Device* device() const;

    std::uint64_t allocatedSize();
    void reset();
};

} // namespace MTL4
