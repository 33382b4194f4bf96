// Vectors are trivially copyable, so unions and structs holding them copy by assignment
// (llama.cpp's quantised blocks hold `union { struct { half d, m; }; half2 dm; }`), and a
// swizzle assignment still writes only its own components (compiler/passes/
// swizzle_assignments.h): from a const vector of the same type, from the vector itself, of
// packed vectors, in a template, in a header-like helper and a struct member, through device
// memory. Groups of 1, 37 and 64 threads, a last group cut by the grid, threads past the end
// that write nothing; plain and shader-validated.
#include "guarded_buffer.h"
#include "simd_shape.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// The property the unions below need, asked where kernel code asks it.
static_assert(is_trivially_copyable_v<float4> && is_trivially_copyable_v<half2> &&
              is_trivially_copyable_v<packed_float3> && is_trivially_copyable_v<uint3>,
              "vectors are trivially copyable");

template <class V> void set_low(thread V& v, V w) { v.xy = w.xy; }

struct Holder {
    float4 c;
    packed_float3 p;
};

constant uint kSwizzleResults = 24;

kernel void swizzle_writes(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                           constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const float x = in[i];
    device float* r = out + i * kSwizzleResults;
    // From a const vector of the same type: z and w stay.
    float4 a = float4(x, x + 1.0f, x + 2.0f, x + 3.0f);
    const float4 b = float4(10.0f * x, 20.0f, 30.0f, 40.0f);
    a.xy = b.xy;
    r[0] = a.x; r[1] = a.y; r[2] = a.z; r[3] = a.w;
    // From the vector itself, both ways round.
    float4 c = float4(1.0f, 2.0f, 3.0f, 4.0f) * x;
    c.yx = c.xy;
    c.zw = c.wz;
    r[4] = c.x; r[5] = c.y; r[6] = c.z; r[7] = c.w;
    // Packed vectors.
    packed_float4 p = packed_float4(x, 2.0f * x, 3.0f * x, 4.0f * x);
    p.zw = p.xy;
    packed_float3 q = packed_float3(x, 5.0f, 6.0f);
    q.bgr = q.rgb;
    r[8] = p.z; r[9] = p.w; r[10] = q.x; r[11] = q.z;
    // In a template function, and members of a struct.
    float4 t = float4(x);
    set_low(t, float4(7.0f, 8.0f, 9.0f, 10.0f));
    Holder h;
    h.c = float4(x, -1.0f, -2.0f, -3.0f);
    h.c.zw = h.c.xy;
    h.p = packed_float3(1.0f, 2.0f, x);
    h.p.yz = h.p.xy;
    r[12] = t.x; r[13] = t.y; r[14] = t.z; r[15] = h.c.z; r[16] = h.c.w; r[17] = h.p.y; r[18] = h.p.z;
    // Through device memory and a const reference; a compound assignment.
    device float4* v = (device float4*)(r + 20);
    *v = float4(x, 1.0f, 2.0f, 3.0f);
    thread const float4& ref = b;
    v->wz = v->xy;
    v->y = 0.0f;
    (*v).yz += ref.yz;
    r[19] = 0.0f;
}

union HalfBits {
    half2 h;
    uint u;
};
union FloatArray {
    float4 v;
    float f[4];
};
static_assert(is_trivially_copyable_v<HalfBits> && is_trivially_copyable_v<FloatArray>, "unions of vectors copy");

constant uint kUnionResults = 8;

kernel void union_copies(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                         constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const float x = in[i];
    device float* r = out + i * kUnionResults;
    HalfBits a, b;
    a.h = half2(x, -2.0f * x);
    b = a;
    r[0] = float(b.h.x);
    r[1] = float(b.h.y);
    r[2] = b.u == as_type<uint>(half2(x, -2.0f * x)) ? 1.0f : 0.0f;
    FloatArray c, d;
    c.v = float4(x, 2.0f * x, 3.0f * x, 4.0f * x);
    d = c;
    d.v.xy = d.v.zw;
    r[3] = d.f[0]; r[4] = d.f[1]; r[5] = d.f[2]; r[6] = d.f[3];
    r[7] = 0.0f;
}
)";

