#include "exec/tensor_ops_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

namespace metalcpu::exec::gemm {
namespace {

constexpr int kMr = 6, kNr = 16;

// 6 rows x 2 ymm registers of accumulators, one broadcast of A and two loads of B per step.
__attribute__((target("avx2,fma"))) void avx2(int depth, const float* a, const float* b, float* c, int ldc,
                                              int rows, int columns) {
    __m256 acc[kMr][2];
    for (int i = 0; i < kMr; ++i) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    for (int p = 0; p < depth; ++p, a += kMr, b += kNr) {
        const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
        for (int i = 0; i < kMr; ++i) {
            const __m256 ai = _mm256_broadcast_ss(a + i);
            acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
        }
    }
    if (rows == kMr && columns == kNr) {
        for (int i = 0; i < kMr; ++i) {
            float* row = c + i * ldc;
            _mm256_storeu_ps(row, _mm256_add_ps(_mm256_loadu_ps(row), acc[i][0]));
            _mm256_storeu_ps(row + 8, _mm256_add_ps(_mm256_loadu_ps(row + 8), acc[i][1]));
        }
        return;
    }
    float block[kMr * kNr];
    for (int i = 0; i < kMr; ++i) {
        _mm256_storeu_ps(block + i * kNr, acc[i][0]);
        _mm256_storeu_ps(block + i * kNr + 8, acc[i][1]);
    }
    addBlock(block, kNr, c, ldc, rows, columns);
}

// The integer twin: 32-bit products and sums, which wrap as Metal's int does.
__attribute__((target("avx2"))) void avx2Integer(int depth, const std::int32_t* a, const std::int32_t* b,
                                                 std::uint32_t* c, int ldc, int rows, int columns) {
    __m256i acc[kMr][2];
    for (int i = 0; i < kMr; ++i) acc[i][0] = acc[i][1] = _mm256_setzero_si256();
    for (int p = 0; p < depth; ++p, a += kMr, b += kNr) {
        const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
        const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 8));
        for (int i = 0; i < kMr; ++i) {
            const __m256i ai = _mm256_set1_epi32(a[i]);
            acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_mullo_epi32(ai, b0));
            acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_mullo_epi32(ai, b1));
        }
    }
    std::uint32_t block[kMr * kNr];
    for (int i = 0; i < kMr; ++i) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(block + i * kNr), acc[i][0]);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(block + i * kNr + 8), acc[i][1]);
    }
    addBlock(block, kNr, c, ldc, rows, columns);
}

} // namespace

MicrokernelInfo avx2Microkernel() { return {kMr, kNr, &avx2}; }
IntegerMicrokernelInfo avx2IntegerMicrokernel() { return {kMr, kNr, &avx2Integer}; }

} // namespace metalcpu::exec::gemm
#endif
