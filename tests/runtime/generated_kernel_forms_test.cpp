// Forms that kernel generators write (tinygrad's Metal renderer, found by running its kernels):
// threadgroup arrays with GNU attributes or alignas anywhere in the declaration
// (`threadgroup __attribute__((aligned(16))) float buf0[16];`), which once failed to compile or
// silently became per-thread arrays, `__builtin_convertvector` for vector casts, and Tint's
// `as_type<int3>` of a packed 3-vector member and vertex and fragment functions beside the
// kernels. Groups of 1, 7, 33 and 64 threads, a last group cut by the grid; plain and
// shader-validated.
#include "guarded_buffer.h"
#include "metal_test.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

// Each of the five arrays is written with another spelling of a 64-byte alignment; each thread
// fills its element of every array, and after the barrier reads the element of the thread at
// the other end of its group. A per-thread array would read what the thread itself wrote (or
// nothing). Each thread also writes each array's address modulo 64.
const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

kernel void attributed(device float* out [[buffer(0)]], device uint* misalignment [[buffer(1)]],
                       constant uint2& shape [[buffer(2)]], uint i [[thread_position_in_grid]],
                       uint lid [[thread_position_in_threadgroup]], uint gid [[threadgroup_position_in_grid]]) {
    threadgroup char pad[3];
    threadgroup __attribute__((aligned(64))) float a[64];
    __attribute__((aligned(64))) threadgroup float b[64];
    alignas(64) threadgroup float c[64];
    threadgroup float d[64] __attribute__((aligned(64)));
    threadgroup float e[64] [[gnu::aligned(64)]];
    pad[lid % 3] = 1;
    const float v = float(gid * 1000 + lid);
    a[lid] = v;
    b[lid] = 2 * v;
    c[lid] = 3 * v;
    d[lid] = 4 * v;
    e[lid] = 5 * v;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint present = min(shape.y, shape.x - gid * shape.y);
    const uint other = present - 1 - lid;
    out[5 * i + 0] = a[other];
    out[5 * i + 1] = b[other];
    out[5 * i + 2] = c[other];
    out[5 * i + 3] = d[other];
    out[5 * i + 4] = e[other];
    misalignment[i] = uint(reinterpret_cast<ulong>(&a[0]) % 64) + uint(reinterpret_cast<ulong>(&b[0]) % 64) +
                      uint(reinterpret_cast<ulong>(&c[0]) % 64) + uint(reinterpret_cast<ulong>(&d[0]) % 64) +
                      uint(reinterpret_cast<ulong>(&e[0]) % 64);
}

// tinygrad's vector casts: out holds, per thread, 8 words.
kernel void converted(device float* f [[buffer(0)]], device int* s [[buffer(1)]], device half* h [[buffer(2)]],
                      uint i [[thread_position_in_grid]]) {
    const float x = float(int(i) - 20) * 0.75f + 0.125f; // exact in half too
    const float4 v = float4(x, -x, x + 0.5f, -x - 0.5f);
    const int4 truncated = __builtin_convertvector(v, int4);            // toward zero
    const half4 narrowed = __builtin_convertvector(v, half4);
    const float4 widened = __builtin_convertvector(narrowed, float4);
    const uchar2 bytes = __builtin_convertvector(uint2(i, i + 250), uchar2); // modulo 256
    const short3 shorts = __builtin_convertvector(float3(x, 2 * x, 3 * x), short3);
    const bfloat2 brain = __builtin_convertvector(float2(float(i % 16) * 0.5f, 1.0f + 1.0f / 256), bfloat2);
    s[8 * i + 0] = truncated.x;
    s[8 * i + 1] = truncated.y;
    s[8 * i + 2] = truncated.z;
    s[8 * i + 3] = truncated.w;
    s[8 * i + 4] = bytes.x + bytes.y * 1000;
    s[8 * i + 5] = shorts.x;
    s[8 * i + 6] = shorts.y;
    s[8 * i + 7] = shorts.z;
    f[4 * i + 0] = widened.x + widened.y;
    f[4 * i + 1] = widened.z;
    f[4 * i + 2] = float(brain.x);
    f[4 * i + 3] = float(brain.y);
    // float to half rounds to nearest, ties to even: 1 + 2^-11 is a tie (to 1), 1 + 3·2^-11 one to 1 + 2^-9.
    h[2 * i + 0] = __builtin_convertvector(float2(1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048), half2).x;
    h[2 * i + 1] = __builtin_convertvector(float2(1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048), half2).y;
}

