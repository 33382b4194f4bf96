// The default.metallib beside metalcpu_default_library_tests.
#include <metal_stdlib>
using namespace metal;

kernel void beside_kernel(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = int(i) * 5 + 2;
}
