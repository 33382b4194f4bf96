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
// TensorLibraryShapes run llama.cpp's mul_mm and PyTorch's mpp_gemm tensor code at tile
// multiples and ragged sizes.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include "runtime/device.h"
#include "runtime/gpu_family.h"
#include "scoped_state.h"

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

// A barrier in a helper the front end does not inline (a static member function) keeps a
// kernel on fibers whatever it makes of tensor operations in a kernel body (coroutines need
// every barrier in the body itself).
// Overloaded, so that the front end does not inline it before the barrier split
// (docs/compiler.md, "Restrictions"): the barrier stays in a helper and its caller on fibers.
struct Fibers {
    static void stay() { threadgroup_barrier(mem_flags::mem_none); }
    static void stay(int) { threadgroup_barrier(mem_flags::mem_none); }
};

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
    Fibers::stay();
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
    Fibers::stay();
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
    Fibers::stay();
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

// Library-shaped kernels: the tensor code of llama.cpp (ggml mul_mm) and PyTorch (mpp_gemm.h),
// reduced to what their tensor operations do, with their spellings.
const char* const kLibraryShapeKernels = R"(
#include <metal_stdlib>
#include <metal_tensor>
#include <metal_cooperative_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;

struct GgmlArgs { int ne00, ne01, ne11; };  // K, rows of src0 (M), rows of src1 (N)

// Copies rows [row0, row0 + ROWS) x K columns [k0, k0 + NK) of a rows x K half matrix into a
// threadgroup tile (NK contiguous), zeros past the matrix: ggml's staging, 128 threads.
template <int ROWS, int NK>
void stage_tile(threadgroup half* tile, device const half* matrix, int row0, int rows, int k0, int K, ushort tid) {
    for (int i = tid; i < NK * ROWS; i += 128) {
        const int k = k0 + i % NK, row = row0 + i / NK;
        tile[i] = row < rows && k < K ? matrix[row * K + k] : half(0);
    }
}

