// Register-tiled matmul: every thread computes one 4x4 block of C with float4x4 algebra.
#include <metal_stdlib>
using namespace metal;

struct Params {
    uint n;      // matrices are n x n, n a multiple of 4
    uint blocks; // n / 4
};

static inline float4x4 load_block(device const float4x4* m, constant Params& p, uint row, uint col)
{
    return m[row * p.blocks + col];
}

kernel void matmul_blocks(device const float4x4* a [[buffer(0)]],
                          device const float4x4* b [[buffer(1)]],
                          device float4x4* c [[buffer(2)]],
                          constant Params& p [[buffer(3)]],
                          uint2 id [[thread_position_in_grid]])
{
    float4x4 acc = float4x4(0.0f);
    for (uint k = 0; k < p.blocks; ++k) {
        acc += load_block(b, p, k, id.x) * load_block(a, p, id.y, k);
    }
    c[id.y * p.blocks + id.x] = acc;
}
