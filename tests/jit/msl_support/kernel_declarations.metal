// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void plain_keyword(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }

[[kernel]] void attribute_form(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 2.0f; }

[[kernel, max_total_threads_per_threadgroup(256)]] void with_limit(device float* out [[buffer(0)]],
                                                                   uint i [[thread_position_in_grid]]) {
    out[i] = 3.0f;
}
