// expect: compiles
#include <metal_stdlib>
using namespace metal;

[[user_annotation("doubles")]]
kernel void doubled(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] *= 2.0f; }

kernel void halved(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) [[user_annotation("halves")]] {
    out[i] *= 0.5f;
}

template <typename T>
[[user_annotation("fills")]] kernel void fill(device T* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = T(i);
}
template [[host_name("fill_half")]] kernel void fill<half>(device half*, uint);
template [[host_name("fill_uint"), user_annotation("fills uints")]] kernel void fill<uint>(device uint*, uint);
