#pragma once

// The four matmul kernels of samples/matmul written as plain C++: the same algorithm and
// the same work per "thread", with the threadgroup grid spread over the cores by
// tbb::parallel_for as metalcpu spreads threadgroups. C = A * B, row-major.
namespace twins {

void naive(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner);
void tiled(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner);
void register4x4(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner);
void register8x4(const float* a, const float* b, float* c, unsigned rows, unsigned cols, unsigned inner);

} // namespace twins
