// Named threadgroup arrays checked by index (issue 14): `tile[y][x]` of a
// `threadgroup float tile[4][8]` compares each index with its extent, and only an index out of
// range takes the general path, which checks the address against the array's region. Every
// kernel below makes the same access twice, by index (`flat` = 0) and through a pointer into
// the array (`flat` = 1: the general path alone); the two stand at the same column of
// consecutive lines, so their reports must be the same text but for the line. Each negative
// pair has a positive twin that must stay silent.
#include "validation_fixture.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void edge_1d(device float* out [[buffer(0)]], constant uint& offset [[buffer(1)]], constant uint& flat [[buffer(2)]],
                    uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    threadgroup float tile[32];
    threadgroup float next[16]; // allocated after tile: an index past tile may land in it
    threadgroup float* p = tile;
    next[l % 16] = 0.0f;
    if (flat == 0) tile[l + offset] = float(i);
    else           p   [l + offset] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = tile[l] + next[l % 16];
}
kernel void wrap_1d(device float* out [[buffer(0)]], constant uint& back [[buffer(1)]], constant uint& flat [[buffer(2)]],
                    uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    threadgroup float tile[32];
    threadgroup float* p = tile;
    tile[l] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (flat == 0) out[i] = tile[l - back];
    else           out[i] = p   [l - back];
}
kernel void edge_2d(device float* out [[buffer(0)]], constant uint2& shift [[buffer(1)]], constant uint& flat [[buffer(2)]],
                    uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    threadgroup float tile[4][8];
    threadgroup float* p = &tile[0][0];
    const uint row = l / 8 + shift.y, col = l % 8 + shift.x;
    if (flat == 0) tile[row][col]      = float(i);
    else           p   [row * 8 + col] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = tile[l / 8][l % 8];
}
float row_sum(threadgroup const float* row, uint n) {
    float sum = 0.0f;
    for (uint k = 0; k < n; ++k) sum += row[k];
    return sum;
}
float element_at(threadgroup float (&t)[4][8], uint r, uint c) {
    return t[r][c];
}
// Every thread of a group of `threads` fills its share of the tile with ones.
void fill(threadgroup float (&t)[4][8], uint l, uint threads) {
    for (uint k = l; k < 32; k += threads) t[k / 8][k % 8] = 1.0f;
}
kernel void helpers(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]], constant uint& flat [[buffer(2)]],
                    uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]], uint threads [[threads_per_threadgroup]]) {
    threadgroup float tile[4][8];
    fill(tile, l, threads);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = row_sum(tile[l / 8], n) + element_at(tile, l / 8, n - 1);
}
kernel void row_sums(device float* out [[buffer(0)]], constant uint& n [[buffer(1)]], constant uint& flat [[buffer(2)]],
                     uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]], uint threads [[threads_per_threadgroup]]) {
    threadgroup float tile[4][8];
    threadgroup float* p = &tile[0][0];
    fill(tile, l, threads);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint row = l / 8;
    float sum = 0.0f;
    if (flat == 0) for (uint k = 0; k < n; ++k) sum += tile[row][k];
    else           for (uint k = 0; k < n; ++k) sum += p   [row * 8 + k];
    out[i] = sum;
}
)";

/// The line of the first line of kKernels holding `text`.
unsigned lineOf(const char* text) {
    const std::string source = kKernels;
    const std::size_t at = source.find(text);
    return at == std::string::npos ? 0 : unsigned(1 + std::count(source.begin(), source.begin() + at, '\n'));
}

/// A report's text as it would read at `line`.
std::string textAtLine(ShaderValidationReport report, unsigned line) {
    report.location.line = line;
    return report.text();
}

