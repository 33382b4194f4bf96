// Kernels whose control flow is uniform across each SIMD-group but not across the threadgroup
// (`if (simd_group_id == 0)`, `if (sg % 2 == 1)`, a loop whose trips depend on the SIMD-group),
// around simdgroup_barrier and SIMD-group functions: the shape of MLX's and llama.cpp's
// reductions, where the first SIMD-group reduces what the others left in threadgroup memory.
// Metal asks such code to be uniform only across the SIMD-group, so every SIMD-group must take
// its own branch and make its own trips; conditions derived from the lane differ within the
// SIMD-group and are per thread. Checked against a CPU model over threadgroups of 1, 45 (a
// partial SIMD-group), 64 and 96 threads at SIMD widths 8, 32 and 64, on grids that cut the
// last group, plain and shader-validated, with canaries around the outputs; and which lowering
// each kernel takes (work-item loops where the front end can lower it, else the fallback).
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

// The parameters of every kernel below (runRows() binds them; `n` goes unused).
#define SG_KERNEL(name)                                                                                       \
    kernel void name(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],                   \
                     constant uint& n [[buffer(2)]],                                                           \
                     uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],          \
                     uint size [[threads_per_threadgroup]], uint sg [[simdgroup_index_in_threadgroup]],        \
                     uint lane [[thread_index_in_simdgroup]], uint width [[threads_per_simdgroup]],            \
                     uint groups [[simdgroups_per_threadgroup]])

// The next lane of the caller's SIMD-group, the last one wrapping to the first: its index in
// the threadgroup. (A SIMD-group at the end of a cut group has fewer lanes.)
inline uint next_lane(uint lid, uint lane, uint width, uint size) {
    const uint first = lid - lane;
    return first + (lane + 1) % min(width, size - first);
}

// The odd SIMD-groups pair each lane with the next through threadgroup memory, ordered by a
// simdgroup_barrier; the even ones take the other branch. The condition reads a variable that
// holds the SIMD-group's index.
SG_KERNEL(odd_groups_pair) {
    threadgroup float a[1024];
    threadgroup float b[1024];
    const uint group = sg;
    float x = in[gid];
    a[lid] = x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (group % 2 == 1) {
        b[lid] = x * 2.0f + a[next_lane(lid, lane, width, size)];
        simdgroup_barrier(mem_flags::mem_threadgroup);
        x = b[next_lane(lid, lane, width, size)] + 100.0f;
    } else {
        x = x - 1.0f;
    }
    out[gid] = x;
}

// The same in the first two SIMD-groups, which the first thread's way would give them all.
SG_KERNEL(first_two_groups_pair) {
    threadgroup float b[1024];
    const uint group = sg;
    float x = in[gid];
    if (group < 2) {
        b[lid] = x * 2.0f;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        x = b[next_lane(lid, lane, width, size)] + 0.5f;
    }
    out[gid] = x;
}

