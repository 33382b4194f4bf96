// Shader validation of accesses to members (ggml finding F5): `x[i].d` checks the member's own
// bytes, not the whole struct, so the last block's first members are in bounds near a
// buffer's end though the block is not; `x[i].qs + 8` reads nothing and keeps the buffer's
// identity, so a read through it past the end is reported against the buffer at its offset;
// the same in constant and threadgroup memory, through `->`, nested members and `&x[i].m`.
#include "validation_fixture.h"

#include <gmock/gmock.h>

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
// ggml's block_q8_0: 34 bytes, its half at 0, its 32 quants at 2.
struct Block { half d; int8_t qs[32]; };
// Thread i sums block i's qs[k .. k + 7], through a pointer into the member array, and its d.
kernel void block_reads(device const Block* x [[buffer(0)]], device float* o [[buffer(1)]], constant int& k [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    device const int8_t* qs = x[i].qs + k;
    float s = 0.0f;
    for (int j = 0; j < 8; ++j) s += qs[j];
    o[i] = s + float(x[i].d);
}
kernel void constant_block_reads(constant Block* x [[buffer(0)]], device float* o [[buffer(1)]], constant int& k [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    float s = 0.0f;
    for (int j = 0; j < 8; ++j) s += x[i].qs[k + j];
    o[i] = s + float(x->d) * 0.0f + float(x[i].d);
}
struct Pair { float a; float b; };
struct Outer { float w; Pair p; };
// Thread i stores member `which` of element i: w, p.a, p.b through ->, p.b through its address.
kernel void member_stores(device Outer* x [[buffer(0)]], constant int& which [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    if (which == 0) x[i].w = float(i);
    else if (which == 1) x[i].p.a = float(i) + 0.5f;
    else if (which == 2) (x + i)->p.b = float(i) + 0.25f;
    else { device float* q = &x[i].p.b; q[0] = float(i) + 0.75f; }
}
// 16 bytes of threadgroup memory hold t[0] and the first member of t[1] (12 bytes each).
struct Triple { float a; float b; float c; };
kernel void threadgroup_members(device float* o [[buffer(0)]], threadgroup Triple* t [[threadgroup(0)]], constant int& k [[buffer(1)]],
                                uint l [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]], uint i [[thread_position_in_grid]]) {
    if (l == 0) {
        t[1].a = float(g);
        if (k == 1) t[1].b = 2.0f;
        o[i] = t[1].a + (k == 1 ? t->c : 0.0f);
    } else {
        o[i] = float(i);
    }
}
// 32 bytes: w at 0, v at 16. Thread i reads or writes one part of element i, by `which`.
struct Sample { float w; float4 v; };
kernel void sample_parts(device Sample* x [[buffer(0)]], device float* o [[buffer(1)]], constant int& which [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (which == 0) o[i] = x[i].v[1];
    else if (which == 1) x[i].v[2] = float(i);
    else if (which == 2) o[i] = (*(x + i)).w;
    else if (which == 3) o[i] = (*(x + i)).v[1];
    else if (which == 4) o[i] = (*(x + i)).v[3];
    else (*(x + i)).w += 1.0f;
}
)";

constexpr unsigned kQsLine = 9, kConstantQsLine = 14, kArrowStoreLine = 23, kAddressStoreLine = 24, kTgStoreLine = 32,
                   kVectorStoreLine = 42, kDereferencedVectorLine = 45;

class MemberAccesses : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs `kernel` (block_reads or its constant twin) over n blocks bound in `space` (a
    /// buffer labelled "blocks", or setBytes), with k = 8 (silent) and k = 16 (the last
    /// block's quants 16 .. 23 past the end, reported at `line`), checking every output.
    void runBlockReads(const char* kernel, AddressSpace space, unsigned line);
};

/// The bits of the half `v`, an integer 0 <= v < 2048.
std::uint16_t halfBits(unsigned v) {
    if (v == 0) return 0;
    unsigned e = 0;
    while ((v >> (e + 1)) != 0) ++e;
    return static_cast<std::uint16_t>(((e + 15) << 10) | ((v << (10 - e)) & 0x3FF));
}

/// n blocks (the last one's quants 16 .. 31 cut off: 34 n - 16 bytes), block b's d = b, its
/// quants (b * 7 + q) % 100 - 50.
std::vector<std::uint8_t> blockBytes(std::size_t n) {
    std::vector<std::uint8_t> bytes(34 * n);
    for (std::size_t b = 0; b < n; ++b) {
        const std::uint16_t d = halfBits(static_cast<unsigned>(b));
        bytes[34 * b] = static_cast<std::uint8_t>(d & 0xFF);
        bytes[34 * b + 1] = static_cast<std::uint8_t>(d >> 8);
        for (std::size_t q = 0; q < 32; ++q)
            bytes[34 * b + 2 + q] = static_cast<std::uint8_t>(static_cast<std::int8_t>((b * 7 + q) % 100) - 50);
    }
    bytes.resize(34 * n - 16);
    return bytes;
}

/// What block_reads gives thread i with k: quants past the bytes read zero.
float expectedSum(const std::vector<std::uint8_t>& bytes, std::size_t i, int k) {
    float s = 0.0f;
    for (int j = 0; j < 8; ++j) {
        const std::size_t at = 34 * i + 2 + static_cast<std::size_t>(k + j);
        s += at < bytes.size() ? static_cast<float>(static_cast<std::int8_t>(bytes[at])) : 0.0f;
    }
    return s + static_cast<float>(i);
}

/// One report of 8 one-byte loads at the first quant past the end, by the last thread.
void expectQuantsPastTheEnd(const std::vector<ShaderValidationReport>& got, std::size_t n, unsigned line,
                            AddressSpace space) {
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
    EXPECT_EQ(got[0].addressSpace, space);
    EXPECT_EQ(got[0].access, Access::Load);
    EXPECT_EQ(got[0].offset, 34 * n - 16);
    EXPECT_EQ(got[0].size, 1u);
    EXPECT_EQ(got[0].bufferLength, 34 * n - 16);
    EXPECT_EQ(got[0].argumentName, "x");
    EXPECT_EQ(got[0].bindingIndex, 0);
    EXPECT_EQ(got[0].count, 8u);
    EXPECT_EQ(got[0].location.line, line);
    EXPECT_EQ(got[0].threadPositionInGrid, (validation::Position{static_cast<std::uint32_t>(n - 1), 0, 0}));
}

void MemberAccesses::runBlockReads(const char* kernel, AddressSpace space, unsigned line) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    const std::vector<std::uint8_t> bytes = blockBytes(n);
    MTL::Buffer* blocks = buffer(bytes.size(), "blocks");
    std::copy(bytes.begin(), bytes.end(), static_cast<std::uint8_t*>(blocks->contents()));
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, kernel);
    ASSERT_NE(pipeline, nullptr);
    for (int k : {8, 16}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            if (space == AddressSpace::Constant) e->setBytes(bytes.data(), bytes.size(), 0);
            else e->setBuffer(blocks, 0, 0);
            e->setBuffer(out, sizeof(float), 1);
            e->setBytes(&k, sizeof k, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_EQ(floats(out)[1 + i], expectedSum(bytes, i, k)) << "k " << k << ", " << i;
        }
        expectCanaries(out, n);
        if (k == 8) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        expectQuantsPastTheEnd(got, n, line, space);
        if (!got.empty() && space == AddressSpace::Device) {
            EXPECT_EQ(got[0].bufferLabel, "blocks");
        }
    }
}

