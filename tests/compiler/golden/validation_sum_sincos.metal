// The PyTorch MPS tutorial's off-by-one, in the shader-validation flavour: the store's site is
// the `=` (line 9, column 20), as in Apple's report.
#include <metal_stdlib>
using namespace metal;

template <typename T>
kernel void sum_sincos(constant T* x [[buffer(0)]], device T* out [[buffer(1)]],
                       uint index [[thread_position_in_grid]]) {
    out[index + 1] = sin(x[index]) + cos(x[index]);
}

template [[host_name("sum_sincos_float")]] kernel void sum_sincos<float>(constant float*, device float*, uint);