// The last SIMD-group publishes what its lanes paired, the condition naming the builtin; after
// the threadgroup barrier every thread reads the next SIMD-group's word.
SG_KERNEL(last_group_publishes) {
    threadgroup float a[1024];
    threadgroup float b[1024];
    threadgroup float c[1024];
    a[lid] = in[gid];
    c[lid] = -1.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (sg == groups - 1) {
        b[lid] = a[lid] * 3.0f;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        c[lid] = b[next_lane(lid, lane, width, size)] + 1.0f;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = c[(lid + width) % size] + a[lid] * 1000.0f;
}

// MLX's and llama.cpp's reduction: each SIMD-group's sum into threadgroup memory, then the
// first SIMD-group reduces those three ways (a sum, a prefix, a shuffle-down tree). The other
// threads write -1.
SG_KERNEL(first_group_reduces) {
    threadgroup float partial[64];
    const float v = simd_sum(in[gid]);
    if (lane == 0) partial[sg] = v;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float total = -1.0f, prefix = -1.0f, tree = -1.0f;
    if (sg == 0) {
        total = lane < groups ? partial[lane] : 0.0f;
        total = simd_sum(total);
        prefix = lane < groups ? partial[lane] : 0.0f;
        prefix = simd_prefix_inclusive_sum(prefix);
        tree = lane < groups ? partial[lane] : 0.0f;
        for (uint offset = 1; offset < width; offset <<= 1) {
            tree += simd_shuffle_down(tree, ushort(offset));
        }
    }
    out[3 * gid] = total;
    out[3 * gid + 1] = prefix;
    out[3 * gid + 2] = tree;
}

// A condition on the lane, which differs within the SIMD-group: each half of it runs its own
// collective over its own lanes.
SG_KERNEL(lane_halves) {
    const uint half = lane < width / 2 ? 0u : 1u;
    float v = in[gid];
    if (half == 0) {
        v = simd_prefix_inclusive_sum(v);
    } else {
        v = simd_max(v);
    }
    out[gid] = v;
}

// Trips per lane: each round's sum counts the lanes still in the loop.
SG_KERNEL(lane_trips) {
    const uint trips = lane % 3 + 1;
    float v = in[gid];
    for (uint k = 0; k < trips; ++k) {
        v += simd_sum(1.0f);
    }
    out[gid] = v;
}

// Trips per SIMD-group around simdgroup_barriers; then every thread reads the next
// SIMD-group's result after a threadgroup barrier, which must wait for the SIMD-groups that
// go round more often.
SG_KERNEL(group_trips) {
    threadgroup float b[1024];
    threadgroup float c[1024];
    const uint trips = sg % 3 + 1;
    float x = in[gid];
    for (uint k = 0; k < trips; ++k) {
        b[lid] = x;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        x += b[next_lane(lid, lane, width, size)];
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    c[lid] = x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = c[(lid + width) % size] + x * 1000.0f;
}
)";

/// The threads of a group, as a kernel sees them.
struct Thread {
    unsigned gid, lid, size, sg, lane, width, groups;
    unsigned first() const { return lid - lane; }            ///< the SIMD-group's first thread
    unsigned active() const { return std::min(width, size - first()); } ///< its lanes
    unsigned next() const { return first() + (lane + 1) % active(); }
    unsigned at(unsigned l) const { return gid - lid + l; } ///< thread l of the group: its gid
};

class SimdgroupConditions : public SimdShapedKernelTest<kKernels> {
protected:
    /// Runs `name` over a grid of 3.5 groups and a bit (cut last group), `perThread` floats of
    /// output a thread, and checks each output against model(thread, input, outputs of the thread).
    void check(const char* name, unsigned perThread,
               const std::function<void(const Thread&, const std::vector<float>&, float*)>& model) {
        SCOPED_TRACE(name);
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        const unsigned threads = 3 * size() + size() / 2 + 1;
        const std::vector<float> x = wholeNumbers(threads);
        MTL::Buffer* in = device_->newBuffer(x.data(), threads * sizeof(float), MTL::ResourceStorageModeShared);
        GuardedBuffer out(device_, threads * perThread * sizeof(float));
        runRows(state, in, out, threads, threads);
        std::vector<float> expected(perThread);
        unsigned wrong = 0;
        for (unsigned gid = 0; gid < threads; ++gid) {
            const unsigned lid = gid % size(), group = std::min(size(), threads - (gid - lid));
            const Thread t{gid, lid, group, lid / width(), lid % width(), width(), (group + width() - 1) / width()};
            model(t, x, expected.data());
            for (unsigned k = 0; k < perThread; ++k)
                if (out.data<float>()[gid * perThread + k] != expected[k] && wrong++ < 8)
                    ADD_FAILURE() << "thread " << gid << " (SIMD-group " << t.sg << ", lane " << t.lane << ") output "
                                  << k << ": " << out.data<float>()[gid * perThread + k] << ", expected " << expected[k];
        }
        EXPECT_EQ(wrong, 0u);
        out.expectCanariesIntact();
        in->release();
        state->release();
    }
};

// Test that a simdgroup_barrier under a condition uniform per SIMD-group runs each
// SIMD-group's own branch: the odd SIMD-groups, and the first two.
TEST_P(SimdgroupConditions, BarrierInBranchPerSimdgroup) {
    check("odd_groups_pair", 1, [](const Thread& t, const std::vector<float>& x, float* out) {
        const auto b = [&](unsigned l) {
            const Thread u{t.at(l), l, t.size, t.sg, l - t.first(), t.width, t.groups};
            return x[u.gid] * 2.0f + x[t.at(u.next())];
        };
        out[0] = t.sg % 2 == 1 ? b(t.next()) + 100.0f : x[t.gid] - 1.0f;
    });
    check("first_two_groups_pair", 1, [](const Thread& t, const std::vector<float>& x, float* out) {
        out[0] = t.sg < 2 ? x[t.at(t.next())] * 2.0f + 0.5f : x[t.gid];
    });
}

// Test that the threadgroup barrier after such a branch waits for the SIMD-group in it: every
// thread reads what the last SIMD-group published.
TEST_P(SimdgroupConditions, BarrierAfterBranchWaitsForIt) {
    check("last_group_publishes", 1, [](const Thread& t, const std::vector<float>& x, float* out) {
        const unsigned l = (t.lid + t.width) % t.size;
        const Thread u{t.at(l), l, t.size, l / t.width, l % t.width, t.width, t.groups};
        const float c = u.sg == t.groups - 1 ? x[t.at(u.next())] * 3.0f + 1.0f : -1.0f;
        out[0] = c + x[t.gid] * 1000.0f;
    });
}

// Test the reduction of the first SIMD-group over the others' sums: a sum, an inclusive
// prefix and a shuffle-down tree, over its active lanes.
TEST_P(SimdgroupConditions, FirstSimdgroupReduces) {
    check("first_group_reduces", 3, [](const Thread& t, const std::vector<float>& x, float* out) {
        if (t.sg != 0) {
            out[0] = out[1] = out[2] = -1.0f;
            return;
        }
        const unsigned lanes = t.active();
        std::vector<float> partial(lanes, 0.0f); // lane l reads SIMD-group l's sum
        for (unsigned l = 0; l < lanes && l < t.groups; ++l)
            for (unsigned j = l * t.width; j < std::min(t.size, (l + 1) * t.width); ++j) partial[l] += x[t.at(j)];
        out[0] = 0.0f;
        out[1] = 0.0f;
        for (unsigned l = 0; l < lanes; ++l) {
            out[0] += partial[l];
            if (l <= t.lane) out[1] += partial[l];
        }
        std::vector<float> tree = partial;
        for (unsigned offset = 1; offset < t.width; offset <<= 1) {
            // Lanes past the SIMD-group's width keep their own value, as Metal says; one that
            // reads an inactive lane (a partial SIMD-group) gets zero, metalcpu's choice where
            // Metal leaves it undefined (docs/msl-support.md).
            std::vector<float> shifted = tree;
            for (unsigned l = 0; l < lanes; ++l)
                if (l + offset < t.width) shifted[l] = l + offset < lanes ? tree[l + offset] : 0.0f;
            for (unsigned l = 0; l < lanes; ++l) tree[l] += shifted[l];
        }
        out[2] = tree[t.lane];
    });
}

// Test conditions and trips that differ within a SIMD-group: each half of the lanes, and each
// round of the loop, makes its collective over the lanes that reach it.
TEST_P(SimdgroupConditions, LaneConditionsArePerThread) {
    check("lane_halves", 1, [](const Thread& t, const std::vector<float>& x, float* out) {
        const bool low = t.lane < t.width / 2;
        float prefix = 0.0f, best = -1e30f;
        for (unsigned l = 0; l < t.active(); ++l) {
            if ((l < t.width / 2) != low) continue;
            if (l <= t.lane) prefix += x[t.at(t.first() + l)];
            best = std::max(best, x[t.at(t.first() + l)]);
        }
        out[0] = low ? prefix : best;
    });
    check("lane_trips", 1, [](const Thread& t, const std::vector<float>& x, float* out) {
        out[0] = x[t.gid];
        for (unsigned k = 0; k < t.lane % 3 + 1; ++k)
            for (unsigned l = 0; l < t.active(); ++l)
                if (l % 3 + 1 > k) out[0] += 1.0f;
    });
}

// Test a loop around simdgroup_barriers whose trips differ between SIMD-groups, and the
// threadgroup barrier after it.
TEST_P(SimdgroupConditions, TripsPerSimdgroup) {
    check("group_trips", 1, [](const Thread& t, const std::vector<float>& x, float* out) {
        const auto result = [&](unsigned l) { // thread l's x after its SIMD-group's trips
            const unsigned sg = l / t.width, first = sg * t.width, lanes = std::min(t.width, t.size - first);
            std::vector<float> v(lanes);
            for (unsigned j = 0; j < lanes; ++j) v[j] = x[t.at(first + j)];
            for (unsigned k = 0; k < sg % 3 + 1; ++k) {
                std::vector<float> next(lanes);
                for (unsigned j = 0; j < lanes; ++j) next[j] = v[j] + v[(j + 1) % lanes];
                v = next;
            }
            return v[l - first];
        };
        out[0] = result((t.lid + t.width) % t.size) + result(t.lid) * 1000.0f;
    });
}

// Test the lowering each kernel takes: work-item loops for branches uniform per SIMD-group
// (each SIMD-group's threads take theirs), for per-lane conditions around collectives and for
// a loop whose trips differ between SIMD-groups (a divergent loop); a loop whose trips differ
// within a SIMD-group keeps the fibers.
TEST_P(SimdgroupConditions, Lowerings) {
    expectLowerings({{"odd_groups_pair", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"first_two_groups_pair", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"last_group_publishes", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"first_group_reduces", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"lane_halves", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"lane_trips", MC_KERNEL_USES_BARRIERS},
                     {"group_trips", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, SimdgroupConditions,
                         ::testing::Combine(::testing::Values(1u, 45u, 64u, 96u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width8, SimdgroupConditions,
                         ::testing::Combine(::testing::Values(45u, 64u, 96u), ::testing::Values(8u), ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width64, SimdgroupConditions,
                         ::testing::Combine(::testing::Values(45u, 96u), ::testing::Values(64u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
