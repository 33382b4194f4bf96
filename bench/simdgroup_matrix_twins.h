#pragma once

// The simdgroup_matrix GEMM of simdgroup_matrix_bench.cpp written as plain C++: the same
// tiles (a threadgroup covers 8 rows and 8 columns per SIMD-group), the same staging of an 8×8
// block of A and of B's rows per step of k, the same 8×8×8 products summed in float; the
// threadgroups spread over the cores by tbb::parallel_for as metalcpu spreads them.
// A is m×k, bRows is B given as n×k (ggml's src1), c is m×n.
namespace twins {

void simdgroupGemm(const float* a, const float* bRows, float* c, unsigned m, unsigned n, unsigned k,
                   unsigned simdgroups);

} // namespace twins
