/* <Accelerate/Accelerate.h> of metalcpu::accelerate (accelerate/README.md): for programs that
 * take their CPU reference from Apple's Accelerate. It gives BLAS's C interface (cblas_sgemm,
 * CblasRowMajor, ...) from OpenBLAS's cblas.h, and the vDSP functions below with Apple's
 * signatures. Valid C and C++. Anything else of Accelerate (vForce, LAPACK, BNNS, complex vDSP)
 * is not declared, so a program using it fails to compile at the call. */
#ifndef METALCPU_ACCELERATE_ACCELERATE_H
#define METALCPU_ACCELERATE_ACCELERATE_H

/* OpenBLAS's cblas.h names its parameters M, N, A, x, ...; Apple's names them __M, __N, ... So
 * that a program defining such a macro before the include compiles as on macOS, the one-letter
 * names are saved, undefined around cblas.h, and restored. */
#pragma push_macro("A")
#pragma push_macro("B")
#pragma push_macro("C")
#pragma push_macro("K")
#pragma push_macro("M")
#pragma push_macro("N")
#pragma push_macro("P")
#pragma push_macro("X")
#pragma push_macro("Y")
#pragma push_macro("a")
#pragma push_macro("b")
#pragma push_macro("c")
#pragma push_macro("m")
#pragma push_macro("n")
#pragma push_macro("p")
#pragma push_macro("s")
#pragma push_macro("x")
#pragma push_macro("y")
#undef A
#undef B
#undef C
#undef K
#undef M
#undef N
#undef P
#undef X
#undef Y
#undef a
#undef b
#undef c
#undef m
#undef n
#undef p
#undef s
#undef x
#undef y
#include <cblas.h>
#pragma pop_macro("A")
#pragma pop_macro("B")
#pragma pop_macro("C")
#pragma pop_macro("K")
#pragma pop_macro("M")
#pragma pop_macro("N")
#pragma pop_macro("P")
#pragma pop_macro("X")
#pragma pop_macro("Y")
#pragma pop_macro("a")
#pragma pop_macro("b")
#pragma pop_macro("c")
#pragma pop_macro("m")
#pragma pop_macro("n")
#pragma pop_macro("p")
#pragma pop_macro("s")
#pragma pop_macro("x")
#pragma pop_macro("y")

