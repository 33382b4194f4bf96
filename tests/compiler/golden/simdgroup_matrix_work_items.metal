#include <metal_stdlib>
using namespace metal;

// SIMD-group matrix products written as call statements split the kernel into work-item
// loops like `x = simd_sum(e);`: the first loop hands in the operands, the second writes each
// thread's result to the first argument (here also the accumulator). Loads and stores need
// only the thread's lane, which the pieces that call them learn from the thread's index.
kernel void gemm(device const float* a [[buffer(0)]],
                 device const float* b [[buffer(1)]],
                 device float* c [[buffer(2)]],
                 constant uint& k [[buffer(3)]],
                 threadgroup float* staged [[threadgroup(0)]],
                 ushort lid [[thread_index_in_threadgroup]],
                 ushort threads [[threads_per_threadgroup]]) {
    simdgroup_float8x8 ma, mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.f);
    for (uint k0 = 0; k0 < k; k0 += 8) {
        for (uint i = lid; i < 128; i += threads)
            staged[i] = i < 64 ? a[i / 8 * k + k0 + i % 8] : b[(i - 64) / 8 * k + k0 + i % 8];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        simdgroup_load(ma, staged, 8);
        simdgroup_load(mb, staged + 64, 8, 0, true);
        simdgroup_multiply_accumulate(mc, ma, mb, mc);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    simdgroup_store(mc, c, 8);
}

// A product under an if whose condition differs per thread, and one made of a diagonal.
kernel void scaled(device const half* a [[buffer(0)]],
                   device float* d [[buffer(1)]],
                   uint lane [[thread_index_in_simdgroup]]) {
    simdgroup_half8x8 ma;
    simdgroup_load(ma, a);
    simdgroup_float8x8 twice(2.0f);
    simdgroup_float8x8 md;
    if (lane < 16) {
        metal::simdgroup_multiply(md, ma, twice);
    }
    simdgroup_store(md, d);
}

// A product as a lambda's statement keeps the fibers.
kernel void nested(device float* d [[buffer(0)]]) {
    simdgroup_float8x8 m;
    simdgroup_load(m, d);
    auto square = [&] { simdgroup_multiply(m, m, m); };
    square();
    simdgroup_store(m, d);
}

// tinygrad's WMMA loop body: the operands set from device memory, the product, the result
// read back. The pieces before and after the product run in its two loops.
kernel void wmma(device float* data0 [[buffer(0)]],
                 device const float* data1 [[buffer(1)]],
                 uint lid [[thread_index_in_threadgroup]]) {
    float2 acc0 = float2(0.0f, 0.0f);
    for (int ridx0 = 0; ridx0 < 4; ridx0++) {
        simdgroup_float8x8 mat_a, mat_c;
        mat_a.thread_elements()[0] = data1[ridx0 * 64 + 2 * lid];
        mat_a.thread_elements()[1] = data1[ridx0 * 64 + 2 * lid + 1];
        mat_c.thread_elements() = acc0;
        simdgroup_multiply_accumulate(mat_c, mat_a, mat_a, mat_c);
        acc0 = float2(mat_c.thread_elements()[0], mat_c.thread_elements()[1]);
    }
    data0[lid] = acc0.x + acc0.y;
}
