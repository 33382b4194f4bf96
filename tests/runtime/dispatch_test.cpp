#include "guarded_buffer.h"
#include "metal_test.h"

#include "isolation/device_process.h"
#include "jit/kernel_library.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

// One source for all dispatch tests, so the suite compiles kernels once.
const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct Params { uint count; float scale; };

kernel void scale_add(device const float* a [[buffer(0)]],
                      device const float* b [[buffer(1)]],
                      device float* out [[buffer(2)]],
                      constant Params& params [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
    if (i >= params.count) return;
    out[i] = a[i] * params.scale + b[i];
}

// Every built-in a 2-D kernel can ask for, written out per thread (8 words each).
kernel void positions(device uint* out,
                      constant uint2& grid,
                      uint2 gid [[thread_position_in_grid]],
                      ushort2 local [[thread_position_in_threadgroup]],
                      uint2 group [[threadgroup_position_in_grid]],
                      uint2 size [[threads_per_threadgroup]],
                      uint flat [[thread_index_in_threadgroup]],
                      uint lane [[thread_index_in_simdgroup]],
                      uint simd [[simdgroup_index_in_threadgroup]]) {
    uint index = (gid.y * grid.x + gid.x) * 8;
    out[index + 0] = gid.x;
    out[index + 1] = gid.y;
    out[index + 2] = local.x + 1000 * local.y;
    out[index + 3] = group.x + 1000 * group.y;
    out[index + 4] = size.x + 1000 * size.y;
    out[index + 5] = flat;
    out[index + 6] = lane;
    out[index + 7] = simd;
}

template <typename T> void store3(device uint* to, T value) {
    to[0] = value.x;
    to[1] = value.y;
    to[2] = value.z;
}

// Every built-in of a 3-D dispatch, 26 words per thread, in the vector type V (uint3 or
// ushort3) and the scalar type S (ushort or uint) of each instantiation.
template <typename V, typename S>
kernel void positions_3d(device uint* out [[buffer(0)]],
                         constant uint4& grid [[buffer(1)]],
                         V gid [[thread_position_in_grid]],
                         V local [[thread_position_in_threadgroup]],
                         V group [[threadgroup_position_in_grid]],
                         V size [[threads_per_threadgroup]],
                         V dispatched [[dispatch_threads_per_threadgroup]],
                         V threads [[threads_per_grid]],
                         V groups [[threadgroups_per_grid]],
                         S flat [[thread_index_in_threadgroup]],
                         S lane [[thread_index_in_simdgroup]],
                         S simd [[simdgroup_index_in_threadgroup]],
                         S simds [[simdgroups_per_threadgroup]],
                         S width [[thread_execution_width]]) {
    device uint* v = out + ((uint(gid.z) * grid.y + gid.y) * grid.x + gid.x) * 26;
    store3(v + 0, gid); store3(v + 3, local); store3(v + 6, group); store3(v + 9, size);
    store3(v + 12, dispatched); store3(v + 15, threads); store3(v + 18, groups);
    v[21] = flat; v[22] = lane; v[23] = simd; v[24] = simds; v[25] = width;
}
template [[host_name("positions_3d")]] kernel void positions_3d<uint3, ushort>(
    device uint*, constant uint4&, uint3, uint3, uint3, uint3, uint3, uint3, uint3,
    ushort, ushort, ushort, ushort, ushort);
template [[host_name("positions_3d_ushort")]] kernel void positions_3d<ushort3, uint>(
    device uint*, constant uint4&, ushort3, ushort3, ushort3, ushort3, ushort3, ushort3, ushort3,
    uint, uint, uint, uint, uint);

// Reverses each threadgroup's slice of the data through threadgroup memory. Threads beyond
// the data (a grid of whole groups) return before the barrier, which must not deadlock the
// others; the rest reverse the part of their group that holds data.
kernel void reverse_groups(device const int* in [[buffer(0)]],
                           device int* out [[buffer(1)]],
                           constant uint& count [[buffer(2)]],
                           uint i [[thread_position_in_grid]],
                           uint local [[thread_index_in_threadgroup]],
                           uint size [[threads_per_threadgroup]],
                           uint group [[threadgroup_position_in_grid]],
                           uint width [[dispatch_threads_per_threadgroup]]) {
    threadgroup int slice[1024];
    if (i >= count) return;
    slice[local] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint filled = min(size, count - group * width);
    out[i] = slice[filled - 1 - local];
}

// Sums a group's values in [[threadgroup(0)]] memory sized by the host.
kernel void group_sums(device const uint* in [[buffer(0)]],
                       device uint* sums [[buffer(1)]],
                       threadgroup uint* scratch [[threadgroup(0)]],
                       uint i [[thread_position_in_grid]],
                       uint local [[thread_index_in_threadgroup]],
                       uint size [[threads_per_threadgroup]],
                       uint group [[threadgroup_position_in_grid]]) {
    scratch[local] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (local == 0) {
        uint total = 0;
        for (uint k = 0; k < size; ++k) total += scratch[k];
        sums[group] = total;
    }
}

// Implicit buffer indices: declaration order, skipping the explicit one.
kernel void implicit_indices(device int* first,
                             device int* explicit_one [[buffer(0)]],
                             device int* second,
                             uint i [[thread_position_in_grid]]) {
    explicit_one[i] = 100 + int(i);
    first[i] = 1 + 2 * int(i);
    second[i] = 2 + 3 * int(i);
}

// Vector and matrix types, swizzles and half, four float4 and one half per thread.
kernel void vectors(device float4* out [[buffer(0)]], device half* halves [[buffer(1)]],
                    uint i [[thread_position_in_grid]]) {
    float4 v = float4(1.0f, 2.0f, 3.0f, 4.0f) + float(i % 5);
    float4x4 m(2.0f + float(i % 3));
    out[4 * i + 0] = m * v;
    out[4 * i + 1] = v.wzyx;
    out[4 * i + 2] = float4(v.xy, 5.0f, 6.0f);
    float4x4 n(float4(1, 0, 0, 0), float4(0, 1, 0, 0), float4(0, 0, 1, 0), float4(1, 2, 3, 1));
    out[4 * i + 3] = n * float4(0, 0, 0, 1);
    half h = 1.5h + half(i % 8);
    halves[i] = h * h;
}

// A body the host compiler vectorises over the threads of a row (for_each_thread), with an
// early return past the data and values that depend on the built-ins the loop derives from
// its counter.
kernel void lanes(device const float* in [[buffer(0)]],
                  device float* out [[buffer(1)]],
                  device uint* where [[buffer(2)]],
                  constant uint& count [[buffer(3)]],
                  uint i [[thread_position_in_grid]],
                  uint local [[thread_position_in_threadgroup]],
                  uint group [[threadgroup_position_in_grid]]) {
    if (i >= count) return;
    out[i] = in[i] * 3.0f - float(local);
    where[i] = group * 65536 + local;
}

// A `device const` reference, which metal-cpp programs also fill with setBytes.
struct Line { float slope; float intercept; uint count; };
kernel void evaluate_line(device const Line& line [[buffer(0)]],
                          device float* out [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
    if (i >= line.count) return;
    out[i] = line.slope * float(i) + line.intercept;
}
)";

class DispatchTest : public MetalTest {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    MTL::ComputePipelineState* kernel(const char* name) { return pipeline(library_, name); }

    MTL::Buffer* buffer(std::size_t bytes) { return device_->newBuffer(bytes, MTL::ResourceStorageModeShared); }

    /// Encodes `state` with the bindings `bind` makes and one dispatch (dispatchThreads, or
    /// dispatchThreadgroups when `wholeGroups`), commits it and waits. A command buffer that
    /// does not complete within a minute (threads waiting at a barrier for threads that
    /// returned) fails the test and ends the program rather than hanging it.
    MTL::CommandBufferStatus dispatch(MTL::ComputePipelineState* state, MTL::Size grid, MTL::Size group,
                                      const std::function<void(MTL::ComputeCommandEncoder*)>& bind,
                                      bool wholeGroups = false) {
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        bind(encoder);
        if (wholeGroups) encoder->dispatchThreadgroups(grid, group);
        else encoder->dispatchThreads(grid, group);
        encoder->endEncoding();
        auto done = std::make_shared<std::promise<void>>();
        std::future<void> completed = done->get_future();
        commandBuffer->addCompletedHandler([done](MTL::CommandBuffer*) { done->set_value(); });
        commandBuffer->commit();
        if (completed.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
            ADD_FAILURE() << "the command buffer did not complete within a minute: a deadlock";
            std::fflush(stdout);
            std::abort(); // the queue's thread is stuck, so the program cannot end normally
        }
        commandBuffer->waitUntilCompleted();
        return commandBuffer->status();
    }

    static MTL::Library* library_;
};
MTL::Library* DispatchTest::library_ = nullptr;

struct LinearCase {
    unsigned count;
    unsigned groupWidth;
};

std::string linearCaseName(const ::testing::TestParamInfo<LinearCase>& info) {
    return "n" + std::to_string(info.param.count) + "_group" + std::to_string(info.param.groupWidth);
}

// One thread, a single group, groups of 1, widths that are not multiples of 32, and grids
// that leave a partial group at the end.
const auto kLinearShapes = ::testing::Values(LinearCase{1, 1}, LinearCase{100, 1}, LinearCase{1000, 7},
                                             LinearCase{1000, 33}, LinearCase{4097, 1024}, LinearCase{64, 64});

class LinearDispatch : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {};

// Test a 1-D kernel over grids that do not divide evenly, with setBytes parameters.
TEST_P(LinearDispatch, ScaleAdd) {
    const LinearCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* a = buffer(param.count * 4);
    MTL::Buffer* b = buffer(param.count * 4);
    GuardedBuffer out(device_, param.count * 4);
    auto* av = static_cast<float*>(a->contents());
    auto* bv = static_cast<float*>(b->contents());
    for (unsigned i = 0; i < param.count; ++i) {
        av[i] = float(i);
        bv[i] = float(2 * i + 1);
    }
    struct Params {
        std::uint32_t count;
        float scale;
    } params{param.count, 0.5f};

    ASSERT_EQ(dispatch(state, MTL::Size(param.count, 1, 1), MTL::Size(param.groupWidth, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           encoder->setBuffer(a, 0, 0);
                           encoder->setBuffer(b, 0, 1);
                           out.bind(encoder, 2);
                           encoder->setBytes(&params, sizeof params, 3);
                       }),
              MTL::CommandBufferStatusCompleted);

    const float* result = out.data<float>();
    for (unsigned i = 0; i < param.count; ++i) ASSERT_EQ(result[i], 0.5f * float(i) + float(2 * i + 1)) << i;
    out.expectCanariesIntact();
    a->release();
    b->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, LinearDispatch, kLinearShapes, linearCaseName);

struct LaneCase {
    unsigned count;
    unsigned groupWidth;
    bool wholeGroups; ///< dispatchThreadgroups: the last group's threads past `count` return
    bool validated;
};

std::string laneCaseName(const ::testing::TestParamInfo<LaneCase>& info) {
    const LaneCase& c = info.param;
    return "n" + std::to_string(c.count) + "_group" + std::to_string(c.groupWidth) +
           (c.wholeGroups ? "_whole" : "_threads") + (c.validated ? "_validated" : "_plain");
}

class VectorisedLanes : public DispatchTest, public ::testing::WithParamInterface<LaneCase> {};

// The vectorised loop over a group's threads against the scalar one (shader validation keeps
// it scalar): rows shorter than a vector, not multiples of its width, one thread, groups cut
// at the grid's edge, and threads that return.
TEST_P(VectorisedLanes, MatchEachThread) {
    const LaneCase& c = GetParam();
    MTL::ComputePipelineState* state = pipeline(library_, "lanes", c.validated);
    ASSERT_NE(state, nullptr);
    const unsigned groups = (c.count + c.groupWidth - 1) / c.groupWidth;
    MTL::Buffer* in = buffer(c.count * 4);
    GuardedBuffer out(device_, c.count * 4);
    GuardedBuffer where(device_, c.count * 4);
    auto* inv = static_cast<float*>(in->contents());
    for (unsigned i = 0; i < c.count; ++i) inv[i] = float(i) * 0.25f;
    const std::uint32_t count = c.count;
    const MTL::Size grid = c.wholeGroups ? MTL::Size(groups, 1, 1) : MTL::Size(c.count, 1, 1);
    ASSERT_EQ(dispatch(state, grid, MTL::Size(c.groupWidth, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           encoder->setBuffer(in, 0, 0);
                           out.bind(encoder, 1);
                           where.bind(encoder, 2);
                           encoder->setBytes(&count, sizeof count, 3);
                       },
                       c.wholeGroups),
              MTL::CommandBufferStatusCompleted);
    const float* result = out.data<float>();
    const std::uint32_t* position = where.data<std::uint32_t>();
    for (unsigned i = 0; i < c.count; ++i) {
        const unsigned local = i % c.groupWidth;
        ASSERT_EQ(result[i], float(i) * 0.25f * 3.0f - float(local)) << i;
        ASSERT_EQ(position[i], (i / c.groupWidth) * 65536 + local) << i;
    }
    out.expectCanariesIntact();
    where.expectCanariesIntact();
    in->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, VectorisedLanes,
                         ::testing::Values(LaneCase{1, 1, false, false}, LaneCase{1, 1, true, true},
                                           LaneCase{3, 1, true, false}, LaneCase{5, 3, true, false},
                                           LaneCase{5, 3, true, true}, LaneCase{17, 4, false, false},
                                           LaneCase{31, 8, true, false}, LaneCase{31, 8, true, true},
                                           LaneCase{1000, 7, true, false}, LaneCase{1000, 33, false, false},
                                           LaneCase{1000, 33, true, true}, LaneCase{4097, 1024, true, false},
                                           LaneCase{4097, 1024, false, true}, LaneCase{64, 64, false, false}),
                         laneCaseName);

struct GridCase {
    unsigned width, height, groupWidth, groupHeight;
};

class GridDispatch : public DispatchTest, public ::testing::WithParamInterface<GridCase> {};

// Test every 2-D built-in, in uint2 and ushort2 forms, including partial edge groups.
TEST_P(GridDispatch, BuiltinsMatchTheGrid) {
    const GridCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("positions");
    ASSERT_NE(state, nullptr);
    GuardedBuffer out(device_, param.width * param.height * 8 * 4);
    std::uint32_t grid[2] = {param.width, param.height};
    ASSERT_EQ(dispatch(state, MTL::Size(param.width, param.height, 1),
                       MTL::Size(param.groupWidth, param.groupHeight, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           out.bind(encoder, 0);
                           encoder->setBytes(grid, sizeof grid, 1);
                       }),
              MTL::CommandBufferStatusCompleted);
    const auto* values = out.data<std::uint32_t>();
    const unsigned simdWidth = unsigned(state->threadExecutionWidth());
    for (unsigned y = 0; y < param.height; ++y)
        for (unsigned x = 0; x < param.width; ++x) {
            const std::uint32_t* v = values + (y * param.width + x) * 8;
            unsigned lx = x % param.groupWidth, ly = y % param.groupHeight;
            unsigned sx = std::min(param.groupWidth, param.width - x / param.groupWidth * param.groupWidth);
            unsigned sy = std::min(param.groupHeight, param.height - y / param.groupHeight * param.groupHeight);
            unsigned flat = ly * sx + lx;
            ASSERT_EQ(v[0], x);
            ASSERT_EQ(v[1], y);
            ASSERT_EQ(v[2], lx + 1000 * ly);
            ASSERT_EQ(v[3], x / param.groupWidth + 1000 * (y / param.groupHeight));
            ASSERT_EQ(v[4], sx + 1000 * sy) << "threads_per_threadgroup is the actual size of an edge group";
            ASSERT_EQ(v[5], flat);
            ASSERT_EQ(v[6], flat % simdWidth);
            ASSERT_EQ(v[7], flat / simdWidth);
        }
    out.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, GridDispatch,
                         ::testing::Values(GridCase{1, 1, 1, 1}, GridCase{37, 19, 8, 8}, GridCase{33, 5, 33, 1},
                                           GridCase{64, 48, 16, 16}, GridCase{10, 100, 3, 7}),
                         [](const ::testing::TestParamInfo<GridCase>& info) {
                             const GridCase& c = info.param;
                             return std::to_string(c.width) + "x" + std::to_string(c.height) + "_group" +
                                    std::to_string(c.groupWidth) + "x" + std::to_string(c.groupHeight);
                         });

struct VolumeCase {
    unsigned grid[3];
    unsigned group[3];
};

std::string volumeCaseName(const ::testing::TestParamInfo<std::tuple<const char*, VolumeCase>>& info) {
    const VolumeCase& c = std::get<1>(info.param);
    return std::string(std::get<0>(info.param)) + "_" + std::to_string(c.grid[0]) + "x" + std::to_string(c.grid[1]) +
           "x" + std::to_string(c.grid[2]) + "_group" + std::to_string(c.group[0]) + "x" + std::to_string(c.group[1]) +
           "x" + std::to_string(c.group[2]);
}

class VolumeDispatch : public DispatchTest,
                       public ::testing::WithParamInterface<std::tuple<const char*, VolumeCase>> {};

// Test every 3-D built-in, in uint3, ushort3, uint and ushort forms, for each thread of grids
// that leave partial groups in every dimension.
TEST_P(VolumeDispatch, BuiltinsMatchTheGrid) {
    const auto& [name, param] = GetParam();
    MTL::ComputePipelineState* state = kernel(name);
    ASSERT_NE(state, nullptr);
    constexpr unsigned kWords = 26;
    const unsigned* n = param.grid;
    const unsigned* g = param.group;
    GuardedBuffer out(device_, std::size_t(n[0]) * n[1] * n[2] * kWords * 4);
    const std::uint32_t grid[4] = {n[0], n[1], n[2], 0};
    ASSERT_EQ(dispatch(state, MTL::Size(n[0], n[1], n[2]), MTL::Size(g[0], g[1], g[2]),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           out.bind(encoder, 0);
                           encoder->setBytes(grid, sizeof grid, 1);
                       }),
              MTL::CommandBufferStatusCompleted);
    const auto* values = out.data<std::uint32_t>();
    const unsigned simdWidth = unsigned(state->threadExecutionWidth());
    for (unsigned z = 0; z < n[2]; ++z)
        for (unsigned y = 0; y < n[1]; ++y)
            for (unsigned x = 0; x < n[0]; ++x) {
                const unsigned position[3] = {x, y, z};
                unsigned expected[kWords];
                unsigned actualSize[3];
                for (int d = 0; d < 3; ++d) {
                    const unsigned group = position[d] / g[d];
                    actualSize[d] = std::min(g[d], n[d] - group * g[d]);
                    expected[0 + d] = position[d];
                    expected[3 + d] = position[d] % g[d];
                    expected[6 + d] = group;
                    expected[9 + d] = actualSize[d];
                    expected[12 + d] = g[d];
                    expected[15 + d] = n[d];
                    expected[18 + d] = (n[d] + g[d] - 1) / g[d];
                }
                const unsigned flat = (expected[5] * actualSize[1] + expected[4]) * actualSize[0] + expected[3];
                const unsigned threads = actualSize[0] * actualSize[1] * actualSize[2];
                expected[21] = flat;
                expected[22] = flat % simdWidth;
                expected[23] = flat / simdWidth;
                expected[24] = (threads + simdWidth - 1) / simdWidth;
                expected[25] = simdWidth;
                const std::uint32_t* v = values + ((z * n[1] + y) * n[0] + x) * kWords;
                for (unsigned w = 0; w < kWords; ++w)
                    ASSERT_EQ(v[w], expected[w]) << "word " << w << " of thread " << x << "," << y << "," << z;
            }
    out.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, VolumeDispatch,
    ::testing::Combine(::testing::Values("positions_3d", "positions_3d_ushort"),
                       ::testing::Values(VolumeCase{{5, 3, 7}, {2, 2, 2}}, VolumeCase{{1, 1, 1}, {1, 1, 1}},
                                         VolumeCase{{9, 10, 11}, {4, 4, 3}}, VolumeCase{{35, 2, 3}, {33, 1, 2}},
                                         VolumeCase{{16, 8, 9}, {8, 8, 8}})),
    volumeCaseName);

