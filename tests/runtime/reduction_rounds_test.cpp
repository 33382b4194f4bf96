// SIMD-group reductions as whole statements, split into work-item loops, over several rounds
// per threadgroup: each round hands in new operands, the reduction is computed once the
// deposit loop is done (simd_compute) and every thread then takes its result
// (work_items.h, run_collect_work_items). The rounds check that each one starts afresh; 2-D
// threadgroups over a grid they do not divide in x or y check the loops that start part-way
// through a row; threads that return check that they neither take part nor get a result;
// uint, float4 and half results cover the copies of a result for each thread; a reduction
// under a per-thread condition in the loop covers the lanes that took the branch in each round. Widths 4, 8
// and 32, plain and shader-validated pipelines; canaries around the output.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

kernel void reduction_rounds(device const uint* in [[buffer(0)]],
                             device uint* out [[buffer(1)]],
                             constant uint& rounds [[buffer(2)]],
                             uint2 gid [[thread_position_in_grid]],
                             uint2 grid [[threads_per_grid]]) {
    const uint index = gid.y * grid.x + gid.x;
    const uint raw = in[index];
    if (raw % 11 == 5) return;
    uint total = 0;
    uint top = 0;
    float4 vector_total = float4(0.0f);
    half half_total = 0.0h;
    uint branch_total = 0;
    for (uint round = 0; round < rounds; ++round) {
        uint sum = simd_sum(raw * (round + 1));
        top = simd_max(raw + round);
        float4 v = simd_sum(float4(float(raw % 16), 1.0f, float(round), float(raw % 3)));
        half h = simd_sum(half(raw % 8));
        total += sum;
        vector_total += v;
        half_total += h;
        // A reduction under a condition that differs per thread and per round: it covers the
        // lanes that took the branch this round.
        if ((raw + round) % 3 != 0) {
            uint part = simd_sum(raw + round);
            branch_total += part;
        }
    }
    device uint* o = out + index * 6;
    o[0] = total;
    o[1] = top;
    o[2] = uint(vector_total.x);
    o[3] = uint(vector_total.y + vector_total.z + vector_total.w);
    o[4] = uint(half_total);
    o[5] = branch_total;
}
)";

constexpr unsigned kSlots = 6;
constexpr std::uint32_t kRounds = 3;

/// (threadgroup width, threadgroup height, SIMD width, shader validation on)
using RoundsShape = std::tuple<unsigned, unsigned, unsigned, bool>;

std::string roundsShapeName(const ::testing::TestParamInfo<RoundsShape>& info) {
    return std::to_string(std::get<0>(info.param)) + "x" + std::to_string(std::get<1>(info.param)) + "_width" +
           std::to_string(std::get<2>(info.param)) + (std::get<3>(info.param) ? "_validated" : "_plain");
}