class ThreadgroupIndex : public ValidationOnFixture {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    /// One group of `threads` threads running `name` with `parameter` at [[buffer(1)]] and
    /// `flat` at [[buffer(2)]]; the reports it made. `out` gets one float per thread.
    template <class P>
    std::vector<ShaderValidationReport> run(const char* name, const P& parameter, std::uint32_t flat,
                                            MTL::Buffer* out, NS::UInteger threads = 32, NS::UInteger group = 32) {
        MTL::ComputePipelineState* state = pipeline(library_, name, nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        dispatch(state, threads, group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(float), 0); // a canary word before and after
            e->setBytes(&parameter, sizeof parameter, 1);
            e->setBytes(&flat, sizeof flat, 2);
        });
        return reports();
    }

    /// The reports of `name` by index and through the pointer, which must be one report each
    /// and the same but for the line (the pointer's access is on the next line). Returns the
    /// report by index.
    template <class P>
    ShaderValidationReport samePair(const char* name, const P& parameter) {
        MTL::Buffer* out = buffer(34 * sizeof(float));
        std::vector<ShaderValidationReport> byIndex = run(name, parameter, 0, out);
        std::vector<ShaderValidationReport> byPointer = run(name, parameter, 1, out);
        EXPECT_EQ(byIndex.size(), 1u);
        EXPECT_EQ(byPointer.size(), 1u);
        if (byIndex.size() != 1 || byPointer.size() != 1) return {};
        EXPECT_EQ(byPointer[0].location.line, byIndex[0].location.line + 1);
        EXPECT_EQ(byIndex[0].text(), textAtLine(byPointer[0], byIndex[0].location.line));
        // Every field, through the JSON line, but the line and the command buffer's index.
        ShaderValidationReport twin = byPointer[0];
        twin.location.line = byIndex[0].location.line;
        twin.commandBufferIndex = byIndex[0].commandBufferIndex;
        EXPECT_EQ(byIndex[0].json(), twin.json());
        return byIndex[0];
    }

    static MTL::Library* library_;
};

MTL::Library* ThreadgroupIndex::library_ = nullptr;

// Test that a store one past the end of a 1-D array (thread 31 writes tile[32]) is reported
// at offset 128, as the pointer reports it, and dropped.
TEST_F(ThreadgroupIndex, OnePastTheEndIsReportedAsThroughAPointer) {
    const ShaderValidationReport r = samePair("edge_1d", 1u);
    EXPECT_EQ(r.addressSpace, AddressSpace::Threadgroup);
    EXPECT_EQ(r.access, Access::Store);
    EXPECT_EQ(r.offset, 32u * sizeof(float));
    EXPECT_EQ(r.count, 1u);
    EXPECT_EQ(r.location.line, lineOf("if (flat == 0) tile[l + offset]"));
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{31, 0, 0}));
}

// Test that an index past the array that lands in the next threadgroup variable is reported:
// the fallback checks against the array's own region, not all of threadgroup memory.
TEST_F(ThreadgroupIndex, IndexIntoTheNextVariableIsReported) {
    const ShaderValidationReport r = samePair("edge_1d", 9u);
    EXPECT_EQ(r.offset, 32u * sizeof(float)) << "thread 23 is the first past the end";
    EXPECT_EQ(r.count, 9u) << "threads 23 to 31";
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{23, 0, 0}));
}

// Test that `tile[l - back]` with l = 0 (an unsigned index wrapped to 2^32 - 1) is reported as
// the general path reports it, a load far past the end.
TEST_F(ThreadgroupIndex, UnsignedWrapBelowZeroIsReportedAsThroughAPointer) {
    const ShaderValidationReport r = samePair("wrap_1d", 1u);
    EXPECT_EQ(r.access, Access::Load);
    EXPECT_EQ(r.offset, 0xffffffffull * sizeof(float));
    EXPECT_EQ(r.location.line, lineOf("if (flat == 0) out[i] = tile"));
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{0, 0, 0}));
}

// Test that a column index past its row stays silent while the element is still inside the
// array (as on a GPU: tile[0][8] is tile[1][0]), and is reported past the last row.
TEST_F(ThreadgroupIndex, TwoDimensionalColumnPastItsRow) {
    const ShaderValidationReport r = samePair("edge_2d", std::array<std::uint32_t, 2>{1, 0});
    EXPECT_EQ(r.access, Access::Store);
    EXPECT_EQ(r.offset, 32u * sizeof(float)) << "tile[3][8], one past the end";
    EXPECT_EQ(r.count, 1u) << "tile[0][8] to tile[2][8] are inside the array";
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{31, 0, 0}));
}

// Test that a row index past the last row is reported for every thread of that row.
TEST_F(ThreadgroupIndex, TwoDimensionalRowPastTheEnd) {
    const ShaderValidationReport r = samePair("edge_2d", std::array<std::uint32_t, 2>{0, 1});
    EXPECT_EQ(r.offset, 32u * sizeof(float)) << "tile[4][0]";
    EXPECT_EQ(r.count, 8u) << "the eight threads of the last row";
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{24, 0, 0}));
}