// llama.cpp's mul_mm: dst (ne01 x ne11, ne01 contiguous) = src0 . src1^T, both operands staged
// in threadgroup memory, wrapped by CTAD from threadgroup pointers, multiplied in K steps of
// 16 by static slices into a destination cooperative tensor never zeroed (a new one reads as
// zeros), operands swapped (D^T = B . A^T) with the right one transposed, relaxed precision;
// the clipped store onto the whole dst is the bounds check.
kernel void ggml_mul_mm(device const half* src0 [[buffer(0)]], device const half* src1 [[buffer(1)]],
                        device float* dst [[buffer(2)]], constant GgmlArgs& args [[buffer(3)]],
                        uint2 tgpig [[threadgroup_position_in_grid]], ushort tiitg [[thread_index_in_threadgroup]]) {
    constexpr int NR0 = 64, NR1 = 32, NK = 32;
    threadgroup half sa[NK * NR0];
    threadgroup half sb[NK * NR1];
    const int r0 = int(tgpig.y) * NR0, r1 = int(tgpig.x) * NR1;
    auto tA = tensor(sa, dextents<int32_t, 2>(NK, NR0));
    auto tB = tensor(sb, dextents<int32_t, 2>(NK, NR1));
    mpp::tensor_ops::matmul2d<mpp::tensor_ops::matmul2d_descriptor(NR1, NR0, static_cast<int>(dynamic_extent), false, true, true,
                                                                   mpp::tensor_ops::matmul2d_descriptor::mode::multiply_accumulate),
                              execution_simdgroups<4>> mm;
    auto cT = mm.get_destination_cooperative_tensor<decltype(tB), decltype(tA), float>();
    for (int loop_k = 0; loop_k < args.ne00; loop_k += NK) {
        stage_tile<NR0, NK>(sa, src0, r0, args.ne01, loop_k, args.ne00, tiitg);
        stage_tile<NR1, NK>(sb, src1, r1, args.ne11, loop_k, args.ne00, tiitg);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (int kk = 0; kk < NK; kk += 16) {
            auto sA = tA.slice<16, NR0>(kk, 0);
            auto sB = tB.slice<16, NR1>(kk, 0);
            mm.run(sB, sA, cT);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    auto tD = tensor(dst, dextents<int32_t, 2>(args.ne01, args.ne11));
    cT.store(tD.slice(r0, r1));
}

// ggml_mul_mm's descriptor (m = NR1, n = NR0) as a program-scope constant: the direct variant
// names it as the operation's template argument.
constexpr auto ggml_descriptor = mpp::tensor_ops::matmul2d_descriptor(32, 64, static_cast<int>(dynamic_extent), false, true, true,
                                                                      mpp::tensor_ops::matmul2d_descriptor::mode::multiply_accumulate);

// Current upstream's variant: src1 is not staged but rebuilt per K step straight from device
// memory with clipped dynamic extents and its row stride, its row extent running to the end
// of the matrix (past the tile: the operation uses its first m rows; short at the last block:
// the missing rows read as zeros).
kernel void ggml_mul_mm_direct(device const half* src0 [[buffer(0)]], device const half* src1 [[buffer(1)]],
                               device float* dst [[buffer(2)]], constant GgmlArgs& args [[buffer(3)]],
                               uint2 tgpig [[threadgroup_position_in_grid]], ushort tiitg [[thread_index_in_threadgroup]]) {
    constexpr int NR0 = 64, NR1 = 32, NK = 32;
    threadgroup half sa[NK * NR0];
    const int r0 = int(tgpig.y) * NR0, r1 = int(tgpig.x) * NR1;
    auto tA = tensor(sa, dextents<int32_t, 2>(NK, NR0));
    mpp::tensor_ops::matmul2d<ggml_descriptor, execution_simdgroups<4>> mm;
    auto cT = mm.get_destination_cooperative_tensor<decltype(tA), decltype(tA), float>();
    for (int loop_k = 0; loop_k < args.ne00; loop_k += NK) {
        stage_tile<NR0, NK>(sa, src0, r0, args.ne01, loop_k, args.ne00, tiitg);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        auto tB = tensor(src1 + r1 * args.ne00 + loop_k, dextents<int32_t, 2>(min(NK, args.ne00 - loop_k), args.ne11 - r1),
                         array<int, 2>({1, args.ne00}));
        mm.run(tB, tA, cT);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    auto tD = tensor(dst, dextents<int32_t, 2>(args.ne01, args.ne11));
    cT.store(tD.slice(r0, r1));
}

struct TorchGemm { int M, N, K, lda, ldb, ldc; };

// The operand tile of TILE rows (dim1) at `offset`, or of TILE columns (dim0) when transposed.
template <bool TRANSPOSED, int TILE, class Tensor>
auto operand_tile(Tensor t, int offset) {
    if constexpr (TRANSPOSED) return t.template slice<TILE, dynamic_extent>(offset, 0);
    else return t.template slice<dynamic_extent, TILE>(0, offset);
}

// PyTorch's mpp_gemm: C = 2 (A . B) + bias[column] - (row & 7) over strided operands (lda, ldb,
// ldc larger than the matrices), each transposed or not by a template flag (swapped extents
// plus the descriptor's flag), accumulated in a float cooperative tensor whose epilogue runs
// over its iterators, copied slot by slot into a half one of the same op and stored clipped.
// Threadgroups past the matrix return before any operation.
template <typename IN_T, typename OUT_T, bool TRANS_A, bool TRANS_B>
kernel void torch_mm(device IN_T* A [[buffer(0)]], device IN_T* B [[buffer(1)]], device const float* bias [[buffer(2)]],
                     device OUT_T* C [[buffer(3)]], constant TorchGemm& p [[buffer(4)]],
                     uint2 tgid [[threadgroup_position_in_grid]]) {
    constexpr int BM = 64, BN = 32, NSG = 4;
    const int m_off = int(tgid.y) * BM, n_off = int(tgid.x) * BN;
    if (m_off >= p.M || n_off >= p.N) return;
    const auto eA = TRANS_A ? dextents<int32_t, 2>(p.M, p.K) : dextents<int32_t, 2>(p.K, p.M);
    const auto eB = TRANS_B ? dextents<int32_t, 2>(p.K, p.N) : dextents<int32_t, 2>(p.N, p.K);
    tensor<device IN_T, dextents<int32_t, 2>, tensor_inline> tA(A, eA, array<int32_t, 2>{1, p.lda});
    tensor<device IN_T, dextents<int32_t, 2>, tensor_inline> tB(B, eB, array<int32_t, 2>{1, p.ldb});
    tensor<device OUT_T, dextents<int32_t, 2>, tensor_inline> tC(C, dextents<int32_t, 2>(p.N, p.M), array<int32_t, 2>{1, p.ldc});
    auto mA = operand_tile<TRANS_A, BM>(tA, m_off);
    auto mB = operand_tile<!TRANS_B, BN>(tB, n_off);
    constexpr auto desc = mpp::tensor_ops::matmul2d_descriptor(BM, BN, static_cast<int>(dynamic_extent), TRANS_A, TRANS_B, true,
                                                               mpp::tensor_ops::matmul2d_descriptor::mode::multiply);
    mpp::tensor_ops::matmul2d<desc, execution_simdgroups<NSG>> op;
    auto cT = op.template get_destination_cooperative_tensor<decltype(mA), decltype(mB), float>();
    auto cO = op.template get_destination_cooperative_tensor<decltype(mA), decltype(mB), OUT_T>();
    op.run(mA, mB, cT);
    int e = 0;
    for (auto it = cT.begin(); it != cT.end(); ++it, ++e) {
        if (!cT.is_valid_element(e)) continue;
        auto idx = it.get_multidimensional_index();
        const int col = n_off + idx[0], row = m_off + idx[1];
        *it = *it * 2.0f + (col < p.N ? bias[col] : 0.0f) - float(row & 7);
    }
    for (int i = 0; i < cO.get_capacity(); ++i) cO[i] = (OUT_T)cT[i];
    cO.store(tC.template slice<BN, BM>(n_off, m_off));
}

template [[host_name("torch_mm_nn")]] [[kernel]] decltype(torch_mm<half, half, false, false>) torch_mm<half, half, false, false>;
template [[host_name("torch_mm_nt")]] [[kernel]] decltype(torch_mm<half, half, false, true>) torch_mm<half, half, false, true>;
template [[host_name("torch_mm_tn")]] [[kernel]] decltype(torch_mm<half, half, true, false>) torch_mm<half, half, true, false>;
template [[host_name("torch_mm_tt")]] [[kernel]] decltype(torch_mm<half, half, true, true>) torch_mm<half, half, true, true>;
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

/// A 16 x 16 tile through cooperative tensors: `copy_tile` only loads and stores (the
/// operation's type behind an alias, no run in the kernel), `multiply_tile` loads both inputs
/// into cooperative tensors and runs the product on them.
constexpr const char* kCooperativeTiles = R"(
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;
constexpr auto kTile = matmul2d_descriptor(16, 16, 16);
using TileOp = matmul2d<kTile, execution_simdgroups<1>>;

kernel void copy_tile(device float* in [[buffer(0)]], device float* out [[buffer(1)]]) {
    auto source = tensor(in, dextents<int, 2>(16, 16));
    auto destination = tensor(out, dextents<int, 2>(16, 16));
    TileOp op;
    auto ct = op.get_destination_cooperative_tensor<decltype(source), decltype(source), float>();
    ct.load(source);
    ct.store(destination);
}

kernel void multiply_tile(device float* a [[buffer(0)]], device float* b [[buffer(1)]], device float* d [[buffer(2)]]) {
    TileOp op;
    auto left = op.get_left_input_cooperative_tensor<float, float, float>();
    auto right = op.get_right_input_cooperative_tensor<float, float, float>();
    auto product = op.get_destination_cooperative_tensor<decltype(left), decltype(right), float>();
    left.load(tensor(a, dextents<int, 2>(16, 16)));
    right.load(tensor(b, dextents<int, 2>(16, 16)));
    op.run(left, right, product);
    product.store(tensor(d, dextents<int, 2>(16, 16)));
}
)";

class CooperativeTiles : public MetalTest {
protected:
    /// Runs `kernel` over one group of 32 threads with `buffers` bound in order.
    MTL::CommandBuffer* dispatch(const char* kernel, std::initializer_list<MTL::Buffer*> buffers) {
        MTL::Library* library = compileMetal4(kCooperativeTiles);
        MTL::ComputePipelineState* state = library ? pipeline(library, kernel) : nullptr;
        if (library) library->release();
        if (!state) return nullptr;
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        NS::UInteger index = 0;
        for (MTL::Buffer* buffer : buffers) encoder->setBuffer(buffer, 0, index++);
        encoder->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(32, 1, 1));
        encoder->endEncoding();
        run(commands);
        state->release();
        return commands;
    }
    MTL::Buffer* floats(float (*value)(int)) {
        MTL::Buffer* buffer = device_->newBuffer(256 * sizeof(float), MTL::ResourceStorageModeShared);
        for (int i = 0; i < 256; ++i) static_cast<float*>(buffer->contents())[i] = value(i);
        return buffer;
    }
};

// Test that a kernel that only loads and stores a cooperative tensor, with no operation in its
// body, finds each thread's slots: it used to run as a plain loop, where the thread index the
// slots follow is not kept, and copied 248 of 256 elements wrong.
TEST_F(CooperativeTiles, LoadAndStoreWithoutAnOperation) {
    MTL::Buffer* in = floats([](int i) { return float(i + 1); });
    MTL::Buffer* out = floats([](int) { return -1.0f; });
    MTL::CommandBuffer* commands = dispatch("copy_tile", {in, out});
    ASSERT_NE(commands, nullptr);
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    int wrong = 0;
    for (int i = 0; i < 256; ++i) wrong += static_cast<const float*>(out->contents())[i] != float(i + 1);
    EXPECT_EQ(wrong, 0);
    in->release();
    out->release();
}

// Test that an operation on cooperative operands fails its command buffer, naming the
// variable, when METALCPU_SIMD_WIDTH makes SIMD-groups other than Apple's 32 threads (the
// layouts are defined for 32; it used to compute 247 of 256 elements wrong), and that it is
// right at 32.
TEST_F(CooperativeTiles, OperationsNeedThirtyTwoLaneSimdgroups) {
    MTL::Buffer* a = floats([](int i) { return float(i % 7 - 3); });
    MTL::Buffer* b = floats([](int i) { return float(i % 5 - 2); });
    MTL::Buffer* d = floats([](int) { return -999.0f; });
    {
        ScopedEnvironmentVariable width("METALCPU_SIMD_WIDTH", "16");
        MTL::CommandBuffer* commands = dispatch("multiply_tile", {a, b, d});
        ASSERT_NE(commands, nullptr);
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusError);
        ASSERT_NE(commands->error(), nullptr);
        EXPECT_NE(text(commands->error()->localizedDescription()).find("METALCPU_SIMD_WIDTH"), std::string::npos)
            << text(commands->error()->localizedDescription());
    }
    MTL::CommandBuffer* commands = dispatch("multiply_tile", {a, b, d});
    ASSERT_NE(commands, nullptr);
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    const float* av = static_cast<const float*>(a->contents());
    const float* bv = static_cast<const float*>(b->contents());
    int wrong = 0;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            float sum = 0;
            for (int k = 0; k < 16; ++k) sum += av[r * 16 + k] * bv[k * 16 + c];
            wrong += static_cast<const float*>(d->contents())[r * 16 + c] != sum;
        }
    EXPECT_EQ(wrong, 0);
    a->release();
    b->release();
    d->release();
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