// Tint writes every entry point of a WGSL module into one file: render functions beside the
// kernels, which are left out of the library (its kernels all run here).
struct VertexOutput { float4 position [[position]]; float4 color; };
float4 tint_shade(float4 c) { return c * 0.5f; }
vertex VertexOutput vertex_main(uint id [[vertex_id]], const device float4* colors [[buffer(0)]]) {
    VertexOutput out = {};
    out.position = float4(float(id), 0.0f, 0.0f, 1.0f);
    out.color = colors[id];
    return out;
}
fragment float4 fragment_main(VertexOutput in [[stage_in]]) {
    if (in.color.a == 0.0f) discard_fragment();
    return tint_shade(in.color);
}

// Tint's bitcast of a packed 3-vector struct member (bug/tint/1677): its three elements, as
// Apple's compiler takes it, and back into a packed member.
struct Input { packed_int3 position; int pad; };
struct Output { packed_float3 bits; int pad; };
kernel void packed_bitcast(const device Input* in [[buffer(0)]], device Output* out [[buffer(1)]],
                           device int* sums [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    int3 const pos = as_type<int3>(in[i].position);
    sums[i] = pos.x + pos.y + pos.z;
    out[i].bits = as_type<packed_float3>(pos);
}
)";

class GeneratedKernelForms : public ShapedKernelTest<kKernels> {
protected:
    /// Threads in the grid: two whole groups and half of one (one thread for groups of one).
    unsigned threads() const { return groupSize() == 1 ? 1 : 2 * groupSize() + groupSize() / 2; }
};

// Test that every attribute spelling gives one array per group, aligned as asked, counted in
// the static threadgroup memory (it was 0 when the arrays were per-thread).
TEST_P(GeneratedKernelForms, AttributedThreadgroupArraysAreShared) {
    MTL::ComputePipelineState* state = kernel("attributed");
    ASSERT_NE(state, nullptr);
    EXPECT_GE(state->staticThreadgroupMemoryLength(), 5u * 256u + 3u);
    const unsigned n = threads(), size = groupSize();
    GuardedBuffer out(device_, n * 5 * 4), misalignment(device_, n * 4);
    const std::uint32_t shape[2] = {n, size};
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    out.bind(encoder, 0);
    misalignment.bind(encoder, 1);
    encoder->setBytes(shape, sizeof shape, 2);
    dispatch(state, encoder, commands, n);
    for (unsigned i = 0; i < n; ++i) {
        const unsigned group = i / size, lid = i % size;
        const unsigned present = std::min(size, n - group * size);
        const float v = float(group * 1000 + (present - 1 - lid));
        for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(out.data<float>()[5 * i + k], float(k + 1) * v) << "thread " << i << " array " << k;
        EXPECT_EQ(misalignment.data<std::uint32_t>()[i], 0u) << "thread " << i;
    }
    out.expectCanariesIntact();
    misalignment.expectCanariesIntact();
    state->release();
}