class BarrierDispatch : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {
protected:
    /// Runs reverse_groups over `count` values, in groups of `groupWidth` threads; with
    /// `extraGroups` >= 0 as whole groups (dispatchThreadgroups) with that many groups more
    /// than the data needs, so the threads past the data return before the barrier.
    void reverse(unsigned count, unsigned groupWidth, int extraGroups) {
        MTL::ComputePipelineState* state = kernel("reverse_groups");
        ASSERT_NE(state, nullptr);
        MTL::Buffer* in = buffer(count * 4);
        GuardedBuffer out(device_, count * 4);
        auto* iv = static_cast<int*>(in->contents());
        for (unsigned i = 0; i < count; ++i) iv[i] = int(i * 3);
        const bool wholeGroups = extraGroups >= 0;
        const unsigned groups = (count + groupWidth - 1) / groupWidth + (wholeGroups ? unsigned(extraGroups) : 0);
        const std::uint32_t bound = count;
        ASSERT_EQ(dispatch(
                      state, wholeGroups ? MTL::Size(groups, 1, 1) : MTL::Size(count, 1, 1),
                      MTL::Size(groupWidth, 1, 1),
                      [&](MTL::ComputeCommandEncoder* encoder) {
                          encoder->setBuffer(in, 0, 0);
                          out.bind(encoder, 1);
                          encoder->setBytes(&bound, sizeof bound, 2);
                      },
                      wholeGroups),
                  MTL::CommandBufferStatusCompleted);
        const int* ov = out.data<int>();
        for (unsigned i = 0; i < count; ++i) {
            unsigned start = i / groupWidth * groupWidth;
            unsigned size = std::min(groupWidth, count - start);
            unsigned mirrored = start + (size - 1 - (i - start));
            ASSERT_EQ(ov[i], int(mirrored * 3)) << i;
        }
        out.expectCanariesIntact();
        in->release();
        state->release();
    }
};

