// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void tile(device const float* a [[buffer(0)]], device const half* b [[buffer(1)]], device float* c [[buffer(2)]],
                 ushort lane [[thread_index_in_simdgroup]]) {
    simdgroup_float8x8 ma;
    simdgroup_half8x8 mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.0f);
    simdgroup_load(ma, a, 8);
    simdgroup_load(mb, b, 8, 0, true);
    simdgroup_multiply_accumulate(mc, ma, mb, mc);
    simdgroup_multiply(mc, mc, simdgroup_float8x8(2.0f));
    simdgroup_store(mc, c, 8);
    simdgroup_bfloat8x8 mz(0);
    reinterpret_cast<thread vec<bfloat, 2>&>(mz.thread_elements()) = vec<bfloat, 2>(lane);
    c[64 + lane] = float(mz.thread_elements()[1]);
}
