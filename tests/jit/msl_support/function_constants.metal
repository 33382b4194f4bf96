// expect: error: function constants
#include <metal_stdlib>
using namespace metal;

constant bool use_bias [[function_constant(0)]];
constant int unroll [[function_constant(1)]];
constant int unroll_twice = unroll * 2;

kernel void biased(device float* out [[buffer(0)]], device const float* bias [[buffer(1), function_constant(use_bias)]],
                   uint i [[thread_position_in_grid]]) {
    float v = 0.0f;
    for (int k = 0; k < unroll_twice; ++k) v += 1.0f;
    if (use_bias) v += bias[i];
    out[i] = v;
}
