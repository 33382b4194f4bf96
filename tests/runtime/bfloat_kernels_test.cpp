// Kernels on bfloat data, written as MLX and llama.cpp write them (`typedef bfloat
// bfloat16_t;` guarded by __HAVE_BFLOAT__, `5.0bf` literals, explicit conversions from float,
// bfloat vectors, math on bfloat), run through plain and shader-validated pipelines over
// group sizes of 1 thread, non-multiples of 32 and grids that do not divide evenly, against a
// CPU model that rounds as the GPU does (each operation in float, rounded to bfloat).
#include "guarded_buffer.h"
#include "metal_test.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;
#if defined(__HAVE_BFLOAT__)
typedef bfloat bfloat16_t;
#endif

template <typename T> T axpy_one(T a, T x, T y) { return a * x + y; }

// out[i] = alpha * x[i] + y[i] + 0.5bf, all in bfloat; e[i] = exp(x[i]) rounded to bfloat.
kernel void bfloat_axpy(device const bfloat16_t* x [[buffer(0)]],
                        device const bfloat16_t* y [[buffer(1)]],
                        device bfloat16_t* out [[buffer(2)]],
                        device bfloat16_t* e [[buffer(3)]],
                        constant float& alpha [[buffer(4)]],
                        constant uint& n [[buffer(5)]],
                        uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    out[i] = axpy_one(static_cast<bfloat16_t>(alpha), x[i], y[i]) + 0.5bf;
    e[i] = metal::exp(x[i]);
}

// Four lanes at once, through bfloat4 and a float4 accumulator: out = bfloat4(float4(x) * 2) - 1.
kernel void bfloat4_scale(device const bfloat4* x [[buffer(0)]],
                          device bfloat4* out [[buffer(1)]],
                          constant uint& n [[buffer(2)]],
                          uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const float4 wide = float4(x[i]) * 2.0f;
    out[i] = bfloat4(wide) - 1;
}
)";

float fromBits(std::uint16_t b) {
    const std::uint32_t w = std::uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &w, sizeof f);
    return f;
}
// The model's float -> bfloat: round to nearest even on the bits (inputs here are finite).
std::uint16_t toBits(float f) {
    std::uint32_t w;
    std::memcpy(&w, &f, sizeof w);
    return std::uint16_t((w + 0x7fffu + ((w >> 16) & 1u)) >> 16);
}
float round(float f) { return fromBits(toBits(f)); }

class BfloatKernels : public ShapedKernelTest<kKernels> {};

// Test bfloat scalar arithmetic, a bfloat literal, an explicit float -> bfloat conversion and
// exp on bfloat, element by element against the model.
TEST_P(BfloatKernels, Axpy) {
    constexpr unsigned n = 100;
    MTL::ComputePipelineState* state = kernel("bfloat_axpy");
    ASSERT_NE(state, nullptr);
    std::vector<std::uint16_t> x(n), y(n);
    for (unsigned i = 0; i < n; ++i) {
        x[i] = toBits(std::sin(float(i)) * 3.0f);
        y[i] = toBits(float(i) / 7.0f - 5.0f);
    }
    const float alpha = 1.2345678f;
    GuardedBuffer in0(device_, n * 2), in1(device_, n * 2), out(device_, n * 2), e(device_, n * 2);
    std::memcpy(in0.data<std::uint16_t>(), x.data(), n * 2);
    std::memcpy(in1.data<std::uint16_t>(), y.data(), n * 2);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    in0.bind(encoder, 0);
    in1.bind(encoder, 1);
    out.bind(encoder, 2);
    e.bind(encoder, 3);
    encoder->setBytes(&alpha, sizeof alpha, 4);
    encoder->setBytes(&n, sizeof n, 5);
    dispatch(state, encoder, commands, n + 5);
    for (unsigned i = 0; i < n; ++i) {
        const float a = round(alpha), xi = fromBits(x[i]), yi = fromBits(y[i]);
        const float expected = round(round(round(a * xi) + yi) + 0.5f);
        EXPECT_EQ(out.data<std::uint16_t>()[i], toBits(expected)) << "element " << i;
        // exp is within 1 ulp of float, so its bfloat rounding may differ from std::exp's only
        // when the float result sits on a bfloat tie; compare in bfloat ulps.
        const int got = e.data<std::uint16_t>()[i], want = toBits(std::exp(xi));
        EXPECT_LE(std::abs(got - want), 1) << "exp of element " << i;
    }
    out.expectCanariesIntact();
    e.expectCanariesIntact();
    state->release();
}

// Test bfloat4 loads, conversions to and from float4 and vector arithmetic with an integer.
TEST_P(BfloatKernels, VectorScale) {
    constexpr unsigned n = 37; // bfloat4 elements
    MTL::ComputePipelineState* state = kernel("bfloat4_scale");
    ASSERT_NE(state, nullptr);
    std::vector<std::uint16_t> x(4 * n);
    for (unsigned i = 0; i < 4 * n; ++i) x[i] = toBits(std::cos(float(i)) * 100.0f + 0.3f);
    GuardedBuffer in(device_, n * 8), out(device_, n * 8);
    std::memcpy(in.data<std::uint16_t>(), x.data(), n * 8);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    in.bind(encoder, 0);
    out.bind(encoder, 1);
    encoder->setBytes(&n, sizeof n, 2);
    dispatch(state, encoder, commands, n + 3);
    for (unsigned i = 0; i < 4 * n; ++i)
        EXPECT_EQ(out.data<std::uint16_t>()[i], toBits(round(round(fromBits(x[i]) * 2.0f) - 1.0f))) << "lane " << i;
    out.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, BfloatKernels,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u), ::testing::Bool()), kernelShapeName);

} // namespace
} // namespace metalcpu::testing
