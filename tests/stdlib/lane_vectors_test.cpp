// Tests of <metalcpu/lane_vectors.h>: N threads' values as the lanes of host vectors. Each
// test computes the same thing per thread with the kernel stdlib's own types and through the
// lane vectors, and wants the same bits for every lane, at each register width (16, 32 and 64
// bytes: one, two or four lanes of a float4 per register), so the layout is checked whatever
// the image's width. Compiled with the kernels' math flags but without contraction
// (CMakeLists.txt): whether GCC fuses a multiply and an add is its choice per function (here it
// fuses none of the per-thread form's and most of the lane form's), so equal bits with
// contraction are checked end to end, against the kernel metalcpu compiled, by matmul_bench.
#include <metal_stdlib>
#include <metalcpu/lane_vectors.h>

// The 8x4 kernel's body through the library as matmul_bench measures it (rowOfThreads).
#include "bench/matmul_lane_library.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

namespace {

using namespace metal;
using metalcpu_kernel::varying;
using metalcpu_kernel::linear;
using metalcpu_kernel::linear_pointer;
using metalcpu_kernel::varying_pointer;

constexpr int kLanes = 8;

template <int B> struct Width {
    static constexpr int bytes = B;
};
using Widths = ::testing::Types<Width<16>, Width<32>, Width<64>>;

template <class W> class LaneVectors : public ::testing::Test {};
TYPED_TEST_SUITE(LaneVectors, Widths);

/// Values with a fraction in every bit, so that rounding differences show.
float value(int seed) { return float((seed * 7919) % 1013) / 97.0f - 5.0f; }

template <class T> bool sameBits(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

TYPED_TEST(LaneVectors, ArithmeticIsEachThreadsArithmetic) {
    constexpr int B = TypeParam::bytes;
    using lane_float4 = varying<float4, kLanes, B>;
    using lane_float = varying<float, kLanes, B>;
    lane_float4 a, b;
    lane_float s;
    for (int l = 0; l < kLanes; ++l) {
        a.set_lane(l, float4(value(l), value(l + 10), value(l + 20), value(l + 30)));
        b.set_lane(l, float4(value(l + 40), value(l + 50), value(l + 60), value(l + 70)) + 11.0f);
        s.set(l, value(l + 80));
    }
    const float4 u(1.5f, -2.25f, 3.0f, 0.125f);
    const lane_float4 lanes = (a * s + u) / b - a * 2.0f + (-a) * u;
    lane_float4 accumulated = a;
    accumulated += b;
    accumulated *= s;
    for (int l = 0; l < kLanes; ++l) {
        const float4 al = a.lane(l), bl = b.lane(l);
        const float sl = s.lane(l);
        const float4 thread = (al * sl + u) / bl - al * 2.0f + (-al) * u;
        EXPECT_TRUE(sameBits(lanes.lane(l), thread)) << "lane " << l;
        EXPECT_TRUE(sameBits(accumulated.lane(l), float4((al + bl) * sl))) << "lane " << l;
        EXPECT_EQ(lanes.component(2).lane(l), thread.z) << "lane " << l;
    }
    lane_float4 replaced = a;
    replaced.set_component(1, s);
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(replaced.lane(l), float4(a.lane(l).x, s.lane(l), a.lane(l).z, a.lane(l).w)));
}

TYPED_TEST(LaneVectors, IntegersComparisonsAndSelect) {
    constexpr int B = TypeParam::bytes;
    using lane_uint = varying<uint, kLanes, B>;
    const lane_uint x = lane_uint::iota(5, 3); // 5, 8, 11, ...
    const lane_uint mixed = ((x * 7u) % 5u ^ (x << 2)) | ((x >> 1) & 6u);
    const auto small = x < 14u;
    const lane_uint chosen = select(small, x, x + 100u);
    const varying<float, kLanes, B> asFloat = x.template convert<float>() * 0.5f;
    for (int l = 0; l < kLanes; ++l) {
        const uint t = 5 + 3 * l;
        EXPECT_EQ(x.lane(l), t);
        EXPECT_EQ(mixed.lane(l), ((t * 7u) % 5u ^ (t << 2)) | ((t >> 1) & 6u)) << "lane " << l;
        EXPECT_EQ(chosen.lane(l), t < 14 ? t : t + 100) << "lane " << l;
        EXPECT_EQ(asFloat.lane(l), float(t) * 0.5f) << "lane " << l;
    }
    EXPECT_TRUE(any(small));
    EXPECT_FALSE(all(small));
    EXPECT_TRUE(all(x >= 5u));
    EXPECT_FALSE(any(x > 1000u));
    // Only the last lane: any() must look at every register of the mask.
    EXPECT_TRUE(any(x == uint(5 + 3 * (kLanes - 1))));
    EXPECT_FALSE(all(x != uint(5 + 3 * (kLanes - 1))));
}

/// float4s with a canary word on each side of the region a test writes.
struct Guarded {
    static constexpr float canary = -12345.5f;
    std::vector<float4> memory;
    explicit Guarded(int count) : memory(count + 2, float4(canary)) {}
    float4* data() { return memory.data() + 1; }
    bool canariesIntact() const {
        return memory.front().x == canary && memory.front().w == canary && memory.back().x == canary &&
               memory.back().w == canary;
    }
};

TYPED_TEST(LaneVectors, LoadsAndStoresThroughLanePointers) {
    constexpr int B = TypeParam::bytes;
    using pointer = varying_pointer<float4, kLanes, B>;
    using lane_int = varying<int, kLanes, B>;
    Guarded source(2 * kLanes);
    for (int e = 0; e < 2 * kLanes; ++e)
        source.data()[e] = float4(value(e), value(e + 1), value(e + 2), value(e + 3));

    // Consecutive (a row of threads' p[gid.x]): one contiguous access.
    const pointer row = pointer::at(source.data() + 3, lane_int::iota(0));
    EXPECT_TRUE(row.consecutive());
    const auto loaded = row.load();
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(loaded.lane(l), source.data()[3 + l])) << "lane " << l;

