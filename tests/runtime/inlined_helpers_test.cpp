// Kernels whose barriers and SIMD-group functions sit in helper functions, which the front end
// inlines before the barrier split (passes/helper_inlining.h) so that they run as work-item
// loops instead of fibers: a barrier helper template, a helper that returns a SIMD-group
// function's value after statements of its own, helpers calling helpers, a helper called twice,
// an array parameter, a helper calling through a function template parameter, a helper's
// early return ending the kernel (both with twins left on fibers), a switch around barriers
// made an if chain (its twin left a switch), and SIMD-group functions inside expressions,
// which it hoists into statements of their own (passes/collective_hoisting.h) — the switch
// and hoisting stages of the same pass. Against CPU models, over groups of 1,
// 7, 32, 33, 64 and 1024 threads, plain and shader-validated, canaries after every output; the
// array kernel on a grid the groups do not divide.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// A tree sum of the group's values into `value`, every thread's.
template <typename T, uint N>
void tree_sum(threadgroup T* partial, thread T& value, uint lid, const uint size) {
    partial[lid] = value;
    for (uint stride = 1; stride < size; stride *= 2) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        T other = lid + stride < size ? partial[lid + stride] : T(0);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid % (2 * stride) == 0) partial[lid] = partial[lid] + other;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    value = partial[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
}

kernel void helper_sum(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                       uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                       uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    uint v = in[gid];
    tree_sum<uint, 1024>(partial, v, lid, size);
    if (lid == 0) sums[group] = v;
}

// A parameter shadowed by a local of a nested block (llama.cpp's flash attention shadows its
// `k` with loop variables). Both references are given the kernel's `x`, which each then stands
// for: the local must not become `x` too. The group's sum, times 5.
void scaled_sum(threadgroup uint* partial, thread uint& v, thread uint& w, uint lid, uint size) {
    tree_sum<uint, 1024>(partial, v, lid, size);
    if (lid == 0) { uint v = 5u; w = w * v; }
}
kernel void shadowed_sums(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                          uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                          uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    uint x = in[gid];
    scaled_sum(partial, x, x, lid, size);
    if (lid == 0) sums[group] = x;
}

// Two sums, the second of the first's result (size * sum), through a helper calling the other.
void sum_twice(threadgroup uint* partial, thread uint& v, uint lid, uint size) {
    tree_sum<uint, 1024>(partial, v, lid, size);
    tree_sum<uint, 1024>(partial, v, lid, size);
}
kernel void nested_sums(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                        uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                        uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    uint v = in[gid];
    sum_twice(partial, v, lid, size);
    if (lid == 0) sums[group] = v;
}

// The SIMD-group's total of a value made in the helper; the totals summed through memory.
uint simdgroup_total(uint x, uint salt) {
    uint w = x ^ salt;
    w = w ^ salt;
    return simd_sum(w);
}
kernel void simd_helper_sum(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                            uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                            uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]],
                            uint lane [[thread_index_in_simdgroup]], uint sg [[simdgroup_index_in_threadgroup]],
                            uint width [[threads_per_simdgroup]]) {
    threadgroup uint totals[1024];
    uint t = simdgroup_total(in[gid], 0x5a5au);
    if (lane == 0) totals[sg] = t;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0) {
        uint s = 0;
        for (uint i = 0; i < (size + width - 1) / width; ++i) s += totals[i];
        sums[group] = s;
    }
}

// SIMD-group functions inside expressions, hoisted into statements of their own: an operand,
// an element's value, an if's condition and the value of a branch under it.
kernel void hoisted_collectives(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                                uint gid [[thread_position_in_grid]]) {
    uint v = in[gid];
    uint r[2];
    r[0] = simd_sum(v) * 2u + 1u;
    r[1] = 7u;
    if (simd_all(v % 3u != 0u)) {
        r[1] = simd_max(v);
    }
    out[gid] = r[0] ^ (r[1] << 1) ^ simd_broadcast_first(v);
}

