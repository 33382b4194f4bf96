// A program that defines one-letter macros such as N before including
// <Accelerate/Accelerate.h> compiles as it does with Apple's header, whose parameters are named
// __N and so on (OpenBLAS's cblas.h names them N). Called by cblas_test.cpp.
#define M 2
#define N 3
#define K 4
#define A firstMatrix
#define B secondMatrix
#define C product
#define n count
#define x unused_x
#include <Accelerate/Accelerate.h>

#include "one_letter_macros.h"

namespace accelerate_test {

// The M x N product of an M x K and a K x N matrix of ones, with the program's macros.
float cornerOfProductOfOnes() {
    float A[M * K], B[K * N], C[M * N];
    for (float& value : A) value = 1.0f;
    for (float& value : B) value = 1.0f;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B, N, 0.0f, C, N);
    const vDSP_Length n = M * N;
    float sum = 0;
    vDSP_sve(C, 1, &sum, n);
    return C[M * N - 1] * 100 + sum;
}

} // namespace accelerate_test
