// Square groups of 16 x 16 and 32 x 32 threads run their work-item loops, validated, with both
// sides constants (for_each_row, metalcpu/kernel_support.h), so that a check by index of a
// named threadgroup array indexed by the thread's position folds away and the loop vectorises
// as in the plain flavour (issue 14: validated within 2x of plain). Other shapes take the
// general loop. Both must report exactly what the general path reports: each kernel makes its
// access by index (`flat` = 0) and through a pointer into the array (`flat` = 1: the general
// path alone), at the same column of consecutive lines, and the two runs must give the same
// outputs and the same reports but for the line. Groups of 1, 7 x 3, 33 x 2, 64, 16 x 4,
// 16 x 16 and 32 x 32 threads; outputs between canary words.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ShaderValidationReport;

// Line numbers matter: the tests find them by text (lineOf).
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
// Fills a 16 x 16 tile with its elements' flat indices, every thread of the group its share.
void fill(threadgroup float (&tile)[16][16], uint2 l, uint2 size) {
    for (uint k = l.y * size.x + l.x; k < 256; k += size.x * size.y) tile[k / 16][k % 16] = float(k);
}
// Thread (x, y) sums column x (`mode` 0), as the tiled matmul reads tileB[k][local.x], or
// row y (`mode` 1), as it reads tileA[local.y][k], in a loop of constant bounds, as the
// matmul's: in a 16 x 16 group every check folds away. Past column 15
// the element is a later row's (inside the array, as on a GPU) until it leaves the array.
// Or (`mode` 2) it stores its linear index at tile[y + n][x], as the tiled matmul stores
// tileA[local.y][local.x], and reads back that element, or -1 where it is outside the tile.
kernel void tiles(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]], constant uint& flat [[buffer(2)]],
                  constant uint& mode [[buffer(3)]],
                  uint2 l [[thread_position_in_threadgroup]], uint2 size [[threads_per_threadgroup]],
                  uint2 g [[thread_position_in_grid]], uint2 grid [[threads_per_grid]]) {
    threadgroup float tile[16][16];
    threadgroup float* p = &tile[0][0];
    fill(tile, l, size);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint at = (l.y + n) * 16 + l.x;
    if (mode == 2) {
        if (flat == 0) tile[l.y + n][l.x]         = float(l.y * size.x + l.x);
        else           p   [(l.y + n) * 16 + l.x] = float(l.y * size.x + l.x);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float sum = at < 256 ? p[at] : -1.0f;
    if (mode == 0) {
        sum = 0.0f;
        if (flat == 0) for (uint k = 0; k < 16; ++k) sum += tile[k][l.x];
        else           for (uint k = 0; k < 16; ++k) sum += p   [k * 16 + l.x];
    } else if (mode == 1) {
        sum = 0.0f;
        if (flat == 0) for (uint k = 0; k < 16; ++k) sum += tile[l.y][k];
        else           for (uint k = 0; k < 16; ++k) sum += p   [l.y * 16 + k];
    }
    out[g.y * grid.x + g.x] = sum;
}
)";

/// The line of the first line of kKernels holding `text`.
unsigned lineOf(const char* text) { return lineHolding(kKernels, text); }

/// A grid of `gx` x `gy` threads in groups of `sx` x `sy` (whole groups only: the kernels
/// share the tile among threads_per_threadgroup threads).
using Shape2 = GridShape;
constexpr auto shape2Name = gridShapeName;

/// What a kernel made by index: its reports and its output, one float per thread of the grid.
struct KernelRun {
    std::vector<ShaderValidationReport> reports;
    std::vector<float> out;
};