/// The construct that kept llama.cpp's Metal backend from starting: ggml's q4_1 block (its
/// ggml-common.h, under GGML_COMMON_DECL_METAL), whose scale and minimum share a union with a
/// half2, copied whole as its kernel_concat_q does (`*y = *x;`, kernels/quantize.metal, llama.cpp
/// at 2c17f13, MIT licence, (c) the ggml authors). Written here in our own words after those
/// files, not copied: the block's layout and the q4_1 quantisation are ggml's (32 values, a
/// scale d = (max - min) / 15 and the minimum as halves, 4-bit codes `(v - min) / d + 0.5`).
/// Each thread quantises its 32 inputs into a block, copies the block device to device and to
/// a thread-local block, and writes the 32 values decoded from the copy and its minimum read
/// through `dm`.
const char* const kLlamaBlocks = R"(
#include <metal_stdlib>
using namespace metal;

#define QK4_1 32
typedef half ggml_half;
typedef half2 ggml_half2;

typedef struct {
    union {
        struct {
            ggml_half d; // scale
            ggml_half m; // minimum
        };
        ggml_half2 dm;
    };
    uint8_t qs[QK4_1 / 2]; // two 4-bit codes a byte: value j low, value j + 16 high
} block_q4_1;
static_assert(sizeof(block_q4_1) == 2 * sizeof(ggml_half) + QK4_1 / 2, "wrong q4_1 block size/padding");

void quantize_q4_1(device const float* src, device block_q4_1& dst) {
    float min = FLT_MAX;
    float max = -FLT_MAX;
    for (int j = 0; j < QK4_1; j++) {
        min = src[j] < min ? src[j] : min;
        max = src[j] > max ? src[j] : max;
    }
    const float d = (max - min) / 15;
    const float id = d ? 1.0f / d : 0.0f;
    dst.d = d;
    dst.m = min;
    for (int j = 0; j < QK4_1 / 2; ++j) {
        const uint8_t low = metal::min(15, (int8_t)((src[j] - min) * id + 0.5f));
        const uint8_t high = metal::min(15, (int8_t)((src[QK4_1 / 2 + j] - min) * id + 0.5f));
        dst.qs[j] = low | (high << 4);
    }
}

kernel void q4_1_block_copies(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                              constant uint& n [[buffer(2)]], device block_q4_1* blocks [[buffer(3)]],
                              uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    quantize_q4_1(in + QK4_1 * i, blocks[2 * i]);
    device const block_q4_1* x = blocks + 2 * i;
    device block_q4_1* y = blocks + 2 * i + 1;
    *y = *x;
    block_q4_1 local;
    local = *y;
    device float* r = out + (QK4_1 + 1) * i;
    for (int j = 0; j < QK4_1 / 2; ++j) {
        r[j] = float(local.d) * float(local.qs[j] & 0x0F) + float(local.m);
        r[QK4_1 / 2 + j] = float(local.d) * float(local.qs[j] >> 4) + float(local.m);
    }
    r[QK4_1] = float(y->dm.y);
}
)";

constexpr unsigned kSwizzleResults = 24, kUnionResults = 8;

class SwizzleKernels : public SimdShapedKernelTest<kKernels> {
protected:
    unsigned threads() const { return cutGridThreads(); }
    unsigned count() const { return cutGridCount(); }
    std::vector<float> values() const { return cutGridValues(); }

    /// Runs `name` over threads() threads in groups of size(), `results` floats per thread;
    /// checks that the threads past count() wrote nothing (the canaries around the output).
    std::vector<float> run(const char* name, unsigned results) {
        SCOPED_TRACE(name);
        MTL::ComputePipelineState* state = kernel(name);
        EXPECT_NE(state, nullptr);
        if (!state) return {};
        const std::vector<float> in = values();
        MTL::Buffer* input = device_->newBuffer(in.data(), in.size() * 4, MTL::ResourceStorageModeShared);
        GuardedBuffer out(device_, std::size_t(count()) * results * 4);
        runRows(state, input, out, count(), threads());
        out.expectCanariesIntact();
        std::vector<float> result(std::size_t(count()) * results);
        std::memcpy(result.data(), out.data<float>(), result.size() * 4);
        input->release();
        state->release();
        return result;
    }
};

