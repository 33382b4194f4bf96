// The checked lane form (shader validation; metalcpu/lane_checked.h): the lane_vectors golden's
// kernels and the naive matmul in the validated flavour.
#include <metal_stdlib>
using namespace metal;

struct MatMulParams {
    uint rows;
    uint cols;
    uint inner;
};

// The matmul sample's 8x4 register-tiled kernel.
kernel void mat_mul_register_8x4(device const float* A,
                                 device const float* B,
                                 device float* C,
                                 constant MatMulParams& params,
                                 uint2 gid [[thread_position_in_grid]])
{
    const uint i = gid.y * 8;
    const uint j = gid.x * 4;
    if (i >= params.rows || j >= params.cols) {
        return;
    }
    float4x4 top(0.0f);
    float4x4 bottom(0.0f);
    for (uint k = 0; k < params.inner; k += 4) {
        float4x4 bt(*(device const float4*)(B + (k + 0) * params.cols + j),
                    *(device const float4*)(B + (k + 1) * params.cols + j),
                    *(device const float4*)(B + (k + 2) * params.cols + j),
                    *(device const float4*)(B + (k + 3) * params.cols + j));
        float4x4 upper(*(device const float4*)(A + (i + 0) * params.inner + k),
                       *(device const float4*)(A + (i + 1) * params.inner + k),
                       *(device const float4*)(A + (i + 2) * params.inner + k),
                       *(device const float4*)(A + (i + 3) * params.inner + k));
        float4x4 lower(*(device const float4*)(A + (i + 4) * params.inner + k),
                       *(device const float4*)(A + (i + 5) * params.inner + k),
                       *(device const float4*)(A + (i + 6) * params.inner + k),
                       *(device const float4*)(A + (i + 7) * params.inner + k));
        top += bt * upper;
        bottom += bt * lower;
    }
    for (uint r = 0; r < 4; ++r) {
        *(device float4*)(C + (i + r) * params.cols + j) = top[r];
        *(device float4*)(C + (i + 4 + r) * params.cols + j) = bottom[r];
    }
}

struct Polynomial {
    uint count;
    uint terms;
};

// Elementwise, with a uniform loop: Horner's rule over the coefficients.
kernel void horner(device const float* x,
                   device const float* coefficients,
                   device float* y,
                   constant Polynomial& p,
                   uint gid [[thread_position_in_grid]])
{
    if (gid >= p.count) return;
    const float v = x[gid];
    float acc = 0.0f;
    for (uint k = 0; k < p.terms; ++k) {
        acc = acc * v + coefficients[k];
    }
    y[gid] += acc;
}

// A per-thread division: refused (a vector division under fast math rounds otherwise).
kernel void divided_sum(device const float* x,
                        device float* y,
                        constant Polynomial& p,
                        uint gid [[thread_position_in_grid]])
{
    float acc = 0.0f;
    for (uint k = 0; k < p.terms; ++k) {
        acc += x[gid] / float(k + 1);
    }
    y[gid] = acc;
}

struct MatmulShape {
    uint rows;
    uint inner;
    uint cols;
};

// One thread per element: a uniform load of A, a per-thread load of B, a per-thread store.
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
