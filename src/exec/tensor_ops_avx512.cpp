#include "exec/tensor_ops_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

namespace metalcpu::exec::gemm {
namespace {

constexpr int kMr = 12, kNr = 32;

// 12 rows x 2 zmm registers of accumulators (24 of the 32 registers), one broadcast of A and
// two loads of B per step.
__attribute__((target("avx512f"))) void avx512(int depth, const float* a, const float* b, float* c, int ldc,
                                               int rows, int columns) {
    __m512 acc[kMr][2];
    for (int i = 0; i < kMr; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
    for (int p = 0; p < depth; ++p, a += kMr, b += kNr) {
        const __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
        for (int i = 0; i < kMr; ++i) {
            const __m512 ai = _mm512_set1_ps(a[i]);
            acc[i][0] = _mm512_fmadd_ps(ai, b0, acc[i][0]);
            acc[i][1] = _mm512_fmadd_ps(ai, b1, acc[i][1]);
        }
    }
    if (rows == kMr && columns == kNr) {
        for (int i = 0; i < kMr; ++i) {
            float* row = c + i * ldc;
            _mm512_storeu_ps(row, _mm512_add_ps(_mm512_loadu_ps(row), acc[i][0]));
            _mm512_storeu_ps(row + 16, _mm512_add_ps(_mm512_loadu_ps(row + 16), acc[i][1]));
        }
        return;
    }
    float block[kMr * kNr];
    for (int i = 0; i < kMr; ++i) {
        _mm512_storeu_ps(block + i * kNr, acc[i][0]);
        _mm512_storeu_ps(block + i * kNr + 16, acc[i][1]);
    }
    addBlock(block, kNr, c, ldc, rows, columns);
}

} // namespace

MicrokernelInfo avx512Microkernel() { return {kMr, kNr, &avx512}; }

} // namespace metalcpu::exec::gemm
#endif