// Test that a barrier kernel exchanges data through threadgroup memory in every group size.
TEST_P(BarrierDispatch, ReverseEachGroup) { reverse(GetParam().count, GetParam().groupWidth, -1); }

// Test that threads returning before a barrier (part of the last group) neither deadlock
// nor disturb the threads that reach it.
TEST_P(BarrierDispatch, EarlyReturnBeforeBarrier) { reverse(GetParam().count, GetParam().groupWidth, 0); }

// Test that a whole group of threads returning before a barrier, next to groups that wait
// at it, completes.
TEST_P(BarrierDispatch, WholeGroupReturnsBeforeBarrier) { reverse(GetParam().count, GetParam().groupWidth, 1); }

INSTANTIATE_TEST_SUITE_P(Shapes, BarrierDispatch,
                         ::testing::Values(LinearCase{1, 1}, LinearCase{10, 1}, LinearCase{100, 7},
                                           LinearCase{1000, 33}, LinearCase{2048, 1024}, LinearCase{3000, 256},
                                           LinearCase{1, 1024}, LinearCase{2047, 1024}),
                         linearCaseName);

class ThreadgroupArgument : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {};

// Test [[threadgroup(0)]] memory sized with setThreadgroupMemoryLength, in every group size.
TEST_P(ThreadgroupArgument, GroupSums) {
    const LinearCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("group_sums");
    ASSERT_NE(state, nullptr);
    const unsigned groups = (param.count + param.groupWidth - 1) / param.groupWidth;
    MTL::Buffer* in = buffer(param.count * 4);
    GuardedBuffer sums(device_, groups * 4);
    auto* iv = static_cast<std::uint32_t*>(in->contents());
    for (unsigned i = 0; i < param.count; ++i) iv[i] = i * 7 + 1;
    ASSERT_EQ(dispatch(state, MTL::Size(param.count, 1, 1), MTL::Size(param.groupWidth, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           encoder->setBuffer(in, 0, 0);
                           sums.bind(encoder, 1);
                           encoder->setThreadgroupMemoryLength((param.groupWidth * 4 + 15) / 16 * 16, 0);
                       }),
              MTL::CommandBufferStatusCompleted);
    const auto* sv = sums.data<std::uint32_t>();
    for (unsigned g = 0; g < groups; ++g) {
        std::uint32_t expected = 0;
        for (unsigned i = g * param.groupWidth; i < std::min(param.count, (g + 1) * param.groupWidth); ++i)
            expected += iv[i];
        ASSERT_EQ(sv[g], expected) << "group " << g;
    }
    sums.expectCanariesIntact();
    in->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadgroupArgument, kLinearShapes, linearCaseName);

