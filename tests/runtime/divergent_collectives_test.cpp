// SIMD-group functions on fibers (in helper functions, as operands) where the lanes of a
// SIMD-group diverge to different collectives: as on Metal, each collective runs over the
// lanes that reached it (its active threads), one round per collective (a helper's per call
// of it), and the lanes meet again after the branch or the loop. Checked against a CPU model,
// over threadgroups of 1, 20, 32, 45 and 64 threads (widths 8 and 64 too) and grids that cut
// the last group, with threads that return first, plain and shader-validated; canaries
// around the outputs.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// Different collectives on the two sides of an if/else, in a helper.
uint split(uint x, uint lane) {
    if (lane % 3 == 0) return simd_sum(x);
    else return simd_max(x * 2);
}

// The same function at two sites on the two sides of a branch, on separate lines and on one.
uint two_sites(uint x) {
    uint r;
    if (x % 2 == 0) r = simd_sum(x);
    else r = simd_sum(x + 100);
    return r;
}
uint two_sites_one_line(uint x) { return x % 3 == 0 ? simd_sum(x) : simd_sum(x * 3); }

// Lanes leave the loop after lane % 5 + 1 iterations: each round counts the lanes still in it
// and the caller's rank among them.
uint shrinking(uint lane) {
    uint acc = 0;
    for (uint i = 0; i < lane % 5 + 1; ++i) acc += simd_sum(1u) * 100 + simd_prefix_exclusive_sum(1u);
    return acc;
}

// A vote, the active mask and a shuffle from the neighbour lane on each side.
void sides(uint x, uint lane, device uint* o) {
    if (x % 3 == 0) {
        const ulong votes = ulong(simd_ballot(x % 2 == 0));
        const ulong active = ulong(simd_active_threads_mask());
        o[0] = uint(votes); o[1] = uint(votes >> 32); o[2] = uint(active); o[3] = uint(active >> 32);
        o[4] = simd_shuffle(x, ushort(lane ^ 1));
    } else {
        const ulong active = ulong(simd_active_threads_mask());
        const ulong votes = ulong(simd_ballot(x % 4 == 1));
        o[0] = uint(votes); o[1] = uint(votes >> 32); o[2] = uint(active); o[3] = uint(active >> 32);
        o[4] = simd_shuffle(x + 1, ushort(lane ^ 1));
    }
}

// Quad functions under divergence: each side of each quad on its own.
uint quads(uint x, uint quad_lane, thread uint& mask) {
    if (quad_lane < 2 || x % 5 == 0) {
        mask = uint(quad_vote::vote_t(quad_active_threads_mask()));
        return quad_sum(x);
    }
    mask = uint(quad_vote::vote_t(quad_active_threads_mask())) + 16;
    return quad_max(x) + 1000;
}

// Defined below the kernel that calls it: its collective counts where it is called.
uint defined_below(uint x);
// Called from both sides of a branch: two calls, so two collectives.
uint called_twice(uint x) { return simd_sum(x); }

