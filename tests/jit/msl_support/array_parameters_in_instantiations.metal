// expect: compiles
#include <metal_stdlib>
using namespace metal;

template <typename T, int DIM>
[[kernel]] void strided_copy(device const T* in [[buffer(0)]], device T* out [[buffer(1)]],
                             constant const int shape[DIM] [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    out[i] = in[i % uint(shape[DIM - 1])];
}

template [[host_name("strided_copy_float_2")]] [[kernel]] void strided_copy<float, 2>(
    device const float* in [[buffer(0)]], device float* out [[buffer(1)]], constant const int shape[2] [[buffer(2)]],
    uint i [[thread_position_in_grid]]);