class ImplicitBufferIndices : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {};

// Test that parameters without [[buffer(n)]] take the first free index in order.
TEST_P(ImplicitBufferIndices, DeclarationOrder) {
    const LinearCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("implicit_indices");
    ASSERT_NE(state, nullptr);
    GuardedBuffer explicitOne(device_, param.count * 4), first(device_, param.count * 4),
        second(device_, param.count * 4);
    ASSERT_EQ(dispatch(state, MTL::Size(param.count, 1, 1), MTL::Size(param.groupWidth, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           MTL::Buffer* buffers[3] = {explicitOne.buffer(), first.buffer(), second.buffer()};
                           const NS::UInteger offsets[3] = {GuardedBuffer::offset(), GuardedBuffer::offset(),
                                                            GuardedBuffer::offset()};
                           encoder->setBuffers(buffers, offsets, NS::Range::Make(0, 3));
                       }),
              MTL::CommandBufferStatusCompleted);
    for (unsigned i = 0; i < param.count; ++i) {
        const int k = int(i);
        ASSERT_EQ(explicitOne.data<int>()[i], 100 + k) << "explicit [[buffer(0)]], thread " << i;
        ASSERT_EQ(first.data<int>()[i], 1 + 2 * k) << "first implicit, thread " << i;
        ASSERT_EQ(second.data<int>()[i], 2 + 3 * k) << "second implicit, thread " << i;
    }
    for (const GuardedBuffer* guarded : {&explicitOne, &first, &second}) guarded->expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, ImplicitBufferIndices, kLinearShapes, linearCaseName);