// Test that reading the last block's d and quants 8 .. 15 (bytes 34 n - 32 .. 34 n - 17 of
// 34 n - 16) through `x[i].d` and `x[i].qs + 8` is silent and reads the bytes, and that quants
// 16 .. 23, past the end, are reported against the buffer at their own offset and read zero.
TEST_P(MemberAccesses, DeviceBlockNearTheEnd) {
    runBlockReads("block_reads", AddressSpace::Device, kQsLine);
}

// Test the same in the constant address space, bound with setBytes, through `x[i].qs[j]`
// and `x->d`. (Apple words constant-space accesses `device`; the report keeps the space.)
TEST_P(MemberAccesses, ConstantBlockNearTheEnd) {
    runBlockReads("constant_block_reads", AddressSpace::Constant, kConstantQsLine);
}

// Test stores to members of the last element, of which only w and p.a are in the buffer
// (12 n - 4 bytes): `x[i].w` and `x[i].p.a` are silent and stored; `(x + i)->p.b` and a
// store through `&x[i].p.b` are reported against the buffer at the member's offset, 4 bytes,
// and dropped.
TEST_P(MemberAccesses, StoresToNestedMembers) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "member_stores");
    ASSERT_NE(pipeline, nullptr);
    for (int which : {0, 1, 2, 3}) {
        MTL::Buffer* elements = buffer(12 * n, "elements");
        float* f = floats(elements);
        for (std::size_t w = 0; w < 3 * n; ++w) f[w] = -1.0f;
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(elements, 4, 0); // 12 n - 4 bytes: the last p.b is past the end
            e->setBytes(&which, sizeof which, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        const float* x = f + 1;
        for (std::size_t i = 0; i < n; ++i) {
            const float v = static_cast<float>(i);
            const bool last = i + 1 == n;
            EXPECT_EQ(x[3 * i], which == 0 ? v : -1.0f) << which << ", " << i;
            EXPECT_EQ(x[3 * i + 1], which == 1 ? v + 0.5f : -1.0f) << which << ", " << i;
            if (!last) {
                EXPECT_EQ(x[3 * i + 2], which == 2 ? v + 0.25f : which == 3 ? v + 0.75f : -1.0f) << which << ", " << i;
            }
        }
        if (which < 2) {
            EXPECT_THAT(got, ::testing::IsEmpty()) << which;
            continue;
        }
        ASSERT_EQ(got.size(), 1u) << which;
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].access, Access::Store);
        EXPECT_EQ(got[0].offset, 12 * n); // from the buffer's start; the binding starts at 4
        EXPECT_EQ(got[0].size, 4u);
        EXPECT_EQ(got[0].bufferLabel, "elements");
        EXPECT_EQ(got[0].argumentName, "x");
        EXPECT_EQ(got[0].count, 1u);
        EXPECT_EQ(got[0].location.line, which == 2 ? kArrowStoreLine : kAddressStoreLine);
    }
}

