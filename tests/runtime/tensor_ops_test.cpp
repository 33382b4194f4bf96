// Metal 4 tensors, cooperative tensors and tensor operations in kernels compiled through the
// public API (newLibrary with MTL::LanguageVersion4_0), over ordinary buffers (tensor_inline),
// under each emulated layout (the device's test hook), plain and shader-validated, with
// canaries around the output. TensorKernels move a ragged matrix through cooperative tensors
// without an operation:
//  - portable_tile: one 32x32 tile per threadgroup of 2 SIMD-groups (execution_simdgroups<2>),
//    changed through get_multidimensional_index: the portable way, so every layout must give
//    the same result.
//  - thread_tiles: one 8x4 tile per thread (execution_thread), any threadgroup size.
// TensorOperationKernels run matmul2d and reduce_rows through the executor, shaped as Apple's
// sample, liuliu's attention, MLX's NAX code (hard-coded M5 layout) and per-thread tiles.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include "runtime/device.h"
#include "runtime/gpu_family.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

struct Shape { int width, height; };

kernel void portable_tile(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                          constant Shape& shape [[buffer(2)]], uint2 tg [[threadgroup_position_in_grid]]) {
    auto In = tensor(in, dextents<int32_t, 2>(shape.width, shape.height));
    auto Out = tensor(out, dextents<int32_t, 2>(shape.width, shape.height));
    const int x0 = int(tg.x) * 32, y0 = int(tg.y) * 32;
    auto source = In.slice<32, 32>(x0, y0);
    auto destination = Out.slice<32, 32>(x0, y0);
    constexpr auto desc = matmul2d_descriptor(32, 32, 16);
    matmul2d<desc, execution_simdgroups<2>> op;
    // Until the front end counts tensor operations as collectives, a barrier keeps the
    // kernel off plain loops (cooperative tensors find their thread by the lowering).
    threadgroup_barrier(mem_flags::mem_none);
    auto ct = op.get_destination_cooperative_tensor<decltype(source), decltype(source), float>();
    ct.load(source);
    for (uint16_t i = 0; i < ct.get_capacity(); ++i) {
        if (!ct.is_valid_element(i)) continue;
        auto idx = ct.get_multidimensional_index(i);
        ct[i] = ct[i] * 2.0f + float(idx[0]) + 100.0f * float(idx[1]);
    }
    ct.store(destination);
}

kernel void thread_tiles(device const half* in [[buffer(0)]], device half* out [[buffer(1)]],
                         constant Shape& shape [[buffer(2)]], uint gid [[thread_position_in_grid]]) {
    const int tiles_x = (shape.width + 7) / 8;
    auto In = tensor(in, dextents<int32_t, 2>(shape.width, shape.height), array<int32_t, 2>({1, shape.width}));
    auto Out = tensor(out, dextents<int32_t, 2>(shape.width, shape.height));
    const int x0 = int(gid) % tiles_x * 8, y0 = int(gid) / tiles_x * 4;
    matmul2d<matmul2d_descriptor(4, 8), execution_thread> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(In), decltype(In), half>();
    ct.load(In.slice(x0, y0));
    for (auto it = ct.begin(); it != ct.end(); ++it)
        if (it.is_valid_element()) *it = *it + half(1);
    ct.store(Out.slice<8, 4>(x0, y0));
}
)";


const char* const kOperationKernels = R"(
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

struct Gemm { int m, n, k; };

// A barrier in a helper keeps a kernel on fibers whatever the front end makes of tensor
// operations in a kernel body (coroutines need every barrier in the body itself).
void stay_on_fibers() { threadgroup_barrier(mem_flags::mem_none); }