#ifdef __cplusplus
extern "C" {
#endif

/* Apple's types: a count of elements, and the distance between consecutive elements of a
 * vector (negative to walk backwards). Element i of a vector given as (v, stride) is
 * v[i * stride]. Parameters have names of more than one letter, for the reason above. */
typedef unsigned long vDSP_Length;
typedef long vDSP_Stride;

/* Element-wise over `count` elements; the result may be an input (in place). */
/* result = left + right, left * right */
void vDSP_vadd(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
               float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vaddD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                double* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vmul(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
               float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vmulD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                double* result, vDSP_Stride resultStride, vDSP_Length count);
/* result = minuend - subtrahend, dividend / divisor: Apple's order, the right operand first */
void vDSP_vsub(const float* subtrahend, vDSP_Stride subtrahendStride, const float* minuend,
               vDSP_Stride minuendStride, float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsubD(const double* subtrahend, vDSP_Stride subtrahendStride, const double* minuend,
                vDSP_Stride minuendStride, double* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vdiv(const float* divisor, vDSP_Stride divisorStride, const float* dividend,
               vDSP_Stride dividendStride, float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vdivD(const double* divisor, vDSP_Stride divisorStride, const double* dividend,
                vDSP_Stride dividendStride, double* result, vDSP_Stride resultStride, vDSP_Length count);
/* result = input + *scalar, input * *scalar, input / *scalar */
void vDSP_vsadd(const float* input, vDSP_Stride inputStride, const float* scalar, float* result,
                vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsaddD(const double* input, vDSP_Stride inputStride, const double* scalar, double* result,
                 vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsmul(const float* input, vDSP_Stride inputStride, const float* scalar, float* result,
                vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsmulD(const double* input, vDSP_Stride inputStride, const double* scalar, double* result,
                 vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsdiv(const float* input, vDSP_Stride inputStride, const float* scalar, float* result,
                vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsdivD(const double* input, vDSP_Stride inputStride, const double* scalar, double* result,
                 vDSP_Stride resultStride, vDSP_Length count);
/* result = input * *scalar + addend */
void vDSP_vsma(const float* input, vDSP_Stride inputStride, const float* scalar, const float* addend,
               vDSP_Stride addendStride, float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vsmaD(const double* input, vDSP_Stride inputStride, const double* scalar, const double* addend,
                vDSP_Stride addendStride, double* result, vDSP_Stride resultStride, vDSP_Length count);
/* result = left * right + addend */
void vDSP_vma(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
              const float* addend, vDSP_Stride addendStride, float* result, vDSP_Stride resultStride,
              vDSP_Length count);
void vDSP_vmaD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
               const double* addend, vDSP_Stride addendStride, double* result, vDSP_Stride resultStride,
               vDSP_Length count);
/* result = -input, |input|, input * input */
void vDSP_vneg(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
               vDSP_Length count);
void vDSP_vnegD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
                vDSP_Length count);
void vDSP_vabs(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
               vDSP_Length count);
void vDSP_vabsD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
                vDSP_Length count);
void vDSP_vsq(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
              vDSP_Length count);
void vDSP_vsqD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
               vDSP_Length count);
/* result = *scalar; result = 0; result[i] = *start + i * *step */
void vDSP_vfill(const float* scalar, float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vfillD(const double* scalar, double* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vclr(float* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vclrD(double* result, vDSP_Stride resultStride, vDSP_Length count);
void vDSP_vramp(const float* start, const float* step, float* result, vDSP_Stride resultStride,
                vDSP_Length count);
void vDSP_vrampD(const double* start, const double* step, double* result, vDSP_Stride resultStride,
                 vDSP_Length count);

/* Reductions of `count` elements to *result. Of no elements, sums are 0, the maximum is
 * -INFINITY, the minimum +INFINITY and the mean NaN. */
/* the sum of left * right */
void vDSP_dotpr(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
                float* result, vDSP_Length count);
void vDSP_dotprD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                 double* result, vDSP_Length count);
/* the sum, the sum of squares, the mean, the largest and the smallest element of input */
void vDSP_sve(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count);
void vDSP_sveD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count);
void vDSP_svesq(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count);
void vDSP_svesqD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count);
void vDSP_meanv(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count);
void vDSP_meanvD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count);
void vDSP_maxv(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count);
void vDSP_maxvD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count);
void vDSP_minv(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count);
void vDSP_minvD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count);
/* The largest (smallest) element of input, or of |input|, and in *index the least i * inputStride
   at which it is, as Apple's vDSP.h says: the position in memory, not the element's number,
   and for a negative stride the last of equal elements. With no elements the result is -inf
   (+inf, 0 for the largest magnitude) and the index 0. */
void vDSP_maxvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index,
                vDSP_Length count);
void vDSP_maxviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index,
                 vDSP_Length count);
void vDSP_minvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index,
                vDSP_Length count);
void vDSP_minviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index,
                 vDSP_Length count);
void vDSP_maxmgvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index,
                  vDSP_Length count);
void vDSP_maxmgviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index,
                   vDSP_Length count);
void vDSP_minmgvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index,
                  vDSP_Length count);
void vDSP_minmgviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index,
                   vDSP_Length count);

/* Row-major matrices whose consecutive elements are `stride` apart; the result is no input. */
/* result (rows x columns) = left (rows x inner) * right (inner x columns) */
void vDSP_mmul(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
               float* result, vDSP_Stride resultStride, vDSP_Length rows, vDSP_Length columns,
               vDSP_Length inner);
void vDSP_mmulD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                double* result, vDSP_Stride resultStride, vDSP_Length rows, vDSP_Length columns,
                vDSP_Length inner);
/* result (rows x columns) = the transpose of input (columns x rows) */
void vDSP_mtrans(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
                 vDSP_Length rows, vDSP_Length columns);
void vDSP_mtransD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
                  vDSP_Length rows, vDSP_Length columns);

#ifdef __cplusplus
}
#endif

#endif /* METALCPU_ACCELERATE_ACCELERATE_H */
