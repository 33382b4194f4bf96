// The runtime services as kernel code sees them. Part of every kernel library; compiled
// freestanding. kernel_support.h builds argument binding on top of this.
#pragma once

#include <metalcpu/kernel_abi.h>

namespace metalcpu_kernel {

/// The services handed over by the runtime when it opened this library (library_stub.h).
/// An inline variable: one instance per kernel library however many files it holds.
inline const mc_services* g_services = nullptr;
/// Shader validation's region table (mc_services::regions), indexed by pointer tag.
inline const mc_region* g_regions = nullptr;

/// threadgroup_barrier(): wait until every thread of this threadgroup has arrived.
inline void threadgroup_barrier(unsigned mem_flags) { g_services->threadgroup_barrier(mem_flags); }

/// A SIMD-group collective's rendezvous: hands in `size` bytes at `value`, waits for the other
/// live threads of the SIMD-group and describes the round (mc_services::simdgroup_exchange).
inline void simdgroup_exchange(const void* value, unsigned size, mc_simd_round* round) {
    g_services->simdgroup_exchange(value, size, round);
}

} // namespace metalcpu_kernel