// Apple's sample, 32x32 tiles: one threadgroup of 4 SIMD-groups per tile of D = relu(A x B).
kernel void sample_tile(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                        constant Gemm& g [[buffer(3)]], uint2 tg [[threadgroup_position_in_grid]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    const int x0 = int(tg.x) * 32, y0 = int(tg.y) * 32;
    auto sA = A.slice<dynamic_extent, 32>(0, y0);
    auto sB = B.slice<32, dynamic_extent>(x0, 0);
    auto sD = D.slice<32, 32>(x0, y0);
    constexpr auto desc = matmul2d_descriptor(32, 32, dynamic_length_v<int>);
    matmul2d<desc, execution_simdgroups<4>> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(sA), decltype(sB), half>();
    stay_on_fibers();
    op.run(sA, sB, ct);
    for (int e = 0; e < ct.get_capacity(); e++) ct[e] = max(ct[e], half(0));
    ct.store(sD);
}

// liuliu's attention shape: S = Q x K^T (K transposed) on one SIMD-group, row maxima with
// the explicit identity, row sums, and max with the default identity (0: Apple's footgun),
// read back through map_iterator.
kernel void attention_rows(device float* q [[buffer(0)]], device float* k [[buffer(1)]],
                           device float* rows [[buffer(2)]], constant Gemm& g [[buffer(3)]]) {
    auto Q = tensor(q, dextents<int32_t, 2>(g.k, g.m));
    auto K = tensor(k, dextents<int32_t, 2>(g.k, g.n));
    matmul2d<matmul2d_descriptor(16, 32, dynamic_length_v<int>, false, true), execution_simdgroups<1>> op;
    auto cS = op.get_destination_cooperative_tensor<decltype(Q), decltype(K), float>();
    auto cMax = op.get_row_reduction_destination_cooperative_tensor<decltype(Q), decltype(K), float>();
    auto cSum = op.get_row_reduction_destination_cooperative_tensor<decltype(Q), decltype(K), float>();
    auto cClamped = op.get_row_reduction_destination_cooperative_tensor<decltype(Q), decltype(K), float>();
    stay_on_fibers();
    op.run(Q, K, cS);
    reduce_rows(cS, cMax, reduction_operation::max, numeric_limits<float>::lowest());
    reduce_rows(cS, cSum, reduction_operation::sum, 0.0f);
    reduce_rows(cS, cClamped, reduction_operation::max);
    for (int i = 0; i < cS.get_capacity(); ++i) {
        if (!cS.is_valid_element(i)) continue;
        auto it = cS.get_iterator(i);
        const int row = cS.get_multidimensional_index(i)[1];
        rows[row * 3 + 0] = *cMax.map_iterator(it);
        rows[row * 3 + 1] = *cSum.map_iterator(it);
        rows[row * 3 + 2] = *cClamped.map_iterator(it);
    }
}

// MLX's NAX shape: a 16x32x16 op on one SIMD-group whose cooperative inputs and output are
// indexed by the M5 lane formula hard-coded (as nax.h's get_coord), not asked for: right
// under the apple10 layout only.
kernel void hard_coded_m5(device float* a [[buffer(0)]], device float* b [[buffer(1)]], device float* d [[buffer(2)]],
                          constant Gemm& g [[buffer(3)]], ushort lane [[thread_index_in_simdgroup]]) {
    constexpr auto desc = matmul2d_descriptor(16, 32, 16, false, false, true, matmul2d_descriptor::mode::multiply_accumulate);
    matmul2d<desc, execution_simdgroup> op;
    auto ct_a = op.get_left_input_cooperative_tensor<float, float, float>();
    auto ct_b = op.get_right_input_cooperative_tensor<float, float, float>();
    auto ct_c = op.get_destination_cooperative_tensor<decltype(ct_a), decltype(ct_b), float>();
    const short q = lane >> 2, r0 = (q & 4) | ((lane >> 1) & 3), c0 = ((q & 2) | (lane & 1)) * 4;
    for (short i = 0; i < 8; ++i) ct_a[i] = a[(r0 + 8 * (i >> 2)) * g.k + c0 + (i & 3)];
    for (short i = 0; i < 16; ++i) ct_b[i] = b[(r0 + 8 * ((i & 7) >> 2)) * g.n + 16 * (i >> 3) + c0 + (i & 3)];
    stay_on_fibers();
    op.run(ct_a, ct_b, ct_c);
    for (short i = 0; i < 16; ++i) d[(r0 + 8 * ((i & 7) >> 2)) * g.n + 16 * (i >> 3) + c0 + (i & 3)] = ct_c[i];
}

// One 4x4 tile of D = A x B per thread (execution_thread: no rendezvous, any lowering).
kernel void thread_gemm(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                        constant Gemm& g [[buffer(3)]], uint gid [[thread_position_in_grid]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    const int tiles_x = (g.n + 3) / 4, x0 = int(gid) % tiles_x * 4, y0 = int(gid) / tiles_x * 4;
    matmul2d<matmul2d_descriptor(4, 4), execution_thread> op;
    op.run(A.slice(0, y0), B.slice(x0, 0), D.slice<4, 4>(x0, y0));
}
)";

struct Shape {
    std::int32_t width, height;
};

/// Compiles `source` at MSL 4.0 (+1), failing the test when it does not compile.
MTL::Library* compileMetal4(const char* source) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    options->setLanguageVersion(MTL::LanguageVersion4_0);
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), options, &error);
    if (!library) ADD_FAILURE() << "compile failed: " << text(error ? error->localizedDescription() : nullptr);
    options->release();
    device->release();
    pool->release();
    return library;
}