// A loop with a SIMD-group function whose bound differs per SIMD-group (llama.cpp's k-quant
// mul_mv writes its rows so): Metal needs it uniform across each SIMD-group only, so it cannot
// run once per group on the first thread's value; it is a divergent loop.
kernel void per_simdgroup_rows(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                               constant uint& n [[buffer(2)]], uint gid [[thread_position_in_grid]],
                               ushort lane [[thread_index_in_simdgroup]], ushort sg [[simdgroup_index_in_threadgroup]],
                               uint group [[threadgroup_position_in_grid]]) {
    uint v = in[gid];
    const int first_row = int(sg) * 2;
    for (int row = 0; row < 2 && first_row + row < int(n); ++row) {
        uint t = simd_sum(v + uint(row));
        if (lane == 0) out[group * 64 + first_row + row] = t;
    }
}

// An array parameter is a pointer to the caller's array: the helper writes through it.
void exchange(thread uint vals[2], threadgroup uint* tile, uint lid, uint partner_lid) {
    tile[lid] = vals[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    vals[1] = tile[partner_lid];
}
kernel void array_parameter(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                            constant uint& n [[buffer(2)]],
                            uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                            uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint tile[1024];
    uint vals[2];
    vals[0] = gid < n ? in[gid] : 0u;
    vals[1] = 7;
    const uint here = min(size, n - group * size); // the group's threads in the grid
    const uint partner_lid = (lid ^ 1u) < here ? lid ^ 1u : lid;
    exchange(vals, tile, lid, partner_lid);
    if (gid < n) out[gid] = vals[1] * 3u + vals[0];
}

// A helper that calls through a function template parameter of its own (llama.cpp's `deq_t4`),
// from a kernel template that passes its own parameter on, instantiated twice. Its twin on
// fibers gives it an overloaded name, which the inliner refuses (called by name, another
// overload might be chosen).
uint scramble(uint x) { return x * 3u + 1u; }
uint flip(uint x) { return x ^ 0xffu; }
uint scramble_overloaded(uint x) { return x * 3u + 1u; }
half scramble_overloaded(half x) { return x; }
template <uint (*op)(uint)>
void mapped_sum(threadgroup uint* partial, thread uint& v, uint lid, uint size) {
    v = op(v);
    tree_sum<uint, 1024>(partial, v, lid, size);
}
template <uint (*op)(uint)>
kernel void mapped_sums(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                        uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                        uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    uint v = in[gid];
    mapped_sum<op>(partial, v, lid, size);
    if (lid == 0) sums[group] = v;
}
template [[host_name("mapped_sums_scramble")]] kernel void mapped_sums<scramble>(
    device const uint*, device uint*, uint, uint, uint, uint);
template [[host_name("mapped_sums_flip")]] kernel void mapped_sums<flip>(
    device const uint*, device uint*, uint, uint, uint, uint);
kernel void mapped_sums_on_fibers(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                                  uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                                  uint size [[threads_per_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    uint v = in[gid];
    mapped_sum<scramble_overloaded>(partial, v, lid, size);
    if (lid == 0) sums[group] = v;
}

// A void helper that returns early, called as the kernel's last statement (candle's argsort):
// the threads past `n` leave before the barrier; the first sums what the others stored. Its
// twin on fibers returns after the call, which the inliner then refuses.
void sum_first(threadgroup uint* partial, device const uint* in, device uint* sums, uint n, uint lid, uint gid,
               uint group) {
    if (lid >= n) return;
    partial[lid] = in[gid] * 5u;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0) {
        uint s = 0;
        for (uint i = 0; i < n; ++i) s += partial[i];
        sums[group] = s;
    }
}
kernel void early_return_sums(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                              constant uint& n [[buffer(2)]], uint gid [[thread_position_in_grid]],
                              uint lid [[thread_index_in_threadgroup]], uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    sum_first(partial, in, sums, n, lid, gid, group);
}
kernel void early_return_sums_on_fibers(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],
                                        constant uint& n [[buffer(2)]], uint gid [[thread_position_in_grid]],
                                        uint lid [[thread_index_in_threadgroup]],
                                        uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint partial[1024];
    sum_first(partial, in, sums, n, lid, gid, group);
    return;
}

// A switch around barriers (llama.cpp's `switch (args.nr0)`), made an if chain: a helper in one
// group, two labels on another, a default. Its twin writes `1L`, which the rewrite does not
// take: it stays a switch.
#define SWITCH_SUMS(NAME, ONE)                                                                              \
    kernel void NAME(device const uint* in [[buffer(0)]], device uint* sums [[buffer(1)]],                  \
                     constant uint& which [[buffer(2)]], uint gid [[thread_position_in_grid]],              \
                     uint lid [[thread_index_in_threadgroup]], uint size [[threads_per_threadgroup]],       \
                     uint group [[threadgroup_position_in_grid]]) {                                          \
        threadgroup uint partial[1024];                                                                      \
        uint v = in[gid];                                                                                    \
        switch (which) {                                                                                     \
        case 0: tree_sum<uint, 1024>(partial, v, lid, size); break;                                          \
        case ONE: case 2: { v = v * 2u; tree_sum<uint, 1024>(partial, v, lid, size); } break;               \
        default: v = 7u; threadgroup_barrier(mem_flags::mem_threadgroup); break;                             \
        }                                                                                                    \
        if (lid == 0) sums[group] = v;                                                                       \
    }
SWITCH_SUMS(switch_sums, 1)
SWITCH_SUMS(switch_sums_kept, 1L)
)";