/// The float value of IEEE half `bits` (normal numbers and zero, all the tests produce).
float halfToFloat(std::uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f;
    const float magnitude = exponent == 0 ? 0.0f : std::ldexp(1.0f + float(bits & 0x3ff) / 1024.0f, exponent - 15);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

class VectorsMatricesAndHalf : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {};

// Test vector, matrix (column-major) and half arithmetic in a kernel, for each thread.
TEST_P(VectorsMatricesAndHalf, PerThread) {
    const LinearCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("vectors");
    ASSERT_NE(state, nullptr);
    GuardedBuffer out(device_, param.count * 16 * 4);
    GuardedBuffer halves(device_, param.count * 2);
    ASSERT_EQ(dispatch(state, MTL::Size(param.count, 1, 1), MTL::Size(param.groupWidth, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           out.bind(encoder, 0);
                           halves.bind(encoder, 1);
                       }),
              MTL::CommandBufferStatusCompleted);
    for (unsigned i = 0; i < param.count; ++i) {
        const float s = float(i % 5), d = 2.0f + float(i % 3);
        const float expected[16] = {d * (1 + s), d * (2 + s), d * (3 + s), d * (4 + s), 4 + s, 3 + s, 2 + s, 1 + s,
                                    1 + s,       2 + s,       5,           6,           1,     2,     3,     1};
        const float* f = out.data<float>() + 16 * i;
        for (int k = 0; k < 16; ++k) ASSERT_EQ(f[k], expected[k]) << "thread " << i << ", float " << k;
        const float h = 1.5f + float(i % 8);
        ASSERT_EQ(halfToFloat(halves.data<std::uint16_t>()[i]), h * h) << "thread " << i;
    }
    EXPECT_EQ(halves.data<std::uint16_t>()[0], 0x4080u); // 2.25 in IEEE half
    out.expectCanariesIntact();
    halves.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, VectorsMatricesAndHalf, kLinearShapes, linearCaseName);

// Test that setBytes fills a `device const T&` argument, which Metal accepts for read-only
// device arguments, and that the debug layer does not object.
TEST_F(DispatchTest, SetBytesIntoDeviceConstReference) {
    MTL::ComputePipelineState* state = kernel("evaluate_line");
    ASSERT_NE(state, nullptr);
    std::vector<std::string> reports;
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                  [&](const std::string& report) { reports.push_back(report); });
    struct Line {
        float slope, intercept;
        std::uint32_t count;
    } line{0.25f, -3.0f, 50};
    GuardedBuffer out(device_, 64 * 4);
    const MTL::CommandBufferStatus status =
        dispatch(state, MTL::Size(64, 1, 1), MTL::Size(7, 1, 1), [&](MTL::ComputeCommandEncoder* encoder) {
            encoder->setBytes(&line, sizeof line, 0);
            out.bind(encoder, 1);
        });
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    ASSERT_EQ(status, MTL::CommandBufferStatusCompleted);
    EXPECT_TRUE(reports.empty()) << (reports.empty() ? "" : reports.front());
    for (unsigned i = 0; i < 64; ++i) {
        if (i < line.count) ASSERT_EQ(out.data<float>()[i], 0.25f * float(i) - 3.0f) << i;
        else ASSERT_EQ(out.data<std::uint32_t>()[i], kCanary) << "thread " << i << " is past line.count";
    }
    out.expectCanariesIntact();
    state->release();
}

