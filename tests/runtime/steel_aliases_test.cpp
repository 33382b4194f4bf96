// A GEMM written as MLX's steel GEMM kernels write theirs (steel/gemm: gemm.h's GEMMKernel,
// kernels/steel_gemm_fused.h), in code of our own: the classes live in a namespace the kernel
// uses, the kernel names them through its own aliases (`using gemm_kernel = GemmKernel<...>;`,
// `using mma_t = typename gemm_kernel::mma_t;`, member aliases whose arguments are the outer
// class's parameters and statics), exits early past the matrix, multiplies K's remainder first,
// then calls the outer class's static member function template by qualified name with its
// template arguments deduced from a tag (`gemm_kernel::gemm_loop(..., EdgeCase<true, true>{})`).
// Inlined before the barrier split (docs/compiler.md, "Helpers inlined before the split"), it
// runs as work-item loops; its twin on fibers declares its multiplier twice, which the inliner
// refuses. Against a CPU model, exactly on integers, and to the same bits as the twin where sums
// round, on sizes the tiles do not divide, with a column of groups past the matrix, in groups of
// 128 and 32 threads, plain and shader-validated, canaries after the output.
#include "gemm_values.h"
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
namespace blas {
namespace tiled {

template <bool M_WHOLE, bool N_WHOLE>
struct EdgeCase {};

// Copies a ROWS x COLS tile of a row-major matrix into threadgroup memory, READS neighbours a
// thread; copy_bounded reads elements outside `extent` (columns x, rows y) as zero.
template <typename T, short ROWS, short COLS, short THREADS>
struct TileCopier {
    static constexpr short reads = (ROWS * COLS) / THREADS;
    static constexpr short per_row = COLS / reads;
    static constexpr short row_step = THREADS / per_row;
    const int ld;
    const short row;
    const short col;
    threadgroup T* dst;
    const device T* src;

    TileCopier(const device T* source, int source_ld, threadgroup T* tile, ushort sg, ushort lane)
        : ld(source_ld), row((sg * 32 + lane) / per_row), col(reads * ((sg * 32 + lane) % per_row)),
          dst(tile + row * COLS + col), src(source + row * source_ld + col) {}

    void copy_whole() const {
        for (short r = 0; r < ROWS; r += row_step)
            for (short j = 0; j < reads; ++j) dst[r * COLS + j] = src[r * ld + j];
    }

    void copy_bounded(short2 extent) const {
        for (short r = 0; r < ROWS; r += row_step)
            for (short j = 0; j < reads; ++j) {
                const bool inside = row + r < extent.y && col + j < extent.x;
                dst[r * COLS + j] = inside ? src[r * ld + j] : T(0);
            }
    }

    void advance(int elements) { src += elements; }
};

// C += A * B over BM x BK and BK x BN threadgroup tiles, WM x WN SIMD-groups of 8x8 products.
template <typename T, short BM, short BN, short BK, short WM, short WN>
struct TileMultiplier {
    static constexpr short frags_m = BM / (8 * WM);
    static constexpr short frags_n = BN / (8 * WN);
    simdgroup_matrix<float, 8, 8> a_frag[frags_m];
    simdgroup_matrix<float, 8, 8> b_frag[frags_n];
    simdgroup_matrix<float, 8, 8> acc[frags_m * frags_n];
    short warp_row;
    short warp_col;
    short lane_row;
    short lane_col;

    TileMultiplier(ushort sg, ushort lane) {
        warp_row = 8 * (sg / WN);
        warp_col = 8 * (sg % WN);
        lane_row = (lane / 16) * 4 + (lane / 2) % 4;
        lane_col = ((lane / 8) % 2) * 4 + (lane % 2) * 2;
        for (short i = 0; i < frags_m * frags_n; ++i) acc[i] = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
    }