constexpr unsigned kGroups = 3;

class InlinedHelpers : public ShapedKernelTest<kKernels> {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        if (validated()) silent_.emplace();
    }
    void TearDown() override {
        silent_.reset();
        MetalTest::TearDown();
    }

    static std::vector<std::uint32_t> input(unsigned count) {
        std::vector<std::uint32_t> values(count);
        for (unsigned i = 0; i < count; ++i) values[i] = i * 2654435761u >> 8;
        return values;
    }

    /// Runs `name` over kGroups whole groups and checks each group's sum of `op` of its values
    /// times `factor`.
    void expectGroupSums(const char* name, std::uint32_t factor, std::uint32_t (*op)(std::uint32_t) = nullptr) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        const unsigned count = kGroups * groupSize();
        const std::vector<std::uint32_t> values = input(count);
        GuardedBuffer in(device_, count * 4), sums(device_, kGroups * 4);
        std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        in.bind(encoder, 0);
        sums.bind(encoder, 1);
        encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        for (unsigned g = 0; g < kGroups; ++g) {
            std::uint32_t sum = 0;
            for (unsigned i = 0; i < groupSize(); ++i) {
                const std::uint32_t v = values[g * groupSize() + i];
                sum += op ? op(v) : v;
            }
            EXPECT_EQ(sums.data<std::uint32_t>()[g], sum * factor) << name << ", group " << g;
        }
        sums.expectCanariesIntact();
        state->release();
    }

    /// Runs `state` over kGroups whole groups with `in` at index 0, `out` at 1 and `value` at 2;
    /// whether the command buffer completed.
    bool runGroups(MTL::ComputePipelineState* state, GuardedBuffer& in, GuardedBuffer& out, std::uint32_t value) {
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        in.bind(encoder, 0);
        out.bind(encoder, 1);
        encoder->setBytes(&value, sizeof value, 2);
        encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        return run(commands) == MTL::CommandBufferStatusCompleted;
    }

private:
    std::optional<FailOnValidationReports> silent_;
};

// Test a barrier helper template called with its template arguments written.
TEST_P(InlinedHelpers, BarrierHelper) { expectGroupSums("helper_sum", 1); }

// Test a helper that calls the barrier helper twice (each call's variables its own).
TEST_P(InlinedHelpers, NestedHelperCalledTwice) { expectGroupSums("nested_sums", groupSize()); }

// Test a helper whose local shadows a parameter that, as another, is the kernel's variable.
TEST_P(InlinedHelpers, LocalShadowingParameter) { expectGroupSums("shadowed_sums", 5); }

// Test a helper that returns a SIMD-group function's value after statements of its own.
TEST_P(InlinedHelpers, CollectiveHelper) { expectGroupSums("simd_helper_sum", 1); }

