// Loops after an unroll pragma whose condition divides: the front end moves the condition to
// the top of the body (`for (init; true; inc) if (!(cond)) break; else body`) so that GCC
// keeps the annotation in template instantiations (compiler/passes/pragmas.h). They must run
// as written: a loop that runs once per group around barriers (work-item loops), a `continue`
// that still runs the increment, a `while` whose body is not a block. Groups of 1, 37 and 64
// threads, a last group cut by the grid, threads past the end that write nothing; plain and
// shader-validated.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"msl(
#include <metal_stdlib>
using namespace metal;

#define FOR_UNROLLED(x) _Pragma("clang loop unroll(full)") for (x)

template <int K>
kernel void unrolled_loops(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                           constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]],
                           uint t [[thread_position_in_threadgroup]], uint size [[threads_per_threadgroup]]) {
    threadgroup float shared[64];
    const float x = i < n ? in[i] : 0.0f;
    float neighbours = 0.0f;
    FOR_UNROLLED (int k = 0; k < K / 2; k++) {
        shared[t] = x * float(k + 1);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        neighbours += shared[(t + 1) % size];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    int odd = 0;
#pragma unroll 4
    for (int k = 0; k < K % 7 + 10; k++) {
        if (k % 2 == 0) continue;
        odd += k;
    }
    int m = int(x) + 3;
    int steps = 0;
#pragma unroll
    while (m % 4 != 0) m++, steps++;
    if (i < n) {
        out[i * 3] = neighbours;
        out[i * 3 + 1] = float(odd);
        out[i * 3 + 2] = float(steps);
    }
}
template [[host_name("unrolled_loops_8")]] kernel void
unrolled_loops<8>(device const float*, device float*, constant uint&, uint, uint, uint);
)msl";

class UnrollPragmaKernels : public SimdShapedKernelTest<kKernels> {};

// Test the three loops' results against the loops run here.
TEST_P(UnrollPragmaKernels, LoopsRunAsWritten) {
    const unsigned threads = size() == 1 ? 1 : 2 * size() + size() / 2;
    const unsigned count = size() == 1 ? 1 : threads - 2;
    std::vector<float> in(threads);
    for (unsigned i = 0; i < threads; ++i) in[i] = float(i % 13);
    MTL::ComputePipelineState* state = kernel("unrolled_loops_8");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* input = device_->newBuffer(in.data(), in.size() * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, std::size_t(count) * 3 * 4);
    runRows(state, input, out, count, threads);
    for (unsigned i = 0; i < count; ++i) {
        const unsigned group = i / size() * size();
        const unsigned neighbour = group + (i - group + 1) % std::min(size(), threads - group);
        const float next = neighbour < count ? in[neighbour] : 0.0f;
        const int m = int(in[i]) + 3;
        EXPECT_EQ(out.data<float>()[i * 3], next * (1 + 2 + 3 + 4)) << "thread " << i;
        EXPECT_EQ(out.data<float>()[i * 3 + 1], float(1 + 3 + 5 + 7 + 9)) << "thread " << i;
        EXPECT_EQ(out.data<float>()[i * 3 + 2], float((4 - m % 4) % 4)) << "thread " << i;
    }
    out.expectCanariesIntact();
    input->release();
    state->release();
}

// Test that the loop around the barriers still runs once per group (work-item loops).
TEST_P(UnrollPragmaKernels, Lowering) {
    expectLowerings({{"unrolled_loops_8", MC_KERNEL_WORK_ITEM_LOOPS}}, [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Groups, UnrollPragmaKernels,
                         ::testing::Combine(::testing::Values(1u, 37u, 64u), ::testing::Values(32u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
