// Kernels that rely on the lanes of a SIMD-group running in lockstep, as Apple GPUs run them:
// every lane reads threadgroup memory that lane 0 then overwrites with no barrier between, and
// the lanes read what lane 0 stored (llama.cpp's flash attention keeps its running sum and
// maximum so). On fibers the lanes run one after another between rendezvous; the front end
// makes them meet before such a store (passes/lockstep_points.h) and the scheduler resumes
// them in lane order (exec/fiber_scheduler.h). Checked against the lockstep answer over
// threadgroups of 32, 40 (a partial SIMD-group) and 64 threads, grids that cut the last
// group, plain and shader-validated, with canaries around the outputs.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// The parameters of every kernel below.
#define LOCKSTEP_KERNEL(name)                                                                        \
    kernel void name(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],         \
                     constant uint& rounds [[buffer(2)]], threadgroup float* shared [[threadgroup(0)]], \
                     uint gid [[thread_position_in_grid]], ushort lane [[thread_index_in_simdgroup]], \
                     ushort sg [[simdgroup_index_in_threadgroup]], ushort width [[threads_per_simdgroup]])

// Each round: a sum over the SIMD-group, every lane reads the two words lane 0 stored last
// round, lane 0 overwrites them, and every lane reads the new second word. The sum is an
// operand over float and half (r is exact in half), whose type the hoisting does not work
// out, which keeps the kernel on fibers.
LOCKSTEP_KERNEL(store_after_reads_in_loop) {
    threadgroup float* kept = shared + sg * 2;
    if (lane == 0) {
        kept[0] = 1.0f;
        kept[1] = 0.0f;
    }
    simdgroup_barrier(mem_flags::mem_threadgroup);
    float acc = 0.0f;
    for (uint r = 0; r < rounds; ++r) {
        const float total = simd_sum(in[gid] + half(r)) + 0.0f;
        acc += kept[0] * 2.0f + kept[1];
        if (lane == 0) {
            kept[0] = total;
            kept[1] = float(r + 1);
        }
        acc += kept[1] * 0.5f;
    }
    out[gid] = acc;
}

// Every lane reads every lane's word of its SIMD-group's row in a loop that lanes leave by
// `break`, with a `continue` after a SIMD-group function (as the flash attention skips masked
// blocks); after the loop lane 0 reuses the row's first words.
LOCKSTEP_KERNEL(store_after_loop) {
    threadgroup float* row = shared + sg * width;
    const uint count = simd_sum(1u);
    float acc = 0.0f;
    for (uint r = 0; ; ++r) {
        if (r >= rounds) {
            break;
        }
        if (simd_max(in[gid]) > 1000.0f) {
            continue; // never: the inputs are below 100
        }
        row[lane] = in[gid] + float(r);
        simdgroup_barrier(mem_flags::mem_threadgroup);
        for (uint c = 0; c < count; ++c) {
            acc += row[c];
        }
    }
    if (lane == 0) {
        row[0] = -1000.0f;
        row[1] = -1000.0f;
    }
    out[gid] = acc;
}

void put_pair(threadgroup float* p, float a, float b) {
    p[0] = a;
    p[1] = b;
}

// store_after_reads_in_loop with the stores through an `auto` pointer and a lambda that calls a
// helper: the same answer.
LOCKSTEP_KERNEL(store_through_helper) {
    auto kept = shared + sg * 2;
    auto keep = [&](float a, float b) { put_pair(kept, a, b); };
    float acc = simd_sum(0.0f) + 0.0f;
    for (uint r = 0; r <= rounds; ++r) {
        const float total = simd_sum(in[gid] + float(r - 1)) + 0.0f;
        if (r > 0) {
            acc += kept[0] * 2.0f + kept[1];
        }
        if (lane == 0) {
            keep(r > 0 ? total : 1.0f, float(r));
        }
        if (r > 0) {
            acc += kept[1] * 0.5f;
        }
    }
    out[gid] = acc;
}

// The kernels below are split into work-item loops (their SIMD-group functions are whole
// statements), whose pieces run one thread after another: the piece is split before lane 0's
// store. The same answers as store_after_reads_in_loop and store_after_loop.
LOCKSTEP_KERNEL(store_in_loop_piece) {
    threadgroup float* kept = shared + sg * 2;
    if (lane == 0) {
        kept[0] = 1.0f;
        kept[1] = 0.0f;
    }
    simdgroup_barrier(mem_flags::mem_threadgroup);
    float acc = 0.0f;
    for (uint r = 0; r < rounds; ++r) {
        const float total = simd_sum(in[gid] + float(r));
        acc += kept[0] * 2.0f + kept[1];
        if (lane == 0) {
            put_pair(kept, total, float(r + 1));
        }
        acc += kept[1] * 0.5f;
    }
    out[gid] = acc;
}

// The reads and lane 0's store in a loop without SIMD-group functions, in one piece: the loop
// is made to run once per group.
LOCKSTEP_KERNEL(store_in_inner_loop) {
    threadgroup float* kept = shared + sg * 2;
    const float total = simd_sum(in[gid]);
    if (lane == 0) {
        kept[0] = 1.0f;
        kept[1] = 0.0f;
    }
    float acc = 0.0f;
    for (uint r = 0; r < rounds; ++r) {
        acc += kept[0] * 2.0f + kept[1];
        if (lane == 0) {
            kept[0] = total + float(r);
            kept[1] = float(r + 1);
        }
        acc += kept[1] * 0.5f;
    }
    out[gid] = acc;
}