// Test a helper calling through its function template parameter, from two instantiations of a
// kernel template that passes its own on, and from a kernel that keeps the fibers.
TEST_P(InlinedHelpers, FunctionTemplateArguments) {
    const auto scramble = [](std::uint32_t x) { return x * 3u + 1u; };
    expectGroupSums("mapped_sums_scramble", 1, scramble);
    expectGroupSums("mapped_sums_flip", 1, [](std::uint32_t x) { return x ^ 0xffu; });
    expectGroupSums("mapped_sums_on_fibers", 1, scramble);
}

// Test a helper's early return as the kernel's, against its twin on fibers: threads past `n`
// (none, some, all but one) leave before the barrier; with n = 0 nothing is written.
TEST_P(InlinedHelpers, EarlyReturnEndingTheKernel) {
    const unsigned count = kGroups * groupSize();
    const std::vector<std::uint32_t> values = input(count);
    for (const char* name : {"early_return_sums", "early_return_sums_on_fibers"}) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        for (std::uint32_t n : {0u, 1u, (groupSize() + 1) / 2, groupSize()}) {
            GuardedBuffer in(device_, count * 4), sums(device_, kGroups * 4);
            std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
            std::fill(sums.data<std::uint32_t>(), sums.data<std::uint32_t>() + kGroups, 0xdeadbeefu);
            ASSERT_TRUE(runGroups(state, in, sums, n));
            for (unsigned g = 0; g < kGroups; ++g) {
                std::uint32_t expected = n == 0 ? 0xdeadbeefu : 0u;
                for (unsigned i = 0; i < n; ++i) expected += values[g * groupSize() + i] * 5u;
                EXPECT_EQ(sums.data<std::uint32_t>()[g], expected) << name << ", n " << n << ", group " << g;
            }
            sums.expectCanariesIntact();
        }
        state->release();
    }
}

// Test a switch around barriers made an if chain, against its twin left a switch: each case,
// the two labels of one group, and the default.
TEST_P(InlinedHelpers, SwitchAsIfChain) {
    const unsigned count = kGroups * groupSize();
    const std::vector<std::uint32_t> values = input(count);
    for (const char* name : {"switch_sums", "switch_sums_kept"}) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        for (std::uint32_t which : {0u, 1u, 2u, 3u}) {
            GuardedBuffer in(device_, count * 4), sums(device_, kGroups * 4);
            std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
            ASSERT_TRUE(runGroups(state, in, sums, which));
            for (unsigned g = 0; g < kGroups; ++g) {
                std::uint32_t sum = 0;
                for (unsigned i = 0; i < groupSize(); ++i) sum += values[g * groupSize() + i];
                const std::uint32_t expected = which == 0 ? sum : which < 3 ? sum * 2u : 7u;
                EXPECT_EQ(sums.data<std::uint32_t>()[g], expected) << name << ", case " << which << ", group " << g;
            }
            sums.expectCanariesIntact();
        }
        state->release();
    }
}

// Test an array parameter written through, on a grid the groups do not divide.
TEST_P(InlinedHelpers, ArrayParameter) {
    MTL::ComputePipelineState* state = kernel("array_parameter");
    ASSERT_NE(state, nullptr);
    const unsigned n = groupSize() * 5 / 2 + 1;
    const std::vector<std::uint32_t> values = input(n);
    GuardedBuffer in(device_, n * 4), out(device_, n * 4);
    std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    in.bind(encoder, 0);
    out.bind(encoder, 1);
    encoder->setBytes(&n, sizeof n, 2);
    dispatch(state, encoder, commands, n);
    for (unsigned i = 0; i < n; ++i) {
        // The partner is the other thread of the pair in the group, when that is in the grid.
        const unsigned group = i / groupSize(), lid = i % groupSize();
        const unsigned here = std::min(groupSize(), n - group * groupSize());
        const std::uint32_t partner = (lid ^ 1u) < here ? values[group * groupSize() + (lid ^ 1u)] : values[i];
        EXPECT_EQ(out.data<std::uint32_t>()[i], partner * 3u + values[i]) << "thread " << i;
    }
    out.expectCanariesIntact();
    state->release();
}

