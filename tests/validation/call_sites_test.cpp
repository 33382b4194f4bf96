// Shader validation of accesses made inside <metal_stdlib> functions the kernel calls: atomics
// and simdgroup_load/simdgroup_store. Their reports carry the call's own line, the column of
// the function's name and the function the call is in, as Apple's frames do (the validation
// tester's U3: an out-of-bounds simdgroup_load had no frame at all; U6: atomics at column 0).
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::ShaderValidationReport;

// Line and column numbers matter: the tests assert them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
template <typename T> void bump(device atomic<T>* c, uint j) { atomic_fetch_add_explicit(c + j, T(1), memory_order_relaxed); }
// Thread i counts into counter i % k, by `which`: 0 in the kernel, 1 through a helper, 2 reads it.
kernel void count_up(device atomic_uint* counters [[buffer(0)]], device uint* out [[buffer(1)]], constant uint2& kw [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (kw.y == 0) atomic_fetch_add_explicit(&counters[i % kw.x], 1u, memory_order_relaxed);
    else if (kw.y == 1) bump(counters, i % kw.x);
    else out[i] = metal::atomic_load_explicit(counters + i % kw.x, memory_order_relaxed);
}
// One SIMD-group: rows `first` .. `first` + 7 of a 16x8 tile in threadgroup memory, stored to `out`.
kernel void tile_copy(device float* out [[buffer(0)]], threadgroup float* tg [[threadgroup(0)]], constant uint& first [[buffer(1)]],
                      ushort l [[thread_index_in_simdgroup]], uint g [[threadgroup_position_in_grid]]) {
    for (uint r = l; r < 64; r += 32) tg[r] = float(r);
    simdgroup_barrier(mem_flags::mem_threadgroup);
    simdgroup_float8x8 m;
    simdgroup_load(m, tg + first * 8, 8);
    simdgroup_store(m, out + g * 64, 8);
}
template <int N, typename T> T nth(device const T* p, uint j) { return p[j * N]; }
kernel void strided(device const float* in [[buffer(0)]], device float* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = nth<2>(in, i);
}
)";

constexpr unsigned kKernelAtomicLine = 6, kHelperAtomicLine = 3, kLoadAtomicLine = 8, kSimdLoadLine = 16,
                   kSimdStoreLine = 17, kTemplateHelperLine = 19;

/// The 1-based column of `name` in line `line` of kKernels.
unsigned columnOf(unsigned line, const std::string& name) { return metalcpu::testing::columnOf(kKernels, line, name); }

class CallSites : public ShapedValidationFixture<&kKernels> {};
/// Whole SIMD-groups only, as simdgroup_matrix functions need.
class SimdgroupCallSites : public ShapedValidationFixture<&kKernels> {};

// Test that an atomic one past the counters (k + 1 counters indexed, k bound) is reported at
// the atomic's own line and the column of its name, in the function that calls it: the kernel,
// a helper template (named with its instantiation's arguments, `bump<unsigned int>`, as Apple's
// frames name it), or a load through `metal::`; and that the
// atomics inside the buffer count exactly (each of the k counters gets its threads).
TEST_P(CallSites, AtomicsCarryTheirColumn) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "count_up");
    ASSERT_NE(pipeline, nullptr);
    const std::uint32_t k = 4;
    for (std::uint32_t which : {0u, 1u, 2u}) {
        for (std::uint32_t indexed : {k, k + 1}) {
            MTL::Buffer* counters = buffer(k * sizeof(std::uint32_t), "counters");
            for (std::uint32_t c = 0; c < k; ++c) words(counters)[c] = 0;
            MTL::Buffer* out = output(n, 7);
            const std::uint32_t kw[2] = {indexed, which};
            dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(counters, 0, 0);
                e->setBuffer(out, sizeof(std::uint32_t), 1);
                e->setBytes(kw, sizeof kw, 2);
            });
            std::vector<ShaderValidationReport> got = reports();
            std::size_t past = 0; // threads whose counter is past the end
            for (std::size_t i = 0; i < n; ++i) past += i % indexed == k;
            if (which < 2) {
                for (std::uint32_t c = 0; c < k; ++c) {
                    std::uint32_t expected = 0;
                    for (std::size_t i = 0; i < n; ++i) expected += i % indexed == c;
                    EXPECT_EQ(words(counters)[c], expected) << which << ", counter " << c;
                }
            } else {
                for (std::size_t i = 0; i < n; ++i)
                    EXPECT_EQ(words(out)[1 + i], 0u) << "thread " << i; // zeros, read or zero-filled
            }
            expectCanaries(out, n);
            if (past == 0) {
                EXPECT_THAT(got, ::testing::IsEmpty()) << which << ", " << indexed;
                continue;
            }
            ASSERT_EQ(got.size(), 1u) << which;
            const ShaderValidationReport& r = got[0];
            EXPECT_EQ(r.addressSpace, AddressSpace::Device);
            EXPECT_EQ(r.access, which == 2 ? Access::Load : Access::Store);
            EXPECT_EQ(r.offset, k * sizeof(std::uint32_t));
            EXPECT_EQ(r.argumentName, "counters");
            EXPECT_EQ(r.count, past);
            const unsigned line = which == 0 ? kKernelAtomicLine : which == 1 ? kHelperAtomicLine : kLoadAtomicLine;
            EXPECT_EQ(r.location.line, line);
            EXPECT_EQ(r.location.column,
                      columnOf(line, which == 2 ? "atomic_load_explicit" : "atomic_fetch_add_explicit"));
            const std::string function = which == 1 ? "bump<unsigned int>" : "count_up";
            EXPECT_EQ(r.location.function, function);
            EXPECT_THAT(r.text(), ::testing::HasSubstr("* frame #0: " + function + "() - "));
        }
    }
}