// Test that each swizzle assignment writes its own components and leaves the others.
TEST_P(SwizzleKernels, WritesOnlyTheirComponents) {
    const std::vector<float> out = run("swizzle_writes", kSwizzleResults);
    ASSERT_EQ(out.size(), std::size_t(count()) * kSwizzleResults);
    const std::vector<float> in = values();
    for (unsigned i = 0; i < count(); ++i) {
        const float x = in[i];
        const float expected[kSwizzleResults] = {
            10.0f * x, 20.0f, x + 2.0f, x + 3.0f,  // a.xy = b.xy
            2.0f * x, x, 4.0f * x, 3.0f * x,       // c.yx = c.xy; c.zw = c.wz
            x, 2.0f * x, 6.0f, x,                  // p.zw = p.xy; q.bgr = q.rgb
            7.0f, 8.0f, x, x, -1.0f, 1.0f, 2.0f,   // set_low, h.c.zw = h.c.xy, h.p.yz = h.p.xy
            0.0f, x, 20.0f, 31.0f, x};             // v->wz = v->xy, v->y = 0, v.yz += b.yz
        for (unsigned k = 0; k < kSwizzleResults; ++k)
            EXPECT_EQ(out[i * kSwizzleResults + k], expected[k]) << "thread " << i << " result " << k;
    }
}

// Test that unions holding half2 and float4 copy by assignment, every byte of them.
TEST_P(SwizzleKernels, UnionsOfVectorsCopy) {
    const std::vector<float> out = run("union_copies", kUnionResults);
    ASSERT_EQ(out.size(), std::size_t(count()) * kUnionResults);
    const std::vector<float> in = values();
    for (unsigned i = 0; i < count(); ++i) {
        const float x = in[i];
        const float expected[kUnionResults] = {x, -2.0f * x, 1.0f, 3.0f * x, 4.0f * x, 3.0f * x, 4.0f * x, 0.0f};
        for (unsigned k = 0; k < kUnionResults; ++k)
            EXPECT_EQ(out[i * kUnionResults + k], expected[k]) << "thread " << i << " result " << k;
    }
}

class LlamaBlockCopies : public SwizzleKernels {};

// Test ggml's q4_1 blocks, a union of two halves and a half2 beside the codes, copied whole:
// every value comes back from the copies (inputs on the block's 16 levels, which the
// quantisation keeps exactly), and the minimum through the half2.
TEST_P(LlamaBlockCopies, QuantisedBlocksCopy) {
    constexpr unsigned kValues = 32, kBlockBytes = 20;
    MTL::Library* library = compile(kLlamaBlocks);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "q4_1_block_copies", validated());
    if (!state) library->release();
    ASSERT_NE(state, nullptr);
    // Block i holds 5 + i % 7 + k / 4 for k = 0..15 in a scattered order: minimum 5 + i % 7, scale 0.25.
    std::vector<float> in(std::size_t(threads()) * kValues);
    for (unsigned i = 0; i < threads(); ++i)
        for (unsigned j = 0; j < kValues; ++j) in[i * kValues + j] = float(5 + i % 7) + float((j * 7 + i) % 16) / 4.0f;
    MTL::Buffer* input = device_->newBuffer(in.data(), in.size() * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* blocks = device_->newBuffer(std::size_t(count()) * 2 * kBlockBytes, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, std::size_t(count()) * (kValues + 1) * 4);
    runRows(state, input, out, count(), threads(), blocks);
    out.expectCanariesIntact();
    const auto* bytes = static_cast<const unsigned char*>(blocks->contents());
    for (unsigned i = 0; i < count(); ++i) {
        for (unsigned j = 0; j < kValues; ++j)
            EXPECT_EQ(out.data<float>()[i * (kValues + 1) + j], in[i * kValues + j]) << "block " << i << " value " << j;
        EXPECT_EQ(out.data<float>()[i * (kValues + 1) + kValues], float(5 + i % 7)) << "block " << i;
        EXPECT_EQ(std::memcmp(bytes + (2 * i + 1) * kBlockBytes, bytes + 2 * i * kBlockBytes, kBlockBytes), 0)
            << "block " << i;
    }
    input->release();
    blocks->release();
    state->release();
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Groups, LlamaBlockCopies,
                         ::testing::Combine(::testing::Values(1u, 37u, 64u), ::testing::Values(32u), ::testing::Bool()),
                         simdShapeName);

INSTANTIATE_TEST_SUITE_P(Groups, SwizzleKernels,
                         ::testing::Combine(::testing::Values(1u, 37u, 64u), ::testing::Values(32u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