/// llama.cpp's and PyTorch's tensor code (kLibraryShapeKernels) under each layout, plain and
/// validated, against a CPU reference.
class TensorLibraryShapes : public TensorOperationKernels {
protected:
    static void SetUpTestSuite() { shapes_ = compileMetal4(kLibraryShapeKernels); }
    static void TearDownTestSuite() {
        if (shapes_) shapes_->release();
        shapes_ = nullptr;
    }

    inline static MTL::Library* shapes_ = nullptr;
};

struct GgmlArgs {
    std::int32_t ne00, ne01, ne11;
};

// Test llama.cpp's mul_mm shapes (both operands staged; src1 straight from device memory) at
// sizes their 64x32 tile and 32-wide K block divide and at sizes they do not: dst is src0 . src1^T exactly (the K loop accumulates into a cooperative
// tensor nobody zeroed; K steps past the matrix add zeros) and the clipped store writes no
// element outside dst. Written as llama.cpp writes it (barriers and `run` in the kernel body),
// the kernel runs as coroutines: `mm.run` is a co_await'ed scope operation.
TEST_P(TensorLibraryShapes, LlamaCppMulMm) {
    for (const char* kernel : {"ggml_mul_mm", "ggml_mul_mm_direct"})
    for (const GgmlArgs args : {GgmlArgs{64, 128, 64}, GgmlArgs{40, 100, 45}}) {
        const int K = args.ne00, M = args.ne01, N = args.ne11;
        std::vector<_Float16> src0 = integers(unsigned(M * K), 5), src1 = integers(unsigned(N * K), 6);
        MTL::Buffer* a = device_->newBuffer(src0.data(), src0.size() * 2, MTL::ResourceStorageModeShared);
        MTL::Buffer* b = device_->newBuffer(src1.data(), src1.size() * 2, MTL::ResourceStorageModeShared);
        GuardedBuffer dst(device_, size_t(M * N) * 4);
        const MTL::Size groups((unsigned(N) + 31) / 32, (unsigned(M) + 63) / 64, 1);
        dispatch(shapes_, kernel, {a, b}, dst, args, {groups, MTL::Size(128, 1, 1), false});
        for (int n = 0; n < N; ++n)
            for (int m = 0; m < M; ++m) {
                double sum = 0;
                for (int k = 0; k < K; ++k) sum += double(src0[size_t(m * K + k)]) * double(src1[size_t(n * K + k)]);
                ASSERT_EQ(dst.data<float>()[n * M + m], float(sum)) << kernel << ": m " << m << ", n " << n << ", K " << K;
            }
        dst.expectCanariesIntact();
        a->release();
        b->release();
    }
    expectLowerings({{"ggml_mul_mm", MC_KERNEL_COROUTINES}, {"ggml_mul_mm_direct", MC_KERNEL_COROUTINES}},
                    [&](const char* name) { return pipeline(shapes_, name, std::get<1>(GetParam())); });
}

