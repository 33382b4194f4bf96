#pragma once

// The softmax kernel of softmax_bench.cpp (softmax_rows.metal) written as plain C++: the same
// algorithm and the same work per "thread" (a strided run of the row for the maximum, again
// for the sum of exp(x - max), the sum taken over each SIMD-group of 32 and then over the
// group's SIMD-groups, then the row normalised), rows spread over the cores by
// tbb::parallel_for as metalcpu spreads threadgroups.
namespace twins {

void softmaxRows(const float* in, float* out, unsigned rows, unsigned n, unsigned threadsPerGroup);

} // namespace twins
