// Loops whose accesses are checked once, before the loop (issue 14; compiler/passes/
// loop_ranges.h, checked.h's range_inside()): a counted loop over an affine index runs without
// per-step checks when its whole range lies inside the buffer, and checked step by step
// otherwise, so that what it reports is exactly what it reported before.
//
// Each kernel makes the same accesses twice, on consecutive lines at the same columns: in a
// loop stepping `k += 1` (mode 0, checked once) and in its twin stepping `k += 1u`, which the
// front end does not take for a step of one (mode 1: the general path, the golden
// validation_loop_ranges shows which loops are which). Both modes must give the same outputs
// and the same reports but for the line.
//
// `matmul` is the bench's naive product: whole rows of 8 threads run its lane form, others its
// interleaved threads. `runs` has a trip count per thread (threads run one by one), with a
// `break` and a `return` in the loop and its bound from a kernel argument.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ShaderValidationReport;

// Line numbers matter: the tests find them by text (lineOf).
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
struct Sizes { uint rows; uint cols; uint inner; uint mode; };
kernel void matmul(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                   device float* c [[buffer(2)]], constant Sizes& s [[buffer(3)]],
                   uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= s.cols || gid.y >= s.rows) return;
    float sum = 0.0f;
    if (s.mode == 0) for (uint k = 0; k < s.inner; k += 1 ) sum += a[gid.y * s.inner + k] * b[k * s.cols + gid.x];
    else             for (uint k = 0; k < s.inner; k += 1u) sum += a[gid.y * s.inner + k] * b[k * s.cols + gid.x];
    c[gid.y * s.cols + gid.x] = sum;
}
kernel void runs(device const int* in [[buffer(0)]], device int* out [[buffer(1)]],
                 constant uint& n [[buffer(2)]], constant uint& mode [[buffer(3)]],
                 uint i [[thread_position_in_grid]]) {
    int total = 0;
    if (mode == 0) for (uint k = i; k < i + n; k += 1 ) { if (in[k] < 0) break; if (in[k] == 7) return; total += in[k]; }
    else           for (uint k = i; k < i + n; k += 1u) { if (in[k] < 0) break; if (in[k] == 7) return; total += in[k]; }
    out[i] = total;
}
)";

unsigned lineOf(const char* text) { return lineHolding(kKernels, text); }

using Shape = GridShape;
constexpr auto shapeName = gridShapeName;
constexpr std::uint32_t kCanary = 0xC0FFEE11u;

struct KernelRun {
    std::vector<ShaderValidationReport> reports;
    std::vector<std::uint32_t> out; ///< the output's words, canaries left out
};

/// A run through the loop checked once and its twin through the general path, one line below:
/// the same outputs, and the same reports but for the line.
void expectTwins(const KernelRun& once, const KernelRun& general) {
    EXPECT_EQ(once.out, general.out) << "checked once and checked at every step";
    expectTwinReports(once.reports, general.reports);
}

