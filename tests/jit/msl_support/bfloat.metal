// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void widen(device const bfloat* in [[buffer(0)]], device float* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    bfloat4 v = bfloat4(in[i]);
    out[i] = float(v.x * in[i]) + float(v.y);
}

// The forms MLX's gemv and reduce kernels write with T = bfloat.
template <typename T>
kernel void load_safe(device const T* in [[buffer(0)]], device float* out [[buffer(1)]], constant int& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    const T v = int(i) < n ? in[i] : 0;
    const bool any = int(i) < n ? in[i] : false;
    out[i] = float(v) + (any ? 1.0f : 0.0f) + (v * float4(1.0f)).x;
}
template [[host_name("load_safe_bfloat")]] kernel void load_safe<bfloat>(device const bfloat*, device float*, constant int&, uint);
