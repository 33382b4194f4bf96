#pragma once

// Kernels written by hand against the kernel ABI, so that the executor can be tested
// without the compiler: each is what the front end would generate for a small MSL kernel.

#include "exec/dispatch.h"
#include "exec/services.h"

#include <cstdint>
#include <vector>

namespace metalcpu::exec::testing {

/// Canary words written around every output buffer; executor bugs that write outside the
/// threads' elements overwrite them.
constexpr std::uint32_t kCanary = 0xC0FFEE11u;
constexpr int kCanaryWords = 16;

/// A uint32 output buffer of `count` elements with canaries on both sides.
struct GuardedBuffer {
    explicit GuardedBuffer(std::size_t count) : words(count + 2 * kCanaryWords, kCanary) {
        for (std::size_t i = 0; i < count; ++i) words[kCanaryWords + i] = 0;
    }
    std::uint32_t* data() { return words.data() + kCanaryWords; }
    std::uint32_t& operator[](std::size_t i) { return data()[i]; }
    bool canariesIntact() const {
        for (int i = 0; i < kCanaryWords; ++i)
            if (words[i] != kCanary || words[words.size() - 1 - i] != kCanary) return false;
        return true;
    }
    std::vector<std::uint32_t> words;
};

/// A dispatch of `kernel` over `grid` threads in groups of `group`, like dispatchThreads.
inline Dispatch makeDispatch(const mc_kernel& kernel, const std::uint32_t (&grid)[3], const std::uint32_t (&group)[3]) {
    Dispatch dispatch;
    dispatch.kernel = &kernel;
    dispatch.kernelName = kernel.name;
    for (int d = 0; d < 3; ++d) {
        dispatch.threadgroups[d] = (grid[d] + group[d] - 1) / group[d];
        dispatch.gridThreads[d] = grid[d];
        dispatch.parameters.threads_per_grid[d] = grid[d];
        dispatch.parameters.threadgroups_per_grid[d] = dispatch.threadgroups[d];
        dispatch.parameters.threads_per_threadgroup[d] = group[d];
    }
    dispatch.parameters.simd_width = 32;
    return dispatch;
}

inline std::uint32_t linearIndex(const mc_group* g, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    return x + g->size[0] * (y + g->size[1] * z);
}

/// The thread's position in the grid, flattened.
inline std::uint32_t gridIndex(const mc_group* g, std::uint32_t linear) {
    const mc_dispatch* d = g->dispatch;
    std::uint32_t x = linear % g->size[0], y = (linear / g->size[0]) % g->size[1], z = linear / (g->size[0] * g->size[1]);
    std::uint32_t gx = g->position[0] * d->threads_per_threadgroup[0] + x;
    std::uint32_t gy = g->position[1] * d->threads_per_threadgroup[1] + y;
    std::uint32_t gz = g->position[2] * d->threads_per_threadgroup[2] + z;
    return gx + d->threads_per_grid[0] * (gy + d->threads_per_grid[1] * gz);
}

} // namespace metalcpu::exec::testing
