// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void row_sum(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                    uint i [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]],
                    uint group [[simdgroup_index_in_threadgroup]]) {
    float total = simd_sum(in[i]);
    float largest = simd_max(in[i]);
    if (lane == 0) out[group] = total + largest * 0.0f;
}
