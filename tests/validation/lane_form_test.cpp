// The checked lane form (metalcpu/lane_checked.h): a validated kernel whose threads run as
// vector lanes checks each vector access once, and falls back to each lane's checked scalar
// access when the block's range leaves the region. Reports and outputs must be those of the
// interleaved form (METALCPU_LANE_VECTORS=0) exactly: the same text and JSON, the same values
// (zero for a load past the end, a dropped store), for a per-thread load through `p[i]`, a
// per-thread float4 load and store through `*(device float4*)(p + i)`, a per-thread store and
// a load the lanes of a row share, each pushed past its buffer's end by a shift (whole float4s for
// the float4 accesses, which are aligned). Groups of 1,
// 13, 32, 45 and 64 threads, two rows of groups and a partial group along x; outputs between
// canary words.
#include "validation_fixture.h"

#include "support/config.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::ShaderValidationReport;

constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
struct Shape { uint cols; uint inner; uint shiftA; uint shiftB; uint shiftC; };
// The naive matmul's accesses: a[] the same for a row's lanes, b[] and c[] one per lane.
kernel void rows(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                 device float* c [[buffer(2)]], constant Shape& s [[buffer(3)]],
                 uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= s.cols) return;
    float sum = 0.0f;
    for (uint k = 0; k < s.inner; ++k) {
        sum += a[gid.y * s.inner + k + s.shiftA] * b[k * s.cols + gid.x + s.shiftB];
    }
    c[gid.y * s.cols + gid.x + s.shiftC] = sum;
}
// The register-tiled matmuls' accesses: float4s through cast pointers.
kernel void quads(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                  device float* c [[buffer(2)]], constant Shape& s [[buffer(3)]],
                  uint2 gid [[thread_position_in_grid]]) {
    const uint j = gid.x * 4;
    if (gid.x >= s.cols) return;
    float4 acc = float4(0.0f);
    for (uint k = 0; k < s.inner; ++k) {
        acc += *(device const float4*)(a + (gid.y * s.inner + k) * 4 + s.shiftA) *
               *(device const float4*)(b + k * s.cols * 4 + j + s.shiftB);
    }
    *(device float4*)(c + gid.y * s.cols * 4 + j + s.shiftC) = acc;
}
)";

struct LaneCase {
    std::uint32_t group; ///< threads per group along x (one row each)
};

std::string laneCaseName(const ::testing::TestParamInfo<LaneCase>& info) {
    return "group" + std::to_string(info.param.group);
}

class CheckedLanes : public ValidationOnFixture, public ::testing::WithParamInterface<LaneCase> {
protected:
    static MTL::Library* compileWithLanes(bool lanes) {
        setenv("METALCPU_LANE_VECTORS", lanes ? "1" : "0", 1);
        support::reloadConfig();
        MTL::Library* library = compile(kKernels);
        unsetenv("METALCPU_LANE_VECTORS");
        support::reloadConfig();
        return library;
    }
    static void SetUpTestSuite() {
        libraries_[0] = compileWithLanes(false);
        libraries_[1] = compileWithLanes(true);
    }
    static void TearDownTestSuite() {
        for (MTL::Library*& l : libraries_) {
            if (l) l->release();
            l = nullptr;
        }
    }
    static inline MTL::Library* libraries_[2] = {nullptr, nullptr};
    static constexpr std::uint32_t kCanary = 0xC0FFEE11u;
    static constexpr std::uint32_t kInner = 5, kRows = 2;

    struct Run {
        std::vector<ShaderValidationReport> reports;
        std::vector<std::uint32_t> out;
    };

