// Static threadgroup memory per kernel instantiation, as Apple's compiler sizes it per compiled
// function: each instantiation of a kernel template reports (staticThreadgroupMemoryLength)
// and is checked against the 32 KiB limit by its own variables, and variables in a branch
// whose condition is a constant false for the instantiation count for nothing (MLX's
// block_sort: `if (ARG_SORT) { two arrays } else { one }`; a specialised function constant;
// an unqualified `is_same_v`, a loop's body, a switch's case).
// Branches decided at run time count both. Groups of 1, 33, 64 and 1024 threads, a last
// group cut by the grid; plain and shader-validated.
#include "guarded_buffer.h"
#include "metal_test.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// shape.x: threads in the grid, shape.y: threads per whole group. Each thread fills every
// shape.y-th element of the group's tile from its own, then reads two elements another
// thread of its group filled: the first and the last of that thread's.
template <int N>
kernel void tiles(device float* out [[buffer(0)]], constant uint2& shape [[buffer(1)]],
                  uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                  uint gid [[threadgroup_position_in_grid]]) {
    threadgroup float tile[N];
    const uint size = shape.y;
    for (uint k = lid; k < N; k += size) tile[k] = float(gid * 100000 + k);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint present = min(size, shape.x - gid * size);
    const uint other = (lid + 1) % present;
    out[i] = tile[other] + tile[other + size * ((N - 1 - other) / size)];
}
template [[host_name("tiles_1024")]] kernel void tiles<1024>(device float*, constant uint2&, uint, uint, uint);
template [[host_name("tiles_8192")]] kernel void tiles<8192>(device float*, constant uint2&, uint, uint, uint);
template [[host_name("tiles_16384")]] kernel void tiles<16384>(device float*, constant uint2&, uint, uint, uint);

// MLX's block_sort shape: a plain `if` on a template parameter, arrays in both branches.
template <bool ARG, int N>
kernel void sortlike(device float* out [[buffer(0)]], constant uint2& shape [[buffer(1)]],
                     uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                     uint gid [[threadgroup_position_in_grid]]) {
    const uint size = shape.y;
    const uint present = min(size, shape.x - gid * size);
    const uint other = (lid + 1) % present;
    const uint last = other + size * ((N - 1 - other) / size);
    if (ARG) {
        threadgroup float vals[N];
        threadgroup uint idxs[N];
        for (uint k = lid; k < N; k += size) {
            vals[k] = float(gid * 100000 + k);
            idxs[k] = N - k;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[i] = vals[other] + float(idxs[last]);
    } else {
        threadgroup float vals[N];
        for (uint k = lid; k < N; k += size) vals[k] = float(gid * 100000 + 2 * k);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[i] = vals[other] + vals[last];
    }
}
template [[host_name("arg_sort_4096")]] kernel void sortlike<true, 4096>(device float*, constant uint2&, uint, uint, uint);
template [[host_name("sort_8192")]] kernel void sortlike<false, 8192>(device float*, constant uint2&, uint, uint, uint);

// A constexpr local's dead branch in a plain kernel: 64 KiB that never count.
kernel void constexpr_dead(device float* out [[buffer(0)]], constant uint2& shape [[buffer(1)]],
                           uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                           uint gid [[threadgroup_position_in_grid]]) {
    constexpr bool kHuge = false;
    if (kHuge) {
        threadgroup float huge[16384];
        huge[lid] = 1.0f;
        out[i] = huge[lid];
        return;
    }
    threadgroup float tile[1024];
    const uint size = shape.y;
    for (uint k = lid; k < 1024; k += size) tile[k] = float(gid * 100000 + k);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint present = min(size, shape.x - gid * size);
    const uint other = (lid + 1) % present;
    out[i] = tile[other] + tile[other + size * ((1024 - 1 - other) / size)];
}

// A branch on an unqualified trait (`using namespace metal`), a loop on a template parameter and
// a switch's cases: for switched<float, 1> only case 1's 4 KiB run, and 64 + 64 + 32 KiB that
// cannot run count for nothing.
template <typename T, int WAY>
kernel void switched(device float* out [[buffer(0)]], constant uint2& shape [[buffer(1)]],
                     uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                     uint gid [[threadgroup_position_in_grid]]) {
    const uint size = shape.y;
    const uint present = min(size, shape.x - gid * size);
    const uint other = (lid + 1) % present;
    const uint last = other + size * ((1024 - 1 - other) / size);
    if (is_same_v<T, half>) {
        threadgroup float wasted[16384];
        wasted[lid] = 0.0f;
        out[i] = wasted[lid];
        return;
    }
    while (WAY > 4) {
        threadgroup float spare[16384];
        spare[lid] = 0.0f;
        out[i] = spare[lid];
        return;
    }
    switch (WAY) {
    case 1: {
        threadgroup float tile[1024];
        for (uint k = lid; k < 1024; k += size) tile[k] = float(gid * 100000 + k);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[i] = tile[other] + tile[last];
        break;
    }
    case 2:
    case 3: {
        threadgroup float big[8192];
        big[lid] = 1.0f;
        out[i] = big[lid];
        break;
    }
    }
}
template [[host_name("switched_float_1")]] kernel void switched<float, 1>(device float*, constant uint2&, uint, uint, uint);

// Branches decided at run time: both count (100 and 200 floats).
kernel void runtime_branches(device float* out [[buffer(0)]], constant uint2& shape [[buffer(1)]],
                             uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]]) {
    if (shape.x > 0) {
        threadgroup float a[100];
        a[lid % 100] = float(lid % 100) * 2.0f;
        out[i] = a[lid % 100];
    } else {
        threadgroup float b[200];
        b[lid % 200] = 1.0f;
        out[i] = b[lid % 200];
    }
}
)";

