#include <metal_stdlib>
#include "ShaderParams.h"
using namespace metal;

// Each thread computes a 4x4 block of C in registers, with float4x4 algebra and no
// threadgroup memory. rows, cols and inner must be multiples of 4.
//
// float4x4 is column-major: float4x4(r0, r1, r2, r3) takes four columns. Built from four
// rows of B (as columns) and four rows of A, the product acc = Bt * At holds, in column r,
// row r of the C block: C[i + r][j .. j + 3] = acc[r].
kernel void mat_mul_register_4x4(device const float* A,
                                 device const float* B,
                                 device float* C,
                                 constant MatMulParams& params,
                                 uint2 gid [[thread_position_in_grid]])
{
    const uint i = gid.y * 4; // first row of the block
    const uint j = gid.x * 4; // first column of the block
    if (i >= params.rows || j >= params.cols) {
        return;
    }
    float4x4 acc(0.0f);
    for (uint k = 0; k < params.inner; k += 4) {
        float4x4 at(*(device const float4*)(A + (i + 0) * params.inner + k),
                    *(device const float4*)(A + (i + 1) * params.inner + k),
                    *(device const float4*)(A + (i + 2) * params.inner + k),
                    *(device const float4*)(A + (i + 3) * params.inner + k));
        float4x4 bt(*(device const float4*)(B + (k + 0) * params.cols + j),
                    *(device const float4*)(B + (k + 1) * params.cols + j),
                    *(device const float4*)(B + (k + 2) * params.cols + j),
                    *(device const float4*)(B + (k + 3) * params.cols + j));
        acc += bt * at;
    }
    for (uint r = 0; r < 4; ++r) {
        *(device float4*)(C + (i + r) * params.cols + j) = acc[r];
    }
}
