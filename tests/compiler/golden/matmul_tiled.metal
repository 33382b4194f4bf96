// Tiled C = A * B with square tiles staged in threadgroup memory; N is a multiple of TILE.
#include <metal_stdlib>
using namespace metal;

#define TILE 16

kernel void matmul_tiled(device const float* A [[buffer(0)]],
                         device const float* B [[buffer(1)]],
                         device float* C [[buffer(2)]],
                         constant uint& N [[buffer(3)]],
                         uint2 group [[threadgroup_position_in_grid]],
                         uint2 local [[thread_position_in_threadgroup]])
{
    const uint row = group.y * TILE + local.y;
    const uint col = group.x * TILE + local.x;
    float acc = 0.0f;
    for (uint t = 0; t < N / TILE; ++t) {
        threadgroup float tileA[TILE][TILE];
        threadgroup float tileB[TILE][TILE];
        tileA[local.y][local.x] = A[row * N + t * TILE + local.x];
        tileB[local.y][local.x] = B[(t * TILE + local.y) * N + col];
        threadgroup_barrier(mem_flags::mem_threadgroup);
#pragma unroll
        for (uint k = 0; k < TILE; ++k) {
            acc += tileA[local.y][k] * tileB[k][local.x];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    C[row * N + col] = acc;
}
