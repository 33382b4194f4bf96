// One thread per element of C = A * B, all matrices row-major.
#include <metal_stdlib>
using namespace metal;

struct MatmulShape {
    uint rows;
    uint inner;
    uint cols;
};

kernel void matmul_naive(device const float* a [[buffer(0)]],
                         device const float* b [[buffer(1)]],
                         device float* c [[buffer(2)]],
                         constant MatmulShape& shape [[buffer(3)]],
                         uint2 gid [[thread_position_in_grid]])
{
    if (gid.x >= shape.cols || gid.y >= shape.rows) return;
    float sum = 0.0f;
    for (uint k = 0; k < shape.inner; ++k) {
        sum += a[gid.y * shape.inner + k] * b[k * shape.cols + gid.x];
    }
    c[gid.y * shape.cols + gid.x] = sum;
}
