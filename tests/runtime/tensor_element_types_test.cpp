// matmul2d in compiled kernels for the element types besides half and float: MSL's `char`
// (a C++ type of its own, Int8) into an int32 destination, bfloat through a float cooperative
// destination, int8_t x uint8_t accumulated into int32; and reduce_columns into column
// reduction destinations. Each kernel runs under every cooperative layout, plain and
// shader-validated, over a product its tiles do not divide (the reductions: a full tile),
// against an exact CPU reference, with canaries around the output.
#include "guarded_buffer.h"
#include "metal_test.h"

#include "runtime/device.h"
#include "runtime/gpu_family.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

struct Gemm { int m, n, k; };

// D = A x B for char matrices, exact in int: one 32x32 tile of D per threadgroup of two
// SIMD-groups, written straight into the tensor (clipped at the ragged edges).
kernel void char_gemm(device char* a [[buffer(0)]], device char* b [[buffer(1)]], device int* d [[buffer(2)]],
                      constant Gemm& g [[buffer(3)]], uint2 tg [[threadgroup_position_in_grid]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    const int x0 = int(tg.x) * 32, y0 = int(tg.y) * 32;
    matmul2d<matmul2d_descriptor(32, 32, dynamic_length_v<int>), execution_simdgroups<2>> op;
    op.run(A.slice(0, y0), B.slice(x0, 0), D.slice(x0, y0));
}

// D = A x B for bfloat matrices, through a float cooperative destination stored clipped.
kernel void bfloat_gemm(device bfloat* a [[buffer(0)]], device bfloat* b [[buffer(1)]], device float* d [[buffer(2)]],
                        constant Gemm& g [[buffer(3)]], uint2 tg [[threadgroup_position_in_grid]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    const int x0 = int(tg.x) * 32, y0 = int(tg.y) * 32;
    auto sA = A.slice(0, y0);
    auto sB = B.slice(x0, 0);
    matmul2d<matmul2d_descriptor(32, 32, dynamic_length_v<int>), execution_simdgroups<2>> op;
    auto cD = op.get_destination_cooperative_tensor<decltype(sA), decltype(sB), float>();
    op.run(sA, sB, cD);
    cD.store(D.slice(x0, y0));
}

// D += A x B for int8_t x uint8_t, accumulated into an int cooperative tensor loaded from D.
kernel void int8_accumulate(device int8_t* a [[buffer(0)]], device uint8_t* b [[buffer(1)]], device int* d [[buffer(2)]],
                            constant Gemm& g [[buffer(3)]], uint2 tg [[threadgroup_position_in_grid]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    const int x0 = int(tg.x) * 32, y0 = int(tg.y) * 32;
    auto sA = A.slice(0, y0);
    auto sB = B.slice(x0, 0);
    constexpr auto desc = matmul2d_descriptor(32, 32, dynamic_length_v<int>, false, false, false,
                                              matmul2d_descriptor::mode::multiply_accumulate);
    matmul2d<desc, execution_simdgroups<2>> op;
    auto cD = op.get_destination_cooperative_tensor<decltype(sA), decltype(sB), int>();
    cD.load(D.slice(x0, y0));
    op.run(sA, sB, cD);
    cD.store(D.slice(x0, y0));
}

// The sums and maxima of the columns of P = A x B (a 16 x 32 tile on one SIMD-group), each
// column written from the column-reduction slots that hold it: columns[2c] and [2c + 1].
kernel void column_reductions(device float* a [[buffer(0)]], device float* b [[buffer(1)]],
                              device float* columns [[buffer(2)]], constant Gemm& g [[buffer(3)]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    matmul2d<matmul2d_descriptor(16, 32, dynamic_length_v<int>), execution_simdgroups<1>> op;
    auto cP = op.get_destination_cooperative_tensor<decltype(A), decltype(B), float>();
    auto cSum = op.get_column_reduction_destination_cooperative_tensor<decltype(A), decltype(B), float>();
    auto cMax = op.get_column_reduction_destination_cooperative_tensor<decltype(A), decltype(B), float>();
    op.run(A, B, cP);
    reduce_columns(cP, cSum, reduction_operation::sum, 0.0f);
    reduce_columns(cP, cMax, reduction_operation::max, numeric_limits<float>::lowest());
    for (int i = 0; i < cSum.get_capacity(); ++i) {
        if (!cSum.is_valid_element(i)) continue;
        const int column = cSum.get_multidimensional_index(i)[0];
        columns[column * 2] = cSum[i];
        columns[column * 2 + 1] = cMax[i];
    }
}
)";

struct Gemm {
    std::int32_t m, n, k;
};
const Gemm kRagged{45, 70, 37}; // 2 x 3 tiles of 32 x 32, ragged both ways

/// (cooperative layout, shader validation on).
using LayoutShape = std::tuple<mc_u32, bool>;

class TensorElementTypes : public MetalTest, public ::testing::WithParamInterface<LayoutShape> {
protected:
    static void SetUpTestSuite() {
        NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
        MTL::Device* device = MTL::CreateSystemDefaultDevice();
        MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
        options->setLanguageVersion(MTL::LanguageVersion4_0);
        NS::Error* error = nullptr;
        library_ = device->newLibrary(NS::String::string(kKernels, NS::UTF8StringEncoding), options, &error);
        if (!library_) ADD_FAILURE() << "compile failed: " << text(error ? error->localizedDescription() : nullptr);
        options->release();
        device->release();
        pool->release();
    }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        MetalTest::SetUp();
        rt::GpuEmulation emulation;
        emulation.cooperativeLayout = std::get<0>(GetParam());
        emulation.cooperativeSeed = 3;
        ns::implOf<rt::Device>(device_)->setEmulationForTesting(emulation);
    }

    /// A shared buffer holding `values` (released after the test).
    template <class T>
    MTL::Buffer* buffer(const std::vector<T>& values) {
        MTL::Buffer* made = device_->newBuffer(values.data(), values.size() * sizeof(T), MTL::ResourceStorageModeShared);
        owned_.push_back(made);
        return made;
    }
    void TearDown() override {
        for (MTL::Buffer* buffer : owned_) buffer->release();
        MetalTest::TearDown();
    }

    /// Runs `kernel` over the tiles of `g` (32 x 32 each, `threads` per threadgroup) with a, b,
    /// d (guarded) and g bound; fails the test unless the command buffer completes.
    void dispatch(const char* kernel, MTL::Buffer* a, MTL::Buffer* b, GuardedBuffer& d, Gemm g, NS::UInteger threads) {
        MTL::ComputePipelineState* state = pipeline(library_, kernel, std::get<1>(GetParam()));
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(a, 0, 0);
        encoder->setBuffer(b, 0, 1);
        d.bind(encoder, 2);
        encoder->setBytes(&g, sizeof g, 3);
        const MTL::Size tiles(NS::UInteger(g.n + 31) / 32, NS::UInteger(g.m + 31) / 32, 1);
        encoder->dispatchThreadgroups(tiles, MTL::Size(threads, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted)
            << kernel << ": " << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        state->release();
    }

    std::vector<MTL::Buffer*> owned_;
    inline static MTL::Library* library_ = nullptr;
};

/// `count` values from `low` to `high` in a repeating pattern.
std::vector<std::int8_t> bytes(std::size_t count, int low, int high, unsigned seed) {
    std::vector<std::int8_t> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = std::int8_t(low + int((i * 7 + seed * 13) % unsigned(high - low + 1)));
    return values;
}

// Test that a `char` tensor compiles (Int8) and multiplies exactly into int, including the
// extremes -128 and 127, over a ragged product: every element of D is the exact sum and no
// canary around D moved.
TEST_P(TensorElementTypes, CharTensorsMultiplyExactly) {
    const Gemm g = kRagged;
    const std::vector<std::int8_t> a = bytes(std::size_t(g.m * g.k), -128, 127, 1);
    const std::vector<std::int8_t> b = bytes(std::size_t(g.k * g.n), -128, 127, 2);
    GuardedBuffer d(device_, std::size_t(g.m * g.n) * 4);
    dispatch("char_gemm", buffer(a), buffer(b), d, g, 64);
    for (int i = 0; i < g.m; ++i)
        for (int j = 0; j < g.n; ++j) {
            std::int32_t sum = 0;
            for (int p = 0; p < g.k; ++p) sum += std::int32_t(a[std::size_t(i * g.k + p)]) * b[std::size_t(p * g.n + j)];
            ASSERT_EQ(d.data<std::int32_t>()[i * g.n + j], sum) << i << "," << j;
        }
    d.expectCanariesIntact();
}

/// Small integers as bfloat bits (exact: their floats' high halves).
std::vector<std::uint16_t> bfloats(std::size_t count, unsigned seed) {
    std::vector<std::uint16_t> values(count);
    for (std::size_t i = 0; i < count; ++i) {
        const float value = float(int((i * 5 + seed * 3) % 9) - 4);
        std::uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        values[i] = std::uint16_t(bits >> 16);
    }
    return values;
}
float bfloatValue(std::uint16_t bits) {
    const std::uint32_t wide = std::uint32_t(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

// Test bfloat inputs into a float cooperative destination: every element of D is the exact
// sum (small integers), stored clipped at the ragged edges.
TEST_P(TensorElementTypes, BfloatTensorsMultiplyIntoFloat) {
    const Gemm g = kRagged;
    const std::vector<std::uint16_t> a = bfloats(std::size_t(g.m * g.k), 1), b = bfloats(std::size_t(g.k * g.n), 2);
    GuardedBuffer d(device_, std::size_t(g.m * g.n) * 4);
    dispatch("bfloat_gemm", buffer(a), buffer(b), d, g, 64);
    for (int i = 0; i < g.m; ++i)
        for (int j = 0; j < g.n; ++j) {
            double sum = 0;
            for (int p = 0; p < g.k; ++p)
                sum += double(bfloatValue(a[std::size_t(i * g.k + p)])) * bfloatValue(b[std::size_t(p * g.n + j)]);
            ASSERT_EQ(d.data<float>()[i * g.n + j], float(sum)) << i << "," << j;
        }
    d.expectCanariesIntact();
}

// Test int8_t x uint8_t accumulated onto the destination's own values, exactly in int32.
TEST_P(TensorElementTypes, Int8TimesUint8Accumulates) {
    const Gemm g = kRagged;
    const std::vector<std::int8_t> a = bytes(std::size_t(g.m * g.k), -128, 127, 3);
    std::vector<std::uint8_t> b(std::size_t(g.k * g.n));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::uint8_t((i * 11 + 5) % 256);
    GuardedBuffer d(device_, std::size_t(g.m * g.n) * 4);
    for (int i = 0; i < g.m * g.n; ++i) d.data<std::int32_t>()[i] = i * 1000 - 7;
    dispatch("int8_accumulate", buffer(a), buffer(b), d, g, 64);
    for (int i = 0; i < g.m; ++i)
        for (int j = 0; j < g.n; ++j) {
            std::int32_t sum = (i * g.n + j) * 1000 - 7;
            for (int p = 0; p < g.k; ++p) sum += std::int32_t(a[std::size_t(i * g.k + p)]) * b[std::size_t(p * g.n + j)];
            ASSERT_EQ(d.data<std::int32_t>()[i * g.n + j], sum) << i << "," << j;
        }
    d.expectCanariesIntact();
}

// Test reduce_columns with get_column_reduction_destination_cooperative_tensor: each column's
// sum and maximum (some columns all negative, so a wrong identity shows) reach the slots
// that hold the column, under every layout.
TEST_P(TensorElementTypes, ColumnReductions) {
    const Gemm g{16, 32, 19};
    std::vector<float> a(std::size_t(g.m * g.k)), b(std::size_t(g.k * g.n));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 5)) + 0.5f;
    for (std::size_t i = 0; i < b.size(); ++i) // every fourth column negative throughout (A is positive)
        b[i] = i % std::size_t(g.n) % 4 == 0 ? -float(i / std::size_t(g.n) % 3 + 1) : float(int(i % 7) - 3);
    GuardedBuffer columns(device_, std::size_t(g.n) * 2 * 4);
    dispatch("column_reductions", buffer(a), buffer(b), columns, g, 32);
    bool someNegative = false;
    for (int j = 0; j < g.n; ++j) {
        double sum = 0, maximum = -1e30;
        for (int i = 0; i < g.m; ++i) {
            double p = 0;
            for (int k = 0; k < g.k; ++k) p += double(a[std::size_t(i * g.k + k)]) * b[std::size_t(k * g.n + j)];
            sum += p;
            maximum = std::max(maximum, p);
        }
        someNegative |= maximum < 0;
        EXPECT_EQ(columns.data<float>()[2 * j], float(sum)) << "column " << j;
        EXPECT_EQ(columns.data<float>()[2 * j + 1], float(maximum)) << "column " << j;
    }
    EXPECT_TRUE(someNegative);
    columns.expectCanariesIntact();
}

std::string layoutShapeName(const ::testing::TestParamInfo<LayoutShape>& info) {
    return rt::GpuEmulation::layoutName(std::get<0>(info.param)) + (std::get<1>(info.param) ? "_validated" : "");
}

INSTANTIATE_TEST_SUITE_P(Layouts, TensorElementTypes,
                         ::testing::Combine(::testing::Values(mc_u32(MC_COOPERATIVE_LAYOUT_APPLE10),
                                                              mc_u32(MC_COOPERATIVE_LAYOUT_APPLE9),
                                                              mc_u32(MC_COOPERATIVE_LAYOUT_SHUFFLED),
                                                              mc_u32(MC_COOPERATIVE_LAYOUT_PADDED)),
                                            ::testing::Bool()),
                         layoutShapeName);

} // namespace
} // namespace metalcpu::testing
