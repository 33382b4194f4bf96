// Which lowering the front end chose for a pipeline's kernel, for tests that pin it down: a
// kernel that falls back (to coroutines, or to fibers) still computes the right values.
#pragma once

#include "runtime/compute_pipeline.h"

#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <utility>

namespace metalcpu::testing {

/// A kernel name and its expected lowering: MC_KERNEL_WORK_ITEM_LOOPS, MC_KERNEL_COROUTINES,
/// MC_KERNEL_USES_BARRIERS (fibers), MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS
/// (a barrier-free kernel whose threads are interleaved in its uniform loops) or 0 (one loop
/// over each group's threads, one thread after another).
using ExpectedLowering = std::pair<const char*, std::uint32_t>;

/// Checks the lowering of each kernel; `pipeline(name)` makes a pipeline (+1) for it.
template <class MakePipeline>
void expectLowerings(std::initializer_list<ExpectedLowering> expected, MakePipeline pipeline) {
    constexpr std::uint32_t kLowerings =
        MC_KERNEL_USES_BARRIERS | MC_KERNEL_COROUTINES | MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS;
    for (const auto& [name, lowering] : expected) {
        MTL::ComputePipelineState* state = pipeline(name);
        ASSERT_NE(state, nullptr) << name;
        EXPECT_EQ(ns::implOf<rt::ComputePipelineState>(state)->kernel().flags & kLowerings, lowering) << name;
        state->release();
    }
}

} // namespace metalcpu::testing
