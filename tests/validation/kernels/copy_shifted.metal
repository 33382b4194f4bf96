// Kernels of the listener suite and of the validation probe (tests/validation): line numbers
// matter, process_level_test.cpp asserts them.
#include <metal_stdlib>
using namespace metal;

// out[i + shift] = in[i]: with shift 1, the last thread stores one element past the end of out.
kernel void copy_shifted(device const float* in [[buffer(0)]],
                         device float* out [[buffer(1)]],
                         constant uint& shift [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    out[i + shift] = in[i];
}

kernel void fill(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = 1.0f;
}