    // Reversed, and a float pointer stepping by four floats seen as float4s: what the
    // contiguity test must tell apart.
    const pointer reversed = pointer::at(source.data(), lane_int::iota(kLanes - 1, -1));
    EXPECT_FALSE(reversed.consecutive());
    const auto gathered = reversed.load();
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(gathered.lane(l), source.data()[kLanes - 1 - l])) << "lane " << l;
    const auto viaFloats =
        varying_pointer<float, kLanes, B>::at(reinterpret_cast<float*>(source.data()), lane_int::iota(4, 4))
            .template as<float4>();
    EXPECT_TRUE(viaFloats.consecutive());
    EXPECT_TRUE(sameBits(viaFloats.load().lane(kLanes - 1), source.data()[kLanes]));

    Guarded target(kLanes);
    pointer::at(target.data(), lane_int::iota(0)).store(loaded);
    EXPECT_TRUE(target.canariesIntact());
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(target.data()[l], source.data()[3 + l])) << "lane " << l;
    pointer::at(target.data(), lane_int::iota(kLanes - 1, -1)).store(loaded);
    EXPECT_TRUE(target.canariesIntact());
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(target.data()[kLanes - 1 - l], source.data()[3 + l])) << "lane " << l;
    // Every lane at one address: the threads' stores in lane order, the last lane's stays.
    pointer::at(target.data(), lane_int(2)).store(loaded);
    EXPECT_TRUE(target.canariesIntact());
    EXPECT_TRUE(sameBits(target.data()[2], source.data()[3 + kLanes - 1]));
}