    void multiply(const threadgroup T* a_tile, const threadgroup T* b_tile) {
        a_tile += (warp_row + lane_row) * BK + lane_col;
        b_tile += lane_row * BN + warp_col + lane_col;
        for (short kk = 0; kk < BK; kk += 8) {
            simdgroup_barrier(mem_flags::mem_none);
            for (short i = 0; i < frags_m; ++i) {
                a_frag[i].thread_elements()[0] = float(a_tile[i * 8 * WM * BK]);
                a_frag[i].thread_elements()[1] = float(a_tile[i * 8 * WM * BK + 1]);
            }
            simdgroup_barrier(mem_flags::mem_none);
            for (short j = 0; j < frags_n; ++j) {
                b_frag[j].thread_elements()[0] = float(b_tile[j * 8 * WN]);
                b_frag[j].thread_elements()[1] = float(b_tile[j * 8 * WN + 1]);
            }
            simdgroup_barrier(mem_flags::mem_none);
            for (short i = 0; i < frags_m; ++i)
                for (short j = 0; j < frags_n; ++j)
                    simdgroup_multiply_accumulate(acc[i * frags_n + j], a_frag[i], b_frag[j], acc[i * frags_n + j]);
            a_tile += 8;
            b_tile += 8 * BN;
        }
    }

    void store_bounded(device float* c, int ldc, short2 extent) const {
        for (short i = 0; i < frags_m; ++i)
            for (short j = 0; j < frags_n; ++j) {
                const short r = warp_row + lane_row + i * 8 * WM;
                const short q = warp_col + lane_col + j * 8 * WN;
                const auto& e = acc[i * frags_n + j].thread_elements();
                if (r < extent.y && q < extent.x) c[r * ldc + q] = e[0];
                if (r < extent.y && q + 1 < extent.x) c[r * ldc + q + 1] = e[1];
            }
    }
};

// The kernel's class: its loaders and multiplier as member aliases of its own parameters and
// statics, and the K loop as a static member function template.
template <typename T, short BM, short BN, short BK, short WM, short WN>
struct GemmKernel {
    static constexpr short threads = WM * WN * 32;
    static constexpr short a_elements = BM * BK;
    static constexpr short b_elements = BK * BN;
    using loader_a_t = TileCopier<T, BM, BK, threads>;
    using loader_b_t = TileCopier<T, BK, BN, threads>;
    typedef TileMultiplier<T, BM, BN, BK, WM, WN> mma_t;

    template <bool M_WHOLE, bool N_WHOLE>
    static void gemm_loop(threadgroup T* As, threadgroup T* Bs, const int k_steps, thread loader_a_t& loader_a,
                          thread loader_b_t& loader_b, thread mma_t& mma_op, thread const short& tile_m,
                          thread const short& tile_n, thread const int& ldb, EdgeCase<M_WHOLE, N_WHOLE> edges = {}) {
        (void)edges;
        for (int k = 0; k < k_steps; ++k) {
            threadgroup_barrier(mem_flags::mem_threadgroup);
            if (M_WHOLE) {
                loader_a.copy_whole();
            } else {
                loader_a.copy_bounded(short2(BK, tile_m));
            }
            if (N_WHOLE) {
                loader_b.copy_whole();
            } else {
                loader_b.copy_bounded(short2(tile_n, BK));
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            mma_op.multiply(As, Bs);
            loader_a.advance(BK);
            loader_b.advance(BK * ldb);
        }
    }
};

} // namespace tiled
} // namespace blas

using namespace blas::tiled;

// C (M x N) = A (M x K) * B (K x N), row-major, a BM x BN block of C per group.
template <typename T, short BM, short BN, short BK, short WM, short WN>
[[kernel, max_total_threads_per_threadgroup(WM * WN * 32)]] void aliased_gemm(
    const device T* A [[buffer(0)]], const device T* B [[buffer(1)]], device float* C [[buffer(2)]],
    constant int3& mnk [[buffer(3)]], uint sg [[simdgroup_index_in_threadgroup]],
    uint lane [[thread_index_in_simdgroup]], uint3 tg [[threadgroup_position_in_grid]]) {
    using gemm_kernel = GemmKernel<T, BM, BN, BK, WM, WN>;
    using loader_a_t = typename gemm_kernel::loader_a_t;
    typedef typename gemm_kernel::loader_b_t loader_b_t;
    using mma_t = typename gemm_kernel::mma_t;
    const int M = mnk.x, N = mnk.y, K = mnk.z;
    const int row0 = int(tg.y) * BM, col0 = int(tg.x) * BN;
    if (row0 >= M || col0 >= N) {
        return;
    }
    threadgroup T As[gemm_kernel::a_elements];
    threadgroup T Bs[gemm_kernel::b_elements];
    thread mma_t mma_op(sg, lane);
    thread loader_a_t loader_a(A + row0 * K, K, As, sg, lane);
    thread loader_b_t loader_b(B + col0, N, Bs, sg, lane);
    const short tile_m = short(min(int(BM), M - row0));
    const short tile_n = short(min(int(BN), N - col0));
    const int k_steps = K / BK;
    const int k_rest = K - k_steps * BK;
    if (k_rest > 0) {
        loader_a.advance(k_steps * BK);
        loader_b.advance(k_steps * BK * N);
        loader_a.copy_bounded(short2(short(k_rest), tile_m));
        loader_b.copy_bounded(short2(tile_n, short(k_rest)));
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mma_op.multiply(As, Bs);
        loader_a.advance(-k_steps * BK);
        loader_b.advance(-k_steps * BK * N);
    }
    if (tile_m == BM && tile_n == BN) {
        gemm_kernel::gemm_loop(As, Bs, k_steps, loader_a, loader_b, mma_op, tile_m, tile_n, N, EdgeCase<true, true>{});
    } else if (tile_n == BN) {
        gemm_kernel::gemm_loop(As, Bs, k_steps, loader_a, loader_b, mma_op, tile_m, tile_n, N, EdgeCase<false, true>{});
    } else {
        gemm_kernel::gemm_loop(As, Bs, k_steps, loader_a, loader_b, mma_op, tile_m, tile_n, N, EdgeCase<false, false>{});
    }
    mma_op.store_bounded(C + row0 * N + col0, N, short2(tile_n, tile_m));
}
)";

