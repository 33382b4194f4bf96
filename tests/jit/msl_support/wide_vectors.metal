// expect: error: metal::vec has 2, 3 or 4 components, not 64
#include <metal_stdlib>
using namespace metal;

// metal-flash-attention's simdgroup_matrix_storage keeps Apple's internal storage of a
// simdgroup_matrix, a vec of 64 elements, and multiplies with __metal_simdgroup_matrix_8x8_*.
template <typename T> struct simdgroup_matrix_storage {
    vec<T, 64> t;
};

kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    simdgroup_matrix_storage<float> s;
    out[lid] = s.t[0];
}