TYPED_TEST(LaneVectors, LinearIndicesAndTheirPointers) {
    constexpr int B = TypeParam::bytes;
    using lane_uint = linear<uint, kLanes, B>;
    // gid.x * 4 + 1 for a row whose lane 0 has gid.x == 3, as varying values would compute it.
    const lane_uint j = lane_uint::lane_index(3) * 4u + 1u;
    const varying<uint, kLanes, B> asVarying = j;
    for (int l = 0; l < kLanes; ++l) {
        EXPECT_EQ(j.lane(l), (3u + l) * 4 + 1) << "lane " << l;
        EXPECT_EQ(asVarying.lane(l), (3u + l) * 4 + 1) << "lane " << l;
    }
    Guarded source(6 * kLanes);
    float* floats = reinterpret_cast<float*>(source.data());
    for (int e = 0; e < 24 * kLanes; ++e) floats[e] = value(e);
    // A float pointer indexed by j - 1 (steps of four floats) read as float4s: contiguous.
    const auto rows = linear_pointer<float, uint, kLanes, B>::at(floats, j - 1u).template as<float4>();
    EXPECT_TRUE(rows.consecutive());
    const auto loaded = rows.load();
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(loaded.lane(l), source.data()[3 + l])) << "lane " << l;
    // Steps of eight floats: a gather, each lane its own float4.
    const auto strided = linear_pointer<float, uint, kLanes, B>::at(floats, (j - 1u) * 2u).template as<float4>();
    EXPECT_FALSE(strided.consecutive());
    const auto gathered = strided.load();
    for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(sameBits(gathered.lane(l), source.data()[6 + 2 * l])) << "lane " << l;
    Guarded target(2 * kLanes);
    linear_pointer<float4, uint, kLanes, B>::at(target.data(), lane_uint::lane_index(0) * 2u).store(loaded);
    EXPECT_TRUE(target.canariesIntact());
    for (int l = 0; l < kLanes; ++l) {
        EXPECT_TRUE(sameBits(target.data()[2 * l], source.data()[3 + l])) << "lane " << l;
        EXPECT_EQ(target.data()[2 * l + 1].x, Guarded::canary) << "the gaps are not written";
    }
    // An unsigned index that wraps between two lanes: the lanes are not a step apart, and each
    // lane's pointer is its thread's (base + its wrapped index), not base + first + l.
    const lane_uint wrapping = lane_uint::lane_index(0xfffffffdu);
    EXPECT_FALSE(wrapping.steps_without_wrapping());
    const auto far = linear_pointer<float, uint, kLanes, B>::at(floats, wrapping);
    EXPECT_FALSE(far.consecutive());
    EXPECT_EQ(far.lane(4), floats + 1) << "0xfffffffd + 4 wraps to 1";
    EXPECT_EQ(far.lane(0), floats + 0xfffffffdull);
    const linear<int, kLanes, B> down{5, -1};
    EXPECT_TRUE(down.steps_without_wrapping());
    // `p + index` as written in a kernel: the same pointers as at().
    const auto written = floats + (j - 1u);
    EXPECT_EQ(written.lane(5), floats + 32);
    EXPECT_TRUE(sameBits(written.template as<float4>().load().lane(2), source.data()[5]));
    const auto throughVarying = floats + varying<uint, kLanes, B>(j - 1u);
    EXPECT_FALSE(throughVarying.consecutive()) << "float pointers 16 bytes apart, not 4";
    EXPECT_TRUE(throughVarying.template as<float4>().consecutive()) << "as float4 pointers, one apart";
    EXPECT_EQ(throughVarying.lane(7), floats + 40);
    using signed_pointer = linear_pointer<float, int, kLanes, B>;
    EXPECT_EQ(signed_pointer::at(floats + 8, down).lane(7), floats + 6);
}

/// An elementwise kernel, `out[gid] = a[gid] * s + b[gid] * (gid + 1)`, as one thread runs it.
/// (Not a division: under -ffast-math GCC divides vectors of floats by a reciprocal estimate
/// and one Newton step, rcpps or rcp14ps by width, and scalars exactly, so a per-thread float
/// division and its lanes' differ in the last bits; docs/compiler.md, "Threads as vector lanes".)
[[gnu::always_inline]] inline void threadOfScaleAdd(const float* a, const float* b, float* out, float s, uint gid) {
    out[gid] = a[gid] * s + b[gid] * float(gid + 1);
}

/// The same for a block of kLanes threads from `first`, through lane pointers.
template <int W>
void blockOfScaleAdd(const float* a, const float* b, float* out, float s, uint first) {
    const linear<uint, kLanes, W> gid = linear<uint, kLanes, W>::lane_index(first);
    const varying<float, kLanes, W> factor = varying<uint, kLanes, W>(gid + 1u).template convert<float>();
    (out + gid).store((a + gid).load() * s + (b + gid).load() * factor);
}

TYPED_TEST(LaneVectors, BlocksOfAGridAsLanesAndTheRestByThread) {
    // As the translator is to run a group: whole blocks of kLanes threads as lanes, a last
    // block that is not whole thread by thread; for thread counts that are and are not
    // multiples of the lanes, with a canary word after the output.
    for (const uint threads : {1u, 7u, 33u, 37u, 64u}) {
        std::vector<float> a(threads), b(threads), byThread(threads + 1, -5.5f), mixed(threads + 1, -5.5f);
        for (uint e = 0; e < threads; ++e) {
            a[e] = value(int(e));
            b[e] = value(int(e) + 3);
        }
        for (uint t = 0; t < threads; ++t) threadOfScaleAdd(a.data(), b.data(), byThread.data(), 1.25f, t);
        uint t = 0;
        for (; t + kLanes <= threads; t += kLanes)
            blockOfScaleAdd<TypeParam::bytes>(a.data(), b.data(), mixed.data(), 1.25f, t);
        for (; t < threads; ++t) threadOfScaleAdd(a.data(), b.data(), mixed.data(), 1.25f, t);
        EXPECT_EQ(std::memcmp(byThread.data(), mixed.data(), threads * sizeof(float)), 0) << threads << " threads";
        EXPECT_EQ(mixed[threads], -5.5f) << threads << " threads: the canary";
    }
}

