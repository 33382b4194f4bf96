// expect: compiles
#include <metal_stdlib>
#include <metal_array>
using namespace metal;

kernel void gather(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                   constant uint& count [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    array<float, 3> weights = {0.25f, 0.5f, 0.25f};
    uniform<uint> n = make_uniform(count);
    float4x3 m = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
    float acc = 0.0f;
    for (uint k = 0; k < weights.size(); ++k) acc += weights[k] * in[(i + k) % uint(n)];
    out[i] = acc + (m * float4(1.0f)).x;
}
