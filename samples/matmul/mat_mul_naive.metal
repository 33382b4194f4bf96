#include <metal_stdlib>
#include "ShaderParams.h"
using namespace metal;

// One thread per element of C: x is the column, y the row.
kernel void mat_mul_naive(device const float* A,
                          device const float* B,
                          device float* C,
                          constant MatMulParams& params,
                          uint2 gid [[thread_position_in_grid]])
{
    if (gid.x >= params.cols || gid.y >= params.rows) {
        return;
    }
    float sum = 0.0f;
    for (uint k = 0; k < params.inner; ++k) {
        sum += A[gid.y * params.inner + k] * B[k * params.cols + gid.x];
    }
    C[gid.y * params.cols + gid.x] = sum;
}
