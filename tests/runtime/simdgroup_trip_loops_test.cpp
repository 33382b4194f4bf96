// Loops whose trip count is uniform across each SIMD-group but not across the threadgroup,
// around SIMD-group functions and simdgroup_barriers: MLX's sdpa_vector key loop
// (`for (int i = simd_gid; i < N; i += BN)` holding `simd_sum`), llama.cpp's vector flash
// attention, and reductions whose SIMD-groups take every groups-th row. Work-item loops run
// them as divergent loops (docs/compiler.md); each kernel has a twin whose header also reads
// the lane (`+ lane * 0u`), which keeps the fibers. Checked against a CPU model exactly where
// the arithmetic is on small integers, and bit for bit against the twin where it rounds (exp),
// over threadgroups of 1, 45 (a partial SIMD-group), 64 and 96 threads at SIMD widths 8, 32
// and 64, on grids that cut the last group, plain and shader-validated, with canaries; SIMD-
// groups that make no trip, and threads that return before the loop, included.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

#define TRIP_KERNEL(name)                                                                                     \
    kernel void name(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],                   \
                     constant uint& n [[buffer(2)]],                                                           \
                     uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],          \
                     uint size [[threads_per_threadgroup]], uint sg [[simdgroup_index_in_threadgroup]],        \
                     uint lane [[thread_index_in_simdgroup]], uint width [[threads_per_simdgroup]],            \
                     uint groups [[simdgroups_per_threadgroup]])

// One query per threadgroup, one element of it per lane; each SIMD-group takes every
// groups-th of seven keys from its own index (a SIMD-group past the seventh takes none), its
// key read in a loop over an `i` of its own (as sdpa_vector's are), its score a simd_sum over its lanes, with a running maximum, sum, weighted value and an
// exp-weighted value in each thread. Then the SIMD-groups' results meet in threadgroup memory.
#define KEY_LOOP(START)                                                                                       \
    threadgroup float maxima[64];                                                                             \
    threadgroup float sums[64];                                                                               \
    threadgroup float values[1024];                                                                           \
    const uint base = gid - lid;                                                                              \
    const float q = in[gid];                                                                                  \
    float m = -1000.0f, s = 0.0f, o = 0.0f, e = 0.0f;                                                        \
    for (uint i = START; i < 7u; i += groups) {                                                               \
        const uint key = i;                                                                                   \
        float k = 0.0f;                                                                                       \
        for (uint i = 0; i < 2u; i++) k += i == 0u ? in[(base + key * 5u + lane) % n] : 0.0f;                  \
        const float v = in[(base + i * 3u + lane * 7u) % n];                                                  \
        const float score = simd_sum(q * k);                                                                  \
        m = max(m, score);                                                                                    \
        s += score;                                                                                           \
        o += score * v;                                                                                       \
        e += exp(score * 0.01f) * v;                                                                          \
    }                                                                                                         \
    if (lane == 0) {                                                                                          \
        maxima[sg] = m;                                                                                       \
        sums[sg] = s;                                                                                         \
    }                                                                                                         \
    values[lid] = o;                                                                                          \
    threadgroup_barrier(mem_flags::mem_threadgroup);                                                          \
    float best = -1000.0f, total = 0.0f, acc = 0.0f;                                                          \
    for (uint g = 0; g < groups; ++g) {                                                                       \
        best = max(best, maxima[g]);                                                                          \
        total += sums[g];                                                                                     \
        if (g * width + lane < size) acc += values[g * width + lane];                                         \
    }                                                                                                         \
    out[5 * gid] = best;                                                                                      \
    out[5 * gid + 1] = total;                                                                                 \
    out[5 * gid + 2] = acc;                                                                                   \
    out[5 * gid + 3] = o;                                                                                     \
    out[5 * gid + 4] = e;

TRIP_KERNEL(key_loop) { KEY_LOOP(sg) }
TRIP_KERNEL(key_loop_on_fibers) { KEY_LOOP(sg + lane * 0u) }

