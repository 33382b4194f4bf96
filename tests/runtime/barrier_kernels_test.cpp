// Barrier kernels of the shapes the front end splits into work-item loops (variables that
// live across barriers, loops and ifs that hold barriers, a loop condition read from a
// per-thread variable, threads that return early, thread 0 among them) and some it leaves
// coroutines, run through plain and shader-validated pipelines (the two flavours are lowered
// alike), against a CPU model of each kernel, over group sizes of 1 thread, non-multiples of
// 32 and 1024.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// A tree sum of each group's values, with both neighbours read before either is written.
kernel void group_reduce(device const uint* in [[buffer(0)]],
                         device uint* sums [[buffer(1)]],
                         uint gid [[thread_position_in_grid]],
                         uint lid [[thread_index_in_threadgroup]],
                         uint size [[threads_per_threadgroup]],
                         uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    partial[lid] = in[gid];
    for (uint stride = 1; stride < size; stride *= 2) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint mine = partial[lid];
        uint other = lid + stride < size ? partial[lid + stride] : 0u;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid % (2 * stride) == 0) {
            partial[lid] = mine + other;
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0) {
        sums[group] = partial[0];
    }
}

// The same sum by a functor of a class template whose call operator holds the barriers, called
// through a local object (candle's reductions are written so).
template <typename T, uint N>
struct tree_sum {
    threadgroup T* partial;
    T operator()(T value, uint lid, uint size) {
        partial[lid] = value;
        for (uint stride = 1; stride < size; stride *= 2) {
            threadgroup_barrier(mem_flags::mem_threadgroup);
            T mine = partial[lid];
            T other = lid + stride < size ? partial[lid + stride] : T(0);
            threadgroup_barrier(mem_flags::mem_threadgroup);
            if (lid % (2 * stride) == 0) partial[lid] = mine + other;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        return partial[0];
    }
};
kernel void functor_reduce(device const uint* in [[buffer(0)]],
                           device uint* sums [[buffer(1)]],
                           uint gid [[thread_position_in_grid]],
                           uint lid [[thread_index_in_threadgroup]],
                           uint size [[threads_per_threadgroup]],
                           uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    tree_sum<uint, 1024> sum{partial};
    const uint total = sum(in[gid], lid, size);
    if (lid == 0) sums[group] = total;
}

// The same sum by SIMD-groups (simd_sum, then one partial per SIMD-group), its functor
// direct-initialised in a function named like it, as candle's reduce.metal writes
// `block_reducer<T, OP, N> reduce(shared);` inside `reduce`: the declaration must stay one
// when the collective calls are marked.
template <typename T, uint N>
struct simd_tree_sum {
    threadgroup T* partial;
    simd_tree_sum(threadgroup T* p) : partial(p) {}
    T operator()(T value, uint lid, uint size, uint width) {
        const T mine = simd_sum(value);
        if (lid % width == 0) partial[lid / width] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        T total = T(0);
        for (uint k = 0; k < (size + width - 1) / width; ++k) total += partial[k];
        return total;
    }
};
template <typename T, uint N>
T reduce(threadgroup T* partial, T value, uint lid, uint size, uint width) {
    simd_tree_sum<T, N> reduce(partial);
    return reduce(value, lid, size, width);
}
kernel void direct_functor_reduce(device const uint* in [[buffer(0)]],
                                  device uint* sums [[buffer(1)]],
                                  uint gid [[thread_position_in_grid]],
                                  uint lid [[thread_index_in_threadgroup]],
                                  uint size [[threads_per_threadgroup]],
                                  uint width [[threads_per_simdgroup]],
                                  uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[32];
    const uint total = reduce<uint, 32>(partial, in[gid], lid, size, width);
    if (lid == 0) sums[group] = total;
}

// Rounds of averaging with the right-hand neighbour; the loop runs while a per-thread
// counter (the same in every thread) says so.
kernel void smooth(device float* data [[buffer(0)]],
                   constant uint& rounds [[buffer(1)]],
                   uint gid [[thread_position_in_grid]],
                   uint lid [[thread_index_in_threadgroup]],
                   uint size [[threads_per_threadgroup]]) {
    threadgroup float row[1024];
    uint left = rounds;
    float mine = data[gid];
    while (left > 0) {
        row[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mine = 0.5f * (mine + row[(lid + 1) % size]);
        left--;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    data[gid] = mine;
}

// smooth as a loop left by `break` after its barriers: not split, run as coroutines.
kernel void smooth_with_break(device float* data [[buffer(0)]],
                              constant uint& rounds [[buffer(1)]],
                              uint gid [[thread_position_in_grid]],
                              uint lid [[thread_index_in_threadgroup]],
                              uint size [[threads_per_threadgroup]]) {
    threadgroup float row[1024];
    uint left = rounds;
    float mine = data[gid];
    for (;;) {
        if (left == 0) break;
        row[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mine = 0.5f * (mine + row[(lid + 1) % size]);
        left--;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    data[gid] = mine;
}

struct Running {
    float total;
    Running(float first) : total(first) {}
};

// A loop whose counter halves (`>>=`), a const sizing threadgroup memory, and a per-thread
// object with no default constructor, all across the barriers.
kernel void smooth_halving(device float* data [[buffer(0)]],
                           constant uint& rounds [[buffer(1)]],
                           uint gid [[thread_position_in_grid]],
                           uint lid [[thread_index_in_threadgroup]],
                           uint size [[threads_per_threadgroup]]) {
    const uint kRow = 1024;
    threadgroup float row[kRow];
    uint left = rounds;
    float mine = data[gid];
    Running sum(mine);
    while (left > 0) {
        row[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mine = 0.5f * (mine + row[(lid + 1) % size]);
        sum.total += mine;
        left >>= 1;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    data[gid] = sum.total;
}

// Each thread takes a ticket from a threadgroup counter after a barrier: a const initialised
// by a call, which must run in every thread.
kernel void tickets(device const uint* in [[buffer(0)]],
                    device uint* out [[buffer(1)]],
                    uint gid [[thread_position_in_grid]],
                    uint lid [[thread_index_in_threadgroup]],
                    uint group [[threadgroup_position_in_grid]],
                    uint size [[threads_per_threadgroup]]) {
    threadgroup atomic_uint count;
    if (lid == 0) atomic_store_explicit(&count, 0u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint ticket = atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed);
    out[group * size + ticket] = in[gid];
}

// Thread 0 returns before anything else, so the loop condition must come from a thread that
// is still running; the others exchange values in a do-while loop.
kernel void leader_leaves(device uint* out [[buffer(0)]],
                          constant uint& rounds [[buffer(1)]],
                          uint gid [[thread_position_in_grid]],
                          uint lid [[thread_index_in_threadgroup]],
                          uint size [[threads_per_threadgroup]]) {
    threadgroup uint cells[1024];
    if (lid == 0) return;
    uint left = rounds;
    uint acc = lid;
    do {
        cells[lid] = acc;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        acc += cells[lid == size - 1 ? 1 : lid + 1];
        --left;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    } while (left > 0);
    out[gid] = acc;
}

struct Pair { uint a; uint b; };

void bump(thread Pair& p, uint by) {
    p.a += by;
    p.b ^= by;
}

// Nested loops and an if/else that hold barriers; a struct changed through a reference and a
// device pointer, both living across the barriers.
kernel void nested(device uint* out [[buffer(0)]],
                   constant uint& outer [[buffer(1)]],
                   uint gid [[thread_position_in_grid]],
                   uint lid [[thread_index_in_threadgroup]],
                   uint size [[threads_per_threadgroup]]) {
    constexpr uint kLanes = 4;
    threadgroup uint shared[1024];
    Pair p = {lid, 0u};
    device uint* mine = out + gid * 2;
    for (uint i = 0; i < outer; ++i) {
        for (uint j = 0; j < kLanes; ++j) {
            shared[lid] = p.a + j;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            bump(p, shared[(lid + j) % size]);
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (outer > 1) {
            shared[lid] = p.b;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            p.a += shared[size - 1 - lid];
            threadgroup_barrier(mem_flags::mem_threadgroup);
        } else {
            p.a += 1;
        }
    }
    mine[0] = p.a;
    mine[1] = p.b;
}
// Issue 10's two work-item-loop bugs, both a piece the planner could not split then (a
// per-thread C array; two variables in one declaration) before a loop that holds barriers,
// whose header check once overwrote the failure: the piece then ran once per group, outside
// the loops over the threads. Both are work-item loops now, the array kept in its slots.
kernel void per_thread_array(device float* data [[buffer(0)]],
                             constant uint& rounds [[buffer(1)]],
                             uint gid [[thread_position_in_grid]],
                             uint lid [[thread_index_in_threadgroup]],
                             uint size [[threads_per_threadgroup]]) {
    threadgroup float row[1024];
    float history[4];
    for (uint h = 0; h < 4; ++h) history[h] = data[gid] + float(h);
    float mine = data[gid];
    for (uint r = 0; r < rounds; ++r) {
        row[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mine = 0.5f * (row[(lid + 1) % size] + history[r % 4]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    data[gid] = mine;
}

// A group returns before a loop that holds two barriers (the shape of a flash-attention
// kernel), and the running maximum is declared with the value.
kernel void early_group_exit(device float* data [[buffer(0)]],
                             constant uint& rounds [[buffer(1)]],
                             uint gid [[thread_position_in_grid]],
                             uint lid [[thread_index_in_threadgroup]],
                             uint size [[threads_per_threadgroup]],
                             uint group [[threadgroup_position_in_grid]]) {
    threadgroup float row[1024];
    if (group == 1) return;
    float mine = data[gid], top = -1e30f;
    for (uint r = 0; r < rounds; ++r) {
        row[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        top = max(top, row[(lid + 1) % size]);
        mine = 0.5f * (mine + row[(lid + 1) % size]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    data[gid] = mine + top;
}
)";

constexpr unsigned kGroups = 3;

// CPU models of the kernels, one group of `size` threads at a time.

std::vector<std::uint32_t> groupReduce(const std::vector<std::uint32_t>& in, unsigned size) {
    std::vector<std::uint32_t> sums(kGroups, 0);
    for (unsigned g = 0; g < kGroups; ++g)
        for (unsigned l = 0; l < size; ++l) sums[g] += in[g * size + l];
    return sums;
}

std::vector<float> smooth(std::vector<float> data, unsigned rounds, unsigned size) {
    for (unsigned g = 0; g < kGroups; ++g) {
        float* mine = data.data() + g * size;
        std::vector<float> row(size);
        for (unsigned r = 0; r < rounds; ++r) {
            for (unsigned l = 0; l < size; ++l) row[l] = mine[l];
            for (unsigned l = 0; l < size; ++l) mine[l] = 0.5f * (mine[l] + row[(l + 1) % size]);
        }
    }
    return data;
}

std::vector<float> smoothHalving(std::vector<float> data, unsigned rounds, unsigned size) {
    for (unsigned g = 0; g < kGroups; ++g) {
        float* mine = data.data() + g * size;
        std::vector<float> row(size), sum(mine, mine + size);
        for (unsigned left = rounds; left > 0; left >>= 1) {
            for (unsigned l = 0; l < size; ++l) row[l] = mine[l];
            for (unsigned l = 0; l < size; ++l) {
                mine[l] = 0.5f * (mine[l] + row[(l + 1) % size]);
                sum[l] += mine[l];
            }
        }
        std::copy(sum.begin(), sum.end(), mine);
    }
    return data;
}

std::vector<std::uint32_t> leaderLeaves(unsigned rounds, unsigned size) {
    std::vector<std::uint32_t> out(kGroups * size, kCanary);
    for (unsigned g = 0; g < kGroups; ++g) {
        std::vector<std::uint32_t> acc(size), cells(size);
        for (unsigned l = 1; l < size; ++l) acc[l] = l;
        for (unsigned r = 0; r < rounds; ++r) {
            for (unsigned l = 1; l < size; ++l) cells[l] = acc[l];
            for (unsigned l = 1; l < size; ++l) acc[l] += cells[l == size - 1 ? 1 : l + 1];
        }
        for (unsigned l = 1; l < size; ++l) out[g * size + l] = acc[l];
    }
    return out;
}

std::vector<float> perThreadArray(std::vector<float> data, unsigned rounds, unsigned size) {
    for (unsigned g = 0; g < kGroups; ++g) {
        float* mine = data.data() + g * size;
        std::vector<float> first(mine, mine + size), row(size);
        for (unsigned r = 0; r < rounds; ++r) {
            for (unsigned l = 0; l < size; ++l) row[l] = mine[l];
            for (unsigned l = 0; l < size; ++l) mine[l] = 0.5f * (row[(l + 1) % size] + (first[l] + float(r % 4)));
        }
    }
    return data;
}

std::vector<float> earlyGroupExit(std::vector<float> data, unsigned rounds, unsigned size) {
    for (unsigned g = 0; g < kGroups; ++g) {
        if (g == 1) continue;
        float* mine = data.data() + g * size;
        std::vector<float> row(size), top(size, -1e30f);
        for (unsigned r = 0; r < rounds; ++r) {
            for (unsigned l = 0; l < size; ++l) row[l] = mine[l];
            for (unsigned l = 0; l < size; ++l) {
                top[l] = std::max(top[l], row[(l + 1) % size]);
                mine[l] = 0.5f * (mine[l] + row[(l + 1) % size]);
            }
        }
        for (unsigned l = 0; l < size; ++l) mine[l] += top[l];
    }
    return data;
}

std::vector<std::uint32_t> nested(unsigned outer, unsigned size) {
    std::vector<std::uint32_t> out(kGroups * size * 2);
    for (unsigned g = 0; g < kGroups; ++g) {
        std::vector<std::uint32_t> a(size), b(size, 0), shared(size);
        for (unsigned l = 0; l < size; ++l) a[l] = l;
        for (unsigned i = 0; i < outer; ++i) {
            for (unsigned j = 0; j < 4; ++j) {
                for (unsigned l = 0; l < size; ++l) shared[l] = a[l] + j;
                for (unsigned l = 0; l < size; ++l) {
                    std::uint32_t by = shared[(l + j) % size];
                    a[l] += by;
                    b[l] ^= by;
                }
            }
            if (outer > 1) {
                for (unsigned l = 0; l < size; ++l) shared[l] = b[l];
                for (unsigned l = 0; l < size; ++l) a[l] += shared[size - 1 - l];
            } else {
                for (unsigned l = 0; l < size; ++l) a[l] += 1;
            }
        }
        for (unsigned l = 0; l < size; ++l) {
            out[(g * size + l) * 2] = a[l];
            out[(g * size + l) * 2 + 1] = b[l];
        }
    }
    return out;
}

/// (threads per group, shader validation on)
using BarrierCase = std::tuple<unsigned, bool>;

class BarrierKernels : public MetalTest, public ::testing::WithParamInterface<BarrierCase> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    void SetUp() override {
        MetalTest::SetUp();
        if (std::get<1>(GetParam())) silent_.emplace();
    }
    void TearDown() override {
        silent_.reset();
        MetalTest::TearDown();
    }

    unsigned size() const { return std::get<0>(GetParam()); }

    /// The pipeline for `name`, with shader validation as the parameter says.
    MTL::ComputePipelineState* kernel(const char* name) { return pipeline(library_, name, std::get<1>(GetParam())); }

    /// Runs `state` over kGroups whole groups of size() threads with two buffers bound.
    void run(MTL::ComputePipelineState* state, GuardedBuffer& first, GuardedBuffer* second,
             std::uint32_t constant) {
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        first.bind(encoder, 0);
        if (second) second->bind(encoder, 1);
        else encoder->setBytes(&constant, sizeof constant, 1);
        encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(size(), 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(MetalTest::run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
    }

    using SmoothingModel = std::vector<float> (*)(std::vector<float>, unsigned rounds, unsigned size);
    /// Runs a smoothing kernel over data in place for `rounds` and compares with its CPU model.
    void smoothing(const char* name, std::uint32_t rounds, SmoothingModel model);

    static MTL::Library* library_;

    /// Runs `name`, a kernel that writes each group's sum of its input, and checks the sums
    /// and the canaries after them.
    void expectGroupSums(const char* name) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        const unsigned count = kGroups * size();
        std::vector<std::uint32_t> values(count);
        for (unsigned i = 0; i < count; ++i) values[i] = i * 2654435761u >> 8;
        GuardedBuffer in(device_, count * 4), sums(device_, kGroups * 4);
        std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
        run(state, in, &sums, 0);
        const std::vector<std::uint32_t> expected = groupReduce(values, size());
        for (unsigned g = 0; g < kGroups; ++g) EXPECT_EQ(sums.data<std::uint32_t>()[g], expected[g]) << "group " << g;
        sums.expectCanariesIntact();
        state->release();
    }

private:
    /// The kernels are correct: validated, any report fails the test that ran them.
    std::optional<FailOnValidationReports> silent_;
};
MTL::Library* BarrierKernels::library_ = nullptr;

// Test a reduction whose loop holds two barriers and whose values live across one.
TEST_P(BarrierKernels, GroupReduce) { expectGroupSums("group_reduce"); }

// Test the same reduction with its barriers in a functor's call operator, called through a
// local of a class template's type: the front end must see the barriers (without them the
// kernel would run as barrier-free and its command buffer fail).
TEST_P(BarrierKernels, BarriersInAFunctorsCallOperator) { expectGroupSums("functor_reduce"); }

// Test the same by SIMD-groups through a direct-initialised local functor named like the
// function it sits in (`simd_tree_sum<T, N> reduce(partial);` in `reduce`).
TEST_P(BarrierKernels, DirectInitialisedFunctorNamedLikeItsFunction) { expectGroupSums("direct_functor_reduce"); }

// Test a loop whose condition is a per-thread variable that the loop body changes, split
// into work-item loops and (left by a break) as coroutines.
TEST_P(BarrierKernels, LoopConditionFromThreadVariable) {
    for (const char* name : {"smooth", "smooth_with_break"}) {
        SCOPED_TRACE(name);
        smoothing(name, 5, smooth);
    }
}

// Test a counter that halves each round, a const sizing threadgroup memory and a per-thread
// object without a default constructor.
TEST_P(BarrierKernels, HalvingCounterAndObjects) { smoothing("smooth_halving", 8, smoothHalving); }

void BarrierKernels::smoothing(const char* name, std::uint32_t rounds, SmoothingModel model) {
    MTL::ComputePipelineState* state = kernel(name);
    ASSERT_NE(state, nullptr);
    const unsigned count = kGroups * size();
    std::vector<float> values(count);
    for (unsigned i = 0; i < count; ++i) values[i] = float(i % 13) * 1.5f - 4.0f;
    GuardedBuffer data(device_, count * 4);
    std::copy(values.begin(), values.end(), data.data<float>());
    run(state, data, nullptr, rounds);
    const std::vector<float> expected = model(values, rounds, size());
    for (unsigned i = 0; i < count; ++i) EXPECT_FLOAT_EQ(data.data<float>()[i], expected[i]) << "thread " << i;
    data.expectCanariesIntact();
    state->release();
}

// Test that a const initialised by an atomic runs in every thread: each group's values land
// in its slice in some order, each exactly once.
TEST_P(BarrierKernels, ConstFromAtomicPerThread) {
    MTL::ComputePipelineState* state = kernel("tickets");
    ASSERT_NE(state, nullptr);
    const unsigned count = kGroups * size();
    GuardedBuffer in(device_, count * 4), out(device_, count * 4);
    for (unsigned i = 0; i < count; ++i) in.data<std::uint32_t>()[i] = i * 7 + 1;
    run(state, in, &out, 0);
    for (unsigned g = 0; g < kGroups; ++g) {
        std::vector<std::uint32_t> got(out.data<std::uint32_t>() + g * size(), out.data<std::uint32_t>() + (g + 1) * size());
        std::vector<std::uint32_t> expected(in.data<std::uint32_t>() + g * size(), in.data<std::uint32_t>() + (g + 1) * size());
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, expected) << "group " << g;
    }
    out.expectCanariesIntact();
    state->release();
}

// Test that thread 0 returning first neither stops the loop nor gives it a wrong trip count,
// and writes nothing.
TEST_P(BarrierKernels, FirstThreadReturnsBeforeLoop) {
    MTL::ComputePipelineState* state = kernel("leader_leaves");
    ASSERT_NE(state, nullptr);
    GuardedBuffer out(device_, kGroups * size() * 4);
    run(state, out, nullptr, 3);
    const std::vector<std::uint32_t> expected = leaderLeaves(3, size());
    for (unsigned i = 0; i < kGroups * size(); ++i)
        EXPECT_EQ(out.data<std::uint32_t>()[i], expected[i]) << "thread " << i;
    out.expectCanariesIntact();
    state->release();
}

// Test nested loops and both branches of an if that hold barriers, with a struct and a
// device pointer living across them.
TEST_P(BarrierKernels, NestedLoopsAndBranches) {
    for (std::uint32_t outer : {1u, 3u}) {
        MTL::ComputePipelineState* state = kernel("nested");
        ASSERT_NE(state, nullptr);
        GuardedBuffer out(device_, kGroups * size() * 8);
        run(state, out, nullptr, outer);
        const std::vector<std::uint32_t> expected = nested(outer, size());
        for (unsigned i = 0; i < kGroups * size() * 2; ++i)
            EXPECT_EQ(out.data<std::uint32_t>()[i], expected[i]) << "word " << i << ", outer " << outer;
        out.expectCanariesIntact();
        state->release();
    }
}

// Test the per-thread array and the early group exit before a loop with two barriers
// (issue 10's miscompile and invalid code): each thread keeps its own array and values.
TEST_P(BarrierKernels, ArrayAndDeclaratorsBeforeALoop) {
    smoothing("per_thread_array", 6, perThreadArray);
    smoothing("early_group_exit", 5, earlyGroupExit);
}

// Test which lowering each kernel gets, in both flavours: every shape above is split into
// work-item loops but smooth_with_break (a `break` after its barriers), which stays a
// coroutine. Falling back (to coroutines, or to fibers) still
// computes the right values, so only this notices a planner change that makes a kernel slower.
TEST_P(BarrierKernels, Lowerings) {
    expectLowerings({{"group_reduce", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"smooth", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"smooth_with_break", MC_KERNEL_COROUTINES},
                     {"smooth_halving", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"tickets", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"leader_leaves", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"nested", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"per_thread_array", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"early_group_exit", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

std::string barrierCaseName(const ::testing::TestParamInfo<BarrierCase>& info) {
    return "group" + std::to_string(std::get<0>(info.param)) + (std::get<1>(info.param) ? "_validated" : "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, BarrierKernels,
                         ::testing::Combine(::testing::Values(1u, 2u, 7u, 33u, 64u, 1024u), ::testing::Bool()),
                         barrierCaseName);

} // namespace
} // namespace metalcpu::testing
