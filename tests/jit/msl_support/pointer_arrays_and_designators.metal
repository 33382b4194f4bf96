// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void select_source(device float* a [[buffer(0)]], device float* b [[buffer(1)]], device float out[] [[buffer(2)]],
                          uint i [[thread_position_in_grid]]) {
    device float* sources[2] = {a, b};
    const constant auto* unused = (constant float*)nullptr;
    int weights[8] = {[0 ... 3] = 1, [4] = 2};
    out[i] = sources[i % 2][i] * float(weights[i % 8]) + (unused ? 1.0f : 0.0f);
}

// Indices the front end cannot evaluate: a template parameter, a constexpr local.
template <short N>
kernel void fill_ranges(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    constexpr short M = N / 2;
    float s[N] = {[0 ... M - 1] = 1.0f, [M ... N - 1] = 2.0f};
    out[i] = s[i % N];
}
template [[host_name("fill_ranges_4")]] kernel void fill_ranges<4>(device float*, uint);