class ReductionRounds : public SimdWidthTest<RoundsShape> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    unsigned groupWidth() const { return std::get<0>(GetParam()); }
    unsigned groupHeight() const { return std::get<1>(GetParam()); }
    unsigned width() const override { return std::get<2>(GetParam()); }
    bool validated() const override { return std::get<3>(GetParam()); }
    /// Two and a half threadgroups across, one and a half down: the last column and row of
    /// groups are cut by the grid.
    unsigned gridWidth() const { return groupWidth() * 2 + (groupWidth() + 1) / 2; }
    unsigned gridHeight() const { return groupHeight() + (groupHeight() + 1) / 2; }

    /// What reduction_rounds writes for each thread, by Metal's rules: a SIMD-group is
    /// width() consecutive threads of its (possibly cut) threadgroup, x fastest, and its
    /// reductions cover the threads that have not returned; returned threads write nothing.
    std::vector<std::uint32_t> expected(const std::vector<std::uint32_t>& values) const {
        const unsigned gw = gridWidth(), gh = gridHeight();
        std::vector<std::uint32_t> out(std::size_t(gw) * gh * kSlots, kCanary);
        for (unsigned y0 = 0; y0 < gh; y0 += groupHeight())
            for (unsigned x0 = 0; x0 < gw; x0 += groupWidth()) {
                const unsigned w = std::min(groupWidth(), gw - x0), h = std::min(groupHeight(), gh - y0);
                const auto index = [&](unsigned linear) { return (y0 + linear / w) * gw + x0 + linear % w; };
                for (unsigned first = 0; first < w * h; first += width()) {
                    const unsigned end = std::min(first + width(), w * h);
                    std::uint32_t total = 0, top = 0, vx = 0, vrest = 0, halves = 0;
                    std::vector<std::uint32_t> branch(end - first, 0);
                    for (std::uint32_t round = 0; round < kRounds; ++round) {
                        std::uint32_t sum = 0, maximum = 0, x = 0, rest = 0, half = 0, taken = 0;
                        for (unsigned linear = first; linear < end; ++linear) {
                            const std::uint32_t raw = values[index(linear)];
                            if (returnsEarly(raw)) continue;
                            sum += raw * (round + 1);
                            maximum = std::max(maximum, raw + round);
                            x += raw % 16;
                            rest += 1 + round + raw % 3;
                            half += raw % 8;
                            if ((raw + round) % 3 != 0) taken += raw + round;
                        }
                        for (unsigned linear = first; linear < end; ++linear) {
                            const std::uint32_t raw = values[index(linear)];
                            if (!returnsEarly(raw) && (raw + round) % 3 != 0) branch[linear - first] += taken;
                        }
                        total += sum;
                        top = maximum;
                        vx += x;
                        vrest += rest;
                        halves += half;
                    }
                    for (unsigned linear = first; linear < end; ++linear) {
                        if (returnsEarly(values[index(linear)])) continue;
                        std::uint32_t* o = &out[std::size_t(index(linear)) * kSlots];
                        o[0] = total;
                        o[1] = top;
                        o[2] = vx;
                        o[3] = vrest;
                        o[4] = halves;
                        o[5] = branch[linear - first];
                    }
                }
            }
        return out;
    }

    inline static MTL::Library* library_ = nullptr;
};

// Test each thread's reductions over three rounds against the model, and that the kernel is
// split into work-item loops (on fibers it would compute the same).
TEST_P(ReductionRounds, EveryRoundOverTheActiveLanes) {
    MTL::ComputePipelineState* state = pipeline(library_, "reduction_rounds", validated());
    ASSERT_NE(state, nullptr);
    expectLowerings({{"reduction_rounds", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return pipeline(library_, name, validated()); });
    const unsigned count = gridWidth() * gridHeight();
    MTL::Buffer* in = device_->newBuffer(count * 4, MTL::ResourceStorageModeShared);
    const std::vector<std::uint32_t> values = inputs(count);
    std::copy(values.begin(), values.end(), static_cast<std::uint32_t*>(in->contents()));
    GuardedBuffer out(device_, std::size_t(count) * kSlots * 4);
    std::fill_n(out.data<std::uint32_t>(), std::size_t(count) * kSlots, kCanary);

    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(in, 0, 0);
    out.bind(encoder, 1);
    encoder->setBytes(&kRounds, sizeof kRounds, 2);
    encoder->dispatchThreads(MTL::Size(gridWidth(), gridHeight(), 1), MTL::Size(groupWidth(), groupHeight(), 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
        << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);

    const std::vector<std::uint32_t> want = expected(values);
    unsigned failures = 0;
    for (std::size_t i = 0; i < want.size() && failures < 20; ++i) {
        const std::uint32_t got = out.data<std::uint32_t>()[i];
        if (got == want[i]) continue;
        ADD_FAILURE() << "thread " << i / kSlots << " slot " << i % kSlots << ": " << got << ", expected " << want[i];
        ++failures;
    }
    out.expectCanariesIntact();
    in->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Width32, ReductionRounds,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 64u), ::testing::Values(1u, 3u),
                                            ::testing::Values(32u), ::testing::Bool()),
                         roundsShapeName);
INSTANTIATE_TEST_SUITE_P(TwoDimensional, ReductionRounds,
                         ::testing::Values(RoundsShape{8, 5, 32, false}, RoundsShape{16, 16, 32, false},
                                           RoundsShape{33, 2, 32, false}, RoundsShape{5, 7, 8, false},
                                           RoundsShape{6, 3, 4, true}),
                         roundsShapeName);

} // namespace
} // namespace metalcpu::testing
