// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void math(device float* x [[buffer(0)]], device half* h [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float v = x[i];
    x[i] = exp(v) + precise::log(abs(v) + 1.0f) + fast::sin(v) + sqrt(fabs(v)) + rsqrt(v * v + 1.0f) + tanh(v) +
           fma(v, v, 1.0f) + pow(fabs(v), 0.5f) + clamp(v, -1.0f, 1.0f) + mix(v, 1.0f, 0.5f);
    h[i] = exp(h[i]) + max(h[i], 0.0h);
}