class LoopRanges : public ValidationOnFixture, public ::testing::WithParamInterface<Shape> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    static inline MTL::Library* library_ = nullptr;

    /// An output buffer of `words` words between canaries, bound one word in.
    MTL::Buffer* output(std::uint32_t words) {
        MTL::Buffer* out = buffer((words + 2) * sizeof(std::uint32_t), "out");
        std::uint32_t* w = metalcpu::testing::words(out);
        std::fill(w, w + words + 2, 0xFFFFFFFFu);
        w[0] = w[words + 1] = kCanary;
        return out;
    }
    KernelRun finish(MTL::CommandBuffer* commands, MTL::Buffer* out, std::uint32_t words, std::uint32_t mode) {
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        KernelRun r;
        r.reports = reports();
        const std::uint32_t* w = metalcpu::testing::words(out);
        EXPECT_EQ(w[0], kCanary) << "mode " << mode;
        EXPECT_EQ(w[words + 1], kCanary) << "mode " << mode;
        r.out.assign(w + 1, w + 1 + words);
        return r;
    }

    /// `matmul` of an M x K `a` and a K x N `b` (N x M the grid), b cut to `bFloats` floats.
    KernelRun matmul(std::uint32_t mode, std::uint32_t inner, std::uint32_t bFloats) {
        const Shape s = GetParam();
        return matmul(mode, {s.gy, s.gx, inner}, s.gy * inner, bFloats, s);
    }
    /// `matmul` with the sizes `rows, cols, inner` over the grid `grid`, `a` and `b` of the
    /// given lengths, c of the grid's threads.
    KernelRun matmul(std::uint32_t mode, std::array<std::uint32_t, 3> sizes, std::uint32_t aFloats,
                     std::uint32_t bFloats, Shape grid) {
        MTL::ComputePipelineState* state = pipeline(library_, "matmul", nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        MTL::Buffer* a = buffer(aFloats * sizeof(float), "a");
        MTL::Buffer* b = buffer(bFloats * sizeof(float), "b");
        for (std::uint32_t x = 0; x < aFloats; ++x) floats(a)[x] = float(x % 7) - 3.0f;
        for (std::uint32_t x = 0; x < bFloats; ++x) floats(b)[x] = float(x % 5) * 0.5f + 0.25f;
        MTL::Buffer* c = output(grid.gx * grid.gy);
        const std::uint32_t arguments[4] = {sizes[0], sizes[1], sizes[2], mode};
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
        e->setComputePipelineState(state);
        e->setBuffer(a, 0, 0);
        e->setBuffer(b, 0, 1);
        e->setBuffer(c, sizeof(std::uint32_t), 2);
        e->setBytes(arguments, sizeof arguments, 3);
        e->dispatchThreads(MTL::Size(grid.gx, grid.gy, 1), MTL::Size(grid.sx, grid.sy, 1));
        e->endEncoding();
        return finish(commands, c, grid.gx * grid.gy, mode);
    }

    /// `runs` over `in` of `inputs` words (in[x] = values(x)), n steps a thread.
    template <class Values> KernelRun runs(std::uint32_t mode, std::uint32_t n, std::uint32_t inputs, Values values) {
        const Shape s = GetParam();
        MTL::ComputePipelineState* state = pipeline(library_, "runs", nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        MTL::Buffer* in = buffer(inputs * sizeof(std::int32_t), "in");
        for (std::uint32_t x = 0; x < inputs; ++x) reinterpret_cast<std::int32_t*>(words(in))[x] = values(x);
        const std::uint32_t threads = s.gx * s.gy;
        MTL::Buffer* out = output(threads);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
        e->setComputePipelineState(state);
        e->setBuffer(in, 0, 0);
        e->setBuffer(out, sizeof(std::uint32_t), 1);
        e->setBytes(&n, sizeof n, 2);
        e->setBytes(&mode, sizeof mode, 3);
        e->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(s.sx * s.sy, 1, 1));
        e->endEncoding();
        return finish(commands, out, threads, mode);
    }
    /// What thread i of `runs` leaves in out[i]: the sum of in[i, i + n) up to a negative value,
    /// nothing when it meets a 7 first (out keeps its fill); loads outside read zero.
    template <class Values>
    static std::uint32_t expectedRun(std::uint32_t i, std::uint32_t n, std::uint32_t inputs, Values values) {
        std::int32_t total = 0;
        for (std::uint32_t k = i; k < i + n; ++k) {
            const std::int32_t v = k < inputs ? values(k) : 0;
            if (v < 0) break;
            if (v == 7) return 0xFFFFFFFFu;
            total += v;
        }
        return static_cast<std::uint32_t>(total);
    }
};

// Test that a product whose every step is inside gives the right results and no report, in both
// forms.
TEST_P(LoopRanges, ProductInside) {
    const Shape s = GetParam();
    const std::uint32_t inner = 9;
    const KernelRun once = matmul(0, inner, inner * s.gx), general = matmul(1, inner, inner * s.gx);
    expectTwins(once, general);
    EXPECT_THAT(once.reports, ::testing::IsEmpty());
    ASSERT_EQ(once.out.size(), s.gx * s.gy);
    for (std::uint32_t y = 0; y < s.gy; ++y)
        for (std::uint32_t x = 0; x < s.gx; ++x) {
            float want = 0.0f;
            for (std::uint32_t k = 0; k < inner; ++k)
                want += (float((y * inner + k) % 7) - 3.0f) * (float((k * s.gx + x) % 5) * 0.5f + 0.25f);
            float got;
            std::memcpy(&got, &once.out[y * s.gx + x], sizeof got);
            EXPECT_FLOAT_EQ(got, want) << "c[" << y << "][" << x << "]";
        }
}

