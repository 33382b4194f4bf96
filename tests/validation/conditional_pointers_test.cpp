// Shader validation of conditionals that choose a pointer (MLX's gemv.h:
// `tgp_mem_size == 0 ? nullptr : tgp_memory`). In the instrumented flavour a named threadgroup
// array is a checked array, not a pointer: `?:` must still take nullptr, another array or a
// pointer as its other operand, run as the plain flavour does, and check what is accessed
// through the result.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
static float read(threadgroup float* p, uint at) {
    return p ? p[at] : -1.0f;
}
// `use` 0: every pointer is null (`force`: read through one anyway); 1: the tile, read at
// l + k (l + 2k: faults at one address in one thread may be counted once), and out, written at
// i + s.
kernel void null_or_tile(device float* out [[buffer(0)]], constant uint& use [[buffer(1)]], constant uint& k [[buffer(2)]],
                         constant uint& s [[buffer(3)]], constant uint& force [[buffer(4)]], uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    threadgroup float tile[64];
    tile[l] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    auto first = use == 0 ? nullptr : tile;
    auto second = use != 0 ? tile : nullptr;
    device float* o = use == 0 ? nullptr : out;
    const float value = read(use == 0 ? nullptr : tile, l + k) + read(second, l + 2 * k) +
                        (first || force != 0 ? first[l + k] : -1.0f);
    if (o) o[i + s] = value;
    else out[i] = value;
}
// A larger array with a smaller one, arrays with pointers, as `?:` operands.
kernel void mixed(device float* out [[buffer(0)]], constant uint& sel [[buffer(1)]], constant uint& k [[buffer(2)]],
                  uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]], uint threads [[threads_per_threadgroup]]) {
    threadgroup float tile[64];
    threadgroup float small[16];
    for (uint j = l; j < 64; j += threads) tile[j] = float(j);
    for (uint j = l; j < 16; j += threads) small[j] = 0.5f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    threadgroup float* upper = tile + 32;
    auto wide = sel == 0 ? small : tile;
    threadgroup float* p = sel == 0 ? upper : tile;
    threadgroup float* q = sel == 0 ? tile : upper;
    const uint w = sel == 0 ? l % 16 : l;
    out[i] = wide[w + k] +
             p[l + k] +
             q[l + k];
}
)";

constexpr unsigned kReadLine = 4, kFirstLine = 18, kStoreLine = 19, kWideLine = 35, kPLine = 36, kQLine = 37;

class ConditionalPointers : public ShapedValidationFixture<&kKernels> {
protected:
    /// The reports' lines and counts, sorted by line: what a test compares.
    static std::vector<std::pair<unsigned, std::uint64_t>> linesAndCounts(const std::vector<ShaderValidationReport>& got) {
        std::vector<std::pair<unsigned, std::uint64_t>> seen;
        for (const ShaderValidationReport& r : got) seen.emplace_back(r.location.line, r.count);
        std::sort(seen.begin(), seen.end());
        return seen;
    }
};

