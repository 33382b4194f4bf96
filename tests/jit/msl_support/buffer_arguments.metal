// expect: compiles
#include <metal_stdlib>
using namespace metal;

struct Params {
    uint count;
    float scale;
    bool enabled;
};

kernel void scale(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                  constant Params& params [[buffer(2)]], constant float* table [[buffer(3)]],
                  uint i [[thread_position_in_grid]]) {
    if (i >= params.count || !params.enabled) return;
    out[i] = in[i] * params.scale + table[i % 4];
}