// Test that a product whose last step leaves `b` (by one element, then by a row) reports what
// the loop checked at every step reports: the same first thread, site, offset and count.
TEST_P(LoopRanges, ProductPastTheEnd) {
    const Shape s = GetParam();
    const std::uint32_t inner = 6;
    for (std::uint32_t cut : {1u, s.gx}) {
        const KernelRun once = matmul(0, inner, inner * s.gx - cut), general = matmul(1, inner, inner * s.gx - cut);
        expectTwins(once, general);
        ASSERT_EQ(once.reports.size(), 1u) << "cut " << cut;
        EXPECT_EQ(once.reports[0].access, Access::Load);
        EXPECT_EQ(once.reports[0].location.line, lineOf("if (s.mode == 0) for"));
        EXPECT_EQ(once.reports[0].offset, (inner * s.gx - cut) * sizeof(float));
        EXPECT_EQ(once.reports[0].count, cut * s.gy);
        EXPECT_EQ(once.reports[0].threadPositionInGrid, (validation::Position{s.gx - cut, 0, 0}));
    }
}

// Test that an index whose first and last steps are inside but which wraps in 32 bits in
// between (`k * cols` with cols = 2^31: b[0], b[2^31], b[0]) is checked at every step: the
// middle step is reported as the general path reports it, the others read b[0].
TEST_P(LoopRanges, ProductWhoseIndexWraps) {
    const Shape one{1, 1, 1, 1};
    const std::array<std::uint32_t, 3> sizes = {1, 0x80000000u, 3};
    const KernelRun once = matmul(0, sizes, 3, 1, one), general = matmul(1, sizes, 3, 1, one);
    expectTwins(once, general);
    ASSERT_EQ(once.reports.size(), 1u);
    EXPECT_EQ(once.reports[0].access, Access::Load);
    EXPECT_EQ(once.reports[0].offset, std::uint64_t(0x80000000u) * sizeof(float));
    ASSERT_EQ(once.out.size(), 1u);
    float got;
    std::memcpy(&got, &once.out[0], sizeof got);
    EXPECT_EQ(got, -1.0f) << "a[0] * b[0] + a[1] * 0 + a[2] * b[0]: -3 * 0.25 + 0 - 1 * 0.25";
}

// Test that a loop with a break and a return, its bound from an argument, gives the right
// results inside and reports past the end as checked at every step, whether the break comes
// before the end (no report) or not.
TEST_P(LoopRanges, BreakAndReturn) {
    const Shape s = GetParam();
    const std::uint32_t threads = s.gx * s.gy, n = 5;
    const auto plain = [](std::uint32_t x) { return std::int32_t(x % 4); };
    const auto stops = [](std::uint32_t x) { return x % 11 == 10 ? -1 : x % 13 == 12 ? 7 : std::int32_t(x % 3); };
    for (std::uint32_t inputs : {threads + n, threads + 2, threads > 1 ? threads - 1 : 1}) {
        for (int which = 0; which < 2; ++which) {
            const auto check = [&](auto values) {
                const KernelRun once = runs(0, n, inputs, values), general = runs(1, n, inputs, values);
                expectTwins(once, general);
                ASSERT_EQ(once.out.size(), threads);
                for (std::uint32_t i = 0; i < threads; ++i)
                    EXPECT_EQ(once.out[i], expectedRun(i, n, inputs, values)) << "thread " << i << ", " << inputs << " inputs";
                if (inputs >= threads + n - 1) {
                    EXPECT_THAT(once.reports, ::testing::IsEmpty());
                } else if (which == 0) {
                    EXPECT_THAT(once.reports, ::testing::Not(::testing::IsEmpty()));
                }
            };
            if (which == 0) check(plain);
            else check(stops);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, LoopRanges,
                         ::testing::Values(Shape{1, 1, 1, 1}, Shape{16, 4, 8, 2}, Shape{13, 3, 5, 3},
                                           Shape{64, 5, 32, 1}, Shape{40, 2, 33, 2}),
                         shapeName);

} // namespace
} // namespace metalcpu::testing