// Test that setBufferOffset moves where the next dispatch reads, and leaves earlier
// dispatches of the same encoder reading from the old offset.
TEST_F(DispatchTest, SetBufferOffsetChangesWhatTheKernelReads) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    const unsigned count = 40, shift = 8;
    MTL::Buffer* a = buffer((count + shift) * 4);
    MTL::Buffer* zeros = buffer(count * 4);
    GuardedBuffer before(device_, count * 4), after(device_, count * 4);
    for (unsigned i = 0; i < count + shift; ++i) static_cast<float*>(a->contents())[i] = float(i * i);
    std::memset(zeros->contents(), 0, count * 4);
    const struct {
        std::uint32_t count;
        float scale;
    } params{count, 1.0f};
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(a, 0, 0);
    encoder->setBuffer(zeros, 0, 1);
    before.bind(encoder, 2);
    encoder->setBytes(&params, sizeof params, 3);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(16, 1, 1));
    encoder->setBufferOffset(shift * 4, 0);
    after.bind(encoder, 2);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(16, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    for (unsigned i = 0; i < count; ++i) {
        ASSERT_EQ(before.data<float>()[i], float(i * i)) << i;
        ASSERT_EQ(after.data<float>()[i], float((i + shift) * (i + shift))) << i;
    }
    before.expectCanariesIntact();
    after.expectCanariesIntact();
    a->release();
    zeros->release();
    state->release();
}

// Test that a dispatch without a pipeline fails the command buffer with an error, not a crash.
TEST_F(DispatchTest, DispatchWithoutPipelineFails) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    ASSERT_NE(commandBuffer->error(), nullptr);
    EXPECT_NE(text(commandBuffer->error()->localizedDescription()).find("pipeline"), std::string::npos);
}