/// Compiles `source` at `version`; the error text when it does not compile, else "".
std::string compileError(const char* source, MTL::LanguageVersion version) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    options->setLanguageVersion(version);
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), options, &error);
    std::string message = library ? "" : text(error ? error->localizedDescription() : nullptr);
    if (library) library->release();
    options->release();
    device->release();
    pool->release();
    return message;
}

// Test that the tensor names reach only kernels that include a tensor header: a Metal 4
// kernel with a `tensor` of its own under `using namespace metal` compiles, and including
// <metal_tensor> below 4.0 is an error that names the language version to ask for.
TEST(TensorHeaders, OnlyKernelsThatIncludeThemSeeThem) {
    const char* ownTensor = R"(
#include <metal_stdlib>
using namespace metal;
struct tensor { float value; };
kernel void k(device tensor* t [[buffer(0)]], uint i [[thread_position_in_grid]]) { t[i].value *= 2.0f; }
)";
    EXPECT_EQ(compileError(ownTensor, MTL::LanguageVersion4_0), "");
    const char* tooOld = R"(
#include <metal_stdlib>
#include <metal_tensor>
using namespace metal;
kernel void k(device half* p [[buffer(0)]]) { auto t = tensor(p, dextents<int, 1>(4)); (void)t; }
)";
    EXPECT_NE(compileError(tooOld, MTL::LanguageVersion3_2).find("-std=metal4.0"), std::string::npos)
        << compileError(tooOld, MTL::LanguageVersion3_2);
    EXPECT_EQ(compileError(tooOld, MTL::LanguageVersion4_0), "");
}

/// (cooperative layout, shader validation on).
using LayoutShape = std::tuple<mc_u32, bool>;