// Test that __builtin_convertvector converts as MSL's casts do: floating to integer toward
// zero, integers modulo the narrower width, float to half and bfloat to nearest even.
TEST_P(GeneratedKernelForms, ConvertVectorConvertsElementwise) {
    MTL::ComputePipelineState* state = kernel("converted");
    ASSERT_NE(state, nullptr);
    const unsigned n = threads();
    GuardedBuffer f(device_, n * 4 * 4), s(device_, n * 8 * 4), h(device_, n * 2 * 2);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    f.bind(encoder, 0);
    s.bind(encoder, 1);
    h.bind(encoder, 2);
    dispatch(state, encoder, commands, n);
    for (unsigned i = 0; i < n; ++i) {
        const float x = float(int(i) - 20) * 0.75f + 0.125f;
        const int* words = s.data<std::int32_t>() + 8 * i;
        EXPECT_EQ(words[0], int(std::trunc(x))) << "thread " << i;
        EXPECT_EQ(words[1], int(std::trunc(-x))) << "thread " << i;
        EXPECT_EQ(words[2], int(std::trunc(x + 0.5f))) << "thread " << i;
        EXPECT_EQ(words[3], int(std::trunc(-x - 0.5f))) << "thread " << i;
        EXPECT_EQ(words[4], int(i % 256) + int((i + 250) % 256) * 1000) << "thread " << i;
        EXPECT_EQ(words[5], int(std::trunc(x))) << "thread " << i;
        EXPECT_EQ(words[6], int(std::trunc(2 * x))) << "thread " << i;
        EXPECT_EQ(words[7], int(std::trunc(3 * x))) << "thread " << i;
        const float* floats = f.data<float>() + 4 * i;
        EXPECT_EQ(floats[0], 0.0f) << "thread " << i; // x and -x, both exact in half
        EXPECT_EQ(floats[1], x + 0.5f) << "thread " << i;
        EXPECT_EQ(floats[2], float(i % 16) * 0.5f) << "thread " << i; // exact in bfloat
        EXPECT_EQ(floats[3], 1.0f) << "thread " << i; // 1 + 2^-8 is a tie in bfloat: to even
        const std::uint16_t* halves = h.data<std::uint16_t>() + 2 * i;
        EXPECT_EQ(halves[0], 0x3C00u) << "thread " << i; // 1.0
        EXPECT_EQ(halves[1], 0x3C02u) << "thread " << i; // 1 + 2^-9
    }
    f.expectCanariesIntact();
    s.expectCanariesIntact();
    h.expectCanariesIntact();
    state->release();
}

// Test that as_type reads a packed 3-vector as its vector's three elements and writes one
// from a vector, neither touching the member after it.
TEST_P(GeneratedKernelForms, AsTypeOfPackedThreeVectors) {
    MTL::ComputePipelineState* state = kernel("packed_bitcast");
    ASSERT_NE(state, nullptr);
    const unsigned n = threads();
    GuardedBuffer in(device_, n * 16), out(device_, n * 16), sums(device_, n * 4);
    for (unsigned i = 0; i < n; ++i) {
        std::int32_t* words = in.data<std::int32_t>() + 4 * i;
        words[0] = int(i);
        words[1] = -3 * int(i);
        words[2] = 1 << 20;
        words[3] = 77;
        out.data<std::int32_t>()[4 * i + 3] = -5; // the pad after the packed member
    }
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    in.bind(encoder, 0);
    out.bind(encoder, 1);
    sums.bind(encoder, 2);
    dispatch(state, encoder, commands, n);
    for (unsigned i = 0; i < n; ++i) {
        EXPECT_EQ(sums.data<std::int32_t>()[i], int(i) - 3 * int(i) + (1 << 20)) << "thread " << i;
        const std::int32_t* bits = out.data<std::int32_t>() + 4 * i;
        EXPECT_EQ(bits[0], int(i)) << "thread " << i;
        EXPECT_EQ(bits[1], -3 * int(i)) << "thread " << i;
        EXPECT_EQ(bits[2], 1 << 20) << "thread " << i;
        EXPECT_EQ(bits[3], -5) << "thread " << i;
    }
    in.expectCanariesIntact();
    out.expectCanariesIntact();
    sums.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, GeneratedKernelForms,
                         ::testing::Combine(::testing::Values(1u, 7u, 33u, 64u), ::testing::Bool()), kernelShapeName);

} // namespace
} // namespace metalcpu::testing