// Test that a threadgroup over 1024 threads fails the command buffer with Metal's message.
TEST_F(DispatchTest, ThreadgroupOver1024Fails) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* any = buffer(64);
    float params[2] = {0, 0};
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    for (int i = 0; i < 3; ++i) encoder->setBuffer(any, 0, i);
    encoder->setBytes(params, sizeof params, 3);
    encoder->dispatchThreads(MTL::Size(2048, 1, 1), MTL::Size(1025, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    ASSERT_NE(commandBuffer->error(), nullptr);
    EXPECT_NE(text(commandBuffer->error()->localizedDescription()).find("must be <= 1024"), std::string::npos)
        << text(commandBuffer->error()->localizedDescription());
    any->release();
    state->release();
}

// Test that a kernel reading an argument with nothing bound fails the command buffer as a
// GPU page fault naming the argument (docs/validation-api.md), not a crash.
TEST_F(DispatchTest, MissingBindingFails) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    ASSERT_NE(commandBuffer->error(), nullptr);
    EXPECT_EQ(commandBuffer->error()->code(), MTL::CommandBufferErrorPageFault);
    EXPECT_NE(text(commandBuffer->error()->localizedDescription())
                  .find("kernel 'scale_add' accessed argument 'params' [[buffer(3)]], which has no buffer bound"),
              std::string::npos)
        << text(commandBuffer->error()->localizedDescription());
    state->release();
}

// Test that a `constant T&` argument bound to too small a buffer fails instead of reading past it.
TEST_F(DispatchTest, TooSmallBufferForReferenceFails) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* any = buffer(64);
    std::uint32_t tooShort = 4;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    for (int i = 0; i < 3; ++i) encoder->setBuffer(any, 0, i);
    encoder->setBytes(&tooShort, sizeof tooShort, 3);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    any->release();
    state->release();
}

} // namespace
} // namespace metalcpu::testing

namespace metalcpu::testing {
namespace {

// A kernel whose checked flavour cannot be built: besides leaving an optional argument unbound,
// it asserts that a device pointer is a raw pointer, which a checked pointer is not. (A
// kernel's flavour fails only for what it can reach itself, so the assertion sits in its own body.)
constexpr const char* kUncheckableFile = R"(
#include <metal_stdlib>
using namespace metal;
template <typename P> struct raw { enum { value = 0 }; };
template <typename T> struct raw<T*> { enum { value = 1 }; };
kernel void optional_bias(device float* out [[buffer(0)]], device const float* bias [[buffer(1)]],
                          constant uint& use_bias [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    static_assert(raw<decltype(out)>::value == 1, "a raw pointer");
    out[i] = float(i) + (use_bias != 0 ? bias[i] : 0.0f);
}
)";

// Test that a kernel with an unbound optional argument runs, as on a Mac, when the checked
// flavour that would guard the argument cannot be built: the plain kernel runs with zeroed
// stand-ins for the missing buffer.
TEST_F(DispatchTest, UnboundArgumentRunsWhenTheCheckedFlavourIsUnavailable) {
    MTL::Library* library = compile(kUncheckableFile);
    ASSERT_NE(library, nullptr);
    // The precondition: the kernel has no checked flavour (shader validation cannot be had).
    std::string why;
    MTL::ComputePipelineState* checked = pipelineOrError(library, "optional_bias", MTL::ShaderValidationEnabled, &why);
    EXPECT_EQ(checked, nullptr) << "the kernel's checked flavour compiled: pick another construct it cannot hold";
    EXPECT_FALSE(why.empty());
    if (checked) checked->release();

    MTL::ComputePipelineState* state = pipeline(library, "optional_bias");
    library->release();
    ASSERT_NE(state, nullptr);
    constexpr unsigned kCount = 100;
    MTL::Buffer* out = device_->newBuffer(kCount * sizeof(float), MTL::ResourceStorageModeShared);
    const std::uint32_t useBias = 0;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(out, 0, 0);
    encoder->setBytes(&useBias, sizeof useBias, 2);
    encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(32, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
        << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
    const float* written = static_cast<const float*>(out->contents());
    for (unsigned i = 0; i < kCount; ++i) EXPECT_EQ(written[i], float(i)) << i;
    out->release();
    state->release();
}

// Kernels with one optional argument, as candle's in-place affine: it tests `in` for null.
constexpr const char* kOptionalArgumentFile = R"(
#include <metal_stdlib>
using namespace metal;
kernel void affine_in_place(device float* out [[buffer(0)]], device const float* in [[buffer(2)]],
                            uint i [[thread_position_in_grid]]) {
    float x = in ? in[i] : out[i];
    out[i] = x * 2.0f + 1.0f;
}
// Reads `bias` whether it is bound or not: `back` elements before thread i's.
kernel void add_bias(device float* out [[buffer(0)]], constant int& back [[buffer(1)]],
                     device const float* bias [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    out[i] += bias[int(i) - back];
}
)";

/// Whether `state`'s library compiled (or looked for) its shader-validation flavour.
bool validationFlavourAsked(MTL::ComputePipelineState* state) {
    rt::ComputePipelineState* pipeline = ns::implOf<rt::ComputePipelineState>(state);
    return pipeline->libraryOf(&pipeline->kernel())->validationFlavourAsked();
}

class OptionalArgumentTest : public DispatchTest, public ::testing::WithParamInterface<std::tuple<unsigned, unsigned>> {};

// Test that a kernel which tests an argument with nothing bound for null sees it null and runs
// with the right results (threads, threadgroup size); with a device process, as the plain
// kernel, without compiling a shader-validation flavour, in this process through the kernel's
// own, which holds no other kernel of its file.
TEST_P(OptionalArgumentTest, UnboundOptionalInputIsNull) {
    const auto [count, group] = GetParam();
    MTL::Library* library = compile(kOptionalArgumentFile);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "affine_in_place");
    library->release();
    ASSERT_NE(state, nullptr);
    GuardedBuffer out(device_, count * sizeof(float));
    for (unsigned i = 0; i < count; ++i) out.data<float>()[i] = float(i);
    EXPECT_EQ(dispatch(state, MTL::Size(count, 1, 1), MTL::Size(group, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) { out.bind(encoder, 0); }),
              MTL::CommandBufferStatusCompleted);
    for (unsigned i = 0; i < count; ++i) ASSERT_EQ(out.data<float>()[i], float(i) * 2.0f + 1.0f) << i;
    out.expectCanariesIntact();
    EXPECT_EQ(validationFlavourAsked(state), iso::DeviceProcess::forExecution() == nullptr);
    if (!iso::DeviceProcess::forExecution()) {
        // The kernel's own checked flavour: the file's other kernel is not compiled again.
        rt::ComputePipelineState* pipeline = ns::implOf<rt::ComputePipelineState>(state);
        std::string why;
        const mc_kernel* checked = pipeline->checkedKernel(&why);
        ASSERT_NE(checked, nullptr) << why;
        EXPECT_EQ(pipeline->libraryOf(checked)->kernelNames(), std::vector<std::string>{"affine_in_place"});
    }
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Grids, OptionalArgumentTest,
                         ::testing::Values(std::tuple{1u, 1u}, std::tuple{33u, 32u}, std::tuple{100u, 7u}));

// Test that reading through the one argument with nothing bound, at its start or a little
// before it, fails the command buffer as a GPU page fault naming the argument, and that the
// next command buffer runs; with a device process without the shader-validation flavour.
TEST_F(DispatchTest, UnboundArgumentAccessIsAPageFaultNamingIt) {
    MTL::Library* library = compile(kOptionalArgumentFile);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "add_bias");
    library->release();
    ASSERT_NE(state, nullptr);
    MTL::Buffer* out = buffer(64 * sizeof(float));
    for (const std::int32_t back : {0, 3}) {
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 0, 0);
        encoder->setBytes(&back, sizeof back, 1);
        encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(32, 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusError) << back;
        ASSERT_NE(commandBuffer->error(), nullptr);
        const std::string message = text(commandBuffer->error()->localizedDescription());
        EXPECT_EQ(commandBuffer->error()->code(), MTL::CommandBufferErrorPageFault) << message;
        EXPECT_NE(message.find("kernel 'add_bias' accessed argument 'bias' [[buffer(2)]], which has no buffer bound"),
                  std::string::npos)
            << back << ": " << message;
    }
    EXPECT_EQ(validationFlavourAsked(state), iso::DeviceProcess::forExecution() == nullptr);
    // The same pipeline with the argument bound runs.
    MTL::Buffer* bias = buffer(64 * sizeof(float));
    std::fill_n(static_cast<float*>(out->contents()), 64, 1.0f);
    std::fill_n(static_cast<float*>(bias->contents()), 64, 2.0f);
    const std::int32_t none = 0;
    EXPECT_EQ(dispatch(state, MTL::Size(64, 1, 1), MTL::Size(32, 1, 1),
                       [&](MTL::ComputeCommandEncoder* encoder) {
                           encoder->setBuffer(out, 0, 0);
                           encoder->setBytes(&none, sizeof none, 1);
                           encoder->setBuffer(bias, 0, 2);
                       }),
              MTL::CommandBufferStatusCompleted);
    for (unsigned i = 0; i < 64; ++i) ASSERT_EQ(static_cast<float*>(out->contents())[i], 3.0f) << i;
    bias->release();
    out->release();
    state->release();
}