constexpr char kInstances[] = R"(
template [[host_name("aliased_gemm_128")]] [[kernel]] decltype(aliased_gemm<float, 32, 32, 16, 2, 2>)
    aliased_gemm<float, 32, 32, 16, 2, 2>;
template [[host_name("aliased_gemm_32")]] [[kernel]] decltype(aliased_gemm<float, 8, 8, 16, 1, 1>)
    aliased_gemm<float, 8, 8, 16, 1, 1>;
template [[host_name("aliased_gemm_128_on_fibers")]] [[kernel]] decltype(aliased_gemm_on_fibers<float, 32, 32, 16, 2, 2>)
    aliased_gemm_on_fibers<float, 32, 32, 16, 2, 2>;
template [[host_name("aliased_gemm_32_on_fibers")]] [[kernel]] decltype(aliased_gemm_on_fibers<float, 8, 8, 16, 1, 1>)
    aliased_gemm_on_fibers<float, 8, 8, 16, 1, 1>;
)";

/// The kernels, and the twin on fibers: the same kernel declaring its multiplier a second
/// time in a block of its own, so that the inliner does not follow `mma_op` (declared twice).
std::string source() {
    const std::string kernels = kKernels;
    std::string twin = kernels.substr(kernels.find("// C (M x N)"));
    const auto replace = [&](const std::string& from, const std::string& to) {
        twin.replace(twin.find(from), from.size(), to);
    };
    replace("void aliased_gemm(", "void aliased_gemm_on_fibers(");
    replace("thread mma_t mma_op(sg, lane);\n",
            "thread mma_t mma_op(sg, lane);\n    {\n        thread mma_t mma_op(sg, lane);\n        (void)mma_op;\n    }\n");
    return "#include <metal_stdlib>\nusing namespace metal;\n" + kernels + twin + kInstances;
}

const std::string kSource = source();

/// M, N, K, the threads of a group (128: 32x32 blocks, 32: 8x8) and whether validated.
using GemmShape = std::tuple<int, int, int, int, bool>;

class SteelAliases : public MetalTest, public ::testing::WithParamInterface<GemmShape> {
protected:
    static void SetUpTestSuite() { library_ = compile(kSource); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        MetalTest::SetUp();
        if (validated()) silent_.emplace();
    }
    void TearDown() override {
        silent_.reset();
        MetalTest::TearDown();
    }

    int m() const { return std::get<0>(GetParam()); }
    int n() const { return std::get<1>(GetParam()); }
    int k() const { return std::get<2>(GetParam()); }
    int threads() const { return std::get<3>(GetParam()); }
    int block() const { return threads() == 128 ? 32 : 8; }
    bool validated() const { return std::get<4>(GetParam()); }
    std::string kernelName(bool onFibers) const {
        return "aliased_gemm_" + std::to_string(threads()) + (onFibers ? "_on_fibers" : "");
    }