class TensorKernels : public MetalTest, public ::testing::WithParamInterface<LayoutShape> {
protected:
    static void SetUpTestSuite() { library_ = compileMetal4(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        MetalTest::SetUp();
        rt::GpuEmulation emulation;
        emulation.cooperativeLayout = std::get<0>(GetParam());
        emulation.cooperativeSeed = 5;
        ns::implOf<rt::Device>(device_)->setEmulationForTesting(emulation);
    }

    /// The grid of a dispatch: threadgroups, or threads in groups of `group`.
    struct Grid {
        MTL::Size size, group;
        bool byThreads;
    };

    /// Runs `name` of `library` with `inputs` bound at 0, 1, ..., `out` (guarded) next and
    /// `shape`'s bytes after it; fails the test unless the command buffer completes.
    template <class ShapeBytes>
    void dispatch(MTL::Library* library, const char* name, std::initializer_list<MTL::Buffer*> inputs,
                  GuardedBuffer& out, const ShapeBytes& shape, Grid grid) {
        MTL::ComputePipelineState* state = pipeline(library, name, std::get<1>(GetParam()));
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        NS::UInteger index = 0;
        for (MTL::Buffer* input : inputs) encoder->setBuffer(input, 0, index++);
        out.bind(encoder, index);
        encoder->setBytes(&shape, sizeof shape, index + 1);
        if (grid.byThreads)
            encoder->dispatchThreads(grid.size, grid.group);
        else
            encoder->dispatchThreadgroups(grid.size, grid.group);
        encoder->endEncoding();
        EXPECT_EQ(MetalTest::run(commands), MTL::CommandBufferStatusCompleted)
            << name << ": " << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        state->release();
    }

    inline static MTL::Library* library_ = nullptr;
};

// Test the portable kernel on a matrix that no tile divides: every element inside the matrix
// is its input times 2 plus its tile-local coordinate, whatever the layout, and nothing is
// written outside the matrix (the clipped static slices).
TEST_P(TensorKernels, PortableTileIsTheSameUnderEveryLayout) {
    const Shape shape{70, 45};
    const unsigned count = unsigned(shape.width * shape.height);
    std::vector<float> input(count);
    for (unsigned i = 0; i < count; ++i) input[i] = float(int(i % 23) - 11) * 0.25f;
    MTL::Buffer* in = device_->newBuffer(input.data(), count * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, count * 4);
    dispatch(library_, "portable_tile", {in}, out, shape, {MTL::Size(3, 2, 1), MTL::Size(64, 1, 1), false});
    for (int y = 0; y < shape.height; ++y)
        for (int x = 0; x < shape.width; ++x) {
            const float expected = input[unsigned(y * shape.width + x)] * 2.0f + float(x % 32) + 100.0f * float(y % 32);
            ASSERT_EQ(out.data<float>()[y * shape.width + x], expected) << x << "," << y;
        }
    out.expectCanariesIntact();
    in->release();
}

// Test per-thread cooperative tensors (execution_thread) in groups of 1, 7, 33 and 64
// threads over a grid the groups do not divide: each element is its input plus one.
TEST_P(TensorKernels, ThreadTilesInAnyGroupSize) {
    const Shape shape{37, 22};  // 5 x 6 tiles of 8 x 4, the last column and row ragged
    const unsigned count = unsigned(shape.width * shape.height), tiles = 5 * 6;
    std::vector<_Float16> input(count);
    for (unsigned i = 0; i < count; ++i) input[i] = _Float16(float(i % 61) * 0.5f);
    MTL::Buffer* in = device_->newBuffer(input.data(), count * 2, MTL::ResourceStorageModeShared);
    for (unsigned group : {1u, 7u, 33u, 64u}) {
        GuardedBuffer out(device_, count * 2);
        dispatch(library_, "thread_tiles", {in}, out, shape, {MTL::Size(tiles, 1, 1), MTL::Size(group, 1, 1), true});
        for (unsigned i = 0; i < count; ++i)
            ASSERT_EQ(float(out.data<_Float16>()[i]), float(input[i]) + 1.0f) << "element " << i << ", groups of " << group;
        out.expectCanariesIntact();
    }
    in->release();
}

struct Gemm {
    std::int32_t m, n, k;
};

/// Small integers: every product and sum below is exact in half and float.
std::vector<_Float16> integers(unsigned count, unsigned seed) {
    std::vector<_Float16> values(count);
    for (unsigned i = 0; i < count; ++i) values[i] = _Float16(float(int((i * 7 + seed * 3) % 7) - 3));
    return values;
}

/// matmul2d and reductions in kernels, run by the executor, under each layout, plain and
/// validated.
class TensorOperationKernels : public TensorKernels {
protected:
    static void SetUpTestSuite() { operations_ = compileMetal4(kOperationKernels); }
    static void TearDownTestSuite() {
        if (operations_) operations_->release();
        operations_ = nullptr;
    }