// llama.cpp's mul_mv kernels declare a threadgroup argument some of them never touch, and
// bind 0 bytes to it (or nothing).
constexpr const char* kThreadgroupArgumentFile = R"(
#include <metal_stdlib>
using namespace metal;
kernel void ignores_scratch(device float* out [[buffer(0)]], threadgroup char* scratch [[threadgroup(0)]],
                            uint i [[thread_position_in_grid]]) {
    out[i] = float(i) * 2.0f;
}
)";

// Test that without the debug layer a threadgroup argument with 0 bytes, or none, bound runs,
// as on a Mac, when the kernel does not touch it. (One that touches it stores through a null
// pointer: in the device process that fails the command buffer as a page fault, as
// tests/isolation shows for such stores; in process it would end the test program.)
TEST_F(DispatchTest, ThreadgroupArgumentWithoutMemoryRunsWhenUntouched) {
    MTL::Library* library = compile(kThreadgroupArgumentFile);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* ignores = pipeline(library, "ignores_scratch");
    library->release();
    ASSERT_NE(ignores, nullptr);
    constexpr unsigned kCount = 37;
    MTL::Buffer* out = device_->newBuffer((kCount + 1) * sizeof(float), MTL::ResourceStorageModeShared);
    for (const bool setZero : {true, false}) {
        float* words = static_cast<float*>(out->contents());
        for (unsigned i = 0; i <= kCount; ++i) words[i] = -1.0f; // the last word is a canary
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(ignores);
        encoder->setBuffer(out, 0, 0);
        if (setZero) encoder->setThreadgroupMemoryLength(0, 0);
        encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(7, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
        for (unsigned i = 0; i < kCount; ++i) EXPECT_EQ(words[i], float(i) * 2.0f) << i;
        EXPECT_EQ(words[kCount], -1.0f) << "canary";
    }
    out->release();
    ignores->release();
}

} // namespace
} // namespace metalcpu::testing
