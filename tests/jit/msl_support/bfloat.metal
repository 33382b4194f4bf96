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

// MLX's arg-sort shape: one template stores either the values or their indices, chosen by a
// plain `if`, so with T = bfloat and U = uint the value branch stores a bfloat into a uint.
template <typename T, typename U, bool ARG>
kernel void store_either(device const T* vals [[buffer(0)]], device const uint* idx [[buffer(1)]], device U* out [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (ARG) {
        out[i] = idx[i];
    } else {
        out[i] = vals[i];
    }
}
template [[host_name("arg_store_bfloat")]] kernel void store_either<bfloat, uint, true>(device const bfloat*, device const uint*, device uint*, uint);
template [[host_name("store_bfloat")]] kernel void store_either<bfloat, bfloat, false>(device const bfloat*, device const uint*, device bfloat*, uint);
