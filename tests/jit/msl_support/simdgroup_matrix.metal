// expect: error: simdgroup_float8x8
#include <metal_stdlib>
using namespace metal;

kernel void tile(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]], device float* c [[buffer(2)]]) {
    simdgroup_float8x8 ma, mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.0f);
    simdgroup_load(ma, a, 8);
    simdgroup_load(mb, b, 8, 0, true);
    simdgroup_multiply_accumulate(mc, ma, mb, mc);
    simdgroup_store(mc, c, 8);
}