class TileShapes : public ValidationOnFixture, public ::testing::WithParamInterface<Shape2> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    static inline MTL::Library* library_ = nullptr;
    static constexpr std::uint32_t kCanary = 0xC0FFEE11u;

    /// `tiles` in `mode` by index and through the pointer, with `n` at [[buffer(1)]]: the outputs
    /// (between canaries, which must stay) must be equal, and the reports the same but for the
    /// line (the pointer's access is on the next line). Returns the run by index.
    KernelRun runPair(std::uint32_t mode, std::uint32_t n) {
        const Shape2 s = GetParam();
        const std::uint32_t threads = s.gx * s.gy;
        MTL::ComputePipelineState* state = pipeline(library_, "tiles", nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        KernelRun runs[2];
        for (std::uint32_t flat : {0u, 1u}) {
            MTL::Buffer* out = buffer((threads + 2) * sizeof(std::uint32_t), "out");
            std::uint32_t* w = words(out);
            std::fill(w, w + threads + 2, 0xFFFFFFFFu);
            w[0] = w[threads + 1] = kCanary;
            MTL::CommandBuffer* commands = queue_->commandBuffer();
            MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
            e->setComputePipelineState(state);
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&n, sizeof n, 1);
            e->setBytes(&flat, sizeof flat, 2);
            e->setBytes(&mode, sizeof mode, 3);
            e->dispatchThreads(MTL::Size(s.gx, s.gy, 1), MTL::Size(s.sx, s.sy, 1));
            e->endEncoding();
            EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
            runs[flat].reports = reports();
            runs[flat].out.assign(floats(out) + 1, floats(out) + 1 + threads);
            EXPECT_EQ(w[0], kCanary);
            EXPECT_EQ(w[threads + 1], kCanary);
        }
        EXPECT_EQ(runs[0].out, runs[1].out) << "by index and through the pointer";
        EXPECT_EQ(runs[0].reports.size(), runs[1].reports.size());
        for (std::size_t r = 0; r < runs[0].reports.size() && r < runs[1].reports.size(); ++r) {
            const ShaderValidationReport& byIndex = runs[0].reports[r];
            ShaderValidationReport twin = runs[1].reports[r];
            EXPECT_EQ(twin.location.line, byIndex.location.line + 1);
            // Every field, through the JSON line, but the line and the command buffer's index.
            twin.location.line = byIndex.location.line;
            twin.commandBufferIndex = byIndex.commandBufferIndex;
            EXPECT_EQ(byIndex.text(), twin.text());
            EXPECT_EQ(byIndex.json(), twin.json());
        }
        return runs[0];
    }

    /// Checks `r` against the sums `element(x, y, k)` gives (a flat index into the tile, which
    /// holds its flat indices) over k < rows: each element past the tile reads zero and is
    /// one load reported at the line holding `line`, first by the group's first such thread.
    template <class Element>
    void expectSums(const KernelRun& r, std::uint32_t rows, const char* line, const Element& element) {
        const Shape2 s = GetParam();
        std::uint32_t outside = 0;
        std::uint32_t firstLinear = ~0u, firstOffset = 0;
        for (std::uint32_t gy = 0; gy < s.gy; ++gy)
            for (std::uint32_t gx = 0; gx < s.gx; ++gx) {
                const std::uint32_t x = gx % s.sx, y = gy % s.sy;
                float want = 0.0f;
                for (std::uint32_t k = 0; k < rows; ++k) {
                    const std::uint32_t at = element(x, y, k);
                    if (at < 256) {
                        want += float(at);
                        continue;
                    }
                    ++outside;
                    if (y * s.sx + x < firstLinear) firstLinear = y * s.sx + x, firstOffset = at * 4;
                }
                EXPECT_EQ(r.out[gy * s.gx + gx], want) << "thread " << gx << ", " << gy;
            }
        if (!outside) {
            EXPECT_THAT(r.reports, ::testing::IsEmpty());
            return;
        }
        ASSERT_EQ(r.reports.size(), 1u);
        EXPECT_EQ(r.reports[0].access, Access::Load);
        EXPECT_EQ(r.reports[0].offset, firstOffset);
        EXPECT_EQ(r.reports[0].count, outside);
        EXPECT_EQ(r.reports[0].location.line, lineOf(line));
        // Groups run in parallel, so which group reports first varies; in each, this thread does.
        EXPECT_EQ(r.reports[0].threadPositionInThreadgroup, (validation::Position{firstLinear % s.sx, firstLinear / s.sx, 0}));
    }
};

