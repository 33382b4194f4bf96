#pragma once

// OpenBLAS's C interface (cblas.h), declared here to avoid depending on where the
// distribution puts its header; only when CMake found OpenBLAS (METALCPU_BENCH_OPENBLAS).
// Orders and transposes are cblas.h's numbers.
#if defined(METALCPU_BENCH_OPENBLAS)
extern "C" {
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc);
void openblas_set_num_threads(int threads);
}

namespace bench {
constexpr int kRowMajor = 101, kNoTranspose = 111;
} // namespace bench
#endif