    /// Checks D (m x n, half) against relu(A x B) or A x B, and the canaries.
    static void expectProduct(const std::vector<_Float16>& a, const std::vector<_Float16>& b, const GuardedBuffer& d,
                              Gemm g, bool relu) {
        for (int i = 0; i < g.m; ++i)
            for (int j = 0; j < g.n; ++j) {
                double sum = 0;
                for (int k = 0; k < g.k; ++k) sum += double(a[size_t(i * g.k + k)]) * double(b[size_t(k * g.n + j)]);
                if (relu) sum = std::max(sum, 0.0);
                ASSERT_EQ(float(d.data<_Float16>()[i * g.n + j]), float(sum)) << i << "," << j;
            }
        d.expectCanariesIntact();
    }

    inline static MTL::Library* operations_ = nullptr;
};

// Test Apple's sample shape over a product that no tile divides (m 100, n 70, k 37): each
// threadgroup's scope computes its tile once, the relu epilogue runs over the slots, the
// clipped store writes exactly D. On fibers: one scope_call rendezvous per thread.
TEST_P(TensorOperationKernels, SampleShapedTiles) {
    const Gemm g{100, 70, 37};
    std::vector<_Float16> a = integers(unsigned(g.m * g.k), 1), b = integers(unsigned(g.k * g.n), 2);
    MTL::Buffer* aBuffer = device_->newBuffer(a.data(), a.size() * 2, MTL::ResourceStorageModeShared);
    MTL::Buffer* bBuffer = device_->newBuffer(b.data(), b.size() * 2, MTL::ResourceStorageModeShared);
    GuardedBuffer d(device_, size_t(g.m * g.n) * 2);
    dispatch(operations_, "sample_tile", {aBuffer, bBuffer}, d, g, {MTL::Size(3, 4, 1), MTL::Size(128, 1, 1), false});
    expectProduct(a, b, d, g, true);
    expectLowerings({{"sample_tile", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return pipeline(operations_, name, std::get<1>(GetParam())); });
    aBuffer->release();
    bBuffer->release();
}

// Test the attention shape: row maxima, sums, and the default identity's clamp at 0, each
// read through map_iterator, for a tile with some rows all negative.
TEST_P(TensorOperationKernels, AttentionRowReductions) {
    const Gemm g{16, 32, 8};
    std::vector<float> q(size_t(g.m * g.k)), k(size_t(g.n * g.k));
    for (size_t i = 0; i < q.size(); ++i) q[i] = float(int(i % 5) - 2) * ((i / size_t(g.k)) % 3 == 0 ? -1.0f : 1.0f);
    for (size_t i = 0; i < k.size(); ++i) k[i] = float(int(i % 3)) + 0.5f;
    MTL::Buffer* qBuffer = device_->newBuffer(q.data(), q.size() * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* kBuffer = device_->newBuffer(k.data(), k.size() * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer rows(device_, size_t(g.m) * 3 * 4);
    dispatch(operations_, "attention_rows", {qBuffer, kBuffer}, rows, g, {MTL::Size(1, 1, 1), MTL::Size(32, 1, 1), false});
    bool someNegative = false;
    for (int i = 0; i < g.m; ++i) {
        double rowMax = -1e30, rowSum = 0;
        for (int j = 0; j < g.n; ++j) {
            double s = 0;
            for (int c = 0; c < g.k; ++c) s += double(q[size_t(i * g.k + c)]) * k[size_t(j * g.k + c)];
            rowMax = std::max(rowMax, s);
            rowSum += s;
        }
        someNegative |= rowMax < 0;
        EXPECT_EQ(rows.data<float>()[i * 3 + 0], float(rowMax)) << "row " << i;
        EXPECT_EQ(rows.data<float>()[i * 3 + 1], float(rowSum)) << "row " << i;
        EXPECT_EQ(rows.data<float>()[i * 3 + 2], float(std::max(rowMax, 0.0))) << "row " << i;
    }
    EXPECT_TRUE(someNegative);  // the footgun is visible
    rows.expectCanariesIntact();
    qBuffer->release();
    kBuffer->release();
}

// Test the hard-coded M5 kernel: the product is right under apple10 (the layout MLX
// assumes) and far off under every other layout, as on a real M3/M4 or a future device.
TEST_P(TensorOperationKernels, HardCodedM5LayoutIsRightOnlyOnApple10) {
    const Gemm g{16, 32, 16};
    std::vector<float> a(size_t(g.m * g.k)), b(size_t(g.k * g.n));
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 5 % 9) - 4);
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 3 % 7) - 3);
    MTL::Buffer* aBuffer = device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* bBuffer = device_->newBuffer(b.data(), b.size() * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer d(device_, size_t(g.m * g.n) * 4);
    dispatch(operations_, "hard_coded_m5", {aBuffer, bBuffer}, d, g, {MTL::Size(1, 1, 1), MTL::Size(32, 1, 1), false});
    double worst = 0;
    for (int i = 0; i < g.m; ++i)
        for (int j = 0; j < g.n; ++j) {
            double sum = 0;
            for (int k = 0; k < g.k; ++k) sum += double(a[size_t(i * g.k + k)]) * b[size_t(k * g.n + j)];
            const float got = d.data<float>()[i * g.n + j];
            worst = std::max(worst, std::isnan(got) ? 1e30 : std::fabs(double(got) - sum));
        }
    if (std::get<0>(GetParam()) == MC_COOPERATIVE_LAYOUT_APPLE10)
        EXPECT_EQ(worst, 0.0);
    else
        EXPECT_GT(worst, 10.0);
    d.expectCanariesIntact();
    aBuffer->release();
    bBuffer->release();
}

// Test execution_thread operations in groups of 1, 7 and 33 threads over a ragged product.
TEST_P(TensorOperationKernels, ThreadScopeInAnyGroupSize) {
    const Gemm g{13, 10, 21};  // 4 x 3 tiles of 4 x 4, ragged both ways
    std::vector<_Float16> a = integers(unsigned(g.m * g.k), 3), b = integers(unsigned(g.k * g.n), 4);
    MTL::Buffer* aBuffer = device_->newBuffer(a.data(), a.size() * 2, MTL::ResourceStorageModeShared);
    MTL::Buffer* bBuffer = device_->newBuffer(b.data(), b.size() * 2, MTL::ResourceStorageModeShared);
    for (unsigned group : {1u, 7u, 33u}) {
        GuardedBuffer d(device_, size_t(g.m * g.n) * 2);
        dispatch(operations_, "thread_gemm", {aBuffer, bBuffer}, d, g, {MTL::Size(12, 1, 1), MTL::Size(group, 1, 1), true});
        expectProduct(a, b, d, g, false);
    }
    aBuffer->release();
    bBuffer->release();
}

std::string layoutShapeName(const ::testing::TestParamInfo<LayoutShape>& info) {
    return rt::GpuEmulation::layoutName(std::get<0>(info.param)) + (std::get<1>(info.param) ? "_validated" : "");
}

/// Every emulated layout, plain and validated.
auto layoutShapes() {
    return ::testing::Combine(::testing::Values(mc_u32(MC_COOPERATIVE_LAYOUT_APPLE10), mc_u32(MC_COOPERATIVE_LAYOUT_APPLE9),
                                                mc_u32(MC_COOPERATIVE_LAYOUT_SHUFFLED), mc_u32(MC_COOPERATIVE_LAYOUT_PADDED)),
                              ::testing::Bool());
}

INSTANTIATE_TEST_SUITE_P(Layouts, TensorKernels,
                         layoutShapes(),
                         layoutShapeName);
INSTANTIATE_TEST_SUITE_P(Layouts, TensorOperationKernels,
                         layoutShapes(),
                         layoutShapeName);

} // namespace
} // namespace metalcpu::testing
