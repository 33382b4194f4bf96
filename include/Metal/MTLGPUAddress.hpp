// metalcpu: GPU addresses and timestamps.
#pragma once

#include <cstdint>

namespace MTL {

// A buffer's address as kernels see it (Buffer::gpuAddress, MTL4 argument tables).
using GPUAddress = std::uint64_t;
// A CPU or GPU timestamp from Device::sampleTimestamps.
using Timestamp = std::uint64_t;

} // namespace MTL