// Rows r = sg, sg + groups, ... below five, each summed over the SIMD-group's lanes that have
// not returned (a thread whose input is 7 returns first), and each trip the first lane's word
// (-1 when it returned) read by all after a simdgroup_barrier.
#define ROW_SUMS(START)                                                                                       \
    threadgroup float pairs[1024];                                                                            \
    pairs[lid] = -1.0f;                                                                                       \
    threadgroup_barrier(mem_flags::mem_threadgroup);                                                          \
    if (in[gid] == 7.0f) {                                                                                    \
        out[2 * gid] = -100.0f;                                                                               \
        out[2 * gid + 1] = -100.0f;                                                                           \
        return;                                                                                               \
    }                                                                                                         \
    float acc = 0.0f, paired = 0.0f;                                                                          \
    const uint first_row = sg;                                                                                \
    for (uint r = START; r < 5u; r += groups) {                                                               \
        acc += simd_sum(in[(gid + r * 11u) % n]);                                                             \
        const float top = simd_broadcast_first(acc);                                                          \
        if (lane == 0) pairs[lid] = top + float(r);                                                           \
        simdgroup_barrier(mem_flags::mem_threadgroup);                                                        \
        paired += pairs[lid - lane];                                                                          \
        simdgroup_barrier(mem_flags::mem_threadgroup);                                                        \
    }                                                                                                         \
    out[2 * gid] = acc;                                                                                       \
    out[2 * gid + 1] = paired;

// llama.cpp's vector flash attention, in small: each SIMD-group takes every groups-th chunk of
// `width` keys from its own index, one key a lane, until a break past the last key; an online softmax with simd_max and
// simd_sum, the chunk's scores shared through threadgroup memory after a simdgroup_barrier,
// each lane accumulating one output column; then the SIMD-groups' partial results are merged.
#define VEC_ATTENTION(START)                                                                                  \
    threadgroup float scores[1024];                                                                           \
    threadgroup float maxima[64];                                                                             \
    threadgroup float sums[64];                                                                               \
    threadgroup float partial[1024];                                                                          \
    const uint base = gid - lid;                                                                              \
    const uint keys = 2u * width + 3u;                                                                        \
    const float q = in[gid];                                                                                  \
    float M = -1000.0f, S = 0.0f, O = 0.0f;                                                                   \
    const uint chunk = sg;                                                                                    \
    for (uint c0 = START;; c0 += groups) {                                                                    \
        uint first_key = c0 * width;                                                                          \
        if (first_key >= keys) {                                                                              \
            break;                                                                                            \
        }                                                                                                     \
        const uint key = first_key + lane;                                                                    \
        const float s = key < keys ? q * in[(base + key * 3u) % n] : -1000.0f;                                \
        scores[lid] = s;                                                                                      \
        const float previous = M;                                                                             \
        M = simd_max(max(M, s));                                                                              \
        const float ratio = exp(previous - M);                                                                \
        const float w = key < keys ? exp(s - M) : 0.0f;                                                       \
        S = S * ratio + simd_sum(w);                                                                          \
        simdgroup_barrier(mem_flags::mem_threadgroup);                                                        \
        O = O * ratio;                                                                                        \
        for (uint j = 0; j < width && lid - lane + j < size; ++j) {                                           \
            if (c0 * width + j < keys)                                                                        \
                O += exp(scores[lid - lane + j] - M) * in[(base + (c0 * width + j) * 5u + lane) % n];          \
        }                                                                                                     \
        simdgroup_barrier(mem_flags::mem_threadgroup);                                                        \
    }                                                                                                         \
    if (lane == 0) {                                                                                          \
        maxima[sg] = M;                                                                                       \
        sums[sg] = S;                                                                                         \
    }                                                                                                         \
    partial[lid] = O;                                                                                         \
    threadgroup_barrier(mem_flags::mem_threadgroup);                                                          \
    float best = -1000.0f, total = 0.0f, acc = 0.0f;                                                          \
    for (uint g = 0; g < groups; ++g) best = max(best, maxima[g]);                                            \
    for (uint g = 0; g < groups; ++g) {                                                                       \
        const float r = exp(maxima[g] - best);                                                                \
        total += sums[g] * r;                                                                                 \
        if (g * width + lane < size) acc += partial[g * width + lane] * r;                                    \
    }                                                                                                         \
    out[2 * gid] = total;                                                                                     \
    out[2 * gid + 1] = acc / total;

TRIP_KERNEL(vec_attention) { VEC_ATTENTION(chunk) }
TRIP_KERNEL(vec_attention_on_fibers) { VEC_ATTENTION(chunk + lane * 0u) }

TRIP_KERNEL(row_sums) { ROW_SUMS(first_row) }
TRIP_KERNEL(row_sums_on_fibers) { ROW_SUMS(first_row + lane * 0u) }
)";

/// The threads of a group, as a kernel sees them.
struct Thread {
    unsigned gid, lid, size, sg, lane, width, groups;
    unsigned first() const { return lid - lane; }                       ///< the SIMD-group's first thread
    unsigned active() const { return std::min(width, size - first()); } ///< its lanes
    unsigned at(unsigned l) const { return gid - lid + l; }             ///< thread l of the group: its gid
};

