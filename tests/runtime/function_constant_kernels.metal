// A kernel with a function constant, built into its own .metallib by metal_add_library() for
// function_constants_test.cpp: a library from a file can be specialised too.
#include <metal_stdlib>
using namespace metal;

constant int factor [[function_constant(0)]];

kernel void file_scaled(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = int(i) * factor;
}