class ThreadgroupMemoryKernels : public ShapedKernelTest<kKernels> {
protected:
    /// Threads in the grid: two whole groups and half of one (one thread for groups of one).
    unsigned threads() const { return groupSize() == 1 ? 1 : 2 * groupSize() + groupSize() / 2; }

    /// Runs `name` over threads() threads; what each thread wrote.
    std::vector<float> run(const char* name, std::uint64_t expectedLength) {
        MTL::ComputePipelineState* state = kernel(name);
        if (!state) return {};
        EXPECT_EQ(state->staticThreadgroupMemoryLength(), expectedLength) << name;
        GuardedBuffer out(device_, threads() * 4);
        const std::uint32_t shape[2] = {threads(), groupSize()};
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        out.bind(encoder, 0);
        encoder->setBytes(shape, sizeof shape, 1);
        dispatch(state, encoder, commands, threads());
        out.expectCanariesIntact();
        state->release();
        return std::vector<float>(out.data<float>(), out.data<float>() + threads());
    }

    /// What thread i reads: element `other` and the last element `other` filled, as the
    /// kernels compute them, with element k of group g holding value(g, k).
    template <class Value>
    std::vector<float> expected(int n, Value value) const {
        std::vector<float> out(threads());
        const unsigned size = groupSize();
        for (unsigned i = 0; i < threads(); ++i) {
            const unsigned group = i / size, lid = i % size;
            const unsigned present = std::min(size, threads() - group * size);
            const unsigned other = (lid + 1) % present;
            const unsigned last = other + size * ((n - 1 - other) / size);
            out[i] = value(group, other, false) + value(group, last, true);
        }
        return out;
    }
};

// Test that each instantiation of a kernel template reports and gets its own threadgroup
// memory: 4 KiB and 32 KiB, in a library that also holds a 64 KiB one.
TEST_P(ThreadgroupMemoryKernels, EachInstantiationItsOwnSize) {
    const auto tile = [](unsigned g, unsigned k, bool) { return float(g * 100000 + k); };
    EXPECT_EQ(run("tiles_1024", 4096), expected(1024, tile));
    EXPECT_EQ(run("tiles_8192", 32768), expected(8192, tile));
}

// Test that the arrays of a branch that cannot run in an instantiation do not count: the
// arg-sort instantiation needs 16 + 16 KiB (its else-branch would add 16), the plain one
// 32 KiB (its then-branch would add 64); a plain kernel's branch on a false constexpr local
// (64 KiB) counts for nothing either.
TEST_P(ThreadgroupMemoryKernels, DeadBranchesDoNotCount) {
    EXPECT_EQ(run("arg_sort_4096", 32768),
              expected(4096, [](unsigned g, unsigned k, bool last) { return last ? float(4096 - k) : float(g * 100000 + k); }));
    EXPECT_EQ(run("sort_8192", 32768), expected(8192, [](unsigned g, unsigned k, bool) { return float(g * 100000 + 2 * k); }));
    EXPECT_EQ(run("constexpr_dead", 4096), expected(1024, [](unsigned g, unsigned k, bool) { return float(g * 100000 + k); }));
}