// Test that a loop whose last iteration leaves the array reports the access the pointer's
// loop reports: the same offset, thread and count, however the compiler moved the checks.
TEST_F(ThreadgroupIndex, LoopWhoseLastIterationLeavesTheArray) {
    const ShaderValidationReport r = samePair("row_sums", 9u);
    EXPECT_EQ(r.access, Access::Load);
    EXPECT_EQ(r.offset, 32u * sizeof(float)) << "tile[3][8]; tile[0..2][8] are the next rows' first elements";
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{24, 0, 0}));
    EXPECT_GE(r.count, 1u);
    EXPECT_LE(r.count, 8u);
}

// Test that arrays passed to helpers, a row by pointer and the array by reference, are checked
// there: the row's pointer against the array, the reference by index.
TEST_F(ThreadgroupIndex, HelpersReportPastTheEnd) {
    MTL::Buffer* out = buffer(34 * sizeof(float));
    std::vector<ShaderValidationReport> got = run("helpers", 9u, 0, out);
    ASSERT_EQ(got.size(), 2u);
    std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.location.line < b.location.line; });
    EXPECT_EQ(got[0].location.line, lineOf("sum += row[k]"));
    EXPECT_EQ(got[0].location.function, "row_sum");
    EXPECT_EQ(got[0].offset, 32u * sizeof(float));
    EXPECT_EQ(got[1].location.line, lineOf("return t[r][c]"));
    EXPECT_EQ(got[1].location.function, "element_at");
    for (const ShaderValidationReport& r : got) {
        EXPECT_EQ(r.addressSpace, AddressSpace::Threadgroup);
        EXPECT_EQ(r.access, Access::Load);
        EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{24, 0, 0}));
    }
}

// ---- Positive twins: in range is silent and right, over group shapes -----------------------

class ThreadgroupIndexInRange : public ThreadgroupIndex, public ::testing::WithParamInterface<Shape> {
protected:
    /// Runs `name` by index and through the pointer over the shape; both silent, canaries kept,
    /// and `expected(i, l)` in out[i].
    template <class P, class Expected>
    void expectSilent(const char* name, const P& parameter, Expected&& expected) {
        const auto [count, group] = GetParam();
        for (std::uint32_t flat : {0u, 1u}) {
            MTL::Buffer* out = buffer((count + 2) * sizeof(float));
            floats(out)[0] = floats(out)[count + 1] = 42.0f;
            EXPECT_THAT(run(name, parameter, flat, out, count, group), ::testing::IsEmpty()) << name << " flat " << flat;
            for (NS::UInteger i = 0; i < count; ++i)
                ASSERT_EQ(floats(out)[i + 1], expected(std::uint32_t(i), std::uint32_t(i % group))) << name << " " << i;
            EXPECT_EQ(floats(out)[0], 42.0f);
            EXPECT_EQ(floats(out)[count + 1], 42.0f);
        }
    }
};

// Test that every element of a 1-D and a 2-D array written and read in range is silent.
TEST_P(ThreadgroupIndexInRange, EdgesAreSilent) {
    expectSilent("edge_1d", 0u, [](std::uint32_t i, std::uint32_t) { return float(i); });
    expectSilent("edge_2d", std::array<std::uint32_t, 2>{0, 0}, [](std::uint32_t i, std::uint32_t) { return float(i); });
    expectSilent("wrap_1d", 0u, [](std::uint32_t i, std::uint32_t) { return float(i); });
}

// Test that a loop over a whole row, and the helpers' accesses at its last element, are silent
// (the tile is all ones, whichever threads filled it).
TEST_P(ThreadgroupIndexInRange, WholeRowsAreSilent) {
    expectSilent("row_sums", 8u, [](std::uint32_t, std::uint32_t) { return 8.0f; });
    expectSilent("helpers", 8u, [](std::uint32_t, std::uint32_t) { return 9.0f; });
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadgroupIndexInRange,
                         ::testing::Values(Shape{1, 1}, Shape{24, 24}, Shape{32, 32}, Shape{70, 32}, Shape{45, 15}),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                             return std::to_string(info.param.count) + "_by_" + std::to_string(info.param.group);
                         });

} // namespace
} // namespace metalcpu::testing