/// mat_mul_register_8x4 (samples/matmul) as one thread runs it. This, compare8x4 and the
/// bench's rowOfThreads are inlined into their callers, so the AVX-512 test's target reaches them.
[[gnu::always_inline]] inline void threadOf8x4(const float* A, const float* B, float* C, uint2 gid, uint rows, uint cols, uint inner) {
    const uint i = gid.y * 8;
    const uint j = gid.x * 4;
    if (i >= rows || j >= cols) return;
    float4x4 top(0.0f);
    float4x4 bottom(0.0f);
    for (uint k = 0; k < inner; k += 4) {
        float4x4 bt(*(const float4*)(B + (k + 0) * cols + j), *(const float4*)(B + (k + 1) * cols + j),
                    *(const float4*)(B + (k + 2) * cols + j), *(const float4*)(B + (k + 3) * cols + j));
        float4x4 upper(*(const float4*)(A + (i + 0) * inner + k), *(const float4*)(A + (i + 1) * inner + k),
                       *(const float4*)(A + (i + 2) * inner + k), *(const float4*)(A + (i + 3) * inner + k));
        float4x4 lower(*(const float4*)(A + (i + 4) * inner + k), *(const float4*)(A + (i + 5) * inner + k),
                       *(const float4*)(A + (i + 6) * inner + k), *(const float4*)(A + (i + 7) * inner + k));
        top += bt * upper;
        bottom += bt * lower;
    }
    for (uint r = 0; r < 4; ++r) {
        *(float4*)(C + (i + r) * cols + j) = top[r];
        *(float4*)(C + (i + 4 + r) * cols + j) = bottom[r];
    }
}

/// C = A * B both ways for a size whose rows of threads are whole (cols a multiple of 32),
/// n x n with a canary row after C. Returns how many rows of threads took the lane form.
template <int W>
[[gnu::always_inline]] inline int compare8x4(uint n, uint inner, std::vector<float>& byThread, std::vector<float>& byLanes) {
    std::vector<float> a(n * inner), b(inner * n);
    for (uint e = 0; e < a.size(); ++e) a[e] = value(int(e));
    for (uint e = 0; e < b.size(); ++e) b[e] = value(int(e) + 5);
    const float canary = -777.25f;
    byThread.assign(n * n + n, canary);
    byLanes.assign(n * n + n, canary);
    for (uint y = 0; y < n / 8; ++y)
        for (uint x = 0; x < n / 4; ++x) threadOf8x4(a.data(), b.data(), byThread.data(), uint2(x, y), n, n, inner);
    int laneRows = 0;
    for (uint y = 0; y < n / 8; ++y)
        for (uint x = 0; x < n / 4; x += kLanes)
            laneRows += lane_vectors::rowOfThreads<kLanes, W>(a.data(), b.data(), byLanes.data(), y, x, n, n, inner);
    return laneRows;
}

// Compiled for the image the lane form is for (x86-64-v4, registers of 64 bytes natively, not
// as GCC's generic lowering of them). The kernel stdlib's functions are inlined into this one,
// so its target holds for them.
__attribute__((target("arch=x86-64-v4"))) int compare8x4OnAvx512(uint n, uint inner, std::vector<float>& byThread,
                                                                 std::vector<float>& byLanes) {
    return compare8x4<64>(n, inner, byThread, byLanes);
}

TYPED_TEST(LaneVectors, MatmulRowHasThePerThreadBits) {
    for (const uint inner : {4u, 12u, 64u}) {
        std::vector<float> byThread, byLanes;
        const int laneRows = compare8x4<TypeParam::bytes>(32, inner, byThread, byLanes);
        EXPECT_EQ(laneRows, 32 / 8);
        EXPECT_EQ(std::memcmp(byThread.data(), byLanes.data(), byThread.size() * sizeof(float)), 0) << "inner " << inner;
        EXPECT_EQ(byLanes.back(), -777.25f) << "the canary row after C";
        EXPECT_EQ(byLanes[17 * 32 + 5], byThread[17 * 32 + 5]);
    }
}

TEST(LaneVectorsOnAvx512, MatmulRowHasThePerThreadBits) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl") || !__builtin_cpu_supports("fma"))
        GTEST_SKIP() << "no x86-64-v4 on this CPU";
    for (const uint inner : {4u, 36u, 128u}) {
        std::vector<float> byThread, byLanes;
        EXPECT_EQ(compare8x4OnAvx512(64, inner, byThread, byLanes), 64 / 8 * 64 / 32);
        EXPECT_EQ(std::memcmp(byThread.data(), byLanes.data(), byThread.size() * sizeof(float)), 0) << "inner " << inner;
        EXPECT_EQ(byLanes.back(), -777.25f);
    }
}

} // namespace