class SimdgroupTripLoops : public SimdShapedKernelTest<kKernels> {
protected:
    unsigned threads() const { return 3 * size() + size() / 2 + 1; }

    /// Runs `name` over whole numbers on a grid of 3.5 groups and a bit, `perThread` floats of
    /// output a thread; checks the canaries and returns the output.
    std::vector<float> run(const char* name, unsigned perThread) {
        SCOPED_TRACE(name);
        MTL::ComputePipelineState* state = kernel(name);
        EXPECT_NE(state, nullptr);
        if (!state) return {};
        const std::vector<float> x = wholeNumbers(threads());
        MTL::Buffer* in = device_->newBuffer(x.data(), threads() * sizeof(float), MTL::ResourceStorageModeShared);
        GuardedBuffer out(device_, threads() * perThread * sizeof(float));
        runRows(state, in, out, threads(), threads());
        out.expectCanariesIntact();
        std::vector<float> result(out.data<float>(), out.data<float>() + threads() * perThread);
        in->release();
        state->release();
        return result;
    }

    /// Checks `output` (of `perThread` floats a thread) against model(thread, input, expected):
    /// exactly, or for the outputs `near` says, within 1e-4 relative.
    void check(const std::vector<float>& output, unsigned perThread,
               const std::function<void(const Thread&, const std::vector<float>&, double*)>& model,
               const std::function<bool(unsigned)>& near = [](unsigned) { return false; }) {
        ASSERT_EQ(output.size(), threads() * perThread);
        const std::vector<float> x = wholeNumbers(threads());
        std::vector<double> expected(perThread);
        unsigned wrong = 0;
        for (unsigned gid = 0; gid < threads(); ++gid) {
            const unsigned lid = gid % size(), group = std::min(size(), threads() - (gid - lid));
            const Thread t{gid, lid, group, lid / width(), lid % width(), width(), (group + width() - 1) / width()};
            model(t, x, expected.data());
            for (unsigned k = 0; k < perThread; ++k) {
                const double got = output[gid * perThread + k];
                const bool ok = near(k) ? std::fabs(got - expected[k]) <= 1e-4 * std::max(1.0, std::fabs(expected[k]))
                                        : got == expected[k];
                if (!ok && wrong++ < 8)
                    ADD_FAILURE() << "thread " << gid << " (SIMD-group " << t.sg << ", lane " << t.lane << ") output "
                                  << k << ": " << got << ", expected " << expected[k];
            }
        }
        EXPECT_EQ(wrong, 0u);
    }

    /// Checks that two outputs have the same bits.
    static void expectSameBits(const std::vector<float>& a, const std::vector<float>& b) {
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(float)), 0) << "element " << i << ": " << a[i] << " vs " << b[i];
    }
};

// The key loop's model: for thread t, its SIMD-group's running state over its keys, then the
// SIMD-groups' results combined.
void keyLoopModel(const Thread& t, const std::vector<float>& x, double* out) {
    const unsigned n = unsigned(x.size()), base = t.gid - t.lid;
    struct State {
        double m = -1000.0, s = 0.0;
        std::vector<double> o, e; // per lane
    };
    const auto run = [&](unsigned sg) {
        const unsigned first = sg * t.width, lanes = std::min(t.width, t.size - first);
        State st;
        st.o.assign(lanes, 0.0);
        st.e.assign(lanes, 0.0);
        for (unsigned i = sg; i < 7; i += t.groups) {
            double score = 0.0;
            for (unsigned l = 0; l < lanes; ++l) score += double(x[base + first + l]) * x[(base + i * 5 + l) % n];
            st.m = std::max(st.m, score);
            st.s += score;
            for (unsigned l = 0; l < lanes; ++l) {
                const double v = x[(base + i * 3 + l * 7) % n];
                st.o[l] += score * v;
                st.e[l] += std::exp(score * 0.01) * v;
            }
        }
        return st;
    };
    double best = -1000.0, total = 0.0, acc = 0.0;
    for (unsigned g = 0; g < t.groups; ++g) {
        const State st = run(g);
        best = std::max(best, st.m);
        total += st.s;
        if (t.lane < st.o.size()) acc += st.o[t.lane];
    }
    const State own = run(t.sg);
    out[0] = best;
    out[1] = total;
    out[2] = acc;
    out[3] = own.o[t.lane];
    out[4] = own.e[t.lane];
}