// Test a struct that threadgroup memory holds only in part: t[1].a (bytes 12 .. 15 of 16) is
// stored and read silently in every group; t[1].b is reported as a 4-byte threadgroup store
// at offset 16, once per group, and `t->c` (t[0].c, bytes 8 .. 11) stays silent.
TEST_P(MemberAccesses, ThreadgroupStructPartlyInside) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    const std::size_t groups = (n + shape.group - 1) / shape.group;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "threadgroup_members");
    ASSERT_NE(pipeline, nullptr);
    for (int k : {0, 1}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(float), 0);
            e->setThreadgroupMemoryLength(16, 0);
            e->setBytes(&k, sizeof k, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::size_t i = 0; i < n; ++i) {
            const bool first = i % shape.group == 0;
            if (first && k == 1) continue; // t->c was never written: whatever the memory held
            EXPECT_EQ(floats(out)[1 + i], first ? static_cast<float>(i / shape.group) : static_cast<float>(i)) << i;
        }
        expectCanaries(out, n);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].addressSpace, AddressSpace::Threadgroup);
        EXPECT_EQ(got[0].access, Access::Store);
        EXPECT_EQ(got[0].offset, 16u);
        EXPECT_EQ(got[0].size, 4u);
        EXPECT_EQ(got[0].count, groups);
        EXPECT_EQ(got[0].location.line, kTgStoreLine);
    }
}

// Test `x[i].v[j]` (a vector member subscripted) and `(*p).m`, `(*p).v[j]` over elements of which
// the last has only its first 24 bytes in the buffer (w and v[0], v[1]): each access checks the
// bytes it touches, not the whole vector or element. x[i].v[1], (*p).w, (*p).v[1] and
// `(*p).w += 1` are silent and done everywhere; x[i].v[2] = .. and (*p).v[3] are reported at the
// element's own offset, 4 bytes, once, and dropped (a store) or read as zero (a load).
TEST_P(MemberAccesses, VectorElementsAndDereferencedMembers) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "sample_parts");
    ASSERT_NE(pipeline, nullptr);
    for (int which : {0, 1, 2, 3, 4, 5}) {
        MTL::Buffer* samples = buffer(32 * n - 8, "samples");
        float* f = floats(samples);
        for (std::size_t w = 0; w < 8 * n - 2; ++w) f[w] = static_cast<float>(w);
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(samples, 0, 0);
            e->setBuffer(out, sizeof(float), 1);
            e->setBytes(&which, sizeof which, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::size_t i = 0; i < n; ++i) {
            const bool last = i + 1 == n;
            const float* x = f + 8 * i;
            const float base = static_cast<float>(8 * i);
            switch (which) {
            case 0: case 3: EXPECT_EQ(floats(out)[1 + i], base + 5) << which << ", " << i; break;
            case 1:
                if (!last) {
                    EXPECT_EQ(x[6], static_cast<float>(i)) << i;
                }
                break;
            case 2: EXPECT_EQ(floats(out)[1 + i], base) << i; break;
            case 4: EXPECT_EQ(floats(out)[1 + i], last ? 0.0f : base + 7) << i; break;
            default: EXPECT_EQ(x[0], base + 1) << i; break;
            }
        }
        expectCanaries(out, n);
        if (which != 1 && which != 4) {
            EXPECT_THAT(got, ::testing::IsEmpty()) << which;
            continue;
        }
        ASSERT_EQ(got.size(), 1u) << which;
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].access, which == 1 ? Access::Store : Access::Load);
        EXPECT_EQ(got[0].offset, 32 * (n - 1) + (which == 1 ? 24 : 28));
        EXPECT_EQ(got[0].size, 4u);
        EXPECT_EQ(got[0].bufferLabel, "samples");
        EXPECT_EQ(got[0].argumentName, "x");
        EXPECT_EQ(got[0].count, 1u);
        EXPECT_EQ(got[0].location.line, which == 1 ? kVectorStoreLine : kDereferencedVectorLine);
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MemberAccesses,
                         ::testing::Values(Shape{1, 1}, Shape{7, 3}, Shape{37, 8}, Shape{64, 32}), shapeName);

} // namespace
} // namespace metalcpu::testing