// Test that a branch on an unqualified trait, a loop's body and a switch's cases that cannot run
// in an instantiation do not count either: 4 KiB of the 164 written.
TEST_P(ThreadgroupMemoryKernels, DeadCasesLoopsAndTraitsDoNotCount) {
    EXPECT_EQ(run("switched_float_1", 4096), expected(1024, [](unsigned g, unsigned k, bool) { return float(g * 100000 + k); }));
}

// Test that branches decided at run time count both (400 + 800 bytes) and still run.
TEST_P(ThreadgroupMemoryKernels, RuntimeBranchesAddUp) {
    const std::vector<float> out = run("runtime_branches", 1200);
    ASSERT_EQ(out.size(), threads());
    for (unsigned i = 0; i < threads(); ++i) EXPECT_EQ(out[i], float(i % groupSize() % 100) * 2.0f) << "thread " << i;
}

// Test that an instantiation that really needs more than 32 KiB is still refused, with
// Metal's message, whichever flavour is asked for.
TEST_P(ThreadgroupMemoryKernels, OversizedInstantiationIsRefused) {
    std::string why;
    EXPECT_EQ(pipelineOrError(library_, "tiles_16384", shaderValidation(validated()), &why), nullptr);
    EXPECT_EQ(why, "Threadgroup memory size (65536) exceeds the maximum threadgroup memory allowed (32768)");
}

// A branch on a function constant: a library specialised with its value drops the other
// branch, as Apple's compiler does when it specialises the function (32 KiB each, 64 together).
const char* const kSpecialised = R"(
#include <metal_stdlib>
using namespace metal;
constant bool kArgs [[function_constant(0)]];
kernel void fc_branch(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]],
                      uint lid [[thread_position_in_threadgroup]], uint size [[threads_per_threadgroup]]) {
    if (kArgs) {
        threadgroup float vals[4096];
        threadgroup uint idxs[4096];
        for (uint k = lid; k < 4096; k += size) {
            vals[k] = float(k);
            idxs[k] = 4095 - k;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[i] = vals[lid] + float(idxs[lid]);
    } else {
        threadgroup float vals[8192];
        for (uint k = lid; k < 8192; k += size) vals[k] = float(2 * k);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[i] = vals[lid];
    }
}
)";

using ThreadgroupMemorySpecialised = MetalTest;

// Test that each specialisation reports 32 KiB, fits and runs (one group of 33 threads).
TEST_F(ThreadgroupMemorySpecialised, FunctionConstantBranches) {
    MTL::Library* library = compile(kSpecialised);
    ASSERT_NE(library, nullptr);
    for (bool args : {true, false}) {
        SCOPED_TRACE(args ? "kArgs" : "!kArgs");
        MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
        values->setConstantValue(&args, MTL::DataTypeBool, NS::UInteger(0));
        NS::Error* error = nullptr;
        MTL::Function* function =
            library->newFunction(NS::String::string("fc_branch", NS::UTF8StringEncoding), values, &error);
        values->release();
        ASSERT_NE(function, nullptr) << text(error ? error->localizedDescription() : nullptr);
        MTL::ComputePipelineState* state = device_->newComputePipelineState(function, &error);
        function->release();
        ASSERT_NE(state, nullptr) << text(error ? error->localizedDescription() : nullptr);
        EXPECT_EQ(state->staticThreadgroupMemoryLength(), 32768u);
        constexpr unsigned kThreads = 33;
        GuardedBuffer out(device_, kThreads * 4);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        out.bind(encoder, 0);
        encoder->dispatchThreads(MTL::Size(kThreads, 1, 1), MTL::Size(kThreads, 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        for (unsigned i = 0; i < kThreads; ++i)
            EXPECT_EQ(out.data<float>()[i], args ? 4095.0f : float(2 * i)) << "thread " << i;
        out.expectCanariesIntact();
        state->release();
    }
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadgroupMemoryKernels,
                         ::testing::Combine(::testing::Values(1u, 33u, 64u, 1024u), ::testing::Bool()),
                         kernelShapeName);

} // namespace
} // namespace metalcpu::testing
