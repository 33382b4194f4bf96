// GNU range designators whose indices are constants the front end cannot evaluate: a template
// parameter, a constexpr local, an enumerator (compiler/passes/designators.h). The listed elements get the
// value, the others are zero, a later designator overrides an earlier one, a range's value is
// evaluated once (GCC's rule), and arrays of arrays of vectors take braced values. One kernel
// returns early, one keeps its arrays across a barrier (work-item loops, the arrays in their
// slots), one fills an array in a lambda. Groups of 1, 37 and 64 threads, a last group cut by the grid, threads past the end
// that write nothing; plain and shader-validated.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// What one thread writes: kResults floats.
constant uint kResults = 9;
enum Slots { kSlots = 3 };

template <short N>
kernel void ranges(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                   constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const float x = in[i];
    float s[N] = { [0 ... N - 1] = x };
    constexpr short M = N / 2;
    // Row 0 is left out: zero. The inner list's designator is a literal one.
    float4 v[M + 1][2] = { [1 ... M] = { float4(x), [1] = float4(2.0f * x) } };
    int calls = 0;
    int c[N] = { [1 ... N - 2] = ++calls, [N - 1] = 5 };
    float o[N] = { [0 ... N - 1] = 1.0f, [M] = 7.0f, 8.0f };
    int e[kSlots] = { [1 ... kSlots - 1] = int(sizeof(float)) };
    float sums[4] = {};
    for (short k = 0; k < N; ++k) {
        sums[0] += s[k];
        sums[1] += float(c[k]);
        sums[2] += o[k];
    }
    for (short k = 1; k <= M; ++k) sums[3] += v[k][0].y + v[k][1].z;
    device float* r = out + i * kResults;
    r[0] = sums[0];
    r[1] = v[0][0].x + v[0][1].w;
    r[2] = sums[3];
    r[3] = float(calls);
    r[4] = float(c[0]);
    r[5] = sums[1];
    r[6] = o[M] * 10.0f + o[M + 1];
    r[7] = sums[2];
    r[8] = float(e[0] * 100 + e[1] * 10 + e[2]);
}
template [[host_name("ranges_4")]] kernel void ranges<4>(device const float*, device float*, constant uint&, uint);
template [[host_name("ranges_8")]] kernel void ranges<8>(device const float*, device float*, constant uint&, uint);

template <short N>
kernel void ranges_across_barrier(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                                  constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]],
                                  uint t [[thread_position_in_threadgroup]],
                                  uint size [[threads_per_threadgroup]]) {
    threadgroup float shared[64];
    const float x = i < n ? in[i] : 0.0f;
    float s[N] = { [0 ... N - 1] = x };
    constexpr short M = N - 1;
    float2 w[M] = { [0 ... M - 1] = float2(x, 3.0f) };
    shared[t] = x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float total = shared[(t + 1) % size];
    for (short k = 0; k < N; ++k) total += s[k];
    for (short k = 0; k < M; ++k) total += w[k].x * w[k].y;
    if (i < n) out[i] = total;
}
template [[host_name("ranges_across_barrier_5")]] kernel void
ranges_across_barrier<5>(device const float*, device float*, constant uint&, uint, uint, uint);

template <short N>
kernel void ranges_in_lambda(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                             constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const float x = in[i];
    auto sum = [x](float scale) {
        float s[N] = { [1 ... N - 1] = x * scale };
        float total = 0.0f;
        for (short k = 0; k < N; ++k) total += s[k];
        return total;
    };
    out[i] = sum(2.0f) + sum(1.0f);
}
template [[host_name("ranges_in_lambda_6")]] kernel void
ranges_in_lambda<6>(device const float*, device float*, constant uint&, uint);

// The same in a local class's member function, whose body the front end reads as a lambda's.
template <short N>
kernel void ranges_in_local_class(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                                  constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    struct Sum {
        float x;
        float operator()(float scale) const {
            float s[N] = { [1 ... N - 1] = x * scale };
            float total = 0.0f;
            for (short k = 0; k < N; ++k) total += s[k];
            return total;
        }
    };
    const Sum sum{in[i]};
    out[i] = sum(2.0f) + sum(1.0f);
}
template [[host_name("ranges_in_local_class_6")]] kernel void
ranges_in_local_class<6>(device const float*, device float*, constant uint&, uint);
)";