// Test collectives hoisted out of expressions, against the SIMD-groups of 32 lanes (partial at
// each group's end).
TEST_P(InlinedHelpers, HoistedCollectives) {
    MTL::ComputePipelineState* state = kernel("hoisted_collectives");
    ASSERT_NE(state, nullptr);
    const unsigned count = kGroups * groupSize();
    const std::vector<std::uint32_t> values = input(count);
    GuardedBuffer in(device_, count * 4), out(device_, count * 4);
    std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    in.bind(encoder, 0);
    out.bind(encoder, 1);
    encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    for (unsigned i = 0; i < count; ++i) {
        const unsigned groupStart = i / groupSize() * groupSize();
        const unsigned first = groupStart + (i - groupStart) / 32 * 32;
        const unsigned last = std::min(first + 32, groupStart + groupSize());
        std::uint32_t sum = 0, max = 0;
        bool all = true;
        for (unsigned j = first; j < last; ++j) {
            sum += values[j];
            max = std::max(max, values[j]);
            all = all && values[j] % 3u != 0u;
        }
        const std::uint32_t expected = (sum * 2u + 1u) ^ ((all ? max : 7u) << 1) ^ values[first];
        EXPECT_EQ(out.data<std::uint32_t>()[i], expected) << "thread " << i;
    }
    out.expectCanariesIntact();
    state->release();
}

// Test rows written per SIMD-group under a bound that differs per SIMD-group: only rows below
// `n` are written, each with its SIMD-group's sum.
TEST_P(InlinedHelpers, LoopBoundPerSimdgroup) {
    MTL::ComputePipelineState* state = kernel("per_simdgroup_rows");
    ASSERT_NE(state, nullptr);
    const unsigned count = kGroups * groupSize();
    const std::vector<std::uint32_t> values = input(count);
    for (std::uint32_t n : {3u, 64u}) {
        GuardedBuffer in(device_, count * 4), out(device_, kGroups * 64 * 4);
        std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
        std::fill(out.data<std::uint32_t>(), out.data<std::uint32_t>() + kGroups * 64, 0xdeadbeefu);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        in.bind(encoder, 0);
        out.bind(encoder, 1);
        encoder->setBytes(&n, sizeof n, 2);
        encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        const unsigned simdgroups = (groupSize() + 31) / 32;
        for (unsigned g = 0; g < kGroups; ++g)
            for (unsigned r = 0; r < 64; ++r) {
                std::uint32_t expected = 0xdeadbeefu;
                if (r < n && r / 2 < simdgroups) {
                    expected = 0;
                    for (unsigned j = r / 2 * 32; j < std::min(r / 2 * 32 + 32, groupSize()); ++j)
                        expected += values[g * groupSize() + j] + r % 2;
                }
                EXPECT_EQ(out.data<std::uint32_t>()[g * 64 + r], expected) << "n " << n << ", group " << g << ", row " << r;
            }
        out.expectCanariesIntact();
    }
    state->release();
}

// Test that every kernel above runs as work-item loops (on fibers they would compute the same),
// but the twins on fibers, which keep them, and the switch kept, a coroutine.
TEST_P(InlinedHelpers, Lowerings) {
    expectLowerings({{"helper_sum", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"nested_sums", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"shadowed_sums", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"simd_helper_sum", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"array_parameter", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"hoisted_collectives", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"mapped_sums_scramble", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"mapped_sums_flip", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"mapped_sums_on_fibers", MC_KERNEL_USES_BARRIERS},
                     {"early_return_sums", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"early_return_sums_on_fibers", MC_KERNEL_USES_BARRIERS},
                     {"switch_sums", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"switch_sums_kept", MC_KERNEL_COROUTINES},
                     {"per_simdgroup_rows", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Shapes, InlinedHelpers,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 64u, 1024u), ::testing::Bool()),
                         kernelShapeName);

} // namespace
} // namespace metalcpu::testing
