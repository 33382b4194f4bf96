// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void limits(device float* f [[buffer(0)]], device int* n [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    f[i] = max(f[i], numeric_limits<float>::lowest()) + (isinf(numeric_limits<float>::infinity()) ? 0.0f : 1.0f) +
           float(numeric_limits<half>::max()) * 0.0f + FLT_EPSILON + INFINITY * 0.0f;
    n[i] = min(n[i], numeric_limits<int>::max());
}