    /// `kernel` of one library (`lanes`) over two rows of cols threads (a partial last group),
    /// `width` floats per thread (1 or 4), with the shifts of `shape`.
    Run runOne(bool lanes, const char* kernel, std::uint32_t width, std::uint32_t shiftA, std::uint32_t shiftB,
               std::uint32_t shiftC) {
        const std::uint32_t group = GetParam().group, cols = 2 * group + 3;
        const std::uint32_t shape[5] = {cols, kInner, shiftA, shiftB, shiftC};
        MTL::ComputePipelineState* state = pipeline(libraries_[lanes], kernel, nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        // Inputs exactly as long as the unshifted kernel reads, so any shift leaves them.
        const std::uint32_t aFloats = kRows * kInner * width, bFloats = kInner * cols * width, cFloats = kRows * cols * width;
        MTL::Buffer* a = buffer(aFloats * sizeof(float), "a");
        MTL::Buffer* b = buffer(bFloats * sizeof(float), "b");
        for (std::uint32_t i = 0; i < aFloats; ++i) floats(a)[i] = float(i % 7 + 1);
        for (std::uint32_t i = 0; i < bFloats; ++i) floats(b)[i] = float(i % 5) - 1.5f;
        // Four canary words before the output (a float4 store is aligned to 16 bytes) and one after.
        MTL::Buffer* out = buffer((cFloats + 5) * sizeof(std::uint32_t), "c");
        auto* w = static_cast<std::uint32_t*>(out->contents());
        for (std::uint32_t i = 0; i < cFloats + 5; ++i) w[i] = i < 4 || i == cFloats + 4 ? kCanary : 0xFFFFFFFFu;
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
        e->setComputePipelineState(state);
        e->setBuffer(a, 0, 0);
        e->setBuffer(b, 0, 1);
        // The binding ends where the buffer does: the trailing canary is inside it.
        e->setBuffer(out, 4 * sizeof(std::uint32_t), 2);
        e->setBytes(shape, sizeof shape, 3);
        e->dispatchThreads(MTL::Size(cols, kRows, 1), MTL::Size(group, 1, 1));
        e->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        // Every word, canaries included: a store shifted past the output lands on the trailing
        // canary (inside c's binding, which ends where the buffer does) in both forms alike.
        Run r{reports(), std::vector<std::uint32_t>(w, w + cFloats + 5)};
        for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(w[i], kCanary);
        if (shiftC == 0) {
            EXPECT_EQ(w[cFloats + 4], kCanary);
        }
        return r;
    }

    /// The lane form's run must be the interleaved form's: outputs, and each report's text and
    /// JSON; returns the number of reports.
    std::size_t expectSame(const char* kernel, std::uint32_t width, std::uint32_t shiftA, std::uint32_t shiftB,
                           std::uint32_t shiftC) {
        const Run interleaved = runOne(false, kernel, width, shiftA, shiftB, shiftC);
        const Run lanes = runOne(true, kernel, width, shiftA, shiftB, shiftC);
        EXPECT_EQ(lanes.out, interleaved.out);
        EXPECT_EQ(lanes.reports.size(), interleaved.reports.size());
        for (std::size_t r = 0; r < lanes.reports.size() && r < interleaved.reports.size(); ++r) {
            ShaderValidationReport twin = lanes.reports[r];
            // Every field but the command buffer's index and the pipeline's UID (two libraries).
            twin.commandBufferIndex = interleaved.reports[r].commandBufferIndex;
            twin.pipelineUid = interleaved.reports[r].pipelineUid;
            EXPECT_EQ(twin.text(), interleaved.reports[r].text()) << "report " << r;
            EXPECT_EQ(twin.json(), interleaved.reports[r].json()) << "report " << r;
        }
        return interleaved.reports.size();
    }
};

// Test that in-bounds accesses report nothing and compute what the interleaved form does.
TEST_P(CheckedLanes, InsideReportsNothing) {
    EXPECT_EQ(expectSame("rows", 1, 0, 0, 0), 0u);
    EXPECT_EQ(expectSame("quads", 4, 0, 0, 0), 0u);
}

// Test that a per-thread load past the end reads zero and is reported as each thread would:
// shifted by a group and a few, so that whole blocks of eight (the lane form's) straddle the
// end, as well as the partial last group's (the interleaved form's).
TEST_P(CheckedLanes, PerThreadLoadPastTheEnd) {
    const std::uint32_t shift = GetParam().group + 5;
    EXPECT_GT(expectSame("rows", 1, 0, 3, 0), 0u);
    EXPECT_GT(expectSame("rows", 1, 0, shift, 0), 0u);
    EXPECT_GT(expectSame("quads", 4, 0, 4 * shift, 0), 0u);
}

// Test that a load the lanes share, past the end, is reported by every thread.
TEST_P(CheckedLanes, SharedLoadPastTheEnd) {
    EXPECT_GT(expectSame("rows", 1, 4, 0, 0), 0u);
    EXPECT_GT(expectSame("quads", 4, 8, 0, 0), 0u);
}

// Test that a store past the end is dropped and reported as each thread would (shifted as
// the loads are).
TEST_P(CheckedLanes, StorePastTheEnd) {
    const std::uint32_t shift = GetParam().group + 5;
    EXPECT_GT(expectSame("rows", 1, 0, 0, 5), 0u);
    EXPECT_GT(expectSame("rows", 1, 0, 0, shift), 0u);
    EXPECT_GT(expectSame("quads", 4, 0, 0, 4 * shift), 0u);
}

INSTANTIATE_TEST_SUITE_P(Groups, CheckedLanes,
                         ::testing::Values(LaneCase{1}, LaneCase{13}, LaneCase{32}, LaneCase{45}, LaneCase{64}),
                         laneCaseName);

} // namespace
} // namespace metalcpu::testing