// Test MLX's sdpa_vector key loop against the model (exactly but for the exp-weighted value)
// and bit for bit against its twin on fibers.
TEST_P(SimdgroupTripLoops, KeyLoop) {
    const std::vector<float> loops = run("key_loop", 5), fibers = run("key_loop_on_fibers", 5);
    check(loops, 5, keyLoopModel, [](unsigned k) { return k == 4; });
    check(fibers, 5, keyLoopModel, [](unsigned k) { return k == 4; });
    expectSameBits(loops, fibers);
}

// The vector attention's model: every key's softmax weight against the query's maximum, and
// the weighted columns (the kernel's online form gives the same up to rounding).
void vecAttentionModel(const Thread& t, const std::vector<float>& x, double* out) {
    const unsigned n = unsigned(x.size()), base = t.gid - t.lid, keys = 2 * t.width + 3;
    // Key k is scored by lane k % width of the SIMD-group that takes its chunk, when that lane
    // exists (a partial SIMD-group has fewer).
    // Thread t's column sums the keys of the SIMD-groups in which its lane exists.
    std::vector<double> score;
    std::vector<unsigned> which, group;
    for (unsigned k = 0; k < keys; ++k) {
        const unsigned chunk = k / t.width, lane = k % t.width, sg = chunk % t.groups;
        const unsigned first = sg * t.width;
        if (first + lane >= t.size) continue;
        score.push_back(double(x[base + first + lane]) * x[(base + k * 3) % n]);
        which.push_back(k);
        group.push_back(sg);
    }
    double best = -1000.0;
    for (double s : score) best = std::max(best, s);
    double total = 0.0, acc = 0.0;
    for (std::size_t i = 0; i < score.size(); ++i) {
        const double w = std::exp(score[i] - best);
        total += w;
        if (group[i] * t.width + t.lane < t.size) acc += w * x[(base + which[i] * 5 + t.lane) % n];
    }
    out[0] = total;
    out[1] = acc / total;
}

// Test llama.cpp's vector flash attention shape against the model (up to rounding) and bit
// for bit against its twin on fibers.
TEST_P(SimdgroupTripLoops, VectorAttention) {
    const std::vector<float> loops = run("vec_attention", 2), fibers = run("vec_attention_on_fibers", 2);
    check(loops, 2, vecAttentionModel, [](unsigned) { return true; });
    check(fibers, 2, vecAttentionModel, [](unsigned) { return true; });
    expectSameBits(loops, fibers);
}

// Test rows per SIMD-group with threads that returned first: each trip's sum and shuffle cover
// the lanes left, and the pair through threadgroup memory is ordered by the simdgroup_barrier.
TEST_P(SimdgroupTripLoops, RowSumsWithReturnedThreads) {
    const auto model = [](const Thread& t, const std::vector<float>& x, double* out) {
        const unsigned n = unsigned(x.size());
        if (x[t.gid] == 7.0f) {
            out[0] = out[1] = -100.0;
            return;
        }
        // The SIMD-group's lanes that have not returned: each trip's sum is theirs.
        std::vector<unsigned> live;
        for (unsigned l = 0; l < t.active(); ++l)
            if (x[t.at(t.first() + l)] != 7.0f) live.push_back(l);
        const bool lane0 = x[t.at(t.first())] != 7.0f;
        double acc = 0.0, paired = 0.0;
        for (unsigned r = t.sg; r < 5; r += t.groups) {
            for (unsigned j : live) acc += x[(t.at(t.first() + j) + r * 11) % n];
            paired += lane0 ? acc + r : -1.0;
        }
        out[0] = acc;
        out[1] = paired;
    };
    const std::vector<float> loops = run("row_sums", 2), fibers = run("row_sums_on_fibers", 2);
    check(loops, 2, model);
    check(fibers, 2, model);
    expectSameBits(loops, fibers);
}

// Test the lowering each kernel takes: the divergent loops are work-item loops, their twins
// (whose headers read the lane) keep the fibers.
TEST_P(SimdgroupTripLoops, Lowerings) {
    expectLowerings({{"key_loop", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"key_loop_on_fibers", MC_KERNEL_USES_BARRIERS},
                     {"vec_attention", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"vec_attention_on_fibers", MC_KERNEL_USES_BARRIERS},
                     {"row_sums", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"row_sums_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, SimdgroupTripLoops,
                         ::testing::Combine(::testing::Values(1u, 45u, 64u, 96u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width8, SimdgroupTripLoops,
                         ::testing::Combine(::testing::Values(45u, 64u, 96u), ::testing::Values(8u), ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width64, SimdgroupTripLoops,
                         ::testing::Combine(::testing::Values(45u, 96u), ::testing::Values(64u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
