// The row softmax of bench/softmax_rows.metal, written the way MLX writes its looped one (each
// thread's partial maximum, `simd_max`, the SIMD-groups' maxima in threadgroup memory, a
// barrier, a second stage under `if (simd_group == 0)`, the same for `simd_sum` of
// exp(x - max), then the row normalised), against a double-precision reference with a stated
// tolerance. One threadgroup per row; rows as long as the group, three times as long, not a
// multiple of it, shorter than it; a last group cut by the grid; groups of 1, 32, 40 (a
// partial SIMD-group), 96, 256 and 1024 threads; widths 4 to 64; plain and shader-validated.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

// The kernel, shared with bench/softmax_bench.cpp.
std::string readKernels() {
    std::ifstream file(METALCPU_SOFTMAX_ROWS_METAL);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}
const std::string kSource = readKernels();
const char* const kKernels = kSource.c_str();

// Rows per dispatch; each row's values are offset by one of these, so exp(x) alone would
// overflow a float (row 1) and underflow it (row 2): only exp(x - max) keeps the row.
constexpr float kRowOffsets[] = {0.0f, 90.0f, -110.0f};
constexpr unsigned kRows = sizeof kRowOffsets / sizeof kRowOffsets[0];

// The tolerance, relative to each element: 2e-6, about 34 ulp of a float (2^-24 each). exp is
// within 1 ulp (docs/msl-support.md, "Math"), the normaliser a float sum of positive terms, one
// division and one product; the worst seen over every shape here is 2.6e-7. A wrong maximum, a
// lost partial or a lane counted twice is off by far more.
constexpr double kRelativeTolerance = 2e-6;

std::vector<float> rowInputs(unsigned n) {
    std::vector<float> values(std::size_t(n) * kRows);
    for (unsigned r = 0; r < kRows; ++r)
        for (unsigned i = 0; i < n; ++i)
            values[std::size_t(r) * n + i] =
                kRowOffsets[r] + float((std::size_t(r) * n + i) * 2654435761u % 4096u) / 256.0f - 8.0f;
    return values;
}

/// The softmax of each row of `values`, in double.
std::vector<double> softmaxReference(const std::vector<float>& values, unsigned n) {
    std::vector<double> out(values.size());
    for (unsigned r = 0; r < kRows; ++r) {
        const float* x = values.data() + std::size_t(r) * n;
        const double top = *std::max_element(x, x + n);
        double sum = 0;
        for (unsigned i = 0; i < n; ++i) sum += std::exp(double(x[i]) - top);
        for (unsigned i = 0; i < n; ++i) out[std::size_t(r) * n + i] = std::exp(double(x[i]) - top) / sum;
    }
    return out;
}

class SoftmaxKernels : public SimdShapedKernelTest<kKernels> {
protected:
    /// Row lengths: the group's size, three times it, two groups and 5, half a group and 1.
    std::vector<unsigned> rowLengths() const { return {size(), 3 * size(), 2 * size() + 5, size() / 2 + 1}; }

    /// Runs softmax_rows over kRows rows of `n` floats, one threadgroup per row; with `cutLast`
    /// the grid cuts the last row's threadgroup to about half its threads.
    void check(unsigned n, bool cutLast) {
        SCOPED_TRACE("row length " + std::to_string(n) + (cutLast ? ", last group cut" : ""));
        MTL::ComputePipelineState* state = kernel("softmax_rows");
        ASSERT_NE(state, nullptr);
        EXPECT_EQ(state->threadExecutionWidth(), width());
        const std::vector<float> values = rowInputs(n);
        MTL::Buffer* in = device_->newBuffer(values.data(), values.size() * 4, MTL::ResourceStorageModeShared);
        GuardedBuffer out(device_, values.size() * 4);
        const unsigned lastThreads = cutLast ? size() / 2 + 1 : size();
        runRows(state, in, out, n, (kRows - 1) * size() + lastThreads);
        const std::vector<double> expected = softmaxReference(values, n);
        unsigned failures = 0;
        for (std::size_t i = 0; i < values.size() && failures < 10; ++i) {
            const double got = out.data<float>()[i];
            if (std::fabs(got - expected[i]) <= kRelativeTolerance * expected[i]) continue;
            ADD_FAILURE() << "row " << i / n << " element " << i % n << ": " << got << ", expected " << expected[i];
            ++failures;
        }
        out.expectCanariesIntact();
        in->release();
        state->release();
    }
};

// Test whole rows, rows cut short of or past the group's size, and (groups of more than one
// thread) a last threadgroup cut by the grid: its threads stride by its own size, and its
// SIMD-groups are as many as it has threads for.
TEST_P(SoftmaxKernels, Rows) {
    for (unsigned n : rowLengths()) {
        check(n, false);
        if (size() > 1) check(n, true);
    }
}

// Test that the kernel is split into work-item loops in both flavours: the collectives are
// whole statements, the second stages sit under `if (simd_group == 0)`. A fallback to
// coroutines or fibers would still compute the right values, slower.
TEST_P(SoftmaxKernels, Lowering) {
    expectLowerings({{"softmax_rows", MC_KERNEL_WORK_ITEM_LOOPS}}, [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, SoftmaxKernels,
                         ::testing::Combine(::testing::Values(1u, 32u, 40u, 96u, 256u, 1024u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
// Other widths, with no more SIMD-groups in a group than a SIMD-group has lanes.
INSTANTIATE_TEST_SUITE_P(OtherWidths, SoftmaxKernels,
                         ::testing::Values(SimdShape{12, 4, false}, SimdShape{40, 8, false}, SimdShape{64, 8, false},
                                           SimdShape{40, 64, false}, SimdShape{96, 64, false},
                                           SimdShape{1024, 64, false}),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