// Every lane reads its SIMD-group's row, then lane 0 reuses the row's first words, in one piece.
LOCKSTEP_KERNEL(store_in_piece) {
    threadgroup float* row = shared + sg * width;
    float acc = 0.0f;
    for (uint r = 0; r < rounds; ++r) {
        row[lane] = in[gid] + float(r);
        const uint count = simd_sum(1u);
        for (uint c = 0; c < count; ++c) {
            acc += row[c];
        }
        if (lane == 0) {
            row[0] = -1000.0f;
            row[1] = -1000.0f;
        }
    }
    out[gid] = acc;
}
)";

constexpr std::uint32_t kRounds = 4;

class SimdgroupLockstep : public SimdShapedKernelTest<kKernels> {
protected:
    /// Two and a half groups: the last one is cut by the grid.
    unsigned threads() const { return size() * 2 + (size() + 1) / 2; }

    static float input(unsigned gid) { return float(gid * 7 % 97); }

    /// Runs `name` and checks each thread's output against `model(lanes of its SIMD-group, its lane)`.
    template <class Model>
    void check(const char* name, Model model) {
        MTL::Buffer* in = device_->newBuffer(threads() * 4, MTL::ResourceStorageModeShared);
        for (unsigned gid = 0; gid < threads(); ++gid) static_cast<float*>(in->contents())[gid] = input(gid);
        GuardedBuffer out(device_, threads() * 4);
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        // A word per thread (store_after_loop), which covers two per SIMD-group (the other).
        runRows(state, in, out, kRounds, threads(), nullptr, (size() + 4) * 4 / 16 * 16 + 16);
        state->release();
        in->release();
        unsigned failures = 0;
        for (unsigned begin = 0; begin < threads(); begin += size()) {
            const unsigned end = std::min(begin + size(), threads());
            for (unsigned gid = begin; gid < end && failures < 20; ++gid) {
                const unsigned first = begin + (gid - begin) / width() * width();
                std::vector<float> lanes;
                for (unsigned l = first; l < std::min(first + width(), end); ++l) lanes.push_back(input(l));
                const float expected = model(lanes, gid - first);
                const float got = out.data<float>()[gid];
                if (got == expected) continue;
                ADD_FAILURE() << name << ": thread " << gid << ": " << got << ", expected " << expected;
                ++failures;
            }
        }
        out.expectCanariesIntact();
    }
};

// The lockstep answer of store_after_reads_in_loop and its variants.
float storeAfterReads(const std::vector<float>& lanes, unsigned) {
    float kept0 = 1.0f, kept1 = 0.0f, acc = 0.0f;
    for (std::uint32_t r = 0; r < kRounds; ++r) {
        float total = 0.0f;
        for (float x : lanes) total += x + float(r);
        acc += kept0 * 2.0f + kept1;
        kept0 = total;
        kept1 = float(r + 1);
        acc += kept1 * 0.5f;
    }
    return acc;
}

// Test lane 0 overwriting, each round, the words every lane has just read, and every lane
// reading what it stored: the lockstep answer (each read sees the last round's store, the
// read after the store sees this round's).
TEST_P(SimdgroupLockstep, StoreAfterReadsInALoop) { check("store_after_reads_in_loop", storeAfterReads); }

// Test lane 0 reusing the row after the loop that read it: no lane reads its store.
TEST_P(SimdgroupLockstep, StoreAfterTheLoopThatRead) {
    check("store_after_loop", [](const std::vector<float>& lanes, unsigned) {
        float acc = 0.0f;
        for (std::uint32_t r = 0; r < kRounds; ++r)
            for (float x : lanes) acc += x + float(r);
        return acc;
    });
}

// Test the stores through an `auto` pointer and a helper, on fibers.
TEST_P(SimdgroupLockstep, StoreThroughAHelper) { check("store_through_helper", storeAfterReads); }

// Test the store after reads in a loop's piece of work-item loops.
TEST_P(SimdgroupLockstep, StoreInALoopPiece) { check("store_in_loop_piece", storeAfterReads); }

// Test the store after reads in a loop of one piece.
TEST_P(SimdgroupLockstep, StoreInAnInnerLoop) {
    check("store_in_inner_loop", [](const std::vector<float>& lanes, unsigned) {
        float total = 0.0f;
        for (float x : lanes) total += x;
        float kept0 = 1.0f, kept1 = 0.0f, acc = 0.0f;
        for (std::uint32_t r = 0; r < kRounds; ++r) {
            acc += kept0 * 2.0f + kept1;
            kept0 = total + float(r);
            kept1 = float(r + 1);
            acc += kept1 * 0.5f;
        }
        return acc;
    });
}

// Test the store after reads in one piece: each round's reads see the row every lane stored,
// not lane 0's -1000s.
TEST_P(SimdgroupLockstep, StoreInAPiece) {
    check("store_in_piece", [](const std::vector<float>& lanes, unsigned) {
        float acc = 0.0f;
        for (std::uint32_t r = 0; r < kRounds; ++r)
            for (float x : lanes) acc += x + float(r);
        return acc;
    });
}

// Test that the kernels run on the lowerings whose lanes this file is about: fibers, and
// work-item loops.
TEST_P(SimdgroupLockstep, Lowerings) {
    expectLowerings({{"store_after_reads_in_loop", MC_KERNEL_USES_BARRIERS},
                     {"store_after_loop", MC_KERNEL_USES_BARRIERS},
                     {"store_through_helper", MC_KERNEL_USES_BARRIERS},
                     {"store_in_loop_piece", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"store_in_inner_loop", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"store_in_piece", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, SimdgroupLockstep,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 40u, 64u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width8, SimdgroupLockstep,
                         ::testing::Combine(::testing::Values(7u, 33u, 64u), ::testing::Values(8u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
