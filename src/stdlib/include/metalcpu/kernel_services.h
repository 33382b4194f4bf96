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

/// The rendezvous of a SIMD-group function in a kernel split into work-item loops
/// (work_items.h, simd_collect): the function runs once per lane to record the values the
/// lanes hand in, then once more for the thread that wants its result, replaying them.
struct simd_replay {
    unsigned char* values; ///< lane i's value at values + i * METALCPU_SIMD_VALUE_BYTES
    mc_u64 active;
    mc_u32 lane, width;
    bool recording; ///< then the round shows no active lane: the result is thrown away
    /// A result the same for every lane of a group (a reduction), kept for the next lanes:
    /// the group's first lane, or ~0u, and the value.
    mc_u32* uniform_first;
    unsigned char* uniform;
};

/// A SIMD-group collective's rendezvous: hands in `size` bytes at `value`, waits for the other
/// live threads of the SIMD-group and describes the round (mc_services::simdgroup_exchange),
/// or, in a kernel split into work-item loops, records or replays the round (and returns the
/// replay, else null).
inline simd_replay* simdgroup_exchange(const void* value, unsigned size, mc_simd_round* round) {
    const mc_group* group = g_services->current_group();
    if (group && group->simd_replay) {
        simd_replay* replay = static_cast<simd_replay*>(group->simd_replay);
        if (replay->recording && size > 0)
            __builtin_memcpy(replay->values + replay->lane * METALCPU_SIMD_VALUE_BYTES, value,
                             size < METALCPU_SIMD_VALUE_BYTES ? size : METALCPU_SIMD_VALUE_BYTES);
        *round = mc_simd_round{replay->values, replay->recording ? 0u : replay->active, replay->lane, replay->width};
        return replay;
    }
    g_services->simdgroup_exchange(value, size, round);
    return nullptr;
}

} // namespace metalcpu_kernel
