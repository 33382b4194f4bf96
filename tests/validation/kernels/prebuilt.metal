#include <metal_stdlib>
using namespace metal;

// Built into a .metallib by the build (tests/validation/CMakeLists.txt); reports_end_to_end_test.cpp asserts line 6.
kernel void prebuilt_store(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[int(i) + offset] = 2.0f;
}
