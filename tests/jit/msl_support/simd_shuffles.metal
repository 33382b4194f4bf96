// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void shuffles(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float v = data[i];
    for (ushort offset = 16; offset > 0; offset /= 2) v += simd_shuffle_down(v, offset);
    data[i] = v + simd_shuffle_xor(v, 1) + simd_broadcast(v, 0) + simd_prefix_exclusive_sum(v);
}
