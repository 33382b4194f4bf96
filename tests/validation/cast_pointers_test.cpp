// Shader validation of pointers cast from arrays: an array member of a struct in device memory
// (ggml's `*((device const uint32_t *)xb->qh)`) and a pointer into a program-scope constant
// table (`(constant uint8_t *)(iq2s_grid + i)`). The instrumented flavour must compile them,
// run them as the plain flavour does, and still report an access through the cast pointer
// that leaves the buffer or the table.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
// ggml's block_q5_0: the array member sits at offset 2, eight bytes a block.
struct Block { half d; uint8_t qh[4]; uint8_t qs[2]; };
kernel void member_cast(device const Block* x [[buffer(0)]], device uint* o [[buffer(1)]], constant int& k [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    device const Block* xb = x + i;
    o[2 * i] = *((device const uint32_t*)xb->qh);
    o[2 * i + 1] = reinterpret_cast<device const uint32_t*>(x[i].qh)[k];
}
constant uint64_t kGrid[4] = {0x0807060504030201ul, 0x100f0e0d0c0b0a09ul, 0x1817161514131211ul, 0x201f1e1d1c1b1a19ul};
kernel void table_cast(device uint* o [[buffer(0)]], constant int& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    constant uint8_t* g = (constant uint8_t*)(kGrid + (i & 3));
    o[i] = g[k];
}
)";

constexpr unsigned kMemberIndexLine = 8, kTableLine = 13;

using CastPointers = ShapedValidationFixture<&kKernels>;

// Test that `(device const uint32_t*)xb->qh` and `reinterpret_cast<...>(x[i].qh)[k]` read the
// bytes the plain flavour reads, silently, and that reading past the buffer through the cast
// pointer (the last block's qh[4..7]) is reported against the buffer, once, and reads zero.
TEST_P(CastPointers, MemberArrayCast) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    MTL::Buffer* blocks = buffer(8 * n, "blocks");
    auto* bytes = static_cast<std::uint8_t*>(blocks->contents());
    for (std::size_t b = 0; b < 8 * n; ++b) bytes[b] = static_cast<std::uint8_t>(b * 7 + 3);
    auto wordAt = [&](std::size_t offset) {
        std::uint32_t w = 0;
        std::memcpy(&w, bytes + offset, sizeof w);
        return w;
    };
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "member_cast");
    ASSERT_NE(pipeline, nullptr);
    for (int k : {0, 1}) {
        MTL::Buffer* out = output(2 * n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(blocks, 0, 0);
            e->setBuffer(out, sizeof(std::uint32_t), 1);
            e->setBytes(&k, sizeof k, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        const std::uint32_t* o = testing::words(out) + 1;
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_EQ(o[2 * i], wordAt(8 * i + 2)) << i;
            const bool past = k == 1 && i == n - 1;
            EXPECT_EQ(o[2 * i + 1], past ? 0u : wordAt(8 * i + 2 + 4 * k)) << "k " << k << ", block " << i;
        }
        expectCanaries(out, 2 * n);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].access, Access::Load);
        EXPECT_EQ(got[0].bufferLabel, "blocks");
        EXPECT_EQ(got[0].bufferLength, 8 * n);
        EXPECT_EQ(got[0].count, 1u);
        EXPECT_EQ(got[0].location.line, kMemberIndexLine);
        EXPECT_EQ(got[0].threadPositionInGrid, (validation::Position{static_cast<std::uint32_t>(n - 1), 0, 0}));
    }
}

// Test that `(constant uint8_t*)(kGrid + (i & 3))` reads the table's bytes silently, and that
// byte 8 of the last element (past the 32-byte table) is reported against the constant, once
// per thread that reads it, and reads zero; the other threads read the next element's byte.
TEST_P(CastPointers, ConstantTableCast) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "table_cast");
    ASSERT_NE(pipeline, nullptr);
    for (int k : {1, 8}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&k, sizeof k, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        std::uint64_t past = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t byte = 8 * (i & 3) + static_cast<std::size_t>(k); // kGrid's bytes are 1, 2, ..., 32
            if (byte >= 32) ++past;
            EXPECT_EQ(testing::words(out)[1 + i], byte >= 32 ? 0u : static_cast<std::uint32_t>(byte + 1))
                << "k " << k << ", thread " << i;
        }
        expectCanaries(out, n);
        if (past == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty()) << "k " << k;
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].access, Access::Load);
        EXPECT_EQ(got[0].bufferLabel, "constant kGrid");
        EXPECT_EQ(got[0].bufferLength, 32u);
        EXPECT_EQ(got[0].count, past);
        EXPECT_EQ(got[0].location.line, kTableLine);
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CastPointers,
                         ::testing::Values(Shape{1, 1}, Shape{7, 3}, Shape{37, 8}, Shape{64, 32}), shapeName);

} // namespace
} // namespace metalcpu::testing
