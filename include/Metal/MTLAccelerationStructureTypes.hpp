// metalcpu: MTL4::BufferRange, a GPU address range used by Metal 4 commands. The packed
// geometry types of the ray-tracing API that share this header are not part of metalcpu.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>

namespace MTL4 {

// A range of a buffer by GPU address; the one-argument form means "to the end of the buffer".
struct BufferRange {
    BufferRange() = default;
    constexpr BufferRange(std::uint64_t bufferAddress_) : bufferAddress(bufferAddress_), length(UINT64_MAX) {}
    constexpr BufferRange(std::uint64_t bufferAddress_, std::uint64_t length_)
        : bufferAddress(bufferAddress_), length(length_) {}
    static constexpr BufferRange Make(std::uint64_t bufferAddress_, std::uint64_t length_) {
        return BufferRange(bufferAddress_, length_);
    }

    std::uint64_t bufferAddress;
    std::uint64_t length;
} __attribute__((packed));

} // namespace MTL4