// Test that simdgroup_load from threadgroup memory of which only 64 floats (rows 0 .. 7) are
// bound is silent for rows 0 .. 7 and, for rows 8 .. 15, reported once per group at the call's
// line and column with a frame naming the kernel (the matrix reads zeros); and that a
// simdgroup_store past the output is reported at its own call.
TEST_P(SimdgroupCallSites, LoadAndStoreCarryTheirFrame) {
    const Shape shape = GetParam();
    const std::size_t groups = shape.count / shape.group;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "tile_copy");
    ASSERT_NE(pipeline, nullptr);
    for (std::uint32_t first : {0u, 8u}) {
        for (bool shortOutput : {false, true}) {
            // The output after a canary word, bound after it; short: its buffer ends a float early.
            const std::size_t words = 64 * groups - (shortOutput ? 1 : 0);
            MTL::Buffer* out = buffer((1 + words) * sizeof(float), "out");
            for (std::size_t w = 0; w <= words; ++w) metalcpu::testing::words(out)[w] = w == 0 ? kCanary : 0xFFFFFFFFu;
            dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(out, sizeof(float), 0);
                e->setThreadgroupMemoryLength(256, 0);
                e->setBytes(&first, sizeof first, 1);
            });
            std::vector<ShaderValidationReport> got = reports();
            for (std::size_t w = 0; w < words; ++w)
                EXPECT_EQ(floats(out)[1 + w], first == 0 ? static_cast<float>(w % 64) : 0.0f) << w;
            EXPECT_EQ(metalcpu::testing::words(out)[0], kCanary);
            std::size_t expected = (first == 8 ? 1 : 0) + (shortOutput ? 1 : 0);
            ASSERT_EQ(got.size(), expected) << first << ", " << shortOutput;
            for (const ShaderValidationReport& r : got) {
                const bool load = r.addressSpace == AddressSpace::Threadgroup;
                EXPECT_EQ(r.access, load ? Access::Load : Access::Store);
                EXPECT_EQ(r.location.line, load ? kSimdLoadLine : kSimdStoreLine);
                EXPECT_EQ(r.location.column, columnOf(r.location.line, load ? "simdgroup_load" : "simdgroup_store"));
                EXPECT_THAT(r.text(), ::testing::HasSubstr("* frame #0: tile_copy() - "));
                if (load) {
                    EXPECT_EQ(r.offset, 256u);
                    EXPECT_EQ(r.count, 64 * groups); // two elements per lane, 32 lanes
                } else {
                    EXPECT_EQ(r.offset, sizeof(float) * (1 + words));
                    EXPECT_EQ(r.count, 1u);
                }
            }
        }
    }
}

// Test that an access in a helper template's body (not an atomic: a subscript) names the
// instantiation in its frame, deduced arguments too (`nth<2, float>()`), and is reported once
// with every thread whose element is past the end; the other threads read their elements.
TEST_P(CallSites, HelperTemplateFramesNameTheirInstantiation) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "strided");
    ASSERT_NE(pipeline, nullptr);
    MTL::Buffer* in = buffer((2 * n - 2) * sizeof(float), "in"); // the last thread's element is past the end
    for (std::size_t w = 0; w + 2 < 2 * n; ++w) floats(in)[w] = static_cast<float>(w) + 0.5f;
    MTL::Buffer* out = output(n);
    dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(in, 0, 0);
        e->setBuffer(out, sizeof(float), 1);
    });
    std::vector<ShaderValidationReport> got = reports();
    for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(floats(out)[1 + i], i + 1 == n ? 0.0f : static_cast<float>(2 * i) + 0.5f) << i;
    expectCanaries(out, n);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].offset, (2 * n - 2) * sizeof(float));
    EXPECT_EQ(got[0].argumentName, "in");
    EXPECT_EQ(got[0].location.line, kTemplateHelperLine);
    EXPECT_EQ(got[0].location.function, "nth<2, float>");
    EXPECT_THAT(got[0].text(), ::testing::HasSubstr("* frame #0: nth<2, float>() - "));
}

INSTANTIATE_TEST_SUITE_P(Shapes, CallSites, ::testing::Values(Shape{1, 1}, Shape{7, 3}, Shape{37, 8}, Shape{64, 32}),
                         shapeName);
INSTANTIATE_TEST_SUITE_P(Shapes, SimdgroupCallSites, ::testing::Values(Shape{32, 32}, Shape{96, 32}), shapeName);

} // namespace
} // namespace metalcpu::testing
