// The coroutine lowering's runtime half (metalcpu/coroutines.h), run through the executor
// with a kernel written by hand the way the front end writes one.
#include "exec/executor.h"
#include "test_kernels.h"

#include <metalcpu/kernel_support.h>

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::exec {
namespace {

using testing::GuardedBuffer;
using testing::gridIndex;
using testing::makeDispatch;

// Each thread stores its grid index into threadgroup memory, waits, reads its neighbour's,
// waits, and writes it out; threads whose index is a multiple of 5 return first.
metalcpu_kernel::barrier_task neighbour(const mc_group* g, mc_u32 i, std::uint32_t* out) {
    const std::uint32_t count = g->size[0] * g->size[1] * g->size[2];
    auto& shared = metalcpu_kernel::threadgroup_variable<std::uint32_t[1024], 42>(g);
    shared[i] = gridIndex(g, i) + 1;
    co_await metalcpu_kernel::barrier_point();
    std::uint32_t value = shared[(i + 1) % count];
    co_await metalcpu_kernel::barrier_point();
    if (i % 5 == 0) co_return;
    shared[i] = 0;
    co_await metalcpu_kernel::barrier_point();
    out[gridIndex(g, i)] = value;
}

void neighbourGroup(const mc_group* g) {
    auto* out = static_cast<std::uint32_t*>(g->dispatch->buffers[0]);
    metalcpu_kernel::run_coroutines(g, [&](const metalcpu_kernel::thread_ids& t) { return neighbour(g, t.linear, out); });
}

class CoroutineKernel : public ::testing::TestWithParam<std::uint32_t> {
protected:
    void SetUp() override { metalcpu_kernel::g_services = kernelServices(); }
};

// Test that coroutine threads see each other's writes across barriers, in every group size,
// with threads returning early.
TEST_P(CoroutineKernel, ExchangesThroughThreadgroupMemory) {
    const std::uint32_t group = GetParam();
    const std::uint32_t total = 1000;
    GuardedBuffer out(total);
    mc_kernel kernel{};
    kernel.name = "neighbour";
    kernel.flags = MC_KERNEL_COROUTINES;
    kernel.run_group = &neighbourGroup;
    std::uint32_t grid[3] = {total, 1, 1}, size[3] = {group, 1, 1};
    Dispatch dispatch = makeDispatch(kernel, grid, size);
    dispatch.parameters.buffers[0] = out.data();
    DispatchResult result = Executor::shared().run(dispatch);
    ASSERT_TRUE(result.ok) << result.error;
    for (std::uint32_t x = 0; x < total; ++x) {
        std::uint32_t start = x / group * group, count = std::min(group, total - start), local = x - start;
        std::uint32_t expected = (local % 5 == 0) ? 0 : start + (local + 1) % count + 1;
        ASSERT_EQ(out[x], expected) << x;
    }
    EXPECT_TRUE(out.canariesIntact());
}

INSTANTIATE_TEST_SUITE_P(Sizes, CoroutineKernel, ::testing::Values(1u, 7u, 32u, 33u, 256u, 1000u));

} // namespace
} // namespace metalcpu::exec