struct TorchGemm {
    std::int32_t M, N, K, lda, ldb, ldc;
};

// Test PyTorch's mpp_gemm shape in all four transpose combinations, at sizes its 64x32 tile
// divides and at sizes it does not, over operands whose leading dimensions exceed the matrix
// (the padding holds 1000s that a stride bug would pick up): every C element is
// 2 (A . B) + bias[column] - (row & 7), the epilogue's indices being right under every
// layout, and the padding between C's rows and around C keeps its canaries. The kernels run as
// coroutines (the early return and `run` in the body).
TEST_P(TensorLibraryShapes, PyTorchMppGemm) {
    for (const bool transA : {false, true})
        for (const bool transB : {false, true})
            for (const Gemm g : {Gemm{128, 64, 32}, Gemm{100, 45, 37}}) {
                const TorchGemm p{g.m, g.n, g.k, (transA ? g.m : g.k) + 3, (transB ? g.k : g.n) + 5, g.n + 3};
                const std::vector<_Float16> logicalA = integers(unsigned(g.m * g.k), 7), logicalB = integers(unsigned(g.k * g.n), 8);
                // Stored with their leading dimensions: A^T / B^T when transposed.
                std::vector<_Float16> storedA(size_t((transA ? g.k : g.m) * p.lda), _Float16(1000));
                std::vector<_Float16> storedB(size_t((transB ? g.n : g.k) * p.ldb), _Float16(1000));
                for (int i = 0; i < g.m; ++i)
                    for (int k = 0; k < g.k; ++k)
                        storedA[size_t(transA ? k * p.lda + i : i * p.lda + k)] = logicalA[size_t(i * g.k + k)];
                for (int k = 0; k < g.k; ++k)
                    for (int j = 0; j < g.n; ++j)
                        storedB[size_t(transB ? j * p.ldb + k : k * p.ldb + j)] = logicalB[size_t(k * g.n + j)];
                std::vector<float> bias(size_t(g.n));
                for (int j = 0; j < g.n; ++j) bias[size_t(j)] = float(j % 11 - 5);
                MTL::Buffer* a = device_->newBuffer(storedA.data(), storedA.size() * 2, MTL::ResourceStorageModeShared);
                MTL::Buffer* b = device_->newBuffer(storedB.data(), storedB.size() * 2, MTL::ResourceStorageModeShared);
                MTL::Buffer* biasBuffer = device_->newBuffer(bias.data(), bias.size() * 4, MTL::ResourceStorageModeShared);
                GuardedBuffer c(device_, size_t(g.m * p.ldc) * 2);
                const std::string name = std::string("torch_mm_") + (transA ? "t" : "n") + (transB ? "t" : "n");
                // One threadgroup column more than C needs: it returns before the operation.
                const MTL::Size groups((unsigned(g.n) + 31) / 32 + 1, (unsigned(g.m) + 63) / 64, 1);
                dispatch(shapes_, name.c_str(), {a, b, biasBuffer}, c, p, {groups, MTL::Size(128, 1, 1), false});
                const auto* bits = c.data<std::uint16_t>();
                for (int i = 0; i < g.m; ++i)
                    for (int j = 0; j < p.ldc; ++j) {
                        const int at = i * p.ldc + j;
                        if (j >= g.n) {  // padding: the canary's half
                            ASSERT_EQ(bits[at], std::uint16_t(at % 2 ? kCanary >> 16 : kCanary & 0xFFFF)) << name << " " << i << "," << j;
                            continue;
                        }
                        double sum = 0;
                        for (int k = 0; k < g.k; ++k)
                            sum += double(logicalA[size_t(i * g.k + k)]) * double(logicalB[size_t(k * g.n + j)]);
                        const double expected = 2 * sum + bias[size_t(j)] - (i & 7);
                        ASSERT_EQ(float(c.data<_Float16>()[at]), float(expected)) << name << " " << i << "," << j << ", K " << g.k;
                    }
                c.expectCanariesIntact();
                a->release();
                b->release();
                biasBuffer->release();
            }
    expectLowerings({{"torch_mm_nn", MC_KERNEL_COROUTINES}, {"torch_mm_nt", MC_KERNEL_COROUTINES},
                     {"torch_mm_tn", MC_KERNEL_COROUTINES}, {"torch_mm_tt", MC_KERNEL_COROUTINES}},
                    [&](const char* name) { return pipeline(shapes_, name, std::get<1>(GetParam())); });
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
INSTANTIATE_TEST_SUITE_P(Layouts, TensorLibraryShapes,
                         layoutShapes(),
                         layoutShapeName);

} // namespace
} // namespace metalcpu::testing
