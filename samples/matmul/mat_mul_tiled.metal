#include <metal_stdlib>
#include "ShaderParams.h"
using namespace metal;

constant uint TILE = 16;

// The classic shared-memory tiling (as in NVIDIA's CUDA matrixMul sample): a threadgroup of
// TILE x TILE threads computes one TILE x TILE tile of C, staging tiles of A and B in
// threadgroup memory. Sizes need not be multiples of TILE: edges load zeros.
kernel void mat_mul_tiled(device const float* A,
                          device const float* B,
                          device float* C,
                          constant MatMulParams& params,
                          uint2 group [[threadgroup_position_in_grid]],
                          uint2 local [[thread_position_in_threadgroup]])
{
    const uint row = group.y * TILE + local.y;
    const uint col = group.x * TILE + local.x;
    float sum = 0.0f;
    for (uint t = 0; t < params.inner; t += TILE) {
        threadgroup float tileA[TILE][TILE];
        threadgroup float tileB[TILE][TILE];

        const uint aCol = t + local.x;
        const uint bRow = t + local.y;
        tileA[local.y][local.x] = (row < params.rows && aCol < params.inner) ? A[row * params.inner + aCol] : 0.0f;
        tileB[local.y][local.x] = (bRow < params.inner && col < params.cols) ? B[bRow * params.cols + col] : 0.0f;
        threadgroup_barrier(mem_flags::mem_threadgroup);

        for (uint k = 0; k < TILE; ++k) {
            sum += tileA[local.y][k] * tileB[k][local.x];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (row < params.rows && col < params.cols) {
        C[row * params.cols + col] = sum;
    }
}
