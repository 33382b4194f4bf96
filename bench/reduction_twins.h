#pragma once

// The reduction kernels of reduction_bench.cpp written as plain C++: the same algorithm and
// the same work per "thread" (a run of `perThread` floats, then a sum over each SIMD-group of
// 32, then over the group's SIMD-groups), threadgroups spread over the cores by
// tbb::parallel_for as metalcpu spreads them. out[g] is group g's sum.
namespace twins {

void reduceGroups(const float* in, float* out, unsigned groups, unsigned threadsPerGroup, unsigned perThread);

} // namespace twins
