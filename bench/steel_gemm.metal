// A GEMM shaped as MLX's steel GEMM writes it (steel/gemm: BlockLoader, BlockMMA and the fused
// kernel's aligned loop), in code of our own: a tile copier and a tile multiplier are class
// templates whose member functions the kernel calls around two barriers per step of K, the
// multiplier's holding the SIMD-group matrix products. The front end inlines the member function
// that synchronises (docs/compiler.md, "Helpers inlined before the split"), so steel_gemm runs
// as work-item loops; steel_gemm_on_fibers is the same kernel with that call made through a
// pointer, which keeps it on fibers. Run by steel_gemm_bench.cpp (the two lowerings' times) and
// tests/runtime/member_inlining_test.cpp (their results).
#include <metal_stdlib>
using namespace metal;

// Copies a ROWS x COLS tile of a row-major matrix into threadgroup memory: each thread a run
// of READS neighbours in a row, ROW_STEP rows apart; elements outside the matrix read as zero.
template <typename T, short ROWS, short COLS, short THREADS, short READS = (ROWS * COLS) / THREADS,
          short PER_ROW = COLS / READS, short ROW_STEP = THREADS / PER_ROW>
struct TileCopier {
    static constexpr short passes = ROWS / ROW_STEP;
    const int ld;
    const short row;
    const short col;
    threadgroup T* dst;
    const device T* src;

    TileCopier(const device T* source, int source_ld, threadgroup T* tile, ushort sg, ushort lane)
        : ld(source_ld), row((sg * 32 + lane) / PER_ROW), col(READS * ((sg * 32 + lane) % PER_ROW)),
          dst(tile + row * COLS + col), src(source + row * source_ld + col) {}

    // `extent`: the columns (x) and rows (y) of the tile that lie inside the matrix.
    void copy_bounded(short2 extent) const {
        for (short p = 0; p < passes; ++p) {
            const short r = p * ROW_STEP;
            for (short j = 0; j < READS; ++j) {
                const bool inside = row + r < extent.y && col + j < extent.x;
                dst[r * COLS + j] = inside ? src[r * ld + j] : T(0);
            }
        }
    }

    void advance(int elements) { src += elements; }
};

// A BM x BN block of C += A (BM x BK) * B (BK x BN) from threadgroup tiles, WM x WN SIMD-groups
// each holding (BM / 8WM) x (BN / 8WN) 8x8 accumulators, interleaved 8WM rows and 8WN columns apart.
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
        // Where a lane's two elements sit in an 8x8 matrix (Apple's layout).
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

    // `extent`: the columns (x) and rows (y) of the block that lie inside C.
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

// C (M x N) = A (M x K) * B (K x N), row-major, one 32x32 block of C per group of 128 threads.
kernel void steel_gemm(const device float* A [[buffer(0)]], const device float* B [[buffer(1)]],
                       device float* C [[buffer(2)]], constant int3& mnk [[buffer(3)]],
                       uint sg [[simdgroup_index_in_threadgroup]], uint lane [[thread_index_in_simdgroup]],
                       uint3 tg [[threadgroup_position_in_grid]]) {
    const int M = mnk.x, N = mnk.y, K = mnk.z;
    const int row0 = int(tg.y) * 32, col0 = int(tg.x) * 32;
    threadgroup float As[32 * 16];
    threadgroup float Bs[16 * 32];
    TileCopier<float, 32, 16, 128> loader_a(A + row0 * K, K, As, sg, lane);
    TileCopier<float, 16, 32, 128> loader_b(B + col0, N, Bs, sg, lane);
    thread TileMultiplier<float, 32, 32, 16, 2, 2> mma_op(sg, lane);
    for (int k0 = 0; k0 < K; k0 += 16) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        loader_a.copy_bounded(short2(short(min(16, K - k0)), short(min(32, M - row0))));
        loader_b.copy_bounded(short2(short(min(32, N - col0)), short(min(16, K - k0))));
        threadgroup_barrier(mem_flags::mem_threadgroup);
        mma_op.multiply(As, Bs);
        loader_a.advance(16);
        loader_b.advance(16 * N);
    }
    mma_op.store_bounded(C + row0 * N + col0, N, short2(short(min(32, N - col0)), short(min(32, M - row0))));
}

// The same kernel on fibers: called through a pointer, the product's member function is not
// inlined, so the kernel reaches its SIMD-group functions through a call.
kernel void steel_gemm_on_fibers(const device float* A [[buffer(0)]], const device float* B [[buffer(1)]],
                                 device float* C [[buffer(2)]], constant int3& mnk [[buffer(3)]],
                                 uint sg [[simdgroup_index_in_threadgroup]], uint lane [[thread_index_in_simdgroup]],
                                 uint3 tg [[threadgroup_position_in_grid]]) {
    const int M = mnk.x, N = mnk.y, K = mnk.z;
    const int row0 = int(tg.y) * 32, col0 = int(tg.x) * 32;
    threadgroup float As[32 * 16];
    threadgroup float Bs[16 * 32];
    TileCopier<float, 32, 16, 128> loader_a(A + row0 * K, K, As, sg, lane);
    TileCopier<float, 16, 32, 128> loader_b(B + col0, N, Bs, sg, lane);
    thread TileMultiplier<float, 32, 32, 16, 2, 2> mma_op(sg, lane);
    for (int k0 = 0; k0 < K; k0 += 16) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        loader_a.copy_bounded(short2(short(min(16, K - k0)), short(min(32, M - row0))));
        loader_b.copy_bounded(short2(short(min(32, N - col0)), short(min(16, K - k0))));
        threadgroup_barrier(mem_flags::mem_threadgroup);
        (&mma_op)->multiply(As, Bs);
        loader_a.advance(16);
        loader_b.advance(16 * N);
    }
    mma_op.store_bounded(C + row0 * N + col0, N, short2(short(min(32, N - col0)), short(min(32, M - row0))));
}
