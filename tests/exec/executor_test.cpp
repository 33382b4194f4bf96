#include "exec/executor.h"
#include "test_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace metalcpu::exec {
namespace {

using testing::GuardedBuffer;
using testing::gridIndex;
using testing::makeDispatch;

// A barrier-free kernel: out[thread_position_in_grid] = 1 + its threadgroup's linear index.
void markGroup(const mc_group* g) {
    auto* out = static_cast<std::uint32_t*>(g->dispatch->buffers[0]);
    const std::uint32_t groupIndex =
        g->position[0] + g->dispatch->threadgroups_per_grid[0] *
                             (g->position[1] + g->dispatch->threadgroups_per_grid[1] * g->position[2]);
    const std::uint32_t count = g->size[0] * g->size[1] * g->size[2];
    for (std::uint32_t i = 0; i < count; ++i) out[gridIndex(g, i)] = groupIndex + 1;
}

mc_kernel plainKernel() {
    mc_kernel kernel{};
    kernel.name = "mark_group";
    kernel.run_group = &markGroup;
    return kernel;
}

// A barrier-free kernel that counts its runs of each group: counts[group's linear index] += 1.
void countGroup(const mc_group* g) {
    auto* counts = static_cast<std::uint32_t*>(g->dispatch->buffers[0]);
    const std::uint32_t groupIndex =
        g->position[0] + g->dispatch->threadgroups_per_grid[0] *
                             (g->position[1] + g->dispatch->threadgroups_per_grid[1] * g->position[2]);
    __atomic_fetch_add(&counts[groupIndex], 1u, __ATOMIC_RELAXED);
}

mc_kernel countingKernel() {
    mc_kernel kernel{};
    kernel.name = "count_group";
    kernel.run_group = &countGroup;
    return kernel;
}

// A kernel with barriers: each thread writes its index into threadgroup memory, waits,
// then reads the value of its neighbour (wrapping around), waits again and writes it out.
void neighbourThread(const mc_group* g, mc_u32 i) {
    const std::uint32_t count = g->size[0] * g->size[1] * g->size[2];
    auto* shared = static_cast<std::uint32_t*>(
        exec::kernelServices()->threadgroup_variable(g, 1, sizeof(std::uint32_t) * 1024, 4));
    shared[i] = gridIndex(g, i) * 2 + 1;
    exec::kernelServices()->threadgroup_barrier(0);
    std::uint32_t neighbour = shared[(i + 1) % count];
    exec::kernelServices()->threadgroup_barrier(0);
    shared[i] = 0; // must not disturb a neighbour still reading: everyone has read by now
    auto* out = static_cast<std::uint32_t*>(g->dispatch->buffers[0]);
    out[gridIndex(g, i)] = neighbour;
}

mc_kernel barrierKernel() {
    mc_kernel kernel{};
    kernel.name = "neighbour";
    kernel.flags = MC_KERNEL_USES_BARRIERS;
    kernel.run_thread = &neighbourThread;
    return kernel;
}

struct Shape {
    std::uint32_t grid[3];
    std::uint32_t group[3];
};

std::string shapeName(const ::testing::TestParamInfo<Shape>& info) {
    const Shape& s = info.param;
    return "grid" + std::to_string(s.grid[0]) + "x" + std::to_string(s.grid[1]) + "x" + std::to_string(s.grid[2]) +
           "_group" + std::to_string(s.group[0]) + "x" + std::to_string(s.group[1]) + "x" + std::to_string(s.group[2]);
}

class ExecutorShapes : public ::testing::TestWithParam<Shape> {};

// Test that every thread of the grid runs exactly once, in the right group, and nothing outside.
TEST_P(ExecutorShapes, PlainKernelCoversTheGridOnce) {
    const Shape& shape = GetParam();
    const std::size_t count = std::size_t(shape.grid[0]) * shape.grid[1] * shape.grid[2];
    GuardedBuffer out(count);
    mc_kernel kernel = plainKernel();
    Dispatch dispatch = makeDispatch(kernel, shape.grid, shape.group);
    dispatch.parameters.buffers[0] = out.data();
    DispatchResult result = Executor::shared().run(dispatch);
    ASSERT_TRUE(result.ok) << result.error;
    for (std::uint32_t z = 0; z < shape.grid[2]; ++z)
        for (std::uint32_t y = 0; y < shape.grid[1]; ++y)
            for (std::uint32_t x = 0; x < shape.grid[0]; ++x) {
                std::uint32_t group = x / shape.group[0] +
                                      dispatch.threadgroups[0] * (y / shape.group[1] + dispatch.threadgroups[1] * (z / shape.group[2]));
                std::size_t index = x + shape.grid[0] * (y + std::size_t(shape.grid[1]) * z);
                ASSERT_EQ(out[index], group + 1) << "thread " << x << "," << y << "," << z;
            }
    EXPECT_TRUE(out.canariesIntact());
}

// Test that the executor runs every group of the grid exactly once, whatever order it picks
// (GroupOrder) and however the workers split the groups: one group (fewer groups than
// workers), single rows and columns of groups, grids of several uneven tiles, 3-D.
TEST_P(ExecutorShapes, EveryGroupRunsOnce) {
    const Shape& shape = GetParam();
    mc_kernel kernel = countingKernel();
    Dispatch dispatch = makeDispatch(kernel, shape.grid, shape.group);
    const std::size_t groups = std::size_t(dispatch.threadgroups[0]) * dispatch.threadgroups[1] * dispatch.threadgroups[2];
    GuardedBuffer counts(groups);
    dispatch.parameters.buffers[0] = counts.data();
    DispatchResult result = Executor::shared().run(dispatch);
    ASSERT_TRUE(result.ok) << result.error;
    for (std::size_t g = 0; g < groups; ++g) ASSERT_EQ(counts[g], 1u) << "group " << g;
    EXPECT_TRUE(counts.canariesIntact());
}

// Test that barriers order the threads of each group, including partial edge groups.
TEST_P(ExecutorShapes, BarrierKernelSeesNeighboursValues) {
    const Shape& shape = GetParam();
    const std::size_t count = std::size_t(shape.grid[0]) * shape.grid[1] * shape.grid[2];
    GuardedBuffer out(count);
    mc_kernel kernel = barrierKernel();
    Dispatch dispatch = makeDispatch(kernel, shape.grid, shape.group);
    dispatch.parameters.buffers[0] = out.data();
    DispatchResult result = Executor::shared().run(dispatch);
    ASSERT_TRUE(result.ok) << result.error;
    // Recompute what each thread must have read from its neighbour in its own group.
    for (std::uint32_t z = 0; z < shape.grid[2]; ++z)
        for (std::uint32_t y = 0; y < shape.grid[1]; ++y)
            for (std::uint32_t x = 0; x < shape.grid[0]; ++x) {
                std::uint32_t size[3], local[3], origin[3];
                const std::uint32_t position[3] = {x, y, z};
                for (int d = 0; d < 3; ++d) {
                    origin[d] = position[d] / shape.group[d] * shape.group[d];
                    size[d] = std::min(shape.group[d], shape.grid[d] - origin[d]);
                    local[d] = position[d] - origin[d];
                }
                std::uint32_t countInGroup = size[0] * size[1] * size[2];
                std::uint32_t linear = local[0] + size[0] * (local[1] + size[1] * local[2]);
                std::uint32_t next = (linear + 1) % countInGroup;
                std::uint32_t nx = origin[0] + next % size[0], ny = origin[1] + (next / size[0]) % size[1],
                              nz = origin[2] + next / (size[0] * size[1]);
                std::uint32_t expected = (nx + shape.grid[0] * (ny + shape.grid[1] * nz)) * 2 + 1;
                std::size_t index = x + shape.grid[0] * (y + std::size_t(shape.grid[1]) * z);
                ASSERT_EQ(out[index], expected) << "thread " << x << "," << y << "," << z;
            }
    EXPECT_TRUE(out.canariesIntact());
}

INSTANTIATE_TEST_SUITE_P(Shapes, ExecutorShapes,
                         ::testing::Values(Shape{{1, 1, 1}, {1, 1, 1}},       // one thread
                                           Shape{{100, 1, 1}, {1, 1, 1}},     // groups of one
                                           Shape{{100, 1, 1}, {7, 1, 1}},     // not a multiple of 32, uneven grid
                                           Shape{{1000, 1, 1}, {33, 1, 1}},
                                           Shape{{1024, 1, 1}, {1024, 1, 1}}, // the largest group
                                           Shape{{37, 19, 1}, {8, 8, 1}},     // 2-D, uneven in both
                                           Shape{{9, 10, 11}, {4, 3, 2}},     // 3-D, uneven
                                           Shape{{64, 64, 1}, {16, 16, 1}},
                                           // Grids of several of the executor's 8 x 8-group tiles:
                                           Shape{{1, 300, 1}, {1, 1, 1}},     // a column of groups
                                           Shape{{100, 70, 3}, {4, 4, 1}},    // 25 x 18 x 3 groups, uneven
                                           Shape{{130, 1, 17}, {1, 1, 1}},    // rows of groups in 3-D
                                           Shape{{512, 256, 1}, {8, 8, 1}}),  // matmul_bench's 8x4 at 2048²
                         shapeName);

// Test that a kernel compiled as barrier-free that reaches a barrier fails the dispatch.
TEST(Executor, UnexpectedBarrierFailsTheDispatch) {
    mc_kernel kernel{};
    kernel.name = "lying";
    kernel.run_group = [](const mc_group*) { exec::kernelServices()->threadgroup_barrier(0); };
    std::uint32_t grid[3] = {4, 1, 1}, group[3] = {2, 1, 1};
    DispatchResult result = Executor::shared().run(makeDispatch(kernel, grid, group));
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.error.find("lying"), std::string::npos) << result.error;
}

// Test that threadgroup variables beyond the limit fail the dispatch instead of corrupting memory.
TEST(Executor, ThreadgroupMemoryOverflowFailsTheDispatch) {
    mc_kernel kernel{};
    kernel.name = "greedy";
    kernel.run_group = [](const mc_group* g) {
        auto* big = static_cast<char*>(exec::kernelServices()->threadgroup_variable(g, 7, 40000, 16));
        for (int i = 0; i < 40000; ++i) big[i] = 1; // writes the stand-in storage, never past it
    };
    std::uint32_t grid[3] = {2, 1, 1}, group[3] = {1, 1, 1};
    DispatchResult result = Executor::shared().run(makeDispatch(kernel, grid, group));
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.error.find("32768"), std::string::npos) << result.error;
}

// Test that a dispatch with no kernel is an error, not a crash.
TEST(Executor, DispatchWithoutKernelIsAnError) {
    Dispatch dispatch;
    DispatchResult result = Executor::shared().run(dispatch);
    EXPECT_FALSE(result.ok);
    EXPECT_FALSE(result.error.empty());
}

} // namespace
} // namespace metalcpu::exec