// Test that `c ? nullptr : tile`, `c ? tile : nullptr` (passed on, and kept as `auto`) and
// `c ? nullptr : out` are null or the array and the buffer, as in the plain flavour, silently;
// that reads past the tile through them are reported at each site, once per thread, and read
// zero; that stores past out's buffer through the device pointer are reported and land
// nowhere; and that a read through the null kept as `auto` is reported as an invalid
// threadgroup load at its offset from 0 (as Apple reports it), and reads zero.
TEST_P(ConditionalPointers, NullptrOrArray) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "null_or_tile");
    ASSERT_NE(pipeline, nullptr);
    struct Case {
        std::uint32_t use, k, s, force;
    };
    // s = n + 2: every store skips the trailing canary, past the buffer.
    for (Case c : {Case{0, 0, 0, 0}, Case{1, 0, 0, 0}, Case{1, 64, 0, 0}, Case{1, 0, n + 2, 0}, Case{0, 0, 0, 1}}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&c.use, sizeof c.use, 1);
            e->setBytes(&c.k, sizeof c.k, 2);
            e->setBytes(&c.s, sizeof c.s, 3);
            e->setBytes(&c.force, sizeof c.force, 4);
        });
        std::vector<ShaderValidationReport> got = reports();
        const float* o = floats(out) + 1;
        for (std::uint32_t i = 0; i < n; ++i) {
            const float want = c.use == 0 ? (c.force != 0 ? -2.0f : -3.0f) : c.k != 0 ? 0.0f : 3.0f * float(i);
            if (c.s != 0) EXPECT_EQ(words(out)[1 + i], 0xFFFFFFFFu) << "thread " << i; // the fill: no store landed
            else EXPECT_EQ(o[i], want) << "use " << c.use << ", k " << c.k << ", thread " << i;
        }
        expectCanaries(out, n);
        if (c.k == 0 && c.s == 0 && c.force == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty()) << "use " << c.use;
            continue;
        }
        using Seen = std::vector<std::pair<unsigned, std::uint64_t>>;
        if (c.force != 0) { // through the null: an offset into threadgroup memory, reported as Apple does
            ASSERT_EQ(got.size(), 1u);
            EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
            EXPECT_EQ(got[0].addressSpace, AddressSpace::Threadgroup);
            EXPECT_FALSE(got[0].hasBuffer);
            EXPECT_EQ(got[0].offset, 0u) << "thread 0's first[0], from the null pointer";
            EXPECT_EQ(got[0].access, Access::Load);
            EXPECT_EQ(linesAndCounts(got), (Seen{{kFirstLine, n}}));
            continue;
        }
        for (const ShaderValidationReport& r : got) {
            EXPECT_EQ(r.kind, ReportKind::OutOfBounds);
            EXPECT_EQ(r.addressSpace, c.s != 0 ? AddressSpace::Device : AddressSpace::Threadgroup);
            EXPECT_EQ(r.access, c.s != 0 ? Access::Store : Access::Load);
        }
        if (c.s != 0) EXPECT_EQ(linesAndCounts(got), (Seen{{kStoreLine, n}}));
        else EXPECT_EQ(linesAndCounts(got), (Seen{{kReadLine, 2u * n}, {kFirstLine, n}}));
    }
}

// Test that `c ? small : tile` (arrays of two extents), `c ? pointer : tile` and
// `c ? tile : pointer` give the array or pointer chosen, silently, whichever is chosen (an
// index past the small array's extent into the tile chosen as it is no error); and that
// reading past the tile through each is reported at its line, once per thread.
TEST_P(ConditionalPointers, ArraysAndPointers) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    const std::uint32_t group = static_cast<std::uint32_t>(shape.group);
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "mixed");
    ASSERT_NE(pipeline, nullptr);
    struct Case {
        std::uint32_t sel, k;
    };
    for (Case c : {Case{0, 0}, Case{1, 0}, Case{1, 64}}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&c.sel, sizeof c.sel, 1);
            e->setBytes(&c.k, sizeof c.k, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::uint32_t i = 0; i < n; ++i) {
            const float l = static_cast<float>(i % group);
            const float want = c.k != 0 ? 0.0f : c.sel == 0 ? 0.5f + 32.0f + 2.0f * l : 3.0f * l + 32.0f;
            EXPECT_EQ(floats(out)[1 + i], want) << "sel " << c.sel << ", k " << c.k << ", thread " << i;
        }
        expectCanaries(out, n);
        if (c.k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty()) << "sel " << c.sel;
            continue;
        }
        for (const ShaderValidationReport& r : got) {
            EXPECT_EQ(r.kind, ReportKind::OutOfBounds);
            EXPECT_EQ(r.addressSpace, AddressSpace::Threadgroup);
            EXPECT_EQ(r.access, Access::Load);
        }
        using Seen = std::vector<std::pair<unsigned, std::uint64_t>>;
        EXPECT_EQ(linesAndCounts(got), (Seen{{kWideLine, n}, {kPLine, n}, {kQLine, n}}));
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ConditionalPointers,
                         ::testing::Values(Shape{1, 1}, Shape{7, 3}, Shape{37, 8}, Shape{64, 32}), shapeName);

} // namespace
} // namespace metalcpu::testing