kernel void helper_if_else(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                           uint gid [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    const uint r = split(x, lane);
    out[gid * 2] = r;
    out[gid * 2 + 1] = simd_sum(1u) + 0; // after the if: every live lane again
}

kernel void same_function_two_sites(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                                    uint gid [[thread_position_in_grid]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    out[gid * 2] = two_sites(x);
    out[gid * 2 + 1] = two_sites_one_line(x);
}

kernel void loop_leaving_early(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                               uint gid [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    const uint r = shrinking(lane);
    out[gid * 2] = r;
    out[gid * 2 + 1] = simd_sum(r) + 0; // the lanes that left early wait for the others
}

kernel void votes_per_side(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                           uint gid [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    sides(x, lane, out + gid * 5);
}

kernel void quad_divergence(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                            uint gid [[thread_position_in_grid]], uint quad_lane [[thread_index_in_quadgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    uint mask = 0;
    out[gid * 2] = quads(x, quad_lane, mask);
    out[gid * 2 + 1] = mask;
}

kernel void helper_defined_below(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                                 uint gid [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    uint r = 7;
    if (lane % 3 == 0) r = defined_below(x);
    out[gid * 2] = r;
    out[gid * 2 + 1] = simd_sum(1u) + 0; // after the if, although earlier in the file
}

kernel void one_helper_two_calls(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                                 uint gid [[thread_position_in_grid]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    uint r;
    if (x % 2 == 0) r = called_twice(x);
    else r = called_twice(x + 100);
    out[gid * 2] = r;
    out[gid * 2 + 1] = simd_sum(1u) + 0;
}

uint defined_below(uint x) { return simd_sum(x); }
)";

/// The model's view of one thread: its lanes' values and which of them are live (exist and
/// have not returned), in its SIMD-group or its quad.
struct Lanes {
    std::vector<std::uint32_t> values;
    std::vector<bool> live;
    unsigned self = 0;

    /// The lanes that are live and satisfy `at` (the same collective as the caller's).
    std::vector<unsigned> where(const std::function<bool(std::uint32_t value, unsigned lane)>& at) const {
        std::vector<unsigned> lanes;
        for (unsigned l = 0; l < values.size(); ++l)
            if (live[l] && at(values[l], l)) lanes.push_back(l);
        return lanes;
    }
};

class DivergentCollectives : public SimdShapedKernelTest<kKernels> {
protected:
    /// Two and a half groups: the last one is cut by the grid.
    unsigned threads() const { return size() * 2 + (size() + 1) / 2; }

    /// Runs `name` with `slots` outputs per thread and checks each live thread's against
    /// `model(lanes, quad)`; returned threads leave their slots alone.
    void check(const char* name, unsigned slots,
               const std::function<std::vector<std::uint32_t>(const Lanes& simdgroup, const Lanes& quad)>& model) {
        const std::vector<std::uint32_t> values = inputs(threads());
        GuardedBuffer in(device_, threads() * 4), out(device_, std::size_t(threads()) * slots * 4);
        std::copy(values.begin(), values.end(), in.data<std::uint32_t>());
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        in.bind(encoder, 0);
        out.bind(encoder, 1);
        encoder->dispatchThreads(MTL::Size(threads(), 1, 1), MTL::Size(size(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
        state->release();
        unsigned failures = 0;
        for (unsigned begin = 0; begin < threads(); begin += size()) {
            const unsigned end = std::min(begin + size(), threads());
            for (unsigned gid = begin; gid < end && failures < 20; ++gid) {
                const std::uint32_t* got = out.data<std::uint32_t>() + std::size_t(gid) * slots;
                std::vector<std::uint32_t> expected(slots, kCanary);
                if (!returnsEarly(values[gid])) {
                    const unsigned linear = gid - begin;
                    expected = model(lanesOf(values, begin, end, linear, width()), lanesOf(values, begin, end, linear, 4));
                }
                for (unsigned k = 0; k < slots; ++k) {
                    if (got[k] == expected[k]) continue;
                    ADD_FAILURE() << name << ": thread " << gid << " slot " << k << ": " << got[k] << ", expected "
                                  << expected[k];
                    ++failures;
                }
            }
        }
        out.expectCanariesIntact();
    }

    /// Thread `linear`'s group of `count` lanes in the threadgroup [begin, end) of the grid.
    static Lanes lanesOf(const std::vector<std::uint32_t>& in, unsigned begin, unsigned end, unsigned linear,
                         unsigned count) {
        Lanes lanes;
        lanes.self = linear % count;
        for (unsigned l = 0; l < count; ++l) {
            const unsigned gid = begin + linear - lanes.self + l;
            lanes.values.push_back(gid < end ? in[gid] : 0u);
            lanes.live.push_back(gid < end && !returnsEarly(in[gid]));
        }
        return lanes;
    }

    static std::uint32_t sum(const Lanes& l, const std::vector<unsigned>& lanes, std::uint32_t (*f)(std::uint32_t)) {
        std::uint32_t total = 0;
        for (unsigned lane : lanes) total += f(l.values[lane]);
        return total;
    }
    static std::uint64_t bits(const std::vector<unsigned>& lanes) {
        std::uint64_t mask = 0;
        for (unsigned lane : lanes) mask |= std::uint64_t(1) << lane;
        return mask;
    }
};

std::uint32_t same(std::uint32_t v) { return v; }

// Test an if/else in a helper with simd_sum on one side and simd_max on the other: each side
// reduces its own lanes; after the if, a sum of ones counts every live lane again.
TEST_P(DivergentCollectives, IfElseInAHelper) {
    check("helper_if_else", 2, [](const Lanes& s, const Lanes&) {
        const bool left = s.self % 3 == 0;
        const std::vector<unsigned> side = s.where([&](std::uint32_t, unsigned l) { return (l % 3 == 0) == left; });
        std::uint32_t r = 0;
        for (unsigned l : side) r = left ? r + s.values[l] : std::max(r, s.values[l] * 2);
        return std::vector<std::uint32_t>{r, std::uint32_t(s.where([](std::uint32_t, unsigned) { return true; }).size())};
    });
}

// Test the same function (simd_sum) called at two sites on the two sides of a branch: two
// rounds, on separate lines and on one line (told apart by the column).
TEST_P(DivergentCollectives, SameFunctionAtTwoSites) {
    check("same_function_two_sites", 2, [](const Lanes& s, const Lanes&) {
        const std::uint32_t x = s.values[s.self];
        const bool even = x % 2 == 0, third = x % 3 == 0;
        const auto evens = s.where([&](std::uint32_t v, unsigned) { return (v % 2 == 0) == even; });
        const auto thirds = s.where([&](std::uint32_t v, unsigned) { return (v % 3 == 0) == third; });
        const std::uint32_t a = even ? sum(s, evens, same) : sum(s, evens, [](std::uint32_t v) { return v + 100; });
        const std::uint32_t b = third ? sum(s, thirds, same) : sum(s, thirds, [](std::uint32_t v) { return v * 3; });
        return std::vector<std::uint32_t>{a, b};
    });
}

// Test a loop that lanes leave after lane % 5 + 1 iterations: iteration i counts the lanes
// still in it (lane % 5 >= i) and ranks the caller among them; the sum after the loop waits
// for the last lane to leave and covers every live lane.
TEST_P(DivergentCollectives, LoopThatLanesLeaveEarly) {
    check("loop_leaving_early", 2, [](const Lanes& s, const Lanes&) {
        auto accumulated = [&](unsigned self) {
            std::uint32_t acc = 0;
            for (unsigned i = 0; i <= self % 5; ++i) {
                const auto in = s.where([&](std::uint32_t, unsigned l) { return l % 5 >= i; });
                acc += std::uint32_t(in.size()) * 100 + std::uint32_t(std::count_if(in.begin(), in.end(), [&](unsigned l) { return l < self; }));
            }
            return acc;
        };
        std::uint32_t total = 0;
        for (unsigned l : s.where([](std::uint32_t, unsigned) { return true; })) total += accumulated(l);
        return std::vector<std::uint32_t>{accumulated(s.self), total};
    });
}

// Test simd_ballot, simd_active_threads_mask and simd_shuffle on each side of a branch: the
// vote and the mask hold that side's lanes only, and a shuffle from a lane on the other side
// reads zero, as from an inactive lane.
TEST_P(DivergentCollectives, VotesAndShufflesPerSide) {
    check("votes_per_side", 5, [](const Lanes& s, const Lanes&) {
        const bool third = s.values[s.self] % 3 == 0;
        const auto side = s.where([&](std::uint32_t v, unsigned) { return (v % 3 == 0) == third; });
        std::vector<unsigned> voting;
        for (unsigned l : side)
            if (third ? s.values[l] % 2 == 0 : s.values[l] % 4 == 1) voting.push_back(l);
        const std::uint64_t votes = bits(voting), active = bits(side);
        const unsigned partner = s.self ^ 1;
        const bool partnerHere = partner < s.values.size() && std::find(side.begin(), side.end(), partner) != side.end();
        const std::uint32_t shuffled = partnerHere ? s.values[partner] + (third ? 0u : 1u) : 0u;
        return std::vector<std::uint32_t>{std::uint32_t(votes), std::uint32_t(votes >> 32), std::uint32_t(active),
                                          std::uint32_t(active >> 32), shuffled};
    });
}

// Test quad_sum, quad_max and quad_active_threads_mask under divergence: each side of each quad
// reduces its own lanes.
TEST_P(DivergentCollectives, QuadFunctionsPerSide) {
    check("quad_divergence", 2, [](const Lanes&, const Lanes& q) {
        auto first = [&](std::uint32_t v, unsigned l) { return l < 2 || v % 5 == 0; };
        const bool mine = first(q.values[q.self], q.self);
        const auto side = q.where([&](std::uint32_t v, unsigned l) { return first(v, l) == mine; });
        std::uint32_t r = 0;
        for (unsigned l : side) r = mine ? r + q.values[l] : std::max(r, q.values[l]);
        return std::vector<std::uint32_t>{mine ? r : r + 1000, std::uint32_t(bits(side)) + (mine ? 0u : 16u)};
    });
}

// Test a helper defined below the kernel, called on one side of an if: its collective is
// reached before the sum after the if, which covers every live lane again (ordered by the
// source alone, the sum after the if would go first, with the other side's lanes only).
TEST_P(DivergentCollectives, HelperDefinedBelowItsCaller) {
    check("helper_defined_below", 2, [](const Lanes& s, const Lanes&) {
        const std::uint32_t live = std::uint32_t(s.where([](std::uint32_t, unsigned) { return true; }).size());
        if (s.self % 3 != 0) return std::vector<std::uint32_t>{7u, live};
        const auto side = s.where([](std::uint32_t, unsigned l) { return l % 3 == 0; });
        return std::vector<std::uint32_t>{sum(s, side, same), live};
    });
}

// Test one helper called from both sides of a branch: two calls are two collectives, each
// over its own side's lanes (by the helper's own site alone they would meet as one).
TEST_P(DivergentCollectives, OneHelperFromTwoCalls) {
    check("one_helper_two_calls", 2, [](const Lanes& s, const Lanes&) {
        const bool even = s.values[s.self] % 2 == 0;
        const auto side = s.where([&](std::uint32_t v, unsigned) { return (v % 2 == 0) == even; });
        const std::uint32_t r = even ? sum(s, side, same) : sum(s, side, [](std::uint32_t v) { return v + 100; });
        return std::vector<std::uint32_t>{r,
                                          std::uint32_t(s.where([](std::uint32_t, unsigned) { return true; }).size())};
    });
}

// Test that these kernels run on fibers (their collectives are in helpers or operands), which
// is the lowering whose rendezvous this file is about.
TEST_P(DivergentCollectives, RunOnFibers) {
    expectLowerings({{"helper_if_else", MC_KERNEL_USES_BARRIERS},
                     {"same_function_two_sites", MC_KERNEL_USES_BARRIERS},
                     {"loop_leaving_early", MC_KERNEL_USES_BARRIERS},
                     {"votes_per_side", MC_KERNEL_USES_BARRIERS},
                     {"quad_divergence", MC_KERNEL_USES_BARRIERS},
                     {"helper_defined_below", MC_KERNEL_USES_BARRIERS},
                     {"one_helper_two_calls", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, DivergentCollectives,
                         ::testing::Combine(::testing::Values(1u, 20u, 32u, 45u, 64u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(OtherWidths, DivergentCollectives,
                         ::testing::Combine(::testing::Values(20u, 45u), ::testing::Values(8u, 64u),
                                            ::testing::Values(false)),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