constexpr unsigned kResults = 9;

class DesignatorKernels : public SimdShapedKernelTest<kKernels> {
protected:
    unsigned threads() const { return cutGridThreads(); }
    unsigned count() const { return cutGridCount(); }
    std::vector<float> values() const { return cutGridValues(); }

    /// Runs `name` over threads() threads in groups of size(); the first count() compute.
    void run(const char* name, GuardedBuffer& out) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr) << name;
        const std::vector<float> in = values();
        MTL::Buffer* input = device_->newBuffer(in.data(), in.size() * 4, MTL::ResourceStorageModeShared);
        runRows(state, input, out, count(), threads());
        input->release();
        state->release();
    }

    void checkRanges(const char* name, int n) {
        SCOPED_TRACE(name);
        GuardedBuffer out(device_, std::size_t(count()) * kResults * 4);
        run(name, out);
        const std::vector<float> in = values();
        const int m = n / 2;
        for (unsigned i = 0; i < count(); ++i) {
            const float x = in[i];
            const float expected[kResults] = {
                float(n) * x, 0.0f, float(m) * 3.0f * x, 1.0f, 0.0f, float(n - 2 + 5), 78.0f, float(n - 2 + 15), 44.0f};
            for (unsigned k = 0; k < kResults; ++k)
                EXPECT_EQ(out.data<float>()[i * kResults + k], expected[k]) << "thread " << i << " result " << k;
        }
        out.expectCanariesIntact();
    }
};

// Test a template-parameter bound, a constexpr-local bound over an array of arrays of
// vectors, an override, an element after a designator, a range value evaluated once, and an
// enumerator bound with a sizeof value.
TEST_P(DesignatorKernels, TemplateAndConstexprBounds) {
    checkRanges("ranges_4", 4);
    checkRanges("ranges_8", 8);
}

// Test the arrays kept across a barrier: each thread's own, filled where declared.
TEST_P(DesignatorKernels, AcrossBarrier) {
    constexpr int n = 5, m = n - 1;
    GuardedBuffer out(device_, std::size_t(count()) * 4);
    run("ranges_across_barrier_5", out);
    const std::vector<float> in = values();
    for (unsigned i = 0; i < count(); ++i) {
        const unsigned group = i / size() * size();
        const unsigned groupSize = std::min(size(), threads() - group);
        const unsigned neighbour = group + (i - group + 1) % groupSize;
        const float next = neighbour < count() ? in[neighbour] : 0.0f;
        EXPECT_EQ(out.data<float>()[i], next + float(n) * in[i] + float(m) * in[i] * 3.0f) << "thread " << i;
    }
    out.expectCanariesIntact();
}

// Test a range in a lambda's body, whose statements the front end reads as a function's
// (Unit::nestedBody()): element 0 left out, the value evaluated at each call.
TEST_P(DesignatorKernels, InALambda) {
    GuardedBuffer out(device_, std::size_t(count()) * 4);
    run("ranges_in_lambda_6", out);
    const std::vector<float> in = values();
    for (unsigned i = 0; i < count(); ++i) EXPECT_EQ(out.data<float>()[i], 15.0f * in[i]) << "thread " << i;
    out.expectCanariesIntact();
}

// Test a range in a local class's member function, which has a statement tree of its own too.
TEST_P(DesignatorKernels, InALocalClass) {
    GuardedBuffer out(device_, std::size_t(count()) * 4);
    run("ranges_in_local_class_6", out);
    const std::vector<float> in = values();
    for (unsigned i = 0; i < count(); ++i) EXPECT_EQ(out.data<float>()[i], 15.0f * in[i]) << "thread " << i;
    out.expectCanariesIntact();
}

// Test that the barrier kernel keeps the work-item-loop lowering: its filled arrays live in
// the threads' slots.
TEST_P(DesignatorKernels, Lowering) {
    expectLowerings({{"ranges_across_barrier_5", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Groups, DesignatorKernels,
                         ::testing::Combine(::testing::Values(1u, 37u, 64u), ::testing::Values(32u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