    /// C = A * B by the kernel or its twin, with one column of groups past the matrix.
    std::vector<float> multiply(bool onFibers, const std::vector<float>& a, const std::vector<float>& b) {
        const std::string name = kernelName(onFibers);
        MTL::ComputePipelineState* state = pipeline(library_, name.c_str(), validated());
        EXPECT_NE(state, nullptr) << name;
        if (!state) return {};
        GuardedBuffer ab(device_, a.size() * 4), bb(device_, b.size() * 4), cb(device_, std::size_t(m() * n()) * 4);
        std::memcpy(ab.data<float>(), a.data(), a.size() * 4);
        std::memcpy(bb.data<float>(), b.data(), b.size() * 4);
        const std::int32_t mnk[4] = {m(), n(), k(), 0};
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        ab.bind(encoder, 0);
        bb.bind(encoder, 1);
        cb.bind(encoder, 2);
        encoder->setBytes(mnk, sizeof mnk, 3);
        const auto tiles = [&](int extent) { return NS::UInteger((extent + block() - 1) / block()); };
        encoder->dispatchThreadgroups(MTL::Size(tiles(n()) + 1, tiles(m()), 1), MTL::Size(NS::UInteger(threads()), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted) << name;
        cb.expectCanariesIntact();
        state->release();
        return std::vector<float>(cb.data<float>(), cb.data<float>() + m() * n());
    }

    inline static MTL::Library* library_ = nullptr;

private:
    std::optional<FailOnValidationReports> silent_;
};

// Test the kernel and its twin against the CPU model, exactly.
TEST_P(SteelAliases, ExactProducts) {
    const std::vector<float> a = exactGemmValues(m() * k(), 1), b = exactGemmValues(k() * n(), 2);
    const std::vector<double> expected = gemmReference(a, b, m(), n(), k());
    for (bool onFibers : {false, true}) {
        const std::vector<float> c = multiply(onFibers, a, b);
        ASSERT_EQ(c.size(), expected.size()) << kernelName(onFibers);
        for (std::size_t i = 0; i < c.size(); ++i)
            ASSERT_EQ(double(c[i]), expected[i]) << kernelName(onFibers) << ", row " << i / std::size_t(n())
                                                 << ", column " << i % std::size_t(n());
    }
}

// Test that work-item loops and fibers give the same bits where sums round, both near the model.
TEST_P(SteelAliases, SameBitsAsFibers) {
    const std::vector<float> a = roundingGemmValues(m() * k(), 3), b = roundingGemmValues(k() * n(), 4);
    const std::vector<double> expected = gemmReference(a, b, m(), n(), k());
    const std::vector<float> loops = multiply(false, a, b), fibers = multiply(true, a, b);
    ASSERT_EQ(loops.size(), expected.size());
    ASSERT_EQ(fibers.size(), expected.size());
    for (std::size_t i = 0; i < loops.size(); ++i) {
        ASSERT_EQ(std::memcmp(&loops[i], &fibers[i], 4), 0) << "element " << i << ": " << loops[i] << " vs " << fibers[i];
        ASSERT_NEAR(loops[i], expected[i], 1e-4 * k()) << "element " << i;
    }
}

// Test that the kernel runs as work-item loops and its twin on fibers.
TEST_P(SteelAliases, Lowerings) {
    const std::string loops = kernelName(false), fibers = kernelName(true);
    expectLowerings({{loops.c_str(), MC_KERNEL_WORK_ITEM_LOOPS}, {fibers.c_str(), MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return pipeline(library_, name, validated()); });
}

std::string gemmShapeName(const ::testing::TestParamInfo<GemmShape>& info) {
    const auto& [m, n, k, threads, validated] = info.param;
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + "_group" + std::to_string(threads) +
           (validated ? "_validated" : "");
}

// Whole tiles, edges in every dimension (each of gemm_loop's three edge cases), a single row,
// K shorter than a step, a K remainder.
INSTANTIATE_TEST_SUITE_P(Shapes, SteelAliases,
                         ::testing::Combine(::testing::Values(32, 45, 1), ::testing::Values(64, 33),
                                            ::testing::Values(16, 37, 5), ::testing::Values(128, 32), ::testing::Bool()),
                         gemmShapeName);

} // namespace
} // namespace metalcpu::testing
