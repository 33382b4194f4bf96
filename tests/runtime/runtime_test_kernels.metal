// The kernels of runtime_test_kernels.metallib, built by metal_add_library() for the tests
// that load a library from a file (library_test.cpp, default_library/).
#include <metal_stdlib>
using namespace metal;

kernel void file_kernel(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = int(i) * 3 + 17;
}
