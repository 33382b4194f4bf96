// expect: compiles
#include <metal_stdlib>
using namespace metal;

template <typename T>
kernel void add(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]], device T* out [[buffer(2)]],
                uint i [[thread_position_in_grid]]) {
    out[i] = a[i] + b[i];
}

template [[host_name("add_float")]] kernel void add<float>(device const float*, device const float*, device float*, uint);
template [[host_name("add_int")]] kernel void add<int>(device const int* a [[buffer(0)]], device const int* b [[buffer(1)]],
                                                       device int* out [[buffer(2)]], uint i [[thread_position_in_grid]]);