// Test that threads summing their column of the 16 x 16 tile read its elements silently while
// inside it (a column past 15 reads later rows, as on a GPU) and that each load past its end
// reads zero and is reported, as through a pointer.
TEST_P(TileShapes, ColumnReads) {
    expectSums(runPair(0, 0), 16, "if (flat == 0) for (uint k = 0; k < 16; ++k) sum += tile[k][l.x];",
               [](std::uint32_t x, std::uint32_t, std::uint32_t k) { return k * 16 + x; });
}

// Test the same for rows: thread (x, y) sums row y, reported where y is past the last row.
TEST_P(TileShapes, RowReads) {
    expectSums(runPair(1, 0), 16, "if (flat == 0) for (uint k = 0; k < 16; ++k) sum += tile[l.y][k];",
               [](std::uint32_t, std::uint32_t y, std::uint32_t k) { return y * 16 + k; });
}

// Test that each thread's store lands where a pointer's would while inside the tile, and that
// each store past it is reported and dropped: shifted by 0 rows (reported only where the
// group is taller or wider than the tile) and by 15 (every row but the first past the end).
TEST_P(TileShapes, Stores) {
    const Shape2 s = GetParam();
    for (std::uint32_t shift : {0u, 15u}) {
        const KernelRun r = runPair(2, shift);
        std::uint32_t outside = 0, firstLinear = ~0u, firstOffset = 0;
        for (std::uint32_t gy = 0; gy < s.gy; ++gy)
            for (std::uint32_t gx = 0; gx < s.gx; ++gx) {
                const std::uint32_t x = gx % s.sx, y = gy % s.sy, me = y * s.sx + x, at = (y + shift) * 16 + x;
                if (at >= 256) {
                    ++outside;
                    if (me < firstLinear) firstLinear = me, firstOffset = at * 4;
                }
                // Where a column past 15 reaches a later row, two threads store into one
                // element (a race, as on a GPU): either value may stay.
                std::vector<float> writers;
                for (std::uint32_t other = 0; at < 256 && other < s.sx * s.sy; ++other)
                    if ((other / s.sx + shift) * 16 + other % s.sx == at) writers.push_back(float(other));
                if (at >= 256) writers.push_back(-1.0f);
                EXPECT_THAT(writers, ::testing::Contains(r.out[gy * s.gx + gx]))
                    << "shift " << shift << ", thread " << gx << ", " << gy;
            }
        if (!outside) {
            EXPECT_THAT(r.reports, ::testing::IsEmpty()) << "shift " << shift;
            continue;
        }
        ASSERT_EQ(r.reports.size(), 1u) << "shift " << shift;
        EXPECT_EQ(r.reports[0].access, Access::Store);
        EXPECT_EQ(r.reports[0].offset, firstOffset);
        EXPECT_EQ(r.reports[0].count, outside);
        EXPECT_EQ(r.reports[0].location.line, lineOf("if (flat == 0) tile[l.y + n][l.x]"));
        EXPECT_EQ(r.reports[0].threadPositionInThreadgroup, (validation::Position{firstLinear % s.sx, firstLinear / s.sx, 0}));
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TileShapes,
                         ::testing::Values(Shape2{1, 1, 1, 1}, Shape2{14, 3, 7, 3}, Shape2{33, 4, 33, 2},
                                           Shape2{128, 1, 64, 1}, Shape2{16, 8, 16, 4}, Shape2{32, 16, 16, 16},
                                           Shape2{32, 32, 32, 32}),
                         shape2Name);

} // namespace
} // namespace metalcpu::testing
